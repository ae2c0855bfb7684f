"""Clusters only their owner can reach: :func:`dask_client` and what it is made of.

A run's workers read every document and receive the run's key, so whoever can
send tasks to its cluster can read both.  :func:`dask_client` therefore starts a
local cluster that is this process's only — its scheduler, nannies and workers
listen on 127.0.0.1 only and speak TLS with a key and certificate made for it
(``Security.temporary()``), held in memory; its HTTP servers are closed (the
scheduler's dashboard only on request, bound to 127.0.0.1); what its workers spill
goes to a scratch directory only this user can read — or it connects to an
existing cluster with Dask's own security configuration, warning
(:data:`CLEARTEXT_WARNING`) when the connection would cross a network in the clear
(:func:`unencrypted_remote`).  Dask is imported when a cluster is used, not with
this module.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import ipaddress
import signal
import socket
import tempfile
import warnings
from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

from emprivacy._optional import import_optional
from emprivacy._validation import check_positive_int
from emprivacy.exceptions import CorpusRunError, MissingExtraError, PrivacyLeakWarning, UsageError

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client

__all__ = ["CLEARTEXT_WARNING", "dashboard_link", "dask_client", "unencrypted_remote"]


def _distributed() -> ModuleType:
    """Dask's ``distributed`` package, or one message naming the extra to install."""
    return import_optional("distributed", extra="distributed",
                           purpose="running on a Dask cluster")


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


#: The signals a terminal (Ctrl-C) or a service manager (SIGTERM) sends to every process of
#: the command: a local cluster's workers never see them (:func:`_stop_signals_blocked`).
_STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    """SIGINT and SIGTERM blocked in this thread (its signal mask) while it lasts.

    A local cluster made inside never sees either: a thread inherits the mask of the
    thread that starts it, and a process the mask of the thread that forks it, across
    ``exec`` too.  So Dask's event-loop thread, made with the cluster, has them blocked,
    and so has every thread it starts — among them the one that spawns each worker
    process, now or when a nanny restarts one — and every worker process from its first
    instruction, before Python, Dask or a preload could install anything.  Ctrl-C in a
    terminal signals the whole process group: without this, each worker raised its own
    ``KeyboardInterrupt`` (a traceback each, before the command's one line) and died
    under its task, and
    SIGTERM killed the workers mid-write.  The workers are stopped by this process
    instead, when it closes the cluster (the nanny asks, then kills).  A worker-plugin
    or preload ``signal.signal(SIGINT, SIG_IGN)`` would come too late (Python's
    handler is installed at start-up), and ignoring SIGINT here while the cluster starts
    would lose a Ctrl-C: blocked, it waits, and reaches this thread (the main one, where
    Python handles signals) as soon as the mask is restored.  No-op where there are no
    signal masks (Windows).

    The multiprocessing resource tracker (a process of its own, which ignores both
    signals) is started first, here: the thread that starts it has both signals
    unblocked afterwards (CPython's bpo-33613 guard), which in Dask's event-loop thread,
    where the nannies' first queue would start it, would undo the mask for every worker.
    """
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


#: How long a local cluster's IO loop may take to start, in seconds (:func:`_io_loop`).
LOOP_START_SECONDS = 120.0


@contextlib.contextmanager
def _io_loop(timeout: float = LOOP_START_SECONDS) -> Iterator[Any]:
    """An IO loop running in a thread of its own, for a local cluster and its client, stopped
    at the end.  Dask starts one itself when given none and gives it 10 seconds to start,
    failing with a bare ``AssertionError`` when it does not: on a busy machine (two cores, a
    test suite's processes beside it) it once did not.  This one waits ``timeout`` seconds
    and then raises :class:`CorpusRunError`."""
    import asyncio
    import threading

    from tornado.ioloop import IOLoop

    started = threading.Event()
    running: dict[str, Any] = {}

    async def serve() -> None:
        running["loop"], running["stop"] = IOLoop.current(), asyncio.Event()
        started.set()
        await running["stop"].wait()

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True,
                              name="emprivacy IO loop")
    thread.start()
    if not started.wait(timeout):
        raise CorpusRunError(f"the local Dask cluster's IO loop did not start within "
                             f"{timeout:g} s; the machine may be overloaded")
    try:
        yield running["loop"]
    finally:
        running["loop"].add_callback(running["stop"].set)
        thread.join(timeout)


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
                                     ) as scratch, contextlib.ExitStack() as stack:
        # the cluster is closed however this ends, a Ctrl-C held back while it started too
        # (delivered as the mask is restored, once the cluster is on the stack)
        with dask.config.set({"distributed.scheduler.http.routes": routes}), \
                _stop_signals_blocked():
            # the loop's thread starts with the signals blocked, and so every worker process
            # it starts, a restarted one too
            loop = stack.enter_context(_io_loop())
            cluster = stack.enter_context(dask_distributed.LocalCluster(
                loop=loop,
                n_workers=n_workers, threads_per_worker=1, processes=True, protocol="tls://",
                host=_LOOPBACK, security=security, config=worker_config,
                local_directory=scratch,
                # bound to 127.0.0.1, on a free port (the default, 8787 on all interfaces,
                # may be taken); without a dashboard it is stopped as soon as it started
                dashboard_address=f"{_LOOPBACK}:0", scheduler_kwargs={"dashboard": dashboard},
                worker_dashboard_address=None, silence_logs=logging.CRITICAL))
        client = stack.enter_context(dask_distributed.Client(cluster))
        if not dashboard:
            client.run_on_scheduler(_close_scheduler_http)
        client.run(_close_worker_http)
        yield client
