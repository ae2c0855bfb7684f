"""The values of a French form's name fields: ``Nom : D'ORNANO – Prénom : Thị Mai``.

A form names a person in the value of a field whose key says so (:data:`NAME_KEYS`:
``Nom``, ``Prénom(s)``, ``Nom de naissance``, ``Nom d'usage``, ``Nom et prénom`` …), at a
line's start or after the value before it.  The value runs to the end of the line, the
next key's colon, a gap of two spaces or a tab, or a dash between spaces (``– voisine``);
every word of a value of at most :data:`MOST_WORDS` words is a name's, its particles
included (``LE ROUX``, ``D'ORNANO``), and a month is no date there (``Thị Mai``).  A longer
value is no name (``Nom : à compléter par le secrétariat avant la séance``).  Issue 42, the
fifteenth French set: the English names detector reads such fields (``Surname:``) in
:func:`~emprivacy.entities.labels.in_name_field`; the French one
(:class:`~emprivacy.entities.french.FrenchNameDetector`) did not, and a month, a particle
or a name typed a place by the model (``ORNANO``, ``Gwenaëlle``) was released.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

from emprivacy.text.tokens import Token

__all__ = ["MOST_WORDS", "NAME_KEYS", "name_field_words"]

#: The keys of a French form's fields whose value is a person's name (lower case, one
#: space between words).
NAME_KEYS: frozenset[str] = frozenset((
    "nom", "noms", "prénom", "prénoms", "prénom(s)", "nom(s)", "nom de naissance",
    "nom d'usage", "nom d’usage", "nom de famille", "nom de jeune fille", "nom marital",
    "nom et prénom", "nom et prénoms", "nom et prénom(s)", "nom, prénom", "nom / prénom",
    "nom/prénom", "prénom et nom", "prénom usuel", "prénoms usuels", "autres prénoms"))

#: The most words a name field's value holds; a longer one is speech or an instruction.
MOST_WORDS = 5

#: A key and its colon, at a line's start (after a list's mark: ``- ``, ``1. ``) or after
#: the value of the field before it (two spaces, a tab, a dash between spaces, ``|``).
_KEY = re.compile(r"(?:^|  |\t| [–—-] |\|)[ \t]*(?:[-•*]|\d{1,2}[.)])?[ \t]*"
                  r"(?P<key>[^\W\d_][\w'’()/, ]{1,30}?)[ \t\u00a0\u202f]*:[ \t\u00a0\u202f]*",
                  re.MULTILINE)
#: What ends a value: a line break, the next key's colon, two spaces, a tab, a dash
#: between spaces, a bar.
_VALUE_END = re.compile(r"\n|:|  |\t| [–—-] |\|")


def name_field_words(text: str, words: Sequence[Token]) -> set[int]:
    """The indices of ``words`` (the word tokens of ``text``, in order) in the value of a
    name field (see the module's description).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "Nom : D'ORNANO – Prénom : Thị Mai – voisine\\nAdresse : 3 rue Haute"
    >>> words = [t for t in tokenize(text, lang="fr") if t.kind == "word"]
    >>> [words[i].text for i in sorted(name_field_words(text, words))]
    ["D'", 'ORNANO', 'Thị', 'Mai']
    """
    out: set[int] = set()
    starts = [w.start for w in words]
    for m in _KEY.finditer(text):
        if " ".join(m.group("key").lower().split()) not in NAME_KEYS:
            continue
        end = _VALUE_END.search(text, m.end())
        stop = len(text) if end is None else end.start()
        first, last = bisect_left(starts, m.end()), bisect_left(starts, stop)
        if 0 < last - first <= MOST_WORDS:
            out.update(range(first, last))
    return out
