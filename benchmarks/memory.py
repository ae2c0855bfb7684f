"""Memory benchmark: peak RSS of ``emprivacy obfuscate`` on one long single-line document.

One document of 1 MB, 30 MB and 300 MB (``--sizes``), a single line of words drawn
uniformly from the 1,000 most frequent real words of the built-in embeddings that are
their own bag of words (no stopword, no number word: every word of the document is
in the vocabulary and perturbed), is obfuscated in text mode and in bag mode, in a
single process and with ``--workers 2`` (a local Dask cluster)::

    emprivacy obfuscate doc.txt --epsilon 10 --seed 1 --vocab-size 1000 --quiet \\
        --output OUT --format text|bag            # single process
    emprivacy obfuscate doc.txt ... --workers 2 --format bag
    emprivacy obfuscate doc.txt ... --workers 2 --readable --format jsonl

Each measurement runs in a fresh child: a small wrapper process runs the command and
reports ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` — the peak RSS of the largest process
of the run (the command, or one of its Dask workers).  Meanwhile the benchmark polls the
process tree and reads each process's own peak (``VmHWM`` of ``/proc/PID/status``), to
say which process it was: the command itself ("main") or a Dask worker.

Target (issue 16): the 300 MB document's peak within 300 MB of the 1 MB document's, in
every mode.  Before streaming (issue 16) a 29 MB document took 3.4 GB (text) and 3.2 GB
(bag), about 100 bytes per input byte.

Usage::

    python benchmarks/memory.py [--sizes 1,30,300] [--modes text,bag]
                                [--workers 1,2] [--parquet] [--no-write]

Prints a table, writes ``benchmarks/results/memory.json`` and the table of
``docs/BENCHMARKS.md`` (between the ``memory`` markers).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decode import ROOT, machine_info, publish

RESULTS = ROOT / "benchmarks" / "results" / "memory.json"
BEGIN, END = "<!-- memory:begin -->", "<!-- memory:end -->"
VOCAB_SIZE = 1000
TARGET_MB = 300  # the largest document's peak may exceed the 1 MB document's by this much
POLL_S = 0.25

#: Runs the command given as its arguments; prints the children's peak RSS (KiB) and the
#: command's exit code, as JSON.
WRAPPER = """
import json, resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                      text=True).returncode
print(json.dumps({"code": code,
                  "maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def vocabulary_words() -> list[str]:
    """The words of the document: in the 1,000-word vocabulary, each its own bag of words."""
    from emprivacy import bag_of_words, load_embeddings

    words = [w for w in load_embeddings(vocab_size=VOCAB_SIZE).words if bag_of_words(w) == [w]]
    assert len(words) > 500, len(words)
    return words


def make_document(path: Path, megabytes: float, words: list[str], seed: int = 0) -> int:
    """Write one line of ``megabytes`` × 10⁶ bytes (about) of random ``words``; its words."""
    gen = np.random.default_rng(seed)
    target = int(megabytes * 1_000_000)
    written = n = 0
    with open(path, "w", encoding="utf-8") as fh:
        while written < target:
            batch = [words[i] for i in gen.integers(0, len(words), 100_000)]
            text = " ".join(batch)
            if written + len(text) > target:  # the last batch: cut at a word's end
                text = text[:max(text.find(" ", target - written), 0) or len(text)]
            fh.write(("" if written == 0 else " ") + text)
            written += len(text) + (0 if written == 0 else 1)
            n += text.count(" ") + 1
        fh.write("\n")
    return n


def command(doc: Path, out: Path, mode: str, workers: int, parquet: bool = False
            ) -> list[str]:
    cmd = [sys.executable, "-m", "emprivacy", "obfuscate", str(doc), "--epsilon", "10",
           "--seed", "1", "--vocab-size", str(VOCAB_SIZE), "--quiet", "--output", str(out)]
    if parquet:  # a directory of Parquet files; text mode as --readable records
        extra = ["--workers", str(workers)] if workers > 1 else []
        return [*cmd, *extra, *(["--readable"] if mode == "text" else []),
                "--format", "parquet"]
    if workers == 1:
        return [*cmd, "--format", mode]
    if mode == "text":
        return [*cmd, "--workers", str(workers), "--readable", "--format", "jsonl"]
    return [*cmd, "--workers", str(workers), "--format", "bag"]


def _hwm_kib(pid: int) -> int | None:
    """The peak RSS of process ``pid`` so far (``VmHWM``), or ``None`` if it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def measure(cmd: list[str]) -> dict[str, Any]:
    """Run ``cmd`` in a fresh wrapper; its peak RSS, and the peaks of its processes."""
    import psutil

    t0 = time.perf_counter()
    wrapper = subprocess.Popen([sys.executable, "-c", WRAPPER, *cmd], stdout=subprocess.PIPE,
                               text=True)
    peaks: dict[int, tuple[str, int]] = {}
    root = psutil.Process(wrapper.pid)
    while wrapper.poll() is None:
        try:
            main = {p.pid for p in root.children()}
            children = root.children(recursive=True)
        except psutil.NoSuchProcess:
            break
        for proc in children:
            hwm = _hwm_kib(proc.pid)
            if hwm is not None and hwm > peaks.get(proc.pid, ("", 0))[1]:
                peaks[proc.pid] = ("main" if proc.pid in main else "worker", hwm)
        time.sleep(POLL_S)
    out, _ = wrapper.communicate()
    seconds = time.perf_counter() - t0
    result = json.loads(out.strip().splitlines()[-1])
    if result["code"] != 0:
        raise SystemExit(f"{' '.join(cmd)} failed with exit code {result['code']}")
    top = max((k for role, k in peaks.values() if role == "main"), default=None)
    worker = max((k for role, k in peaks.values() if role == "worker"), default=None)
    return {"peak_rss_mib": result["maxrss_kib"] / 1024, "seconds": seconds,
            "main_peak_mib": None if top is None else top / 1024,
            "worker_peak_mib": None if worker is None else worker / 1024}


def markdown(report: dict[str, Any]) -> str:
    runs = report["runs"]
    base = {(r["mode"], r["workers"]): r["peak_rss_mib"] for r in runs
            if r["megabytes"] == min(x["megabytes"] for x in runs)}
    lines = ["| document | words | mode | processes | peak RSS | over the smallest | "
             "main / largest worker (sampled) | time |",
             "|---:|---:|---|---|---:|---:|---:|---:|"]
    for r in runs:
        over = r["peak_rss_mib"] - base[(r["mode"], r["workers"])]
        split = (f"{r['main_peak_mib']:,.0f} / {r['worker_peak_mib']:,.0f} MiB"
                 if r["worker_peak_mib"] is not None and r["main_peak_mib"] is not None
                 else "")
        procs = "single" if r["workers"] == 1 else f"--workers {r['workers']}"
        mode = r["mode"] + (", Parquet" if r.get("format") == "parquet" else "")
        lines.append(f"| {r['megabytes']:g} MB | {r['words']:,} | {mode} | {procs} | "
                     f"{r['peak_rss_mib']:,.0f} MiB | {over:+,.0f} MiB | {split} | "
                     f"{r['seconds']:,.0f} s |")
    m = report["machine"]
    lines.append("")
    lines.append(f"Measured {report['date']} on {m.get('cores', os.cpu_count())} cores; "
                 f"vocabulary {VOCAB_SIZE} words, ε = 10, exact decoder; load average at "
                 f"the end {report['load_average_end'][0]:.1f}.  Peak RSS: the largest "
                 "process of the run (`ru_maxrss`); target: the largest document within "
                 f"{TARGET_MB} MB of the smallest, per mode.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,30,300", help="document sizes in MB")
    parser.add_argument("--modes", default="text,bag")
    parser.add_argument("--workers", default="1,2", help="1: single process; K: --workers K")
    parser.add_argument("--tmp", default=None, help="directory for the documents and outputs")
    parser.add_argument("--parquet", action="store_true",
                        help="write Parquet output (--format parquet) instead")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    sizes = [float(x) for x in args.sizes.split(",")]
    modes = args.modes.split(",")
    workers = [int(x) for x in args.workers.split(",")]
    words = vocabulary_words()
    runs: list[dict[str, Any]] = []
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": machine_info(),
                              "vocab_size": VOCAB_SIZE, "runs": runs}
    with tempfile.TemporaryDirectory(prefix="emprivacy-memory-", dir=args.tmp) as tmp:
        for megabytes in sizes:
            doc = Path(tmp) / f"doc-{megabytes:g}mb.txt"
            n_words = make_document(doc, megabytes, words)
            for mode in modes:
                for k in workers:
                    suffix = "parquet" if args.parquet else "jsonl" if k > 1 else "txt"
                    out = Path(tmp) / f"out-{mode}-{k}.{suffix}"
                    result = measure(command(doc, out, mode, k, args.parquet))
                    if out.is_dir():
                        shutil.rmtree(out)
                    out.unlink(missing_ok=True)
                    row = {"megabytes": megabytes, "bytes": doc.stat().st_size,
                           "words": n_words, "mode": mode, "workers": k,
                           "format": "parquet" if args.parquet else "default", **result}
                    runs.append(row)
                    print(json.dumps(row), flush=True)
            doc.unlink()
    report["load_average_end"] = list(os.getloadavg())
    table = markdown(report)
    print("\n" + table)
    if not args.no_write:
        publish(report, table, RESULTS, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
