"""Running a corpus: :func:`obfuscate_corpus` and its task runner.

The clusters it runs on (:func:`~emprivacy.distributed.cluster.dask_client`) are
made in :mod:`emprivacy.distributed.cluster`.

The run plans the partitions, checks (or, with ``resume``, reuses) the output
directory, sends one probe task and then every partition's task — to a Dask
client, or one after the other in this process — and finally verifies and
publishes the output (:mod:`emprivacy.distributed.publish`).  Dask is imported
when a client is used, not with this module.

The run's secret (its random key, or its seed) is made here and passed to each
task as a literal argument (:class:`~emprivacy.distributed.task.RunSecret`); the
object scattered to the workers (:class:`~emprivacy.distributed.task.Job`) and
every task result hold nothing secret, so nothing Dask may spill to its scratch
directory does.
"""

from __future__ import annotations

import contextlib
import copy
import os
import secrets
import shutil
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from emprivacy._validation import check_choice
from emprivacy.distributed.cluster import _distributed
from emprivacy.distributed.plan import Partition, plan_partitions
from emprivacy.distributed.publish import (
    RUN_FILE,
    CorpusSummary,
    any_complete,
    claim_output,
    complete_status,
    digest,
    output_layout,
    prepare_parts_dir,
    publish,
    summary_from_manifest,
)
from emprivacy.distributed.task import (
    STATUS_DIR,
    Job,
    MechanismSettings,
    RunSecret,
    clear_cache,
    probe,
    process_partition,
)
from emprivacy.exceptions import (
    CorpusRunError,
    CorpusRunInterrupted,
    EmprivacyError,
    InputError,
    OutputError,
    PrivacyLeakWarning,
    interrupt_inside,
)
from emprivacy.io.temporaries import temporary_destination
from emprivacy.math.randomness import run_key_from_seed, secure_generator
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.config import ObfuscationConfig, entity_key_id

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

__all__ = ["obfuscate_corpus"]

_FORMATS = ("jsonl", "bag", "parquet")
#: Version of the partition files' layout, recorded with the run's settings
#: (2: partitions cut by document count; 3: Parquet rows with ``part``, long documents
#: privatised in blocks of ``block_words``).
_LAYOUT_VERSION = 3


def _check_client(client: Any) -> None:
    if not isinstance(client, _distributed().Client):
        raise TypeError(f"client must be a distributed.Client or None; got "
                        f"{type(client).__name__}")


def obfuscate_corpus(
    inputs: Sequence[str | os.PathLike[str]] | str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    mechanism: WordMechanism | MechanismSettings,
    config: ObfuscationConfig | None = None,
    client: Client | None = None,
    seed: int | None = None,
    format: str | None = None,
    resume: bool = False,
    partition_documents: int | None = None,
    retries: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> CorpusSummary:
    """Obfuscate a corpus with Alg. 2, partition by partition, on a Dask cluster.

    Every document's bag of words ``b`` (Def. 1), truncated to ``config.size``
    words if given, becomes a noisy bag ``Alg2(b)``; for bags of size N the
    release is εN·E-private (Thm. 4).  Each document draws its noise from its own
    stream, keyed by the run's secret key and its identifier, so the output does
    not depend on the partitioning: with ``seed`` it equals that of the
    single-process :class:`~emprivacy.obfuscation.obfuscator.Obfuscator`, record for record.

    Parameters
    ----------
    inputs : path-like or sequence of path-like
        Directories of ``*.txt`` files (or, if they hold none, of ``*.parquet``
        files), text files, ``.jsonl`` files (``{"id": ..., "text": ...}`` per
        line) and ``.parquet`` files with an ``id`` and a ``text`` column
        (:mod:`emprivacy.io.corpus`).  On a cluster every worker must be able to
        read them at the same paths.
    output : path-like
        ``format="parquet"``: a directory of ``part-NNNNN.parquet`` files plus a
        ``_manifest.json`` (the default when the name ends in ``.parquet``).
        Otherwise one file, merged at the end from ``<output>.parts/``.  On a
        cluster the workers write the partition files, so this must be on
        storage every worker and this process can reach.
    mechanism : MechanismSettings or WordMechanism
        Settings: each worker loads the embeddings itself, once per process.
        A mechanism (e.g. :class:`~emprivacy.mechanisms.EarthMoversPrivacy`):
        scattered once to every worker.
    config : ObfuscationConfig, optional
        Mode, out-of-vocabulary policy, bag size N, batching, as for the
        :class:`~emprivacy.obfuscation.obfuscator.Obfuscator`; default ``ObfuscationConfig()``.
    client : distributed.Client, optional
        The cluster to run on; ``None`` runs the partitions one after the other
        in this process (same files, same resume; Dask is not needed).
    seed : int, optional
        Reproducible noise — **not for real releases**.  ``None``: a secret
        random run key.  The key (or the seed) is sent to the workers as an
        argument of each task (use TLS on an untrusted network), never as data
        a worker stores, so Dask never spills it to disk; it is never written
        to the output.
    format : {"jsonl", "bag", "parquet"}, optional
        Output format (``"bag"``: the noisy words, one line per document, as the
        single-process command line).
    resume : bool
        Keep the partitions already complete in the output directory (verified by
        their SHA-256) and obfuscate only the others.  Resume with the same
        ``seed``: it is not stored and cannot be checked.
    partition_documents : int, optional
        Documents per partition (and per task; the last partition of each input
        file may hold fewer); by default 1/64 of the corpus rounded down to a
        power of two, within [16, 1024] (:func:`default_partition_documents`).  The
        Parquet output has one file per partition, so its layout depends on the
        number of documents in each input file only, never on their size.
    retries : int
        Dask re-runs a task that raised up to this many times; tasks of a worker
        that died are re-run by the scheduler (``distributed.scheduler.allowed-failures``).
    progress : callable, optional
        Called as ``progress(documents_done, documents_total)`` after each partition.

    Returns
    -------
    CorpusSummary

    Raises
    ------
    InputError
        Bad input (naming the file and line/row or the document id), including an
        id that appears twice in the corpus (found when the partitions are
        planned, before any document is obfuscated or any file written), or every
        document skipped (empty, or a bag with no word in the vocabulary: such a
        document among others is skipped and listed in the summary).
    CorpusRunError
        A partition failed for good or the written output did not verify.
    CorpusRunInterrupted
        A :class:`KeyboardInterrupt` (Ctrl-C) after some partitions were complete.

    Notes
    -----
    A run that fails (any error above after the run's directory was set up, or an
    interruption) keeps the partitions it completed, for ``resume=True``: the error's
    ``partitions_kept`` names their directory and its message says so.  A run that
    completed none removes its run files and its ``<output>.parts`` directory (a
    Parquet output directory too, if the run made it), so that nothing blocks the
    next run; a plain :class:`KeyboardInterrupt` is raised again as it was.  Either
    way the temporary files of the partitions being written are removed.
    """
    if isinstance(inputs, str | os.PathLike):
        inputs = [inputs]
    inputs = list(inputs)
    if not inputs:
        raise InputError("no input documents")
    if not isinstance(mechanism, WordMechanism | MechanismSettings):
        raise TypeError("mechanism must be a WordMechanism (e.g. EarthMoversPrivacy) or a "
                        f"MechanismSettings; got {type(mechanism).__name__}")
    config = ObfuscationConfig() if config is None else config
    if not isinstance(config, ObfuscationConfig):
        raise TypeError(f"config must be an ObfuscationConfig; got {type(config).__name__}")
    if client is not None:
        _check_client(client)
    retries = int(retries)
    if retries < 0:
        raise ValueError(f"retries must be an integer >= 0; got {retries}")
    output = Path(output)
    if format is None:
        format = "parquet" if output.suffix.lower() == ".parquet" else "jsonl"
    check_choice(format, "format", _FORMATS)
    if format != "parquet" and output.is_dir():
        raise OutputError(f"output {str(output)!r} is a directory; give a file name, or "
                         "format='parquet' for a directory of Parquet files")
    kind, parts_dir = output_layout(output, format)
    if client is not None and config.oov == "keep":  # the workers warn in their logs only
        warnings.warn("out-of-vocabulary words are released unchanged (oov='keep'): the "
                      "privacy guarantee does not cover them; each record counts them in "
                      "'oov_kept'", PrivacyLeakWarning, stacklevel=2)

    # refuse an output that is an input, and lock it for the whole run (one run at a time)
    reads = ([mechanism.embeddings] if isinstance(mechanism, MechanismSettings)
             and mechanism.embeddings is not None else [])
    with claim_output(inputs, output, format, reads=reads):
        # every id is read here: a repeated one fails before anything is written
        plan = plan_partitions(inputs, partition_documents=partition_documents)
        total_docs = sum(p.n_documents for p in plan)
        if total_docs == 0:
            raise InputError("no input documents")
        # the byte-level plan (offsets, sizes) goes into the status files only, removed on
        # publication; what is published (_manifest.json's "run") is the content-free layout
        # (path-free unless the run releases paths: see `published` below)
        plan_digest = digest([p.descriptor() for p in plan])
        layout_digest = digest([p.layout() for p in plan])
        secret = (RunSecret(seed=seed) if seed is not None
                  else RunSecret(key=run_key_from_seed(None)))
        job = Job(_for_workers(mechanism), config, seed is not None, kind,
                  str(parts_dir.absolute()))

        guard = _FailedRun(plan, parts_dir, kind)
        with guard, _Runner(client, job, secret) as runner:
            probed = runner.probe()
            # what the output depends on (batch_words does not): a resumed run must match it
            settings = {"metadata": probed["metadata"], "fingerprint": probed["fingerprint"],
                        "config": {**config.metadata(), "size": config.size,
                                   "block_words": config.block_words,
                                   # (not named by runs that release paths, as before)
                                   **({"id_from": config.id_from}
                                      if config.id_from != "path" else {}),
                                   # another entity key would draw other surrogates
                                   **({"entity_key_id": entity_key_id(config.entity_key)}
                                      if config.entity_key is not None else {}),
                                   # the names list: its size; with an entity key, which
                                   # list (a keyed identifier: no guess can be tested)
                                   **({"entity_names": len(config.entity_names), **(
                                       {"entity_names_id": config.entity_names.digest(
                                           config.entity_key)}
                                       if config.entity_key is not None else {})}
                                      if config.entity_names is not None else {})},
                        "layout": _LAYOUT_VERSION, "kind": kind}
            run_info = {"plan": layout_digest, "partitions": len(plan), "documents": total_docs,
                        "settings": settings}
            # what _manifest.json publishes: a run that releases no path publishes no digest
            # of one either (unkeyed, it would let anyone test a guessed file name); the
            # full layout stays in _run.json, removed on publication
            published = (run_info if config.id_from == "path" else
                         {**run_info, "plan": digest([p.layout(named=False) for p in plan])})
            digests = (plan_digest, digest(settings))
            created = not parts_dir.exists()
            manifest = prepare_parts_dir(parts_dir, output, format, resume, run_info,
                                         published=published)
            if manifest is not None:  # resume of a run that had already completed
                if progress:
                    progress(total_docs, total_docs)
                return summary_from_manifest(manifest, output, format, reused=len(plan))
            guard.arm(digests, created=created)  # from now on, a failure tidies up
            done: dict[int, dict[str, Any]] = {}
            if resume:
                for part in plan:
                    status = complete_status(parts_dir, part, digests)
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
        with guard:
            try:
                return publish(plan, parts_dir, output, format, digests, probed, published,
                               computed=len(todo), reused=reused,
                               manifest_extra={"size": config.size, "seeded": seed is not None})
            except InputError:
                # the corpus cannot be released as it is (a repeated id that planning could
                # not see, every document skipped): nothing is published, nothing is left
                _discard(plan, parts_dir, kind, remove_directory=created)
                raise


class _FailedRun:
    """Tidies the partition directory of a run that fails or is interrupted, once armed
    (when the directory is set up); a context manager, entered once per stage.

    Temporary files of the run's partitions are removed (a task still running on a
    worker then fails to rename its file: it was cancelled).  If a partition is complete
    (this run's, or an earlier run's that this one resumed), the directory is kept for
    ``resume=True`` and the error says so (``partitions_kept``); a
    :class:`KeyboardInterrupt` becomes a
    :class:`~emprivacy.exceptions.CorpusRunInterrupted` saying so.  Otherwise nothing
    is worth keeping: the run's files are removed, and its directory with them (a
    Parquet output directory only if the run made it), so that it cannot block the next
    run.
    """

    def __init__(self, plan: list[Partition], parts_dir: Path, kind: str) -> None:
        self.plan, self.parts_dir, self.kind = plan, parts_dir, kind
        self.digests: tuple[str, str] | None = None
        self.created = False

    def arm(self, digests: tuple[str, str], *, created: bool) -> None:
        self.digests, self.created = digests, created

    def __enter__(self) -> _FailedRun:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: object) -> None:
        if exc is None or self.digests is None:
            return
        _remove_temporaries(self.plan, self.parts_dir, self.kind)
        if not any_complete(self.plan, self.parts_dir, self.digests):
            _discard(self.plan, self.parts_dir, self.kind,
                     remove_directory=self.created or self.kind != "parquet")
            return
        kept = str(self.parts_dir)
        if isinstance(exc, EmprivacyError | CorpusRunInterrupted):
            if exc.partitions_kept is None:
                exc.partitions_kept = kept
        elif interrupt_inside(exc):  # Ctrl-C, or an error it caused while the run closed
            interrupted = CorpusRunInterrupted()
            interrupted.partitions_kept = kept
            raise interrupted from exc


def _remove_temporaries(plan: list[Partition], parts_dir: Path, kind: str) -> None:
    """Remove the temporary files of this run's partition files, whoever made them.

    No other run writes here (the output is locked), and this run's tasks were
    cancelled: a worker still writing one loses its file and its task fails.
    """
    names = {f"{part.name}.{kind}" for part in plan}
    try:
        entries = os.listdir(parts_dir)
    except OSError:
        return
    for name in entries:
        if temporary_destination(name) in names:
            with contextlib.suppress(OSError):
                (parts_dir / name).unlink()


def _discard(plan: list[Partition], parts_dir: Path, kind: str, *,
             remove_directory: bool) -> None:
    """Remove this run's partition files, their temporary files and the run's bookkeeping
    (never anything else)."""
    _remove_temporaries(plan, parts_dir, kind)
    for part in plan:
        with contextlib.suppress(FileNotFoundError):
            (parts_dir / f"{part.name}.{kind}").unlink()
    shutil.rmtree(parts_dir / STATUS_DIR, ignore_errors=True)
    with contextlib.suppress(FileNotFoundError):
        (parts_dir / RUN_FILE).unlink()
    if remove_directory:
        with contextlib.suppress(OSError):  # not empty: someone else's files stay
            parts_dir.rmdir()


def _for_workers(mechanism: WordMechanism | MechanismSettings
                 ) -> WordMechanism | MechanismSettings:
    """What is scattered to the workers: a mechanism without its own generators.

    A mechanism keeps a secure generator (``rng``) for direct calls such as
    ``privatize(bag)``; its state is a secret key that would let anyone replay the
    noise of those calls.  A corpus run never draws from it (every document has its
    own stream), and the scattered job may be spilled to a worker's disk, so the
    workers get a shallow copy whose generators are fresh ones, never used.
    """
    if not isinstance(mechanism, WordMechanism):
        return mechanism
    shipped = copy.copy(mechanism)
    for name, value in vars(shipped).items():
        if isinstance(value, np.random.Generator):
            setattr(shipped, name, secure_generator())
    return shipped


class _Runner:
    """Runs partition tasks in this process or on a Dask client; cancels what is left.

    The job is scattered once; the secret is a literal argument of every task
    (never scattered, never a result: nothing Dask may spill holds it).
    """

    def __init__(self, client: Client | None, job: Job, secret: RunSecret) -> None:
        self.client = client
        self.job = job
        self._secret = secret
        self._job_future: Any = None
        self._pending: dict[Any, Any] = {}

    def __enter__(self) -> _Runner:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if self.client is None:
            return
        # the cluster may be going down; after Ctrl-C (the workers stopped by it too) no
        # error of the cleanup may hide the interruption
        stopped = exc_type is not None and issubclass(exc_type, KeyboardInterrupt)
        with contextlib.suppress(*((Exception,) if stopped else (OSError, TimeoutError))):
            if self._pending:
                self.client.cancel(list(self._pending.values()))
            self._pending = {}
            if self._job_future is not None:
                self.client.cancel([self._job_future])
                self._job_future = None
            if isinstance(self.job.mechanism, MechanismSettings):  # free the workers' memory
                self.client.run(clear_cache, on_error="ignore")

    def _scatter(self, client: Client) -> Any:
        if self._job_future is None:
            self._job_future = client.scatter(self.job, broadcast=True, hash=False)
        return self._job_future

    def probe(self) -> dict[str, Any]:
        if self.client is None:
            return probe(self.job)
        fut = self.client.submit(probe, self._scatter(self.client), pure=False)
        try:
            result: dict[str, Any] = fut.result()
            return result
        finally:
            fut.release()

    def run(self, todo: list[Partition], digests: tuple[str, str], retries: int
            ) -> Iterator[tuple[Partition, dict[str, Any]]]:
        client = self.client
        if client is None:
            for part in todo:
                yield part, process_partition(part, self.job, digests, self._secret)
            return
        if not todo:
            return
        job = self._scatter(client)
        token = secrets.token_hex(4)
        futures = client.map(process_partition, todo, job=job, digests=digests,
                             secret=self._secret, retries=retries, pure=False,
                             key=[f"emprivacy-{p.name}-{token}" for p in todo])
        self._pending = {f.key: f for f in futures}
        by_key = {f.key: p for f, p in zip(futures, todo, strict=True)}
        completed = _distributed().as_completed(futures)
        del futures
        for fut in completed:
            part = by_key[fut.key]
            try:
                status = fut.result()
            except Exception as exc:
                raise CorpusRunError(
                    f"partition {part.index} ({part.describe()}) failed: "
                    f"{type(exc).__name__}: {exc}") from None
            del self._pending[fut.key]  # drop our reference: the result is on disk
            yield part, status
