"""Parquet output in bounded memory: a long record's text or bag over several rows.

A Parquet cell is written whole, so a record whose released text (or bag) were one
cell would be held in memory whole — about the size of the document.  Here a record
becomes one row when its body is short, and several consecutive rows when it is long:

* every row has a ``part`` column: ``0`` for a record's first row, ``1, 2, …`` for the
  rows that continue it;
* the first row holds every field of the record (``id``, ``epsilon``, ``n_words``, …)
  and the first piece of its body (``text``: at most :data:`TEXT_PIECE_CHARS`
  characters; ``bag``: at most :data:`BAG_PIECE_WORDS` words);
* a continuation row holds only ``id``, ``part`` and the next piece of the body (every
  other column is null), so counting rows with ``part == 0`` counts documents and
  summing ``n_words`` over the rows counts words once.

Reading a record back: the body is the concatenation, in ``part`` order, of the
pieces of the rows with its ``id`` (``"".join`` for ``text``, list concatenation for
``bag``); :func:`read_parquet_records` does it.  Records shorter than one piece are
one row each, exactly as a cell-per-record table (plus ``part = 0``).

The rows are written through one :class:`pyarrow.parquet.ParquetWriter`, a row group
at a time (a row group closes when its rows hold about :data:`ROW_GROUP_CHARS`
characters of body or :data:`ROW_GROUP_ROWS` rows), so memory is bounded by a row
group whatever the length of a document or the number of records.

pyarrow is imported when a file is written or read, not with this module.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from emprivacy.io.streaming import BODY_FIELDS, BagBody, TextBody

__all__ = ["BAG_PIECE_WORDS", "TEXT_PIECE_CHARS", "read_parquet_records", "record_rows",
           "write_parquet_records"]

#: Characters of released text per row of a long text-mode record.
TEXT_PIECE_CHARS = 1 << 22
#: Words of a released bag per row of a long bag-mode record.
BAG_PIECE_WORDS = 1 << 16
#: A row group closes once its rows' bodies hold about this many characters (a bag's word
#: counting :data:`_WORD_COST`)…
ROW_GROUP_CHARS = 1 << 23
#: What one word of a bag costs against :data:`ROW_GROUP_CHARS`: its list slot, its Arrow
#: offset and its characters (a bag row of 65,536 words holds about 1 MiB).
_WORD_COST = 16
#: …or once it holds this many rows.
ROW_GROUP_ROWS = 1 << 16
#: The column that orders a record's rows.
PART = "part"


def _pieces(body: TextBody | BagBody) -> Iterator[str | list[str]]:
    """The body in pieces of :data:`TEXT_PIECE_CHARS` characters or
    :data:`BAG_PIECE_WORDS` words: one piece (maybe empty) when it is short."""
    if isinstance(body, TextBody):
        yield from body.chunks(TEXT_PIECE_CHARS) if body.chars else iter([""])
        return
    words = body.words()
    piece = list(itertools.islice(words, BAG_PIECE_WORDS))
    yield piece
    while piece := list(itertools.islice(words, BAG_PIECE_WORDS)):
        yield piece


def record_rows(record: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The Parquet rows of one record (see the module's notes).

    >>> list(record_rows({"id": "a", "n_words": 2, "bag": ["cat", "dog"]}))
    [{'id': 'a', 'n_words': 2, 'part': 0, 'bag': ['cat', 'dog']}]
    """
    key = next((k for k in BODY_FIELDS if k in record), None)
    if key is None:
        yield {**record, PART: 0}
        return
    head = {k: v for k, v in record.items() if k != key}
    body = record[key]
    pieces = _pieces(body) if isinstance(body, TextBody | BagBody) else iter([body])
    for part, piece in enumerate(pieces):
        yield ({**head, PART: 0, key: piece} if part == 0
               else {"id": record["id"], PART: part, key: piece})


def _size(row: dict[str, Any]) -> int:
    if row.get("text") is not None:
        return len(row["text"])
    return _WORD_COST * len(row["bag"]) if row.get("bag") is not None else 0


def write_parquet_records(records: Iterable[dict[str, Any]], sink: IO[bytes] | Any, *,
                          on_record: Callable[[dict[str, Any]], None] | None = None) -> int:
    """Write ``records`` to the binary file ``sink`` as one Parquet file; returns the rows.

    ``on_record`` is called with each record once its rows are queued (before its
    body is closed), e.g. to count it.  The schema is that of the first row group
    (its rows' fields and types); later row groups are cast to it.  Nothing is written
    (not even a schema) when ``records`` is empty.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    writer: Any = None
    schema: Any = None
    rows: list[dict[str, Any]] = []
    size = n_rows = 0

    def flush() -> None:
        nonlocal writer, schema, rows, size
        if not rows:
            return
        if schema is None:
            table = pa.Table.from_pylist(rows)
            schema = table.schema
            writer = pq.ParquetWriter(sink, schema)
        else:
            table = pa.Table.from_pylist(rows, schema=schema)
        writer.write_table(table)
        rows, size = [], 0

    try:
        for record in records:
            for row in record_rows(record):
                rows.append(row)
                size += _size(row)
                n_rows += 1
                if size >= ROW_GROUP_CHARS or len(rows) >= ROW_GROUP_ROWS:
                    flush()
            if on_record is not None:
                on_record(record)
        flush()
    finally:
        if writer is not None:
            writer.close()
    return n_rows


def read_parquet_records(path: str | Path, *, columns: list[str] | None = None
                         ) -> Iterator[dict[str, Any]]:
    """The records of an emprivacy Parquet output file or directory, bodies rejoined.

    Reads one row group at a time, so a record is held whole (its body in memory)
    but the file is not.  ``columns``: the fields to read (``id`` and ``part`` are
    always read).

    Raises
    ------
    ValueError
        When a continuation row does not follow its record (not an emprivacy output).
    """
    import pyarrow.parquet as pq

    path = Path(path)
    files = sorted(path.glob("*.parquet")) if path.is_dir() else [path]
    current: dict[str, Any] | None = None
    pieces: dict[str, list[Any]] = {}

    def whole(record: dict[str, Any]) -> dict[str, Any]:
        for key, parts in pieces.items():
            record[key] = "".join(parts) if key == "text" else [w for p in parts for w in p]
        return record

    for file in files:
        pf = pq.ParquetFile(file)
        cols = None if columns is None else sorted({*columns, "id", PART} & set(
            pf.schema_arrow.names))
        for group in range(pf.num_row_groups):
            for row in pf.read_row_group(group, columns=cols).to_pylist():
                part = row.pop(PART, 0) or 0
                if part == 0:
                    if current is not None:
                        yield whole(current)
                    current = row
                    pieces = {k: [row[k]] for k in BODY_FIELDS if row.get(k) is not None}
                    continue
                if current is None or current["id"] != row["id"]:
                    raise ValueError(f"{str(file)!r}: row {PART} {part} of {row['id']!r} "
                                     "does not follow its record")
                for key, parts in pieces.items():
                    if row.get(key) is not None:
                        parts.append(row[key])
    if current is not None:
        yield whole(current)
