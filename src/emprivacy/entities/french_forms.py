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

#: A key's words (at most five, one space apart) and its colon; where the key stands is
#: checked apart (:func:`_after_a_field`), so that no pattern runs over a long gap.
_KEY = re.compile(r"(?<![\w'’])(?P<key>[^\W\d_][\w'’()/,]*(?: [\w'’()/,]+){0,4}?)"
                  r"[ \t\u00a0\u202f]{0,3}:[ \t\u00a0\u202f]{0,3}")
#: What ends a value: a line break, the next key's colon, two spaces, a tab, a dash
#: between spaces, a bar, a full stop, a comma before a number or a lower-case word
#: (``Nom : Dupont, 12 rue de la Paix``, ``Nom : Martin, il est gentil``; not ``Dupont,
#: Marie``).
_VALUE_END = re.compile(r"\n|:|  |\t| [–—-] |\||\.(?:\s|$)|,(?=[ \t]*[\da-zà-ÿ])")
#: A list's mark before a key at a line's start (``- Nom :``, ``1. Nom :``).
_LIST_MARK = re.compile(r"[-•*]|\d{1,2}[.)]")
#: Particles that may start a family name's value; any other stopword starts none
#: (``Nom : à compléter``).
_PARTICLES = frozenset("de du des le la les d' d’ n' n’ van von da dos di el al ben ould".split())


def name_field_words(text: str, words: Sequence[Token]) -> set[int]:
    """The indices of ``words`` (the word tokens of ``text``, in order) in the value of a
    name field (see the module's description).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "Nom : D'ORNANO – Prénom : Thị Mai – voisine\\nAdresse : 3 rue Haute"
    >>> words = [t for t in tokenize(text, lang="fr") if t.kind == "word"]
    >>> [words[i].text for i in sorted(name_field_words(text, words))]
    ["D'", 'ORNANO', 'Thị', 'Mai']
    """
    from emprivacy.text.language import FRENCH

    out: set[int] = set()
    starts = [w.start for w in words]
    for m in _KEY.finditer(text):
        if (" ".join(m.group("key").lower().split()) not in NAME_KEYS
                or not _after_a_field(text, m.start())):
            continue
        end = _VALUE_END.search(text, m.end())
        stop = len(text) if end is None else end.start()
        first, last = bisect_left(starts, m.end()), bisect_left(starts, stop)
        if not 0 < last - first <= MOST_WORDS:
            continue
        lead = words[first].text.lower()
        if lead in FRENCH.stopwords and lead not in _PARTICLES:
            continue  # "Nom : à compléter": an instruction, no name
        out.update(range(first, last))
    return out


def _after_a_field(text: str, start: int) -> bool:
    """Whether a key starting at ``start`` starts its line (after a list's mark) or follows
    the value of the field before it (two spaces, a tab, a dash between spaces, a bar)."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[max(line_start, start - 8):start]
    stripped = before.rstrip(" \t")
    if start - line_start <= 8 and (
            not text[line_start:start].strip(" \t")
            or _LIST_MARK.fullmatch(text[line_start:start].strip(" \t")) is not None):
        return True
    return (before.endswith(("  ", "\t")) or stripped.endswith("|")
            or (stripped[-1:] in ("–", "—", "-") and stripped[-2:-1] == " "))
