"""Obfuscating corpora larger than one machine: Alg. 2 partition by partition, on Dask.

The corpus is cut into *partitions* (runs of documents of about
``partition_bytes`` of input each), and every partition is obfuscated by one
task — on the workers of a :class:`distributed.Client`, or one after the other in
this process when no client is given.  The mechanism itself is unchanged: each
document goes through :class:`emprivacy.obfuscation.Obfuscator` (Alg. 2 with the
n-dimensional Laplace noise of Thm. 2), and draws its noise from its own ChaCha20
stream keyed by the run's secret key and the document's identifier
(:func:`emprivacy.randomness.document_generator`).  The output therefore does not
depend on how the corpus is partitioned, nor on which worker obfuscates which
partition: with a fixed ``seed`` a distributed run writes exactly the records of
a single-process run, in the same order.

Exactly once
------------
A task writes its partition to a file with a fixed name (``part-00012.jsonl`` or
``part-00012.parquet``) through a temporary file and an atomic rename, then a
small status file recording what it wrote (document count, skipped identifiers,
SHA-256 of the data file).  A task that is run twice — Dask re-runs the tasks of
a worker that died — rewrites the same file, so a partition can never appear
twice.  At the end every partition's data file is read back: its hash must match
its status file, every input document must be either written or skipped (empty)
and no identifier may appear twice in the whole corpus; otherwise the run fails
with :class:`CorpusRunError` and nothing is published.  Only then is the JSONL
output merged (atomically) or the Parquet ``_manifest.json`` written.  With
``resume=True`` the partitions whose files are complete and intact are kept and
only the others are obfuscated.

Where the embeddings come from
------------------------------
Two ways, both sending the (large) embeddings to each worker once, never with
each task:

* :class:`MechanismSettings` (recommended on a real cluster): every worker
  process loads the embeddings itself from a path it can read (or the built-in
  default), the first time it needs them, and keeps the mechanism in a
  per-process cache for all later tasks.  Nothing large crosses the network.
* an :class:`~emprivacy.mechanism.EarthMoversPrivacy` instance (convenient for
  in-memory or hand-built embeddings): it is scattered once to every worker
  (``client.scatter(..., broadcast=True)``); a replacement worker copies it from
  a peer.  Its decoder keeps the thread count it was built with: build it with
  ``ExactDecoder(embeddings, n_threads=1)`` for single-threaded workers.

A worker process obfuscates one partition at a time (the decoder is not meant to
be called from two threads at once); with settings, its decoder uses the
worker's threads.  One thread per worker process, one process per core, is the
intended shape.

Either way the workers report the SHA-256 fingerprint of the embeddings they
used; a run whose partitions disagree fails instead of mixing two vocabularies.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import secrets
import shutil
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._validation import check_choice, check_epsilon, check_positive_int
from .corpus import Document, read_text_file
from .decoding import Decoder, ExactDecoder
from .embeddings import Embeddings, load_embeddings
from .exceptions import CorpusRunError, InputError, PrivacyLeakWarning
from .mechanisms import EarthMoversPrivacy
from .obfuscation import ObfuscationConfig, Obfuscator
from .outputs import atomic_output, format_record, write_bytes_atomic

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

__all__ = [
    "DEFAULT_PARTITION_BYTES",
    "CorpusSummary",
    "MechanismSettings",
    "Partition",
    "dask_client",
    "default_partition_bytes",
    "obfuscate_corpus",
    "plan_partitions",
    "read_partition",
]

#: Largest default amount of input per partition (bytes): about 170,000 words, i.e.
#: tens of seconds of work for one core with 100k-word exact decoding.
DEFAULT_PARTITION_BYTES = 1 << 20
#: Smallest default partition (bytes), so that per-task overheads stay negligible.
MIN_DEFAULT_PARTITION_BYTES = 1 << 16

_FORMATS = ("jsonl", "bag", "parquet")
_STATUS_DIR = "_status"
_RUN_FILE = "_run.json"
_MANIFEST = "_manifest.json"
_LAYOUT_VERSION = 1


# -- how the workers get the mechanism ----------------------------------------------------
@dataclass(frozen=True)
class MechanismSettings:
    """How each worker builds the mechanism: it loads the embeddings itself, once per process.

    Parameters
    ----------
    epsilon : float
        Per-word ε of Alg. 2 (bags of size N get εN·E-privacy, Thm. 4).
    embeddings : str or path-like, optional
        An embeddings file every worker can read at this path (a shared or
        replicated file system); ``None`` is the built-in GloVe 6B 50d.
    vocab_size : int or None, default 100_000
        As for :func:`emprivacy.load_embeddings`.
    decoder : {"exact", "approximate"}
        How ``Vec⁻¹`` is computed (post-processing; same guarantee, Lemma 3).
    loader : callable, optional
        A picklable function of no argument returning the
        :class:`~emprivacy.embeddings.Embeddings` (e.g. a
        ``functools.partial`` of a module-level function); replaces
        ``embeddings``/``vocab_size``.
    index_cache_dir : str or path-like, optional
        Where the approximate decoder's index is cached
        (:class:`~emprivacy.approximate.ApproximateDecoder`); default: each
        worker's ``$EMPRIVACY_CACHE_DIR`` or ``~/.cache/emprivacy``.  On a
        directory every worker shares, the index is built once for the cluster
        (by the run's first task) and loaded by every other worker.

    Notes
    -----
    The mechanism is cached per worker process under a key made of these
    settings, so all the tasks a worker runs share one copy; only the most
    recently used mechanism is kept.
    """

    epsilon: float
    embeddings: str | None = None
    vocab_size: int | None = 100_000
    decoder: str = "exact"
    loader: Callable[[], Embeddings] | None = field(default=None, compare=False)
    index_cache_dir: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        if self.embeddings is not None:
            object.__setattr__(self, "embeddings", os.fspath(self.embeddings))
        if self.index_cache_dir is not None:
            object.__setattr__(self, "index_cache_dir", os.fspath(self.index_cache_dir))
        if self.vocab_size is not None:
            object.__setattr__(self, "vocab_size", check_positive_int(self.vocab_size,
                                                                      "vocab_size"))
        check_choice(self.decoder, "decoder", ("exact", "approximate"))
        if self.loader is not None and not callable(self.loader):
            raise TypeError(f"loader must be callable; got {type(self.loader).__name__}")

    @property
    def cache_key(self) -> str:
        """A stable digest of the settings (the loader by its pickled form)."""
        import cloudpickle

        h = hashlib.sha256(repr((self.epsilon, self.embeddings, self.vocab_size,
                                 self.decoder, self.index_cache_dir)).encode())
        if self.loader is not None:
            h.update(cloudpickle.dumps(self.loader))
        return h.hexdigest()

    def build(self, *, n_threads: int | None = None) -> EarthMoversPrivacy:
        """Load the embeddings and build the mechanism (what a worker does once).

        ``n_threads``: threads of the decoder (default: every core); a Dask worker
        passes its own thread count, so that K worker processes of one thread each
        use K cores, not K × cores.
        """
        if self.loader is not None:
            emb = self.loader()
            if not isinstance(emb, Embeddings):
                raise TypeError(f"loader must return an Embeddings; got {type(emb).__name__}")
        else:
            emb = load_embeddings(self.embeddings, vocab_size=self.vocab_size)
        decoder: str | Decoder = self.decoder
        if decoder == "exact" and n_threads is not None:
            decoder = ExactDecoder(emb, n_threads=n_threads)
        elif decoder == "approximate":  # loaded from the cache, or built and cached
            from .approximate import ApproximateDecoder

            decoder = ApproximateDecoder(emb, cache_dir=self.index_cache_dir,
                                         n_threads=n_threads)
        return EarthMoversPrivacy(emb, epsilon=self.epsilon, decoder=decoder)


_CACHE: dict[str, EarthMoversPrivacy] = {}
_CACHE_LOCK = threading.Lock()
#: One partition at a time per process: a decoder is used from one thread at a time, and
#: it already uses the worker's threads itself.
_TASK_LOCK = threading.Lock()


def _worker_threads() -> int | None:
    """The thread count of the Dask worker running this code, or ``None`` outside one."""
    try:
        from distributed import get_worker

        return int(get_worker().state.nthreads)
    except (ImportError, ValueError):
        return None


def _cached_mechanism(settings: MechanismSettings) -> EarthMoversPrivacy:
    """The mechanism of ``settings`` for this process: built on first use, then reused."""
    key = settings.cache_key
    with _CACHE_LOCK:
        mech = _CACHE.get(key)
        if mech is None:
            _CACHE.clear()  # one mechanism per process: bounded memory on shared clusters
            mech = _CACHE[key] = settings.build(n_threads=_worker_threads())
        return mech


def _clear_cache() -> None:
    with _CACHE_LOCK:
        _CACHE.clear()


# -- partitions ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Partition:
    """A run of input documents obfuscated by one task.

    ``kind`` is ``"text"`` (``files``: ``(id, path)`` of text files, one document
    each), ``"jsonl"`` (lines of ``path`` in bytes ``[start, stop)``, the first
    being line ``first_line``) or ``"parquet"`` (rows ``[start, stop)`` of ``path``).
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


def _file_stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns


def _expand_inputs(inputs: Iterable[str | os.PathLike[str]]) -> Iterator[tuple[str, Path]]:
    """(kind, path) of every input file, in order; directories expanded (sorted)."""
    for item in inputs:
        if str(item) == "-":
            raise InputError("standard input cannot be partitioned; write it to a file first")
        p = Path(item)
        if p.is_dir():
            files = sorted(f for f in p.rglob("*.txt") if f.is_file())
            kind = "text"
            if not files:
                files = sorted(f for f in p.rglob("*.parquet") if f.is_file())
                kind = "parquet"
            if not files:
                raise InputError(f"input directory {str(p)!r} holds no *.txt or *.parquet "
                                 "file")
            for f in files:
                yield kind, f
        elif p.is_file():
            suffix = p.suffix.lower()
            yield ("jsonl" if suffix == ".jsonl" else "parquet" if suffix == ".parquet"
                   else "text"), p
        else:
            raise InputError(f"input file {str(p)!r} does not exist")


def _is_blank(raw: bytes) -> bool:
    """Whether a JSONL line is blank as ``str.strip`` sees it (the single-process rule)."""
    s = raw.strip()
    if not s:
        return True
    if s[0] < 0x80:
        return False
    return not raw.decode("utf-8", "replace").strip()


def _plan_jsonl(path: Path, partition_bytes: int) -> Iterator[tuple[int, int, int, int]]:
    """(start, stop, first_line, n_documents) byte ranges of whole lines."""
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") from None
    with fh:
        start = offset = 0
        first_line = lineno = 1
        docs = 0
        for line in fh:
            offset += len(line)
            lineno += 1
            if not _is_blank(line):
                docs += 1
            if offset - start >= partition_bytes:
                yield start, offset, first_line, docs
                start, first_line, docs = offset, lineno, 0
        if offset > start:
            yield start, offset, first_line, docs


def _check_parquet_schema(path: Path) -> Any:
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


def _plan_parquet(path: Path, partition_bytes: int) -> Iterator[tuple[int, int]]:
    """Row ranges of about ``partition_bytes`` of (uncompressed) text each."""
    meta = _check_parquet_schema(path).metadata
    row = 0
    for g in range(meta.num_row_groups):
        rg = meta.row_group(g)
        n = rg.num_rows
        if n == 0:
            continue
        size = max(1, rg.total_byte_size)
        step = max(1, (partition_bytes * n) // size)
        for s in range(0, n, step):
            yield row + s, row + min(n, s + step)
        row += n


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

    Text files (one document each) are grouped in input order; JSONL files are
    cut at line boundaries; Parquet files at row boundaries.  Partitions refer
    to files by absolute path, so that workers in another directory find them.  Documents keep the
    identifiers of the single-process reader (:func:`emprivacy.corpus.iter_documents`):
    the file path for a text file, the ``id`` field (or ``"<file name>:<line>"``)
    for JSONL, the ``id`` column (as a string) for Parquet.

    The plan is deterministic: the same inputs (same sizes and modification
    times) give the same partitions, which is what ``resume`` relies on.
    """
    if partition_bytes is not None:
        partition_bytes = check_positive_int(partition_bytes, "partition_bytes")
    files = list(_expand_inputs(inputs))
    if partition_bytes is None:
        partition_bytes = default_partition_bytes(sum(_file_stamp(f)[0] for _, f in files))
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

    for kind, path in files:
        if kind == "text":
            size, mtime = _file_stamp(path)
            pending.append((str(path), os.path.abspath(path)))  # id as given; read anywhere
            stamps.append([size, mtime])
            pending_bytes += size
            if pending_bytes >= partition_bytes:
                flush_text()
            continue
        flush_text()
        stamp = _file_stamp(path)
        if kind == "jsonl":
            for start, stop, first, docs in _plan_jsonl(path, partition_bytes):
                parts.append(Partition(len(parts), "jsonl", os.path.abspath(path), start, stop,
                                       first, n_documents=docs, stamp=stamp))
        else:
            for start, stop in _plan_parquet(path, partition_bytes):
                parts.append(Partition(len(parts), "parquet", os.path.abspath(path), start, stop,
                                       n_documents=stop - start, stamp=stamp))
    flush_text()
    return parts


def _jsonl_document(path: str, lineno: int, raw: bytes) -> Document:
    """One JSONL line as a document; the same rules and messages as the single-process reader."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"input file {path!r} is not valid UTF-8 (line {lineno}, byte "
                         f"{exc.start})") from None
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        raise InputError(f"{path}:{lineno}: not a valid JSON object") from None
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        raise InputError(f"{path}:{lineno}: expected a JSON object with a string 'text' field")
    doc_id = record.get("id", f"{Path(path).name}:{lineno}")
    if not isinstance(doc_id, str | int) or isinstance(doc_id, bool):
        raise InputError(f"{path}:{lineno}: 'id' must be a string or an integer")
    return Document(str(doc_id), record["text"])


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
        try:
            fh = open(part.path, "rb")
        except OSError as exc:
            raise InputError(f"cannot read input file {part.path!r}: {exc.strerror}") from None
        with fh:
            fh.seek(part.start)
            data = fh.read(part.stop - part.start)
        return [_jsonl_document(part.path, part.first_line + k, raw)
                for k, raw in enumerate(data.split(b"\n")) if not _is_blank(raw)]
    if part.kind == "parquet":
        return _read_parquet_rows(part)
    raise ValueError(f"unknown partition kind {part.kind!r}")


def _read_parquet_rows(part: Partition) -> list[Document]:
    import pyarrow as pa

    pf = _check_parquet_schema(Path(part.path))
    meta = pf.metadata
    groups, first_row, row = [], None, 0
    for g in range(meta.num_row_groups):
        n = meta.row_group(g).num_rows
        if row + n > part.start and row < part.stop:
            groups.append(g)
            if first_row is None:
                first_row = row
        row += n
    if not groups:
        return []
    try:
        table = pf.read_row_groups(groups, columns=["id", "text"])
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"cannot read input file {part.path!r} as Parquet: {exc}") from None
    offset = part.start - (first_row or 0)
    table = table.slice(offset, part.stop - part.start)
    ids = table.column("id").to_pylist()
    texts = table.column("text").to_pylist()
    docs = []
    for k, (doc_id, text) in enumerate(zip(ids, texts, strict=True)):
        if doc_id is None or text is None:
            column = "id" if doc_id is None else "text"
            raise InputError(f"input file {part.path!r} row {part.start + k}: {column!r} is "
                             "null")
        docs.append(Document(str(doc_id), text))
    return docs


# -- the task ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Job:
    """What every task needs besides its partition; scattered to the workers once."""

    mechanism: EarthMoversPrivacy | MechanismSettings = field(repr=False)
    seed: int | None
    run_key: bytes | None = field(repr=False)  # the secret key of an unseeded run
    size: int | None
    options: tuple[tuple[str, Any], ...]
    kind: str  # "jsonl" or "parquet"
    parts_dir: str

    def get_mechanism(self) -> EarthMoversPrivacy:
        if isinstance(self.mechanism, MechanismSettings):
            return _cached_mechanism(self.mechanism)
        return self.mechanism

    def obfuscator(self, mech: EarthMoversPrivacy) -> Obfuscator:
        # an unseeded run: the one secret key shared by all tasks
        return Obfuscator(mech, ObfuscationConfig(size=self.size, **dict(self.options)),
                          seed=self.seed, run_key=self.run_key, on_warning=lambda msg: None)


def _probe(job: _Job) -> dict[str, Any]:
    """Build the mechanism (warming the worker's cache); its metadata and fingerprint."""
    mech = job.get_mechanism()
    return {"metadata": job.obfuscator(mech).metadata(),
            "fingerprint": mech.embeddings.fingerprint}


def _encode_records(records: list[dict[str, Any]], kind: str) -> bytes:
    if kind == "jsonl":
        return "".join(format_record(r, "jsonl") + "\n" for r in records).encode("utf-8")
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(pa.Table.from_pylist(records), sink)
    return sink.getvalue().to_pybytes()


def _sizes_planned(part: Partition) -> list[int]:
    if part.kind == "text":
        return [int(stamp[0]) for stamp in part.stamp]
    return [int(part.stamp[0])]


def _sizes_now(part: Partition) -> list[int] | None:
    """Sizes of the partition's files now; ``None`` if one is missing (reading names it)."""
    paths = [path for _, path in part.files] if part.kind == "text" else [part.path]
    try:
        return [os.stat(path).st_size for path in paths]
    except OSError:
        return None


def _process_partition(part: Partition, job: _Job, digests: tuple[str, str]
                       ) -> dict[str, Any]:
    """Obfuscate one partition, write its data file and status file atomically.

    Returns the status record, or ``{"error": message}`` for bad input (which
    retrying cannot fix).
    """
    mech = job.get_mechanism()
    sizes = _sizes_now(part)
    if sizes is not None and sizes != _sizes_planned(part):
        return {"error": f"input {part.describe()} changed since the run was planned (its size "
                         "differs); start a new run", "partition": part.index}
    try:
        docs = read_partition(part)
    except InputError as exc:
        return {"error": str(exc), "partition": part.index}
    if len(docs) != part.n_documents:
        return {"error": f"input {part.describe()} changed since the run was planned "
                         f"({len(docs)} documents instead of {part.n_documents})",
                "partition": part.index}
    seen: set[str] = set()
    for doc in docs:
        if doc.id in seen:
            return {"error": f"duplicate document id {doc.id!r}; ids must be unique",
                    "partition": part.index}
        seen.add(doc.id)
    obf = job.obfuscator(mech)
    records: list[dict[str, Any]] = []
    if docs:
        try:
            with _TASK_LOCK:
                records.extend(obf.obfuscate(docs))
        except InputError as exc:
            # a partition of only empty documents is not an error (the corpus may have others)
            if not (obf.documents_written == 0 and obf.documents_skipped == len(docs)):
                return {"error": str(exc), "partition": part.index}
    written = {r["id"] for r in records}
    skipped = [d.id for d in docs if d.id not in written]
    parts_dir = Path(job.parts_dir)
    data_name = f"{part.name}.{job.kind}"
    if records:
        data = _encode_records(records, job.kind)
        write_bytes_atomic(parts_dir / data_name, data)
        digest, nbytes = hashlib.sha256(data).hexdigest(), len(data)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(parts_dir / data_name)
        data_name, digest, nbytes = None, None, 0
    status = {
        "partition": part.index,
        "plan": digests[0],
        "settings": digests[1],
        "fingerprint": mech.embeddings.fingerprint,
        "file": data_name,
        "sha256": digest,
        "bytes": nbytes,
        "documents": len(docs),
        "records": len(records),
        "words": sum(int(r["n_words"]) for r in records),
        "skipped": skipped,
    }
    write_bytes_atomic(parts_dir / _STATUS_DIR / f"{part.name}.json",
                  json.dumps(status, ensure_ascii=False).encode("utf-8"))
    return status


# -- the driver ---------------------------------------------------------------------------
@dataclass(frozen=True)
class CorpusSummary:
    """What :func:`obfuscate_corpus` did.

    ``documents`` input documents: ``documents_written`` obfuscated (``words``
    noisy words in all) and the ``skipped`` ones empty after normalisation.
    ``partitions_reused`` partitions were already complete (``resume``).
    """

    output: str
    format: str
    documents: int
    documents_written: int
    words: int
    skipped: tuple[str, ...]
    partitions: int
    partitions_computed: int
    partitions_reused: int
    metadata: dict[str, Any]


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False)
                          .encode("utf-8")).hexdigest()


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            value = json.load(fh)
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _sha256_file(path: Path) -> tuple[str, bytes] | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest(), data


def _complete_status(parts_dir: Path, part: Partition, digests: tuple[str, str]
                     ) -> dict[str, Any] | None:
    """The status of a partition whose files are complete and intact, else ``None``."""
    status = _read_json(parts_dir / _STATUS_DIR / f"{part.name}.json")
    if (status is None or status.get("plan") != digests[0]
            or status.get("settings") != digests[1]
            or status.get("partition") != part.index
            or status.get("documents") != part.n_documents):
        return None
    if status.get("file") is None:
        return status if status.get("records") == 0 else None
    got = _sha256_file(parts_dir / status["file"])
    if got is None or got[0] != status.get("sha256"):
        return None
    return status


def _check_client(client: Any) -> None:
    from distributed import Client

    if not isinstance(client, Client):
        raise TypeError(f"client must be a distributed.Client or None; got "
                        f"{type(client).__name__}")


def _output_layout(output: Path, fmt: str) -> tuple[str, Path]:
    """(kind of the partition files, directory holding them)."""
    if fmt == "parquet":
        return "parquet", output
    return "jsonl", output.with_name(output.name + ".parts")


def _prepare_parts_dir(parts_dir: Path, output: Path, fmt: str, resume: bool,
                       run_info: dict[str, Any]) -> dict[str, Any] | None:
    """Create or check the partition directory; the manifest if the run is already complete."""
    if fmt == "parquet":
        if output.exists() and not output.is_dir():
            raise ValueError(f"Parquet output {str(output)!r} must be a directory; a file of "
                             "that name exists")
        manifest = _read_json(output / _MANIFEST)
        if manifest is not None:
            if not resume:
                raise ValueError(f"output directory {str(output)!r} already holds a completed "
                                 "run (_manifest.json); choose a new output directory")
            if manifest.get("run") != run_info:
                raise ValueError(f"output directory {str(output)!r} holds a completed run "
                                 "with other inputs or settings; choose a new output "
                                 "directory")
            return manifest
    elif resume and output.exists() and not parts_dir.exists():
        raise ValueError(f"nothing to resume: {str(output)!r} exists and no interrupted run "
                         f"({str(parts_dir)!r}) was found; remove the output to start again")
    if not parts_dir.parent.is_dir():
        raise ValueError(f"output directory {str(parts_dir.parent)!r} does not exist")
    existing = _read_json(parts_dir / _RUN_FILE)
    busy = parts_dir.is_dir() and any(parts_dir.iterdir())
    if busy and existing is None:
        raise ValueError(f"output directory {str(parts_dir)!r} is not empty and holds no "
                         "interrupted run; choose a new or empty directory")
    if busy and not resume:
        raise ValueError(f"{str(parts_dir)!r} already holds an interrupted run; pass "
                         "resume=True (--resume) to continue it, or remove it")
    if busy and existing != run_info:
        what = "other inputs" if existing.get("plan") != run_info["plan"] else "other settings"
        raise ValueError(f"cannot resume: {str(parts_dir)!r} was written with {what}; use a "
                         "new output, or remove it to start again")
    (parts_dir / _STATUS_DIR).mkdir(parents=True, exist_ok=True)
    if existing is None:
        write_bytes_atomic(parts_dir / _RUN_FILE, json.dumps(run_info, sort_keys=True).encode())
    return None


def obfuscate_corpus(
    inputs: Sequence[str | os.PathLike[str]] | str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    mechanism: EarthMoversPrivacy | MechanismSettings,
    client: Client | None = None,
    size: int | None = None,
    seed: int | None = None,
    format: str | None = None,
    resume: bool = False,
    partition_bytes: int | None = None,
    retries: int = 2,
    obfuscator_options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> CorpusSummary:
    """Obfuscate a corpus with Alg. 2, partition by partition, on a Dask cluster.

    Every document's bag of words ``b`` (Def. 1), truncated to ``size`` words if
    given, becomes a noisy bag ``Alg2(b)``; for bags of size N the release is
    εN·E-private (Thm. 4).  Each document draws its noise from its own stream,
    keyed by the run's secret key and its identifier, so the output does not
    depend on the partitioning: with ``seed`` it equals that of the
    single-process :class:`~emprivacy.obfuscation.Obfuscator`, record for record.

    Parameters
    ----------
    inputs : path-like or sequence of path-like
        Directories of ``*.txt`` files (or, if they hold none, of ``*.parquet``
        files), text files, ``.jsonl`` files (``{"id": ..., "text": ...}`` per
        line) and ``.parquet`` files with an ``id`` and a ``text`` column.  On a
        cluster every worker must be able to read them at the same paths.
    output : path-like
        ``format="parquet"``: a directory of ``part-NNNNN.parquet`` files plus a
        ``_manifest.json`` (the default when the name ends in ``.parquet``).
        Otherwise one file, merged at the end from ``<output>.parts/``.  On a
        cluster the workers write the partition files, so this must be on
        storage every worker and this process can reach.
    mechanism : MechanismSettings or EarthMoversPrivacy
        Settings: each worker loads the embeddings itself, once per process.
        A mechanism: scattered once to every worker.
    client : distributed.Client, optional
        The cluster to run on; ``None`` runs the partitions one after the other
        in this process (same files, same resume).
    size : int, optional
        The fixed bag size N (see :class:`~emprivacy.obfuscation.Obfuscator`).
    seed : int, optional
        Reproducible noise — **not for real releases**.  ``None``: a secret
        random run key, sent to the workers with the job (use TLS on an
        untrusted network) and never written to disk.
    format : {"jsonl", "bag", "parquet"}, optional
        Output format (``"bag"``: the noisy words, one line per document, as the
        single-process command line).
    resume : bool
        Keep the partitions already complete in the output directory (verified by
        their SHA-256) and obfuscate only the others.  Resume with the same
        ``seed``: it is not stored and cannot be checked.
    partition_bytes : int, optional
        About this much input per partition (and per task); by default 1/64 of
        the input, within [64 KiB, 1 MiB] (:func:`default_partition_bytes`).
    retries : int
        Dask re-runs a task that raised up to this many times; tasks of a worker
        that died are re-run by the scheduler (``distributed.scheduler.allowed-failures``).
    obfuscator_options : mapping, optional
        Further keyword arguments of :class:`~emprivacy.obfuscation.Obfuscator`.
    progress : callable, optional
        Called as ``progress(documents_done, documents_total)`` after each partition.

    Returns
    -------
    CorpusSummary

    Raises
    ------
    InputError
        Bad input (naming the file and line/row or the document id), including an
        id that appears twice in the corpus or a document with no word in the
        vocabulary.
    CorpusRunError
        A partition failed for good or the written output did not verify.
        Completed partitions are kept: re-run with ``resume=True``.
    """
    if isinstance(inputs, str | os.PathLike):
        inputs = [inputs]
    inputs = list(inputs)
    if not inputs:
        raise InputError("no input documents")
    if not isinstance(mechanism, EarthMoversPrivacy | MechanismSettings):
        raise TypeError("mechanism must be an EarthMoversPrivacy or a MechanismSettings; got "
                        f"{type(mechanism).__name__}")
    if client is not None:
        _check_client(client)
    if size is not None:
        size = check_positive_int(size, "size")
    retries = int(retries)
    if retries < 0:
        raise ValueError(f"retries must be an integer >= 0; got {retries}")
    output = Path(output)
    if format is None:
        format = "parquet" if output.suffix.lower() == ".parquet" else "jsonl"
    check_choice(format, "format", _FORMATS)
    if format != "parquet" and output.is_dir():
        raise ValueError(f"output {str(output)!r} is a directory; give a file name, or "
                         "format='parquet' for a directory of Parquet files")
    kind, parts_dir = _output_layout(output, format)
    options = tuple(sorted((obfuscator_options or {}).items()))
    if client is not None and dict(options).get("oov") == "keep":  # workers warn in their logs
        warnings.warn("out-of-vocabulary words are released unchanged (oov='keep'): the "
                      "privacy guarantee does not cover them; each record counts them in "
                      "'oov_kept'", PrivacyLeakWarning, stacklevel=2)

    plan = plan_partitions(inputs, partition_bytes=partition_bytes)
    total_docs = sum(p.n_documents for p in plan)
    if total_docs == 0:
        raise InputError("no input documents")
    plan_digest = _digest([p.descriptor() for p in plan])
    run_key = None if seed is not None else secrets.token_bytes(32)
    job = _Job(mechanism, seed, run_key, size, options, kind, str(parts_dir.absolute()))

    with _Runner(client, job) as runner:
        probe = runner.probe()
        settings = {"metadata": probe["metadata"], "fingerprint": probe["fingerprint"],
                    "size": size, "options": [[k, repr(v)] for k, v in options],
                    "layout": _LAYOUT_VERSION, "kind": kind}
        run_info = {"plan": plan_digest, "partitions": len(plan), "documents": total_docs,
                    "settings": settings}
        digests = (plan_digest, _digest(settings))
        manifest = _prepare_parts_dir(parts_dir, output, format, resume, run_info)
        if manifest is not None:  # resume of a run that had already completed
            if progress:
                progress(total_docs, total_docs)
            return _summary_from_manifest(manifest, output, format, reused=len(plan))
        done: dict[int, dict[str, Any]] = {}
        if resume:
            for part in plan:
                status = _complete_status(parts_dir, part, digests)
                if status is not None:
                    done[part.index] = status
        reused = len(done)
        todo = [p for p in plan if p.index not in done]
        docs_done = sum(s["documents"] for s in done.values())
        if progress:
            progress(docs_done, total_docs)
        for part, status in runner.run(todo, digests, retries):
            if "error" in status:
                raise InputError(status["error"])
            done[part.index] = status
            docs_done += part.n_documents
            if progress:
                progress(docs_done, total_docs)
    return _finish(plan, parts_dir, output, format, job, digests, probe, run_info,
                   computed=len(todo), reused=reused)


class _Runner:
    """Runs partition tasks in this process or on a Dask client; cancels what is left."""

    def __init__(self, client: Client | None, job: _Job) -> None:
        self.client = client
        self.job = job
        self._job_future: Any = None
        self._pending: dict[Any, Any] = {}

    def __enter__(self) -> _Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.client is None:
            return
        with contextlib.suppress(OSError, TimeoutError):  # the cluster may be going down
            if self._pending:
                self.client.cancel(list(self._pending.values()))
            self._pending = {}
            if self._job_future is not None:
                self.client.cancel([self._job_future])
                self._job_future = None
            if isinstance(self.job.mechanism, MechanismSettings):  # free the workers' memory
                self.client.run(_clear_cache, on_error="ignore")

    def _scatter(self) -> Any:
        if self._job_future is None:
            self._job_future = self.client.scatter(self.job, broadcast=True, hash=False)
        return self._job_future

    def probe(self) -> dict[str, Any]:
        if self.client is None:
            return _probe(self.job)
        fut = self.client.submit(_probe, self._scatter(), pure=False)
        try:
            return fut.result()
        finally:
            fut.release()

    def run(self, todo: list[Partition], digests: tuple[str, str], retries: int
            ) -> Iterator[tuple[Partition, dict[str, Any]]]:
        if self.client is None:
            for part in todo:
                yield part, _process_partition(part, self.job, digests)
            return
        if not todo:
            return
        from distributed import as_completed

        job = self._scatter()
        token = secrets.token_hex(4)
        futures = self.client.map(_process_partition, todo, job=job, digests=digests,
                                  retries=retries, pure=False,
                                  key=[f"emprivacy-{p.name}-{token}" for p in todo])
        self._pending = {f.key: f for f in futures}
        by_key = {f.key: p for f, p in zip(futures, todo, strict=True)}
        completed = as_completed(futures)
        del futures
        for fut in completed:
            part = by_key[fut.key]
            try:
                status = fut.result()
            except Exception as exc:
                raise CorpusRunError(
                    f"partition {part.index} ({part.describe()}) failed: "
                    f"{type(exc).__name__}: {exc}; completed partitions are kept in "
                    f"{self.job.parts_dir!r} — re-run with --resume to continue") from None
            del self._pending[fut.key]  # drop our reference: the result is on disk
            yield part, status


def _summary_from_manifest(manifest: dict[str, Any], output: Path, fmt: str, *, reused: int
                           ) -> CorpusSummary:
    return CorpusSummary(str(output), fmt, manifest["documents"],
                         manifest["documents_written"], manifest["words"],
                         tuple(manifest["skipped"]), len(manifest["partitions"]), 0, reused,
                         manifest["metadata"])


def _verify_statuses(plan: list[Partition], parts_dir: Path, digests: tuple[str, str]
                     ) -> list[dict[str, Any]]:
    statuses = []
    fingerprints = set()
    for part in plan:
        status = _read_json(parts_dir / _STATUS_DIR / f"{part.name}.json")
        if status is None:
            raise CorpusRunError(f"partition {part.index} ({part.describe()}) has no status "
                                 "file: it was never completed; re-run with --resume")
        if (status.get("plan") != digests[0] or status.get("settings") != digests[1]
                or status.get("documents") != part.n_documents):
            raise CorpusRunError(f"partition {part.index} was written by another run or with "
                                 "other settings; re-run with --resume")
        written = status["records"]
        if written + len(status["skipped"]) != part.n_documents:
            raise CorpusRunError(f"partition {part.index}: {written} written + "
                                 f"{len(status['skipped'])} skipped != {part.n_documents} "
                                 "input documents")
        fingerprints.add(status["fingerprint"])
        statuses.append(status)
    if len(fingerprints) > 1:
        short = ", ".join(sorted(f[:12] for f in fingerprints))
        raise CorpusRunError(f"partitions were obfuscated with different embeddings "
                             f"(fingerprints {short}): check that every worker reads the "
                             "same embeddings file")
    return statuses


def _part_data(parts_dir: Path, part: Partition, status: dict[str, Any]) -> bytes:
    got = _sha256_file(parts_dir / status["file"])
    if got is None:
        raise CorpusRunError(f"partition {part.index}: data file {status['file']!r} is "
                             "missing; re-run with --resume")
    if got[0] != status["sha256"]:
        raise CorpusRunError(f"partition {part.index}: data file {status['file']!r} does not "
                             "match its status (written twice concurrently?); re-run with "
                             "--resume")
    return got[1]


class _IdChecker:
    """Every document id exactly once in the whole corpus."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def add(self, doc_id: str) -> None:
        if doc_id in self.seen:
            raise InputError(f"duplicate document id {doc_id!r}; ids must be unique")
        self.seen.add(doc_id)


def _all_empty(skipped: list[str]) -> InputError:
    """The single-process path's error for a corpus of empty documents."""
    return InputError(f"every input document is empty after normalisation ({len(skipped)}, "
                      f"first {skipped[0]!r}); nothing to release")


def _finish(plan: list[Partition], parts_dir: Path, output: Path, fmt: str, job: _Job,
            digests: tuple[str, str], probe: dict[str, Any], run_info: dict[str, Any], *,
            computed: int, reused: int) -> CorpusSummary:
    """Verify every partition, then publish: merge the JSONL output or write the manifest."""
    statuses = _verify_statuses(plan, parts_dir, digests)
    ids = _IdChecker()
    skipped: list[str] = []
    written = words = 0
    parts_meta = []
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        for part, status in zip(plan, statuses, strict=True):
            if status["file"] is not None:
                data = _part_data(parts_dir, part, status)
                table = pq.read_table(pa.BufferReader(data), columns=["id"])
                part_ids = table.column("id").to_pylist()
                if len(part_ids) != status["records"]:
                    raise CorpusRunError(f"partition {part.index}: {len(part_ids)} rows in "
                                         f"{status['file']!r}, expected {status['records']}")
                for doc_id in part_ids:
                    ids.add(doc_id)
            for doc_id in status["skipped"]:
                ids.add(doc_id)
            skipped.extend(status["skipped"])
            written += status["records"]
            words += status["words"]
            parts_meta.append({k: status[k] for k in ("file", "sha256", "bytes", "documents",
                                                      "records", "words")})
        if written == 0:
            raise _all_empty(skipped)
        manifest = {"run": run_info, "metadata": probe["metadata"], "documents": len(ids.seen),
                    "documents_written": written, "words": words, "skipped": skipped,
                    "partitions": parts_meta, "size": job.size, "seeded": job.seed is not None}
        write_bytes_atomic(output / _MANIFEST, json.dumps(manifest, ensure_ascii=False,
                                                     indent=1).encode("utf-8"))
        shutil.rmtree(output / _STATUS_DIR, ignore_errors=True)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(output / _RUN_FILE)
        for stray in output.glob(".part-*.tmp"):  # left by a worker killed mid-write
            with contextlib.suppress(FileNotFoundError):
                stray.unlink()
    else:
        if not any(s["records"] for s in statuses):
            raise _all_empty([i for s in statuses for i in s["skipped"]])
        with atomic_output(output) as out:
            for part, status in zip(plan, statuses, strict=True):
                if status["file"] is not None:
                    data = _part_data(parts_dir, part, status)
                    n = 0
                    for line in io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"):
                        record = json.loads(line)
                        ids.add(record["id"])
                        out.write(format_record(record, fmt))
                        out.write("\n")
                        n += 1
                    if n != status["records"]:
                        raise CorpusRunError(f"partition {part.index}: {n} records in "
                                             f"{status['file']!r}, expected "
                                             f"{status['records']}")
                for doc_id in status["skipped"]:
                    ids.add(doc_id)
                skipped.extend(status["skipped"])
                written += status["records"]
                words += status["words"]
        shutil.rmtree(parts_dir, ignore_errors=True)
    return CorpusSummary(str(output), fmt, len(ids.seen), written, words, tuple(skipped),
                         len(plan), computed, reused, probe["metadata"])


# -- clusters -----------------------------------------------------------------------------
@contextlib.contextmanager
def dask_client(*, scheduler: str | None = None, n_workers: int | None = None
                ) -> Iterator[Client]:
    """A client of a running cluster (``scheduler``) or of a new local cluster of processes.

    ``n_workers`` local worker processes with one thread each (Dask's nanny limits
    each worker's BLAS to one thread too); the cluster is closed on exit.  A
    scheduler that cannot be reached (within ``distributed.comm.timeouts.connect``)
    raises :class:`CorpusRunError`.
    """
    import logging

    from distributed import Client, LocalCluster

    if (scheduler is None) == (n_workers is None):
        raise ValueError("give exactly one of scheduler and n_workers")
    if scheduler is not None:
        try:
            client = Client(scheduler)
        except (OSError, TimeoutError) as exc:
            raise CorpusRunError(f"cannot connect to the Dask scheduler at {scheduler!r}: "
                                 f"{exc}") from None
        with client:
            yield client
        return
    n_workers = check_positive_int(n_workers, "n_workers")
    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster) as client:
        yield client
