"""A given name and a family name side by side (``bill okoye``, ``OSKAR BRENNAN``, ``dev
malhotra``, ``faith mbeki``): each vouches for the other, for
:class:`~emprivacy.entities.names.NameListDetector` (issue 40).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from emprivacy.entities.labels import NAME_TITLES, SPEAKER_ROLES
from emprivacy.entities.name_vectors import name_like
from emprivacy.entities.name_words import (
    RARE_ZIPF,
    UNCOMMON_ZIPF,
    NameClass,
    given_names,
    name_key,
    word_zipf,
)
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["name_pair"]

#: The commonest a word may be (Zipf) and be read as the given name before a rare family
#: name in lower case (``keen`` 4.1 of ``joe a keen ferreira`` is; ``book`` 5.4, ``ask``,
#: ``call``, ``tell`` are verbs).
_GIVEN_BEFORE_ZIPF = 5.0


def name_pair(i: int, words: list[Token], forms: list[str], classes: list[NameClass],
          text: str, lowers: Sequence[bool]) -> bool:
    """Whether word ``i`` is the given name before a listed or rare family name
    (``bill okoye``), a rare word capitalised as the listed family name after it (``OSKAR
    BRENNAN``), a word that may be a given name (``"common"``, ``"uncommon"`` or ``"rare"``, no
    function word, no title or role) in a paragraph in lower case before a listed family name
    rarer than :data:`RARE_ZIPF` (``dev malhotra``, ``kofi mensah``; not ``dev brown``, ``Trustee
    Wojcik``, nor ``informal carer``, an unlisted rare word after it), or a rare family name
    (``dana adeyemi``; in lower case any word rarer than :data:`UNCOMMON_ZIPF` that is listed or
    reads as a name by its vector, ``zane iqbal``, not an unlisted verb: ``jack borrowed it``,
    ``ray owes me``) after a listed given name, with only spaces between them."""
    given = given_names()

    def spaced(a: int, b: int) -> bool:
        return re.fullmatch(r"[ \t]+", text[words[a].end:words[b].start]) is not None

    if (i + 1 < len(words) and name_key(forms[i]) in given and classes[i + 1] in ("name", "rare")
            and forms[i + 1] not in given and spaced(i, i + 1)
            and words[i].text.islower() == words[i + 1].text.islower()):
        return True  # not "our son Kayode": a name's two words share their case
    if (i + 1 < len(words) and classes[i] == "rare" and classes[i + 1] == "name"
            and name_key(forms[i + 1]) not in given and spaced(i, i + 1)
            and not words[i].text.islower()
            and words[i].text.isupper() == words[i + 1].text.isupper()):
        return True  # an unlisted given name before a family name: "OSKAR BRENNAN"
    if (i + 1 < len(words) and classes[i] in ("common", "uncommon", "rare") and lowers[i]
            and forms[i] not in KEPT_FUNCTION_WORDS and forms[i] not in NAME_TITLES
            and forms[i] not in SPEAKER_ROLES and spaced(i, i + 1)
            and words[i].text.islower() and words[i + 1].text.islower()
            and classes[i + 1] == "name" and name_key(forms[i + 1]) not in given
            and word_zipf(forms[i + 1]) < RARE_ZIPF and word_zipf(forms[i]) < _GIVEN_BEFORE_ZIPF):
        return True  # a word before a rare family name is the given name: "dev malhotra",
        # a misheard one ("joe a keen ferreira"); not a verb as common as "book", "ask",
        # "call" ("we book saxby wyke village hall")
    return (i > 0 and classes[i - 1] == "name" and name_key(forms[i - 1]) in given
            and spaced(i - 1, i) and (classes[i] == "rare" or (word_zipf(forms[i]) < UNCOMMON_ZIPF
            and (classes[i] != "uncommon" or name_like(forms[i]))  # not "jack borrowed it"
            and words[i - 1].text.islower() and words[i].text.islower())))  # "zane iqbal"
