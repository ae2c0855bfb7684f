"""The cyclic garbage collector during a run: the objects alive when it starts are set
aside until it ends (issue 40, cost).

A run with entities allocates many short-lived objects (tokens, spans, decisions) beside a
large long-lived heap (spaCy's and Presidio's modules, the name and place lists): about
165,000 tracked objects, which each full collection walks (0.2 s each; three in 2,000
paragraphs, 0.6 s of the run's CPU, and the caches they flush).  :func:`run_heap_frozen`
moves the objects alive at a run's start to the collector's permanent generation
(:func:`gc.freeze`) and puts them back when the last run ends (:func:`gc.unfreeze`), so a
full collection during the run walks only what the run made.  Nothing is lost: an object
set aside is still freed when its last reference goes, and one that becomes cyclic garbage
meanwhile is collected after the run, by the next full collection.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["run_heap_frozen"]

_lock = threading.Lock()
_runs = 0


@contextmanager
def run_heap_frozen() -> Iterator[None]:
    """Within: the objects alive when the first of the runs under way began are outside the
    collector's full collections; after the last run ends they are back (reentrant and
    thread-safe: runs in several threads, or one inside another, freeze once and unfreeze
    once).

    >>> import gc
    >>> before = gc.get_freeze_count()
    >>> with run_heap_frozen():
    ...     gc.get_freeze_count() > before
    True
    >>> gc.get_freeze_count() == before
    True
    """
    global _runs
    with _lock:
        _runs += 1
        if _runs == 1:
            gc.freeze()
    try:
        yield
    finally:
        with _lock:
            _runs -= 1
            if _runs == 0:
                gc.unfreeze()
