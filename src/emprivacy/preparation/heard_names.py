"""A name that automatic captions heard as several words right before the name itself
(``the trombones are led by toe pay a day inker that's tope adeyinka``, ``bass trombone yo
nuts do me trace cue ionuț dumitrescu``, ``under a shah sid decay ayesha siddiqui``): the
words before are the same name misheard, one person with one surrogate.  A pass over the
decisions of :func:`~emprivacy.preparation.entity_slots.entity_decisions` in text mode,
after :func:`~emprivacy.preparation.corrections.attempted_names`, which takes up to three
words with the name's first letter and no function word (issue 40, the thirty-seventh stage,
seen: the captions of the earlier labelled sets left about a third of their unprotected
person tokens in such runs).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from itertools import pairwise

from emprivacy.entities.initials import COMMON_ZIPF
from emprivacy.entities.labels import filler_at
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.name_words import zipf_in
from emprivacy.preparation.corrections import (
    SKELETON_ALIKE,
    SKELETON_LETTERS,
    give_run,
    person_slot,
    plain_form,
    skeleton,
)
from emprivacy.preparation.decisions import GENERAL, Decision, EntitySlot
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token

__all__ = ["BETWEEN_ALIKE", "BETWEEN_RUN_ALIKE", "CAPTION_WORDS", "HEARD_LETTERS_ALIKE",
           "MOST_HEARD", "fillers_released", "heard_before", "heard_in_language",
           "only_captions"]

#: The most words of a name heard wrong before it (``yo nuts do me trace cue``).
MOST_HEARD = 6
#: How alike the letters of the words heard and of the name are, at least, beside their
#: consonants' :data:`~emprivacy.preparation.corrections.SKELETON_ALIKE` (``toe pay a day
#: inker`` and ``tope adeyinka``: 0.67; ``and the band`` and ``anderson``: 0.56, consonants
#: 0.55).
HEARD_LETTERS_ALIKE = 0.5
#: A caption's time stamp (``[0:52:59]``, ``00:32:15.500``): the rule reads captions only.
_STAMP = re.compile(r"(?<![\d:])\d{1,2}:\d\d(?::\d\d)?(?:[.,]\d{1,3})?(?![\d:])")
#: A caption's number on a line of its own, and the arrow between two time stamps (SRT,
#: WebVTT): no words between two captions.
_CUE = re.compile(r"(?:^|\n)[ \t]*\d+[ \t]*(?=\r?\n)|-->")
#: Words between the heard run and the name that introduce it again (``… inker that's tope
#: adeyinka``).
_AGAIN = (("that", "'s"), ("that", "’s"), ("it", "'s"), ("it", "’s"), ("that", "is"),
          ("it", "is"))


def heard_in_language(marking: EntityMarking, decisions: list[Decision],
                      counted: Counter[str], text: str, tokens: Sequence[Token]) -> None:
    """:func:`heard_before` with the marking's language: its function words, the lists'
    given names (:meth:`~emprivacy.entities.marking.EntityMarking.given_name`; French:
    ``data/given-names-fr.txt`` too) and its common words (Zipf at least
    :data:`~emprivacy.entities.initials.COMMON_ZIPF`)."""
    language = get_language(marking.lang)
    heard_before(decisions, counted, text, tokens, listed=marking.given_name,
                 function_words=language.kept_function_words,
                 ordinary=lambda word: zipf_in(word, language.wordfreq_code) >= COMMON_ZIPF)


def heard_before(decisions: list[Decision], counted: Counter[str], text: str,
                 tokens: Sequence[Token], *, function_words: frozenset[str],
                 listed: Callable[[str], bool], ordinary: Callable[[str], bool]) -> None:
    """Give two to :data:`MOST_HEARD` lower-case words right before a person's name in lower
    case in captions (the text has a time stamp), on its line, one space apart, or before
    ``that's`` and the name, the name's slot where they read as the name: their consonants
    (:func:`~emprivacy.preparation.corrections.skeleton`) at least
    :data:`~emprivacy.preparation.corrections.SKELETON_ALIKE` alike those of the name's one
    to three words or their first words (of
    :data:`~emprivacy.preparation.corrections.SKELETON_LETTERS` consonants or more), the
    same first consonant, their letters at least :data:`HEARD_LETTERS_ALIKE` alike, the last
    word none of the ``function_words``, two words none of them (``a person pearson``, ``her
    son anderson``), one word at least no common word (``ordinary``: ``the rest andrews``).
    Each word is undecided or a person's slot of an unlisted word (``listed``: not another
    person) that is no word of the name; the most alike run wins, the longer on a tie where
    the longer adds no consonant (``a`` of ``a shah sid decay``). As a correction's, the
    words but the last are :class:`~emprivacy.preparation.decisions.Dropped`, the last the
    name's slot.

    >>> from collections import Counter
    >>> from emprivacy.preparation.decisions import Dropped, EntitySlot
    >>> from emprivacy.text.tokens import tokenize
    >>> text = "[0:53:04] led by toe pay a day inker that's tope adeyinka"
    >>> tokens = list(tokenize(text))
    >>> decisions = [None] * len(tokens)
    >>> for k, t in enumerate(tokens):
    ...     if t.text in ("tope", "adeyinka"):
    ...         decisions[k] = EntitySlot(("PERSON", t.text), -1, None, independent=True)
    >>> heard_before(decisions, Counter(), text, tokens, function_words=frozenset({"a", "by"}),
    ...              listed=lambda w: False, ordinary=lambda w: w in ("pay", "day"))
    >>> [t.text for t, d in zip(tokens, decisions) if isinstance(d, Dropped)]
    ['toe', 'pay', 'a', 'day']
    >>> decisions[[t.text for t in tokens].index("inker")] is decisions[-2]
    True
    """
    stamped = _STAMP.search(text) is not None
    if stamped or _unstamped_captions(text, tokens):
        _heard_between(decisions, counted, text, tokens)
    if not stamped:
        return
    for j in range(len(tokens) - 1, 0, -1):
        if not _name_start(decisions, tokens, text, j):
            continue
        run = j
        while (run + 1 < len(tokens) and run - j < 2 and person_slot(decisions[run + 1])
               and tokens[run + 1].text.islower()
               and text[tokens[run].end:tokens[run + 1].start] == " "):
            run += 1
        name_words = {t.text for t in tokens[j:run + 1]}
        # the name, or its first words only ("tope adeyinka" of "tope adeyinka adeyinka")
        names = [(name, skeleton(name)) for name in dict.fromkeys(
            plain_form("".join(t.text for t in tokens[j:r + 1])) for r in range(run, j - 1, -1))]
        names = [(name, sound) for name, sound in names if len(sound) >= SKELETON_LETTERS]
        if not names:
            continue
        end = j
        if j >= 2 and (tokens[j - 2].text.lower(), tokens[j - 1].text.lower()) in _AGAIN \
                and text[tokens[j - 1].end:tokens[j].start] == " ":
            end = j - 2  # "… inker that's tope adeyinka"
        said = _said_before(decisions, tokens, text, end, name_words, listed)
        best: list[int] = []
        best_ratio = 0.0
        for name, sound in names:
            found, ratio = _best_run(tokens, said, name, sound, function_words, ordinary)
            if found and ratio > best_ratio:
                best, best_ratio = found, ratio
        if not best:
            continue
        give_run(decisions, counted, best, decisions[j])


def _name_start(decisions: Sequence[Decision], tokens: Sequence[Token], text: str,
                j: int) -> bool:
    """Whether token ``j`` is the first word of a person's name in lower case."""
    return (person_slot(decisions[j]) and tokens[j].kind == "word"
            and tokens[j].text.islower()
            and not (person_slot(decisions[j - 1])
                     and text[tokens[j - 1].end:tokens[j].start] == " "))


def _said_before(decisions: Sequence[Decision], tokens: Sequence[Token], text: str,
                 end: int, name_words: set[str], listed: Callable[[str], bool]) -> list[int]:
    """The words before token ``end`` on its line that may be the name heard, nearest
    first."""
    said: list[int] = []
    k = end - 1
    while (k >= 0 and len(said) < MOST_HEARD and tokens[k].kind == "word"
           and tokens[k].text.islower() and tokens[k].text[:1].isalpha()
           and text[tokens[k].end:tokens[k + 1].start] == " "
           and tokens[k].text not in name_words
           and (decisions[k] is None or (person_slot(decisions[k])
                                         and not listed(tokens[k].text)))):
        said.append(k)
        k -= 1
    return said


def _best_run(tokens: Sequence[Token], said: list[int], name: str, sound: str,
              function_words: frozenset[str], ordinary: Callable[[str], bool]
              ) -> tuple[list[int], float]:
    """The run of two words or more of ``said`` (nearest first) that reads most as the
    name, in order, and how alike its consonants are; empty where none does."""
    best: list[int] = []
    best_ratio = SKELETON_ALIKE
    for n in range(2, len(said) + 1):
        run = sorted(said[:n])
        words = [tokens[i].text.lower() for i in run]
        if words[-1] in function_words:
            continue  # the word that takes the slot is heard, no "et" of "nuno et prudence"
        if (n == 2 and any(w in function_words for w in words)) or all(map(ordinary, words)):
            continue  # "a person pearson", "her son anderson", "le chercheur leclerc": a
            # determiner and a noun, common words all
        heard = plain_form("".join(words))
        heard_sound = skeleton(heard)
        if not heard_sound or heard_sound[0] != sound[0]:
            continue
        ratio = SequenceMatcher(None, heard_sound, sound).ratio()
        if ratio < SKELETON_ALIKE or SequenceMatcher(None, heard, name).ratio() \
                < HEARD_LETTERS_ALIKE:
            continue
        if ratio > best_ratio or (ratio == best_ratio and (
                not best or not skeleton(plain_form(words[0])))):
            best, best_ratio = run, ratio
    return best, best_ratio


#: How alike a word heard between two mentions of a given name and the family name after the
#: second are, at least (``large`` and ``barge``: 0.8; ``sacked`` and ``sackett``: 0.77).
BETWEEN_ALIKE = 0.7
#: The same for two or three words heard between, run together, with the family name's
#: first letter (``via lait`` and ``viallet``: 0.71; ``jacky et`` and ``jacquier``: 0.53;
#: ``no vaque`` and ``nowak``: 0.5; issue 42, the forty-fifth French set's captions, seen).
BETWEEN_RUN_ALIKE = 0.5
#: The most words heard between, and how many letters more or fewer than the family name's
#: they may have together.
_MOST_BETWEEN = 3
_BETWEEN_LETTERS = 3


def _heard_between(decisions: list[Decision], counted: Counter[str], text: str,
                   tokens: Sequence[Token]) -> None:
    """The lower-case words between two mentions of one given name's slot, the second before
    the family name's slot, one space apart or the second at the next caption's start
    (``… at the tiller is moss large`` / ``[0:00:31] moss barge``, ``bill sacked bill
    sackett``, ``constant via lait constant viallet``: captions that heard the family name
    wrong, then right; issue 40, the fortieth stage, and issue 42, the forty-fifth, seen in
    the earlier sets' captions), in captions (a piece with a time stamp, or
    :func:`_unstamped_captions`), are the family name heard wrong:

    * one word left to the general ε whose letters are at least :data:`BETWEEN_ALIKE` alike
      the family name's;
    * two or three (:data:`_MOST_BETWEEN`), each undecided or a person's slot that is
      neither name (``mel`` of ``sacha mel nique sacha melnyk``, a listed name too), one
      undecided at least, none alone with the family name's first letter and as alike it as
      :data:`BETWEEN_ALIKE` (``summer`` of ``robin summer no robin sumner``: the name said
      right, then a word; not ``pin`` of ``lucas are pin lucas arpin``),
      whose letters run together start with the family name's, are as many as its give or
      take :data:`_BETWEEN_LETTERS` and are at least :data:`BETWEEN_RUN_ALIKE` alike it.

    As a correction's, the words but the last are
    :class:`~emprivacy.preparation.decisions.Dropped`, the last the family name's slot: one
    person with one surrogate."""
    words = [k for k, t in enumerate(tokens) if t.kind == "word"]
    for n in range(1, len(words) - 2):
        if not person_slot(decisions[words[n - 1]]):
            continue
        for size in range(1, _MOST_BETWEEN + 1):
            if n + size + 1 >= len(words):
                break
            between = words[n:n + size]
            again, last = words[n + size], words[n + size + 1]
            run = _between_run(decisions, text, tokens, words[n - 1], between, again, last)
            if run:
                give_run(decisions, counted, run, decisions[last])
                break


def _between_run(decisions: Sequence[Decision], text: str, tokens: Sequence[Token],
                 given: int, between: list[int], again: int, last: int) -> list[int]:
    """``between`` where its words are the family name at token ``last`` heard wrong between
    two mentions of the given name (tokens ``given`` and ``again``), else empty."""
    first, second, family = decisions[given], decisions[again], decisions[last]
    if not (isinstance(first, EntitySlot) and isinstance(second, EntitySlot)
            and isinstance(family, EntitySlot) and first.key == second.key
            and family.key[0] == "PERSON"
            and family.key != first.key and tokens[last].text.islower()
            and text[tokens[given].end:tokens[between[0]].start] == " "
            and text[tokens[again].end:tokens[last].start] == " "
            and _caption_gap(text[tokens[between[-1]].end:tokens[again].start])):
        return []
    name = plain_form(tokens[last].text)
    if len(between) == 1:
        i = between[0]
        ok = decisions[i] is None and tokens[i].text.islower() and SequenceMatcher(
            None, plain_form(tokens[i].text), name).ratio() >= BETWEEN_ALIKE
        return between if ok else []
    names = {plain_form(tokens[given].text), name}
    for a, b in pairwise(between):
        if text[tokens[a].end:tokens[b].start] not in (" ", "") or (
                text[tokens[a].end:tokens[b].start] == "" and tokens[b].text[:1] not in "'’"):
            return []  # one space apart, or a clitic: "ash we 're ash weir"
    if all(decisions[i] is not None for i in between) or not all(
            tokens[i].text.islower() and (decisions[i] is None or (
                person_slot(decisions[i]) and plain_form(tokens[i].text) not in names))
            for i in between):
        return []
    if any(plain_form(tokens[i].text)[:1] == name[:1] and SequenceMatcher(
            None, plain_form(tokens[i].text), name).ratio() >= BETWEEN_ALIKE for i in between):
        return []  # "robin summer no robin sumner": the name said right, and a word
    heard = plain_form("".join(tokens[i].text for i in between))
    if heard[:1] != name[:1] or abs(len(heard) - len(name)) > _BETWEEN_LETTERS:
        return []
    return between if SequenceMatcher(None, heard, name).ratio() >= BETWEEN_RUN_ALIKE else []


def _caption_gap(gap: str) -> bool:
    """Whether ``gap`` holds nothing but spaces, line breaks, time stamps, brackets and a
    caption's number and arrow: the same line, or the next caption's start."""
    return _CUE.sub(" ", _STAMP.sub("", gap)).strip(" []\n\t\r") == ""


#: The fewest words of a piece of captions without time stamps (:func:`_unstamped_captions`).
CAPTION_WORDS = 40
_PUNCTUATION = re.compile(r"[.,;:!?…]")


#: A chat's line: a time stamp, then a speaker's label of up to four words and a colon.
_CHAT_LINE = re.compile(r"(?m)^[ \t]*\[?\d{1,2}[:.h]\d\d(?::\d\d)?\]?[ \t]+"
                        r"[^\W\d_][^\n:\[\]]{0,40}?[ \t\u00a0\u202f]?:(?!\d)")


def only_captions(text: str, tokens: Sequence[Token]) -> bool:
    """Whether ``text`` reads as automatic captions and nothing else: an SRT's or a WebVTT's
    arrow, or a time stamp at a line's start and no chat's line (:data:`_CHAT_LINE`:
    ``[09:15] tom: meet me at the park near the station, thanks parker`` is a chat; the
    stage-46 review), or :func:`_unstamped_captions`."""
    if "-->" in text or _unstamped_captions(text, tokens):
        return True
    return _LINE_STAMP.search(text) is not None and _CHAT_LINE.search(text) is None


#: A caption's time stamp at a line's start (``[08:00]``, ``0:53:04``; not ``at 10:30`` of
#: an e-mail).
_LINE_STAMP = re.compile(r"(?m)^[ \t]*[\[(]?\d{1,2}:\d\d(?::\d\d)?(?:[.,]\d{1,3})?[\])]?"
                         r"(?=[ \t]|\r?$)")


def _unstamped_captions(text: str, tokens: Sequence[Token]) -> bool:
    """Whether ``text`` reads as automatic captions without time stamps: no capital letter,
    no punctuation, :data:`CAPTION_WORDS` words or more (a radio's live captions; not a
    chat's message, ``lucy will ask lucy williams about the rota``: the stage's review)."""
    return (text == text.lower() and _PUNCTUATION.search(text) is None
            and sum(t.kind == "word" for t in tokens) >= CAPTION_WORDS)


def fillers_released(decisions: list[Decision], counted: Counter[str],
                     tokens: Sequence[Token], words: Sequence[str]) -> None:
    """A speaker's filler in lower case (:data:`~emprivacy.entities.labels.FILLERS`: ``um``,
    ``erm``) that a pass made a person's slot is released at the general ε and counted so,
    but after a title (``mr um`` is Mr Um): the last pass of
    :func:`~emprivacy.preparation.entity_slots.entity_decisions`.  Issue 40, the forty-ninth
    English set's tuning half: a radio phone-in's ``um`` became a slot next to a name (``and
    um gerry``: Um is a surname of the census), and one decision per form then made each of
    its 22 ``um`` one; the detectors no longer take it, and the passes that find names by
    their neighbours (a roll's, a correction's, a learned gap's) do not either.

    >>> from collections import Counter
    >>> from emprivacy.text.tokens import tokenize
    >>> tokens = list(tokenize("so um gerry and mr um"))
    >>> words = [t.text for t in tokens]
    >>> slot = EntitySlot(("PERSON", "um"), -1, None)
    >>> decisions = [slot if w == "um" else None for w in words]
    >>> counted = Counter(PERSON=2)
    >>> fillers_released(decisions, counted, tokens, words)
    >>> [d is slot for d in decisions], counted["PERSON"], counted[GENERAL]
    ([False, False, False, False, False, True], 1, 1)
    """
    for i, (tok, decision) in enumerate(zip(tokens, decisions, strict=True)):
        if (isinstance(decision, EntitySlot) and decision.key[0] == "PERSON"
                and tok.text.islower() and filler_at(words, i)):
            decisions[i] = None
            counted["PERSON"] -= 1
            counted[GENERAL] += 1
