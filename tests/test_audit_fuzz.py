"""Extreme values for the flags of ``audit`` and ``calibrate``, in-process (issue 30): a
sample of ``benchmarks/fault_sweep.py``'s 495 cases (which runs each in a subprocess).

Every case ends with exit code 0 and figures that can be right (checked on ``--json``), or
with one line on stderr and exit code 1 or 2; an exception escaping ``main`` (a traceback)
fails the test.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from .helpers import input_env, run_cli

TEXT = ("The cat saw the dog by the harbour. The cat was quiet; a bus drifted past the "
        "factory. Cat and dog!")
EXTREMES = ("0", "-1", "nan", "inf", "1e-300", "1e300", "99999999999999999999999")

AUDIT = ["audit", "{text}", "--embeddings", "{emb}", "-q", "--json", "--draws", "20",
         "--seed", "1"]
TARGET = ["calibrate", "{text}", "--embeddings", "{emb}", "-q", "--json",
          "--target-recovery", "0.5", "--mechanism", "santext"]
STUDY = ["calibrate", "--embeddings", "{emb}", "-q", "--json", "--no-plot", "--trials", "20"]

CASES = [
    *[([*AUDIT, "--mechanism", m, f"--epsilon={v}"], f"audit {m} -e {v}")
      for m in ("madlib", "tem", "santext") for v in EXTREMES],
    *[([*AUDIT, "-e", "1", f"{flag}={v}"], f"audit {flag} {v}")
      for flag in ("--secrets", "--top", "--seed", "--distinguish")
      for v in ("0", "-1", "99999999999999999999999")],
    *[(["audit", "{text}", "--embeddings", "{emb}", "-q", "--json", "-e", "1",
        f"--draws={v}"], f"audit --draws {v}") for v in ("1", "1000000000",
                                                           "99999999999999999999999")],
    *[([*AUDIT, "-e", "1", "--distinguish", "1", f"--distinguish-draws={v}"],
       f"audit --distinguish-draws {v}") for v in ("1000000000", "99999999999999999999999")],
    *[([*AUDIT, "-e", "1", "--mechanism", "tem", f"--param=tem.beta={v}"],
       f"audit tem.beta {v}") for v in ("0", "nan", "1e-300", "1e300")],
    *[([*AUDIT, "-e", "1", f"--param=madlib.rank_resample={v}"], f"audit rank_resample {v}")
      for v in ("0", "inf", "1e-300", "1e300")],
    *[([*TARGET, f"--epsilons={v}"], f"calibrate --epsilons {v}")
      for v in ("0", "1e-300", "1e-140", "1e300")],
    *[([*TARGET, f"--rtol={v}"], f"calibrate --rtol {v}") for v in ("0", "1e-300", "1e300")],
    *[(["calibrate", "{text}", "--embeddings", "{emb}", "-q", "--json", "--mechanism", "tem",
        f"--target-recovery={v}"], f"calibrate --target-recovery {v}")
      for v in ("0", "1", "nan", "1e-300", "0.9999999")],
    (["calibrate", "{text}", "--embeddings", "{emb}", "-q", "--json", "--target-recovery",
      "0.5", "--draws", "1000000000"], "calibrate --draws 1e9"),
    *[([*STUDY, "--epsilons", "1", f"{flag}={v}"], f"study {flag} {v}")
      for flag in ("--size", "--delta", "--target-unchanged", "--n-words")
      for v in ("0", "-1", "nan", "1e300")],
    *[([*STUDY[:-2], "--epsilons", "1", f"--trials={v}"], f"study --trials {v}")
      for v in ("1000000000", "99999999999999999999999")],
    *[([*STUDY, f"--epsilons={v}"], f"study --epsilons {v}") for v in ("1e-300", "1e300")],
    *[(["calibrate", "--embeddings", "{emb}", "-q", "--json", "--mechanism", "madlib",
        "--epsilons", "1", f"--trials={v}"], f"madlib study --trials {v}")
      for v in ("1000000000", "99999999999999999999999")],
]


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict[str, Path]:
    return input_env(tmp_path_factory.mktemp("fuzz"), TEXT)


def _figures_hold(obj: dict) -> None:
    """What a successful ``--json`` must satisfy: finite figures, each estimate inside its
    interval, recoveries in [V(π), 1], capacities in [1, K]; an ε that brackets its target."""
    if "prior_vulnerability" in obj and "secrets" in obj and "capacity" in obj:
        v = obj["prior_vulnerability"]
        for key, lo, hi in (("posterior_vulnerability", v, 1.0), ("attack_recovery", 0.0, 1.0),
                            ("capacity", 1.0, float(obj["secrets"]))):
            f = obj[key]
            assert lo - 1e-9 <= f["lower"] <= f["estimate"] <= f["upper"] <= hi + 1e-9, key
    if "target_recovery" in obj:
        assert 0 < obj["epsilon"] < math.inf
        assert obj["posterior_vulnerability"]["upper"] <= obj["target_recovery"]
        assert obj["above"]["posterior_vulnerability"]["upper"] > obj["target_recovery"]
    for r in obj.get("results", []):
        for value in r.values():
            assert not (isinstance(value, float) and not math.isfinite(value)), r


@pytest.mark.parametrize(("argv", "name"), CASES, ids=[name for _, name in CASES])
def test_no_traceback_and_no_impossible_figure(env, capsys, argv, name):
    args = [a.format(text=env["text"], emb=env["emb"]) for a in argv]
    code, out, err = run_cli(args, capsys)
    lines = err.strip().splitlines()
    if code == 0:
        assert lines == [], err
        for line in out.splitlines():
            _figures_hold(json.loads(line))
    else:
        assert code in (1, 2) and len(lines) == 1 and lines[0].startswith("emprivacy: error: ")
