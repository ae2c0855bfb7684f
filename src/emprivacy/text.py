"""Text → tokens → bag of words (Def. 1 and the end of §2 of the paper).

A *document* is a finite bag over the set of words S (Def. 1).  To prepare a text
as the paper does (§2, App. B) we tokenise it, lowercase it, drop punctuation and
stopwords, and optionally truncate it to a fixed size N.  We keep the words in the
order of their occurrence (repeats included: a bag counts multiplicities), so that
truncation to the first N words is reproducible.

Tokenisation follows the conventions of the common embedding vocabularies
(GloVe, word2vec): a word is a run of letters, possibly joined by inner hyphens
or apostrophes (``e-mail``, ``o'clock``); English clitics (``'s``, ``n't``,
``'ll``, …) are split off and treated as stopwords; digits, URLs and e-mail
addresses are recognised as their own token kinds and are never words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from typing import Literal

from ._validation import check_positive_int

__all__ = [
    "STOPWORDS",
    "Token",
    "bag_of_words",
    "is_word",
    "normalise_word",
    "tokenize",
]



def _read_word_list(name: str) -> frozenset[str]:
    """The words of a data file of the package (one per line, ``#`` comments)."""
    text = files("emprivacy").joinpath("data", name).read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines()
                     if (w := line.partition("#")[0].strip()))


#: The stopword list of the package data file ``stopwords-en.txt`` (its header gives
#: its provenance), plus the clitic stems that the GloVe/PTB tokenisation produces
#: (``ca`` of ``can't``, …).
STOPWORDS: frozenset[str] = _read_word_list("stopwords-en.txt") | frozenset(
    {"n't", "'s", "'d", "'ll", "'m", "'re", "'ve", "s", "t", "d", "ll", "m", "re", "ve", "ca", "wo",
     "sha"}
)

TokenKind = Literal["word", "number", "url", "email", "other"]

_LETTERS = r"[^\W\d_]"
_WORD = rf"{_LETTERS}+(?:['’\-]{_LETTERS}+)*"
_TOKEN_RE = re.compile(
    r"(?P<url>(?:https?://|www\.)[^\s<>\"']+[^\s<>\"'.,;:!?)\]])"
    r"|(?P<email>[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+)"
    r"|(?P<number>\d+(?:[.,:/\-]\d+)*(?:st|nd|rd|th|s|%)?)"
    rf"|(?P<word>{_WORD})"
)
_WORD_RE = re.compile(_WORD)
#: English clitics split from the end of a word, as the GloVe and word2vec
#: vocabularies tokenise them ("don't" → "do" + "n't").
_CLITIC_RE = re.compile(r"^(?P<stem>.+?)(?P<clitic>n['’]t|['’](?:s|d|ll|m|re|ve))$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a text: its kind, its surface form and its span ``[start, end)``."""

    kind: TokenKind
    text: str
    start: int
    end: int


def tokenize(text: str) -> Iterator[Token]:
    """Split ``text`` into word, number, URL and e-mail tokens, with their spans.

    Characters between tokens (whitespace, punctuation) are not tokens.  A word
    ending in an English clitic yields the stem and the clitic as two tokens.

    >>> [(t.kind, t.text) for t in tokenize("Don't e-mail a@b.org 2 times!")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('word', 'Do'), ('word', "n't"), ('word', 'e-mail'), ('email', 'a@b.org'),
     ('number', '2'), ('word', 'times')]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__}")
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastgroup
        start, end = match.span()
        surface = match.group()
        if kind == "word":
            clitic = _CLITIC_RE.match(surface)
            if clitic is not None:
                split = start + clitic.end("stem")
                yield Token("word", text[start:split], start, split)
                yield Token("word", text[split:end], split, end)
                continue
        yield Token(kind, surface, start, end)  # type: ignore[arg-type]


def normalise_word(word: str) -> str:
    """Lowercase a word and use the ASCII apostrophe (``’`` → ``'``).

    >>> normalise_word("O’Clock")
    "o'clock"
    """
    return word.lower().replace("’", "'")


def is_word(token: str) -> bool:
    """Whether ``token`` is a real word: letters, with inner hyphens or apostrophes only.

    Used to keep punctuation and number tokens out of the decoding vocabulary.

    >>> is_word("e-mail"), is_word("1.3775"), is_word(","), is_word("'s")
    (True, False, False, False)
    """
    return _WORD_RE.fullmatch(token) is not None


def bag_of_words(text: str, *, size: int | None = None) -> list[str]:
    """The bag of words of a text (Def. 1), in order of occurrence.

    Tokenise, lowercase, drop punctuation, numbers, URLs, e-mail addresses and
    stopwords (:data:`STOPWORDS`), then keep the first ``size`` words
    (the paper's fixed bag size N, App. B).  Repeated words stay repeated: the
    bag ⟨x₁^{a₁}, …, x_k^{a_k}⟩ is returned as a list of length Σ aᵢ.

    Parameters
    ----------
    text : str
        The document.
    size : int, optional
        Truncate to the first ``size`` words (N ≥ 1).  ``None`` keeps them all.

    Returns
    -------
    list of str

    Examples
    --------
    The example of §2 of the paper:

    >>> bag_of_words("The President greets the press in Chicago.")
    ['president', 'greets', 'press', 'chicago']
    >>> bag_of_words("The President greets the press in Chicago.", size=2)
    ['president', 'greets']
    """
    if size is not None:
        size = check_positive_int(size, "size")
    bag: list[str] = []
    for token in tokenize(text):
        if token.kind != "word":
            continue
        word = normalise_word(token.text)
        if word in STOPWORDS:
            continue
        bag.append(word)
        if size is not None and len(bag) >= size:
            break
    return bag
