"""Cutting a corpus into partitions, and reading one partition back.

A partition is a run of input documents obfuscated by one task: text files grouped
in input order, a range of whole lines of a JSONL file, or a range of rows of a
Parquet file.  The readers are those of :mod:`emprivacy.corpus`, so a partition
holds exactly the documents (identifiers, texts, errors) the single-process reader
finds there.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._validation import check_positive_int
from ..corpus import (
    Document,
    expand_inputs,
    iter_jsonl,
    iter_parquet,
    jsonl_ranges,
    parquet_ranges,
    read_text_file,
)
from ..exceptions import InputError

__all__ = [
    "DEFAULT_PARTITION_BYTES",
    "MIN_DEFAULT_PARTITION_BYTES",
    "Partition",
    "default_partition_bytes",
    "plan_partitions",
    "read_partition",
]

#: Largest default amount of input per partition (bytes): about 170,000 words, i.e.
#: tens of seconds of work for one core with 100k-word exact decoding.
DEFAULT_PARTITION_BYTES = 1 << 20
#: Smallest default partition (bytes), so that per-task overheads stay negligible.
MIN_DEFAULT_PARTITION_BYTES = 1 << 16


@dataclass(frozen=True, slots=True)
class Partition:
    """A run of input documents obfuscated by one task.

    ``kind`` is ``"text"`` (``files``: ``(id, path)`` of text files, one document
    each), ``"jsonl"`` (lines of ``path`` in bytes ``[start, stop)``, the first
    being line ``first_line``) or ``"parquet"`` (rows ``[start, stop)`` of ``path``).
    ``stamp``: the size and modification time of the files when planned.
    """

    index: int
    kind: str
    path: str = ""
    start: int = 0
    stop: int = 0
    first_line: int = 1
    files: tuple[tuple[str, str], ...] = ()
    n_documents: int = 0
    stamp: tuple[Any, ...] = ()

    @property
    def name(self) -> str:
        """The stem of this partition's files, ``part-00012``."""
        return f"part-{self.index:05d}"

    def describe(self) -> str:
        """Where the documents come from, for messages (names files, never text)."""
        if self.kind == "text":
            first = self.files[0][1] if self.files else "?"
            return f"{len(self.files)} text file(s) from {first!r}"
        if self.kind == "jsonl":
            return f"{self.path!r} from line {self.first_line}"
        return f"{self.path!r} rows {self.start}-{self.stop - 1}"

    def descriptor(self) -> list[Any]:
        """A JSON-able description, used to recognise the same partition on resume."""
        return [self.kind, self.path, self.start, self.stop, self.first_line,
                [list(f) for f in self.files], self.n_documents, list(self.stamp)]

    def planned_sizes(self) -> list[int]:
        """The sizes of the partition's files when it was planned."""
        if self.kind == "text":
            return [int(stamp[0]) for stamp in self.stamp]
        return [int(self.stamp[0])]

    def current_sizes(self) -> list[int] | None:
        """The sizes of its files now; ``None`` if one is missing (reading names it)."""
        paths = [path for _, path in self.files] if self.kind == "text" else [self.path]
        try:
            return [os.stat(path).st_size for path in paths]
        except OSError:
            return None


def _file_stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def default_partition_bytes(total_bytes: int) -> int:
    """The default partition size for ``total_bytes`` of input: 1/64 of it, within
    [64 KiB, 1 MiB] — at least 64 tasks for a corpus of 4 MiB or more, so that the
    work spreads over a few dozen workers; depends on the input only, so that a
    resumed run finds the same partitions.

    >>> default_partition_bytes(6_000_000), default_partition_bytes(10**10)
    (93750, 1048576)
    """
    return min(DEFAULT_PARTITION_BYTES, max(MIN_DEFAULT_PARTITION_BYTES, total_bytes // 64))


def plan_partitions(inputs: Iterable[str | os.PathLike[str]], *,
                    partition_bytes: int | None = None) -> list[Partition]:
    """Cut the inputs into partitions of about ``partition_bytes`` of input each.

    ``partition_bytes=None`` uses :func:`default_partition_bytes` of the total
    input size.

    Inputs are expanded as by :func:`emprivacy.corpus.iter_documents` (standard
    input excepted).  Text files (one document each) are grouped in input order;
    JSONL files are cut at line boundaries; Parquet files at row boundaries.
    Partitions refer to files by absolute path, so that workers in another
    directory find them.  Documents keep the identifiers of the single-process
    reader: the file path for a text file, the ``id`` field (or
    ``"<file name>:<line>"``) for JSONL, the ``id`` column (as a string) for Parquet.

    The plan is deterministic: the same inputs (same sizes and modification
    times) give the same partitions, which is what ``resume`` relies on.
    """
    if partition_bytes is not None:
        partition_bytes = check_positive_int(partition_bytes, "partition_bytes")
    files = []
    for item in expand_inputs(inputs):
        if item.kind == "stdin":
            raise InputError("standard input cannot be partitioned; write it to a file first")
        files.append(item)
    if partition_bytes is None:
        partition_bytes = default_partition_bytes(sum(_file_stamp(f.path)[0] for f in files))
    parts: list[Partition] = []
    pending: list[tuple[str, str]] = []
    stamps: list[Any] = []
    pending_bytes = 0

    def flush_text() -> None:
        nonlocal pending, stamps, pending_bytes
        if pending:
            parts.append(Partition(len(parts), "text", files=tuple(pending),
                                   n_documents=len(pending), stamp=tuple(stamps)))
        pending, stamps, pending_bytes = [], [], 0

    for item in files:
        path = item.path
        if item.kind == "text":
            size, mtime = _file_stamp(path)
            pending.append((str(path), os.path.abspath(path)))  # id as given; read anywhere
            stamps.append([size, mtime])
            pending_bytes += size
            if pending_bytes >= partition_bytes:
                flush_text()
            continue
        flush_text()
        stamp = _file_stamp(path)
        where = os.path.abspath(path)
        if item.kind == "jsonl":
            for start, stop, first, docs in jsonl_ranges(path, partition_bytes):
                parts.append(Partition(len(parts), "jsonl", where, start, stop, first,
                                       n_documents=docs, stamp=stamp))
        else:
            for start, stop in parquet_ranges(path, partition_bytes):
                parts.append(Partition(len(parts), "parquet", where, start, stop,
                                       n_documents=stop - start, stamp=stamp))
    flush_text()
    return parts


def read_partition(part: Partition) -> list[Document]:
    """The documents of one partition, in input order (what a task reads).

    Raises
    ------
    InputError
        Naming the file (and line or row) that is unreadable or malformed.
    """
    if part.kind == "text":
        return [Document(doc_id, read_text_file(Path(path))) for doc_id, path in part.files]
    if part.kind == "jsonl":
        return list(iter_jsonl(part.path, start=part.start, stop=part.stop,
                               first_line=part.first_line))
    if part.kind == "parquet":
        return list(iter_parquet(part.path, start=part.start, stop=part.stop))
    raise ValueError(f"unknown partition kind {part.kind!r}")
