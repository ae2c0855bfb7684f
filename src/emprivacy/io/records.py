"""JSONL and Parquet inputs: one record per document.

A ``.jsonl`` file holds one ``{"id": ..., "text": ...}`` object per line, read as a
text-mode file reads it (``\\n``, ``\\r\\n`` and a lone ``\\r`` end a line; blank
lines are skipped but counted in line numbers); a ``.parquet`` file has an ``id``
column of strings or integers and a ``text`` column of strings.  A JSONL line is
parsed whole, and a Parquet row group is read whole: one such line or row group
must fit in memory.  The distributed planner indexes these files
(:func:`jsonl_index`, :func:`parquet_ids`) and reads ranges of them with the same
readers (:func:`iter_jsonl`, :func:`iter_parquet`).  Error messages name files,
lines, rows and identifiers, never the text itself.  :mod:`emprivacy.io.corpus`
re-exports every public name of this module.

pyarrow is imported when a Parquet file is read, not with this module.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from emprivacy.exceptions import InputError
from emprivacy.io.documents import Document

__all__ = ["iter_json_objects", "iter_jsonl", "iter_parquet", "jsonl_index", "parquet_ids"]

PathLike = str | os.PathLike[str]


# -- JSONL -----------------------------------------------------------------------------------
#: The UTF-8 byte-order mark some editors write at the start of a file.
_BOM = b"\xef\xbb\xbf"


def _lines(path: Path, start: int = 0, stop: int | None = None, first_line: int = 1
           ) -> Iterator[tuple[int, int, int, bytes]]:
    """``(line number, start, end, bytes)`` of the lines in bytes ``[start, stop)`` of a file.

    ``start`` is the beginning of line ``first_line``; lines are split as in text
    mode (``\\n``, ``\\r\\n``, ``\\r``), their ends removed.  A UTF-8 byte-order
    mark at the start of the file is not part of line 1 (line 1 starts after it, at
    byte 3), as a text file's is not part of its text.
    """
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") from None
    with fh:
        if start == 0 and fh.read(len(_BOM)) == _BOM:
            start = len(_BOM)
        fh.seek(start)
        offset, lineno = start, first_line
        for chunk in fh:  # up to and including b"\n"
            if stop is not None:
                if offset >= stop:
                    break
                chunk = chunk[:stop - offset]
            for line in chunk.splitlines(keepends=True) if b"\r" in chunk else (chunk,):
                yield lineno, offset, offset + len(line), line.rstrip(b"\r\n")
                offset += len(line)
                lineno += 1


def _is_blank(raw: bytes) -> bool:
    """Whether a line is blank as ``str.strip`` sees it (a line with bad UTF-8 is not)."""
    s = raw.lstrip()
    if not s:
        return True
    if s[0] == 0x7B:  # "{": the usual line
        return False
    return not raw.decode("utf-8", "replace").strip()


def _json_lines(path: Path, start: int, stop: int | None, first_line: int
                ) -> Iterator[tuple[int, int, bytes]]:
    """``(line number, byte offset, bytes)`` of the non-blank lines in bytes ``[start, stop)``."""
    for lineno, offset, _, raw in _lines(path, start, stop, first_line):
        if not _is_blank(raw):
            yield lineno, offset, raw


def _parse_json_object(path: Path, lineno: int, offset: int, raw: bytes, *, expected: str
                       ) -> dict[str, Any]:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"input file {str(path)!r} is not valid UTF-8 (byte "
                         f"{offset + exc.start})") from None
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        raise InputError(f"{path}:{lineno}: not a valid JSON object") from None
    if not isinstance(record, dict):
        raise InputError(f"{path}:{lineno}: expected a JSON object with {expected}")
    return record


def iter_json_objects(path: PathLike, *, expected: str, start: int = 0,
                      stop: int | None = None, first_line: int = 1
                      ) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for every non-blank line of a JSONL file.

    ``start``, ``stop`` and ``first_line`` restrict it to a range of whole lines
    (see :func:`jsonl_index`).  Raises :class:`InputError` naming the file (and
    line) when it cannot be read, is not UTF-8, or a line is not a JSON object
    (``expected`` says what it should hold).
    """
    path = Path(path)
    for lineno, offset, raw in _json_lines(path, start, stop, first_line):
        yield lineno, _parse_json_object(path, lineno, offset, raw, expected=expected)


def _jsonl_documents(path: Path, start: int = 0, stop: int | None = None,
                     first_line: int = 1) -> Iterator[tuple[int, int, Document]]:
    """``(line number, byte offset of the line, document)`` for every document line."""
    for lineno, offset, raw in _json_lines(path, start, stop, first_line):
        record = _parse_json_object(path, lineno, offset, raw,
                                    expected="a string 'text' field")
        if not isinstance(record.get("text"), str):
            raise InputError(f"{path}:{lineno}: expected a JSON object with a string "
                             "'text' field")
        doc_id = record.get("id", f"{path.name}:{lineno}")
        if not isinstance(doc_id, str | int) or isinstance(doc_id, bool):
            raise InputError(f"{path}:{lineno}: 'id' must be a string or an integer")
        yield lineno, offset, Document(str(doc_id), record["text"])


def iter_jsonl(path: PathLike, *, start: int = 0, stop: int | None = None,
               first_line: int = 1) -> Iterator[Document]:
    """The documents of a JSONL file, or of the whole lines in bytes ``[start, stop)``
    (``start`` being the beginning of line ``first_line``; see :func:`jsonl_index`)."""
    for _, _, doc in _jsonl_documents(Path(path), start, stop, first_line):
        yield doc


def jsonl_index(path: PathLike) -> Iterator[tuple[int, int, str]]:
    """``(line number, byte offset, id)`` of every document of a JSONL file, in order.

    The file is read once, sequentially, and every line is parsed as
    :func:`iter_jsonl` parses it (same identifiers, same errors).  The documents
    from the one at offset ``a`` (line ``l``) up to the one at offset ``b``, not
    included, are ``iter_jsonl(path, start=a, stop=b, first_line=l)``.
    """
    path = Path(path)
    for lineno, offset, doc in _jsonl_documents(path):
        yield lineno, offset, doc.id


# -- Parquet ---------------------------------------------------------------------------------
def _open_parquet(path: Path) -> Any:
    """A ``pyarrow.parquet.ParquetFile`` with an ``id`` and a ``text`` column."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"cannot read input file {str(path)!r} as Parquet: {exc}") from None
    schema = pf.schema_arrow
    for column in ("id", "text"):
        if column not in schema.names:
            raise InputError(f"input file {str(path)!r} has no {column!r} column; Parquet "
                             "inputs need an 'id' and a 'text' column")
    t = schema.field("text").type
    if not (pa.types.is_string(t) or pa.types.is_large_string(t)):
        raise InputError(f"input file {str(path)!r}: column 'text' must hold strings; got {t}")
    t = schema.field("id").type
    if not (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_integer(t)):
        raise InputError(f"input file {str(path)!r}: column 'id' must hold strings or "
                         f"integers; got {t}")
    _check_no_nulls(pf, path)
    return pf


def _check_no_nulls(pf: Any, path: Path) -> None:
    """A null ``id`` or ``text`` that the row groups' statistics show (no row is read
    unless one is there): one error now, before any document is released, rather than
    when the reading reaches it."""
    meta = pf.metadata
    paths = [meta.schema.column(j).path for j in range(meta.num_columns)]
    for column in ("id", "text"):
        j = paths.index(column)
        row = 0
        for g in range(meta.num_row_groups):
            group = meta.row_group(g)
            stats = group.column(j).statistics
            if stats is not None and stats.has_null_count and stats.null_count:
                nulls = _read_row_group(pf, path, g, [column]).column(column).is_null()
                raise _null(path, row + nulls.to_pylist().index(True), column)
            row += group.num_rows


def _read_row_group(pf: Any, path: Path, g: int, columns: list[str]) -> Any:
    import pyarrow as pa

    try:
        return pf.read_row_group(g, columns=columns)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"cannot read input file {str(path)!r} as Parquet: {exc}") from None


def _null(path: Path, row: int, column: str) -> InputError:
    hint = ("; a record needs a text: to keep the nulls, release the file as a table (one "
            ".parquet input, --output OUT.parquet)" if column == "text" else "")
    return InputError(f"input file {str(path)!r} row {row}: {column!r} is null{hint}")


def parquet_ids(path: PathLike) -> Iterator[str]:
    """The identifier of every row of a Parquet file, in order (as strings).

    Only the ``id`` column is read, a row group at a time; rows ``[start, stop)``
    are read with ``iter_parquet(path, start=start, stop=stop)``.
    """
    path = Path(path)
    pf = _open_parquet(path)
    row = 0
    for g in range(pf.metadata.num_row_groups):
        for k, doc_id in enumerate(_read_row_group(pf, path, g, ["id"]).column("id")
                                   .to_pylist()):
            if doc_id is None:
                raise _null(path, row + k, "id")
            yield str(doc_id)
        row += pf.metadata.row_group(g).num_rows


def iter_parquet(path: PathLike, *, start: int = 0, stop: int | None = None
                 ) -> Iterator[Document]:
    """The documents of a Parquet file (or of its rows ``[start, stop)``), a row group at
    a time (a range may span row groups: each one it touches is read whole)."""
    for _, doc in _parquet_documents(Path(path), start, stop):
        yield doc


def _parquet_documents(path: Path, start: int = 0, stop: int | None = None
                       ) -> Iterator[tuple[int, Document]]:
    """``(row, document)`` for the rows ``[start, stop)`` of a Parquet file."""
    pf = _open_parquet(path)
    meta = pf.metadata
    stop = meta.num_rows if stop is None else stop
    row = 0
    for g in range(meta.num_row_groups):
        n = meta.row_group(g).num_rows
        lo, hi = max(start, row), min(stop, row + n)
        if lo < hi:
            table = _read_row_group(pf, path, g, ["id", "text"]).slice(lo - row, hi - lo)
            ids = table.column("id").to_pylist()
            texts = table.column("text").to_pylist()
            for k, (doc_id, text) in enumerate(zip(ids, texts, strict=True)):
                if doc_id is None or text is None:
                    raise _null(path, lo + k, "id" if doc_id is None else "text")
                yield lo + k, Document(str(doc_id), text)
        row += n
