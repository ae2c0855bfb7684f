"""Every flag of ``emprivacy audit`` and ``emprivacy calibrate`` with extreme values (issue 30).

Each flag that takes a value is given 0, a negative number, nan, ±inf, 1e-300, 1e300, a huge
integer (10²³ − 1) and 10⁹ (where a number is meaningful; strings elsewhere), one case at a
time, each in a subprocess of its own (``python -m emprivacy …``, a 6 GiB address-space limit
and a time limit) in a directory holding a 10-word embeddings file, a short text, a corpus of
two documents, a pairs file and two documents of one layout.  A case **fails** when:

* the command prints a traceback, a Python warning, or more than one line on stderr (every
  case runs with ``-q``: a fault is one line), or exits with another code than 0, 1 or 2;
* it is killed (time or memory limit): unbounded work;
* it succeeds with a figure that cannot be right: the ``--json`` output checked for
  non-finite numbers, an estimate outside its interval, a recovery outside [V(π), 1], a
  capacity outside [1, K], a calibration whose ε does not bracket the target.

Not a test (a few minutes on 2 cores): ``tests/test_audit_fuzz.py`` runs a sample of the
same cases in-process.  Usage::

    python benchmarks/fault_sweep.py [--jobs 2] [--timeout 120] [--only audit|calibrate]
                                     [--report sweep.md]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Values every numeric flag is given.
NUMBERS = ("0", "-1", "nan", "inf", "-inf", "1e-300", "1e300", "99999999999999999999999",
           "1000000000")
#: The tests' 10-word embeddings file (2-D), holding the words of the texts.
EMBEDDINGS = "\n".join([
    "cat 0 0", "dog 1 0", "car 10 10", "bus 11 10", "sun -10 5",
    "harbour 0 1", "zeppelin 9 9", "quiet 1 1", "factory 10 9", "drifted -9 5",
]) + "\n"
TEXT = ("The cat saw the dog by the harbour. The cat was quiet; a bus drifted past the "
        "factory. Cat and dog!")
MEMORY_LIMIT = 6 * 2**30


@dataclass
class Case:
    """One command line and what it printed."""

    args: list[str]
    flag: str
    value: str
    code: int | None = None
    out: str = ""
    err: str = ""
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def setup(root: Path) -> None:
    (root / "emb.txt").write_text(EMBEDDINGS, encoding="utf-8")
    (root / "a.txt").write_text(TEXT, encoding="utf-8")
    (root / "corpus").mkdir()
    (root / "corpus" / "one.txt").write_text(TEXT, encoding="utf-8")
    (root / "corpus" / "two.txt").write_text("The dog and the bus by the factory; the sun "
                                             "drifted. A cat!", encoding="utf-8")
    (root / "pairs.txt").write_text("cat dog\nbus drifted\n", encoding="utf-8")
    (root / "doc_a.txt").write_text("The cat saw the dog.", encoding="utf-8")
    (root / "doc_b.txt").write_text("The bus saw the dog.", encoding="utf-8")


def _numeric(base: list[str], flag: str, extra: list[str] | None = None,
             label: str | None = None) -> Iterator[Case]:
    for value in NUMBERS:
        yield Case([*base, *(extra or []), f"{flag}={value}"], label or flag, value)


def audit_cases() -> Iterator[Case]:
    base = ["audit", "a.txt", "--embeddings", "emb.txt", "-q", "--json", "--draws", "20",
            "--seed", "1"]
    for mech in ("madlib", "mahalanobis", "vickrey", "tem", "santext"):
        for value in NUMBERS:
            yield Case([*base, "--mechanism", mech, f"--epsilon={value}"],
                       f"--epsilon ({mech})", value)
    for mech in ("madlib", "santext"):  # the plot too: its log axis at the ends of float64
        for i, value in enumerate(NUMBERS):
            yield Case(["audit", "a.txt", "--embeddings", "emb.txt", "-q", "--draws", "20",
                        "--mechanism", mech, f"--epsilon={value},1", "--out",
                        f"plot-{mech}-{i}"], f"--epsilon ({mech}, --out)", value)
    with_e = [*base, "-e", "1"]
    for flag in ("--secrets", "--top", "--vocab-size"):
        yield from _numeric(with_e, flag)
    yield from _numeric(["audit", "a.txt", "--embeddings", "emb.txt", "-q", "--json", "-e",
                         "1"], "--draws")
    yield from _numeric(with_e, "--seed")
    yield from _numeric(with_e, "--distinguish", ["--distinguish-draws", "20"])
    yield from _numeric(with_e, "--distinguish-draws", ["--distinguish", "pairs.txt"])
    yield from _numeric(with_e, "--distinguish-draws",
                        ["--distinguish-documents", "doc_a.txt,doc_b.txt"])
    yield from _numeric(["audit", "corpus", "--embeddings", "emb.txt", "-q", "--json", "-e",
                         "1", "--draws", "20", "--reconstruct"], "--ngram")
    params = {"madlib": ["rank_resample"], "mahalanobis": ["lam", "rank_resample"],
              "vickrey": ["t", "lam"], "tem": ["beta", "block_cols", "n_threads"],
              "santext": ["block_cols"]}
    for mech, names in params.items():
        for name in names:
            for value in NUMBERS:
                yield Case([*base, "-e", "1", "--mechanism", mech,
                            f"--param={mech}.{name}={value}"], f"--param {mech}.{name}", value)
    for flag, values in (("--mechanism", ["", ",", "madlib,madlib", "laplace"]),
                         ("--prior", ["", "x"]),
                         ("--out", ["", "a.txt", "nodir/x", "/sys/x"]),
                         ("--distinguish", ["", "nope.txt", "a.txt"]),
                         ("--distinguish-documents", ["", "a.txt", "doc_a.txt,a.txt",
                                                      "doc_a.txt,doc_a.txt"]),
                         ("--embeddings-encoding", ["", "nope"]),
                         ("--epsilon", ["", ",", "1,x"])):
        for value in values:
            yield Case([*with_e, f"{flag}={value}"], flag, repr(value))
    reconstruct = ["audit", "corpus", "--embeddings", "emb.txt", "-q", "--json", "-e", "1",
                   "--draws", "20", "--reconstruct"]
    for flag, values in (("--mode", ["", "x"]), ("--reference", ["", "-", "nope.txt"])):
        for value in values:
            yield Case([*reconstruct, f"{flag}={value}"], flag, repr(value))


def calibrate_cases() -> Iterator[Case]:
    target = ["calibrate", "a.txt", "--embeddings", "emb.txt", "-q", "--json",
              "--target-recovery", "0.5"]
    for mech in ("santext", "madlib"):
        extra = ["--mechanism", mech, "--draws", "20", "--seed", "1"] if mech == "madlib" \
            else ["--mechanism", mech]
        for flag in ("--epsilons", "--rtol"):
            yield from _numeric(target, flag, extra)
    for value in NUMBERS:
        yield Case(["calibrate", "a.txt", "--embeddings", "emb.txt", "-q", "--json",
                    "--mechanism", "santext", f"--target-recovery={value}"],
                   "--target-recovery", value)
    for flag in ("--secrets", "--vocab-size", "--seed"):
        yield from _numeric(target, flag, ["--mechanism", "santext"])
    yield from _numeric(target, "--draws", ["--mechanism", "madlib", "--seed", "1"])
    for value in NUMBERS:
        yield Case([*target, "--mechanism", "tem", f"--param=tem.beta={value}"],
                   "--param tem.beta (target)", value)
    study = ["calibrate", "--embeddings", "emb.txt", "-q", "--json", "--no-plot",
             "--trials", "20"]
    for flag in ("--epsilons", "--n-words", "--size", "--delta", "--target-unchanged",
                 "--seed", "--vocab-size"):
        yield from _numeric(study, flag, [] if flag == "--epsilons" else ["--epsilons", "1"])
    yield from _numeric(["calibrate", "--embeddings", "emb.txt", "-q", "--json", "--no-plot",
                         "--epsilons", "1"], "--trials")
    for mech in ("madlib", "mahalanobis", "vickrey", "tem", "santext"):
        yield from _numeric(["calibrate", "--embeddings", "emb.txt", "-q", "--json",
                             "--mechanism", mech, "--trials", "20"], "--epsilons",
                            label=f"--epsilons ({mech} study)")
    for mech, names in (("madlib", ["rank_resample"]), ("tem", ["beta"])):  # the study
        for name in names:
            for value in NUMBERS:
                yield Case(["calibrate", "--embeddings", "emb.txt", "-q", "--json",
                            "--mechanism", mech, "--epsilons", "1", "--trials", "20",
                            f"--param={mech}.{name}={value}"],
                           f"--param {mech}.{name} (calibrate study)", value)
    study_madlib = ["calibrate", "--embeddings", "emb.txt", "-q", "--json", "--mechanism",
                    "madlib", "--epsilons", "1"]
    yield from _numeric(study_madlib, "--trials", label="--trials (madlib study)")
    yield from _numeric(study_madlib, "--n-words", ["--trials", "20"],
                        label="--n-words (madlib study)")


# -- what counts as a failure -------------------------------------------------------------
def _finite(value: Any, where: str, problems: list[str]) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        problems.append(f"{where} is {value}")


def _interval(obj: dict[str, Any], key: str, lo: float, hi: float, problems: list[str]
              ) -> None:
    f = obj.get(key)
    if not isinstance(f, dict):
        problems.append(f"{key} is not an object")
        return
    est, low, up = f.get("estimate"), f.get("lower"), f.get("upper")
    if None in (est, low, up):
        problems.append(f"{key} has a null figure")
        return
    eps = 1e-9
    if not (low - eps <= est <= up + eps):
        problems.append(f"{key}: estimate {est} outside [{low}, {up}]")
    if not (lo - eps <= low and up <= hi + eps):
        problems.append(f"{key}: [{low}, {up}] outside [{lo}, {hi}]")


def check_audit(obj: dict[str, Any], problems: list[str]) -> None:
    v_prior = obj["prior_vulnerability"]
    if not (isinstance(v_prior, float | int) and 0 < v_prior <= 1):
        problems.append(f"prior_vulnerability {v_prior!r}")
        return
    _interval(obj, "posterior_vulnerability", v_prior, 1.0, problems)
    _interval(obj, "attack_recovery", 0.0, 1.0, problems)
    _interval(obj, "multiplicative_leakage", 1.0, 1.0 / v_prior, problems)
    _interval(obj, "capacity", 1.0, float(obj["secrets"]), problems)
    for word in obj.get("most_exposed", []):
        r = word["recovery"]
        if not (0 <= r["lower"] <= r["estimate"] <= r["upper"] <= 1):
            problems.append(f"recovery of {word['word']!r} {r}")


def check_calibration(obj: dict[str, Any], problems: list[str]) -> None:
    if "target_recovery" in obj:
        eps, p = obj["epsilon"], obj["target_recovery"]
        if not (isinstance(eps, float | int) and 0 < eps < math.inf):
            problems.append(f"epsilon {eps!r}")
        if obj["posterior_vulnerability"]["upper"] > p + 1e-12:
            problems.append("the figure at epsilon is above the target")
        if obj["above"]["posterior_vulnerability"]["upper"] <= p:
            problems.append("the figure above epsilon is not above the target")
        return
    for r in obj.get("results", []):
        for key, value in r.items():
            _finite(value, f"results.{key}", problems)
        median = r.get("median_unchanged")
        if median is not None and not 0 <= median <= 1:
            problems.append(f"median_unchanged {median}")


def judge(case: Case) -> None:
    err_lines = [line for line in case.err.splitlines() if line.strip()]
    if case.code is None:
        case.problems.append("killed: time limit")
        return
    if case.code < 0 or case.code in (137, 139):
        case.problems.append(f"killed (exit {case.code})")
        return
    if "Traceback (most recent call last)" in case.err:
        case.problems.append("traceback")
    if any("Warning" in line for line in err_lines):
        case.problems.append("a Python warning on stderr")
    if case.code not in (0, 1, 2):
        case.problems.append(f"exit code {case.code}")
    if case.code != 0 and len(err_lines) != 1:
        case.problems.append(f"{len(err_lines)} lines on stderr")
    if case.code == 0 and case.out.strip() and "--json" in case.args:
        for line in case.out.splitlines():
            try:
                obj = json.loads(line, parse_constant=lambda c: float(c))
            except ValueError:
                case.problems.append("stdout is not JSON")
                return
            if case.args[0] == "audit":
                check_audit(obj, case.problems)
            else:
                check_calibration(obj, case.problems)


def run(case: Case, root: Path, timeout: float) -> Case:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    start = time.perf_counter()
    env = {**os.environ, "COLUMNS": "80"}
    try:
        proc = subprocess.run([sys.executable, "-m", "emprivacy", *case.args], cwd=root,
                              capture_output=True, text=True, timeout=timeout, env=env,
                              preexec_fn=limit, check=False)
        case.code, case.out, case.err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        case.code = None
    case.seconds = time.perf_counter() - start
    judge(case)
    return case


def report(cases: list[Case]) -> str:
    failed = [c for c in cases if c.problems]
    exits = Counter(c.code for c in cases)
    lines = [f"# Fault sweep: {len(cases)} cases, {len(failed)} failed", "",
             "exit codes: " + ", ".join(f"{k}: {v}" for k, v in sorted(
                 exits.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))), "",
             "| flag | value | exit | what it printed (last line of stderr) | problem |",
             "|---|---|---:|---|---|"]
    for c in sorted(cases, key=lambda c: (not c.problems, c.flag)):
        last = (c.err.strip().splitlines() or [""])[-1].replace("|", "\\|")[:160]
        lines.append(f"| `{c.flag}` | `{c.value}` | {c.code} | {last} | "
                     f"{'; '.join(c.problems) or 'ok'} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--only", choices=("audit", "calibrate"))
    parser.add_argument("--report", type=Path)
    args = parser.parse_args(argv)
    cases = [*(audit_cases() if args.only != "calibrate" else ()),
             *(calibrate_cases() if args.only != "audit" else ())]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        setup(root)
        with ThreadPoolExecutor(args.jobs) as pool:
            done = list(pool.map(lambda c: run(c, root, args.timeout), cases))
    text = report(done)
    if args.report is not None:
        args.report.write_text(text, encoding="utf-8")
    failed = sum(bool(c.problems) for c in done)
    print(f"{len(done)} cases in {time.perf_counter() - start:.0f} s; {failed} failed")
    for c in done:
        if c.problems:
            print(f"  {' '.join(c.args[1:])}: {'; '.join(c.problems)} "
                  f"(exit {c.code}; {c.err.strip().splitlines()[-1:] or ''})")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
