"""GPU benchmark: exact decoding on a device (``ArrayAPIDecoder``), its roofline, the CPU beside it.

For each vocabulary size V × n, in one run on the same noisy vectors
``Vec(x) + Lap_n^ε`` (source words x Zipf-distributed over the vocabulary, like
running text; the noise drawn on the host, as the mechanism draws it):

* ``gemm``: the device's bare float32 matrix product ``[z′, 1]·[−2w′, ‖w′‖²]ᵀ`` over the
  whole vocabulary, in the decoder's own tile shape (its measured roofline), and the
  TFLOP/s it reaches; ``gemm+argmin``: the same with an argmin per tile;
* ``device``: :class:`emprivacy.decoding.ArrayAPIDecoder` on the chosen array library
  (``decode``, and ``decode_top2`` for the Vickrey mechanism), with the share of
  queries re-decided in float64 on the host (near ties);
* ``cpu``: :class:`emprivacy.decoding.ExactDecoder` on every core of this machine,
  on ``--cpu-queries`` of the same vectors;
* ``agree``: the device decoder's words against ExactDecoder's, on the CPU sample and,
  at the sizes of ``--check-at``, on ``--check-queries`` (default 10⁵) vectors.

Vocabularies: ``100kx50`` is the built-in GloVe 6B 50d (its 100k most frequent real
words); every other size is synthetic unless ``--synthetic`` forces it for all: directions
from 1,000 Gaussian clusters, rows rescaled to norms drawn from the GloVe 50d words
(lognormal if GloVe is not installed).  Each timing is the fastest of ``--repeat``
rounds.

Usage (on a GPU machine, with ``pip install -e '.[gpu]'``)::

    python benchmarks/gpu.py                    # 100kx50, 400kx300, 2Mx300; CuPy
    python benchmarks/gpu.py --backend torch --device cuda:0
    python benchmarks/gpu.py --backend numpy --sizes 2kx50,3kx300 --queries 2000 \\
        --cpu-queries 500 --check-queries 2000      # a small check on the CPU

Prints a table and, with ``--out FILE``, writes the results as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import emprivacy
from emprivacy import Embeddings, laplace_noise
from emprivacy.decoding import ArrayAPIDecoder, ExactDecoder
from emprivacy.decoding.array_api import DEFAULT_DEVICE_MEMORY
from emprivacy.math.randomness import check_random_state

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decode import machine_info

SEED = 2025
DEFAULT_SIZES = "100kx50,400kx300,2Mx300"


# -- sizes and vocabularies ----------------------------------------------------------------
def parse_size(text: str) -> tuple[int, int]:
    """``"400kx300"`` → (400000, 300); ``k`` and ``M`` multiply by 10³ and 10⁶.

    >>> parse_size("2Mx300"), parse_size("1500x8")
    ((2000000, 300), (1500, 8))
    """
    words, _, dim = text.strip().lower().partition("x")
    scale = {"k": 1_000, "m": 1_000_000}.get(words[-1:], 1)
    number = float(words[:-1]) if scale > 1 else float(words)
    return int(number * scale), int(dim)


def glove_norms() -> np.ndarray | None:
    """Norms of the built-in GloVe 6B 50d words (None if it is not installed)."""
    try:
        return np.linalg.norm(emprivacy.load_embeddings(vocab_size=100_000).vectors
                              .astype(np.float64), axis=1)
    except (ImportError, OSError, ValueError):  # no GloVe: synthetic norms instead
        return None


def synthetic(n_words: int, dim: int, norms: np.ndarray | None) -> Embeddings:
    """V × n: directions from 1,000 Gaussian clusters, norms like the GloVe words'."""
    gen = np.random.default_rng(SEED)
    centers = gen.normal(size=(1000, dim)).astype(np.float32)
    x = np.empty((n_words, dim), dtype=np.float32)
    for s in range(0, n_words, 65536):  # in chunks: no float64 copy of a 2M × 300 matrix
        m = min(65536, n_words - s)
        x[s:s + m] = centers[gen.integers(0, 1000, m)] + 0.8 * gen.standard_normal(
            (m, dim), dtype=np.float32)
        target = (gen.choice(norms, m) if norms is not None
                  else gen.lognormal(np.log(5.0), 0.25, m))
        x[s:s + m] *= (target / np.linalg.norm(x[s:s + m], axis=1))[:, None]
    return Embeddings([f"s{i}" for i in range(n_words)], x,
                      name=f"synthetic-{n_words}x{dim}")


def vocabulary(n_words: int, dim: int, force_synthetic: bool,
               norms: np.ndarray | None) -> Embeddings:
    if not force_synthetic and dim == 50 and n_words <= 100_000:
        try:
            return emprivacy.load_embeddings(vocab_size=n_words)
        except (ImportError, OSError, ValueError):  # no GloVe: synthetic instead
            pass
    return synthetic(n_words, dim, norms)


def noisy_points(emb: Embeddings, epsilon: float, m: int, seed: int) -> np.ndarray:
    """``Vec(x) + Lap_n^ε`` for m source words, P(rank k) ∝ 1/(k + 2.7)."""
    gen = check_random_state(seed)
    p = 1.0 / (np.arange(len(emb)) + 2.7)
    src = gen.choice(len(emb), size=m, p=p / p.sum())
    return emb.vectors[src].astype(np.float64) + laplace_noise(emb.dim, epsilon, size=m,
                                                                rng=gen)


# -- the device ------------------------------------------------------------------------------
def namespace(backend: str) -> tuple[Any, str]:
    """The array library and its name (``auto``: CuPy if it sees a GPU, else NumPy)."""
    if backend == "numpy":
        return np, "numpy"
    if backend == "torch":
        import torch

        return torch, "torch"
    if backend == "strict":
        import array_api_strict

        return array_api_strict, "array_api_strict"
    try:
        from emprivacy.decoding.array_api import cuda_namespace

        return cuda_namespace(), "cupy"
    except (ImportError, RuntimeError) as exc:  # no extra, or no device
        if backend == "cupy":
            raise
        print(f"no CuPy device ({exc}); running on NumPy", file=sys.stderr)
        return np, "numpy"


def device_info(name: str, device: Any) -> dict[str, Any]:
    """The device's name and memory, and the library versions."""
    info: dict[str, Any] = {"backend": name, "device": str(device)}
    if name == "cupy":
        import cupy

        props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        info |= {"gpu": props["name"].decode(), "memory_gib": props["totalGlobalMem"] / 2**30,
                 "cupy": cupy.__version__, "cuda_runtime": cupy.cuda.runtime.runtimeGetVersion(),
                 "CUPY_TF32": os.environ.get("CUPY_TF32", "0")}
    elif name == "torch":
        import torch

        dev = torch.device(device or "cuda")
        info |= {"torch": torch.__version__}
        if dev.type == "cuda":
            info |= {"gpu": torch.cuda.get_device_name(dev),
                     "memory_gib": torch.cuda.get_device_properties(dev).total_memory / 2**30}
    return info


def fastest(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fastest of ``repeat`` wall-clock runs of ``fn`` (it must wait for the device)."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def roofline(dec: ArrayAPIDecoder, m: int, repeat: int) -> dict[str, float]:
    """The device's bare GEMM over the whole vocabulary for ``m`` queries, in the decoder's
    tile shape, with and without an argmin per tile (results brought back: a sync)."""
    xp = dec._xp
    dim = dec.embeddings.dim
    rows = min(m, dec.batch_rows)
    gen = np.random.default_rng(SEED)
    zq = xp.asarray(gen.normal(size=(rows, dim + 1)).astype(np.float32), device=dec.device)
    batches = -(-m // rows)

    def gemm() -> float:
        acc = []
        for _ in range(batches):
            for _, _, tile in dec._tiles:
                acc.append((zq @ tile)[0, 0] + 0.0)  # a copy: the tile is freed
        return float(dec._to_host(xp.stack(acc)).sum())

    def gemm_argmin() -> float:
        acc = []
        for _ in range(batches):
            for _, _, tile in dec._tiles:
                acc.append(xp.argmin(zq @ tile, axis=1)[0])
        return float(dec._to_host(xp.stack(acc)).sum())

    gemm()  # warm-up (kernels chosen, memory pools filled)
    t_gemm, _ = fastest(gemm, repeat)
    t_arg, _ = fastest(gemm_argmin, repeat)
    words = batches * rows
    flops = 2.0 * words * len(dec.embeddings) * (dim + 1)
    return {"gemm_words_per_second": words / t_gemm, "gemm_tflops": flops / t_gemm / 1e12,
            "gemm_argmin_words_per_second": words / t_arg}


# -- one size ----------------------------------------------------------------------------------
def bench_size(emb: Embeddings, xp: Any, args: argparse.Namespace, check: bool
               ) -> dict[str, Any]:
    t0 = time.perf_counter()
    dec = ArrayAPIDecoder(emb, namespace=xp, device=args.device,
                          memory_budget=args.memory_mib * 2**20)
    build = time.perf_counter() - t0
    row: dict[str, Any] = {"vocabulary": emb.name, "words": len(emb), "dim": emb.dim,
                           "epsilon": args.epsilon, "batch_rows": dec.batch_rows,
                           "block_cols": dec.block_cols, "build_seconds": build}
    z = noisy_points(emb, args.epsilon, args.queries, SEED)
    row |= roofline(dec, args.queries, args.repeat)
    dec.decode(z[:min(len(z), dec.batch_rows)])  # warm-up
    dec.near_ties = 0
    t, out = fastest(lambda: dec.decode(z), args.repeat)
    row["device_words_per_second"] = len(z) / t
    row["near_tie_share"] = dec.near_ties / (args.repeat * len(z))
    t2, top2 = fastest(lambda: dec.decode_top2(z), args.repeat)
    row["device_top2_words_per_second"] = len(z) / t2
    row["device_over_gemm"] = row["device_words_per_second"] / row["gemm_words_per_second"]
    # the CPU beside it, on a sample of the same vectors
    cpu = ExactDecoder(emb)
    zc = z[:args.cpu_queries]
    tc, ref = fastest(lambda: cpu.decode(zc), 1)
    row["cpu_words_per_second"] = len(zc) / tc
    row["cpu_threads"] = cpu.n_threads
    row["device_over_cpu"] = row["device_words_per_second"] / row["cpu_words_per_second"]
    disagree = int(np.count_nonzero(out[:len(zc)] != ref))
    ref2 = cpu.decode_top2(zc[:args.top2_check])
    disagree2 = sum(int(np.count_nonzero(a[:len(b)] != b)) for a, b in zip(top2, ref2,
                                                                          strict=True))
    checked = len(zc)
    if check and args.check_queries > len(zc):
        zk = noisy_points(emb, args.epsilon, args.check_queries, SEED + 1)
        disagree += int(np.count_nonzero(dec.decode(zk) != cpu.decode(zk)))
        checked += len(zk)
    row |= {"checked_queries": checked, "disagreements": disagree,
            "top2_checked_queries": min(len(zc), args.top2_check),
            "top2_disagreements": disagree2}
    return row


def table(report: dict[str, Any]) -> str:
    lines = ["| V × n | device w/s | top-2 w/s | GEMM roofline w/s (TFLOP/s) | ÷ roofline "
             "| GEMM+argmin w/s | near ties | CPU w/s | ÷ CPU | checked | disagree |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in report["sizes"]:
        lines.append(
            f"| {r['words']:,} × {r['dim']} | {r['device_words_per_second']:,.0f} "
            f"| {r['device_top2_words_per_second']:,.0f} "
            f"| {r['gemm_words_per_second']:,.0f} ({r['gemm_tflops']:.2f}) "
            f"| {r['device_over_gemm']:.2f} | {r['gemm_argmin_words_per_second']:,.0f} "
            f"| {100 * r['near_tie_share']:.2f} % | {r['cpu_words_per_second']:,.0f} "
            f"| {r['device_over_cpu']:.1f} | {r['checked_queries']:,} "
            f"| {r['disagreements']} (top-2: {r['top2_disagreements']}) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES,
                        help=f"comma-separated V x n (default {DEFAULT_SIZES})")
    parser.add_argument("--backend", default="auto",
                        choices=["auto", "cupy", "torch", "numpy", "strict"])
    parser.add_argument("--device", default=None, help="the library's device name, e.g. "
                        "cuda:0 for torch (default: its current device)")
    parser.add_argument("--queries", type=int, default=100_000, help="noisy words timed")
    parser.add_argument("--cpu-queries", type=int, default=2000,
                        help="of those, decoded by the CPU ExactDecoder too")
    parser.add_argument("--top2-check", type=int, default=1000,
                        help="of those, compared for decode_top2 as well")
    parser.add_argument("--check-queries", type=int, default=100_000,
                        help="other noisy words compared with ExactDecoder at --check-at")
    parser.add_argument("--check-at", default=None,
                        help="sizes of the large check (default: the first size)")
    parser.add_argument("--epsilon", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3, help="timing rounds (fastest kept)")
    parser.add_argument("--memory-mib", type=int, default=DEFAULT_DEVICE_MEMORY // 2**20,
                        help="the decoder's scratch per batch on the device")
    parser.add_argument("--synthetic", action="store_true", help="synthetic vectors at every "
                        "size")
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    args = parser.parse_args(argv)
    sizes = [parse_size(s) for s in args.sizes.split(",")]
    check_at = ([sizes[0]] if args.check_at is None
                else [parse_size(s) for s in args.check_at.split(",")])
    xp, name = namespace(args.backend)
    t0 = time.perf_counter()
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M"),
                              "machine": machine_info(), "device": device_info(name, args.device),
                              "queries": args.queries, "repeat": args.repeat, "sizes": []}
    print(json.dumps({"machine": report["machine"], "device": report["device"]}, indent=1))
    norms = None if all(n == 50 and v <= 100_000 for v, n in sizes) else glove_norms()
    for n_words, dim in sizes:
        emb = vocabulary(n_words, dim, args.synthetic, norms)
        row = bench_size(emb, xp, args, (n_words, dim) in check_at)
        report["sizes"].append(row)
        print(json.dumps(row), flush=True)
        del emb
    report["seconds"] = time.perf_counter() - t0
    report["machine"]["load_average_end"] = list(os.getloadavg())
    print("\n" + table(report))
    if args.out is not None:
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    bad = sum(r["disagreements"] + r["top2_disagreements"] for r in report["sizes"])
    if bad:
        print(f"DISAGREEMENTS with ExactDecoder: {bad}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
