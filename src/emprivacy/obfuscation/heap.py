"""The cyclic garbage collector during a run: full collections deferred until it ends
(issue 40, cost).

A run with entities allocates many short-lived objects (tokens, spans, decisions) beside a
large long-lived heap (spaCy's and Presidio's modules, the name and place lists): about
165,000 tracked objects, which each full collection walks (0.2 s each; three in 2,000
paragraphs, 0.57 s of the run's CPU, and the caches they flush).  The young generations
hold nearly all that a run leaves for the collector, so :func:`full_collections_deferred`
raises the oldest generation's threshold (:func:`gc.set_threshold`) while runs are under
way: a full collection then waits for :data:`DEFERRED_THRESHOLD` collections of the middle
generation, not 10.  Nothing is exempt from collection, so nothing can leak: a run that is
never finished (its stream dropped in a reference cycle) leaves full collections rarer, not
off.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["DEFERRED_THRESHOLD", "full_collections_deferred"]

#: The oldest generation's threshold while runs are under way (Python's default is 10).
DEFERRED_THRESHOLD = 1000

_lock = threading.Lock()
_runs = 0
_saved: tuple[int, ...] | None = None  # the thresholds before the runs, and the ones set
_set: tuple[int, ...] | None = None


@contextmanager
def full_collections_deferred() -> Iterator[None]:
    """Within: the collector's full collections wait for :data:`DEFERRED_THRESHOLD` of the
    middle generation's; after the last of the runs under way ends, the thresholds are the
    program's again — unless it set its own meanwhile, which stay (reentrant and
    thread-safe: runs in several threads, or one inside another, set and restore once).
    A program that reads the thresholds during a run and sets them back after it keeps
    the deferred one.

    >>> import gc
    >>> before = gc.get_threshold()
    >>> with full_collections_deferred():
    ...     gc.get_threshold()[2] >= DEFERRED_THRESHOLD
    True
    >>> gc.get_threshold() == before
    True
    """
    global _runs, _saved, _set
    with _lock:
        _runs += 1
        if _runs == 1:
            _saved = gc.get_threshold()
            _set = (*_saved[:2], max(_saved[2], DEFERRED_THRESHOLD))
            gc.set_threshold(*_set)
    try:
        yield
    finally:
        with _lock:
            _runs -= 1
            if _runs == 0 and _saved is not None:
                if gc.get_threshold() == _set:  # not the program's own meanwhile
                    gc.set_threshold(*_saved)
                _saved = _set = None
