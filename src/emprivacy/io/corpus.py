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
(:func:`emprivacy.math.randomness.document_generator`): two documents with one
identifier would get the same noise, perfectly correlated.  A repeated identifier
is refused (:class:`UniqueIds`) with a message naming it and both positions.
What an output record releases as its ``id`` may be the document's position or a
keyed hash of its identifier instead
(:attr:`emprivacy.obfuscation.config.ObfuscationConfig.id_from`); the noise stays keyed by
the identifier.

JSONL files are read as a text-mode file reads them (``\\n``, ``\\r\\n`` and a lone
``\\r`` end a line; blank lines are skipped but counted in line numbers).  The
distributed planner (:mod:`emprivacy.distributed`) indexes JSONL files with
:func:`~emprivacy.io.records.jsonl_index` (every document's line, byte offset and
identifier) and Parquet files with :func:`~emprivacy.io.records.parquet_ids`, cuts them
after a fixed number of documents, and reads each range with the same readers
(:func:`~emprivacy.io.records.iter_jsonl`, :func:`~emprivacy.io.records.iter_parquet`):
a partitioned run reads exactly the documents of a single-process run, and fails
with the same messages.  Error messages name files, lines, rows and identifiers,
never the text itself.

A text file's document, and standard input's, is read when it is obfuscated, chunk
by chunk (:meth:`~emprivacy.io.documents.Document.chunks`,
:func:`~emprivacy.io.documents.read_text_chunks`: :data:`~emprivacy.io.documents.CHUNK_CHARS`
at a time), never whole: its errors (a file gone, invalid UTF-8) come then, with the
same messages.  A JSONL line is parsed whole, and a Parquet row group is read
whole: one such line or row group must fit in memory.

The JSONL and Parquet readers live in :mod:`emprivacy.io.records`,
:class:`~emprivacy.io.documents.Document` and the chunked text reader in
:mod:`emprivacy.io.documents`; this module reads every kind of input through them.
pyarrow is imported when a Parquet file is read, not with this module.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from emprivacy.exceptions import InputError
from emprivacy.io.documents import Document, standard_input
from emprivacy.io.records import (
    _is_blank,
    _jsonl_documents,
    _lines,
    _open_parquet,
    _parquet_documents,
)

__all__ = [
    "InputFile",
    "InputSurvey",
    "UniqueIds",
    "check_readable",
    "expand_inputs",
    "iter_documents",
    "read_text_file",
    "survey_inputs",
]

PathLike = str | os.PathLike[str]



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
    identifier (:func:`emprivacy.math.randomness.document_generator`), so two documents
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


def _files_below(directory: Path, suffix: str) -> list[Path]:
    """Every file named ``*<suffix>`` below ``directory``, sorted (what
    ``sorted(f for f in directory.rglob("*" + suffix) if f.is_file())`` finds: symbolic
    links to files are followed), or :class:`InputError` naming a directory that cannot
    be listed, a file that cannot be looked at, a symbolic link to a directory, a broken
    symbolic link named ``*<suffix>`` or a ``*<suffix>`` that is not a regular file (a
    FIFO, a device, a socket).

    Nothing is skipped silently: an unreadable sub-directory, a broken link or a linked
    directory would otherwise drop documents from the release without a word.  Links to
    directories are refused rather than followed: they may lead out of the input
    directory (to files the user did not mean to release) or into a cycle; the user
    gives the target as an input of its own.
    """
    found: list[Path] = []
    todo = [directory]
    while todo:
        where = todo.pop()
        try:
            with os.scandir(where) as listing:
                entries = list(listing)
        except OSError as exc:
            raise InputError(f"cannot read input directory {str(where)!r}: "
                             f"{exc.strerror}") from None
        for entry in entries:
            path = where / entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    todo.append(path)
                elif entry.is_symlink() and entry.is_dir():
                    raise InputError(f"{str(path)!r} in an input directory is a symbolic link "
                                     "to a directory, which is not followed; give its target "
                                     "as an input of its own, or remove the link")
                elif entry.name.endswith(suffix):
                    if entry.is_file():
                        found.append(path)
                    elif entry.is_symlink() and not path.exists():
                        raise InputError(f"input file {str(path)!r} is a broken symbolic link")
                    else:
                        raise InputError(f"input file {str(path)!r} in an input directory is "
                                         "not a regular file (a FIFO, device or socket)")
            except OSError as exc:
                raise InputError(f"cannot read input file {str(path)!r}: "
                                 f"{exc.strerror}") from None
    return sorted(found)


def check_readable(path: Path) -> None:
    """Open a regular input file and close it: :class:`InputError` now, before any work,
    if it cannot be read.  A FIFO or a device (``<(…)``) is not opened: that could
    consume it; its errors come when it is read."""
    try:
        if stat.S_ISREG(os.stat(path).st_mode):
            os.close(os.open(path, os.O_RDONLY))
    except OSError as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") from None


def expand_inputs(inputs: Iterable[PathLike]) -> Iterator[InputFile]:
    """Every input file, in order; directories expanded (sorted), lazily.

    Raises
    ------
    InputError
        For an input that does not exist, cannot be looked at (a directory
        without search permission on its path), a directory (or a
        sub-directory) that cannot be listed, a directory holding a symbolic
        link to a directory (not followed), a broken ``*.txt`` link or a
        ``*.txt`` that is not a regular file, or a directory holding no
        ``*.txt`` and no ``*.parquet`` file.
    """
    for item in inputs:
        if str(item) == "-":
            yield InputFile("stdin", Path("-"))
            continue
        p = Path(item)
        try:
            mode = p.stat().st_mode
        except (FileNotFoundError, NotADirectoryError):
            raise InputError(f"input file {str(p)!r} does not exist") from None
        except OSError as exc:
            raise InputError(f"cannot read input file {str(p)!r}: {exc.strerror}") from None
        if stat.S_ISDIR(mode):
            kind, files = "text", _files_below(p, ".txt")
            if not files:
                kind, files = "parquet", _files_below(p, ".parquet")
            if not files:
                raise InputError(f"input directory {str(p)!r} holds no *.txt or *.parquet "
                                 "file")
            for f in files:
                yield InputFile(kind, f)
        else:
            yield InputFile(_kind(p), p)


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


def read_named_file(path: str | os.PathLike[str], *, what: str, encoding: str = "utf-8") -> str:
    """The text of a file that is not an input document (a pairs file, a saved audit):
    :class:`InputError` in one line naming it as ``what`` otherwise."""
    where = os.fspath(path)
    try:
        with open(where, encoding=encoding) as fh:
            return fh.read()
    except FileNotFoundError:
        raise InputError(f"{what} {where!r} does not exist") from None
    except IsADirectoryError:
        raise InputError(f"{what} {where!r} is a directory, not a file") from None
    except UnicodeDecodeError:
        raise InputError(f"{what} {where!r} is not {encoding} text") from None
    except OSError as exc:
        raise InputError(f"cannot read {what} {where!r}: {exc.strerror or exc}") from None


# -- all inputs ------------------------------------------------------------------------------
def _read(item: InputFile, stdin: TextIO | None) -> Iterable[tuple[str, Document]]:
    """``(where, document)``: where each document of one input comes from, for messages."""
    if item.kind == "stdin":
        stream = stdin if stdin is not None else standard_input()
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
        Replaces :data:`sys.stdin` (for tests), which is decoded as strictly as a file
        (:func:`~emprivacy.io.documents.standard_input`).

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
        As :func:`expand_inputs` (missing input, unreadable or empty directory),
        for a text or JSONL file that cannot be opened (:func:`check_readable`), or
        for a Parquet file that is unreadable or lacks the ``id``/``text`` columns.
    """
    docs = size = 0
    structured = has_parquet = False
    for given in inputs:
        in_directory = str(given) != "-" and os.path.isdir(given)
        for item in expand_inputs([given]):
            if item.kind == "stdin":
                docs += 1
                continue
            structured = structured or in_directory or item.kind != "text"
            if item.kind == "text":
                check_readable(item.path)  # before anything is written, even to stdout
            size += item.path.stat().st_size
            if item.kind == "jsonl":
                docs += sum(1 for *_, raw in _lines(item.path) if not _is_blank(raw))
            elif item.kind == "parquet":
                has_parquet = True
                docs += _open_parquet(item.path).metadata.num_rows
            else:
                docs += 1
    return InputSurvey(docs, size, structured, has_parquet)
