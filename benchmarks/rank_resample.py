"""The rank resampler's cache: the timing signal it gives, and what removing it would cost
(issue 22, item 5).

The rank resampler keeps the neighbour lists of the pivots (decoded words) it has seen
(an LRU of 64 MiB), so a document whose pivots an earlier document had is resampled
faster.  This script measures, on the built-in GloVe 6B 50d (100,000 words), Madlib at
``--epsilon`` (10) with ``rank_resample=0.04`` (the paper's c; K = 70 ranks):

* ``signal`` — one 300-word document's pivots resampled twice in a row by a fresh
  resampler: the first call (lists computed) and the second (lists cached), and so the
  cost of one list;
* ``without the cache`` — how many lists a resampler that keeps nothing between calls
  would compute for Zipf(1.1)-distributed corpora of 90,000, 1,000,000 and 10,000,000
  words in ``Obfuscator``'s batches of 16,384 words (each batch computing its distinct
  pivots once), against the lists the cache computes (each distinct pivot once per run),
  and the time that takes at the measured cost per list.  The pivots are taken to be the
  input words (at ε = 10 most decoded words are), so the counts need no decoding.

Usage::

    python benchmarks/rank_resample.py [--epsilon 10] [--seed 0] [--repeat 3]

Prints its figures; writes nothing.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

BATCH_WORDS = 16_384


def zipf_rows(gen: np.random.Generator, n_words: int, size: int) -> np.ndarray:
    """``size`` vocabulary rows, Zipf(1.1) over the frequency ranks."""
    rows = np.empty(0, dtype=np.int64)
    while rows.size < size:
        draw = gen.zipf(1.1, size=2 * size)
        rows = np.concatenate([rows, draw[draw <= n_words] - 1])
    return rows[:size]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epsilon", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from emprivacy import EarthMoversPrivacy, load_embeddings

    emb = load_embeddings(None, vocab_size=100_000)
    gen = np.random.default_rng(args.seed)
    print(f"{emb.name}, {len(emb)} words; madlib ε = {args.epsilon:g}, rank_resample = 0.04")

    first, second, per_list = [], [], []
    for rep in range(args.repeat):
        mech = EarthMoversPrivacy(emb, epsilon=args.epsilon, rank_resample=0.04, rng=rep)
        res = mech.rank_resampler
        if res is None:  # pragma: no cover - rank_resample is given
            raise SystemExit("no resampler")
        pivots = mech.decoder.decode(mech.noisy_vectors(zipf_rows(gen, len(emb), 300)))
        for times in (first, second):
            t0 = time.perf_counter()
            res.resample(pivots, np.random.default_rng(rep))
            times.append(time.perf_counter() - t0)
        per_list.append((first[-1] - second[-1]) / np.unique(pivots).size)
    cost = float(np.median(per_list))
    print(f"signal: a 300-word document's pivots resampled, first call "
          f"{1e3 * np.median(first):.1f} ms, the same pivots again "
          f"{1e3 * np.median(second):.2f} ms (median of {args.repeat}); "
          f"{1e3 * cost:.2f} ms per neighbour list")
    print(f"{'corpus words':>13} {'batches':>8} {'lists, no cache':>16} {'lists, cache':>13} "
          f"{'ratio':>6} {'time, no cache':>15} {'time, cache':>12}")
    for total in (90_000, 1_000_000, 10_000_000):
        words = zipf_rows(gen, len(emb), total)
        batched = sum(np.unique(words[s:s + BATCH_WORDS]).size
                      for s in range(0, total, BATCH_WORDS))
        cached = np.unique(words).size
        print(f"{total:>13,} {-(-total // BATCH_WORDS):>8} {batched:>16,} {cached:>13,} "
              f"{batched / cached:>6.1f} {batched * cost:>13.0f} s {cached * cost:>10.0f} s",
              flush=True)


if __name__ == "__main__":
    main()
