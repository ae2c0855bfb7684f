"""Text → tokens → bag of words (Def. 1 and the end of §2 of the paper).

A *document* is a finite bag over the set of words S (Def. 1).  To prepare a text
as the paper does (§2, App. B) we normalise it, tokenise it, lowercase it, drop
punctuation and stopwords, and optionally truncate it to a fixed size N.  We keep
the words in the order of their occurrence (repeats included: a bag counts
multiplicities), so that truncation to the first N words is reproducible.

Normalisation (:func:`normalise_text`) removes format characters (Unicode
category Cf: zero-width joiners and spaces, soft hyphens, bidi controls, tag
characters), so that ``Jo\u200dhn`` is one word, and composes accents (NFC).
Words are matched against the vocabulary in NFKC (:func:`normalise_word`), so
that full-width ``Ｊｏｈｎ`` and ligatures such as ``ﬁ`` find their word.

Tokenisation follows the conventions of the common embedding vocabularies
(GloVe, word2vec): a word is a run of letters (with their combining marks),
possibly joined by inner hyphens or apostrophes (``e-mail``, ``o'clock``);
English clitics (``'s``, ``n't``, ``'ll``, …) are split off and treated as
stopwords; digits, number words (:data:`NUMBER_WORDS`), URLs and e-mail
addresses are their own token kinds and are never words.  Every other
character that is neither whitespace nor allowed punctuation
(:data:`LAYOUT_PUNCTUATION`) — symbols, emoji, Braille, private-use characters,
stray combining marks — is part of a ``"symbol"`` token.  So the characters
*between* tokens are, by construction, only layout: the allow-list that text
mode releases.

A long text is normalised and tokenised in pieces (:func:`normalise_pieces`), cut
only where the pieces give exactly the whole text's normalisation and tokens.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from itertools import islice
from typing import Literal

from ._validation import check_positive_int

__all__ = [
    "LAYOUT_PUNCTUATION",
    "LAYOUT_WHITESPACE",
    "NUMBER_WORDS",
    "STOPWORDS",
    "Token",
    "bag_of_words",
    "is_layout",
    "is_number_word",
    "is_word",
    "normalise_pieces",
    "normalise_text",
    "normalise_word",
    "piece_words",
    "tokenize",
]


def _read_word_list(name: str) -> frozenset[str]:
    """The words of a data file of the package (one per line, ``#`` comments)."""
    text = files("emprivacy").joinpath("data", name).read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines()
                     if (w := line.partition("#")[0].strip()))


#: The stopwords: the function words of the package data file ``stopwords-en.txt``
#: (articles, pronouns, prepositions, conjunctions, auxiliaries, function adverbs; its
#: header gives its provenance and why no noun or number word is in it), plus the
#: clitics and clitic stems of the GloVe/PTB tokenisation (``ca`` of ``can't``, …).
STOPWORDS: frozenset[str] = _read_word_list("stopwords-en.txt") | frozenset(
    {"n't", "'s", "'d", "'ll", "'m", "'re", "'ve", "s", "t", "d", "ll", "m", "re", "ve", "ca", "wo",
     "sha"}
)

#: Number words (``one`` … ``trillion``, ordinals, ``dozen``; the package data file
#: ``number-words-en.txt``): numbers, never words.
NUMBER_WORDS: frozenset[str] = _read_word_list("number-words-en.txt")

#: Whitespace released as layout: the ASCII controls ``\t \n \v \f \r`` and the
#: Unicode space, line and paragraph separators (Zs, Zl, Zp).
LAYOUT_WHITESPACE: frozenset[str] = frozenset(
    "\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000")

#: Punctuation released as layout: ASCII punctuation and its full-width forms, the
#: common typographic quotes, dashes and ellipsis, and the CJK full stop, comma and
#: brackets.  Nothing else between words is ever released.
LAYOUT_PUNCTUATION: frozenset[str] = frozenset(
    string.punctuation + "".join(chr(ord(c) + 0xFEE0) for c in string.punctuation)
    + "‘’‚‛“”„‟«»‹›‐‑‒–—―…、。「」『』〈〉《》【】〔〕・")

TokenKind = Literal["word", "number", "url", "email", "symbol"]

_LETTERS = r"[^\W\d_]"
_LAYOUT_CLASS = "".join(re.escape(c) for c in sorted(LAYOUT_WHITESPACE | LAYOUT_PUNCTUATION))


@cache
def _category_classes() -> dict[str, str]:
    """Regex character-class bodies of the combining marks (``"M"``: Mn, Mc, Me) and of
    the format characters (``"Cf"``), from one pass over the code points.

    Format characters and combining marks exist only in planes 0, 1 and 14.
    """
    points: dict[str, list[int]] = {"M": [], "Cf": []}
    for block in (range(0x20000), range(0xE0000, 0xE1000)):
        for cp in block:
            cat = unicodedata.category(chr(cp))
            if cat == "Cf":
                points["Cf"].append(cp)
            elif cat[0] == "M":
                points["M"].append(cp)
    return {kind: _ranges(cps) for kind, cps in points.items()}


def _ranges(points: list[int]) -> str:
    parts: list[str] = []
    start = prev = points[0]
    for cp in [*points[1:], -1]:
        if cp == prev + 1:
            prev = cp
            continue
        parts.append(re.escape(chr(start)) if start == prev
                     else f"{re.escape(chr(start))}-{re.escape(chr(prev))}")
        start = prev = cp
    return "".join(parts)


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The format-character, token and word patterns (built once, on first use: ~30 ms)."""
    marks = _category_classes()["M"]
    letters = rf"(?:{_LETTERS}[{marks}]*)+"
    word = rf"{letters}(?:['’\-]{letters})*"
    token = re.compile(
        r"(?P<url>(?:https?://|www\.)[^\s<>\"']+[^\s<>\"'.,;:!?)\]])"
        r"|(?P<email>[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+)"
        r"|(?P<number>\d+(?:[.,:/\-⁄]\d+)*(?:st|nd|rd|th|s|%)?)"
        rf"|(?P<word>{word})"
        rf"|(?P<symbol>[^{_LAYOUT_CLASS}\w]+)"
    )
    return re.compile(f"[{_category_classes()['Cf']}]+"), token, re.compile(word)


#: English clitics split from the end of a word, as the GloVe and word2vec
#: vocabularies tokenise them ("don't" → "do" + "n't").
_CLITIC_RE = re.compile(r"^(?P<stem>.+?)(?P<clitic>n['’]t|['’](?:s|d|ll|m|re|ve))$", re.IGNORECASE)


def normalise_text(text: str) -> str:
    """Remove format characters (Cf), then compose (Unicode NFC).

    Invisible format characters (zero-width joiner and space, soft hyphen, bidi
    controls, the tag characters U+E0000–U+E007F) would otherwise split a word
    or hide content; NFC glues a decomposed accent to its letter.  Text mode
    releases the layout of the *normalised* text.

    >>> normalise_text("Jo\u200dhn Zoe\u0308 Ma\u00adry")
    'John Zoë Mary'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__}")
    return unicodedata.normalize("NFC", _patterns()[0].sub("", text))


@cache
def _cut_pattern() -> re.Pattern[str]:
    """The last layout whitespace followed by a character that is not a combining mark."""
    spaces = "".join(re.escape(c) for c in sorted(LAYOUT_WHITESPACE))
    return re.compile(rf"(?s:.*)[{spaces}](?=[^{_category_classes()['M']}])")


def _last_cut(text: str, start: int) -> int:
    """The last safe cut of ``text`` after ``start`` (0: none).

    A cut lies just after a layout whitespace character ``w`` (never part of a token,
    :func:`tokenize`) whose next character ``c`` is a starter that does not compose
    with it (not a combining mark, combining class 0, ``NFC(w c) = NFC(w) NFC(c)``):
    composition and canonical reordering never cross it, so the two sides normalise
    and tokenise on their own as they do within the whole text.
    """
    end = len(text)
    while True:
        match = _cut_pattern().match(text, start, end)
        if match is None:
            return 0
        cut = match.end()
        w, c = text[cut - 1], text[cut]
        if unicodedata.combining(c) == 0 and (
                (w.isascii() and c.isascii()) or unicodedata.normalize("NFC", w + c)
                == unicodedata.normalize("NFC", w) + unicodedata.normalize("NFC", c)):
            return cut
        end = cut  # look further back


def normalise_pieces(chunks: Iterable[str]) -> Iterator[str]:
    """:func:`normalise_text` of a text given in chunks, in pieces that tokenise on their own.

    The chunks may be cut anywhere; the pieces are cut only at a layout whitespace
    character followed by a character that composes with nothing before it (see
    :func:`_last_cut`), at most one cut per chunk.  So ``"".join(pieces)`` is
    ``normalise_text("".join(chunks))``, and tokenising the pieces one by one
    (:func:`tokenize`) gives the tokens of the whole text, in order.  A text without
    such a cut (a token longer than a chunk, a whitespace-free script) is carried
    until one comes: memory grows with the longest stretch between two cuts, not with
    the text.  Format characters are removed chunk by chunk (one by one, as in the
    whole text).

    >>> list(normalise_pieces(["Jo\u200dhn Zo", "e\u0308 ", "Mary"]))
    ['John ', 'Zoë Mary']
    """
    fmt = _patterns()[0]
    carry = ""
    it = iter(chunks)
    chunk = next(it, None)
    while chunk is not None:
        nxt = next(it, None)
        if not isinstance(chunk, str):
            raise TypeError(f"chunks must be str; got {type(chunk).__name__}")
        text = fmt.sub("", chunk)
        if nxt is None:  # the last chunk (often the only one): no cut needed
            carry += text
            break
        scanned = max(0, len(carry) - 1)
        carry += text
        cut = _last_cut(carry, scanned)
        if cut:
            yield unicodedata.normalize("NFC", carry[:cut])
            carry = carry[cut:]
        chunk = nxt
    if carry:
        yield unicodedata.normalize("NFC", carry)


def is_layout(char: str) -> bool:
    """Whether ``char`` may be released as layout: allowed whitespace or punctuation."""
    return char in LAYOUT_WHITESPACE or char in LAYOUT_PUNCTUATION


def is_number_word(word: str) -> bool:
    """Whether a lowercased word is a number word or a hyphenated compound of them.

    >>> is_number_word("forty-five"), is_number_word("twenty-first"), is_number_word("e-mail")
    (True, True, False)
    """
    return all(part in NUMBER_WORDS for part in word.split("-"))


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a text: its kind, its surface form and its span ``[start, end)``."""

    kind: TokenKind
    text: str
    start: int
    end: int


def _is_number(surface: str) -> bool:
    return is_number_word(normalise_word(surface)) or any(c.isnumeric() for c in surface)


def tokenize(text: str) -> Iterator[Token]:
    """Split ``text`` into word, number, URL, e-mail and symbol tokens, with their spans.

    ``text`` should be normalised first (:func:`normalise_text`; spans refer to
    the text as given).  Characters between tokens are only allowed layout
    (:func:`is_layout`).  A word ending in an English clitic yields the stem and
    the clitic as two tokens; a number word (:func:`is_number_word`) is a
    ``"number"`` token, and so is a run of letters holding a numeric character
    (``½``, ``Ⅻ``, ``m²``); a run of characters that are neither layout, letters nor
    digits is one ``"symbol"`` token.

    >>> [(t.kind, t.text) for t in tokenize("Don't e-mail a@b.org 2 times! ❤️ five")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('word', 'Do'), ('word', "n't"), ('word', 'e-mail'), ('email', 'a@b.org'),
     ('number', '2'), ('word', 'times'), ('symbol', '❤️'), ('number', 'five')]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__}")
    for match in _patterns()[1].finditer(text):
        kind = match.lastgroup
        start, end = match.span()
        surface = match.group()
        if kind == "word":
            stem, kind = _word_token(surface)
            if stem:
                split = start + stem
                yield Token(kind, surface[:stem], start, split)
                yield Token("word", surface[stem:], split, end)
                continue
        yield Token(kind, surface, start, end)  # type: ignore[arg-type]


@lru_cache(maxsize=1 << 16)
def _word_token(surface: str) -> tuple[int, TokenKind]:
    """How :func:`tokenize` reads a match of the word pattern (cached: words repeat).

    ``(length of the stem, its kind)`` when an English clitic is split off (the
    clitic is a ``"word"``), else ``(0, kind of the whole)``.
    """
    clitic = _CLITIC_RE.match(surface)
    if clitic is not None:
        stem = clitic.end("stem")
        return stem, "number" if _is_number(surface[:stem]) else "word"
    return 0, "number" if _is_number(surface) else "word"


@lru_cache(maxsize=1 << 16)
def normalise_word(word: str) -> str:
    """The vocabulary form of a word: NFKC, lowercase, ASCII apostrophe (``’`` → ``'``).

    >>> normalise_word("O’Clock"), normalise_word("Ｊｏｈｎ"), normalise_word("ﬁne")
    ("o'clock", 'john', 'fine')
    """
    if not word.isascii():
        compat = unicodedata.normalize("NFKC", word)
        # a compatibility form that is no longer a word (``ำ`` → mark + letter) is not used
        if _patterns()[2].fullmatch(compat.replace("’", "'")) is not None:
            word = compat
    return word.lower().replace("’", "'")


def is_word(token: str) -> bool:
    """Whether ``token`` is a real word: letters, with inner hyphens or apostrophes only.

    Used to keep punctuation and number tokens out of the decoding vocabulary.

    >>> is_word("e-mail"), is_word("1.3775"), is_word(","), is_word("'s")
    (True, False, False, False)
    """
    return _patterns()[2].fullmatch(token) is not None


def bag_of_words(text: str, *, size: int | None = None) -> list[str]:
    """The bag of words of a text (Def. 1), in order of occurrence.

    Normalise (:func:`normalise_text`), tokenise, lowercase, drop punctuation,
    symbols, numbers (digits and number words), URLs, e-mail addresses and
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
    return list(islice(_words(normalise_text(text)), size))


def piece_words(piece: str) -> list[str]:
    """The bag of words of a normalised text or piece (:func:`normalise_pieces`), in order.

    :func:`bag_of_words` without normalising: the words of a text given in pieces
    are the words of its pieces, one after the other.

    >>> piece_words("The cat sat on the mat.")
    ['cat', 'sat', 'mat']
    """
    return list(_words(piece))


def _words(text: str) -> Iterator[str]:
    for token in tokenize(text):
        if token.kind == "word":
            word = normalise_word(token.text)
            if word not in STOPWORDS:
                yield word
