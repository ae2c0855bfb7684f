"""Vietnamese names, family name first, in a text of any language.

A Vietnamese name is written family name, middle name, given name (``nguyễn thị mai``,
``pham van long``, ``TRẦN VĂN ĐỨC``): after one of the commonest family names
(:data:`~emprivacy.entities.name_words.VIETNAMESE_FAMILY_NAMES`) and a middle name that
marks the given name after it (``văn``, ``thị``:
:data:`~emprivacy.entities.name_words.VIETNAMESE_MIDDLE_NAMES`), one space apart, the next
word is the given name whatever it is as a word (``long`` in English, ``mai`` — May — in
French), and so is a second syllable after it that is a common given name's
(:data:`~emprivacy.entities.name_words.VIETNAMESE_GIVEN_SYLLABLES`) and no common word of
the text's language (``pham thi thu huong``).  The words are found by position, not by form:
the month ``mai`` elsewhere in a French text stays a word (issue 40, the nineteenth English
set; issue 42, the twenty-third French set: ``ma mère nguyễn thị mai``).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from itertools import pairwise

from emprivacy.entities.name_words import (
    UNCOMMON_ZIPF,
    VIETNAMESE_FAMILY_NAMES,
    VIETNAMESE_GIVEN_SYLLABLES,
    VIETNAMESE_MIDDLE_NAMES,
)
from emprivacy.text.tokens import Token

__all__ = ["vietnamese_names"]


def vietnamese_names(words: Sequence[Token], forms: Sequence[str], text: str, *,
                     function_words: Container[str], zipf: Callable[[str], float]
                     ) -> set[int]:
    """The positions in ``words`` (their lower-case ``forms``) of the Vietnamese names of
    ``text`` (see the module): family, middle and given name, and a second given syllable
    rarer than :data:`~emprivacy.entities.name_words.UNCOMMON_ZIPF` by ``zipf``; a given
    name is none of the language's ``function_words``.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "et ma mère nguyễn thị mai veut venir en mai"
    >>> words = [t for t in tokenize(text) if t.kind == "word"]
    >>> sorted(words[i].text for i in vietnamese_names(
    ...     words, [w.text.lower() for w in words], text, function_words={"et", "en"},
    ...     zipf=lambda w: 5.0))
    ['mai', 'nguyễn', 'thị']
    """
    gaps = [""] + [text[a.end:b.start] for a, b in pairwise(words)]
    out: set[int] = set()
    for i in range(2, len(words)):
        if (forms[i - 1] in VIETNAMESE_MIDDLE_NAMES and forms[i - 2] in VIETNAMESE_FAMILY_NAMES
                and forms[i] not in function_words and gaps[i] == gaps[i - 1] == " "):
            out |= {i - 2, i - 1, i}
            if (i + 1 < len(words) and forms[i + 1] in VIETNAMESE_GIVEN_SYLLABLES
                    and gaps[i + 1] == " " and zipf(forms[i + 1]) < UNCOMMON_ZIPF):
                out.add(i + 1)  # "pham thi thu huong"; not "ha" (one decision per form
                # would take "ha ha" too)
    return out
