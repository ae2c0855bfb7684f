"""A detector without a model: capitalised words that do not start a sentence.

A word token (:func:`emprivacy.text.tokens.tokenize`) in Title case or UPPER case is a
candidate name unless it is a function word of text mode's allow-list
(:data:`~emprivacy.text.word_lists.KEPT_FUNCTION_WORDS`, except the words kept only in lower
case, :data:`~emprivacy.text.word_lists.LOWERCASE_ONLY`, whose Title form is a name: ``May``,
``Will``), a clitic, a weekday or month name, or the first word of a sentence (where every
word is capitalised: ``Dear``, ``Young`` and ``Will`` start sentences, and are family names
too).  A sentence starts at the beginning of the text, after a line break, and after ``.``,
``!``, ``?`` or ``…`` — except the full stop of a title (``Dr.``, ``Mrs.``, ``St.``) or of an
initial (``J.``).  A sentence-initial word is a candidate after all when the same word is a
candidate elsewhere in the text (``Thompson said …`` after ``… Margaret Thompson.``).  Runs
of candidates separated by spaces (and the full stop of an initial or title) are one span.

Its spans have the type :data:`~emprivacy.entities.spans.PROPER_NOUN`: the detector says a
word looks like a name, not which kind; the public lists decide
(:mod:`emprivacy.entities.policy`).  It is a conservative fallback, and a belt to a model's
braces: it finds names a model misses, and flags capitalised common words too.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import NamedTuple

from emprivacy.entities.spans import PROPER_NOUN, EntitySpan, check_texts
from emprivacy.text.language import ENGLISH, Language, get_language
from emprivacy.text.normalise import normalise_word
from emprivacy.text.tokens import Token, tokenize
from emprivacy.text.word_lists import CLITIC_STEMS, CLITICS, KEPT_FUNCTION_WORDS, LOWERCASE_ONLY

__all__ = ["CALENDAR_WORDS", "TITLES", "WEEKDAYS", "CapitalisedDetector", "TextWords",
           "forget_text_words", "kept_tokens", "text_words"]

#: Weekday and month names: capitalised in English, never identifying on their own.
CALENDAR_WORDS: frozenset[str] = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april "
    "june july august september october november december".split())

#: Weekdays: no name, whatever a model typed them.  Not their abbreviations: ``Thu`` is a
#: given name (``Officer Thu Trang Pham``), and so are ``Mon`` and ``Sun``.
WEEKDAYS: frozenset[str] = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday".split())

#: Abbreviated titles whose full stop does not end a sentence (``Dr. Patel``).
TITLES: frozenset[str] = frozenset(
    "mr mrs ms mx dr st prof jr sr mt ft gen col capt lt sgt rev hon messrs mme mlle".split())

#: A gap between two words of one run: spaces or tabs, after an optional full stop.
_RUN_GAP = re.compile(r"\.?[ \t]+")
_SENTENCE_END = re.compile(r"[.!?…\n\r\u2028\u2029]")


def _capitalised(surface: str) -> bool:
    """Title or UPPER case: the first cased letter is upper case."""
    for c in surface:
        if c.lower() != c.upper():
            return c.isupper()
    return False


def _excluded(word: str) -> bool:
    """A function word of the allow-list (not one kept only in lower case), a clitic or a
    calendar word."""
    return ((word in KEPT_FUNCTION_WORDS and word not in LOWERCASE_ONLY) or word in CLITICS
            or word in CLITIC_STEMS or word in CALENDAR_WORDS)


class CapitalisedDetector:
    """Capitalised words that are not sentence-initial, as :data:`PROPER_NOUN` spans.

    Needs no model and no extra.  See the module's description for the rules.

    >>> text = "Then Dr. Patel met Margaret Thompson. Thompson is in NASA now. Now then."
    >>> [text[s.start:s.end] for s in CapitalisedDetector().detect([text])[0]]
    ['Dr. Patel', 'Margaret Thompson', 'Thompson', 'NASA']
    """

    name = "capitalised"
    types = frozenset({PROPER_NOUN})

    def __init__(self, *, lang: str = "en") -> None:
        #: The language of the tokenising and of the function words (``--lang``).
        self.lang = get_language(lang)

    def __repr__(self) -> str:
        return "CapitalisedDetector()" if self.lang is ENGLISH else (
            f"CapitalisedDetector(lang={self.lang.code!r})")

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        return [self._spans(text) for text in check_texts(texts)]

    def _spans(self, text: str) -> list[EntitySpan]:
        words, forms, initial, _ = text_words(text, self.lang)
        excluded = _excluded if self.lang is ENGLISH else self._excluded_in
        cap = [_capitalised(t.text) and not excluded(f) for t, f in zip(words, forms,
                                                                        strict=True)]
        seen = {f for f, c, first in zip(forms, cap, initial, strict=True) if c and not first}
        # a sentence-initial word is a candidate when it is one elsewhere in the text
        candidate = [c and (not first or f in seen) for c, first, f in zip(cap, initial, forms,
                                                                          strict=True)]
        spans: list[EntitySpan] = []
        run: list[Token] = []
        for tok, cand in zip(words, candidate, strict=True):
            if cand and run and self._joined(run[-1], tok, text):
                run.append(tok)
                continue
            if run:
                spans.append(EntitySpan(run[0].start, run[-1].end, PROPER_NOUN))
            run = [tok] if cand else []
        if run:
            spans.append(EntitySpan(run[0].start, run[-1].end, PROPER_NOUN))
        return spans

    def _excluded_in(self, word: str) -> bool:
        """:func:`_excluded` in another language: its function words, clitics and months."""
        lang = self.lang
        return ((word in lang.kept_function_words and word not in lang.lowercase_only)
                or word in lang.clitics or word in lang.elisions or word in lang.months)

    @staticmethod
    def _joined(left: Token, right: Token, text: str) -> bool:
        """Whether two words are one run: only spaces between them, or the full stop of an
        initial or a title and spaces."""
        gap = text[left.end:right.start]
        if _RUN_GAP.fullmatch(gap) is None:
            return False
        return not gap.startswith(".") or _abbreviation(left.text)

    @staticmethod
    def _sentence_initial(words: list[Token], text: str) -> list[bool]:
        """Whether each word starts a sentence (see the module's description)."""
        out = []
        prev: Token | None = None
        for tok in words:
            if prev is None:
                first = True
            else:
                gap = text[prev.end:tok.start]
                end = None if gap == " " else _SENTENCE_END.search(gap)  # most gaps: a space
                first = end is not None and not (
                    gap[end.start()] == "." and "\n" not in gap and _abbreviation(prev.text)
                    and _SENTENCE_END.search(gap, end.end()) is None)
            out.append(first)
            prev = tok
        return out


def _abbreviation(surface: str) -> bool:
    """A title (``Dr``) or an initial (one capital letter)."""
    return normalise_word(surface) in TITLES or (len(surface) == 1 and surface.isupper())


class TextWords(NamedTuple):
    """The words of a text as the detectors read them (:func:`text_words`); shared, so
    read-only."""

    #: The word tokens (:func:`~emprivacy.text.tokens.tokenize`, kind ``"word"``).
    words: list[Token]
    #: Each word normalised (:func:`~emprivacy.text.normalise.normalise_word`).
    forms: list[str]
    #: Whether each word starts a sentence (:meth:`CapitalisedDetector._sentence_initial`).
    initial: list[bool]
    #: Every token of the text, words and the rest (handed on to the text's template:
    #: :func:`kept_tokens`).
    tokens: tuple[Token, ...]


#: :func:`text_words` keeps the words of the texts it read last, up to this many characters
#: of text: the detectors of a union read one batch in turn, and a batch of
#: :meth:`~emprivacy.obfuscation.entities.EntityRun.ahead` closes once it holds
#: ``AHEAD_CHARS`` (1M) characters or more, one document of at most as many more.
WORDS_KEPT_CHARS = 2 << 20
_kept: OrderedDict[tuple[str, Language], TextWords] = OrderedDict()
_kept_chars = 0
_kept_lock = threading.Lock()


def text_words(text: str, lang: Language = ENGLISH) -> TextWords:
    """The words of ``text`` in ``lang``, their normalised forms and which start a sentence,
    computed once for all the detectors of a union (issue 40, cost: the names and the
    capitalised detectors each tokenised every text).  The texts read last are kept, up to
    :data:`WORDS_KEPT_CHARS` characters, so memory is bounded whatever the batch.

    >>> text_words("Then Dr. Patel came.").forms
    ['then', 'dr', 'patel', 'came']
    >>> text_words("Then Dr. Patel came.").initial
    [True, False, False, False]
    """
    global _kept_chars
    key = (text, lang)  # a language is equal only to itself
    with _kept_lock:
        got = _kept.get(key)
        if got is not None:
            _kept.move_to_end(key)
            return got
    tokens = tuple(tokenize(text, lang=lang))
    words = [t for t in tokens if t.kind == "word"]
    got = TextWords(words, [normalise_word(t.text) for t in words],
                    CapitalisedDetector._sentence_initial(words, text), tokens)
    if len(text) <= WORDS_KEPT_CHARS:
        with _kept_lock:
            if key not in _kept:
                _kept[key] = got
                _kept_chars += len(text)
            while _kept_chars > WORDS_KEPT_CHARS:
                old, _ = _kept.popitem(last=False)
                _kept_chars -= len(old[0])
    return got


def kept_tokens(text: str, lang: Language = ENGLISH) -> tuple[Token, ...] | None:
    """The tokens of ``text`` in ``lang`` if :func:`text_words` read it and still keeps it,
    else ``None`` (nothing is computed): a run hands them to the text's template, which
    would otherwise tokenise the text a second time (issue 40, cost).

    >>> forget_text_words(); kept_tokens("Ann came.") is None
    True
    >>> _ = text_words("Ann came at 5."); [t.kind for t in kept_tokens("Ann came at 5.")]
    ['word', 'word', 'word', 'number']
    """
    with _kept_lock:
        got = _kept.get((text, lang))
    return None if got is None else got.tokens


def forget_text_words() -> None:
    """Drop the words :func:`text_words` keeps (a run calls this after each batch: the texts
    are private, and the next batch needs none of them)."""
    global _kept_chars
    with _kept_lock:
        _kept.clear()
        _kept_chars = 0
