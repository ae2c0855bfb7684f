"""Initials in a table's column of who did, checked or signed a row.

A register or a rota says in a column who entered or checked each row: ``| VOL | … | PHONE |
BY | NOTES |`` with ``DB``, ``GW``, ``RM`` below (issue 40, stage 33: the model took ``GW``
and ``MD`` for people and left ``DB``, ``DH`` and ``RM``, words or acronyms too, to the
general ε, where they came back as written).  Here a table is one of
:func:`~emprivacy.entities.table_names.tables` (three rows or more cut at one separator into
as many cells), its first row the header.  A column whose header names who did it
(:func:`~emprivacy.entities.who_headers.who_header`: ``BY``, ``CHECKED BY``, ``Initials``,
``Signed``, ``Witness``) makes each of its cells below that is initials (two or three letters that
:func:`~emprivacy.entities.table_names.initials_cell` reads as initials, not ``NONE``,
``TBC``, ``IT``; no function word, ``ME``, ``ALL``; no common word, ``BUS``: :func:`_initials`)
a ``PERSON`` span, where at least two
of its cells are initials and more than half of those that hold letters.  Not ``PAID BY``
(``BACS``, ``CHQ``), ``GOES BY``, ``SORT BY``.  Where the header says initials
(:data:`INITIALS_WORDS`: ``Init``, ``Dancers (init)``), a word's capitals are initials too
(``OK`` of ``KEENAN, Orla | OK``, ``AS``, ``AN``: no other reading), and so is each item of a
cell's list (``OK, MK, EMcM``; issue 40, the forty-ninth English set's tuning half: a feis's
results and a team sheet).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from emprivacy.entities.spans import EntitySpan, check_texts
from emprivacy.entities.table_names import initials_cell, tables
from emprivacy.entities.who_headers import who_header

__all__ = ["INITIALS_WORDS", "MOST_LETTERS", "WORD_ZIPF", "WhoColumnDetector",
           "initials_columns"]

#: A header's word that says its column holds initials, not only who did the row.
INITIALS_WORDS = frozenset("init inits initial initials intls initiales".split())
#: A cell's value that no one's initials are, under such a header too.
_NO_INITIALS = frozenset("na nil none tba tbc tbd yes no".split())
#: An item of a cell's list of initials, without the spaces around it.
_ITEM = re.compile(r"[^,;/\s](?:[^,;/]*[^,;/\s])?")

def initials_columns(text: str) -> list[EntitySpan]:
    """``PERSON`` spans for the initials in the columns of ``text``'s tables whose header
    names who did each row (see the module's description).

    >>> text = ("| VOL | NAME | BY |\\n|---|---|---|\\n| 1 | Grace Wells | DB |\\n"
    ...         "| 2 | Dawn Brook | GW |\\n| 3 | Mark Dresser | — |\\n")
    >>> [text[s.start:s.end] for s in initials_columns(text)]
    ['DB', 'GW']
    >>> initials_columns("| METHOD | PAID BY |\\n| card | BACS |\\n| cash | CHQ |\\n")
    []
    >>> text = "| Name | Init |\\n| KEENAN, Orla | OK |\\n| HALL, Grace | GH |\\n| Team | NG, AS |"
    >>> [text[s.start:s.end] for s in initials_columns(text)]
    ['OK', 'GH', 'NG', 'AS']
    """
    if "|" not in text and "\t" not in text and ";" not in text and "," not in text:
        return []
    out: list[EntitySpan] = []
    for rows in tables(text):
        (head_start, header), body = rows[0], rows[1:]
        for c, (a, b) in enumerate(header):
            head = text[head_start + a:head_start + b]
            if not who_header(head):
                continue
            said = bool(INITIALS_WORDS.intersection(re.findall(r"\w+", head.lower())))
            filled = [(start + x, start + y) for start, row in body for x, y in [row[c]]
                      if any(ch.isalpha() for ch in text[start + x:start + y])]
            initials = ([m.span() for x, y in filled for m in _ITEM.finditer(text, x, y)
                         if _initials(m.group(), said)] if said  # a list's items: "OK, MK"
                        else [(x, y) for x, y in filled if _initials(text[x:y].rstrip("\r"))])
            if len(initials) >= 2 and 2 * len(initials) > len(filled):
                out.extend(EntitySpan(x, x + len(text[x:y].rstrip("\r")), "PERSON")
                           for x, y in initials)
    return out


#: The most letters of a who column's initials (``DB``, ``RdS``; not ``HMRC``, ``DVLA``).
MOST_LETTERS = 3
#: An initials' cell this common as an English word (Zipf) is the word (``BUS``, ``ALL``).
WORD_ZIPF = 4.5


def _initials(cell: str, said: bool = False) -> bool:
    """Whether a who column's cell is initials: two or three letters that
    :func:`~emprivacy.entities.table_names.initials_cell` reads as initials, no kept function
    word (``ME``, ``YOU``, ``ALL``) and no common word (``BUS``); where the header ``said``
    initials, two to four capitals (a lower-case letter between two: ``EMcM``) but a
    placeholder (``TBC``, ``NO``)."""
    from emprivacy.entities.name_words import word_zipf
    from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

    form = cell.lower()
    if said:
        return (re.fullmatch(r"[A-Z](?:[a-z]?[A-Z]){1,3}", cell) is not None
                and form not in _NO_INITIALS)
    return (2 <= len(cell) <= MOST_LETTERS and initials_cell(cell)
            and form not in KEPT_FUNCTION_WORDS and word_zipf(form) < WORD_ZIPF)


class WhoColumnDetector:
    """The initials of tables' who columns (:func:`initials_columns`), a detector of the
    ``names`` group beside :class:`~emprivacy.entities.table_names.TableNameDetector`."""

    name = "who_columns"
    types = frozenset({"PERSON"})

    def __repr__(self) -> str:
        return "WhoColumnDetector()"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        return [initials_columns(text) for text in check_texts(texts)]
