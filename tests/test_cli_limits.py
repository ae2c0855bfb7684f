"""Every number has a bound, and a stop is bounded too (issue 44, items 2 and 7).

Each absurd count below was a traceback (``islice`` on ``--vocab-size 99999999999999999999``,
``Maximum allowed dimension exceeded`` on ``evaluate --trials``, a memory message inside a
traceback on ``--epsilon-hat-draws``), a 60 s hang (``--workers 99999999999999999999``) or
an exit 0 with output that is not JSON (``guarantee --distance 1e300 --json`` printed
``Infinity``).  Now: one line naming the option, its bound, the unit and why, exit 2, before
any work."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from emprivacy.cli import main

HUGE = "99999999999999999999"


@pytest.fixture
def text(tmp_path: Path) -> Path:
    path = tmp_path / "a.txt"
    path.write_text("The quiet cat sat on the warm mat.\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("argv, option, bound", [
    (["obfuscate", "{text}", "-e", "10", "--vocab-size", HUGE], "'--vocab-size'",
     "at most 10,000,000 words (the largest public embeddings hold a few million)"),
    (["distance", "{text}", "{text}", "--vocab-size", HUGE], "'--vocab-size'", "10,000,000 words"),
    (["calibrate", "--vocab-size", HUGE], "'--vocab-size'", "10,000,000 words"),
    (["audit", "{text}", "-e", "1", "--vocab-size", HUGE], "'--vocab-size'", "10,000,000 words"),
    (["evaluate", "--out", "{out}", "--vocab-size", HUGE], "'--vocab-size'", "10,000,000 words"),
    (["evaluate", "--out", "{out}", "--trials", HUGE], "'--trials'",
     "at most 10,000 trials (each repeats the whole experiment)"),
    (["evaluate", "--out", "{out}", "--trials", "1000000000000"], "'--trials'",
     "10,000 trials"),
    (["evaluate", "--out", "{out}", "--epsilon-hat", "3", "--epsilon-hat-draws", HUGE],
     "'--epsilon-hat-draws'", "at most 10,000,000 draws"),
    (["calibrate", "-N", HUGE], "'--size' / '-N'", "at most 10,000,000 words"),
    (["obfuscate", "{text}", "-e", "10", "-N", HUGE], "'--size' / '-N'", "10,000,000 words"),
    (["guarantee", "-e", "1", "-N", "3", "-d", "1", "--dim", HUGE], "'--dim' / '-n'",
     "at most 100,000 dimensions"),
    (["audit", "{text}", "-e", "1", "--draws", HUGE], "'--draws'", "10,000,000 draws"),
    (["audit", "{text}", "-e", "1", "--secrets", HUGE], "'--secrets'", "10,000,000 words"),
])
def test_an_absurd_count_is_one_line(argv, option, bound, text, tmp_path, capsys):
    argv = [a.format(text=text, out=tmp_path / "out") for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"emprivacy: error: Invalid value for {option}: ")
    assert bound in err[0] and f"got {argv[-1]}" in err[0]
    assert not (tmp_path / "out").exists()


def test_rtol_has_an_upper_bound(capsys):
    assert main(["calibrate", "--target-recovery", "0.5", "--rtol", "1e300"]) == 2
    assert capsys.readouterr().err.strip() == (
        "emprivacy: error: --rtol must be below 1 (100 % or more ends the search at once); "
        "got 1e+300")


def test_json_never_holds_infinity(capsys):
    assert main(["guarantee", "-e", "1", "-N", "3", "-d", "1", "--distance", "1e300",
                 "--json"]) == 0
    out = capsys.readouterr().out
    payload = json.loads(out, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))
    assert payload["privacy_multiplier"] is None and payload["distance"] == 1e300


def test_more_workers_than_cores_warns_and_uses_the_cores(text, tmp_path, capsys):
    pytest.importorskip("distributed")
    out = tmp_path / "out.jsonl"
    assert main(["obfuscate", str(text), "-e", "10", "--vocab-size", "20000", "--workers",
                 HUGE, "-o", str(out)]) == 0
    err = capsys.readouterr().err
    cores = os.cpu_count() or 1
    assert (f"emprivacy: warning: --workers {HUGE} is more than this machine's {cores} "
            f"cores; using {cores}") in err.splitlines()
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1


#: A command whose main thread is stopped while a pool's thread keeps working: the stop
#: waits for the pool (as evaluate's did, for minutes, after ``timeout`` sent SIGTERM).
STUCK = """
import concurrent.futures, sys, time
import emprivacy.cli as cli
cli.TERM_GRACE_S = 1.0
with cli._sigterm_stops():
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(time.sleep, 120)
        print("ready", flush=True)
        time.sleep(120)
"""


@pytest.mark.parametrize("signals", [[signal.SIGTERM], [signal.SIGINT, signal.SIGINT]],
                         ids=["sigterm-grace", "second-ctrl-c"])
def test_a_stop_is_bounded(signals):
    """SIGTERM: the command tidies up for at most TERM_GRACE_S, then ends at once with its
    one line and 143; a second Ctrl-C ends it at once with 130."""
    proc = subprocess.Popen([sys.executable, "-c", STUCK], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        start = time.monotonic()
        for sig in signals:
            proc.send_signal(sig)
            time.sleep(0.3)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert time.monotonic() - start < 30
    word, code = (("terminated", 143) if signals[0] == signal.SIGTERM
                  else ("interrupted", 130))
    assert (proc.returncode, err.strip()) == (
        code, f"emprivacy: {word}; stopped at once, before tidying up")


def test_the_bounds_are_the_guarantees_own():
    from emprivacy import math as em
    from emprivacy.cli import limits

    assert (limits.MAX_BAG_SIZE, limits.MAX_DIM) == (em.MAX_BAG_SIZE, em.MAX_DIM)


@pytest.mark.parametrize("extra", [[], ["--mechanism", "santext"]], ids=["study", "mechanism"])
def test_calibrate_says_its_progress_in_a_log(tmp_path, capsys, monkeypatch, extra):
    """Issue 44, item 8: with stderr not a terminal, calibrate printed nothing for 41-76 s;
    now a progress line every LOG_EVERY seconds (0 here: one per step), as audit does."""
    from emprivacy.cli import calibration, calibration_mechanism

    from .helpers import EMBEDDINGS_FILE

    emb = tmp_path / "emb.txt"
    emb.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    for module in (calibration, calibration_mechanism):
        monkeypatch.setattr(module, "LOG_EVERY", 0.0)
    argv = ["calibrate", "--embeddings", str(emb), "--epsilons", "1,2,3", "--trials", "5",
            "--n-words", "4", "--no-plot", *extra]
    if extra:
        argv.remove("--no-plot")
    assert main(argv) == 0
    lines = [x for x in capsys.readouterr().err.splitlines()
             if re.fullmatch(r"emprivacy: (studying the mechanism|running santext on the "
                             r"studied words): \d+% done.*elapsed\)", x)]
    assert len(lines) >= 3 and lines[-1].split(": ")[2].startswith("100% done"), lines


def test_a_workers_warning_is_one_line(monkeypatch, capsys):
    """Issue 44, item 8: a worker's stale-cache warning came out as Python's UserWarning
    with its source line; in a worker, build() says it as the command line does."""
    import warnings

    from emprivacy import Embeddings
    from emprivacy.distributed import MechanismSettings, task

    def loader() -> Embeddings:
        warnings.warn("the cached copy of embeddings file 'e.txt' is stale; rebuilt",
                      UserWarning, stacklevel=1)
        return Embeddings(["cat", "dog"], [[0.0, 0.0], [1.0, 0.0]], name="toy")

    monkeypatch.setattr(task, "_in_a_worker", lambda: True)
    MechanismSettings(epsilon=1.0, loader=loader).build()
    assert capsys.readouterr().err == ("emprivacy: warning: the cached copy of embeddings "
                                       "file 'e.txt' is stale; rebuilt\n")
    monkeypatch.setattr(task, "_in_a_worker", lambda: False)  # elsewhere: a warning
    with pytest.warns(UserWarning, match="is stale"):
        MechanismSettings(epsilon=1.0, loader=loader).build()


def test_loading_the_entity_models_is_said(text, capsys):
    """Issue 44, item 8: --entities auto loaded its models for 13 s without a line."""
    pytest.importorskip("spacy")
    assert main(["obfuscate", str(text), "-e", "10", "--vocab-size", "20000", "--format",
                 "text", "--entities", "auto"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("emprivacy: loading the entity detectors (spacy,presidio,")
    assert main(["obfuscate", str(text), "-e", "10", "--vocab-size", "20000", "--format",
                 "text", "--entities", "auto", "-q"]) == 0
    assert capsys.readouterr().err == ""
