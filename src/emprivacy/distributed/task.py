"""What a worker runs: build (once) the mechanism, obfuscate one partition, write its files.

A task reads its partition (:func:`~emprivacy.distributed.plan.read_partition`; a
text file chunk by chunk, as it is obfuscated), obfuscates it with
:class:`~emprivacy.obfuscation.obfuscator.Obfuscator` (the run's
:class:`~emprivacy.obfuscation.config.ObfuscationConfig` and secret key), writes the
records to ``part-NNNNN.jsonl`` (record by record, a long document's text or bag in
pieces: a worker's memory does not grow with a document) or ``part-NNNNN.parquet``
(a row group at a time; a long document's text or bag over several rows, see
:mod:`emprivacy.io.parquet_output`) through a temporary
file and an atomic rename, then a small status file (``_status/part-NNNNN.json``)
recording what it wrote.  Running a task twice rewrites the same files.

Where the secret lives
----------------------
The run's secret (its random key, or its seed) is never part of anything Dask
stores in a worker's memory — the scattered :class:`Job`, a task's result —,
because Dask writes those to its scratch directory when a worker's memory fills
(spilling) and may keep them there.  It travels only as a literal argument of each
task (:class:`RunSecret`, whose ``repr`` hides it, so that Dask's log of a failed
task does not show it either) and lives on a worker only while a task runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from emprivacy._optional import import_optional
from emprivacy._validation import check_choice, check_epsilon, check_positive_int
from emprivacy.decoding import ApproximateDecoder, Decoder, ExactDecoder, array_api
from emprivacy.distributed.plan import Partition, read_partition
from emprivacy.embeddings.files import check_text_encoding
from emprivacy.embeddings.model import Embeddings, load_embeddings
from emprivacy.exceptions import InputError
from emprivacy.io.documents import Document
from emprivacy.io.outputs import atomic_file, write_bytes_atomic
from emprivacy.io.parquet_output import write_parquet_records
from emprivacy.io.streaming import write_record
from emprivacy.mechanisms import EarthMoversPrivacy, WordMechanism
from emprivacy.mechanisms.registry import MECHANISMS, check_params, make_mechanism, takes_decoder
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.obfuscation.skipped import SKIPPED_OUT_OF_VOCABULARY

__all__ = [
    "STATUS_DIR",
    "Job",
    "MechanismSettings",
    "RunSecret",
    "probe",
    "process_partition",
    "status_path",
]

#: The directory, inside the partition directory, of the tasks' status files.
STATUS_DIR = "_status"


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
    encoding : str, default "utf-8"
        The encoding of a text embeddings file, as for :func:`emprivacy.load_embeddings`.
    decoder : {"exact", "approximate"}
        How ``Vec⁻¹`` is computed (post-processing; same guarantee, Lemma 3).
    loader : callable, optional
        A picklable function of no argument returning the
        :class:`~emprivacy.embeddings.model.Embeddings` (e.g. a
        ``functools.partial`` of a module-level function); replaces
        ``embeddings``/``vocab_size``.
    mechanism : str, default "madlib"
        The mechanism's name (:data:`emprivacy.mechanisms.MECHANISMS`).
    params : tuple of (name, value) pairs
        The mechanism's own parameters (e.g. ``(("beta", 0.01),)`` for ``"tem"``);
        ``decoder`` is the field above.
    index_cache_dir : str or path-like, optional
        Where the approximate decoder's index is cached
        (:class:`~emprivacy.decoding.ApproximateDecoder`); default: each
        worker's ``$EMPRIVACY_CACHE_DIR`` or ``~/.cache/emprivacy``.  On a directory every
        worker shares, the index is built once (by the run's first task) and loaded by the rest.
    device : {"cpu", "cuda"}, default "cpu"
        Where the exact decoder runs: ``"cuda"`` decodes on each worker's current
        CUDA device (one GPU per worker: give each worker its own with
        ``CUDA_VISIBLE_DEVICES``) through :class:`~emprivacy.decoding.ArrayAPIDecoder`
        and CuPy (the ``gpu`` extra); the same words as on the CPU.
    lang : str, default "en"
        The language of the built-in embeddings (``embeddings=None``).

    Notes
    -----
    The mechanism is cached per worker process under a key made of these settings, so all
    the tasks a worker runs share one copy; only the most recently used one is kept.
    """

    epsilon: float
    embeddings: str | None = None
    vocab_size: int | None = 100_000
    decoder: str = "exact"
    loader: Callable[[], Embeddings] | None = field(default=None, compare=False)
    index_cache_dir: str | None = None
    mechanism: str = "madlib"
    params: tuple[tuple[str, Any], ...] = ()
    encoding: str = "utf-8"
    device: str = "cpu"
    lang: str = "en"

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
        check_text_encoding(self.encoding)
        check_choice(self.mechanism, "mechanism", tuple(MECHANISMS))
        object.__setattr__(self, "params", tuple(sorted(dict(self.params).items())))
        if any(k == "decoder" for k, _ in self.params):
            raise ValueError("decoder is a field of its own, not one of params")
        check_params(self.mechanism, [k for k, _ in self.params])
        if self.decoder != "exact" and not takes_decoder(self.mechanism):
            raise ValueError(f"decoder applies to the nearest-word mechanisms; "
                             f"{self.mechanism!r} has none")
        check_choice(self.device, "device", array_api.DEVICES)
        if self.device != "cpu" and self.decoder != "exact":
            raise ValueError(f"device {self.device!r} applies to decoder 'exact'; got "
                             f"{self.decoder!r}")
        if self.device != "cpu" and not takes_decoder(self.mechanism):
            raise ValueError(f"device applies to the nearest-word mechanisms; "
                             f"{self.mechanism!r} has none")
        if self.loader is not None and not callable(self.loader):
            raise TypeError(f"loader must be callable; got {type(self.loader).__name__}")

    @property
    def cache_key(self) -> str:
        """A stable digest of the settings (the loader by its pickled form)."""
        key: tuple[Any, ...] = (self.epsilon, self.embeddings, self.vocab_size, self.decoder,
                                self.index_cache_dir)
        if self.mechanism != "madlib" or self.params:
            key += (self.mechanism, self.params)
        if self.encoding != "utf-8":
            key += (self.encoding,)
        if self.device != "cpu":
            key += (("device", self.device),)
        key += (("lang", self.lang),) if self.lang != "en" else ()
        h = hashlib.sha256(repr(key).encode())
        if self.loader is not None:
            cloudpickle = import_optional("cloudpickle", extra="distributed",
                                          purpose="a MechanismSettings loader")
            h.update(cloudpickle.dumps(self.loader))
        return h.hexdigest()

    def build(self, *, n_threads: int | None = None) -> WordMechanism:
        """Load the embeddings and build the mechanism (what a worker does once).

        ``n_threads``: threads of the decoder (default: every core); a Dask worker
        passes its own thread count, so that K worker processes of one thread each
        use K cores, not K × cores.
        """
        with _worker_warnings():
            if self.loader is not None:
                emb = self.loader()
                if not isinstance(emb, Embeddings):
                    raise TypeError(
                        f"loader must return an Embeddings; got {type(emb).__name__}")
            else:
                emb = load_embeddings(self.embeddings, vocab_size=self.vocab_size,
                                      encoding=self.encoding, lang=self.lang)
        decoder: str | Decoder = self.decoder
        if self.device == "cuda":
            decoder = array_api.cuda_decoder(emb)
        elif decoder == "exact" and n_threads is not None:
            decoder = ExactDecoder(emb, n_threads=n_threads)
        elif decoder == "approximate":  # loaded from the cache, or built and cached
            decoder = ApproximateDecoder(emb, cache_dir=self.index_cache_dir,
                                         n_threads=n_threads)
        if self.mechanism == "madlib" and not self.params:
            return EarthMoversPrivacy(emb, epsilon=self.epsilon, decoder=decoder)
        params = dict(self.params)
        if takes_decoder(self.mechanism):
            params["decoder"] = decoder
        return make_mechanism(self.mechanism, emb, epsilon=self.epsilon, **params)


_CACHE: dict[str, WordMechanism] = {}
_CACHE_LOCK = threading.Lock()
#: One partition at a time per process: a decoder is used from one thread at a time, and
#: it already uses the worker's threads itself.
_TASK_LOCK = threading.Lock()


def _worker_threads() -> int | None:
    """The thread count of the Dask worker running this code, or ``None`` outside one."""
    dask_distributed = sys.modules.get("distributed")
    if dask_distributed is None:  # Dask was never imported here: not a Dask worker
        return None
    try:
        return int(dask_distributed.get_worker().state.nthreads)
    except ValueError:  # no worker in this process
        return None


def cached_mechanism(settings: MechanismSettings) -> WordMechanism:
    """The mechanism of ``settings`` for this process: built on first use, then reused."""
    key = settings.cache_key
    with _CACHE_LOCK:
        mech = _CACHE.get(key)
        if mech is None:
            _CACHE.clear()  # one mechanism per process: bounded memory on shared clusters
            mech = _CACHE[key] = settings.build(n_threads=_worker_threads())
        return mech


def clear_cache() -> None:
    """Forget this process's cached mechanism (run on every worker at the end of a run)."""
    with _CACHE_LOCK:
        _CACHE.clear()


# -- the task ------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class RunSecret:
    """The run's secret — its seed or its random key — as one task argument.

    Every document's noise stream is keyed by the run key and the document's
    identifier (:func:`emprivacy.math.randomness.document_generator`); anyone who has
    the key (or the seed) and the output can recompute the noise.  So the secret
    is passed to each task as a literal argument of the task, which Dask keeps in
    its task descriptions and never spills to disk, and never as data a worker
    stores (a scattered object, a task result).  ``repr`` and ``str`` do not show
    it, so neither do Dask's logs of a failed task.

    Parameters
    ----------
    seed : int, optional
        A seeded run (reproducible, not for real releases).
    key : bytes, optional
        The random key of an unseeded run (:func:`emprivacy.math.randomness.run_key_from_seed`).

    >>> RunSecret(key=b"k" * 32)
    RunSecret(<redacted>)
    """

    seed: int | None = None
    key: bytes | None = None

    def __post_init__(self) -> None:
        if (self.seed is None) == (self.key is None):
            raise ValueError("give exactly one of seed and key")

    def __repr__(self) -> str:
        return "RunSecret(<redacted>)"


@dataclass(frozen=True)
class Job:
    """What every task needs besides its partition and the secret; scattered to the
    workers once (so it may be spilled to disk: it holds nothing secret)."""

    mechanism: WordMechanism | MechanismSettings = field(repr=False)
    config: ObfuscationConfig
    seeded: bool
    kind: str  # of the partition files: "jsonl" or "parquet"
    parts_dir: str

    def get_mechanism(self) -> WordMechanism:
        if isinstance(self.mechanism, MechanismSettings):
            return cached_mechanism(self.mechanism)
        return self.mechanism

    def obfuscator(self, mech: WordMechanism, secret: RunSecret, *, first_index: int = 0,
                   on_skip: Callable[[str, str], None] | None = None) -> Obfuscator:
        """The run's obfuscator: its config, and its seed or the one secret key of the run
        (``first_index``: the position in the corpus of the partition's first document;
        ``on_skip``: as for :class:`~emprivacy.obfuscation.obfuscator.Obfuscator`)."""
        if secret.seed is not None:
            return Obfuscator(mech, self.config, seed=secret.seed, on_warning=lambda msg: None,
                              first_index=first_index, on_skip=on_skip)
        return Obfuscator(mech, self.config, run_key=secret.key, on_warning=lambda msg: None,
                          first_index=first_index, on_skip=on_skip)


def probe(job: Job) -> dict[str, Any]:
    """Build the mechanism (warming the worker's cache); its metadata and fingerprint.

    Needs no secret: the metadata do not depend on the key (only on whether the run
    is seeded).
    """
    mech = job.get_mechanism()
    metadata = Obfuscator(mech, job.config).metadata()  # a throwaway key, never used
    return {"metadata": {**metadata, "seeded": job.seeded},
            "fingerprint": mech.embeddings.fingerprint}


@dataclass
class _Written:
    """What a task wrote to its data file: records, words, ids, bytes and their SHA-256."""

    records: int = 0
    words: int = 0
    bytes: int = 0
    ids: set[str] = field(default_factory=set)
    sha256: Any = field(default_factory=hashlib.sha256)

    def add(self, record: dict[str, Any]) -> None:
        self.records += 1
        self.words += int(record["n_words"])
        self.ids.add(record["id"])


class _Hashing:
    """A binary file that counts and hashes what is written to it (into a :class:`_Written`)."""

    def __init__(self, fh: Any, written: _Written) -> None:
        self._fh, self._written, self.closed = fh, written, False

    def write(self, data: bytes) -> int:
        data = bytes(data)
        self._written.sha256.update(data)
        self._written.bytes += len(data)
        self._fh.write(data)
        return len(data)

    def tell(self) -> int:
        return self._written.bytes

    def flush(self) -> None:
        self._fh.flush()

    def close(self) -> None:  # the atomic file is closed (and renamed) by its owner
        self.closed = True


def _partition_documents(part: Partition) -> list[Document]:
    """The documents of a partition; a text file is read when it is obfuscated, in chunks
    (:meth:`~emprivacy.io.documents.Document.chunks`), never whole."""
    if part.kind == "text":
        return [Document.from_file(doc_id, Path(path)) for doc_id, path in part.files]
    return read_partition(part)


def _write_partition(obf: Obfuscator, docs: list[Document], path: Path, kind: str,
                     written: _Written) -> None:
    """Obfuscate ``docs`` into the data file ``path`` (atomically), counting in ``written``.

    JSONL: record by record, a long document's text or bag in pieces
    (:func:`~emprivacy.io.streaming.write_record`).  Parquet: a row group at a time, a
    long document's text or bag over several rows
    (:func:`~emprivacy.io.parquet_output.write_parquet_records`).  Either way memory
    does not grow with the partition or a document.  On an error
    (:meth:`~emprivacy.obfuscation.obfuscator.Obfuscator.stream` raises when no document has a
    record) nothing is written.
    """
    if kind == "jsonl":
        with atomic_file(path, "wb") as fh:
            def write(text: str) -> None:
                data = text.encode("utf-8", "surrogatepass")
                written.sha256.update(data)
                written.bytes += len(data)
                fh.write(data)

            for record in obf.stream(docs):
                write_record(record, "jsonl", write)
                written.add(record)
        return
    with atomic_file(path, "wb") as fh:
        write_parquet_records(obf.stream(docs), _Hashing(fh, written), on_record=written.add)


def status_path(parts_dir: Path, part: Partition) -> Path:
    """Where the task of ``part`` records what it wrote."""
    return parts_dir / STATUS_DIR / f"{part.name}.json"


def _error(part: Partition, message: str) -> dict[str, Any]:
    return {"error": message, "partition": part.index}


def process_partition(part: Partition, job: Job, digests: tuple[str, str],
                      secret: RunSecret) -> dict[str, Any]:
    """Obfuscate one partition, write its data file and status file atomically.

    ``secret`` is the run's seed or key (a literal argument of the task, never
    stored by Dask: :class:`RunSecret`).  Returns the status record (nothing secret
    in it), or ``{"error": message}`` for bad input (which retrying cannot fix).
    """
    mech = job.get_mechanism()
    sizes = part.current_sizes()
    if sizes is not None and sizes != part.planned_sizes():
        return _error(part, f"input {part.describe()} changed since the run was planned (its "
                            "size differs); start a new run")
    try:
        docs = _partition_documents(part)
    except InputError as exc:
        return _error(part, str(exc))
    if len(docs) != part.n_documents:
        return _error(part, f"input {part.describe()} changed since the run was planned "
                            f"({len(docs)} documents instead of {part.n_documents})")
    out_of_vocabulary: list[str] = []  # the skipped documents with no word in the vocabulary
    obf = job.obfuscator(mech, secret, first_index=part.first_index, on_skip=lambda label,
                         reason: (out_of_vocabulary.append(label)
                                  if reason == SKIPPED_OUT_OF_VOCABULARY else None))
    parts_dir = Path(job.parts_dir)
    data_path = parts_dir / f"{part.name}.{job.kind}"
    written = _Written()
    if docs:
        try:
            with _TASK_LOCK:
                _write_partition(obf, docs, data_path, job.kind, written)
        except InputError as exc:  # a repeated id too (Obfuscator), though planning found it
            # a partition of only skipped documents is not an error (the corpus may have
            # others)
            if not (obf.documents_written == 0 and obf.documents_skipped == len(docs)):
                return _error(part, str(exc))
    # as the records name them (config.id_from): the path of a text file is not released
    labels = [obf.record_id(d.id, part.first_index + k) for k, d in enumerate(docs)]
    skipped = [label for label in labels if label not in written.ids]
    data_name: str | None = data_path.name
    digest: str | None = None
    nbytes = 0
    if written.records:
        digest, nbytes = written.sha256.hexdigest(), written.bytes
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(data_path)
        data_name = None
    status = {
        "partition": part.index,
        "plan": digests[0],
        "settings": digests[1],
        "fingerprint": mech.embeddings.fingerprint,
        "file": data_name,
        "sha256": digest,
        "bytes": nbytes,
        "documents": len(docs),
        "records": written.records,
        "words": written.words,
        "with_words": obf.documents_with_words,
        "unchanged": obf.documents_unchanged,
        "skipped": skipped,
        "skipped_out_of_vocabulary": out_of_vocabulary,
    }
    try:
        write_bytes_atomic(status_path(parts_dir, part),
                           json.dumps(status, ensure_ascii=False).encode("utf-8"))
    except BaseException:
        # a data file without its status is never complete: do not leave it (the run may
        # have been cancelled and its directory removed under this task)
        if data_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(data_path)
        raise
    return status


def _in_a_worker() -> bool:  # whether this code runs in a Dask worker
    try:
        from distributed import get_worker

        get_worker()
    except (ImportError, ValueError):
        return False
    return True


@contextlib.contextmanager
def _worker_warnings() -> Iterator[None]:
    """In a Dask worker, each warning inside (a stale embeddings cache rebuilt) as one line,
    ``emprivacy: warning: …``, not Python's two with a source line (issue 44, item 8)."""
    if not _in_a_worker():
        yield
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for w in caught:
        print(f"emprivacy: warning: {w.message}", file=sys.stderr, flush=True)
