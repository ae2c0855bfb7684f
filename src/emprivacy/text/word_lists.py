"""The word lists of the package's data files (``src/emprivacy/data/``), one word a line:
the stopwords that bags drop (the paper's preprocessing, §2 and App. B), the function
words that text mode keeps, the number words (numbers, never words) and the top-level
domains (a domain name is a URL, never words).

The lists are read once, on import (the top-level domains on first use).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

__all__ = [
    "CLITICS",
    "CLITIC_STEMS",
    "KEPT_FUNCTION_WORDS",
    "LOWERCASE_ONLY",
    "NUMBER_WORDS",
    "STOPWORDS",
    "is_number_word",
    "marked_words",
    "read_kept_list",
    "read_word_list",
    "top_level_domains",
]


def read_word_list(name: str) -> frozenset[str]:
    """The words of a data file of the package (one per line, ``#`` comments)."""
    text = files("emprivacy").joinpath("data", name).read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines()
                     if (w := line.partition("#")[0].strip()))


def marked_words(text: str, *, mark: str, source: str) -> tuple[frozenset[str], frozenset[str]]:
    r"""The words of a list's ``text`` (one a line, lower-cased, ``#`` comments), each alone
    or followed by ``mark``: those without the mark, and those with it.  Anything else after
    a word is a ``ValueError`` naming ``source`` (``data/places-fr.txt``'s
    ``after-preposition``, ``data/given-names-fr.txt``'s ``before-family``).

    >>> marked_words("Rose\njuste  before-family  # a word above all\n", mark="before-family",
    ...              source="given-names-fr.txt")
    (frozenset({'rose'}), frozenset({'juste'}))
    """
    plain: set[str] = set()
    marked: set[str] = set()
    for line in text.splitlines():
        fields = line.partition("#")[0].split()
        if not fields:
            continue
        if fields[1:] not in ([], [mark]):
            raise ValueError(f"{source}: a line is one word, {mark!r} the only mark after it; "
                             f"got {' '.join(fields)!r}")
        (marked if fields[1:] else plain).add(fields[0].lower())
    return frozenset(plain), frozenset(marked)


#: English clitics split off the end of a word (``n't`` of ``don't``, ``'s`` of ``she's``):
#: function words only there, never as words of their own.
CLITICS: frozenset[str] = frozenset({"n't", "'s", "'d", "'ll", "'m", "'re", "'ve"})

#: The stems that the GloVe/PTB tokenisation leaves of ``can't``, ``won't``, ``shan't``:
#: function words only before ``n't``.
CLITIC_STEMS: frozenset[str] = frozenset({"ca", "wo", "sha"})

#: The stopwords that bags drop (the paper's preprocessing; a bag never releases them): the
#: function words of the package data file ``stopwords-en.txt`` (articles, pronouns,
#: prepositions, conjunctions, auxiliaries, function adverbs; its header gives its provenance
#: and why no noun or number word is in it), plus the clitics and the fragments that the
#: GloVe/PTB tokenisation makes of them (``ca`` of ``can't``, a bare ``s``, …).  Text mode
#: does not release these as they are: it keeps only
#: :func:`~emprivacy.text.tokens.verbatim_function_words`.
STOPWORDS: frozenset[str] = read_word_list("stopwords-en.txt") | CLITICS | CLITIC_STEMS | (
    frozenset({"s", "t", "d", "ll", "m", "re", "ve"}))


def read_kept_list(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of text mode's allow-list file, and those of them marked ``lowercase-only``."""
    text = files("emprivacy").joinpath("data", name).read_text(encoding="utf-8")
    words: set[str] = set()
    lower_only: set[str] = set()
    for line in text.splitlines():
        fields = line.partition("#")[0].split()
        if fields:
            words.add(fields[0])
            if fields[1:] == ["lowercase-only"]:
                lower_only.add(fields[0])
    return frozenset(words), frozenset(lower_only)


#: Text mode's allow-list (package data file ``kept-function-words-en.txt``): the pure
#: function words that text mode releases as they are, and of them those kept only in
#: lower case, whose Title form is also a name, an acronym or a content word (``May``,
#: ``Will``, ``Us``, ``Who``).  See :func:`~emprivacy.text.tokens.verbatim_function_words`.
KEPT_FUNCTION_WORDS, LOWERCASE_ONLY = read_kept_list("kept-function-words-en.txt")

#: Number words (``one`` … ``trillion``, ordinals, ``dozen``; the package data file
#: ``number-words-en.txt``): numbers, never words.
NUMBER_WORDS: frozenset[str] = read_word_list("number-words-en.txt")


@cache
def top_level_domains() -> frozenset[str]:
    """The top-level domains of the package data file ``tlds.txt`` (lower case): a dot-joined
    run of labels ending in one of them is a domain name, a ``"url"`` token."""
    return read_word_list("tlds.txt")


def is_number_word(word: str) -> bool:
    """Whether a lowercased word is a number word or a hyphenated compound of them.

    >>> is_number_word("forty-five"), is_number_word("twenty-first"), is_number_word("e-mail")
    (True, True, False)
    """
    return all(part in NUMBER_WORDS for part in word.split("-"))
