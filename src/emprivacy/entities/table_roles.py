"""The cells of a table's column of roles: what people do, no one's name.

An export of a crew, a staff or a club (``| Name | Init. | Role |``) says in its header
which column holds each person's role: ``Coxswain``, ``ALB Crew``, ``ILB Helm``, ``Shore
Crew / Tractor``, ``Station Mechanic``.  A model reads its rows as broken sentences and
types such cells people or places at random; the name list takes a rare word for a name
(``Coxswain``); a column the detectors found people in was people's
(:func:`~emprivacy.entities.table_names.people_columns`), and one decision per word form then
protected ``Crew`` at every mention (issue 40, the forty-first English set's lifeboat crew
rota: 32 mentions of ``crew`` made person slots in its tuning half).

Here a table (:func:`~emprivacy.entities.table_names.tables`) whose first row is a header
with a role's column (a cell of words of :data:`ROLE_HEADER_WORDS` alone) has, in every
later row whose cell there is a label (at most :data:`MOST_WORDS` words, no comma,
semicolon or bracket, no word that may lead to a name: ``to``, ``for``, ``de``, ``veuve``,
a title, a possessive), the person and capitalised-word spans inside that cell dropped;
places and organisations stay.  Not ``Post``, ``Position``, ``Job``, ``Duty`` nor
``Qualité``: a marshal's post or position is a place (``Chapel Street``), a job a task
(``Mow Glebe Field``), a duty officer a person, a French register's qualité a kinship
(``Veuve Berger``); not ``Role holder``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from emprivacy.entities.ordinary_capitals import FRENCH_PLACES
from emprivacy.entities.spans import PROPER_NOUN, EntitySpan
from emprivacy.entities.table_names import tables
from emprivacy.entities.vocabulary import place_names

__all__ = ["MOST_WORDS", "ROLE_HEADER_WORDS", "drop_role_cells", "role_cells"]

#: A header cell with one of these words (lower case, cut at spaces, ``_``, ``-``, ``.``,
#: ``/`` and brackets) is a column of roles.
ROLE_HEADER_WORDS = frozenset(
    "role roles occupation profession function rank rôle rôles fonction fonctions "
    "métier".split())
#: A label cell with one of these (lower case) may name someone (``PA to Mark Ellis``,
#: ``Cover for Jago``, ``Paint Mrs Kemp's fence``, ``ami de Paul Berger``): left alone.
_NAMING = frozenset(
    "to for with by 's de du des d' pour par chez avec ami amie fils fille veuve épouse "
    "époux mr mrs ms miss dr mme mlle m".split())

#: A role's cell of more words than this, or with a comma, a semicolon or a bracket, is a
#: description, left to the detectors.
MOST_WORDS = 5

_SPLIT = re.compile(r"[\s_.\-/()]+")
_DROPPED = frozenset({"PERSON", PROPER_NOUN})


@lru_cache(maxsize=8)  # asked twice per piece: the detectors' spans, the learned gaps
def role_cells(text: str) -> tuple[tuple[int, int], ...]:
    """The ``(start, end)`` of each cell of ``text``'s tables under a role's header.

    >>> text = "Name,Role,Phone\\nAnn Lee,Coxswain,1\\nBo Hart,Shore Crew,2\\nCy Moss,Helm,3"
    >>> [text[a:b] for a, b in role_cells(text)]
    ['Coxswain', 'Shore Crew', 'Helm']
    """
    found: list[tuple[int, int]] = []
    for table in tables(text):
        start, header = table[0]
        columns = [k for k, (a, b) in enumerate(header)
                   if _role_header(text[start + a:start + b])]
        if not columns:
            continue
        for row_start, row in table[1:]:
            found.extend((row_start + row[k][0], row_start + row[k][1])
                         for k in columns if k < len(row)
                         and _label(text[row_start + row[k][0]:row_start + row[k][1]]))
    return tuple(found)


def _label(cell: str) -> bool:
    """Whether a role's cell is a label (``ALB Crew / Casualty Care``), not a description
    that may name a place or a firm (``boulanger, Fournil du Lot, Mende``)."""
    words = cell.replace("’", "'").lower().replace("'s", " 's").split()
    return (len(words) <= MOST_WORDS and not any(c in cell for c in ",;()")
            and not any(w.strip(".") in _NAMING or w.startswith("d'") for w in words))


def _role_header(cell: str) -> bool:
    """A header cell of role words alone (``Role``, ``Fonction``; not ``Role holder``,
    ``Duty Officer``, ``Rôle au conseil``)."""
    words = {w for w in _SPLIT.split(cell.lower()) if w}
    return bool(words) and words <= ROLE_HEADER_WORDS


@cache
def _places() -> frozenset[str]:
    """The places' one-word names and the French ones, joined once per process."""
    return place_names() | FRENCH_PLACES


def drop_role_cells(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """``spans`` less the person and capitalised-word spans inside a role's cell
    (:func:`role_cells`); places stay, and spans with a listed place's word (``Directrice
    Normandie``).

    >>> text = ("Name|Role|Home\\nAnn Lee|Coxswain|Truro\\nBo Hart|ILB Helm|Looe\\n"
    ...         "Cy Moss|Crew|Fowey")
    >>> spans = [EntitySpan(23, 31, "PERSON"), EntitySpan(50, 54, "PERSON"),
    ...          EntitySpan(15, 18, "PERSON"), EntitySpan(32, 37, "LOCATION")]
    >>> [text[s.start:s.end] for s in drop_role_cells(text, spans)]
    ['Ann', 'Truro']
    """
    if not spans or "\n" not in text:
        return list(spans)
    cells = role_cells(text)
    if not cells:
        return list(spans)
    places = _places()
    return [s for s in spans
            if s.type not in _DROPPED or not any(a <= s.start and s.end <= b for a, b in cells)
            or any(w.strip(".,:;'’").lower() in places  # "Directrice Normandie"
                   for w in text[s.start:s.end].split())]
