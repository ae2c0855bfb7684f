"""Normalising a text (§2 of the paper: the text a bag of words is taken from), and the
characters released as its layout.

Normalisation (:func:`normalise_text`) removes format characters (Unicode
category Cf: zero-width joiners and spaces, soft hyphens, bidi controls, tag
characters), so that ``Jo\u200dhn`` is one word, and composes accents (NFC).
Words are matched against the vocabulary in NFKC (:func:`normalise_word`), so
that full-width ``Ｊｏｈｎ`` and ligatures such as ``ﬁ`` find their word.

A long text is normalised in pieces (:func:`normalise_pieces`), cut only where the
pieces give exactly the whole text's normalisation and tokens
(:func:`emprivacy.text.tokens.tokenize`).

The characters *between* tokens are, by construction, only layout
(:data:`LAYOUT_WHITESPACE`, :data:`LAYOUT_PUNCTUATION`): the allow-list that text mode
releases.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache

from emprivacy.text._unicode import category_classes, format_pattern, word_pattern

__all__ = [
    "LAYOUT_PUNCTUATION",
    "LAYOUT_WHITESPACE",
    "fold_to_ascii",
    "is_layout",
    "latin_letters",
    "normalise_pieces",
    "normalise_surface",
    "normalise_text",
    "normalise_word",
]

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


#: Letters that no decomposition takes to ASCII, and the letters they are typed as.
_ASCII_LETTERS = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
                                "ð": "d", "þ": "th", "æ": "ae", "Æ": "Ae", "œ": "oe",
                                "Œ": "Oe", "ß": "ss", "ı": "i", "ħ": "h"})


def fold_to_ascii(word: str) -> str:
    """``word`` as it is typed without accents: combining marks dropped after a canonical
    decomposition (NFD), and the letters that do not decompose written as ASCII
    (``ł`` → ``l``, ``ø`` → ``o``, ``ß`` → ``ss``).  Other characters stay as they are.

    >>> fold_to_ascii("kraków"), fold_to_ascii("łódź"), fold_to_ascii("Tromsø")
    ('krakow', 'lodz', 'Tromso')
    """
    decomposed = unicodedata.normalize("NFD", word).translate(_ASCII_LETTERS)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def is_layout(char: str) -> bool:
    """Whether ``char`` may be released as layout: allowed whitespace or punctuation."""
    return char in LAYOUT_WHITESPACE or char in LAYOUT_PUNCTUATION


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
    return unicodedata.normalize("NFC", format_pattern().sub("", text))


@cache
def _cut_pattern() -> re.Pattern[str]:
    """The last layout whitespace followed by a character that is not a combining mark."""
    spaces = "".join(re.escape(c) for c in sorted(LAYOUT_WHITESPACE))
    return re.compile(rf"(?s:.*)[{spaces}](?=[^{category_classes()['M']}])")


def _last_cut(text: str, start: int) -> int:
    """The last safe cut of ``text`` after ``start`` (0: none).

    A cut lies just after a layout whitespace character ``w`` (never part of a token,
    :func:`~emprivacy.text.tokens.tokenize`) whose next character ``c`` is a starter that
    does not compose with it (not a combining mark, combining class 0,
    ``NFC(w c) = NFC(w) NFC(c)``): composition and canonical reordering never cross it,
    so the two sides normalise and tokenise on their own as they do within the whole
    text.
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
    (:func:`~emprivacy.text.tokens.tokenize`) gives the tokens of the whole text, in
    order.  A text without such a cut (a token longer than a chunk, a whitespace-free
    script) is carried until one comes: memory grows with the longest stretch between
    two cuts, not with the text.  Format characters are removed chunk by chunk (one by
    one, as in the whole text).

    >>> list(normalise_pieces(["Jo\u200dhn Zo", "e\u0308 ", "Mary"]))
    ['John ', 'Zoë Mary']
    """
    fmt = format_pattern()
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


@lru_cache(maxsize=1 << 16)
def normalise_word(word: str) -> str:
    """The vocabulary form of a word: NFKC, lowercase, ASCII apostrophe (``’`` → ``'``).

    >>> normalise_word("O’Clock"), normalise_word("Ｊｏｈｎ"), normalise_word("ﬁne")
    ("o'clock", 'john', 'fine')
    """
    return normalise_surface(word).lower()


@lru_cache(maxsize=1 << 16)
def normalise_surface(word: str) -> str:
    """:func:`normalise_word` without lowercasing: the form looked up first in a cased
    vocabulary (:attr:`emprivacy.embeddings.model.Embeddings.cased`).

    >>> normalise_surface("O’Clock"), normalise_surface("Ｊｏｈｎ")
    ("O'Clock", 'John')
    """
    if not word.isascii():
        compat = unicodedata.normalize("NFKC", word)
        # a compatibility form that is no longer a word (``ำ`` → mark + letter) is not used
        if word_pattern().fullmatch(compat.replace("’", "'")) is not None:
            word = compat
    return word.replace("’", "'")


def latin_letters(word: str) -> bool:
    """Whether ``word``'s letters are Latin: ASCII, Latin-1, Latin Extended A and B, and
    Latin Extended Additional (Vietnamese: ``NGUYỄN``); a word of another script is not.

    >>> latin_letters("NGUYỄN"), latin_letters("Ōkubo"), latin_letters("Москва")
    (True, True, False)
    """
    return word.isascii() or all(c < "\u0250" or "\u1e00" <= c <= "\u1eff"
                                 for c in word if c.isalpha())
