"""Column benchmark: a table's column through ``privatize_texts``, Arrow, pandas, Polars and
Hugging Face ``datasets``, beside ``obfuscate`` on the same words, and the Arrow stream's
memory.

``--rows`` short synthetic reviews (default 100,000, 15 to 25 words each, 20 on average: a
capitalised sentence of words drawn with a Zipf-like law, P(rank r) ∝ r^-0.8, from the
5,000 most frequent words of the built-in vocabulary, function words included, and a full
stop; about 12 words of each are perturbed) are released in text mode, ε = 10, seeded,
on the built-in embeddings (100k words, exact decoder), by

* ``obfuscate``: :class:`emprivacy.Obfuscator` on the rows as documents of ids
  ``f"{i}#{digest(text)}"`` (made beforehand: how every table path keys row ``i``) — what
  ``emprivacy obfuscate --readable`` runs for each record, without the JSONL reading and
  writing — the reference;
* ``privatize_texts``: :func:`emprivacy.privatize_texts` over the list of strings;
* Arrow: :func:`emprivacy.tables.arrow.privatize_table` of a one-column table;
* pandas: :func:`emprivacy.tables.pandas.privatize_frame`;
* Polars: :func:`emprivacy.tables.polars.privatize`;
* ``datasets``: ``Dataset.map`` of :func:`emprivacy.tables.datasets.mapper` (``batched=True,
  with_indices=True``, the default ``batch_size`` of 1,000) with ``num_proc=2``: two worker
  processes, forked for each map, each building the mechanism on its first batch (the
  built-in embeddings are already loaded in this process, and the fork shares them).
* Spark: :func:`emprivacy.tables.spark.privatize` on a local session of 2 cores
  (:func:`emprivacy.tables.spark.local_session`, ``local[2]``), the rows keyed by an ``id``
  column (``id_column="id"``, its check job included); the input DataFrame is cached in
  Spark beforehand and the release written to Spark's ``noop`` sink (executed, not
  collected), so the time is the release's, not the driver's moving of rows.  Its work is
  done by Spark's Python workers, other processes: its CPU seconds are not measured.
  Skipped with ``--no-spark`` or without pyspark.

Each is timed in this process after a warm-up on 500 rows, interleaved over ``--repeat``
rounds (the fastest round counts), in wall-clock seconds and in CPU seconds of the process
and of its finished child processes (``datasets``' workers; not inflated by other processes
on the machine); the script checks that every path released the same texts as
``obfuscate`` (one keying for every path: row ``i`` of text ``t`` the document
``f"{i}#{digest(t)}"``; Spark's ids are the indices).  It prints
rows/s and words/s (privatised words, the sum of ``n_words``) and the ratio of each path's
words/s to ``obfuscate``'s.  Target (issue 24): within 1.3× of ``obfuscate`` (ratio ≥ 0.77)
for Arrow, pandas and Polars.

Memory: :func:`emprivacy.tables.arrow.privatize_batches` over a stream of record batches of
10,000 generated rows, its output read and dropped, in a fresh child process per size
(``--memory-rows``, default 10,000 and 1,000,000); the child's peak RSS
(``getrusage``).  Target: 1M rows within 200 MB of 10k rows.

Usage::

    python benchmarks/columns.py [--rows 100000] [--repeat 3]
                                 [--memory-rows 10000,1000000] [--no-spark] [--no-write]

Prints a table (with the load average before and after: the machine may be shared), writes
``benchmarks/results/columns.json`` and the table of ``docs/BENCHMARKS.md`` (between the
``columns`` markers) unless ``--no-write``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decode import ROOT, machine_info, publish

RESULTS = ROOT / "benchmarks" / "results" / "columns.json"
BEGIN, END = "<!-- columns:begin -->", "<!-- columns:end -->"
EPSILON = 10.0
SEED = 1
WORDS_PER_REVIEW = 20
POOL = 5000
ZIPF = 0.8
WARM_ROWS = 500
TARGET_RATIO = 1 / 1.3
TARGET_MB = 200
MEMORY_BATCH = 10_000
SPARK_CORES = 2
#: Paths whose work runs in other processes: their CPU seconds are not this process's.
OTHER_PROCESSES = {"spark"}


def reviews(n: int, words: list[str], seed: int = 0, start: int = 0) -> list[str]:
    """``n`` synthetic reviews of 15 to 25 words, drawn with P(rank r) ∝ r^-0.8 from
    ``words`` (most frequent first: about 12 of 20 words are perturbed in text mode, the
    rest are kept function words), seeded by their first row."""
    gen = np.random.default_rng([seed, start])
    weights = 1 / np.arange(1, len(words) + 1) ** ZIPF
    ranks = gen.choice(len(words), size=(n, WORDS_PER_REVIEW + 5), p=weights / weights.sum())
    lengths = gen.integers(WORDS_PER_REVIEW - 5, WORDS_PER_REVIEW + 6, size=n)
    return [" ".join(words[r] for r in row[:length]).capitalize() + "."
            for row, length in zip(ranks, lengths, strict=True)]


def vocabulary_pool() -> list[str]:
    from emprivacy import load_embeddings

    return list(load_embeddings(vocab_size=POOL).words)


def children_cpu() -> float:
    """CPU seconds of the finished child processes (``datasets``' workers) so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall and CPU seconds (this process's and its children's) of ``fn()``, and its value."""
    w0, c0, k0 = time.perf_counter(), time.process_time(), children_cpu()
    value = fn()
    cpu = time.process_time() - c0 + children_cpu() - k0
    return time.perf_counter() - w0, cpu, value


def spark_path(texts: list[str], timed_run: bool) -> Callable[[], list[str | None]]:
    """Spark local[2]: ``texts`` as a cached DataFrame (ids ``0``, ``1``, …); the function
    releases it into the ``noop`` sink, and gives the texts of a second, collected release
    of the same seed when ``timed_run`` is false (the check run)."""
    import pandas as pd

    from emprivacy.tables.spark import local_session, privatize

    spark = local_session(cores=SPARK_CORES,
                          config={"spark.sql.execution.arrow.pyspark.enabled": "true"})
    df = spark.createDataFrame(pd.DataFrame({"id": range(len(texts)), "review": texts}))
    df = df.repartition(SPARK_CORES).cache()
    df.count()

    def release() -> list[str | None]:
        out = privatize(df, "review", epsilon=EPSILON, seed=SEED, id_column="id")
        if timed_run:
            out.write.format("noop").mode("overwrite").save()
            return []
        rows = out.select("id", "review").toPandas().sort_values("id")
        return rows["review"].tolist()
    return release


def paths(texts: list[str], emb: Any) -> dict[str, Callable[[], list[str | None]]]:
    """Each path: a function releasing ``texts``, giving the released texts."""
    import datasets
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    from emprivacy import ObfuscationConfig, Obfuscator, privatize_texts
    from emprivacy.io.documents import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.tables.arrow import privatize_table
    from emprivacy.tables.datasets import mapper
    from emprivacy.tables.pandas import privatize_frame
    from emprivacy.tables.polars import privatize
    from emprivacy.tables.privatizer import text_digest

    kwargs: dict[str, Any] = {"epsilon": EPSILON, "embeddings": emb, "seed": SEED}
    # the records' ids, as every table path keys row i of text t (made beforehand: a
    # record's id is given, not computed, on the command line)
    ids = [f"{i}#{text_digest(t)}" for i, t in enumerate(texts)]

    def obfuscate() -> list[str | None]:
        obf = Obfuscator(EarthMoversPrivacy(emb, epsilon=EPSILON), ObfuscationConfig(
            mode="text"), seed=SEED)
        return [r["text"] for r in obf.obfuscate(Document(i, t)
                                                 for i, t in zip(ids, texts, strict=True))]

    table = pa.table({"review": texts})
    frame = pd.DataFrame({"review": texts})
    polars_frame = pl.DataFrame({"review": texts})
    hf_dataset = datasets.Dataset.from_dict({"review": texts})
    datasets.disable_progress_bars()

    def hf_map() -> list[str | None]:
        # the built-in embeddings, as emb (100k words): each worker builds its mechanism
        out = hf_dataset.map(mapper(column="review", epsilon=EPSILON, seed=SEED),
                             batched=True, with_indices=True, num_proc=2)
        return list(out.with_format("arrow")["review"].to_pylist())
    return {
        "obfuscate": obfuscate,
        "privatize_texts": lambda: [r.release for r in privatize_texts(texts, **kwargs)],
        "arrow": lambda: privatize_table(table, "review", **kwargs).column(
            "review").to_pylist(),
        "pandas": lambda: privatize_frame(frame, "review", **kwargs)["review"].tolist(),
        "polars": lambda: privatize(polars_frame, "review", **kwargs)["review"].to_list(),
        "datasets (num_proc=2)": hf_map,
    }


def has_spark() -> bool:
    import importlib.util

    return importlib.util.find_spec("pyspark") is not None


def bench_throughput(n_rows: int, repeat: int, spark: bool = True) -> dict[str, Any]:
    from emprivacy import load_embeddings, privatize_texts

    emb = load_embeddings()
    texts = reviews(n_rows, vocabulary_pool())
    n_words = sum(r.metadata["n_words"] for r in privatize_texts(
        texts, epsilon=EPSILON, embeddings=emb, seed=SEED))
    for fn in paths(texts[:WARM_ROWS], emb).values():  # first calls pay for warming up
        fn()
    runs = paths(texts, emb)
    checks: dict[str, Callable[[], list[str | None]]] = {}
    if spark:  # the session started and its workers warmed up by a first release
        spark_path(texts[:WARM_ROWS], timed_run=False)()
        runs["spark"] = spark_path(texts, timed_run=True)
        checks["spark"] = spark_path(texts, timed_run=False)
    best: dict[str, dict[str, float]] = {}
    released: dict[str, list[str | None]] = {}
    for _ in range(repeat):  # interleaved: a load spike hits every path alike
        for name, fn in runs.items():
            wall, cpu, out = timed(fn)
            released[name] = out
            b = best.setdefault(name, {"wall_s": wall, "cpu_s": cpu})
            b["wall_s"], b["cpu_s"] = min(b["wall_s"], wall), min(b["cpu_s"], cpu)
    released.update({name: fn() for name, fn in checks.items()})  # untimed
    reference = released["obfuscate"]
    for name, out in released.items():  # row i of text t: the document f"{i}#{digest(t)}"
        if out != reference:  # (Spark's ids are the indices)
            raise SystemExit(f"{name} released other texts than obfuscate")
    ref = best["obfuscate"]
    table = {}
    for name, b in best.items():
        own = name not in OTHER_PROCESSES
        table[name] = {**b, "rows_per_s": n_rows / b["wall_s"],
                       "words_per_s": n_words / b["wall_s"],
                       "words_per_cpu_s": n_words / b["cpu_s"] if own else None,
                       "ratio_wall": ref["wall_s"] / b["wall_s"],
                       "ratio_cpu": ref["cpu_s"] / b["cpu_s"] if own else None}
        if not own:
            table[name]["cpu_s"] = None
    return {"rows": n_rows, "words": n_words, "repeat": repeat, "paths": table}


# -- memory -------------------------------------------------------------------------------
def memory_child(n_rows: int) -> None:
    """Run in a child: stream ``n_rows`` generated rows through privatize_batches; print
    the peak RSS (MiB) and the rows released."""
    import pyarrow as pa

    from emprivacy import load_embeddings
    from emprivacy.tables.arrow import privatize_batches

    emb = load_embeddings()
    words = vocabulary_pool()
    schema = pa.schema([("id", pa.int64()), ("review", pa.string())])

    def batches() -> Iterator[pa.RecordBatch]:
        for start in range(0, n_rows, MEMORY_BATCH):
            n = min(MEMORY_BATCH, n_rows - start)
            yield pa.record_batch([pa.array(range(start, start + n), pa.int64()),
                                   pa.array(reviews(n, words, start=start))], schema=schema)

    reader = privatize_batches(batches(), "review", schema=schema, epsilon=EPSILON,
                               embeddings=emb, seed=SEED)
    rows = sum(batch.num_rows for batch in reader)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"rows": rows, "peak_mb": peak}))


def bench_memory(sizes: list[int]) -> list[dict[str, Any]]:
    out = []
    for n in sizes:
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, __file__, "--memory-child", str(n)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"memory child ({n} rows) failed: {done.stderr.strip()}")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        if result["rows"] != n:
            raise SystemExit(f"memory child released {result['rows']} rows of {n}")
        out.append({**result, "wall_s": time.perf_counter() - t0})
    return out


def markdown(report: dict[str, Any]) -> str:
    t = report["throughput"]
    load = report["machine"]["load_average_start"], report["load_average_end"]
    lines = [f"{t['rows']:,} reviews, {t['words']:,} privatised words, text mode, ε = "
             f"{EPSILON:g}, built-in embeddings (100k words), {report['machine']['cores']} "
             f"cores; load average {load[0][0]:.2f} at the start, {load[1][0]:.2f} at the "
             f"end; best of {t['repeat']}.", "",
             "| path | rows/s | words/s | words/CPU-s | vs obfuscate (wall) | (CPU) |",
             "|---|---:|---:|---:|---:|---:|"]
    for name, p in t["paths"].items():
        cpu = ("— | " if p["words_per_cpu_s"] is None
               else f"{p['words_per_cpu_s']:,.0f} | ")
        ratio = "— |" if p["ratio_cpu"] is None else f"{p['ratio_cpu']:.2f} |"
        label = f"spark local[{SPARK_CORES}]" if name == "spark" else name
        lines.append(f"| {label} | {p['rows_per_s']:,.0f} | {p['words_per_s']:,.0f} | "
                     f"{cpu}{p['ratio_wall']:.2f} | {ratio}")
    if report["memory"]:
        lines += ["", "| Arrow stream, rows | peak RSS (MB) | wall (s) |", "|---:|---:|---:|"]
        lines += [f"| {m['rows']:,} | {m['peak_mb']:.0f} | {m['wall_s']:.1f} |"
                  for m in report["memory"]]
        first, last = report["memory"][0], report["memory"][-1]
        lines += ["", f"Peak RSS grows by {last['peak_mb'] - first['peak_mb']:.0f} MB from "
                  f"{first['rows']:,} to {last['rows']:,} rows (target: within {TARGET_MB} "
                  "MB at 1M rows)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000, help="reviews per path")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--memory-rows", default="10000,1000000",
                        help="rows of the memory check, comma-separated ('' to skip)")
    parser.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--no-spark", action="store_true",
                        help="leave out the Spark local[2] path")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    if args.memory_child is not None:
        memory_child(args.memory_child)
        return 0
    report: dict[str, Any] = {"machine": machine_info()}
    report["throughput"] = bench_throughput(args.rows, args.repeat,
                                            spark=not args.no_spark and has_spark())
    sizes = [int(s) for s in args.memory_rows.split(",") if s.strip()]
    report["memory"] = bench_memory(sizes)
    report["load_average_end"] = list(os.getloadavg())
    table = markdown(report)
    print(table)
    ratios = {n: p["ratio_cpu"] for n, p in report["throughput"]["paths"].items()
              if n in ("arrow", "pandas", "polars")}
    slow = [n for n, r in ratios.items() if r < TARGET_RATIO]
    print(f"\nwithin 1.3x of obfuscate (CPU seconds): "
          f"{'all' if not slow else 'not ' + ', '.join(slow)}")
    if not args.no_write:
        publish(report, table, RESULTS, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
