"""SanText and TEM at a small ε: words per second, with and without the envelope (issue 30).

At a small ε a word's ball (its 64 nearest words) holds little of the exponential
mechanism's law, and the Gumbel-max outside step looked at hundreds of words per draw:
releases at ε = 1 ran 20–50 times slower than at ε ≥ 5.  ``mechanisms/_envelope.py`` draws
those queries by rejection from an envelope instead.  This script releases the same words
at each ε with the sampler as it is (the envelope where it pays) and with the envelope
switched off (``_GUMBEL_OUTSIDE_MAX = inf``: the Gumbel-max step for every query), and
prints words per second and exact distances per draw.

On the built-in GloVe 6B 50d where it is available (``--embeddings`` for another file),
else on a synthetic vocabulary of 100,000 words in dimension 50 (``--synthetic``).

Usage::

    python benchmarks/small_epsilon.py [--words 20000] [--epsilons 0.3,1,2,3,5,10,20]
                                       [--synthetic] [--embeddings FILE] [--threads 1]
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np

from emprivacy import Embeddings, load_embeddings
from emprivacy.mechanisms import _sampling, make_mechanism


def _embeddings(args: argparse.Namespace) -> Embeddings:
    if not args.synthetic:
        try:
            return load_embeddings(args.embeddings)
        except Exception as exc:  # no network, no cache: say so, and go on
            print(f"(no embeddings: {exc}; a synthetic vocabulary instead)")
    gen = np.random.default_rng(0)
    vectors = (gen.normal(size=(100_000, 50)) * 0.7).astype(np.float32)
    return Embeddings([f"w{i}" for i in range(100_000)], vectors, name="synthetic 100k x 50")


def _run(mech, rows: np.ndarray) -> tuple[float, float]:
    pairs = [0]
    original = mech._sampler.exact_squared

    def counted(points, cols, rows_=None):
        pairs[0] += cols.size
        return original(points, cols, rows_)

    mech._sampler.exact_squared = counted
    start = time.perf_counter()
    mech.privatize_indices(rows, rng=np.random.default_rng(1))
    seconds = time.perf_counter() - start
    mech._sampler.exact_squared = original
    return rows.size / seconds, pairs[0] / rows.size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=int, default=20_000)
    parser.add_argument("--epsilons", default="0.3,1,2,3,5,10,20")
    parser.add_argument("--embeddings")
    parser.add_argument("--synthetic", action="store_true")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    emb = _embeddings(args)
    # the words of a text: frequent words repeat (the first 2,000 rows, by Zipf's law)
    gen = np.random.default_rng(0)
    ranks = np.minimum(gen.zipf(1.3, size=args.words) - 1, 1999)
    print(f"{emb.name}: {len(emb)} words, n = {emb.dim}; {args.words} words released per "
          f"run; load average {os.getloadavg()[0]:.2f}")
    print("| mechanism | ε | words/s | exact distances per draw | without the envelope: "
          "words/s | distances per draw | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in ("santext", "tem"):
        for eps in (float(e) for e in args.epsilons.split(",")):
            mech = make_mechanism(name, emb, epsilon=eps, n_threads=args.threads)
            rate, per = _run(mech, ranks)
            saved = _sampling._GUMBEL_OUTSIDE_MAX
            _sampling._GUMBEL_OUTSIDE_MAX = math.inf
            try:
                old_rate, old_per = _run(mech, ranks)
            finally:
                _sampling._GUMBEL_OUTSIDE_MAX = saved
            print(f"| {name} | {eps:g} | {rate:,.0f} | {per:.1f} | {old_rate:,.0f} | "
                  f"{old_per:.1f} | {rate / old_rate:.1f}x |")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
