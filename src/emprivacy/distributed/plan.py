"""Cutting a corpus into partitions, and reading one partition back.

A partition is a run of input documents obfuscated by one task: text files grouped
in input order, a range of whole lines of a JSONL file, or a range of rows of a
Parquet file.  The readers are those of :mod:`emprivacy.io.corpus`, so a partition
holds exactly the documents (identifiers, texts, errors) the single-process reader
finds there.

Partitions are cut by **document count**, never by bytes: every input file's
documents are cut into runs of ``partition_documents`` (the last run of a file may
be shorter).  The Parquet output has one file per partition, so its layout (file
names, rows per file) depends only on how many documents each input file holds —
not on the size of any document, which includes words that are never released
(stopwords, numbers, out-of-vocabulary words).  Planning also reads every
document's identifier once and refuses a repeated one before anything runs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from emprivacy._validation import check_positive_int
from emprivacy.exceptions import InputError
from emprivacy.io.corpus import UniqueIds, check_readable, expand_inputs, read_text_file
from emprivacy.io.documents import Document
from emprivacy.io.records import iter_jsonl, iter_parquet, jsonl_index, parquet_ids

__all__ = [
    "MAX_DEFAULT_PARTITION_DOCUMENTS",
    "MIN_DEFAULT_PARTITION_DOCUMENTS",
    "Partition",
    "default_partition_documents",
    "plan_partitions",
    "read_partition",
]

#: Largest default partition (documents): about 200,000 words for documents of a few
#: hundred words, i.e. tens of seconds of work for one core with 100k-word exact decoding.
MAX_DEFAULT_PARTITION_DOCUMENTS = 1024
#: Smallest default partition (documents), so that per-task overheads stay negligible.
MIN_DEFAULT_PARTITION_DOCUMENTS = 16
#: The default aims at this many partitions (at least, for corpora large enough).
_TARGET_PARTITIONS = 64


@dataclass(frozen=True, slots=True)
class Partition:
    """A run of input documents obfuscated by one task.

    ``kind`` is ``"text"`` (``files``: ``(id, path)`` of text files, one document
    each), ``"jsonl"`` (lines of ``path`` in bytes ``[start, stop)``, the first
    being line ``first_line``) or ``"parquet"`` (rows ``[start, stop)`` of ``path``).
    ``first_document``: the position of its first document in its file (JSONL,
    Parquet) or in its run of text files.  ``stamp``: the size and modification
    time of the files when planned.  ``first_index``: the position of its first
    document in the whole corpus, counted from 0 (the released id under
    ``id_from="index"``).
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
    first_document: int = field(default=0)
    first_index: int = field(default=0)

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
        """A JSON-able description, byte offsets and file sizes included: recognises the
        same partition, read from the same bytes, on resume.  Kept in the run's
        bookkeeping only (removed when the output is published)."""
        return [self.kind, self.path, self.start, self.stop, self.first_line,
                [list(f) for f in self.files], self.n_documents, list(self.stamp)]

    def layout(self, *, named: bool = True) -> list[Any]:
        """A JSON-able description that does not depend on the content of any document:
        files, modification times and document positions — no byte offset, no size.

        This is what the published output records (``_manifest.json``): two corpora
        that differ only in words that are never released have the same layout.  With
        ``named=False`` it names no file and holds no modification time (its kind, the
        position of its first document in its file and its number of documents): what
        a run that releases no path publishes, since an unkeyed digest of paths lets
        anyone test a guessed file name.
        """
        if not named:
            return [self.kind, self.first_document, self.n_documents]
        mtimes = ([int(s[1]) for s in self.stamp] if self.kind == "text"
                  else [int(self.stamp[1])] if self.stamp else [])
        return [self.kind, self.path, [list(f) for f in self.files], self.first_document,
                self.n_documents, mtimes]

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


def default_partition_documents(total_documents: int) -> int:
    """The default number of documents per partition for a corpus of ``total_documents``.

    1/64 of the corpus rounded down to a power of two, within [16, 1024]: at
    least 64 tasks for a corpus of 1024 documents or more, so that the work spreads
    over a few dozen workers.  It depends on the number of documents only (never on
    their size: see :mod:`emprivacy.distributed.plan`), so that a resumed run finds
    the same partitions.

    >>> default_partition_documents(100), default_partition_documents(4976)
    (16, 64)
    >>> default_partition_documents(10**8)
    1024
    """
    wanted = max(1, int(total_documents) // _TARGET_PARTITIONS)
    return min(MAX_DEFAULT_PARTITION_DOCUMENTS,
               max(MIN_DEFAULT_PARTITION_DOCUMENTS, 1 << (wanted.bit_length() - 1)))


@dataclass
class _Source:
    """One input file (or a run of text files) as indexed by the planner.

    ``marks``: ``(position, byte offset, line)`` of the JSONL documents whose
    position in the file is a multiple of the current granularity.
    """

    kind: str
    path: str = ""
    stamp: tuple[Any, ...] = ()
    size: int = 0
    n: int = 0
    files: list[tuple[str, str]] = field(default_factory=list)
    stamps: list[list[int]] = field(default_factory=list)
    marks: list[tuple[int, int, int]] = field(default_factory=list)


class _Planner:
    """Indexes the inputs in one pass, keeping the JSONL cut points at a granularity that
    divides the final partition size.

    With ``partition_documents`` unknown until every document is counted (the
    default), JSONL documents are marked at every multiple of a power of two ``g``
    (starting at the smallest default) that doubles whenever more than
    ``2 × 64 × g`` documents have been seen.  The default partition size, ⌊T/64⌋
    rounded down to a power of two, is at least ``g`` (a doubling to ``g`` needed
    more than ``64 g`` documents), so its multiples are all marked, while at most
    about 128 marks (plus one per file) are kept in memory.
    """

    def __init__(self, partition_documents: int | None) -> None:
        self.fixed = partition_documents
        self.grain = partition_documents or MIN_DEFAULT_PARTITION_DOCUMENTS
        self.sources: list[_Source] = []
        self.ids = UniqueIds()

    def _seen(self) -> None:
        if (self.fixed is None and self.grain < MAX_DEFAULT_PARTITION_DOCUMENTS
                and len(self.ids) > 2 * _TARGET_PARTITIONS * self.grain):
            self.grain *= 2
            for source in self.sources:
                source.marks = [m for m in source.marks if m[0] % self.grain == 0]

    def add_text(self, path: Path) -> None:
        if not self.sources or self.sources[-1].kind != "text":
            self.sources.append(_Source("text"))
        source = self.sources[-1]
        doc_id = str(path)  # the id as given; the file is read anywhere by its absolute path
        check_readable(path)  # now: an unreadable file fails the run before anything is written
        self.ids.add(doc_id, where=f"input file {doc_id!r}")
        source.files.append((doc_id, os.path.abspath(path)))
        source.stamps.append(list(_file_stamp(path)))
        source.n += 1
        self._seen()

    def add_jsonl(self, path: Path) -> None:
        stamp = _file_stamp(path)
        source = _Source("jsonl", os.path.abspath(path), stamp, size=stamp[0])
        self.sources.append(source)
        for lineno, offset, doc_id in jsonl_index(path):
            self.ids.add(doc_id, where=f"{path}:{lineno}")
            if source.n % self.grain == 0:
                source.marks.append((source.n, offset, lineno))
            source.n += 1
            self._seen()

    def add_parquet(self, path: Path) -> None:
        source = _Source("parquet", os.path.abspath(path), _file_stamp(path))
        self.sources.append(source)
        for row, doc_id in enumerate(parquet_ids(path)):
            self.ids.add(doc_id, where=f"{str(path)!r} row {row}")
            source.n += 1
            self._seen()

    def partitions(self) -> list[Partition]:
        size = self.fixed or default_partition_documents(len(self.ids))
        parts: list[Partition] = []
        offset = 0  # documents in the partitions before
        for source in self.sources:
            marks = {m[0]: m for m in source.marks}
            for first in range(0, source.n, size):
                n = min(size, source.n - first)
                index = len(parts)
                if source.kind == "text":
                    parts.append(Partition(
                        index, "text", files=tuple(source.files[first:first + n]),
                        n_documents=n, first_document=first, first_index=offset,
                        stamp=tuple(source.stamps[first:first + n])))
                elif source.kind == "parquet":
                    parts.append(Partition(index, "parquet", source.path, first, first + n,
                                           n_documents=n, stamp=source.stamp,
                                           first_document=first, first_index=offset))
                else:
                    _, start, line = marks[first]
                    stop = marks[first + n][1] if first + n < source.n else source.size
                    parts.append(Partition(index, "jsonl", source.path,
                                           0 if first == 0 else start, stop,
                                           1 if first == 0 else line, n_documents=n,
                                           stamp=source.stamp, first_document=first,
                                           first_index=offset))
                offset += n
        return parts


def plan_partitions(inputs: Iterable[str | os.PathLike[str]], *,
                    partition_documents: int | None = None) -> list[Partition]:
    """Cut the inputs into partitions of ``partition_documents`` documents each.

    ``partition_documents=None`` uses :func:`default_partition_documents` of the
    number of documents in the corpus.

    Inputs are expanded as by :func:`emprivacy.io.corpus.iter_documents` (standard
    input excepted).  Every input file's documents are cut into runs of
    ``partition_documents`` (the last run of a file may be shorter; consecutive
    text files, one document each, form one run): the plan depends on the number
    of documents in each file, never on their size.  Partitions refer to files by
    absolute path, so that workers in another directory find them.  Documents keep
    the identifiers of the single-process reader: the file path for a text file,
    the ``id`` field (or ``"<file name>:<line>"``) for JSONL, the ``id`` column (as
    a string) for Parquet.

    Planning reads every document's identifier once (each JSONL file is read and
    parsed once, sequentially; of a Parquet file only the ``id`` column), so a
    malformed JSONL line, a null Parquet ``id`` or an identifier that appears twice
    in the corpus fails here, before any document is obfuscated, with the message
    of the single-process reader.

    The plan is deterministic: the same inputs (same sizes and modification
    times) give the same partitions, which is what ``resume`` relies on.

    Raises
    ------
    InputError
        A missing, unreadable or malformed input, standard input, or a repeated
        document identifier (naming it and both positions).
    """
    if partition_documents is not None:
        partition_documents = check_positive_int(partition_documents, "partition_documents")
    files = []
    for item in expand_inputs(inputs):
        if item.kind == "stdin":
            raise InputError("standard input cannot be partitioned; write it to a file first")
        files.append(item)
    planner = _Planner(partition_documents)
    for item in files:
        if item.kind == "text":
            planner.add_text(item.path)
        elif item.kind == "jsonl":
            planner.add_jsonl(item.path)
        else:
            planner.add_parquet(item.path)
    return planner.partitions()


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
