"""What surrounds a run of ``emprivacy obfuscate``: its Dask cluster, what an interruption
says and keeps, and the tidying after a failed corpus run."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from emprivacy.cli._common import RESUME_OPTION, Interrupted
from emprivacy.exceptions import PrivacyLeakWarning, interrupt_inside

if TYPE_CHECKING:  # pragma: no cover
    from distributed import Client
    from rich.console import Console

__all__ = ["NOTHING_KEPT", "cluster", "interruption", "nothing_kept", "tidy_after"]


@contextlib.contextmanager
def interruption() -> Iterator[None]:
    """An interrupted corpus run that kept complete partitions says so, in its one line
    (``emprivacy: interrupted; … re-run with --resume to continue``, exit code 130)."""
    from emprivacy.exceptions import CorpusRunInterrupted

    try:
        yield
    except CorpusRunInterrupted as exc:
        raise Interrupted(exc.message(resume=RESUME_OPTION)) from None


#: What the one line of an interrupted run in one process adds: its output's temporary
#: file is removed, and ``--resume`` would have made it a run that keeps what it finished.
NOTHING_KEPT = (f"nothing was kept — run with {RESUME_OPTION} to keep completed partitions "
                "next time")


@contextlib.contextmanager
def nothing_kept(*, resumable: bool) -> Iterator[None]:
    """An interrupted run in one process keeps nothing: where it could have been run with
    ``--resume`` (into a file, not from standard input, not ``--format text``), its one
    line says so and how the next run keeps its completed partitions
    (``emprivacy: interrupted; nothing was kept — run with --resume …``, exit code 130)."""
    try:
        yield
    except KeyboardInterrupt:
        if not resumable:
            raise
        raise Interrupted(NOTHING_KEPT) from None
    except Exception as exc:  # Ctrl-C inside a lazy import: a RuntimeError around it
        if not resumable or not interrupt_inside(exc):
            raise
        raise Interrupted(NOTHING_KEPT) from None


@contextlib.contextmanager
def tidy_after(output: Path, fmt: str) -> Iterator[None]:
    """After a failed or interrupted corpus run, once its cluster is closed: remove what
    its killed workers left in the partition directory (their temporary files), and the
    directory if nothing else is in it (:func:`~emprivacy.distributed.remove_leftovers`).

    The library has already removed the run's files, or kept its complete partitions;
    a worker of a local cluster may still have been writing then.
    """
    from emprivacy.distributed import output_layout, remove_leftovers

    parts_dir = output_layout(output, fmt)[1]
    existed = parts_dir.exists()
    try:
        yield
    except BaseException:
        remove_leftovers(parts_dir, remove_directory=not existed or fmt != "parquet")
        raise


@contextlib.contextmanager
def cluster(console: Console, *, scheduler: str | None, workers: int | None,
             dashboard: bool, quiet: bool) -> Iterator[Client | None]:
    """The run's Dask client (``None``: no cluster), with its one-line notes on stderr.

    ``--workers``: a local cluster only this process can use (TLS with credentials
    made for the run, 127.0.0.1 only); with ``--dashboard`` the address its dashboard
    is bound to is printed (even with ``--quiet``: it was asked for).  ``--scheduler``:
    Dask's own security configuration; an unencrypted address of another machine
    gets one warning line.
    """
    from emprivacy.distributed import (
        CLEARTEXT_WARNING,
        dashboard_link,
        dask_client,
        unencrypted_remote,
    )

    if scheduler is None and workers is None:
        yield None
        return
    if scheduler is not None and unencrypted_remote(scheduler):
        console.print("emprivacy: warning: " + CLEARTEXT_WARNING.format(address=scheduler),
                      markup=False)
    with contextlib.ExitStack() as stack:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PrivacyLeakWarning)  # said above, in one line
            client = stack.enter_context(dask_client(scheduler=scheduler, n_workers=workers,
                                                     dashboard=dashboard))
        link = dashboard_link(client)
        if link is not None and (dashboard or not quiet):
            console.print(f"emprivacy: Dask dashboard: {link}", markup=False)
        yield client
