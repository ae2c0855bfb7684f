"""``emprivacy distance`` on long documents (issue 22, item 14): the old solver against the new.

Two documents of ``--sizes`` words (pairs ``N,N'``; default 5000,4980 and 20000,19950: bags
of different sizes, as the bags of two real texts are) are drawn from the built-in
GloVe 6B 50d vocabulary, Zipf-distributed over its frequency ranks (exponent 1.1,
seeded), so that words repeat as in running text.  Side by side, in this process:

* ``old`` — what ``earth_movers_distance`` did before: POT's network simplex
  ``ot.emd2`` on the N × N' cost matrix of the occurrences, uniform weights, POT's
  default iteration limit (100,000).  Whether POT warned ``numItermax reached before
  optimality`` is recorded: its value is then not the optimum;
* ``new`` — ``earth_movers_distance`` now: the same linear program on the documents'
  histograms (distinct words × counts), the iteration limit raised until POT certifies
  the optimum.

Usage::

    python benchmarks/distance.py [--sizes 5000,4980 20000,19950] [--seed 0] [--no-old]

Prints a table and writes ``benchmarks/results/distance.json``.  The old solver on
20,000 words needs about 7 GB of memory (two 20,000 × 19,950 float64 matrices).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "distance.json"


def documents(n_words: int, sizes: tuple[int, int], seed: int) -> tuple[np.ndarray, ...]:
    """Two bags of vocabulary rows, Zipf(1.1) over the frequency ranks."""
    gen = np.random.default_rng(seed)
    out = []
    for size in sizes:
        rows = np.empty(0, dtype=np.int64)
        while rows.size < size:
            draw = gen.zipf(1.1, size=2 * size)
            rows = np.concatenate([rows, draw[draw <= n_words] - 1])
        out.append(rows[:size])
    return tuple(out)


def old_distance(X: np.ndarray, Y: np.ndarray) -> tuple[float, bool]:
    """The previous code path for bags of different sizes; and whether POT warned."""
    import ot

    from emprivacy.math.distance import cost_matrix

    M = cost_matrix(X, Y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = float(ot.emd2(np.full(len(X), 1.0 / len(X)), np.full(len(Y), 1.0 / len(Y)), M))
    return value, any("numItermax" in str(w.message) for w in caught)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", default=["5000,4980", "20000,19950"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-old", action="store_true", help="Skip the old solver.")
    args = parser.parse_args()

    from emprivacy import load_embeddings
    from emprivacy.math.distance import earth_movers_distance

    emb = load_embeddings(None, vocab_size=100_000)
    rows: list[dict[str, Any]] = []
    print(f"{emb.name}, {len(emb)} words; Zipf(1.1) documents, seed {args.seed}")
    print(f"{'words':>13} {'distinct':>11} {'old s':>8} {'old E':>10} {'flagged':>8} "
          f"{'new s':>7} {'new E':>10} {'old/new E':>10}")
    for spec in args.sizes:
        sizes = tuple(int(s) for s in spec.split(","))
        a, b = documents(len(emb), (sizes[0], sizes[1]), args.seed)
        X = emb.vectors[a].astype(np.float64)
        Y = emb.vectors[b].astype(np.float64)
        t0 = time.perf_counter()
        new = earth_movers_distance(X, Y)
        t_new = time.perf_counter() - t0
        row: dict[str, Any] = {"sizes": list(sizes),
                               "distinct": [int(np.unique(a).size), int(np.unique(b).size)],
                               "new_seconds": t_new, "new_E": new}
        if not args.no_old:
            t0 = time.perf_counter()
            old, flagged = old_distance(X, Y)
            row.update(old_seconds=time.perf_counter() - t0, old_E=old, old_flagged=flagged)
        rows.append(row)
        old_s = f"{row['old_seconds']:8.2f}" if "old_E" in row else f"{'-':>8}"
        old_e = f"{row['old_E']:10.5f}" if "old_E" in row else f"{'-':>10}"
        flag = str(row.get("old_flagged", "-"))
        ratio = f"{row['old_E'] / new:10.5f}" if "old_E" in row else f"{'-':>10}"
        print(f"{sizes[0]:>6},{sizes[1]:<6} {row['distinct'][0]:>5},{row['distinct'][1]:<5} "
              f"{old_s} {old_e} {flag:>8} {t_new:7.2f} {new:10.5f} {ratio}", flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"embeddings": emb.name, "seed": args.seed, "rows": rows},
                                  indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
