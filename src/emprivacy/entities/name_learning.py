"""Learning a corpus's known names from its own cased texts (``emprivacy names``): the
names its detectors find where capitals show them, listed so that a release with
``--entity-names`` protects them in the corpus's lower-case texts too (a chat's ``the corn
exchange``, a caption's ``joy cross``; :mod:`emprivacy.entities.known_names`).

A model or a list finds ``Corn Exchange`` in a newsletter; nothing finds ``corn exchange``
said once in a radio caption.  The list is a function of the private corpus, like every
detection (outside the guarantee); it only adds protection.  It holds the corpus's names:
keep it as private as the corpus.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from emprivacy.entities.known_names import (
    _POSSESSIVE,
    _RANK,
    _WORD,
    KNOWN_TYPES,
    MAX_NAME_WORDS,
    NAME_LINKS,
    KnownNames,
)
from emprivacy.entities.known_names import _key as _name_key
from emprivacy.entities.spans import PROPER_NOUN, EntitySpan

__all__ = ["CAPITAL_SHARE", "COMMON", "COMMON_MENTIONS", "UNKNOWN_ZIPF", "NameTally",
           "learn_known_names", "learn_names", "reads_as_person"]

def learn_known_names(texts: Iterable[str], spans: Iterable[Sequence[EntitySpan]], *,
                      zipf: Any, label: Any = None, person: Any = None) -> KnownNames:
    """Known names from a corpus's cased texts: the names its detectors typed where
    capitals show them, so that its lower-case texts protect them too.

    A span is taken where its line is in mixed case (neither all lower case nor all
    capitals) and each of its words but a function word starts with a capital; a span is cut
    at punctuation first (``Sluice Cottages, Swaddle End`` is two names).  A name of
    one word that is an English word (Zipf :data:`UNKNOWN_ZIPF` or more) must be written
    with its capital at least :data:`CAPITAL_SHARE` of the times it stands inside a
    sentence of those lines (``towpath`` of ``Towpath Mild``, written ``the towpath`` too,
    is no name).  If it is a common word (Zipf ``zipf(word)`` of
    :data:`COMMON` or more) it is taken only after a lower-case ``the`` and when no
    capitalised word follows it (``the Washes``: ``the washes``, found only after ``the``),
    at least :data:`COMMON_MENTIONS` times, and a person's not at all (``Joy Cross``, not
    ``Joy``).  Titles and initials at either end are left out (``Cllr Pearl Bishop``:
    ``pearl bishop``); a span before a colon (a form's key), on a line whose every word is
    capitalised (a heading), with a digit, or with a word that ``label(word)`` says is a
    title or a form's key, is not taken.  A capitalised run no model typed (``PROPER_NOUN``)
    counts where it has two words or more inside a sentence, one of them rare (Zipf below
    :data:`COMMON`: ``Fen Edge Radio``, not ``Club Leader``), and only
    where no model typed the phrase: it is then an organisation's (one placeholder).  Each
    name takes its commonest type (the most protective on a tie), but a person's where
    ``person(phrase)`` says it reads as one.

    Parameters
    ----------
    texts, spans : iterables
        The texts and, for each, its detectors' spans (the same order).
    zipf : callable
        A word (lower case) → its Zipf frequency in the texts' language.
    label, person : callable, optional
        A word (lower case) → whether it is a title or a form's key; a phrase → whether it
        reads as a person's name.
    """
    tally = NameTally()
    tally.add(texts, spans, zipf=zipf, label=label)
    return tally.names(person=person)


class NameTally:
    """What :func:`learn_known_names` counts over a corpus read in batches (memory bounded
    by a batch and the corpus's vocabulary): each phrase's types, and each word's
    capitalised and lower-case mentions inside sentences of mixed-case lines."""

    def __init__(self) -> None:
        self.phrases: dict[str, Counter[str]] = {}
        self.capital: Counter[str] = Counter()
        self.lower: Counter[str] = Counter()
        self.zipf: dict[str, float] = {}

    def add(self, texts: Iterable[str], spans: Iterable[Sequence[EntitySpan]], *, zipf: Any,
            label: Any = None) -> None:
        """Count the phrases of ``texts`` and their words' mentions."""
        for text, found in zip(texts, spans, strict=True):
            _mentions(text, self.capital, self.lower)
            lines: dict[int, bool] = {}
            here: set[tuple[str, int, str]] = set()  # one count per mention and type
            for span in (p for s in found if s.type in _TAKEN for p in _pieces(text, s)):
                phrase = _learned(text, span, zipf, label or (lambda w: False), lines)
                if phrase is not None:
                    if (phrase, span.start, span.type) in here:
                        continue
                    here.add((phrase, span.start, span.type))
                if phrase is not None and span.type == PROPER_NOUN and (
                        " " not in phrase.removeprefix("the ")
                        or _sentence_start(text, span.start)
                        or all(float(zipf(w)) >= COMMON for w in phrase.split())):
                    continue  # a capitalised run no model typed: inside a sentence, two
                    # words or more, one of them rare (Fen Edge Radio; not Club Leader)
                if phrase is not None:
                    self.phrases.setdefault(phrase, Counter())[span.type] += 1
                    if " " not in phrase.removeprefix("the "):
                        word = phrase.removeprefix("the ")
                        self.zipf.setdefault(word, float(zipf(word)))

    def names(self, *, person: Any = None) -> KnownNames:
        """The names counted, each of its commonest type (a person's where
        ``person(phrase)``)."""
        pairs = []
        for phrase, kinds in self.phrases.items():
            words = phrase.split()
            if len(words) == 1 or (len(words) == 2 and words[0] == "the"):
                word = words[-1]
                if len(words) == 1 and self.zipf.get(word, 0.0) >= UNKNOWN_ZIPF and (
                        self.capital[word]
                        < CAPITAL_SHARE * (self.capital[word] + self.lower[word])):
                    continue  # an English word the corpus writes in lower case too
                if words[0] == "the" and sum(kinds.values()) < COMMON_MENTIONS:
                    continue
            typed = Counter({k: v for k, v in kinds.items() if k != PROPER_NOUN})
            if not typed:  # only capitalised runs no model typed: an organisation's
                typed = Counter({"ORG": kinds[PROPER_NOUN]})  # placeholder, whatever it is
            best = max(typed.values())
            kind = min((k for k, v in typed.items() if v == best), key=_RANK.__getitem__)
            if person is not None and person(phrase):
                kind = "PERSON"
            pairs.append((kind, phrase))
        return KnownNames(pairs)


#: The spans taken: the named types, and capitalised runs no model typed (``Fen Edge Radio``
#: inside a sentence), which count only where no model typed the phrase.
_TAKEN = frozenset({*KNOWN_TYPES, PROPER_NOUN})


def _sentence_start(text: str, start: int) -> bool:
    """Whether ``start`` begins a line or a sentence (after ``.``, ``!``, ``?``, ``:``, a
    quotation mark or a dash and spaces)."""
    before = text[text.rfind("\n", 0, start) + 1:start].rstrip()
    return not before or before[-1] in ".!?:;\"“(–—-" or before.endswith(">")


#: The least share of a one-word name's mentions inside sentences that are capitalised…
CAPITAL_SHARE = 2 / 3
#: …where the word is an English word at all (Zipf of this or more: ``towpath``, not
#: ``tannersley``, which a handle or an address may write in lower case).
UNKNOWN_ZIPF = 1.5

def _mentions(text: str, capital: Counter[str], lower: Counter[str]) -> None:
    """Count the words inside sentences of the cased lines of ``text`` (a capital inside a
    sentence: not ``NOTE auto-generated captions tannersley sound``): in ``capital``
    those capitalised with no capitalised word beside them (``Mardlesey``, not ``Narrowboat``
    of ``Heartland Narrowboat Holidays``), in ``lower`` those in lower case (by :func:`_key`)."""
    for line in text.split("\n"):
        if line.islower() or line.isupper():
            continue
        words = list(_WORD.finditer(line))
        caps = [m.group()[0].isupper() for m in words]
        inside = [i for i in range(1, len(words))  # not a sentence's first word, nor after
                  if not line[words[i - 1].end():words[i].start()].strip(" \t,")]  # a symbol
        if not any(caps[i] for i in inside):
            continue  # no capital inside a sentence: a lower-case line with a label before it
        for i in inside:
            word = words[i].group()
            if caps[i]:
                if not word.isupper() and not caps[i - 1] and not (
                        i + 1 < len(words) and caps[i + 1]):
                    capital[_name_key(word)] += 1
            elif word.islower():
                lower[_name_key(word)] += 1


#: How many times a common word must be named after ``the`` to be a known name.
COMMON_MENTIONS = 2

#: Zipf frequency from which a word alone is too common to be a known name without ``the``.
COMMON = 3.0

#: Function words a cased name may hold in lower case (``Friends of the Engine``).
_INSIDE = NAME_LINKS - {"on", "in"}  # "Corn Exchange on Long": two names


#: What cuts a detector's span into names: a comma, a bracket, a slash … (``Sluice
#: Cottages, Swaddle End``; ``Lucy Wren (Fen Edge Radio``).
_CUT = re.compile(r"[,;:()\[\]{}/|\"“”<>]+")


def _pieces(text: str, span: EntitySpan) -> list[EntitySpan]:
    """``span`` cut at punctuation (:data:`_CUT`) into the names it runs together."""
    out, start = [], span.start
    for m in _CUT.finditer(text, span.start, span.end):
        if m.start() > start:
            out.append(EntitySpan(start, m.start(), span.type))
        start = m.end()
    if span.end > start:
        out.append(EntitySpan(start, span.end, span.type))
    trimmed = []
    for piece in out:  # without the spaces at its ends
        a, b = piece.start, piece.end
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            trimmed.append(EntitySpan(a, b, piece.type))
    return trimmed


def _learned(text: str, span: EntitySpan, zipf: Any, label: Any,
             lines: dict[int, bool] | None = None) -> str | None:
    """The phrase :func:`learn_known_names` takes from ``span``, or ``None``; ``lines``
    caches, by a line's start, whether the line may hold one (read once per line, however
    many spans it has)."""
    line_start = text.rfind("\n", 0, span.start) + 1
    if "\n" in text[span.start:span.end]:
        return None
    usable = None if lines is None else lines.get(line_start)
    if usable is None:
        line_end = text.find("\n", line_start)
        line = text[line_start:line_end if line_end >= 0 else len(text)]
        usable = not (line.islower() or line.isupper() or all(  # nor a heading: every
            w[0].isupper() or w.lower() in _INSIDE for w in _WORD.findall(line)))  # word
        if lines is not None:  # capitalised
            lines[line_start] = usable
    if not usable:
        return None
    if text[span.end:span.end + 3].lstrip(" \t")[:1] == ":":  # a form's key
        return None
    words = [w for w in (_POSSESSIVE.sub("", w) for w in _WORD.findall(
        text[span.start:span.end])) if w]
    while words and (words[0].lower() in _INSIDE or len(words[0]) == 1
                     or label(words[0].lower())):
        words = words[1:]  # "the", an initial, a title before the name
    while words and (words[-1].lower() in _INSIDE or len(words[-1]) == 1
                     or label(words[-1].lower())):
        words = words[:-1]
    if not words or len(words) > MAX_NAME_WORDS:
        return None
    if any((not w[0].isupper() and w.lower() not in _INSIDE) or label(w.lower())
           or any(c.isdigit() for c in w) for w in words):
        return None
    if len(words) > 1:
        return " ".join(_name_key(w) for w in words)
    word = _name_key(words[0])
    if float(zipf(word)) < COMMON:
        return word if len(word) > 1 else None
    if span.type == "PERSON" or not _THE_BEFORE.search(text, max(line_start, span.start - 8),
                                                        span.start):
        return None
    if _NEXT_NAME.match(text, span.end):  # "the Dog" of "the Dog and Duck": a longer name's
        return None
    return f"the {word}"


#: A lower-case ``the`` right before a span (its line's start or a space before it).
_THE_BEFORE = re.compile(r"(?:^|(?<=\s))the[ \t]+$", re.MULTILINE)

#: A capitalised word next, or ``and``/``&``/``of`` then one: the span is part of a longer name.
_NEXT_NAME = re.compile(r"['’]?s?[ \t]+(?:(?:and|&|of|of the)[ \t]+)?[A-Z]")


def learn_names(texts: Iterable[str], *, entities: str = "auto", lang: str = "en",
                batch: int = 64) -> KnownNames:
    """:func:`learn_known_names` of ``texts`` with the detectors of ``--entities entities`` in
    ``lang``, their spans widened as a release widens them (``Corn`` found, ``Corn
    Exchange`` taken); read ``batch`` texts at a time (memory bounded by a batch).

    >>> learn_names(["Joy Cross met us at the Corn Exchange."]).names  # doctest: +SKIP
    (('LOCATION', 'corn exchange'), ('PERSON', 'joy cross'))
    """
    from emprivacy.entities.french import language_detector
    from emprivacy.entities.marking import EntityMarking
    from emprivacy.entities.name_words import zipf_in
    from emprivacy.entities.policy import EntityPolicy
    from emprivacy.text.language import get_language

    _, detector, _ = language_detector(entities, lang)
    if detector is None:
        raise ValueError("learning names needs a detector; entities is 'none'")
    code = get_language(lang).wordfreq_code
    marking = EntityMarking(detector, EntityPolicy(1.0, {}), {}, lang)

    def zipf(word: str) -> float:
        return zipf_in(word, code)

    if isinstance(texts, str | bytes):
        raise TypeError("texts must be an iterable of strings, not one string")
    tally = NameTally()
    held: list[str] = []
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"texts must be strings; got {type(text).__name__}")
        held.append(text)
        if len(held) >= batch:
            tally.add(held, marking.detect(held), zipf=zipf, label=marking.label_word)
            held = []
    if held:
        tally.add(held, marking.detect(held), zipf=zipf, label=marking.label_word)
    return tally.names(person=lambda phrase: reads_as_person(marking, phrase))


def reads_as_person(marking: Any, phrase: str) -> bool:
    """Whether ``phrase`` (lower case) reads as a person's name: two or three words, a
    given name first (``marking.given_name``), no kind of place or body and no function word
    among them (``faith walker``, not ``hope street``)."""
    words = phrase.split()
    return (len(words) in (2, 3) and marking.given_name(words[0])
            and not any(marking.designator(w) or w in _INSIDE for w in words))
