"""Words whose vector reads as a person's name, though no list holds them as one.

The census lists (:mod:`emprivacy.entities.names`) are American: ``tomasz``, ``priya``,
``kwame``, ``sandeep`` are on none, and as ordinary words they are not rare enough
(Zipf 2.4-3.0) for a lower-case chat to call them names by their rarity alone.  In the
built-in embeddings (GloVe 6B) they sit beside the listed names: a logistic regression on
the unit vectors, listed names against common unlisted words, calls them names with a
probability of 0.9 or more.  ``data/name-like-words-en.txt`` holds the words it calls so,
of Zipf frequency between :data:`~emprivacy.entities.name_words.LOWER_RARE` and 3.5 and not
of class ``"name"`` already (652 are listed but mostly ordinary words: ``alder``), nor
greetings or chat words: 6,084 words (``benchmarks/name_like_words.py`` builds it, prints
the model's cross-validated accuracy, 0.92, and checks the packaged file).
The file is public data (the embeddings' words and the census lists), like the lists
themselves; it is a detector's input, outside the guarantee.

The names detector (:class:`~emprivacy.entities.names.NameListDetector`) uses it where
the rarity of a word would: a lower-case word of a lower-case text, and a capitalised word in
the middle of a sentence.  Some ordinary words read as names too (``twitched``,
``flatmate``): in the labelled texts of ``tests/entities/labelled`` (dev and held-out
sets 1-5) the file's words were person names at 234 tokens, other entities at 49, titles
and form keys (which the detector never names) at 39, and ordinary words at 10 (13 before
the chat words of the builder's `CHAT_WORDS` were left out).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

__all__ = ["name_like", "name_like_words"]


@cache
def name_like_words() -> frozenset[str]:
    """The words of ``data/name-like-words-en.txt`` (lower case).

    >>> {"tomasz", "priya"} <= name_like_words(), "table" in name_like_words()
    (True, False)
    """
    text = files("emprivacy.data").joinpath("name-like-words-en.txt").read_text(
        encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def name_like(form: str) -> bool:
    """Whether the normalised word ``form`` reads as a person's name by its vector
    (:func:`name_like_words`).

    >>> name_like("kwame"), name_like("boiler")
    (True, False)
    """
    return form in name_like_words()
