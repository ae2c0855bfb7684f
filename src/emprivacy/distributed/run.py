"""Running a corpus: :func:`obfuscate_corpus`, its task runner, and the clusters.

:func:`dask_client` starts a local cluster only this process can use (TLS, loopback)
or connects to an existing one with Dask's own security configuration.

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
import importlib
import ipaddress
import os
import secrets
import shutil
import socket
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from .._optional import import_optional
from .._validation import check_choice, check_positive_int
from ..exceptions import (
    CorpusRunError,
    InputError,
    MissingExtraError,
    OutputError,
    PrivacyLeakWarning,
    UsageError,
)
from ..mechanisms import WordMechanism
from ..obfuscation import ObfuscationConfig
from ..randomness import run_key_from_seed, secure_generator
from .plan import Partition, plan_partitions
from .publish import (
    RUN_FILE,
    CorpusSummary,
    claim_output,
    complete_status,
    digest,
    output_layout,
    prepare_parts_dir,
    publish,
    summary_from_manifest,
)
from .task import (
    STATUS_DIR,
    Job,
    MechanismSettings,
    RunSecret,
    clear_cache,
    probe,
    process_partition,
)

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

__all__ = ["dashboard_link", "dask_client", "obfuscate_corpus", "unencrypted_remote"]

_FORMATS = ("jsonl", "bag", "parquet")
#: Version of the partition files' layout, recorded with the run's settings
#: (2: partitions cut by document count).
_LAYOUT_VERSION = 2


def _distributed() -> ModuleType:
    """Dask's ``distributed`` package, or one message naming the extra to install."""
    return import_optional("distributed", extra="distributed",
                           purpose="running on a Dask cluster")


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
    single-process :class:`~emprivacy.obfuscation.Obfuscator`, record for record.

    Parameters
    ----------
    inputs : path-like or sequence of path-like
        Directories of ``*.txt`` files (or, if they hold none, of ``*.parquet``
        files), text files, ``.jsonl`` files (``{"id": ..., "text": ...}`` per
        line) and ``.parquet`` files with an ``id`` and a ``text`` column
        (:mod:`emprivacy.corpus`).  On a cluster every worker must be able to
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
        :class:`~emprivacy.obfuscation.Obfuscator`; default ``ObfuscationConfig()``.
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
        planned, before any document is obfuscated or any file written) or a
        document with no word in the vocabulary.
    CorpusRunError
        A partition failed for good or the written output did not verify.
        Completed partitions are kept: re-run with ``resume=True``.
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
    with claim_output(inputs, output, format):
        # every id is read here: a repeated one fails before anything is written
        plan = plan_partitions(inputs, partition_documents=partition_documents)
        total_docs = sum(p.n_documents for p in plan)
        if total_docs == 0:
            raise InputError("no input documents")
        # the byte-level plan (offsets, sizes) goes into the status files only, removed on
        # publication; what is published (_manifest.json's "run") is the content-free layout
        plan_digest = digest([p.descriptor() for p in plan])
        layout_digest = digest([p.layout() for p in plan])
        secret = (RunSecret(seed=seed) if seed is not None
                  else RunSecret(key=run_key_from_seed(None)))
        job = Job(_for_workers(mechanism), config, seed is not None, kind,
                  str(parts_dir.absolute()))

        with _Runner(client, job, secret) as runner:
            probed = runner.probe()
            # what the output depends on (batch_words does not): a resumed run must match it
            settings = {"metadata": probed["metadata"], "fingerprint": probed["fingerprint"],
                        "config": {**config.metadata(), "size": config.size},
                        "layout": _LAYOUT_VERSION, "kind": kind}
            run_info = {"plan": layout_digest, "partitions": len(plan), "documents": total_docs,
                        "settings": settings}
            digests = (plan_digest, digest(settings))
            created = not parts_dir.exists()
            manifest = prepare_parts_dir(parts_dir, output, format, resume, run_info)
            if manifest is not None:  # resume of a run that had already completed
                if progress:
                    progress(total_docs, total_docs)
                return summary_from_manifest(manifest, output, format, reused=len(plan))
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
        try:
            return publish(plan, parts_dir, output, format, digests, probed, run_info,
                           computed=len(todo), reused=reused,
                           manifest_extra={"size": config.size, "seeded": seed is not None})
        except InputError:
            # the corpus cannot be released as it is (a repeated id that planning could not
            # see, every document empty): nothing is published, and nothing is left behind
            _discard(plan, parts_dir, kind, remove_directory=created)
            raise


def _discard(plan: list[Partition], parts_dir: Path, kind: str, *,
             remove_directory: bool) -> None:
    """Remove this run's partition files and bookkeeping (never anything else)."""
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
                    f"{type(exc).__name__}: {exc}; completed partitions are kept in "
                    f"{self.job.parts_dir!r} — re-run with --resume to continue") from None
            del self._pending[fut.key]  # drop our reference: the result is on disk
            yield part, status


# -- clusters -----------------------------------------------------------------------------
#: Dask comm schemes that encrypt what they carry (and, with certificates, authenticate).
_ENCRYPTED_SCHEMES = frozenset({"tls", "wss"})
#: The only address a local cluster of this run listens on.
_LOOPBACK = "127.0.0.1"
#: What connecting to an unencrypted scheduler on another machine warns.
CLEARTEXT_WARNING = ("the Dask scheduler {address} is on another machine and the connection "
                     "is not encrypted: the run's key travels in the clear, and whoever can "
                     "reach the scheduler can run code on the workers, which read every "
                     "document; use a tls:// address (docs/SCALE_OUT.md)")


def unencrypted_remote(address: str) -> bool:
    """Whether a connection to the Dask scheduler ``address`` crosses a network in the clear.

    True for an unencrypted scheme (``tcp://``, ``ws://``, ``ucx://``…; an address
    without one is ``tcp``) to a host that is not this machine: neither a loopback
    or unspecified address nor an address of one of this machine's interfaces.  A host
    name is resolved: it is this machine only if every address it resolves to is; one
    that does not resolve counts as another machine.  ``tls://`` and ``wss://``
    (encrypted) and ``inproc://`` (this process) are never unencrypted remotes.

    >>> unencrypted_remote("tcp://127.0.0.1:8786"), unencrypted_remote("[::1]:8786")
    (False, False)
    >>> unencrypted_remote("tcp://203.0.113.7:8786"), unencrypted_remote("tls://203.0.113.7:8786")
    (True, False)
    """
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    scheme = scheme.lower()
    if scheme in _ENCRYPTED_SCHEMES or scheme == "inproc":
        return False
    if rest.startswith("["):  # [IPv6]:port
        host = rest[1:rest.find("]")] if "]" in rest else rest[1:]
    else:
        rest = rest.split("/", 1)[0]
        host = rest.rsplit(":", 1)[0] if rest.count(":") == 1 else rest  # else bare IPv6
    return not _is_this_machine(host)


def _is_this_machine(host: str) -> bool:
    """Whether ``host`` (an IP address or a name) is this machine."""
    if host in ("", "localhost"):
        return True
    try:
        addresses = [_ip(host)]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError):
            return False
        addresses = [_ip(str(info[4][0])) for info in infos]
    if not addresses:
        return False
    if all(a.is_loopback or a.is_unspecified for a in addresses):
        return True
    local = _interface_addresses()
    return all(a.is_loopback or a.is_unspecified or a in local for a in addresses)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """An IP address (an IPv6 zone dropped, an IPv4-mapped IPv6 address as IPv4)."""
    ip = ipaddress.ip_address(text.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _interface_addresses() -> set[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """The IP addresses of this machine's network interfaces (``psutil``, a Dask
    dependency; none known without it)."""
    try:
        psutil = importlib.import_module("psutil")
    except ImportError:  # pragma: no cover - distributed requires psutil
        return set()
    found = set()
    for entries in psutil.net_if_addrs().values():
        for entry in entries:
            if entry.family in (socket.AF_INET, socket.AF_INET6):
                with contextlib.suppress(ValueError):
                    found.add(_ip(entry.address))
    return found


def _check_dashboard() -> None:
    """Dask's dashboard needs bokeh: without it, one message naming what to install."""
    from importlib.metadata import PackageNotFoundError, version

    from distributed.versions import BOKEH_REQUIREMENT

    try:
        installed = version("bokeh")
    except PackageNotFoundError:
        raise MissingExtraError(
            "the Dask dashboard needs bokeh, which is not installed; install it with: "
            f"pip install '{BOKEH_REQUIREMENT}' (or run without the dashboard)") from None
    if not BOKEH_REQUIREMENT.specifier.contains(installed, prereleases=True):
        raise MissingExtraError(
            f"the Dask dashboard needs {BOKEH_REQUIREMENT}, not bokeh {installed}; install "
            f"it with: pip install '{BOKEH_REQUIREMENT}' (or run without the dashboard)")


def _run_security() -> Any:
    """TLS credentials for one local cluster: a key and a self-signed certificate made
    now, held in memory (``distributed.security.Security.temporary``)."""
    import_optional("cryptography", extra="distributed",
                    purpose="securing a local Dask cluster with TLS")
    from distributed.security import Security

    return Security.temporary()


def _close_scheduler_http(dask_scheduler: Any) -> None:
    """Stop the scheduler's HTTP server (run on its event loop): no dashboard, no port."""
    dask_scheduler.http_server.stop()
    dask_scheduler.services.pop("dashboard", None)


def _close_worker_http(dask_worker: Any) -> None:
    """Stop a worker's HTTP server (metrics, health): a local run has no use for it."""
    dask_worker.http_server.stop()


def dashboard_link(client: Client) -> str | None:
    """The address of the cluster's dashboard, or ``None`` when it has none.

    For a local cluster started by :func:`dask_client` this is the address the
    dashboard's server is actually bound to; for another cluster, the link Dask
    derives from the scheduler's address and dashboard port.
    """
    if "dashboard" not in client.scheduler_info().get("services", {}):
        return None
    server = getattr(getattr(getattr(client, "cluster", None), "scheduler", None),
                     "http_server", None)
    if server is None:
        link: str = client.dashboard_link
        return link
    from distributed.comm import get_tcp_server_addresses

    host, port = get_tcp_server_addresses(server)[0][:2]
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}/status"


@contextlib.contextmanager
def dask_client(*, scheduler: str | None = None, n_workers: int | None = None,
                dashboard: bool = False) -> Iterator[Client]:
    """A client of a running cluster (``scheduler``) or of a new local cluster of processes.

    **A local cluster** (``n_workers``) has that many worker processes, one thread
    each (Dask's nanny limits each worker's BLAS to one thread too), and is closed on
    exit.  It is this run's only: its scheduler, nannies and workers listen on
    127.0.0.1 only and speak TLS (``tls://``) with a key and certificate made for it
    (``Security.temporary()``, which needs ``cryptography``), held in this process's
    memory and handed to the worker processes it starts.  A client without them —
    any other process on this machine, a plain ``tcp://`` client — is refused,
    so nobody else can send it tasks, run code on its workers or read what they
    hold (the documents, the run's key).  What the workers spill goes to a temporary
    directory only this user can read, removed at the end.  The workers' HTTP servers
    are closed, and
    so is the scheduler's unless ``dashboard=True``: then the Dask dashboard listens
    on 127.0.0.1 only (:func:`dashboard_link` gives its address) — any user of this
    machine can open it while the run lasts; it needs ``bokeh``
    (:class:`~emprivacy.exceptions.MissingExtraError` without it).

    **An existing cluster** (``scheduler``) is reached with Dask's own security
    configuration: a ``tls://`` address and the certificates of
    ``distributed.comm.tls.*`` (Dask's configuration files or
    ``DASK_DISTRIBUTED__COMM__TLS__...`` environment variables).  An unencrypted
    address of another machine (:func:`unencrypted_remote`) warns
    (:class:`~emprivacy.exceptions.PrivacyLeakWarning`): the run's key would cross the
    network in the clear, and whoever can reach such a scheduler can run code on its
    workers, which read every document.  A scheduler that cannot be reached
    (within ``distributed.comm.timeouts.connect``), or a ``tls://`` address without
    credentials, raises :class:`CorpusRunError`; an address that is none
    (unknown scheme, bad port) :class:`~emprivacy.exceptions.UsageError`.
    """
    import logging

    if (scheduler is None) == (n_workers is None):
        raise ValueError("give exactly one of scheduler and n_workers")
    if dashboard and scheduler is not None:
        raise ValueError("dashboard applies to a local cluster (n_workers); an existing "
                         "cluster's dashboard is set up where its scheduler is started")
    dask_distributed = _distributed()
    if scheduler is not None:
        if unencrypted_remote(scheduler):
            warnings.warn(CLEARTEXT_WARNING.format(address=scheduler), PrivacyLeakWarning,
                          stacklevel=3)
        try:
            client = dask_distributed.Client(scheduler)
        except (OSError, TimeoutError) as exc:
            raise CorpusRunError(f"cannot connect to the Dask scheduler at {scheduler!r}: "
                                 f"{exc}") from None
        except TypeError as exc:  # Dask's word for a tls:// address without credentials
            if "ssl_context" not in str(exc):
                raise
            raise CorpusRunError(
                f"cannot connect to the Dask scheduler at {scheduler!r}: no TLS credentials; "
                "set distributed.comm.tls.ca-file, .client.cert and .client.key in Dask's "
                "configuration or its DASK_DISTRIBUTED__COMM__TLS__... environment variables "
                "(docs/SCALE_OUT.md)") from None
        except ValueError as exc:  # an unknown scheme, a port that is not a number
            raise UsageError(f"not a Dask scheduler address: {scheduler!r} ({exc})") from None
        with client:
            yield client
        return
    n_workers = check_positive_int(n_workers, "n_workers")
    if dashboard:
        _check_dashboard()
    security = _run_security()
    import dask

    # the scheduler's routes, as a copy (Dask appends to it when bokeh is missing); none
    # without a dashboard.  The workers serve none: a copy of the configuration with no
    # routes goes to the nannies, for every worker process they start (or restart)
    routes = (list(dask.config.get("distributed.scheduler.http.routes")) if dashboard
              else [])
    worker_config = {"distributed": copy.deepcopy(dask.config.get("distributed"))}
    worker_config["distributed"]["worker"]["http"]["routes"] = []
    # the workers' scratch space (what Dask spills) in a directory of this user's only
    # (mode 0700) in Dask's temporary-directory (by default the system's), not in the
    # shared <tmp>/dask-scratch-space; removed at the end
    with tempfile.TemporaryDirectory(prefix="emprivacy-dask-", ignore_cleanup_errors=True,
                                     dir=dask.config.get("temporary-directory", None)
                                     ) as scratch:
        with dask.config.set({"distributed.scheduler.http.routes": routes}):
            cluster = dask_distributed.LocalCluster(
                n_workers=n_workers, threads_per_worker=1, processes=True, protocol="tls://",
                host=_LOOPBACK, security=security, config=worker_config,
                local_directory=scratch,
                # bound to 127.0.0.1, on a free port (the default, 8787 on all interfaces,
                # may be taken); without a dashboard it is stopped as soon as it started
                dashboard_address=f"{_LOOPBACK}:0", scheduler_kwargs={"dashboard": dashboard},
                worker_dashboard_address=None, silence_logs=logging.CRITICAL)
        with cluster, dask_distributed.Client(cluster) as client:
            if not dashboard:
                client.run_on_scheduler(_close_scheduler_http)
            client.run(_close_worker_http)
            yield client
