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
(:func:`emprivacy.randomness.document_generator`): two documents with one
identifier would get the same noise, perfectly correlated.  A repeated identifier
is refused (:class:`UniqueIds`) with a message naming it and both positions.

JSONL files are read as a text-mode file reads them (``\\n``, ``\\r\\n`` and a lone
``\\r`` end a line; blank lines are skipped but counted in line numbers).  The
distributed planner (:mod:`emprivacy.distributed`) indexes JSONL files with
:func:`jsonl_index` (every document's line, byte offset and identifier) and Parquet
files with :func:`parquet_ids`, cuts them after a fixed number of documents, and
reads each range with the same readers (:func:`iter_jsonl`, :func:`iter_parquet`):
a partitioned run reads exactly the documents of a single-process run, and fails
with the same messages.  Error messages name files, lines, rows and identifiers,
never the text itself.

A text file's document, and standard input's, is read when it is obfuscated, chunk
by chunk (:meth:`Document.chunks`, :func:`read_text_chunks`: :data:`CHUNK_CHARS` at
a time), never whole: its errors (a file gone, invalid UTF-8) come then, with the
same messages.  A JSONL line is parsed whole, and a Parquet row group is read
whole: one such line or row group must fit in memory.

pyarrow is imported when a Parquet file is read, not with this module.
"""

from __future__ import annotations

import codecs
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .exceptions import InputError

__all__ = [
    "CHUNK_CHARS",
    "Document",
    "InputFile",
    "InputSurvey",
    "UniqueIds",
    "expand_inputs",
    "iter_documents",
    "iter_json_objects",
    "iter_jsonl",
    "iter_parquet",
    "jsonl_index",
    "parquet_ids",
    "read_text_chunks",
    "read_text_file",
    "survey_inputs",
]

PathLike = str | os.PathLike[str]


#: Text files and standard input are read this many bytes (characters) at a time, and a
#: document's text is cut into chunks of about this many characters (:meth:`Document.chunks`).
CHUNK_CHARS = 1 << 16


class Document:
    """One input document: a unique identifier and its text.

    ``Document(id, text)`` holds its text; a text file's or standard input's document
    (:meth:`from_file`, :meth:`from_stream`) is read when it is used, chunk by chunk
    (:meth:`chunks`), so that a long document is never held whole.  ``text`` reads
    it whole.  Documents are immutable; two are equal when their identifiers and
    texts are (files at the same path are equal without being read).

    >>> doc = Document("a", "Some text.")
    >>> doc.id, doc.text, list(doc.chunks())
    ('a', 'Some text.', ['Some text.'])
    """

    __slots__ = ("_source", "id")
    __match_args__ = ("id", "text")

    id: str
    _source: str | Path | TextIO

    def __init__(self, id: str, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str; got {type(text).__name__}")
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "_source", text)

    @classmethod
    def from_file(cls, id: str, path: PathLike) -> Document:
        """The document of a UTF-8 text file, read when used (:func:`read_text_chunks`)."""
        doc = cls.__new__(cls)
        object.__setattr__(doc, "id", id)
        object.__setattr__(doc, "_source", Path(path))
        return doc

    @classmethod
    def from_stream(cls, id: str, stream: TextIO) -> Document:
        """The document of a text stream (standard input), read once, when used."""
        doc = cls.__new__(cls)
        object.__setattr__(doc, "id", id)
        object.__setattr__(doc, "_source", stream)
        return doc

    @property
    def path(self) -> Path | None:
        """The file the text is read from (:meth:`from_file`), else ``None``."""
        return self._source if isinstance(self._source, Path) else None

    @property
    def text(self) -> str:
        """The whole text (a file or stream is read whole)."""
        source = self._source
        return source if isinstance(source, str) else "".join(self.chunks())

    def chunks(self) -> Iterator[str]:
        """The text in chunks of about :data:`CHUNK_CHARS` characters, cut anywhere.

        A file is read as :func:`read_text_file` reads it (UTF-8, universal newlines),
        chunk by chunk: errors (missing file, invalid UTF-8) come when they are read.
        """
        source = self._source
        if isinstance(source, str):
            if len(source) <= CHUNK_CHARS:
                yield source
            else:
                for start in range(0, len(source), CHUNK_CHARS):
                    yield source[start:start + CHUNK_CHARS]
        elif isinstance(source, Path):
            yield from read_text_chunks(source)
        else:
            yield from _stream_chunks(source)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Document is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Document is immutable; cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Document):
            return NotImplemented
        if self.id != other.id:
            return False
        if self._source is other._source or (self.path is not None and self.path == other.path):
            return True
        return self.text == other.text

    def __hash__(self) -> int:
        return hash(("Document", self.id))

    def __repr__(self) -> str:
        if self.path is not None:
            return f"Document(id={self.id!r}, path={str(self.path)!r})"
        if isinstance(self._source, str):
            return f"Document(id={self.id!r}, text={self._source!r})"
        return f"Document(id={self.id!r}, stream={self._source!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        if isinstance(self._source, str):
            return (Document, (self.id, self._source))
        if isinstance(self._source, Path):
            return (Document.from_file, (self.id, self._source))
        raise TypeError("a document read from a stream cannot be pickled")


@dataclass(frozen=True, slots=True)
class InputFile:
    """One input file: ``kind`` is ``"stdin"``, ``"text"``, ``"jsonl"`` or ``"parquet"``.

    A text file's document identifier is ``str(path)``; standard input's path is ``-``.
    """

    kind: str
    path: Path


class UniqueIds:
    """The identifiers seen so far; a repeated one raises :class:`InputError`.

    Each document's noise stream is keyed by the run's key and the document's
    identifier (:func:`emprivacy.randomness.document_generator`), so two documents
    with one identifier would be released with the same noise: their outputs would
    be perfectly correlated, outside the guarantee of each.  The message names the
    identifier (user metadata, not text) and the positions of both documents in the
    input, counted from 1.

    >>> ids = UniqueIds()
    >>> ids.add("a"); ids.add("b")
    >>> ids.add("a", where="docs.jsonl:7")
    Traceback (most recent call last):
    ...
    emprivacy.exceptions.InputError: duplicate document id 'a': documents 1 and 3 of the \
input (the second at docs.jsonl:7); ids must be unique, since each document's noise \
stream is keyed by its id
    """

    def __init__(self) -> None:
        self._position: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._position)

    def add(self, doc_id: str, *, where: str | None = None) -> None:
        """Record ``doc_id`` (the next document of the input), or raise if it was seen."""
        position = len(self._position) + 1
        first = self._position.setdefault(doc_id, position)
        if first != position:
            at = f" (the second at {where})" if where else ""
            raise InputError(f"duplicate document id {doc_id!r}: documents {first} and "
                             f"{position} of the input{at}; ids must be unique, since each "
                             "document's noise stream is keyed by its id")


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
def read_text_chunks(path: PathLike) -> Iterator[str]:
    """The text of a UTF-8 file, chunk by chunk (about :data:`CHUNK_CHARS` characters each).

    Exactly :func:`read_text_file`'s text (newlines ``\\r\\n`` and ``\\r`` read as
    ``\\n``) and errors (the byte offset of invalid UTF-8 counted from the start of the
    file), in bounded memory: a chunk may end anywhere but inside a character or a
    ``\\r\\n``.  Stopping early leaves the rest of the file unread (and unchecked).
    """
    path = Path(path)
    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"input file {str(path)!r} does not exist") from None
    except OSError as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") from None
    with fh:
        offset = 0  # of the first byte not yet decoded
        pending = b""
        cr = False  # the previous chunk ended in "\r"
        while True:
            try:
                data = fh.read(CHUNK_CHARS)
            except OSError as exc:
                raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") \
                    from None
            final = not data
            buf = pending + data
            try:
                text, used = codecs.utf_8_decode(buf, "strict", final)
            except UnicodeDecodeError as exc:
                raise InputError(f"input file {str(path)!r} is not valid UTF-8 (byte "
                                 f"{offset + exc.start})") from None
            offset += used
            pending = buf[used:]
            if cr:
                text = "\r" + text
            cr = not final and text.endswith("\r")
            if cr:
                text = text[:-1]
            if "\r" in text:
                text = text.replace("\r\n", "\n").replace("\r", "\n")
            if text:
                yield text
            if final:
                return


def _stream_chunks(stream: TextIO) -> Iterator[str]:
    """A text stream (standard input), chunk by chunk; :class:`InputError` for bad UTF-8."""
    while True:
        try:
            chunk = stream.read(CHUNK_CHARS)
        except UnicodeDecodeError:
            raise InputError("standard input is not valid UTF-8") from None
        if not chunk:
            return
        yield chunk


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
    return pf


def _read_row_group(pf: Any, path: Path, g: int, columns: list[str]) -> Any:
    import pyarrow as pa

    try:
        return pf.read_row_group(g, columns=columns)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"cannot read input file {str(path)!r} as Parquet: {exc}") from None


def _null(path: Path, row: int, column: str) -> InputError:
    return InputError(f"input file {str(path)!r} row {row}: {column!r} is null")


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


# -- all inputs ------------------------------------------------------------------------------
def _read(item: InputFile, stdin: TextIO | None) -> Iterable[tuple[str, Document]]:
    """``(where, document)``: where each document of one input comes from, for messages."""
    if item.kind == "stdin":
        stream = stdin if stdin is not None else sys.stdin
        return [("standard input", Document.from_stream("-", stream))]
    path = item.path
    if item.kind == "jsonl":
        return ((f"{path}:{lineno}", doc) for lineno, _, doc in _jsonl_documents(path))
    if item.kind == "parquet":
        return ((f"{str(path)!r} row {row}", doc) for row, doc in _parquet_documents(path))
    return [(f"input file {str(path)!r}", Document.from_file(str(path), path))]


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
        malformed, or the identifier that appears twice (with the positions of both
        documents, :class:`UniqueIds`).  A text file or standard input is read when
        its document is (:meth:`Document.chunks`): its reading errors come then.
    """
    ids = UniqueIds()
    for item in expand_inputs(inputs):
        for where, doc in _read(item, stdin):
            ids.add(doc.id, where=where)
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
