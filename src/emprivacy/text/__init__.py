"""Text in (Def. 1 and §2 of the paper): normalising and the layout characters
(:mod:`.normalise`), the word lists of the package data (:mod:`.word_lists`), a language as
one object (:mod:`.language`), tokenising by allow-list and bags of words (:mod:`.tokens`).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "CLITICS": "word_lists",
    "CLITIC_STEMS": "word_lists",
    "ENGLISH": "language",
    "FRENCH": "language",
    "KEPT_FUNCTION_WORDS": "word_lists",
    "LANGUAGES": "language",
    "Language": "language",
    "LAYOUT_PUNCTUATION": "normalise",
    "LAYOUT_WHITESPACE": "normalise",
    "LOWERCASE_ONLY": "word_lists",
    "NUMBER_WORDS": "word_lists",
    "OPAQUE_SCHEMES": "tokens",
    "STOPWORDS": "word_lists",
    "Token": "tokens",
    "bag_of_words": "tokens",
    "get_language": "language",
    "is_layout": "normalise",
    "is_number_word": "word_lists",
    "is_word": "tokens",
    "normalise_pieces": "normalise",
    "normalise_surface": "normalise",
    "normalise_text": "normalise",
    "normalise_word": "normalise",
    "piece_words": "tokens",
    "tokenize": "tokens",
    "top_level_domains": "word_lists",
    "verbatim_function_words": "tokens",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.text.language import ENGLISH, FRENCH, LANGUAGES, Language, get_language
    from emprivacy.text.normalise import (
        LAYOUT_PUNCTUATION,
        LAYOUT_WHITESPACE,
        is_layout,
        normalise_pieces,
        normalise_surface,
        normalise_text,
        normalise_word,
    )
    from emprivacy.text.tokens import (
        OPAQUE_SCHEMES,
        Token,
        bag_of_words,
        is_word,
        piece_words,
        tokenize,
        verbatim_function_words,
    )
    from emprivacy.text.word_lists import (
        CLITIC_STEMS,
        CLITICS,
        KEPT_FUNCTION_WORDS,
        LOWERCASE_ONLY,
        NUMBER_WORDS,
        STOPWORDS,
        is_number_word,
        top_level_domains,
    )

__all__ = [
    "CLITICS",
    "CLITIC_STEMS",
    "ENGLISH",
    "FRENCH",
    "KEPT_FUNCTION_WORDS",
    "LANGUAGES",
    "LAYOUT_PUNCTUATION",
    "LAYOUT_WHITESPACE",
    "LOWERCASE_ONLY",
    "NUMBER_WORDS",
    "OPAQUE_SCHEMES",
    "STOPWORDS",
    "Language",
    "Token",
    "bag_of_words",
    "get_language",
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
