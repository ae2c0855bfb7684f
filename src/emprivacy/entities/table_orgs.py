"""Organisations in the columns of a delimited table (issue 40, the twenty-fifth English set):
a register's ``business_name`` column, where the recogniser's spans crossed cells or missed a
firm's last word (``March Hare Gin``, ``Settle Down Candles``: ``Gin``, ``Candles`` released).
The tables are :func:`~emprivacy.entities.table_names.tables`' (with a CSV's rows of prose
notes); a column is organisations' by its header or by the organisations the detectors found
in most of its cells (:func:`organisation_columns`).  Detection is pre-processing, outside the
guarantee.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from emprivacy.entities.spans import EntitySpan, SpanIndex
from emprivacy.entities.table_names import ROW_SEPARATORS, tables

__all__ = ["MOST_ORG_WORDS", "ORG_HEADER_WORDS", "ORG_NAME_WORDS", "organisation_columns"]


def organisation_columns(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """``ORG`` spans for the cells of a table's column of organisations: its header names
    one (:func:`_org_header`: ``business_name``, ``Employer``), or the
    detectors' organisations cover half the words of three of its cells or more, over two
    thirds of its cells of letters (at most :data:`MOST_ORG_WORDS` words, no digit, no ``@``).  A
    register's business column, where the model's spans missed a firm's last word or all of
    it (``March Hare Gin``, ``Settle Down Candles``, ``Best of Bread``: ``Gin``, ``Candles``,
    ``Bread`` released; issue 40, the twenty-fifth English set).  Each such cell becomes an
    organisation whole, but a cell in lower case beside capitalised ones (``unattached``,
    ``self-employed``).

    >>> text = "id,business,goods\\n1,Hare Gin,gin\\n2,Best of Bread,bread\\n3,Joy Cakes,cakes"
    >>> [text[s.start:s.end] for s in organisation_columns(text, [])]
    ['Hare Gin', 'Best of Bread', 'Joy Cakes']
    >>> text = "1,Hare Gin,gin\\n2,Best of Bread,bread\\n3,Joy Cakes,cakes\\n4,Cob Bakes,cobs"
    >>> found = [EntitySpan(text.index(n), text.index(n) + len(n), "ORG")
    ...          for n in ("Hare", "Best of", "Joy Cakes")]
    >>> [text[s.start:s.end] for s in organisation_columns(text, found)]
    ['Hare Gin', 'Best of Bread', 'Joy Cakes', 'Cob Bakes']
    """
    if not any(sep in text for sep in (*ROW_SEPARATORS, ",")):
        return []
    orgs = SpanIndex(s for s in spans if s.type == "ORG")
    out: list[EntitySpan] = []
    for rows in tables(text, notes=True):
        header = [text[rows[0][0] + a:rows[0][0] + b] for a, b in rows[0][1]]
        for c in range(len(rows[0][1])):
            shaped = [(start + a, start + b) for start, row_cells in rows
                      for a, b in [row_cells[c]]
                      if 0 < len(value := text[start + a:start + b].split()) <= MOST_ORG_WORDS
                      and not any(ch.isdigit() or ch == "@" for ch in text[start + a:start + b])
                      and any(w[:1].isalpha() for w in value)]
            hit = [(a, b) for a, b in shaped if _mostly_org(text, a, b, orgs)]
            capitals = [(a, b) for a, b in shaped if text[a:b] != text[a:b].lower()]
            if capitals:  # a cell in lower case is none: "unattached", "self-employed"
                shaped = capitals
            if _org_header(header[c]):
                shaped = [(a, b) for a, b in shaped if a >= rows[1][0]]
            elif not (len(hit) >= 3 and 3 * len(hit) > 2 * len(shaped)):
                continue
            out.extend(EntitySpan(a, _name_end(text, a, b), "ORG") for a, b in shaped)
    return out


def _name_end(text: str, a: int, b: int) -> int:
    """Where a firm's name ends in its cell ``text[a:b]``: after its last capitalised word,
    so that a description in lower case after it stays words (``Haddon Cricket Club`` of
    ``Haddon Cricket Club end-of-season quiz``); the cell's end where no word of it is
    capitalised or all are."""
    words = list(re.finditer(r"\S+", text[a:b]))
    last = next((m for m in reversed(words) if m.group()[:1].isupper()), None)
    return b if last is None else a + last.end()


#: The most words of an organisation's cell (``Cheddar Gorge Cheese Co``).
MOST_ORG_WORDS = 6
#: A header cell whose last word (cut at ``_``, ``-``, ``.`` and spaces; lower case; before
#: ``name``) is one of these is a column of organisations (:func:`organisation_columns`);
#: ``company_size`` and ``club_role`` are none.
ORG_HEADER_WORDS = frozenset(
    "organisation organization company business firm employer trader supplier charity "
    "brand".split())
#: ... and these only before ``name`` (``club_name``, ``school name``): a golf bag's
#: ``club``, a music pupil's ``practice`` are other things.
ORG_NAME_WORDS = frozenset("org club school shop store stall pharmacy practice team".split())


def _mostly_org(text: str, a: int, b: int, orgs: SpanIndex) -> bool:
    """Whether organisations' spans cover half the words of the cell ``text[a:b]`` at least
    (``March Hare`` of ``March Hare Gin``; not ``Cliff's Barbers`` of a note ``also owns
    Cliff's Barbers``)."""
    words = [(a + m.start(), a + m.end()) for m in re.finditer(r"\S+", text[a:b])]
    return 2 * sum(not orgs.free(x, y) for x, y in words) >= len(words)


def _org_header(cell: str) -> bool:
    """Whether a header's cell names a column of organisations: letters only, its last word
    one of :data:`ORG_HEADER_WORDS`, or before ``name`` one of those or of
    :data:`ORG_NAME_WORDS`."""
    words = [w for w in re.split(r"[_\-. ]+", cell.lower()) if w]
    if not words or any(ch.isdigit() for ch in cell):
        return False
    if words[-1] in ("name", "names") and len(words) > 1:
        return words[-2] in ORG_HEADER_WORDS or words[-2] in ORG_NAME_WORDS
    return words[-1] in ORG_HEADER_WORDS
