"""The weighted audit's lower end: the fixed guessers against a plug-in guesser held out.

Draws two independent copies A and B of the weighted audit's allocation (madlib by default,
or ``--mechanism=vickrey`` / ``mahalanobis``; the
built-in vocabulary's first K content words with the Zipf prior, or a corpus's), and prints
the plug-in Σ_y max_x π_x Ĉ[x, y] of A, of B and of both, the best score of the fixed
guessers (:data:`emprivacy.protection.leakage.weighted_draws.GUESSERS`) on A and on B, and
the success, scored on B by its weights, of the Bayes guesser of A's estimate
(argmax_x π_x Ĉ_A[x, y]; an output A never reached: the guesser β = 1, κ = 0).  Issue 31:
whether the lower end's guessers or the plug-in's bias keep the interval wide.

Usage::

    python benchmarks/audit_guessers.py [--mechanism=NAME] EPSILON K DRAWS_PER_COPY [CORPUS ...]
    python benchmarks/audit_guessers.py 5 200 250
"""

from __future__ import annotations

import sys
import time

import numpy as np

from emprivacy import load_embeddings, make_mechanism
from emprivacy.protection import content_word_counts, secret_words
from emprivacy.protection.leakage.densities import NoiseLaw
from emprivacy.protection.leakage.weighted_draws import GUESSERS, Design, Guessers


def _copy_pass(law, design, guessers, prior, chunks, held_guess=None):
    """Per-output sums of π_x L[x] over the chunks, the fixed guessers' scores, and the
    score of ``held_guess`` (a function of the released rows)."""
    sums: dict[int, np.ndarray] = {}
    family = np.zeros(len(GUESSERS))
    held = 0.0
    for c in chunks:
        o, g, u, gen = design.noise(c)
        rows, probs = law.release(law.points(o, g, u), gen)
        guess = guessers(rows)
        for b0 in range(0, rows.shape[0], design.block):
            part = slice(b0, b0 + design.block)
            w = design.weights(o[part], g[part], u[part]) * prior
            for out in range(rows.shape[1]):  # vickrey: both candidates, with their odds
                r, pr = rows[part][:, out], probs[part][:, out]
                idx = np.arange(r.size)
                for j in range(len(GUESSERS)):
                    family[j] += (w[idx, guess[j, part][:, out]] * pr).sum()
                if held_guess is not None:
                    held += (w[idx, held_guess(r)] * pr).sum()
                _add(sums, r, pr, w)
    return sums, family, held


def _add(sums: dict[int, np.ndarray], r: np.ndarray, pr: np.ndarray, w: np.ndarray) -> None:
    """Add the weights ``w`` of points released as rows ``r`` with probabilities ``pr``."""
    order = np.argsort(r, kind="stable")
    ordered = r[order]
    first = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    totals = np.add.reduceat(w[order] * pr[order, None], first, axis=0)
    for y, total in zip(ordered[first].tolist(), totals, strict=True):
        if y in sums:
            sums[y] += total
        else:
            sums[y] = total.copy()

def main() -> None:
    args = sys.argv[1:]
    mechanism = "madlib"
    if args and args[0].startswith("--mechanism="):
        mechanism, args = args[0].split("=", 1)[1], args[1:]
    eps, k, draws = float(args[0]), int(args[1]), int(args[2])
    corpus = args[3:]
    emb = load_embeddings(None)
    counts = content_word_counts(corpus) if corpus else None
    secrets = secret_words(emb, k=k, counts=counts)
    prior = secrets.prior
    law = NoiseLaw(make_mechanism(mechanism, emb, epsilon=eps), secrets.rows)
    design = Design(law, prior, draws, 1)
    with np.errstate(divide="ignore"):
        guessers = Guessers(law, np.log(prior))
    start = time.time()
    copy_a, copy_b = design.add_copies(1), design.add_copies(1)
    sums_a, fam_a, _ = _copy_pass(law, design, guessers, prior, copy_a)
    best_a = {y: int(v.argmax()) for y, v in sums_a.items()}
    fallback = GUESSERS.index((1.0, 0.0))

    def guess_a(rows: np.ndarray) -> np.ndarray:
        out = guessers(rows[:, None])[fallback, :, 0].copy()
        for i, y in enumerate(rows.tolist()):
            out[i] = best_a.get(y, out[i])
        return out

    sums_b, fam_b, held = _copy_pass(law, design, guessers, prior, copy_b, guess_a)
    both: dict[int, np.ndarray] = {}
    for sums in (sums_a, sums_b):
        for y, v in sums.items():
            both[y] = both.get(y, 0.0) + v
    plug_a = sum(float(v.max()) for v in sums_a.values())
    plug_b = sum(float(v.max()) for v in sums_b.values())
    plug = sum(float(v.max()) for v in both.values()) / 2
    print(f"{mechanism} eps {eps:g}, K {len(prior)}, {draws} draws per secret per copy: plug-in A "
          f"{plug_a:.4f}, B {plug_b:.4f}, A+B {plug:.4f}; fixed guessers' best A "
          f"{fam_a.max():.4f}, B {fam_b.max():.4f}, A+B {(fam_a + fam_b).max() / 2:.4f}; "
          f"A's plug-in guesser scored on B {held:.4f}; {len(both)} outputs; "
          f"{time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
