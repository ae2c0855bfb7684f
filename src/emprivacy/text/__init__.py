"""Text in: normalising, tokenising by allow-list, bags of words and the word lists
(:mod:`.tokens`; Def. 1 and §2 of the paper).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "CLITICS": "tokens",
    "CLITIC_STEMS": "tokens",
    "KEPT_FUNCTION_WORDS": "tokens",
    "LAYOUT_PUNCTUATION": "tokens",
    "LAYOUT_WHITESPACE": "tokens",
    "LOWERCASE_ONLY": "tokens",
    "NUMBER_WORDS": "tokens",
    "OPAQUE_SCHEMES": "tokens",
    "STOPWORDS": "tokens",
    "Token": "tokens",
    "bag_of_words": "tokens",
    "is_layout": "tokens",
    "is_number_word": "tokens",
    "is_word": "tokens",
    "normalise_pieces": "tokens",
    "normalise_surface": "tokens",
    "normalise_text": "tokens",
    "normalise_word": "tokens",
    "piece_words": "tokens",
    "tokenize": "tokens",
    "top_level_domains": "tokens",
    "verbatim_function_words": "tokens",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.text.tokens import (
        CLITIC_STEMS,
        CLITICS,
        KEPT_FUNCTION_WORDS,
        LAYOUT_PUNCTUATION,
        LAYOUT_WHITESPACE,
        LOWERCASE_ONLY,
        NUMBER_WORDS,
        OPAQUE_SCHEMES,
        STOPWORDS,
        Token,
        bag_of_words,
        is_layout,
        is_number_word,
        is_word,
        normalise_pieces,
        normalise_surface,
        normalise_text,
        normalise_word,
        piece_words,
        tokenize,
        top_level_domains,
        verbatim_function_words,
    )

__all__ = [
    "CLITICS",
    "CLITIC_STEMS",
    "KEPT_FUNCTION_WORDS",
    "LAYOUT_PUNCTUATION",
    "LAYOUT_WHITESPACE",
    "LOWERCASE_ONLY",
    "NUMBER_WORDS",
    "OPAQUE_SCHEMES",
    "STOPWORDS",
    "Token",
    "bag_of_words",
    "is_layout",
    "is_number_word",
    "is_word",
    "normalise_pieces",
    "normalise_surface",
    "normalise_text",
    "normalise_word",
    "piece_words",
    "tokenize",
    "top_level_domains",
    "verbatim_function_words",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
