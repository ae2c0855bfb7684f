"""Scale-out benchmark: words per second, single process vs 1 and 2 local Dask workers.

One synthetic corpus of about 1M words (JSONL, words drawn from the embedding
vocabulary with a Zipf-like law), one seed, four runs measured side by side
(``--repeat`` interleaved rounds; the fastest round of each counts, since other
processes on the machine only ever slow a run down):

* ``single-process``: :class:`emprivacy.obfuscation.obfuscator.Obfuscator` over
  :func:`emprivacy.io.corpus.iter_documents`, writing JSONL — the path of
  ``emprivacy obfuscate`` without ``--workers`` (BLAS may use every core);
* ``partitioned, in-process``: :func:`emprivacy.distributed.obfuscate_corpus`
  without a cluster (the cost of partition files, verification and merge);
* ``dask, 1 worker`` and ``dask, 2 workers``: the same on a ``LocalCluster`` of
  1 or 2 worker processes with one thread each (Dask limits each worker's BLAS to
  one thread), every worker loading the embeddings itself.

The Dask times include the workers loading the embeddings (once per worker per
run) but not starting the cluster, which is reported apart.  CPU seconds (this
process plus every worker process, from psutil) are reported next to wall time:
words per CPU-second measure the overhead of each path independently of other
load on the machine.  The outputs of all
runs must be identical (same seed); the script checks it.

Usage::

    python benchmarks/scale.py [--words 1000000] [--vocab-size 100000] [--epsilon 10]

Prints a table and writes ``benchmarks/results/scale.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from emprivacy import EarthMoversPrivacy, load_embeddings
from emprivacy.distributed import MechanismSettings, obfuscate_corpus
from emprivacy.io.corpus import iter_documents
from emprivacy.io.outputs import atomic_output, format_record
from emprivacy.obfuscation.obfuscator import Obfuscator

SEED = 12345
WORDS_PER_DOCUMENT = 200


def make_corpus(path: Path, words: tuple[str, ...], n_words: int, rng: np.random.Generator
                ) -> tuple[int, int]:
    """A JSONL corpus of ``n_words`` words from ``words`` (Zipf-like ranks); (docs, words)."""
    ranks = np.arange(1, len(words) + 1, dtype=np.float64)
    p = 1.0 / ranks
    p /= p.sum()
    n_docs = 0
    written = 0
    with open(path, "w", encoding="utf-8") as fh:
        while written < n_words:
            n = min(int(rng.integers(WORDS_PER_DOCUMENT // 2, 3 * WORDS_PER_DOCUMENT // 2)),
                    n_words - written)
            idx = rng.choice(len(words), size=n, p=p)
            fh.write(json.dumps({"id": f"doc{n_docs:06d}",
                                 "text": " ".join(words[i] for i in idx)}) + "\n")
            n_docs += 1
            written += n
    return n_docs, written


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _worker_cpu(client) -> float:
    """CPU seconds used so far by every worker process of ``client``'s cluster."""
    def cpu() -> float:
        import psutil

        t = psutil.Process().cpu_times()
        return t.user + t.system

    return sum(client.run(cpu).values()) if client is not None else 0.0


def run_single(corpus: Path, out: Path, mech: EarthMoversPrivacy) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of the single-process path."""
    t, c = time.perf_counter(), time.process_time()
    obf = Obfuscator(mech, seed=SEED)
    with atomic_output(out) as fh:
        for record in obf.obfuscate(iter_documents([corpus])):
            fh.write(format_record(record, "jsonl"))
            fh.write("\n")
    return time.perf_counter() - t, time.process_time() - c


def run_partitioned(corpus: Path, out: Path, mechanism, client=None
                    ) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of this process and the workers, partitions)."""
    w0 = _worker_cpu(client)
    t, c = time.perf_counter(), time.process_time()
    summary = obfuscate_corpus([corpus], out, mechanism=mechanism, client=client, seed=SEED)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return wall, cpu + _worker_cpu(client) - w0, summary.partitions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=1_000_000)
    parser.add_argument("--vocab-size", type=int, default=100_000)
    parser.add_argument("--epsilon", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=2,
                        help="interleaved repetitions of the four runs; the fastest counts")
    parser.add_argument("--output", type=Path,
                        default=Path(__file__).parent / "results" / "scale.json")
    args = parser.parse_args(argv)

    from distributed import Client, LocalCluster

    load_before = os.getloadavg()
    emb = load_embeddings(vocab_size=args.vocab_size)
    mech = EarthMoversPrivacy(emb, epsilon=args.epsilon)
    settings = MechanismSettings(epsilon=args.epsilon, vocab_size=args.vocab_size)
    names = ["single-process", "partitioned, in-process", "dask, 1 worker", "dask, 2 workers"]
    trials: dict[str, list[dict]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="emprivacy-scale-") as tmp:
        tmp_path = Path(tmp)
        corpus = tmp_path / "corpus.jsonl"
        n_docs, n_words = make_corpus(corpus, emb.words[:50_000], args.words,
                                      np.random.default_rng(0))
        print(f"corpus: {n_docs} documents, {n_words} words, "
              f"{corpus.stat().st_size / 2**20:.1f} MiB; embeddings {emb.name} "
              f"{len(emb)} words x {emb.dim}; epsilon {args.epsilon}", flush=True)

        outputs = {name: tmp_path / f"out{k}.jsonl" for k, name in enumerate(names)}
        for rep in range(args.repeat):
            for name in names:
                out = outputs[name]
                out.unlink(missing_ok=True)
                trial: dict = {"load_average_1min": os.getloadavg()[0]}
                if name == "single-process":
                    trial["seconds"], trial["cpu_seconds"] = run_single(corpus, out, mech)
                    trial["partitions"] = None
                elif name == "partitioned, in-process":
                    trial["seconds"], trial["cpu_seconds"], trial["partitions"] = \
                        run_partitioned(corpus, out, mech)
                else:
                    n_workers = int(name.split(", ")[1].split()[0])
                    t = time.perf_counter()
                    with LocalCluster(n_workers=n_workers, threads_per_worker=1,
                                      processes=True, dashboard_address=":0",
                                      silence_logs=logging.CRITICAL) as cluster, \
                            Client(cluster) as client:
                        trial["cluster_startup_seconds"] = time.perf_counter() - t
                        trial["seconds"], trial["cpu_seconds"], trial["partitions"] = \
                            run_partitioned(corpus, out, settings, client)
                trials[name].append(trial)
                print(f"[{rep + 1}/{args.repeat}] {name}: {trial['seconds']:.1f} s wall, "
                      f"{trial['cpu_seconds']:.1f} s CPU (load {trial['load_average_1min']:.1f})",
                      flush=True)

        digests = {name: digest(path) for name, path in outputs.items()}
        identical = len(set(digests.values())) == 1
        reference = outputs["single-process"].read_text(encoding="utf-8").splitlines()
        rows = []
        for name in names:
            best = min(trials[name], key=lambda t: t["seconds"])
            lines = outputs[name].read_text(encoding="utf-8").splitlines()
            rows.append({"name": name, **best, "trials": trials[name], "records": len(lines),
                         "records_differing_from_single_process": (
                             abs(len(lines) - len(reference))
                             + sum(a != b for a, b in zip(lines, reference, strict=False)))})

    for row in rows:
        row["words_per_second"] = n_words / row["seconds"]
        row["words_per_cpu_second"] = n_words / row["cpu_seconds"]
    by = {r["name"]: r["words_per_second"] for r in rows}
    ratios = {
        "dask 1 worker / single-process": by["dask, 1 worker"] / by["single-process"],
        "dask 2 workers / single-process": by["dask, 2 workers"] / by["single-process"],
        "dask 2 workers / dask 1 worker": by["dask, 2 workers"] / by["dask, 1 worker"],
        "partitioned in-process / single-process":
            by["partitioned, in-process"] / by["single-process"],
    }
    load_after = os.getloadavg()
    print()
    print(f"{'run (fastest of ' + str(args.repeat) + ')':<26} {'wall s':>8} {'words/s':>9} "
          f"{'CPU s':>8} {'words/CPU-s':>11} {'partitions':>10}")
    for r in rows:
        print(f"{r['name']:<26} {r['seconds']:>8.1f} {r['words_per_second']:>9.0f} "
              f"{r['cpu_seconds']:>8.1f} {r['words_per_cpu_second']:>11.0f} "
              f"{r['partitions'] if r['partitions'] is not None else '-':>10}")
    for k, v in ratios.items():
        print(f"{k}: {v:.2f}")
    print(f"identical output in all runs: {identical}"
          + ("" if identical else " (records differing from single-process: "
             + ", ".join(f"{r['name']} {r['records_differing_from_single_process']}"
                         for r in rows) + ")"))
    print(f"load average before/after: {load_before[0]:.2f} / {load_after[0]:.2f} "
          f"on {os.cpu_count()} CPUs")
    result = {
        "benchmark": "scale",
        "corpus": {"documents": n_docs, "words": n_words, "format": "jsonl"},
        "embeddings": {"name": emb.name, "vocab_size": len(emb), "dim": emb.dim},
        "epsilon": args.epsilon,
        "decoder": "exact",
        "repeat": args.repeat,
        "runs": rows,
        "ratios": ratios,
        "identical_output": identical,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_1min_before": load_before[0],
                    "load_average_1min_after": load_after[0]},
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.output}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
