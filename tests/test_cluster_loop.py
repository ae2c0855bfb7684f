"""The local cluster's IO loop: started by emprivacy with a generous wait (Dask's own waits
10 s and fails with a bare ``AssertionError``; on two busy cores it once did, in CI)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

pytest.importorskip("distributed")

import emprivacy.distributed.cluster as run
from emprivacy.exceptions import CorpusRunError


def test_the_loop_runs_in_its_own_thread_and_stops_at_the_end() -> None:
    with run._io_loop(timeout=30) as loop:
        assert loop.asyncio_loop.is_running()
        seen: list[str] = []
        done = threading.Event()
        loop.add_callback(lambda: (seen.append(threading.current_thread().name), done.set()))
        assert done.wait(10) and seen == ["emprivacy IO loop"]
    assert not any(t.name == "emprivacy IO loop" and t.is_alive()
                   for t in threading.enumerate())


def test_a_loop_that_does_not_start_in_time_is_one_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_run(coroutine: object) -> None:
        coroutine.close()  # type: ignore[attr-defined]
        time.sleep(0.5)

    monkeypatch.setattr(asyncio, "run", slow_run)
    with pytest.raises(CorpusRunError, match=r"IO loop did not start within 0\.05 s"), \
            run._io_loop(timeout=0.05):
        pass  # pragma: no cover
