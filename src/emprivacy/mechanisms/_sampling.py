"""Exact lazy Gumbel-max sampling of the exponential mechanism over the vocabulary.

SanText and TEM release a vocabulary word v for a query point q (a word's vector, or
any point of R^n) with probability

.. math::

    P(v \\mid q) ∝ \\exp(s_v), \\qquad s_v = −(ε/2)\\, \\min(d(q, v), γ),
    \\qquad d(q, v) = ‖q − \\mathrm{Vec}(v)‖_2,

γ = ∞ for SanText.  The Gumbel-max trick releases ``argmax_v (s_v + G_v)`` with
``G_v`` i.i.d. standard Gumbel — exactly this law.  :class:`LazyGumbelSampler` evaluates
that arg-max without drawing |V| Gumbels or computing |V| exact distances per word:

1. **Ball.**  For each distinct query, one blocked float32 pass over the vocabulary
   (GEMM tiles with a proven rounding bound, as in
   :class:`~emprivacy.decoding.ExactDecoder`) collects every word that can lie within
   ``R_max = 2c/ε`` of q (``c = _C_MAX``), keeping at most the ``_CAP`` nearest; their
   exact float64 distances ``Σ_k (v_k − q_k)²`` then fix a radius R (``R_max``, or the
   distance of the ``_CAP``-th nearest word) and the ball ``S = {v : d(q, v) < R}``.
   Every word outside S has ``d ≥ R``, hence ``s_v ≤ b = −(ε/2)·min(R, γ)``.
2. **Inside.**  ``M = max_{v ∈ S}(s_v + G_v)`` with explicit Gumbels.
3. **Outside.**  An outside word can beat M only if ``G_v > B = M − b``; each does so
   independently with probability ``p = P(G > B) = 1 − exp(−e^{−B})``.  So the number
   of them is ``K ~ Binomial(|V ∖ S|, p)``, they form a uniformly random K-subset of
   ``V ∖ S``, and their Gumbels are i.i.d. Gumbel conditioned on ``G > B``
   (``G = −ln E``, ``E = −ln(1 − U·p)``, U uniform).  Their exact scores
   ``s_v + G_v`` are compared with M; the overall arg-max is released.

Steps 2–3 are the one-level Gumbel-max over all of V, with the draws that cannot
matter left out: the law is exact (to float64 rounding).  With ``(ε/2)R = c`` the
expected K is at most ``|V| e^{−c}·E[e^{−M}]`` (about 12 for c = 9 and |V| = 10⁵ when q
is a vocabulary word, ``M ≥ G_q``; a larger c would shrink K but enlarge the balls and
the float32 pass's candidate lists).  S, R and the scores come from exact float64
distances only (the float32 pass just finds a superset), so the released words depend
only on each bag and its generator: a batch gives exactly what its bags give one by one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from emprivacy._validation import check_positive_int
from emprivacy.decoding.threads import check_threads, row_blocks, run_on_cores
from emprivacy.embeddings.model import Embeddings
from emprivacy.mechanisms._envelope import (
    Balls,
    envelope_draws,
    segment_log_mass,
    segment_max,
    segment_positions,
)

__all__ = ["LazyGumbelSampler"]

#: (ε/2)·R_max: words farther than R_max = 2c/ε are left to the lazy outside step.
_C_MAX = 9.0
#: The largest R_max (a tiny ε): R_max² stays finite, and far beyond any vocabulary.
_R_CAP = 1e150
#: At most this many nearest words form S (more only for exact ties at distance 0).
_CAP = 64
#: Query rows per block of the float32 pass.
_BLOCK_ROWS = 640
#: Words of one bag whose random draws are made together (fixes the order of the draws).
_UNIT_WORDS = 2048
#: Words whose distinct queries are prepared together (bounds the memory of the balls).
_CHUNK_WORDS = 8192
#: A query whose Gumbel-max outside step would look at more words than this on average is
#: drawn by rejection from the envelope (a small ε: 1,181 words at ε = 1 on 100,000 words).
_GUMBEL_OUTSIDE_MAX = 64.0
#: Default vocabulary tile width of the float32 pass (words).
_DEFAULT_BLOCK_COLS = 512
_U32 = 2.0**-24


class LazyGumbelSampler:
    """``P(v | q) ∝ exp(−(ε/2)·min(d(q, v), γ))`` by an exact lazy Gumbel-max (γ may be ∞).

    See the module docstring for the algorithm and why it is exact.

    Parameters
    ----------
    embeddings : Embeddings
        The output vocabulary.
    epsilon : float
        ε (already validated).
    gamma : float
        The truncation γ (``math.inf``: none).
    block_cols : int, optional
        Vocabulary tile width of the float32 pass (default 512).  Neither the law nor
        the draws for a given seed depend on it.
    n_threads : int, optional
        Threads of the float32 pass (default: every core this process may use).
    """

    def __init__(self, embeddings: Embeddings, *, epsilon: float, gamma: float,
                 block_cols: int | None, n_threads: int | None) -> None:
        vectors = embeddings.vectors
        n_words, dim = vectors.shape
        self.vectors = vectors
        self.n_words = int(n_words)
        self.dim = int(dim)
        self.half_eps = 0.5 * float(epsilon)
        self.gamma = float(gamma)
        self.gamma_sq = self.gamma * self.gamma if math.isfinite(self.gamma) else math.inf
        # a tiny ε: R_max beyond any vocabulary (its square stays finite); ε/2 may be 0
        self.r_max = (_R_CAP if self.half_eps <= _C_MAX / _R_CAP
                      else _C_MAX / self.half_eps)
        self.n_threads = check_threads(n_threads)
        cols = (_DEFAULT_BLOCK_COLS if block_cols is None
                else check_positive_int(block_cols, "block_cols"))
        self.block_cols = min(cols, self.n_words)
        self.mean = vectors.mean(axis=0, dtype=np.float64)
        aug = np.empty((self.n_words, self.dim + 1), dtype=np.float32)  # [−2w′, ‖w′‖²]
        sq_max = 0.0
        for start in range(0, self.n_words, 65536):
            w = vectors[start:start + 65536] - self.mean
            sq = np.einsum("ij,ij->i", w, w)
            aug[start:start + len(w), :self.dim] = -2.0 * w
            aug[start:start + len(w), self.dim] = sq
            sq_max = max(sq_max, float(sq.max()))
        self._aug_t = aug.T  # (n + 1, V), Fortran-ordered: column slices are contiguous
        self._radius = math.sqrt(sq_max)
        self._err_scale = 2.0 * (self.dim + 4) * _U32

    # -- the exact law (tests and small studies) ---------------------------------------
    def exact_squared(self, points: np.ndarray, cols: np.ndarray,
                      rows: np.ndarray | None = None) -> np.ndarray:
        """``Σ_k (Vec(cols)_k − p_k)²`` in float64, pair by pair (the defining rule), with
        p = ``points[rows]`` (``points`` broadcast if ``rows`` is None); 8192 pairs at a time."""
        out = np.empty(cols.size)
        for s in range(0, cols.size, 8192):
            diff = self.vectors[cols[s:s + 8192]].astype(np.float64)
            diff -= points if rows is None else points[rows[s:s + 8192]]
            diff *= diff
            out[s:s + 8192] = np.add.reduce(diff, axis=1)
        return out

    def scores(self, d2: np.ndarray) -> np.ndarray:
        """``s = −(ε/2)·min(d, γ)`` from exact squared distances.

        ``min(√d², γ)``, not ``√min(d², γ²)``: the same value (√ is monotone and
        ``√fl(γ²) = γ``) wherever γ² is a normal float64, and still right where it is not
        (at ε = 1e300 TEM's γ is 2.5e-299, whose square underflows to 0).
        """
        with np.errstate(over="ignore"):  # ε near the float64 maximum: −inf, a weight of 0
            return -self.half_eps * np.minimum(np.sqrt(d2), self.gamma)

    def point_log_weights(self, point: np.ndarray) -> np.ndarray:
        """``s_v`` for every word v, for one point (float64 vector), O(|V|·n)."""
        p = np.asarray(point, dtype=np.float64)
        out = np.empty(self.n_words)
        for s in range(0, self.n_words, 65536):
            cols = np.arange(s, min(s + 65536, self.n_words))
            out[cols] = self.scores(self.exact_squared(p, cols))
        return out

    def log_weights(self, row: int) -> np.ndarray:
        """``s_v`` for every word v, for the vocabulary word at ``row``."""
        return self.point_log_weights(self.vectors[row].astype(np.float64))

    def probabilities(self, row: int) -> np.ndarray:
        """The closed-form ``P(· | x)`` (softmax of :meth:`log_weights`)."""
        s = self.log_weights(row)
        p = np.exp(s - s.max())
        return p / p.sum()

    def members(self, row: int) -> np.ndarray:
        """Sorted rows of ``L_x = {v : Σ_k (v_k − x_k)² ≤ γ²}`` (exact float64)."""
        x = self.vectors[row].astype(np.float64)[None, :]
        out = []
        for s in range(0, self.n_words, 65536):
            cols = np.arange(s, min(s + 65536, self.n_words))
            out.append(cols[self.exact_squared(x, cols) <= self.gamma_sq])
        return np.concatenate(out)

    # -- step 1: the balls -------------------------------------------------------------
    def _candidates(self, points: np.ndarray, limit: np.ndarray, cap: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A superset of each point's words within the squared radius it is given back.

        Returns ``(query, word, t)``: for every query i, the candidate words, which hold
        every word with exact ``d² ≤ t[i]``, where ``t[i] ≤ limit[i]`` and ``t[i]`` is at
        least the ``cap``-th smallest exact d².  float32 scores
        ``f = ‖w′‖² − 2q′·w′`` are within ``e(q) = 2(n + 4)u(2‖q′‖ρ + ρ²)`` of exact
        (:class:`~emprivacy.decoding.ExactDecoder`); a word with exact ``d² ≤ t`` has
        ``f ≤ t − ‖q′‖² + e``, below the threshold ``t − ‖q′‖² + 2e`` used.  Whenever
        more than ``cap`` candidates per query of a block have come since the last
        pruning, and at the end, each query holding more than ``cap`` candidates has t
        lowered to ``f_cap + ‖q′‖² + e`` (``f_cap`` its cap-th smallest float32 score:
        the cap-th smallest exact d² is at most that) and loses the candidates above the
        new threshold.
        """
        m = points.shape[0]
        t_out = np.empty(m)
        parts: list[tuple[int, np.ndarray, np.ndarray]] = []
        per = self.n_threads * -(-m // (self.n_threads * _BLOCK_ROWS))  # blocks: k·threads
        blocks = row_blocks(m, max(1, -(-m // per)), self.n_threads)

        def work(part: list[tuple[int, int]]) -> None:
            for s, e in part:
                qi, cols, t = self._scan(points[s:e], limit[s:e], cap)
                t_out[s:e] = t
                parts.append((s, qi + s, cols))

        run_on_cores(work, blocks, self.n_threads)
        parts.sort(key=lambda p: p[0])
        qi = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, np.int64)
        cols = np.concatenate([p[2] for p in parts]) if parts else np.zeros(0, np.int64)
        return qi, cols, t_out

    def _scan(self, points: np.ndarray, limit: np.ndarray, cap: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_candidates` for one block of points (one worker thread)."""
        b = points.shape[0]
        qc = points - self.mean
        qsq = np.einsum("ij,ij->i", qc, qc)
        err = self._err_scale * (2.0 * np.sqrt(qsq) * self._radius + self._radius**2)
        zq = np.ones((b, self.dim + 1), dtype=np.float32)
        zq[:, :self.dim] = qc
        t = limit.astype(np.float64).copy()
        thr = _upward32(t - qsq + 2.0 * err)
        acc_q: list[np.ndarray] = []
        acc_c: list[np.ndarray] = []
        acc_f: list[np.ndarray] = []
        counts = np.zeros(b, dtype=np.int64)
        kept = 0  # candidates kept at the last pruning
        buf = np.empty(b * self.block_cols, dtype=np.float32)
        for c0 in range(0, self.n_words, self.block_cols):
            width = min(self.block_cols, self.n_words - c0)
            tile = buf[:b * width].reshape(b, width)
            np.matmul(zq, self._aug_t[:, c0:c0 + width], out=tile)
            hit = np.flatnonzero(tile.min(axis=1) <= thr)  # rows with a candidate here
            if hit.size == 0:
                continue
            sub = tile[hit]
            flat = np.flatnonzero(sub <= thr[hit, None])
            i, j = hit[flat // width], flat % width
            acc_q.append(i)
            acc_c.append(j + c0)
            acc_f.append(sub.ravel()[flat])
            counts += np.bincount(i, minlength=b)
            if int(counts.sum()) - kept > b * cap:
                acc_q, acc_c, acc_f, counts = self._prune(acc_q, acc_c, acc_f, counts,
                                                          cap, t, thr, qsq, err)
                kept = int(counts.sum())
        if acc_q and counts.max() > cap:
            acc_q, acc_c, acc_f, counts = self._prune(acc_q, acc_c, acc_f, counts, cap, t,
                                                      thr, qsq, err)
        if not acc_q:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), t
        return np.concatenate(acc_q), np.concatenate(acc_c), t

    @staticmethod
    def _prune(acc_q: list[np.ndarray], acc_c: list[np.ndarray], acc_f: list[np.ndarray],
               counts: np.ndarray, cap: int, t: np.ndarray, thr: np.ndarray, qsq: np.ndarray,
               err: np.ndarray
               ) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], np.ndarray]:
        """Lower ``t`` and ``thr`` (in place) of the queries holding more than ``cap``
        candidates to their cap-th smallest float32 score, and drop what lies above."""
        q_all, c_all, f_all = (np.concatenate(acc_q), np.concatenate(acc_c),
                               np.concatenate(acc_f))
        over = np.flatnonzero(counts > cap)
        sel = np.flatnonzero((counts > cap)[q_all])
        bits = f_all[sel].view(np.int32).astype(np.int64)
        bits ^= (bits >> 31) & 0x7FFFFFFF  # float32 order as signed integers
        key = np.sort((q_all[sel] << 32) + bits + 2**31)  # by query, then score
        starts = np.zeros(over.size, dtype=np.int64)
        np.cumsum(counts[over][:-1], out=starts[1:])
        low = (key[starts + cap - 1] & 0xFFFFFFFF) - 2**31
        low ^= (low >> 31) & 0x7FFFFFFF
        f_cap = low.astype(np.int32).view(np.float32).astype(np.float64)
        t[over] = np.minimum(t[over], f_cap + qsq[over] + err[over])
        thr[over] = np.minimum(thr[over], _upward32(f_cap + 2.0 * err[over]))
        keep = f_all <= thr[q_all]
        return ([q_all[keep]], [c_all[keep]], [f_all[keep]],
                np.bincount(q_all[keep], minlength=counts.size))

    def balls(self, points: np.ndarray, limit: np.ndarray | None = None) -> Balls:
        """The balls S, radii and outside counts of ``points`` ((m, n) float64).

        ``limit`` is the squared radius to search first (default ``R_max²``).
        """
        m = points.shape[0]
        if limit is None:
            limit = np.full(m, self.r_max**2)
        qi, cols, t = self._candidates(points, limit, _CAP)
        order = np.argsort(qi, kind="stable")  # by query, words increasing within each
        qi, cols = qi[order], cols[order]
        d2 = self.exact_squared(points, cols, qi)
        counts = np.bincount(qi, minlength=m)
        r2 = t.copy()
        big = counts > _CAP
        if big.any():  # R² = min(t, the _CAP-th smallest d² (from 0))
            sel = np.flatnonzero(big[qi])
            ranked = d2[sel][np.lexsort((d2[sel], qi[sel]))]
            starts = np.zeros(int(big.sum()), dtype=np.int64)
            np.cumsum(counts[big][:-1], out=starts[1:])
            r2[big] = np.minimum(r2[big], ranked[starts + _CAP])
        for i in np.flatnonzero(r2 <= 0.0).tolist():  # > _CAP exact duplicates: rare
            seg = d2[qi == i]
            pos = seg[seg > 0.0]
            r2[i] = min(t[i], float(pos.min())) if pos.size else t[i]
        inside = d2 < r2[qi]
        qi, cols, d2 = qi[inside], cols[inside], d2[inside]
        sizes = np.bincount(qi, minlength=m)
        offsets = np.zeros(m + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        with np.errstate(over="ignore"):
            bound = -self.half_eps * np.minimum(np.sqrt(r2), self.gamma)
        keys = qi * (self.n_words + 1) + (cols - (np.arange(cols.size) - offsets[qi]))
        scores = self.scores(d2)
        return Balls(offsets, cols, scores, bound, self.n_words - sizes, keys,
                     segment_log_mass(offsets, scores))

    def point_balls(self, points: np.ndarray) -> Balls:
        """:meth:`balls` of arbitrary points: R_max beyond each point's nearest word."""
        qi, cols, _ = self._candidates(points, np.full(points.shape[0], np.inf), 1)
        nearest = np.full(points.shape[0], np.inf)
        if qi.size:
            np.minimum.at(nearest, qi, self.exact_squared(points, cols, qi))
        return self.balls(points, (np.sqrt(nearest) + self.r_max) ** 2)

    # -- steps 2 and 3: the draws ------------------------------------------------------
    def draw(self, balls: Balls, which: np.ndarray, points: np.ndarray,
             gen: np.random.Generator) -> np.ndarray:
        """Released rows for the queries ``which`` (indices into ``balls``), one word each.

        A query whose Gumbel-max outside step would look at more than
        :data:`_GUMBEL_OUTSIDE_MAX` words on average (``E / W``, a small ε) is drawn by
        rejection from the envelope instead (:mod:`~emprivacy.mechanisms._envelope`: the
        same law), after the others.  Draws of the others, in order: the Gumbels of every
        ball word (query by query), the counts K, the outside positions, the outside
        uniforms — from ``gen`` only.
        """
        with np.errstate(divide="ignore", invalid="ignore"):  # −inf − (−inf): not drawn so
            envelope = (balls.log_envelope(which) - balls.log_mass[which]
                        > np.log(_GUMBEL_OUTSIDE_MAX))
        if envelope.any():
            out = np.empty(which.size, dtype=np.int64)
            lazy = np.flatnonzero(~envelope)
            out[lazy] = self.draw(balls, which[lazy], points, gen)
            far = np.flatnonzero(envelope)
            out[far] = envelope_draws(
                balls, which[far], gen,
                lambda words, q: self.scores(self.exact_squared(points, words, q)),
                self.n_words)
            return out
        lens = balls.offsets[which + 1] - balls.offsets[which]
        pos = segment_positions(balls.offsets[which], lens)
        vals = balls.scores[pos] + gen.gumbel(size=pos.size)
        best, arg = segment_max(vals, lens)
        out = np.full(which.size, -1, dtype=np.int64)
        has = arg >= 0
        out[has] = balls.words[pos[arg[has]]]
        with np.errstate(over="ignore"):
            p = -np.expm1(-np.exp(balls.bound[which] - best))  # P(G > B), B = M − b
        k = gen.binomial(balls.n_out[which], p)
        hit = np.flatnonzero(k > 0)
        if hit.size == 0:
            return out
        rep = np.repeat(hit, k[hit])
        j = gen.integers(0, balls.n_out[which][rep])
        # a K-subset must be drawn without replacement: redraw the rare collisions whole
        order = np.lexsort((j, rep))
        dup = (rep[order][1:] == rep[order][:-1]) & (j[order][1:] == j[order][:-1])
        for i in np.unique(rep[order][1:][dup]).tolist():
            q = int(which[i])
            sl = np.flatnonzero(rep == i)
            j[sl] = gen.choice(int(balls.n_out[q]), size=sl.size, replace=False)
        q_rep = which[rep]
        words = balls.outside_words(q_rep, j, self.n_words)
        e = -np.log1p(-gen.random(rep.size) * p[rep])  # Exp(1) conditioned below e^{−B}
        total = self.scores(self.exact_squared(points, words, q_rep)) - np.log(e)
        o_best, o_arg = segment_max(total, k[hit])
        win = o_best > best[hit]
        out[hit[win]] = words[o_arg[win]]
        return out

    def sample(self, bags: Sequence[tuple[np.ndarray, np.random.Generator]]
               ) -> list[np.ndarray]:
        """Released rows of every bag of vocabulary rows (each with its generator)."""
        outs = [np.empty(idx.size, dtype=np.int64) for idx, _ in bags]
        units: list[tuple[int, int, int]] = []
        words = 0
        for b, (idx, _) in enumerate(bags):
            for s in range(0, idx.size, _UNIT_WORDS):
                e = min(s + _UNIT_WORDS, idx.size)
                units.append((b, s, e))
                words += e - s
                if words >= _CHUNK_WORDS:
                    self._sample_chunk(units, bags, outs)
                    units, words = [], 0
        if units:
            self._sample_chunk(units, bags, outs)
        return outs

    def _sample_chunk(self, units: list[tuple[int, int, int]],
                      bags: Sequence[tuple[np.ndarray, np.random.Generator]],
                      outs: list[np.ndarray]) -> None:
        rows = np.concatenate([bags[b][0][s:e] for b, s, e in units])
        uniq, inv = np.unique(rows, return_inverse=True)
        points = self.vectors[uniq].astype(np.float64)
        balls = self.balls(points)
        p0 = 0
        for b, s, e in units:
            p1 = p0 + (e - s)
            outs[b][s:e] = self.draw(balls, inv[p0:p1], points, bags[b][1])
            p0 = p1

    def sample_points(self, points: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """One released row per point ((m, n) float64), draws unit by unit from ``gen``.

        Equal points of a unit share their ball (computed once); nothing is kept after
        the call.
        """
        out = np.empty(points.shape[0], dtype=np.int64)
        for s in range(0, points.shape[0], _UNIT_WORDS):
            e = min(s + _UNIT_WORDS, points.shape[0])
            uniq, inv = np.unique(points[s:e], axis=0, return_inverse=True)
            out[s:e] = self.draw(self.point_balls(uniq), inv.reshape(-1), uniq, gen)
        return out


def _upward32(values: np.ndarray) -> np.ndarray:
    """float64 thresholds as float32 values not below them (∞ stays ∞, and so does a
    threshold beyond the float32 range: a tiny ε)."""
    with np.errstate(over="ignore"):
        out = values.astype(np.float32)
    low = out < values
    out[low] = np.nextafter(out[low], np.float32(np.inf))
    return out
