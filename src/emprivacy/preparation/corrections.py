"""A name said wrong and then put right in a transcript (``my sister brig id sorry bridget``,
``voy check no wojcik``): the words before the correction are the same name misheard, one
person with one surrogate.  A pass over the decisions of
:func:`~emprivacy.preparation.entity_slots.entity_decisions`, after the spellings' (issue 40,
the seventeenth stage).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher

from emprivacy.preparation.decisions import Decision, Dropped, EntitySlot, Placeholder
from emprivacy.preparation.spelling import SPELLING_JOINS
from emprivacy.text.normalise import fold_to_ascii
from emprivacy.text.tokens import Token

__all__ = ["ATTEMPT_ALIKE", "CORRECTED_ALIKE", "CORRECTED_INITIAL", "SKELETON_ALIKE",
           "SKELETON_LETTERS", "attempted_names", "corrected_names", "corrected_next_line",
           "give_run", "person_slot", "plain_form", "skeleton"]

#: How alike (:class:`difflib.SequenceMatcher`'s ratio) the words before a correction and
#: the name after it are when they are that name misheard (``brig id`` and ``bridget``: 0.62).
CORRECTED_ALIKE = 0.6
#: How alike one word right before a correction, with the name's first letter, and the name
#: are when it is that name misheard (``tiger sorry tadhg``: 0.4; issue 40, the seventeenth
#: English set, seen).
CORRECTED_INITIAL = 0.4
#: A speaker's correction between a misheard name and the name (``sorry``, ``no``, ``oh
#: no``, ``i mean``, ``excuse me``, ``no it's``, ``no that's``, an announcer's
#: ``correction`` — not ``it's`` alone,
#: which introduces a caller, ``good morning, it's morgan``; French ``pardon``, ``euh
#: non``, ``non attends c'est``, ``on m'a soufflé``), one space or a comma apart, and a
#: title the name takes again (``pardon madame gwenaëlle le huérou``).
_CORRECTION = re.compile(r"(?:[ \t]*,?[ \t]+(?:sorry|no|oh no|i mean|sorry i mean|i meant|pardon"
                         r"|excuse me|no it[’']?s|no it is|no that[’']?s|correction"
                         r"|non|euh non|enfin|je veux dire|non attends c[’']est|non c[’']est"
                         r"|on m[’']a soufflé))+[ \t]*,?[ \t]+"  # "oh no sorry": one
                         r"(?:(?:mister|mr|mrs|ms|miss|doctor|dr|madame|monsieur|mademoiselle"
                         r"|mme|docteur)\.?[ \t]+)?\Z")  # "pardon madame gwenaëlle"
#: The most words of a misheard name (``chuck way mecca obi aura sorry chukwuemeka obiora``:
#: issue 40, the nineteenth English set, seen; ``oh loo fun me lie oh sorry olufunmilayo``,
#: the twentieth, seen).
_MOST_SAID = 6
#: How alike the consonants of two words or more before a correction and of the name are
#: (:func:`skeleton`) when they are that name misheard, a name of at least
#: :data:`SKELETON_LETTERS` consonants; one word alone is matched by its letters only
#: (``oh loo fun me lie oh sorry olufunmilayo``: 1.0, letters 0.59; ``high them al rush he'd
#: excuse me haytham al rashid``: 1.0 once ``gh`` is silent; issue 40, the twentieth English
#: set, seen).
SKELETON_ALIKE = 0.8
SKELETON_LETTERS = 4
#: The most words of an attempt at a name with no correction between (``olu washer shun``).
_MOST_ATTEMPTED = 3
#: How alike two or three words said right before a name, with its first letter, and the name
#: are when they are an attempt at it with no correction between (``abdel crime abdelkrim``:
#: 0.84, ``olu washer shun oluwaseun``: 0.82; issue 40, the eighteenth stage, seen).
ATTEMPT_ALIKE = 0.7


def corrected_names(decisions: list[Decision], counted: Counter[str], text: str,
                    tokens: Sequence[Token], *,
                    function_words: frozenset[str] = frozenset()) -> None:
    """Give the one to six lower-case words before a correction (``sorry``,
    ``no``, ``i mean``) the slot of the person's name right after it, where together they
    read as that name or as its words after the correction together, accents aside
    (:data:`CORRECTED_ALIKE`; one word with the name's first letter,
    :data:`CORRECTED_INITIAL`), undecided or a person's slot of their own:
    the most alike such run (``pat`` of ``in for pat, sorry pat``, not ``for pat``), not
    one of the language's ``function_words`` alone (``she`` of ``i think she oh no
    siobhan``); the words but the
    last :class:`Dropped` with the spaces after them, the last the name's slot (one person,
    one surrogate).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "my sister brig id sorry bridget is here"
    >>> tokens = list(tokenize(text))
    >>> slot = EntitySlot(("PERSON", "bridget"), -1, None, independent=True)
    >>> decisions = [None] * len(tokens)
    >>> decisions[5] = slot
    >>> corrected_names(decisions, Counter(), text, tokens)
    >>> [t.text for t, d in zip(tokens, decisions) if d is not None]
    ['brig', 'id', 'bridget']
    """
    for j, decision in enumerate(decisions):
        if not (person_slot(decision) and j > 1 and tokens[j].kind == "word"):
            continue
        line = text.rfind("\n", 0, tokens[j].start) + 1
        cue = _CORRECTION.search(text, max(line, tokens[j].start - 32), tokens[j].start)
        if cue is None:
            continue
        end = j
        while end > 0 and tokens[end - 1].end > cue.start():
            end -= 1  # the correction's words stay as said
        run = j  # the name's words after the correction ("aït oufella"); any entity's (a
        # model typed "amine" of "mohamed amine bouzid" an organisation)
        while (run + 1 < len(tokens) and run - j < 2
               and isinstance(decisions[run + 1], EntitySlot | Placeholder)
               and text[tokens[run].end:tokens[run + 1].start] == " "):
            run += 1
        names = {plain_form(tokens[j].text), plain_form("".join(t.text for t in tokens[j:run + 1]))}
        best = _misheard_before(decisions, text, tokens, end, line, names, function_words)
        if not best:
            continue
        for k in range(end, j):  # the correction's words are no name's ("pardon" of a
            if isinstance(decisions[k], EntitySlot):  # model's "pardon pouliquen")
                decisions[k] = None
                counted["PERSON"] -= 1
        give_run(decisions, counted, best, decision)


def corrected_next_line(decisions: list[Decision], counted: Counter[str], text: str,
                        tokens: Sequence[Token], *,
                        function_words: frozenset[str] = frozenset()) -> None:
    r"""Captions that put a name right on the next line (``… wolf act a burg`` then
    ``[11:00:19] achterberg``, ``… yvonne le bien`` then ``le bihan b i h a n``; issue 40,
    the thirtieth English set, seen): where a line in lower case starts (after a time stamp,
    no speaker's label) with a person's slot, its particles before it included (``le``,
    ``da``, ``d'``), the one to four lower-case words that end the line before, undecided or
    a person's slot of their own (not a word of the name), get the name's slot as
    :func:`corrected_names` gives it (the words but the last :class:`Dropped`), where they
    read as the name
    (:data:`CORRECTED_ALIKE`, or :data:`SKELETON_ALIKE` by their consonants) — two words
    or more, or one with the name's first two letters at :data:`SKELETON_ALIKE` (not ``the
    dog`` before ``dogan``), never one of the ``function_words`` alone.  Where the next line
    spells the name out letter by letter (``ellery e l l e r y``, ``dorje d o r j e``: issue
    40, the thirty-first English set, issue 42, the thirtieth French set, seen) the line may
    start with a slot of any type, the words before may be slots of any type or a name's
    particle, any one word may match and short names count by their consonants (``june a
    lorry``), words after an elision go on (``tenzin d'orge``), and the misheard run may end
    before words the next line says again (``you stuff al rashid`` before ``yusuf … al
    rashid``).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "[11:00:12] dave stone wolf act a burg\n[11:00:19] achterberg yes"
    >>> tokens = list(tokenize(text))
    >>> decisions = [None] * len(tokens)
    >>> j = [t.text for t in tokens].index("achterberg")
    >>> decisions[j] = EntitySlot(("PERSON", "achterberg"), -1, None, independent=True)
    >>> corrected_next_line(decisions, Counter(), text, tokens)
    >>> [(t.text, type(d).__name__) for t, d in zip(tokens, decisions) if d is not None]
    [('act', 'Dropped'), ('a', 'Dropped'), ('burg', 'EntitySlot'), ('achterberg', 'EntitySlot')]
    """
    if "\n" not in text:
        return
    starts = [t.start for t in tokens]
    for line in _LINE_START.finditer(text):
        first = bisect_left(starts, line.end())
        j = first
        while j < len(tokens) and j - first < 3 and not person_slot(decisions[j]) and (
                tokens[j].text.lower().rstrip("'’") in _PARTICLES or tokens[j].text in "'’"):
            j += 1  # "le bihan", "d'arbois", "n'goran", "da costa": the particles said first
        if not (j < len(tokens) and isinstance(decisions[j], EntitySlot)
                and tokens[j].kind == "word"
                and tokens[j].text.islower() and 0 < first and tokens[first].start == line.end()):
            continue
        run = j
        while (run + 1 < len(tokens) and run - j < 2 and person_slot(decisions[run + 1])
               and text[tokens[run].end:tokens[run + 1].start] == " "):
            run += 1
        if text[tokens[run].end:tokens[run].end + 3].lstrip()[:1] == ":":  # "olive :"
            continue  # a chat's speaker ("will: we go"), no correction
        name = plain_form("".join(t.text for t in tokens[first:run + 1]))
        bare = plain_form("".join(t.text for t in tokens[j:run + 1]))  # its particles left out
        spelled = _spelled_after(tokens, run, name) or _spelled_after(tokens, run, bare)
        if not (person_slot(decisions[j]) or spelled):
            continue  # a place's slot is a name put right only where it is spelled out
        end = first  # the words that end the line before, nearest last
        while end > 0 and tokens[end - 1].start >= line.start():
            end -= 1  # the line's time stamp
        said: list[int] = []  # not a word of the name ("or sandy will" before "sandy")
        said_names = {t.text for t in tokens[first:run + 1]}
        k = end - 1
        while (k >= 0 and len(said) < 4 and tokens[k].kind == "word"
               and tokens[k].text.islower() and tokens[k].end <= line.start()
               and (decisions[k] is None or (tokens[k].text not in said_names and (
                   person_slot(decisions[k]) or (spelled and isinstance(
                       decisions[k], EntitySlot | Dropped)))))
               and (not said or text[tokens[k].end:tokens[k + 1].start] == " " or (
                   tokens[k].text[-1] in "'’" and tokens[k].end == tokens[k + 1].start))):
            said.append(k)  # with a spelling, a slot of any type ("drew abba ra", "abba" a
            k -= 1  # place's) or a name's particle ("al" of "you stuff al rashid")
        best: list[int] = []
        best_ratio = CORRECTED_ALIKE
        # the name said may be the run's first words only ("de freitas" of "de freitas
        # marisa de freitas": the given name said after it), four letters at least
        names = [(said_name, skeleton(said_name)) for said_name in dict.fromkeys(
            plain_form("".join(t.text for t in tokens[first:r + 1])) for r in range(run, j - 1, -1))
            if said_name == name or len(said_name) >= 4]
        # the run may end before the name's own rest ("you stuff al rashid" before "yusuf
        # … al rashid": slots, or words the next line says again) where it is spelled out
        line_end = text.find("\n", line.end()) % (len(text) + 1)  # -1: the text's end
        again = {t.text for t in tokens[run + 1:run + 40] if t.start < line_end} if spelled \
            else set()
        tails = [a for a in range(len(said)) if a == 0 or (spelled and all(
            decisions[i] is not None or tokens[i].text in again for i in said[:a]))]
        for a in tails:
            for n in range(1, len(said) - a + 1):
                run_said = sorted(said[a:a + n])
                heard = plain_form("".join(tokens[i].text for i in run_said))
                for said_name, sound in names:
                    if n == 1 and (tokens[run_said[0]].text in function_words or (
                            heard[:2] != said_name[:2] and not spelled)):
                        continue
                    ratio = _likeness(heard, said_name, sound, n,
                                      2 if spelled else SKELETON_LETTERS)
                    if (n == 1 or said_name != name) and ratio < SKELETON_ALIKE:
                        continue  # a shorter name (a prefix) only as alike as one word
                    if ratio >= best_ratio:
                        best, best_ratio = run_said, ratio
        if not best:
            continue
        give_run(decisions, counted, best, decisions[j])


def _spelled_after(tokens: Sequence[Token], run: int, name: str) -> bool:
    """Whether the tokens after ``run`` spell ``name`` (plain) letter by letter, with the
    spelling's join words (``n apostrophe g o r a n``, ``d u espace c r e s t``): three
    letters or more, all of the name's or all but its last."""
    letters: list[str] = []
    k = run + 1
    while k < len(tokens) and tokens[k].kind == "word" and (
            len(tokens[k].text) == 1 or tokens[k].text.lower() in SPELLING_JOINS):
        if len(tokens[k].text) == 1:
            letters.append(plain_form(tokens[k].text))
        k += 1
    spelt = "".join(letters)
    return len(spelt) >= 3 and (spelt == name or (len(spelt) == len(name) - 1
                                                  and name.startswith(spelt)))


#: A caption's line start: a line break, then a time stamp, if any (not a speaker's label:
#: ``or sandy will`` then ``sandy: sandy will not`` is another speaker).
_LINE_START = re.compile(r"\n[ \t]*(?:\[[\d:.]+\][ \t]*)?")
#: Particles a caption may say before a family name on its line.
_PARTICLES = frozenset("le la de du des da di van von der den d n l".split())


def _misheard_before(decisions: Sequence[Decision], text: str, tokens: Sequence[Token],
                     end: int, line: int, names: set[str],
                     function_words: frozenset[str] = frozenset()) -> list[int]:
    """The one to :data:`_MOST_SAID` lower-case words before token ``end`` on the line that
    starts at ``line``, undecided or a person's slot of their own, that read most like one of
    ``names`` (the longest of equals), ``[]`` for none (:func:`corrected_names`).  The
    walk back is :func:`~emprivacy.preparation.spelling.spelled_words`' before a spelling,
    with its own measure."""
    best: list[int] = []
    best_ratio = CORRECTED_ALIKE
    sounds = {name: skeleton(name) for name in names}  # once, not per run tried
    k = end
    while k > 0 and end - k < _MOST_SAID:
        k -= 1
        gap = text[tokens[k].end:tokens[k + 1].start]
        if (tokens[k].kind != "word" or not (decisions[k] is None or person_slot(decisions[k]))
                or not tokens[k].text.islower() or (len(tokens[k].text) < 2 and k == end - 1)
                or tokens[k].start < line
                or (gap not in (" ", ", ") if k == end - 1 else gap != " " and not (
                    gap == "" and tokens[k + 1].text[:1] in "'’"))):  # "he'd" of a run
            break
        if len(tokens[k].text) < 2:
            continue  # a letter inside the run ("poule y quand"), never its first word
        if k == end - 1 and tokens[k].text in function_words:
            continue  # a function word alone is no attempt ("she" of "i think she oh no
            # siobhan"); inside a longer run it may be one ("quand" of "poule y quand")
        said = plain_form("".join(t.text for t in tokens[k:end]))
        for name in names:
            ratio = _likeness(said, name, sounds[name], end - k)
            if k == end - 1 and said[:1] == name[:1] and ratio >= CORRECTED_INITIAL:
                ratio = max(ratio, CORRECTED_ALIKE)  # "tiger sorry tadhg": one word
            if ratio >= best_ratio:
                best, best_ratio = list(range(k, end)), ratio
    return best


def _likeness(said: str, name: str, sound: str, words: int,
              letters: int = SKELETON_LETTERS) -> float:
    """How alike the ``words`` words ``said`` (plain, run together) and a ``name`` are: their
    letters' :class:`difflib.SequenceMatcher` ratio, or for two words or more their
    consonants' (``sound``, the name's :func:`skeleton`, of ``letters`` or more:
    :data:`SKELETON_LETTERS`, two for a name spelled out after it) where that reaches
    :data:`SKELETON_ALIKE` (``oh loo fun me lie oh`` and ``olufunmilayo``: l f n m l)."""
    ratio = SequenceMatcher(None, said, name).ratio()
    if words > 1 and len(sound) >= letters:
        alike = SequenceMatcher(None, skeleton(said), sound).ratio()
        if alike >= SKELETON_ALIKE:
            ratio = max(ratio, alike)
    return ratio


def skeleton(said: str) -> str:
    """The consonants of a plain word (:func:`plain_form`) as they sound, roughly: no vowel,
    ``h``, ``w``, ``y`` or ``gh`` (``high``), ``c`` and ``q`` as ``k`` (but ``c`` before
    ``e``, ``i``, ``y`` as ``s``), ``z`` as ``s``, no
    letter twice in a row (``olufunmilayo`` and ``ohloofunmelieoh``: ``lfnml``)."""
    out: list[str] = []
    for c in _SOFT_C.sub("s", said.replace("gh", "")).translate(_SOUNDS):
        if c not in "aeiouyhw" and c.isalpha() and (not out or out[-1] != c):
            out.append(c)
    return "".join(out)


_SOUNDS = str.maketrans("cqz", "kks")
#: A ``c`` before ``e``, ``i`` or ``y`` sounds as ``s`` (``yacine`` and ``ya scie``: issue 42,
#: the forty-sixth French set's captions).
_SOFT_C = re.compile(r"c(?=[eiy])")


def plain_form(word: str) -> str:
    """``word`` in lower case, without accents or apostrophes: how it sounds, roughly
    (``aït`` and ``ait``, ``n'diaye`` and ``ndiaye``)."""
    if word.isascii():  # nothing to fold: the quick way
        return word.lower().replace("'", "").replace("-", "")
    return "".join(c for c in fold_to_ascii(word.lower()) if c not in "'’-")


def give_run(decisions: list[Decision], counted: Counter[str], run: Sequence[int],
             slot: Decision) -> None:
    """The words said for a name (``run``, in order): the last the name's ``slot``, the
    others :class:`Dropped` with the spaces after them; a slot of their own no longer
    counted (a dropped word was never counted)."""
    for r in run:
        own = decisions[r]
        if isinstance(own, EntitySlot):
            counted[own.key[0]] -= 1
        decisions[r] = Dropped("PERSON")
    decisions[run[-1]] = slot
    counted["PERSON"] += 1


def person_slot(decision: Decision) -> bool:
    """Whether a decision is a person's slot (``brig`` of ``my sister brig id sorry
    bridget`` may be one of its own)."""
    return isinstance(decision, EntitySlot) and decision.key[0] == "PERSON"


def attempted_names(decisions: list[Decision], counted: Counter[str], text: str,
                    tokens: Sequence[Token], *, function_words: frozenset[str],
                    ordinary: Callable[[str], bool], listed: Callable[[str], bool]) -> None:
    """Give a speaker's attempts at a name right before it, with no correction between, the
    person's slot (a transcript read aloud: issue 40, the eighteenth stage, seen), where the
    name is a person's slot in lower case and the words before it are in lower case, one
    space apart, no ``function_words``:

    * the name said twice (``will will nguyen``, ``désiré désiré kaboré``; undecided, any
      word): the same slot;
    * its first letters (``raj rajinder``, ``mo mohammed``; undecided, no word ``ordinary``
      says is common: not ``car`` of ``the car carla``): the same slot;
    * two or three words that together read as the name, its first letter first
      (:data:`ATTEMPT_ALIKE`: ``abdel crime abdelkrim``), each undecided or a person's slot
      of an unlisted word (``shun`` of ``olu washer shun oluwaseun``; not a listed name,
      ``listed``, nor the name itself: ``chris jo chris``, ``jennifer told jennifer``): as a
      correction's, the words but the last :class:`Dropped`, the last the name's slot.

    One attempt per mention: a word given the name's slot here is no name to look before
    (``will will will nguyen`` gives one ``will``).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "thanks raj rajinder and olu washer shun oluwaseun"
    >>> tokens = list(tokenize(text))
    >>> decisions = [None] * len(tokens)
    >>> for k in (2, 7):
    ...     decisions[k] = EntitySlot(("PERSON", tokens[k].text), -1, None, independent=True)
    >>> attempted_names(decisions, Counter(), text, tokens, function_words=frozenset({"and"}),
    ...                 ordinary=lambda w: False, listed=lambda w: False)
    >>> [(t.text, type(d).__name__) for t, d in zip(tokens, decisions) if d is not None]
    [('raj', 'EntitySlot'), ('rajinder', 'EntitySlot'), ('olu', 'Dropped'), \
('washer', 'Dropped'), ('shun', 'EntitySlot'), ('oluwaseun', 'EntitySlot')]
    """
    given: set[int] = set()  # the words this pass gave a slot
    for j in range(len(tokens) - 1, 0, -1):
        decision = decisions[j]
        if j in given or not (person_slot(decision) and tokens[j].kind == "word"
                               and tokens[j].text.islower()):
            continue
        name = plain_form(tokens[j].text)
        k = j - 1
        before = tokens[k]
        if (decisions[k] is None and before.kind == "word" and before.text.islower()
                and before.text[:1].isalpha()  # no clitic: "it 's sam"
                and text[before.end:tokens[j].start] == " "
                and (plain_form(before.text) == name or (  # "will will nguyen": any word
                    len(before.text) >= 2 and before.text.lower() not in function_words
                    and not ordinary(before.text.lower())
                    and name.startswith(plain_form(before.text))))):  # "raj rajinder"
            decisions[k] = decision
            counted["PERSON"] += 1
            given.add(k)
            continue
        said: list[int] = []  # the words before, nearest first
        while (k >= 0 and j - k <= _MOST_ATTEMPTED and tokens[k].kind == "word"
               and tokens[k].text.islower() and tokens[k].text[:1].isalpha()
               and tokens[k].text.lower() not in function_words
               and text[tokens[k].end:tokens[k + 1].start] == " "
               and (decisions[k] is None or (
                   person_slot(decisions[k]) and not listed(tokens[k].text.lower())
                   and plain_form(tokens[k].text) != name))):
            said.append(k)
            k -= 1
        for n in range(len(said), 1, -1):
            run = sorted(said[:n])
            heard = plain_form("".join(tokens[i].text for i in run))
            if heard[:1] == name[:1] and len(heard) >= 5 and \
                    SequenceMatcher(None, heard, name).ratio() >= ATTEMPT_ALIKE:
                give_run(decisions, counted, run, decision)
                given.update(run)
                break
