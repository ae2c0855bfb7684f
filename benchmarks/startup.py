"""Start-up benchmark: how long the command line takes before it does any work.

Measured side by side, interleaved, in one run (each command ``--repeat`` times,
the median counts), each as wall-clock seconds of a fresh interpreter:

* ``python -c "import numpy"`` — the floor every numerical Python tool pays;
* ``python -c "import emprivacy"``;
* ``emprivacy --help``;
* ``emprivacy obfuscate ONE_LINE.txt --epsilon 10 --seed 1 --quiet`` on the built-in
  default embeddings (100k words): loading them, one document, one decoding call.

Targets (issue 11): ``--help`` ≤ 0.5 s and the one-line ``obfuscate`` ≤ 1.5 s on an
idle 2-core machine; each is also given as a ratio to ``import numpy`` measured in
the same run, which carries over to other machines better than seconds do.

Usage::

    python benchmarks/startup.py [--repeat 7] [--no-write]

Prints a table, writes ``benchmarks/results/startup.json`` and the table of
``docs/BENCHMARKS.md`` (between the ``startup`` markers).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decode import ROOT, machine_info, publish

RESULTS = ROOT / "benchmarks" / "results" / "startup.json"
BEGIN, END = "<!-- startup:begin -->", "<!-- startup:end -->"
TARGETS = {"emprivacy --help": 0.5, "emprivacy obfuscate (one line)": 1.5}


def commands(one_line: Path) -> dict[str, list[str]]:
    py = sys.executable
    return {
        "python -c 'import numpy'": [py, "-c", "import numpy"],
        "python -c 'import emprivacy'": [py, "-c", "import emprivacy"],
        "emprivacy --help": [py, "-m", "emprivacy", "--help"],
        "emprivacy obfuscate (one line)": [py, "-m", "emprivacy", "obfuscate", str(one_line),
                                           "--epsilon", "10", "--seed", "1", "--quiet"],
    }


def time_once(argv: list[str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="interleaved rounds")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="emprivacy-startup-") as tmp:
        one_line = Path(tmp) / "one-line.txt"
        one_line.write_text("The harbour was quiet when the ferry arrived from the island.\n",
                            encoding="utf-8")
        cmds = commands(one_line)
        for argv_ in cmds.values():  # warm the file cache (and the default embeddings' pages)
            time_once(argv_)
        times: dict[str, list[float]] = {name: [] for name in cmds}
        for _ in range(args.repeat):  # interleaved: a load spike hits every command alike
            for name, argv_ in cmds.items():
                times[name].append(time_once(argv_))
    floor = statistics.median(times["python -c 'import numpy'"])
    rows: list[dict[str, Any]] = []
    for name, ts in times.items():
        med = statistics.median(ts)
        rows.append({"command": name, "median_s": round(med, 3), "min_s": round(min(ts), 3),
                     "ratio_to_import_numpy": round(med / floor, 2),
                     "target_s": TARGETS.get(name),
                     "met": None if name not in TARGETS else med <= TARGETS[name]})
    report = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": machine_info(),
              "repeat": args.repeat, "load_average_end": list(os.getloadavg()),
              "commands": rows}
    lines = ["| command | median (s) | min (s) | ÷ import numpy | target | met |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        target = "" if r["target_s"] is None else f"≤ {r['target_s']} s"
        met = "" if r["met"] is None else ("yes" if r["met"] else "**no**")
        lines.append(f"| `{r['command']}` | {r['median_s']:.3f} | {r['min_s']:.3f} | "
                     f"{r['ratio_to_import_numpy']:.2f} | {target} | {met} |")
    la = ", ".join(f"{x:.2f}" for x in report["load_average_end"])
    table = "\n".join(lines) + (f"\n\n{args.repeat} interleaved rounds, median; "
                                f"{report['date']}; load average at the end: {la}.")
    print(table)
    if not args.no_write:
        publish(report, table, RESULTS, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
