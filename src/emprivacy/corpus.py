"""Reading input documents: every input reader of emprivacy, with one set of messages.

Inputs are text files (one document each), directories (every ``*.txt`` below,
sorted; a directory holding no ``*.txt`` file is read as a Parquet dataset, every
``*.parquet`` below, sorted), ``"-"`` for standard input (one document), ``.jsonl``
files (one ``{"id": ..., "text": ...}`` object per line) and ``.parquet`` files
(an ``id`` column of strings or integers and a ``text`` column of strings).

Every document gets an identifier: the file's path as found (relative to the
directory given, for directories), ``"-"`` for standard input, the ``id`` field of
a JSONL record (or ``"<file name>:<line>"``), the ``id`` column of a Parquet row
(as a string).  Identifiers must be unique within a run, because each document's
noise stream is derived from its identifier
(:func:`emprivacy.randomness.document_generator`).

JSONL files are read as a text-mode file reads them (``\\n``, ``\\r\\n`` and a lone
``\\r`` end a line; blank lines are skipped but counted in line numbers).  The
distributed planner (:mod:`emprivacy.distributed`) cuts JSONL files at line
boundaries (:func:`jsonl_ranges`) and Parquet files at row boundaries
(:func:`parquet_ranges`), and reads each range with the same readers
(:func:`iter_jsonl`, :func:`iter_parquet`): a partitioned run reads exactly the
documents of a single-process run, and fails with the same messages.  Error
messages name files, lines, rows and identifiers, never the text itself.

pyarrow is imported when a Parquet file is read, not with this module.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .exceptions import InputError

__all__ = [
    "Document",
    "InputFile",
    "InputSurvey",
    "expand_inputs",
    "iter_documents",
    "iter_json_objects",
    "iter_jsonl",
    "iter_parquet",
    "jsonl_ranges",
    "parquet_ranges",
    "read_text_file",
    "survey_inputs",
]

PathLike = str | os.PathLike[str]


@dataclass(frozen=True, slots=True)
class Document:
    """One input document: a unique identifier and its text."""

    id: str
    text: str


@dataclass(frozen=True, slots=True)
class InputFile:
    """One input file: ``kind`` is ``"stdin"``, ``"text"``, ``"jsonl"`` or ``"parquet"``.

    A text file's document identifier is ``str(path)``; standard input's path is ``-``.
    """

    kind: str
    path: Path


def _kind(path: Path) -> str:
    suffix = path.suffix.lower()
    return "jsonl" if suffix == ".jsonl" else "parquet" if suffix == ".parquet" else "text"


def expand_inputs(inputs: Iterable[PathLike]) -> Iterator[InputFile]:
    """Every input file, in order; directories expanded (sorted), lazily.

    Raises
    ------
    InputError
        For an input that does not exist, or a directory holding no ``*.txt`` and
        no ``*.parquet`` file.
    """
    for item in inputs:
        if str(item) == "-":
            yield InputFile("stdin", Path("-"))
            continue
        p = Path(item)
        if p.is_dir():
            kind, files = "text", sorted(f for f in p.rglob("*.txt") if f.is_file())
            if not files:
                kind, files = "parquet", sorted(f for f in p.rglob("*.parquet") if f.is_file())
            if not files:
                raise InputError(f"input directory {str(p)!r} holds no *.txt or *.parquet "
                                 "file")
            for f in files:
                yield InputFile(kind, f)
        elif p.exists():
            yield InputFile(_kind(p), p)
        else:
            raise InputError(f"input file {str(p)!r} does not exist")


# -- text files ------------------------------------------------------------------------------
def read_text_file(path: Path) -> str:
    """Read a UTF-8 text file; :class:`InputError` naming the file otherwise."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"input file {str(path)!r} does not exist") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"input file {str(path)!r} is not valid UTF-8 (byte {exc.start})") \
            from None
    except OSError as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") from None


# -- JSONL -----------------------------------------------------------------------------------
def _lines(path: Path, start: int = 0, stop: int | None = None, first_line: int = 1
           ) -> Iterator[tuple[int, int, int, bytes]]:
    """``(line number, start, end, bytes)`` of the lines in bytes ``[start, stop)`` of a file.

    ``start`` is the beginning of line ``first_line``; lines are split as in text
    mode (``\\n``, ``\\r\\n``, ``\\r``), their ends removed.
    """
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") from None
    with fh:
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


def iter_json_objects(path: PathLike, *, expected: str, start: int = 0,
                      stop: int | None = None, first_line: int = 1
                      ) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for every non-blank line of a JSONL file.

    ``start``, ``stop`` and ``first_line`` restrict it to a range of whole lines
    (see :func:`jsonl_ranges`).  Raises :class:`InputError` naming the file (and
    line) when it cannot be read, is not UTF-8, or a line is not a JSON object
    (``expected`` says what it should hold).
    """
    path = Path(path)
    for lineno, offset, _, raw in _lines(path, start, stop, first_line):
        if _is_blank(raw):
            continue
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
        yield lineno, record


def iter_jsonl(path: PathLike, *, start: int = 0, stop: int | None = None,
               first_line: int = 1) -> Iterator[Document]:
    """The documents of a JSONL file (or of a range of its lines, see :func:`jsonl_ranges`)."""
    path = Path(path)
    for lineno, record in iter_json_objects(path, expected="a string 'text' field",
                                            start=start, stop=stop, first_line=first_line):
        if not isinstance(record.get("text"), str):
            raise InputError(f"{path}:{lineno}: expected a JSON object with a string "
                             "'text' field")
        doc_id = record.get("id", f"{path.name}:{lineno}")
        if not isinstance(doc_id, str | int) or isinstance(doc_id, bool):
            raise InputError(f"{path}:{lineno}: 'id' must be a string or an integer")
        yield Document(str(doc_id), record["text"])


def jsonl_ranges(path: PathLike, target_bytes: int) -> Iterator[tuple[int, int, int, int]]:
    """``(start, stop, first_line, documents)``: byte ranges of whole lines of a JSONL file.

    Each range holds about ``target_bytes`` (at least one line); read each one with
    ``iter_jsonl(path, start=start, stop=stop, first_line=first_line)``.  The file
    is read once, sequentially; lines are not parsed (bad ones fail when read).
    """
    start, first_line, docs, end = 0, 1, 0, 0
    for lineno, _, end, raw in _lines(Path(path)):
        if not _is_blank(raw):
            docs += 1
        if end - start >= target_bytes:
            yield start, end, first_line, docs
            start, first_line, docs = end, lineno + 1, 0
    if end > start:
        yield start, end, first_line, docs


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
    return pf


def parquet_ranges(path: PathLike, target_bytes: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)``: row ranges of about ``target_bytes`` of (uncompressed) data.

    Ranges never cross a row group; read each one with
    ``iter_parquet(path, start=start, stop=stop)``.
    """
    meta = _open_parquet(Path(path)).metadata
    row = 0
    for g in range(meta.num_row_groups):
        rg = meta.row_group(g)
        n = rg.num_rows
        if n == 0:
            continue
        step = max(1, (target_bytes * n) // max(1, rg.total_byte_size))
        for s in range(0, n, step):
            yield row + s, row + min(n, s + step)
        row += n


def iter_parquet(path: PathLike, *, start: int = 0, stop: int | None = None
                 ) -> Iterator[Document]:
    """The documents of a Parquet file (or of its rows ``[start, stop)``), a row group at
    a time."""
    import pyarrow as pa

    path = Path(path)
    pf = _open_parquet(path)
    meta = pf.metadata
    stop = meta.num_rows if stop is None else stop
    row = 0
    for g in range(meta.num_row_groups):
        n = meta.row_group(g).num_rows
        lo, hi = max(start, row), min(stop, row + n)
        if lo < hi:
            try:
                table = pf.read_row_group(g, columns=["id", "text"])
            except (OSError, pa.ArrowException) as exc:
                raise InputError(f"cannot read input file {str(path)!r} as Parquet: {exc}") \
                    from None
            table = table.slice(lo - row, hi - lo)
            ids = table.column("id").to_pylist()
            texts = table.column("text").to_pylist()
            for k, (doc_id, text) in enumerate(zip(ids, texts, strict=True)):
                if doc_id is None or text is None:
                    column = "id" if doc_id is None else "text"
                    raise InputError(f"input file {str(path)!r} row {lo + k}: {column!r} "
                                     "is null")
                yield Document(str(doc_id), text)
        row += n


# -- all inputs ------------------------------------------------------------------------------
def _read(item: InputFile, stdin: TextIO | None) -> Iterable[Document]:
    if item.kind == "stdin":
        stream = stdin if stdin is not None else sys.stdin
        try:
            return [Document("-", stream.read())]
        except UnicodeDecodeError:
            raise InputError("standard input is not valid UTF-8") from None
    if item.kind == "jsonl":
        return iter_jsonl(item.path)
    if item.kind == "parquet":
        return iter_parquet(item.path)
    return [Document(str(item.path), read_text_file(item.path))]


def iter_documents(inputs: Iterable[PathLike], *,
                   stdin: TextIO | None = None) -> Iterator[Document]:
    """Yield the documents of ``inputs`` in order.

    Parameters
    ----------
    inputs : iterable of path-like or ``"-"``
        Text files (one document each), directories (every ``*.txt`` below, sorted;
        with none, every ``*.parquet``), ``"-"`` for standard input (one document),
        ``.jsonl`` files (one ``{"id": ..., "text": ...}`` object per line) or
        ``.parquet`` files (``id`` and ``text`` columns).
    stdin : text stream, optional
        Replaces :data:`sys.stdin` (for tests).

    Raises
    ------
    InputError
        Naming the file (and line or row) that is missing, unreadable, not UTF-8 or
        malformed, or the identifier that appears twice.
    """
    seen: set[str] = set()
    for item in expand_inputs(inputs):
        for doc in _read(item, stdin):
            if doc.id in seen:
                raise InputError(f"duplicate document id {doc.id!r}; ids must be unique")
            seen.add(doc.id)
            yield doc


@dataclass(frozen=True, slots=True)
class InputSurvey:
    """What :func:`survey_inputs` found, without parsing any document.

    ``documents``: text files, standard input, non-blank JSONL lines and Parquet
    rows; ``bytes``: the size of the input files (standard input not counted);
    ``structured``: a directory, a JSONL or a Parquet file is among the inputs
    (records are the natural output); ``has_parquet``: a Parquet file is.
    """

    documents: int
    bytes: int
    structured: bool
    has_parquet: bool


def survey_inputs(inputs: Iterable[PathLike]) -> InputSurvey:
    """Count the documents and bytes of ``inputs`` cheaply (JSONL files are read once,
    Parquet files only their metadata).

    Raises
    ------
    InputError
        As :func:`expand_inputs` (missing input, empty directory) or for a Parquet
        file that is unreadable or lacks the ``id``/``text`` columns.
    """
    docs = size = 0
    structured = has_parquet = False
    for given in inputs:
        in_directory = str(given) != "-" and Path(given).is_dir()
        for item in expand_inputs([given]):
            if item.kind == "stdin":
                docs += 1
                continue
            structured = structured or in_directory or item.kind != "text"
            size += item.path.stat().st_size
            if item.kind == "jsonl":
                docs += sum(1 for *_, raw in _lines(item.path) if not _is_blank(raw))
            elif item.kind == "parquet":
                has_parquet = True
                docs += _open_parquet(item.path).metadata.num_rows
            else:
                docs += 1
    return InputSurvey(docs, size, structured, has_parquet)
