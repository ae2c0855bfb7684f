"""Words spelled out letter by letter on a call, in its transcript (``c h l o e``, ``o
apostrophe r o u r k e``, French ``b comme bernard e r r e``): a pass over the decisions of
:func:`~emprivacy.preparation.entity_slots.entity_decisions`, after the initials' (issue 40).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from emprivacy.entities.spans import NAMED_TYPES, PROPER_NOUN
from emprivacy.preparation.decisions import (
    Decision,
    Dropped,
    EntitySlot,
    Placeholder,
    decision_type,
    take_initial,
)
from emprivacy.text.tokens import Token

__all__ = ["SPELLED_LETTERS", "SPELLING_JOINS", "spelled_words"]

#: Words said between the letters of a spelled word (``o apostrophe r o u r k e``, French
#: ``l e espace b e r r e tiret m e n d e s``).
SPELLING_JOINS = frozenset({"apostrophe", "hyphen", "dash", "space", "espace", "tiret"})
#: Words that give a letter's example word (``b comme bernard``, ``b as in bravo``, ``b for
#: bravo``): within a spelling they are skipped over, and the example, which would spell the
#: letter back, is a name's slot.
_SPELLING_AIDS = (("comme",), ("for",), ("as", "in"))
#: The fewest letters that make a spelled word.
SPELLED_LETTERS = 3


def spelled_words(decisions: list[Decision], counted: Counter[str], text: str,
                     tokens: Sequence[Token]) -> None:
    """A run of :data:`SPELLED_LETTERS` or more single letters one space apart (``c h l o
    e``, ``a m r i t``, ``o apostrophe r o u r k e``: a name spelled out on a call, in its
    transcript) is a word spelled letter by letter, in a call almost always a name (issue 40,
    the seventh held-out set: 50 of 195 person-name tokens of one call).  It becomes **one**
    ``PERSON`` slot keyed by the word it spells (``chloe``, ``o'rourke``; the join words and
    a letter's example word — ``b comme bernard`` — with it), written once, where the last
    letter was: the same surrogate as the name said aloud (one person, one surrogate), and
    no letter that a draw of its own gives back by chance (issue 40, thirteenth stage: a
    letter drawn independently came out as itself one time in ten or so — ``c``, ``s`` and
    ``h`` begin many names).  Where a pass has decided a word of the run other than as a
    name (an initial, a recogniser's person, place or organisation: :func:`_one_word`) — a
    pattern's e-mail part, identifier or date — or the run holds numbers (``e six k zero
    seven``, ``b r seven seven four``: a reference read out, four tokens or more with two
    numbers), each
    undecided letter is a slot of its own instead, drawn independently of it (its place in
    the key: a letter twice is two draws).  One letter repeated is no spelling (``love you
    x x x``)."""
    n = len(tokens)
    i = 0
    # a spelling starts at a letter or a number: the other tokens start none (issue 40, cost)
    for start in [k for k, t in enumerate(tokens) if t.kind == "number" or (
            t.kind == "word" and len(t.text) == 1 and t.text.isalpha())]:
        if start < i:
            continue  # inside the run before
        i = start
        run: list[int] = []
        examples: list[int] = []
        numbers = 0
        j = i
        while j < n and ((tokens[j].kind == "word" and len(tokens[j].text) == 1
                          and tokens[j].text.isalpha()) or tokens[j].kind == "number"):
            if tokens[j].kind == "number":
                numbers += 1
            else:
                run.append(j)
            nxt = j + 1
            if (nxt + 1 < n and tokens[nxt].text.lower() in SPELLING_JOINS
                    and text[tokens[j].end:tokens[nxt].start] == " "
                    and text[tokens[nxt].end:tokens[nxt + 1].start] == " "):
                nxt += 1  # "o apostrophe r"
            elif tokens[j].kind == "word" and (aid := _spelling_aid(text, tokens, j)):
                examples.append(aid)  # "b comme bernard e r r e": the example word too
                nxt = aid + 1
            if nxt >= n or text[tokens[nxt - 1].end:tokens[nxt].start] != " ":
                break
            j = nxt
        if len({tokens[k].text.lower() for k in run}) < 2 and not numbers:
            run = []  # "love you x x x": kisses, not a spelling
        last = max([run[-1], *examples]) if run else -1
        if ((len(run) >= SPELLED_LETTERS or _spells_name_before(decisions, tokens, run))
                and not numbers and _one_word(decisions, run[0], last)):
            _spelled_word(decisions, counted, text, tokens, run[0], last)
        elif len(run) >= SPELLED_LETTERS or (run and numbers >= 2
                                             and len(run) + numbers >= 4):
            for k in run:
                if decisions[k] is None:
                    take_initial(decisions, counted, k, tokens[k], own=True)
            for k in examples:  # its letter's word would spell the name back ("oscar")
                if decisions[k] is None:
                    decisions[k] = EntitySlot(("PERSON", tokens[k].text.lower()), -1, None,
                                              independent=True)
                    counted["PERSON"] += 1
        i = max(j, i) + 1


_NAMES = (*NAMED_TYPES, PROPER_NOUN)


def _spells_name_before(decisions: Sequence[Decision], tokens: Sequence[Token],
                        run: Sequence[int]) -> bool:
    """Two letters right after a person's slot that spell its word (``mrs ng n g``: a short
    name spelled out after it is said, issue 40, the twenty-sixth set)."""
    if len(run) != 2 or run[0] == 0 or run[1] != run[0] + 1:
        return False
    before = decisions[run[0] - 1]
    return (isinstance(before, EntitySlot) and before.key[0] == "PERSON"
            and before.key[1] == "".join(tokens[k].text.lower() for k in run))


def _one_word(decisions: Sequence[Decision], first: int, last: int) -> bool:
    """Whether tokens ``first`` to ``last`` (a spelling) are undecided but as a name: an
    initial, or a recogniser's name, place or organisation (``o apostrophe r o u r [ORG]``:
    a model reads letters at random), never a pattern's identifier, e-mail or date."""
    return all(d is None or (isinstance(d, EntitySlot | Placeholder)
                             and decision_type(d) in _NAMES)
               for d in decisions[first:last + 1])




#: How a join word is written in the key of a spelled word (``o'rourke``, ``le-berre``).
_JOINED = {"apostrophe": "'", "hyphen": "-", "dash": "-", "tiret": "-", "space": " ",
           "espace": " "}


def _spelled_word(decisions: list[Decision], counted: Counter[str], text: str,
                  tokens: Sequence[Token], first: int, last: int) -> None:
    """Tokens ``first`` to ``last``, a word spelled letter by letter with its join words and
    examples, become one ``PERSON`` slot at ``last`` keyed by the word (drawn independently
    of it, or as the same word's slot elsewhere in the document), the others
    :class:`Dropped` with the spaces after them, and so are the words said just before it
    that read as the same word misheard (:func:`_said_before`: the same slot, once); where
    a person's placeholder covers one of them (``PERSON=placeholder``), that placeholder,
    once.  ``counted`` drops what it
    counted of the decisions replaced."""
    for d in decisions[first:last + 1]:
        if isinstance(d, EntitySlot | Placeholder):  # _one_word: no other decision here
            counted[decision_type(d)] -= 1
    person = next((d for d in decisions[first:last + 1]
                   if isinstance(d, Placeholder) and d.type == "PERSON"), None)
    if person is not None:  # the policy's placeholder: one for the whole spelled word
        decisions[first:last + 1] = [person] * (last + 1 - first)
        counted["PERSON"] += last + 1 - first
        return
    parts: list[str] = []
    for tok in tokens[first:last + 1]:  # an aid (comme, for) and its example: no letter
        word = tok.text.lower()
        if word in _JOINED:
            parts.append(_JOINED[word])
        elif len(word) == 1:
            parts.append(word)
    for k in range(first, last):
        decisions[k] = Dropped("PERSON")
    key = "".join(parts)
    decisions[last] = EntitySlot(("PERSON", key), -1, None, independent=True)
    counted["PERSON"] += 1
    said = _said_before(decisions, text, tokens, first, key)
    for k in said[:-1]:
        decisions[k] = Dropped("PERSON")
    if said:
        decisions[said[-1]] = decisions[last]
        counted["PERSON"] += 1


#: How alike (:class:`difflib.SequenceMatcher`'s ratio) the words said just before a
#: spelling and the word it spells are when they are that word misheard (``pad rake p a d r
#: a i g``, ``kat aryna k a t a r z y n a``).
SAID_ALIKE = 0.7


#: Words said between a name and its spelling (``mary theresa quickly that's q u i g l e
#: y``, ``it's spelt``): the words before them are the name misheard.
_LINK_BEFORE = re.compile(r"[ \t,]+(?:that[’']?s|that is|it[’']?s|its|spelt|spelled|spelling"
                          r"|spells)(?:[ \t]+(?:spelt|spelled|like))?[ \t,:]*\Z", re.IGNORECASE)


def _said_before(decisions: Sequence[Decision], text: str, tokens: Sequence[Token],
                 first: int, key: str) -> list[int]:
    """The one to three undecided words right before a spelling, one space apart, that read
    together as the word it spells (:data:`SAID_ALIKE`): a transcript's mishearing of the
    name that the caller then spells (``her late husband pad rake p a d r a i g``), also
    before a link (``quickly that's q u i g l e y``: :data:`_LINK_BEFORE`, issue 40, the
    seventeenth stage); the longest such run, ``[]`` for none."""
    best: list[int] = []
    if first > 0:
        line = text.rfind("\n", 0, tokens[first].start) + 1
        link = _LINK_BEFORE.search(text, max(line, tokens[first].start - 24),
                                   tokens[first].start)
        if link is not None:  # the words before the link, which stays as said
            while first > 0 and tokens[first - 1].end > link.start():
                first -= 1
    k = first
    while k > 0 and first - k < 3:
        k -= 1
        if (tokens[k].kind != "word" or decisions[k] is not None or len(tokens[k].text) < 2
                or text[tokens[k].end:tokens[k + 1].start] not in (" ", ", ")
                or (k < first - 1 and text[tokens[k].end:tokens[k + 1].start] != " ")):
            break
        said = "".join(t.text.lower() for t in tokens[k:first])
        if SequenceMatcher(None, said, key.replace("'", "").replace("-", "")).ratio() \
                >= SAID_ALIKE:
            best = list(range(k, first))
    return best


def _spelling_aid(text: str, tokens: Sequence[Token], j: int) -> int | None:
    """The index of the example word after letter ``j`` (``b comme bernard``, ``o for oscar``,
    ``d as in delta``: one space apart, on one line, the example beginning with the letter;
    not ``a b for english``), else ``None``."""
    for aid in _SPELLING_AIDS:
        k = j + 1 + len(aid)
        if k < len(tokens) and [t.text.lower() for t in tokens[j + 1:k]] == list(aid) \
                and text[tokens[j].end:tokens[k].start].lower() == f" {' '.join(aid)} " \
                and tokens[k].kind == "word" and len(tokens[k].text) > 1 \
                and tokens[k].text[:1].lower() == tokens[j].text.lower():
            return k
    return None
