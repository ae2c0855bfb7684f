"""Threads: how many cores there are, and one single-threaded BLAS per worker thread.

Every parallel loop of emprivacy — the exact decoder's tiles, the approximate
decoder's chunks, the deniability study's pass over the vocabulary — runs one
Python thread per core, each with a single-threaded BLAS (idle BLAS and OpenMP
thread pools spin-wait, and would compete with ours for the same cores).
Work is cut into row blocks (:func:`row_blocks`) that :func:`run_on_cores` deals out.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from emprivacy._validation import check_positive_int

__all__ = ["available_cores", "blas_controller", "check_threads", "row_blocks", "run_on_cores"]

T = TypeVar("T")

_controller_lock = threading.Lock()
_controller: Any = None


def available_cores() -> int:
    """Number of CPU cores this process may run on (the default thread count).

    >>> available_cores() >= 1
    True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def check_threads(n_threads: int | None) -> int:
    """A thread count: ``n_threads`` validated (a positive int), or :func:`available_cores`.

    >>> check_threads(3), check_threads(None) == available_cores()
    (3, True)
    """
    return available_cores() if n_threads is None else check_positive_int(n_threads, "n_threads")


def blas_controller() -> Any:
    """A cached :class:`threadpoolctl.ThreadpoolController` (building one costs milliseconds)."""
    global _controller
    with _controller_lock:
        if _controller is None:
            from threadpoolctl import ThreadpoolController

            _controller = ThreadpoolController()
        return _controller


def run_on_cores(work: Callable[[list[T]], None], items: Iterable[T], n_threads: int) -> None:
    """``work(items[k::n])`` for every ``k < n``, on ``n = min(n_threads, len(items))`` threads.

    BLAS is limited to one thread for the duration; with a single worker, ``work`` runs
    in the calling thread.  The first exception raised by a worker is re-raised.

    >>> seen = []
    >>> run_on_cores(seen.extend, range(5), 2)
    >>> sorted(seen)
    [0, 1, 2, 3, 4]
    """
    parts = list(items)
    n_workers = min(n_threads, len(parts))
    if n_workers == 0:
        return
    with blas_controller().limit(limits=1, user_api="blas"):
        if n_workers == 1:
            work(parts)
        else:
            with ThreadPoolExecutor(max_workers=n_workers) as pool:
                futures = [pool.submit(work, parts[k::n_workers]) for k in range(n_workers)]
                for f in futures:
                    f.result()


def row_blocks(m: int, block: int, n_threads: int) -> list[tuple[int, int]]:
    """``(start, stop)`` blocks of at most ``block`` of ``m`` rows; smaller blocks when
    there are fewer than ``n_threads`` full ones, so that every core gets work.

    >>> row_blocks(10, 4, 1)
    [(0, 4), (4, 8), (8, 10)]
    >>> row_blocks(10, 256, 4)
    [(0, 3), (3, 6), (6, 9), (9, 10)]
    """
    if m < n_threads * block:
        block = max(1, -(-m // n_threads))
    return [(s, min(s + block, m)) for s in range(0, m, block)]
