"""Initials in a table's column of who did, checked or signed a row.

A register or a rota says in a column who entered or checked each row: ``| VOL | … | PHONE |
BY | NOTES |`` with ``DB``, ``GW``, ``RM`` below (issue 40, stage 33: the model took ``GW``
and ``MD`` for people and left ``DB``, ``DH`` and ``RM``, words or acronyms too, to the
general ε, where they came back as written).  Here a table is one of
:func:`~emprivacy.entities.table_names.tables` (three rows or more cut at one separator into
as many cells), its first row the header.  A column whose header names who did it
(:func:`who_header`: ``BY``, ``CHECKED BY``, ``Initials``, ``Signed``, ``Witness``) makes
each of its cells below that is initials (two or three letters that
:func:`~emprivacy.entities.table_names.initials_cell` reads as initials, not ``NONE``,
``TBC``, ``IT``; no function word, ``ME``, ``ALL``; no common word, ``BUS``: :func:`_initials`)
a ``PERSON`` span, where at least two
of its cells are initials and more than half of those that hold letters.  Not ``PAID BY``
(``BACS``, ``CHQ``), ``GOES BY``, ``SORT BY``: only the words of :data:`WHO_WORDS`, and ``by``
(French ``par``) after one of :data:`DONE_BY` or alone.
"""

from __future__ import annotations

import re

from emprivacy.entities.spans import EntitySpan
from emprivacy.entities.table_names import initials_cell, tables

__all__ = ["DONE_BY", "MOST_LETTERS", "WHO_WORDS", "WORD_ZIPF", "initials_columns",
           "who_header"]

#: A header word that says the column holds who did the row.
WHO_WORDS = frozenset(
    "initials initial inits init intls signed sig sign signature countersigned witness "
    "witnessed who staff checker "
    # French: "Initiales", "Visa", "Paraphe", "Signé"
    "initiales visa paraphe paraphes signé signée".split())
#: Verbs before ``by`` in a header whose column holds who did the row (``CHECKED BY``).
DONE_BY = frozenset(
    "checked signed entered taken recorded logged issued received approved verified "
    "witnessed countersigned done completed cleaned served seen reviewed authorised "
    "authorized added booked collected returned counted inspected tested marked "
    "updated edited "
    # French, before "par": "Vérifié par", "Saisi par"
    "vérifié vérifiée contrôlé contrôlée saisi saisie reçu reçue signé signée validé "
    "validée".split())

_SPLIT = re.compile(r"[\s_.\-/()°:#]+")


def who_header(cell: str) -> bool:
    """Whether a header cell names who did a row (see the module's description).

    >>> [who_header(c) for c in ("BY", "Checked by", "INITIALS", "Vérifié par", "paid by",
    ...                          "Sort By", "Goes by", "Phone")]
    [True, True, True, True, False, False, False, False]
    """
    words = [w for w in _SPLIT.split(cell.lower()) if w]
    if not words or len(words) > 3:
        return False
    if any(w in WHO_WORDS for w in words):
        return True
    return any(w in ("by", "par") for w in words) and all(
        w in ("by", "par") or w in DONE_BY for w in words)


def initials_columns(text: str) -> list[EntitySpan]:
    """``PERSON`` spans for the initials in the columns of ``text``'s tables whose header
    names who did each row (see the module's description).

    >>> text = ("| VOL | NAME | BY |\\n|---|---|---|\\n| 1 | Grace Wells | DB |\\n"
    ...         "| 2 | Dawn Brook | GW |\\n| 3 | Mark Dresser | — |\\n")
    >>> [text[s.start:s.end] for s in initials_columns(text)]
    ['DB', 'GW']
    >>> initials_columns("| METHOD | PAID BY |\\n| card | BACS |\\n| cash | CHQ |\\n")
    []
    """
    if "|" not in text and "\t" not in text and ";" not in text and "," not in text:
        return []
    out: list[EntitySpan] = []
    for rows in tables(text):
        (head_start, header), body = rows[0], rows[1:]
        for c, (a, b) in enumerate(header):
            if not who_header(text[head_start + a:head_start + b]):
                continue
            filled = [(start + x, start + y) for start, row in body for x, y in [row[c]]
                      if any(ch.isalpha() for ch in text[start + x:start + y])]
            initials = [(x, y) for x, y in filled if _initials(text[x:y].rstrip("\r"))]
            if len(initials) >= 2 and 2 * len(initials) > len(filled):
                out.extend(EntitySpan(x, x + len(text[x:y].rstrip("\r")), "PERSON")
                           for x, y in initials)
    return out


#: The most letters of a who column's initials (``DB``, ``RdS``; not ``HMRC``, ``DVLA``).
MOST_LETTERS = 3
#: An initials' cell this common as an English word (Zipf) is the word (``BUS``, ``ALL``).
WORD_ZIPF = 4.5


def _initials(cell: str) -> bool:
    """Whether a who column's cell is initials: two or three letters that
    :func:`~emprivacy.entities.table_names.initials_cell` reads as initials, no kept function
    word (``ME``, ``YOU``, ``ALL``) and no common word (``BUS``)."""
    from emprivacy.entities.name_words import word_zipf
    from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

    form = cell.lower()
    return (2 <= len(cell) <= MOST_LETTERS and initials_cell(cell)
            and form not in KEPT_FUNCTION_WORDS and word_zipf(form) < WORD_ZIPF)
