"""The words the learned detector finds where every other decision left a gap (issue 40).

The ``learned`` detector (:mod:`~emprivacy.entities.learned`) is asked last: after the
detectors' spans were decided, widened, joined and spread by every rule of
:func:`~emprivacy.preparation.entity_slots.entity_decisions`, a word that is still released
at the general ε, that text mode does not keep as a function word (``will``, ``may`` need the
rules' evidence), that is no calendar word, title, role or form key and is rarer than
:data:`FILL_ZIPF` in the text's language, and that the learned detector takes, becomes what
its type's policy says: a slot of the person or place sub-vocabulary (drawn independently
where no list holds it), or a placeholder, consecutive words of one type one placeholder.
Then a word the model takes only beside another (its :class:`~emprivacy.entities.learned.NearSpan`:
over :data:`~emprivacy.entities.learned.NEAR_THRESHOLD`, rarer than :data:`BESIDE_ZIPF`)
is filled where the word next to it (a space, an ``&`` or a ``'s`` between) is a person's, a
place's or an organisation's slot or placeholder that a rule decided, and so on along the run
(``PENNINE CHIP``, ``HOPE & ANCHOR``); beside a word the model alone decided, only
over :data:`BESIDE_MODEL`.  So the model adds protection and never changes a rule's decision.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from emprivacy.entities.capitalised import CALENDAR_WORDS
from emprivacy.entities.labels import FILLERS, SPEAKER_ROLES
from emprivacy.entities.learned import NearSpan
from emprivacy.entities.name_words import inflected_alone
from emprivacy.entities.policy import placeholder
from emprivacy.entities.spans import EntitySpan
from emprivacy.entities.table_names import code_cell, key_codes
from emprivacy.preparation.decisions import GENERAL, Decision, EntitySlot, Kept, Placeholder
from emprivacy.preparation.titles import kin_word
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token

if TYPE_CHECKING:
    from emprivacy.entities.marking import EntityMarking

__all__ = ["BESIDE_MODEL", "BESIDE_ZIPF", "FILL_ZIPF", "learned_gaps"]

#: Words at least this common (Zipf, in the text's language) are left to the rules' evidence:
#: the model took ``national``, ``oh``, ``hope``, ``plan``, ``de`` where they were words
#: (``National Insurance``, ``i think she oh no``, ``plan a b``); rarer common words need
#: the detector's stricter threshold (:data:`~emprivacy.entities.learned.COMMON_THRESHOLD`).
FILL_ZIPF = 5.0
#: The same beside a word another decision protects as a name, place or organisation
#: (:class:`~emprivacy.entities.learned.NearSpan`): the ``North`` of ``North Tyneside
#: Council``, ``Church`` of ``Church Walk``; the most common words (``the``, ``and``,
#: ``with``) still need the rules.
BESIDE_ZIPF = 6.0
#: Beside a word the model alone decided, the least score of a word the model is less sure of
#: (``kofi primary carer``: ``kofi`` an organisation to the model, ``primary`` at 0.55 is no
#: part of it; ``DENTAL`` at 0.73 of ``THE CASTLE DENTAL PLATE`` is).
BESIDE_MODEL = 0.6

#: Calendar words and the weekdays' abbreviations (``Fri``, ``Wed``), which a form's dates
#: hold; the months' (``Sept``) are the language's :attr:`~emprivacy.text.language.Language.months`.
#: And the festivals of a year, rare as English words (``happy diwali``: the model took
#: ``diwali`` of ``community radio diwali lights`` for a name, and one decision per form made
#: each of its 33 mentions in the forty-seventh English set a person's slot).
_CALENDAR = CALENDAR_WORDS | frozenset(
    "mon tue tues wed thu thur thurs fri sat sun diwali deepavali eid ramadan ramzan hanukkah "
    "chanukah vaisakhi baisakhi navratri holi lohri pongal onam passover purim".split())


#: The types whose protected words vouch for a neighbour the model takes only beside them.
_NAMED = frozenset({"PERSON", "LOCATION", "ORG"})
#: A speaker's fillers, no name's word however near one (``from zhanna um first``: the
#: second reading's ``um`` became ``[ORG]``).
_FILLERS = FILLERS | frozenset("ah eh oh yeah yep yup nope ok okay".split())
#: A word that may stand between such a word and its neighbour (``Dunn's Skip Hire``), as
#: an ``&`` may (``HOPE & ANCHOR``).
_POSSESSIVES = frozenset({"'s", "’s", "'S", "’S"})
#: What joins two words of one name: nothing, a space, or an ``&`` between spaces — not a
#: table's column gap or a tab (the next cell is another field).
_JOINED = re.compile(r" ?(?:& ?)?")


def _may_fill(marking: EntityMarking, word: str, most: float) -> bool:
    """Whether the learned detector may decide ``word`` (normalised): no calendar word (the
    language's months too), no title, role or form key, and rarer than :data:`FILL_ZIPF` in
    the text's language."""
    from emprivacy.entities.name_words import zipf_in

    language = get_language(marking.lang)
    return (word not in _CALENDAR and word not in language.months
            and not marking.label_word(word) and word not in SPEAKER_ROLES
            and word not in language.titles
            and (marking.english_zipf(word) if language.code == "en"
                 else zipf_in(word, language.wordfreq_code)) < most)


def _country_code(marking: EntityMarking, text: str, tok: Token, word: str) -> bool:
    """Whether ``tok`` is a country's code filling a table's cell
    (:func:`~emprivacy.entities.table_names.code_cell`: ``| GBR |``, which the detectors'
    spans leave out) that no list holds as a name (not ``PAK``, ``GUY``)."""
    return (code_cell(text, EntitySpan(tok.start, tok.end, "PERSON"))
            and not marking.listed_given(word) and not marking.family_name(word))


def learned_gaps(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                 text: str, tokens: Sequence[Token], words: Sequence[str],
                 rows: Sequence[int], verbatim: Sequence[bool], *, first_span: int,
                 slot: Callable[[str, str, str, int], EntitySlot],
                 covered: Sequence[bool] | None = None) -> None:
    """Fill ``decisions`` (in place) where the learned detector found a word and nothing
    else decided it; ``first_span`` numbers the placeholders' spans after the piece's own,
    ``slot(type, kind, word, row)`` makes a slot as the other decisions do.  ``covered``:
    the tokens another detector's span covers, which ``counted`` holds as released at the
    general ε (:data:`~emprivacy.preparation.decisions.GENERAL`) until one is filled."""
    gaps = marking.gaps(text)
    if not gaps:
        return
    fill = _Filler(marking, decisions, counted, text, tokens, words, rows, first_span, slot,
                   covered)
    codes = key_codes(text)  # a code a key defines (table_names.key_codes)
    english = get_language(marking.lang).code == "en"
    at = 0
    near: list[tuple[int, str, float]] = []  # (token, type, score): taken only beside another
    for i, tok in enumerate(tokens):
        while at < len(gaps) and gaps[at].end <= tok.start:
            at += 1
        if at == len(gaps) or gaps[at].start > tok.start or tok.end > gaps[at].end:
            continue
        span = gaps[at]
        beside = isinstance(span, NearSpan)
        if decisions[i] is not None or tok.kind != "word" or verbatim[i] \
                or not _may_fill(marking, words[i], BESIDE_ZIPF if beside else FILL_ZIPF) \
                or (beside and words[i] in _FILLERS) \
                or (span.type == "PERSON" and kin_word(marking, words[i])) \
                or _country_code(marking, text, tok, words[i]) or tok.text in codes \
                or (english and span.type == "PERSON" and tok.text.islower()
                    and inflected_alone(words[i], words[i - 1] if i else "",
                                        text[tokens[i - 1].end:tok.start] if i else "")):
            continue  # "my grandad", "| GBR |", "Key: … ONL online", "trestles"
        if isinstance(span, NearSpan):
            near.append((i, span.type, span.score))
        elif fill(i, span.type):
            fill.unvouched.add(i)
    while near:  # beside a protected word, and beside that one in turn
        left = [(i, t, q) for i, t, q in near
                if not fill.beside_protected(i, q) or not fill(i, t)]
        if len(left) == len(near):
            break
        near = left


class _Filler:
    """Fills one token's decision as its type's policy says (see :func:`learned_gaps`)."""

    def __init__(self, marking: EntityMarking, decisions: list[Decision],
                 counted: Counter[str], text: str, tokens: Sequence[Token],
                 words: Sequence[str], rows: Sequence[int], first_span: int,
                 slot: Callable[[str, str, str, int], EntitySlot],
                 covered: Sequence[bool] | None) -> None:
        self.marking, self.decisions, self.counted, self.text = marking, decisions, counted, text
        self.tokens, self.words, self.rows, self.slot = tokens, words, rows, slot
        self.span, self.covered = first_span, covered
        #: The tokens the model alone decided: a word beside them is taken on their word
        #: only over :data:`BESIDE_MODEL`.
        self.unvouched: set[int] = set()

    def __call__(self, i: int, type_: str) -> bool:
        """Decide token ``i`` as ``type_`` says (``False``: its policy keeps it a word)."""
        tokens, decisions = self.tokens, self.decisions
        kind, resolved = self.marking.resolve(type_, self.rows[i], self.words[i])
        if kind == "word" or resolved is None:
            return False
        if kind == "placeholder":
            before = decisions[i - 1] if i else None
            if isinstance(before, Placeholder) and before.type == resolved \
                    and self.text[tokens[i - 1].end:tokens[i].start] == " ":
                decision: Decision = before  # "red lion": one placeholder (not across a
                # table's column gap or a tab: "Hope & Anchor      U13", the second reading)
            else:
                decision = Placeholder(self.span, placeholder(resolved), resolved,
                                       tokens[i].start)
                self.span += 1
        elif kind == "keep":
            decision = Kept(resolved)
        else:
            decision = self.slot(resolved, kind, self.words[i], self.rows[i])
        decisions[i] = decision
        self.counted[resolved] += 1
        if self.covered is not None and self.covered[i]:  # no longer at the general ε
            self.counted[GENERAL] -= 1
        return True

    def beside_protected(self, i: int, score: float) -> bool:
        """Whether the word next to token ``i`` (a space, an ``&`` or a ``'s`` between) is
        a person's, a place's or an organisation's slot or placeholder that a rule decided
        (or a word filled beside one: along a run), or the model alone where token ``i``'s
        ``score`` is over :data:`BESIDE_MODEL`."""
        tokens = self.tokens
        for step in (-1, 1):
            j, k = i, i + step
            while 0 <= k < len(tokens) and _JOINED.fullmatch(self.text[
                    min(tokens[j].end, tokens[k].end):max(tokens[j].start, tokens[k].start)]):
                d = self.decisions[k]
                if k in self.unvouched and score <= BESIDE_MODEL:
                    break
                if (isinstance(d, EntitySlot) and d.key[0] in _NAMED) \
                        or (isinstance(d, Placeholder) and d.type in _NAMED):
                    return True
                if tokens[k].text not in _POSSESSIVES:
                    break
                j, k = k, k + step
        return False
