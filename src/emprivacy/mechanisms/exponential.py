"""The exponential mechanism over the vocabulary, sampled exactly without a |V|-wide array.

SanText (:mod:`~emprivacy.mechanisms.santext`) and TEM (:mod:`~emprivacy.mechanisms.tem`)
both release a vocabulary word v for an input word x with probability

.. math::

    P(v \\mid x) ∝ \\exp(−(ε/2)\\, \\min(d(x, v), γ)),
    \\qquad d(x, v) = ‖\\mathrm{Vec}(x) − \\mathrm{Vec}(v)‖_2,

γ = ∞ for SanText, TEM's threshold for TEM: the exponential mechanism with a
1-Lipschitz utility, ε·d metric DP.  This module holds what they share:

* :class:`ExponentialSampler` — the law above by a two-level Gumbel-max over the
  vocabulary tiles of :mod:`~emprivacy.mechanisms._tiles` (blocked exact float64
  distances): one Gumbel per tile around the tile's cached log-sum-exp, then one per
  word of the winning tile, near ties decided on exact distances; the released words
  depend only on each bag and its generator;
* :class:`ExponentialMechanism` — the :class:`~emprivacy.mechanisms.WordMechanism` on
  top of it (its exact law for tests, bags, batches).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..decoding.threads import check_threads, row_blocks, run_on_cores
from ..embeddings import Embeddings
from ._tiles import RowCache, VocabularyGeometry
from .base import WordMechanism, check_row

__all__ = ["ExponentialMechanism", "ExponentialSampler"]

#: Query rows per GEMM block in the summary pass (256 × 512 float64 = 1 MiB).
_BLOCK_ROWS = 256
#: Words of one bag whose random draws are made together (fixes the order of the draws).
_UNIT_WORDS = 2048
#: Words resolved together (their distinct rows must fit the row cache at once).
_CHUNK_WORDS = 2048
#: Bytes of cached per-row summaries a mechanism may keep.
_CACHE_BYTES = 64 * 2**20
#: Distances below ``sqrt(_ZERO_BAND · slack)`` are recomputed directly (no cancellation).
_ZERO_BAND = 1e6
#: Scale of the near-tie tolerance of the sampler's arg-maxes (tests raise it to force
#: the exact tie-break path; any value ≥ 1 gives the same law).
_TIE_FACTOR = 1.0


def _segment_argmax(values: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Index into ``values`` of the first maximum of each segment (segments of length ≥ 1)."""
    starts = np.zeros(lengths.size, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    seg_max = np.maximum.reduceat(values, starts)
    seg_id = np.repeat(np.arange(lengths.size), lengths)
    hit = np.flatnonzero(values == seg_max[seg_id])
    hit_seg = seg_id[hit]
    first = np.ones(hit.size, dtype=bool)
    first[1:] = hit_seg[1:] != hit_seg[:-1]
    return hit[first]


def _segment_positions(offsets: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``concat(arange(o, o + l) for o, l in zip(offsets, lengths))``, vectorised."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(lengths)
    shift = np.repeat(offsets - (ends - lengths), lengths)
    return np.arange(total, dtype=np.int64) + shift


def _log_sum_exp(scores: np.ndarray) -> np.ndarray:
    """``log Σ_j exp(scores[i, j])`` per row, in place (scores ≤ 0, −∞ allowed; all −∞: −∞).

    Rows whose maximum is above −600 are summed unshifted (no underflow of what
    matters); the others are shifted by their maximum first.
    """
    mx = scores.max(axis=1)
    finite = mx > -np.inf
    shift = np.where(finite & (mx < -600.0), mx, 0.0)  # row by row: no dependence on others
    low = np.flatnonzero(shift)
    if low.size:
        scores[low] -= shift[low, None]
    np.exp(scores, out=scores)
    tot = scores.sum(axis=1)
    out = np.full(scores.shape[0], -np.inf)
    out[finite] = shift[finite] + np.log(tot[finite])
    return out


class ExponentialSampler:
    """``P(v | x) ∝ exp(−(ε/2)·min(d(x, v), γ))`` by a two-level Gumbel-max (γ may be ∞).

    With γ finite this is TEM: the words of ``L_x = {v : d(x, v) ≤ γ}`` compete with one
    aggregated ⊥ candidate of log-weight ``−(ε/2)γ + ln|V ∖ L_x|``; ⊥ releases a word
    drawn uniformly from ``V ∖ L_x``.  With γ = ∞ it is SanText (no ⊥).

    The words of ``L_x`` are grouped by vocabulary tile.  Because the maximum of
    Gumbel-perturbed log-weights ``s_v + G_v`` over a set is itself Gumbel around the
    set's log-sum-exp, and the arg-max inside the set is independent of that maximum
    and distributed ∝ ``exp(s_v)``, the sampler

    1. draws one Gumbel per tile meeting ``L_x`` (plus one for ⊥) around the tile's
       ``LSE_t = log Σ_{v ∈ t ∩ L_x} exp(s_v)`` — a per-row summary computed once by a
       blocked pass over the vocabulary and cached;
    2. inside the winning tile, draws one Gumbel per word of ``t ∩ L_x`` (recomputing
       only that tile's distances); if ⊥ won, draws an index among the ``|V ∖ L_x|``
       complement positions and maps it through the per-tile member counts.

    The released word has exactly the law of the one-level Gumbel-max over all of
    ``L_x ∪ {⊥}``, at a cost per word of (number of tiles + tile width) instead of |V|.
    Per bag and per unit of ``_UNIT_WORDS`` words the draws are, in order: the tile-level
    Gumbels, the within-tile Gumbels, the ⊥ indices — from the bag's generator only.
    Membership of ``L_x`` is the exact float64 rule; where an arg-max is within the
    rounding tolerance of its runner-up, the close candidates are recomputed from exact
    distances (as the exact decoder does for near ties).  So the released words depend
    only on the bag and its generator, never on the rows computed beside it: a batch
    gives exactly what its bags give one by one.
    """

    def __init__(self, embeddings: Embeddings, *, epsilon: float, gamma: float,
                 block_cols: int | None, n_threads: int | None) -> None:
        self.geo = VocabularyGeometry(embeddings, block_cols=block_cols)
        self.half_eps = 0.5 * epsilon
        self.gamma = float(gamma)
        self.truncated = math.isfinite(self.gamma)
        self.gamma_sq = self.gamma * self.gamma if self.truncated else math.inf
        self.n_threads = check_threads(n_threads)
        n_tiles = self.geo.n_tiles
        row_bytes = n_tiles * (12 if self.truncated else 8)
        capacity = max(2 * _CHUNK_WORDS, _CACHE_BYTES // row_bytes)
        fields: dict[str, tuple[tuple[int, ...], Any]] = {"lse": ((n_tiles,), np.float64)}
        if self.truncated:
            fields["count"] = ((n_tiles,), np.int32)
        self.cache = RowCache(self.geo.n_words, min(capacity, self.geo.n_words), fields)

    # -- the exact law (tests and small studies) ---------------------------------------
    def log_weights(self, row: int) -> np.ndarray:
        """``−(ε/2)·min(d(x, v), γ)`` for every word v, from exact float64 distances."""
        n = self.geo.n_words
        d2 = np.empty(n, dtype=np.float64)
        for start in range(0, n, 65536):
            b = np.arange(start, min(start + 65536, n))
            d2[start:b[-1] + 1] = self.geo.exact_squared(np.full(b.size, row), b)
        if self.truncated:
            d2[d2 > self.gamma_sq] = self.gamma_sq
        return -self.half_eps * np.sqrt(d2)

    def probabilities(self, row: int) -> np.ndarray:
        """The closed-form ``P(· | x)`` (softmax of :meth:`log_weights`)."""
        s = self.log_weights(row)
        p = np.exp(s - s.max())
        return p / p.sum()

    def members(self, row: int) -> np.ndarray:
        """Sorted rows of ``L_x = {v : Σ_k (v_k − x_k)² ≤ γ²}`` (exact float64)."""
        n = self.geo.n_words
        out = []
        for start in range(0, n, 65536):
            b = np.arange(start, min(start + 65536, n))
            out.append(b[self.geo.exact_squared(np.full(b.size, row), b) <= self.gamma_sq])
        return np.concatenate(out)

    # -- stage 1: per-row tile summaries -----------------------------------------------
    def _scores(self, d2: np.ndarray, rows: np.ndarray, c0: int,
                slack: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Turn a (rows × tile) block of GEMM d² into log-weights, in place; and ``d > γ``.

        Entries within the rounding bound of γ² (the membership decision) or of 0 (where
        the square root would amplify the cancellation error, and where GEMM values may be
        negative) are recomputed exactly, so membership is the exact float64 rule
        whatever the GEMM blocking was.  Words beyond γ get log-weight −∞.
        """
        smax = float(slack.max())
        # the input itself is at distance 0 exactly; set aside while the bands are checked
        i_self = np.flatnonzero((rows >= c0) & (rows < c0 + d2.shape[1]))
        j_self = rows[i_self] - c0
        d2[i_self, j_self] = np.inf
        zero = _ZERO_BAND * smax
        if d2.min() <= zero:  # a near-duplicate (or a GEMM value below 0): rare
            self.geo.recheck(d2, rows, c0, d2 <= zero)
        if self.truncated:
            gap = np.subtract(d2, self.gamma_sq)
            np.abs(gap, out=gap)
            if gap.min() <= smax:  # a word within the rounding bound of γ: rare
                self.geo.recheck(d2, rows, c0, gap <= smax)
        d2[i_self, j_self] = 0.0
        outside = None
        if self.truncated:
            outside = d2 > self.gamma_sq
            np.copyto(d2, np.inf, where=outside)
        np.sqrt(d2, out=d2)
        d2 *= -self.half_eps
        return d2, outside

    def _summaries(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """Per-tile ``LSE_t`` (and member counts, TEM) of ``rows``: one blocked pass."""
        geo = self.geo
        m = rows.size
        lse = np.empty((m, geo.n_tiles), dtype=np.float64)
        count = np.zeros((m, geo.n_tiles), dtype=np.int32)
        blocks = row_blocks(m, _BLOCK_ROWS, self.n_threads)

        def work(part: list[tuple[int, int]]) -> None:
            for s, e in part:
                r = rows[s:e]
                qa, slack = geo.queries(r)
                for t in range(geo.n_tiles):
                    scores, outside = self._scores(geo.squared(qa, t), r, int(geo.starts[t]),
                                                   slack)
                    if outside is not None:
                        count[s:e, t] = geo.lens[t] - np.count_nonzero(outside, axis=1)
                        if not count[s:e, t].any():
                            lse[s:e, t] = -np.inf
                            continue
                    lse[s:e, t] = _log_sum_exp(scores)

        run_on_cores(work, blocks, self.n_threads)
        result: dict[str, np.ndarray] = {"lse": lse}
        if self.truncated:
            result["count"] = count
        return result

    # -- the sampler -------------------------------------------------------------------
    def sample(self, bags: Sequence[tuple[np.ndarray, np.random.Generator]]) -> list[np.ndarray]:
        """Released rows of every bag (each a validated int64 array with its generator)."""
        outs = [np.empty(idx.size, dtype=np.int64) for idx, _ in bags]
        pending: list[tuple[int, int, int]] = []
        words = 0
        for b, (idx, _) in enumerate(bags):
            for s in range(0, idx.size, _UNIT_WORDS):
                e = min(s + _UNIT_WORDS, idx.size)
                pending.append((b, s, e))
                words += e - s
                if words >= _CHUNK_WORDS:
                    self._sample_chunk(pending, bags, outs)
                    pending, words = [], 0
        if pending:
            self._sample_chunk(pending, bags, outs)
        return outs

    def _sample_chunk(self, units: list[tuple[int, int, int]],
                      bags: Sequence[tuple[np.ndarray, np.random.Generator]],
                      outs: list[np.ndarray]) -> None:
        """Sample the words of ``units`` (bag, start, stop): draws unit by unit, then stage 2."""
        geo = self.geo
        n_tiles = geo.n_tiles
        rows = np.concatenate([bags[b][0][s:e] for b, s, e in units])
        uniq, inv = np.unique(rows, return_inverse=True)
        stored = self.cache.fetch(uniq, self._summaries)
        w = rows.size
        if self.truncated:
            count = stored["count"][inv].astype(np.int64)
            k = geo.n_words - count.sum(axis=1)  # |V ∖ L_x|
        else:
            count = np.broadcast_to(geo.lens, (w, n_tiles))
            k = np.zeros(w, dtype=np.int64)
        bottom_w = np.full(w, -np.inf)  # ⊥'s log-weight −(ε/2)γ + ln|V ∖ L_x|
        pos = k > 0
        bottom_w[pos] = -self.half_eps * self.gamma + np.log(k[pos])
        cand = np.concatenate([stored["lse"][inv], bottom_w[:, None]], axis=1)  # tiles, ⊥
        valid = cand > -np.inf
        slack = geo.slack(rows)
        tile = np.empty(w, dtype=np.int64)
        g2_parts: list[np.ndarray] = []
        j_parts: list[np.ndarray] = []
        p0 = 0
        for b, s, e in units:
            gen = bags[b][1]
            p1 = p0 + (e - s)
            tile[p0:p1] = self._choose_tiles(rows[p0:p1], cand[p0:p1], valid[p0:p1],
                                             slack[p0:p1], gen)
            bottom = tile[p0:p1] == n_tiles
            n_win = np.where(bottom, 0, count[p0:p1][np.arange(p1 - p0),
                                                     np.minimum(tile[p0:p1], n_tiles - 1)])
            g2_parts.append(gen.gumbel(size=int(n_win.sum())))
            j_parts.append(gen.integers(0, k[p0:p1][bottom]))
            p0 = p1
        bottom = tile == n_tiles
        g2 = np.concatenate(g2_parts)
        j = np.concatenate(j_parts)
        # within-tile Gumbels of each non-⊥ word: a segment of g2, in word order
        n_members = np.zeros(w, dtype=np.int64)
        nb = np.flatnonzero(~bottom)
        n_members[nb] = count[nb, tile[nb]]
        g2_off = np.zeros(w, dtype=np.int64)
        np.cumsum(n_members[:-1], out=g2_off[1:])
        # ⊥: the j-th complement position, mapped to a tile and an offset among its non-members
        offset = np.zeros(w, dtype=np.int64)
        bw = np.flatnonzero(bottom)
        if bw.size:
            comp = geo.lens[None, :] - count[bw]
            cum = np.cumsum(comp, axis=1)
            t_b = np.argmax(cum > j[:, None], axis=1)
            ar = np.arange(bw.size)
            offset[bw] = j - (cum[ar, t_b] - comp[ar, t_b])
            tile[bw] = t_b
        out = self._resolve(rows, tile, bottom, offset, g2, g2_off, n_members)
        p0 = 0
        for b, s, e in units:
            outs[b][s:e] = out[p0:p0 + (e - s)]
            p0 += e - s

    def _tolerance(self, slack: np.ndarray, value: np.ndarray) -> np.ndarray:
        """Bound on twice the error of a computed log-weight or tile log-sum-exp.

        Outside the zero band (d² > 10⁶·s) the GEMM distance is within ``√s/2000`` of the
        exact one; exp, sum and log add below 10⁻¹¹ relative.  Twice that, doubled again.
        """
        return _TIE_FACTOR * (self.half_eps * np.sqrt(slack) / 500.0
                              + 1e-11 * (1.0 + np.abs(value)))

    def _choose_tiles(self, rows: np.ndarray, cand: np.ndarray, valid: np.ndarray,
                      slack: np.ndarray, gen: np.random.Generator) -> np.ndarray:
        """Stage 1 for one unit: the winning tile (or ``n_tiles`` for ⊥) of each word.

        One Gumbel per valid candidate, in word order then tile order.  Where the runner-up
        is within the rounding tolerance of the winner, the close candidates' log-sum-exps
        are recomputed from exact distances, so the choice does not depend on how the GEMM
        blocks were formed (a batch equals its bags one by one).
        """
        lengths = valid.sum(axis=1)
        cols = np.nonzero(valid)[1]
        g = gen.gumbel(size=cols.size)
        vals = cand[valid] + g
        win = _segment_argmax(vals, lengths)
        starts = np.zeros(lengths.size, dtype=np.int64)
        np.cumsum(lengths[:-1], out=starts[1:])
        others = vals.copy()
        others[win] = -np.inf
        second = np.maximum.reduceat(others, starts)
        near = np.flatnonzero(vals[win] - second <= self._tolerance(slack, vals[win]))
        for i in near.tolist():  # rare: a near tie
            a, z = int(starts[i]), int(starts[i] + lengths[i])
            close = a + np.flatnonzero(vals[a:z] >= vals[win[i]] - self._tolerance(
                slack[i:i + 1], vals[win[i]:win[i] + 1])[0])
            exact = np.array([cand[i, -1] if c == self.geo.n_tiles
                              else self._exact_tile_lse(int(rows[i]), int(c))
                              for c in cols[close].tolist()])
            win[i] = close[np.argmax(exact + g[close])]
        return cols[win]

    def _exact_log_weights(self, row: int, cols: np.ndarray) -> np.ndarray:
        """``−(ε/2)·d(x, v)`` for the words ``cols`` from exact distances; −∞ beyond γ."""
        d2 = self.geo.exact_squared(np.full(cols.size, row), cols)
        s = -self.half_eps * np.sqrt(d2)
        if self.truncated:
            s[d2 > self.gamma_sq] = -np.inf
        return s

    def _exact_tile_lse(self, row: int, t: int) -> float:
        """A tile's log-sum-exp from exact distances (the tie-break of stage 1)."""
        c0 = int(self.geo.starts[t])
        s = self._exact_log_weights(row, np.arange(c0, c0 + int(self.geo.lens[t])))
        mx = float(s.max())
        if mx == -np.inf:
            return mx
        return mx + float(np.log(np.exp(s - mx).sum()))

    def _resolve(self, rows: np.ndarray, tile: np.ndarray, bottom: np.ndarray,
                 offset: np.ndarray, g2: np.ndarray, g2_off: np.ndarray,
                 n_members: np.ndarray) -> np.ndarray:
        """Stage 2: the released word inside each word's tile, one GEMM per distinct tile."""
        geo = self.geo
        out = np.empty(rows.size, dtype=np.int64)
        order = np.argsort(tile, kind="stable")
        ts, first = np.unique(tile[order], return_index=True)
        bounds = [*first.tolist(), rows.size]
        groups = list(zip(ts.tolist(), bounds[:-1], bounds[1:], strict=True))

        def work(part: list[tuple[int, int, int]]) -> None:
            for t, a, z in part:
                ws = order[a:z]
                r = rows[ws]
                c0 = int(geo.starts[t])
                qa, slack = geo.queries(r)
                scores, outside = self._scores(geo.squared(qa, t), r, c0, slack)
                bot = bottom[ws]
                win = np.flatnonzero(~bot)
                if win.size:
                    sc = scores[win]  # members finite, words beyond γ −∞
                    g = np.zeros_like(sc)
                    g[sc > -np.inf] = g2[_segment_positions(g2_off[ws[win]],
                                                            n_members[ws[win]])]
                    sc += g
                    out[ws[win]] = c0 + self._within_tile(sc, g, r[win], c0, slack[win])
                if outside is not None and bot.size > win.size:
                    bw = np.flatnonzero(bot)
                    seen = np.cumsum(outside[bw], axis=1)  # words beyond γ so far
                    out[ws[bw]] = c0 + np.argmax(seen > offset[ws[bw]][:, None], axis=1)

        run_on_cores(work, groups, self.n_threads)
        return out

    def _within_tile(self, vals: np.ndarray, g: np.ndarray, rows: np.ndarray, c0: int,
                     slack: np.ndarray) -> np.ndarray:
        """Arg-max of Gumbel-perturbed log-weights per row, near ties decided exactly."""
        best = np.argmax(vals, axis=1)
        ar = np.arange(vals.shape[0])
        top = vals[ar, best]
        if vals.shape[1] < 2:
            return best
        second = np.partition(vals, vals.shape[1] - 2, axis=1)[:, -2]
        tol = self._tolerance(slack, top)
        for i in np.flatnonzero(top - second <= tol).tolist():  # rare: a near tie
            close = np.flatnonzero(vals[i] >= top[i] - tol[i])
            exact = self._exact_log_weights(int(rows[i]), c0 + close) + g[i, close]
            best[i] = close[np.argmax(exact)]
        return best


class ExponentialMechanism(WordMechanism):
    """A word mechanism sampling ``P(v | x) ∝ exp(−(ε/2)·min(d(x, v), γ))`` over the vocabulary.

    Subclasses (:class:`~emprivacy.mechanisms.SanText`,
    :class:`~emprivacy.mechanisms.TruncatedExponential`) validate their parameters
    and set ``_sampler``, an :class:`ExponentialSampler` with their γ.
    """

    _sampler: ExponentialSampler

    def record_fields(self) -> dict[str, Any]:
        """Output records name the mechanism and the metric of its guarantee."""
        return {"mechanism": self.name, "metric": "euclidean"}

    def output_probabilities(self, index: int) -> np.ndarray:
        """The closed-form law ``P(· | x)`` of the word at row ``index``: (|V|,) float64.

        ``∝ exp(−ε·min(d(x, v), γ)/2)`` from exact float64 distances, O(|V|·n); for
        tests and small studies.
        """
        return self._sampler.probabilities(check_row(index, len(self.embeddings)))

    def privatize_indices(self, indices: np.ndarray | Sequence[int], *,
                          rng: np.random.Generator | None = None) -> np.ndarray:
        """The mechanism on vocabulary rows: the rows of the released words, in order."""
        return self._sampler.sample(_check_bags(self, [(indices, rng)]))[0]

    def privatize_batches(self, bags: Sequence[tuple[np.ndarray, np.random.Generator]]
                          ) -> list[np.ndarray]:
        """The mechanism on many bags, each from its own generator; equal to bag by bag."""
        return self._sampler.sample(_check_bags(self, bags))


def _check_bags(mech: WordMechanism, bags: Sequence[tuple[Any, Any]]
                ) -> list[tuple[np.ndarray, np.random.Generator]]:
    """Validated (int64 rows, generator) pairs; a ``None`` generator means the mechanism's."""
    checked = []
    for idx, gen in bags:
        if gen is None:
            gen = mech.rng
        elif not isinstance(gen, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator or None; got "
                            f"{type(gen).__name__}")
        checked.append((mech.check_indices(idx), gen))
    return checked
