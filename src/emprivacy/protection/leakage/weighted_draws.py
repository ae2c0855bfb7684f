"""The draws of the posterior-weighted audit (:mod:`.weighted`): how many per secret, the
design that draws them in copies from per-chunk seeds and weighs them, the guessers fixed in
advance that the lower end is taken over, and the per-output sums of the plug-in and of the
two halves A and B of the draws (the guesser learned on A, scored on B).

The weights are those of multiple importance sampling with the balance heuristic (Veach &
Guibas 1995): a point z drawn from secret o, with ``N_o`` points drawn from each o, weighs
``L[x] = f(z | x) / Σ_o N_o f(z | o)`` for every secret x (the noise's density f:
:class:`~emprivacy.protection.leakage.densities.NoiseLaw`).
"""

from __future__ import annotations

import numpy as np

from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.protection.leakage.densities import NoiseLaw

__all__ = ["GUESSERS", "Design", "Guessers", "OutputSums", "allocate_draws"]

#: The guessers the lower end is taken over: ``(β, κ)`` of
#: ``g(y) = argmax_x ln π_x − β ε d(μ + (1 + κ)(Vec y − μ), x)`` (μ the vocabulary's mean:
#: κ > 0 looks past y, away from the vocabulary's centre, where the noisy points that
#: decode to a far word lie).
GUESSERS: tuple[tuple[float, float], ...] = tuple(
    (beta, scale) for scale in (0.0, 0.5, 1.0)
    for beta in (0.125, 0.25, 0.375, 0.5, 0.75, 1.0, 1.5))
#: Points per decoding call, and float64 entries per (points × secrets) block.
_CHUNK_POINTS = 1 << 17
_BLOCK_ENTRIES = 1 << 19

def allocate_draws(prior: np.ndarray, draws: int) -> np.ndarray:
    """Draws per secret: ``K·draws`` in all, in proportion to π, at least ``draws // 4`` each.

    >>> allocate_draws(np.array([0.7, 0.2, 0.1]), 100).tolist()
    [210, 60, 30]
    """
    p = np.asarray(prior, dtype=np.float64)
    k = p.size
    total, floor = k * draws, max(1, draws // 4)
    fixed = np.zeros(k, dtype=bool)
    for _ in range(k):  # secrets below the floor get the floor; the rest share what is left
        free = total - floor * int(fixed.sum())
        mass = float(p[~fixed].sum())
        share = p * (free / mass) if mass > 0 else np.zeros(k)
        low = ~fixed & (share < floor)
        if not low.any():
            break
        fixed |= low
    out = np.where(fixed, floor, np.floor(share)).astype(np.int64)
    rest = total - int(out.sum())
    if rest > 0:  # largest remainders among the proportional ones
        frac = np.where(fixed, -1.0, share - np.floor(share))
        out[np.argsort(-frac, kind="stable")[:rest]] += 1
    return np.maximum(out, floor)


class Guessers:
    """``g_{β,κ}(y)`` for every guesser of the family and the nearest secret, once per word.

    Only the secrets on the Pareto front of (distance, prior) can win ``ln π_x − c·d_x`` for
    any c > 0 — those nearer to the point than every more probable secret — so each guess
    is an argmax over a few of them.
    """

    def __init__(self, law: NoiseLaw, log_prior: np.ndarray) -> None:
        self.law = law
        n_words = len(law.mechanism.embeddings)
        self.table = np.full((len(GUESSERS) + 1, n_words), -1, dtype=np.int32)
        self.order = np.argsort(-log_prior, kind="stable")  # most probable first
        self.log_prior = log_prior[self.order]
        self._sq = np.einsum("ij,ij->i", law.shaped, law.shaped)[self.order]
        self._shaped = law.shaped[self.order]

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        """Guesses for outputs ``rows`` (any shape): (G + 1, *rows.shape), last: nearest."""
        need = np.unique(rows[self.table[0, rows] < 0])
        law = self.law
        for start in range(0, need.size, 1024):
            part = need[start:start + 1024]
            centred = law.mechanism.embeddings.vectors[part] - law.mean
            for scale in sorted({s for _, s in GUESSERS}):
                v = law.shape(centred * (1.0 + scale) + law.mean)
                d = np.einsum("ij,ij->i", v, v)[:, None] + self._sq[None, :]
                d -= 2.0 * (v @ self._shaped.T)
                np.maximum(d, 0.0, out=d)
                np.sqrt(d, out=d)
                front = np.empty(d.shape, dtype=bool)  # nearer than every more probable one
                front[:, 0] = True
                np.less(d[:, 1:], np.minimum.accumulate(d, axis=1)[:, :-1], out=front[:, 1:])
                row, col = np.nonzero(front)
                dist, lp = d[row, col], self.log_prior[col]
                first = np.flatnonzero(np.r_[True, row[1:] != row[:-1]])
                if scale == 0.0:  # the nearest: the last of each front
                    last = np.r_[first[1:], row.size] - 1
                    self.table[-1, part] = self.order[col[last]]
                for j, (beta, s) in enumerate(GUESSERS):
                    if s == scale:
                        score = lp - (beta * law.epsilon) * dist
                        best = np.maximum.reduceat(score, first)
                        hit = np.flatnonzero(score == np.repeat(best, np.diff(np.r_[first,
                                                                                  row.size])))
                        _, at = np.unique(row[hit], return_index=True)
                        self.table[j, part] = self.order[col[hit[at]]]
        return self.table[:, rows].astype(np.int64)


class Design:
    """The draws of one audit: the base allocation ``N⁰``, its copies in chunks, their seeds.

    Every chunk holds points of one copy of the base allocation; with m copies drawn the
    proposal is ``m·Σ_o N⁰_o f(z | o)``, so the weights of all the draws are the base
    weights ``L⁰_i`` (:meth:`weights`) divided by m.
    """

    def __init__(self, law: NoiseLaw, prior: np.ndarray, draws: int, rng: RandomState) -> None:
        self.law = law
        self.base = allocate_draws(prior, draws)
        self.per_copy = int(self.base.sum())
        self.origins = np.repeat(np.arange(prior.size, dtype=np.int64), self.base)
        self.counts = self.base.astype(np.float64)
        self.gram = law.pair_squares()
        self.gen = check_random_state(rng)
        self.chunks: list[tuple[int, int, int]] = []  # (seed, start, stop) in a copy
        self.block = max(1, _BLOCK_ENTRIES // prior.size)
        # the halves: in every copy, the last N⁰_o // 2 draws of each secret o are in B
        starts = np.cumsum(self.base) - self.base
        place = np.arange(self.per_copy) - np.repeat(starts, self.base)
        self.half_b = place >= (self.base - self.base // 2)[self.origins]
        self.half_counts = np.stack([self.base - self.base // 2,
                                     self.base // 2]).astype(np.float64)
        #: whether each secret has a draw in each half (else no learned guesser)
        self.splits = bool((self.base >= 2).all())

    def noise_origins(self, c: int) -> np.ndarray:
        """Chunk c's points' origins (without drawing its noise)."""
        start, stop = self.chunks[c][1:]
        return self.origins[start:stop]

    def halves(self, c: int, index: np.ndarray | slice) -> np.ndarray:
        """Whether the points ``index`` of chunk c are in half B."""
        start, stop = self.chunks[c][1:]
        return self.half_b[start:stop][index]

    def add_copies(self, count: int) -> range:
        """Chunks of ``count`` more copies of the base allocation: their indices."""
        first = len(self.chunks)
        for _ in range(count):
            for start in range(0, self.per_copy, _CHUNK_POINTS):
                seed = int(self.gen.integers(0, 2**63))
                self.chunks.append((seed, start, min(self.per_copy, start + _CHUNK_POINTS)))
        return range(first, len(self.chunks))

    def noise(self, c: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.random.Generator]:
        """Chunk c: its points' origins, their noise ``(g, u)`` and the generator (drawn
        again, the same)."""
        seed, start, stop = self.chunks[c]
        gen = check_random_state(seed)
        g, u = self.law.draw(stop - start, gen)
        return self.origins[start:stop], g, u, gen

    def weights(self, o: np.ndarray, g: np.ndarray, u: np.ndarray) -> np.ndarray:
        """``L⁰_i[x] = f(z_i | x) / Σ_o N⁰_o f(z_i | o)`` of points from origins o: (m, K).

        Computed as ``w / (w·N⁰)`` with ``w = e^{ℓ − max ℓ}`` (the largest w is 1, so the
        denominator is at least 1; a w below e^{−745} is 0, and so negligible).
        """
        ell = self.law.log_ratios(o, g, u, self.gram)
        np.subtract(ell, ell.max(axis=1, keepdims=True), out=ell)
        np.exp(ell, out=ell)
        ell /= (ell @ self.counts)[:, None]
        return ell


class OutputSums:
    """Per output: ``Σ_i P[y | z_i] π L_i`` and ``Σ_i P[y | z_i] L_i / K``, dense over K;
    with ``half_counts`` (2, K) also ``Σ_{i ∈ H} P[y | z_i] π L^H_i`` for the halves H = A, B,
    ``L^H_i[x] = f(z_i | x) / Σ_o N^H_o f(z_i | o)`` (each half's own proposal).

    The arrays are allocated zeroed for ``rows`` outputs at once: the system hands out
    zero pages only as outputs are reached.
    """

    def __init__(self, prior: np.ndarray, rows: int,
                 half_counts: np.ndarray | None = None) -> None:
        self.prior, self.cap = prior, rows
        self.weighted = np.zeros((rows, prior.size))
        self.uniform = np.zeros((rows, prior.size))
        self.half_counts = half_counts
        self.halves = None if half_counts is None else np.zeros((2, rows, prior.size))
        self.used = 0

    def add(self, lik: np.ndarray, ids: np.ndarray, probs: np.ndarray, lo: int,
            half_b: np.ndarray | None = None) -> None:
        """Add points with weights ``lik`` (m, K), released as outputs ``ids − lo`` (m, j),
        ``half_b`` (m,): whether each point is in half B (with ``half_counts``)."""
        flat = ids.ravel() - lo
        keep = (flat >= 0) & (flat < self.cap)
        if not keep.any():
            return
        src = np.repeat(np.arange(ids.shape[0]), ids.shape[1])[keep]
        flat, wt = flat[keep], probs.ravel()[keep]
        order = np.argsort(flat, kind="stable")
        flat, src, wt = flat[order], src[order], wt[order]
        first = np.flatnonzero(np.r_[True, flat[1:] != flat[:-1]])
        rows = lik[src]
        if not np.all(wt == 1.0):
            rows *= wt[:, None]
        part = np.add.reduceat(rows, first, axis=0)
        at = flat[first]
        self.uniform[at] += part / self.prior.size
        part *= self.prior
        self.weighted[at] += part
        self.used = max(self.used, int(at[-1]) + 1)
        if self.halves is None or self.half_counts is None or half_b is None:
            return
        # L^H = L⁰ / (L⁰·N^H): L⁰ is f over Σ_o N⁰_o f, the same numerator
        side_m = half_b.astype(np.int64)
        scale = 1.0 / np.einsum("ij,ij->i", lik, self.half_counts[side_m])
        side = side_m[src]
        rows *= scale[src][:, None]
        rows *= self.prior
        for h in (0, 1):
            sel = np.flatnonzero(side == h)
            if sel.size:
                first_h = np.flatnonzero(np.r_[True, flat[sel][1:] != flat[sel][:-1]])
                self.halves[h, flat[sel][first_h]] += np.add.reduceat(rows[sel], first_h,
                                                                      axis=0)

    def maxima(self) -> tuple[float, float]:
        """``Σ_y max_x`` of each sum."""
        return (float(self.weighted[:self.used].max(axis=1).sum()),
                float(self.uniform[:self.used].max(axis=1).sum()))

    def learned(self, fallback: np.ndarray) -> tuple[float, np.ndarray]:
        """The guesser learned on A, ``h(y) = argmax_x π_x Ĉ_A[x, y]`` (``fallback[y]``, a
        guess fixed in advance, where A never released y), and ``Σ_y Σ_{i ∈ B, y_i = y}
        P[y | z_i] π_{h(y)} L^B_i[h(y)]``: its success, estimated on B."""
        if self.halves is None:
            raise ValueError("the sums were built without halves (half_counts)")
        a, b = self.halves[0, :self.used], self.halves[1, :self.used]
        guess = np.where(a.max(axis=1) > 0.0, a.argmax(axis=1), fallback[:self.used])
        return float(b[np.arange(self.used), guess].sum()), guess
