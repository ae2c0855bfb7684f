"""The exact decoder: ``Vec⁻¹`` of Alg. 2, bit-for-bit a float64 brute force.

``Vec⁻¹(z) = argmin_w ‖z − Vec(w)‖`` over the whole vocabulary.  Decoding is
post-processing of the noisy vectors, so it never weakens the privacy guarantee
(Lemma 3 of the paper); a decoder only affects utility.

The exact decoder expands ``‖z − w‖² = ‖z′‖² − 2 z′·w′ + ‖w′‖²`` with
``z′ = z − μ`` and ``w′ = w − μ`` (μ the mean word vector: centring changes no
distance and shrinks the float32 rounding error).  ``‖z′‖²`` is the same for
every word, so the argmin is that of ``‖w′‖² − 2 z′·w′``.  Appending a constant
1 to each query and ``‖w′‖²`` to each (−2-scaled) word vector turns that into a
matrix product, ``[z′, 1] · [−2w′, ‖w′‖²]ᵀ``, computed tile by tile (a few
hundred queries × a few thousand words, so that a tile stays in the CPU cache)
with a running minimum and runner-up per query.  Tiles of different queries run
on all cores at once, each thread with a single-threaded BLAS.

Float32 products are rounded; whenever the runner-up is within the proven
rounding bound of the minimum, the query is re-decided in float64 among all
words within that bound, with ties going to the lowest row index.  The result is
therefore the float64 argmin — bit-for-bit what a float64 brute force returns —
at the speed of a float32 matrix product.
"""

from __future__ import annotations

import functools

import numpy as np

from .._validation import check_positive_int
from ..embeddings import Embeddings
from .base import check_magnitude, check_points
from .threads import available_cores, run_on_cores

__all__ = ["DEFAULT_MEMORY_BUDGET", "ExactDecoder"]

#: Default bound on the decoder's scratch memory (bytes), whatever the number of queries.
DEFAULT_MEMORY_BUDGET = 256 * 2**20

#: Tile shape: queries × words.  1024 × 512 float32 is 2 MiB, one core's L2 cache on the
#: machine we measured (docs/BENCHMARKS.md); it was the fastest of the shapes tried there.
_TILE_ROWS = 1024
_TILE_COLS = 512

_UNIT_ROUNDOFF32 = 2.0**-24


class ExactDecoder:
    """Exact Euclidean nearest-word decoder: tiled matrix product with fused argmin.

    Implements ``Vec⁻¹(z) = argmin_w ‖z − Vec(w)‖`` of Alg. 2 exactly: the
    result equals the float64 brute force ``argmin_w Σ_k (z_k − w_k)²`` with
    ties going to the lowest row index (the more frequent word).

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary to decode into (V words × n dims).
    memory_budget : int, default 256 MiB
        Upper bound, in bytes, on the scratch memory of one :meth:`decode` call,
        whatever the number of points.  The default is far above what the
        cache-sized tiles need; a small budget shrinks the tiles.
    n_threads : int, optional
        Threads decoding tiles in parallel (each with a single-threaded BLAS);
        default: every core this process may use.
    block_rows, block_cols : int, optional
        Tile shape (queries × words); defaults 1024 × 512, shrunk to fit
        ``memory_budget``.  Exposed for tests and tuning.

    Notes
    -----
    Each tile computes ``s_w = ‖w′‖² − 2 z′·w′`` in float32 (``′`` = minus the
    mean word vector), keeping per query the minimum and the runner-up.  The
    float32 value differs from the exact one by at most

    .. math::

        e(z) = 2 (n + 4)\\, u\\, (2‖z′‖ρ + ρ²),\\qquad ρ = \\max_w ‖w′‖,\\ u = 2^{-24}

    (the standard bound ``γ_{n+1} Σ|a_k b_k|`` on a dot product, plus the
    rounding of the inputs, doubled).  When the runner-up lies within ``2e(z)``
    of the minimum, the query is re-decided in float64 among every word whose
    float32 value lies within ``2e(z)`` of the minimum — a set that provably
    contains the true argmin.  Exact duplicates of a vector therefore always
    resolve to the lowest index.  Such near-ties are rare (about 0.1 % of the
    queries at 400k × 50), so the check costs nothing measurable.

    Thread safety: a decode call limits BLAS to one thread per worker
    (``threadpoolctl``) for its duration; decode from one thread at a time.

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c"], [[0, 0], [3, 0], [0, 4]])
    >>> ExactDecoder(emb).decode([[1.4, 0.0], [1.6, 0.0], [0.1, 3.0]]).tolist()
    [0, 1, 2]
    >>> ExactDecoder(emb).decode([[1.5, 0.0]]).tolist()  # a tie: the lower index wins
    [0]
    """

    name = "exact"

    def __init__(self, embeddings: Embeddings, *, memory_budget: int = DEFAULT_MEMORY_BUDGET,
                 n_threads: int | None = None, block_rows: int | None = None,
                 block_cols: int | None = None) -> None:
        if not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        self.embeddings = embeddings
        self.memory_budget = check_positive_int(memory_budget, "memory_budget")
        self.n_threads = (available_cores() if n_threads is None
                          else check_positive_int(n_threads, "n_threads"))
        n_words, dim = len(embeddings), embeddings.dim
        vectors = embeddings.vectors
        self._mean = vectors.mean(axis=0, dtype=np.float64)
        # augmented vocabulary [−2w′, ‖w′‖²], built in chunks (no float64 copy of the matrix)
        aug = np.empty((n_words, dim + 1), dtype=np.float32)
        sq_max = 0.0
        for start in range(0, n_words, 65536):
            w = vectors[start:start + 65536] - self._mean
            sq = np.einsum("ij,ij->i", w, w)
            aug[start:start + len(w), :dim] = -2.0 * w
            aug[start:start + len(w), dim] = sq
            sq_max = max(sq_max, float(sq.max()))
        self._aug_t = aug.T  # (n+1, V), Fortran-ordered: column slices are contiguous rows
        self._radius = float(np.sqrt(sq_max))
        self._err_scale = 2.0 * (dim + 4) * _UNIT_ROUNDOFF32
        rows = _TILE_ROWS if block_rows is None else check_positive_int(block_rows, "block_rows")
        cols = _TILE_COLS if block_cols is None else check_positive_int(block_cols, "block_cols")
        cols = min(cols, n_words)
        # per thread: the tile, the augmented queries and a few per-row vectors
        per_row = 4 * cols + 4 * (dim + 1) + 8 * dim + 64
        while cols > 1 and self.n_threads * per_row > self.memory_budget:
            cols = max(1, cols // 2)
            per_row = 4 * cols + 4 * (dim + 1) + 8 * dim + 64
        self.block_cols = cols
        self.block_rows = max(1, min(rows, self.memory_budget // (self.n_threads * per_row)))

    def __repr__(self) -> str:
        return (f"ExactDecoder({self.embeddings!r}, n_threads={self.n_threads}, "
                f"tile={self.block_rows}x{self.block_cols})")

    def decode(self, points: np.ndarray | object) -> np.ndarray:
        """Row index of the nearest vocabulary word of each point (exact argmin).

        Parameters
        ----------
        points : (m, n) array-like
            Noisy vectors; float64 points are decoded exactly as given (no
            rounding to float32 before the final decision).

        Returns
        -------
        (m,) int64 array of vocabulary row indices.
        """
        z = check_points(points, self.embeddings.dim)
        m = z.shape[0]
        out = np.empty(m, dtype=np.int64)
        if m == 0:
            return out
        rows = self.block_rows
        if m < self.n_threads * rows:  # few points: smaller blocks so every core gets work
            rows = max(1, -(-m // self.n_threads))
        blocks = [(s, min(s + rows, m)) for s in range(0, m, rows)]
        run_on_cores(functools.partial(self._work, z, out, rows=rows), blocks, self.n_threads)
        return out

    def decode_top2(self, points: np.ndarray | object
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The nearest and the second-nearest vocabulary word of each point, exactly.

        The two smallest of ``‖z − Vec(w)‖`` over the vocabulary, in the order of the
        float64 brute force ``argsort`` (stable: ties go to the lower row index), so
        ``rows1`` is what :meth:`decode` returns.  Needed by the Vickrey mechanism
        (Xu et al. 2021), whose release depends on both words and their distances.

        Parameters
        ----------
        points : (m, n) array-like
            Noisy vectors; float64 points are decided exactly as given.

        Returns
        -------
        rows1, rows2 : (m,) int64 arrays
            Row of the nearest and of the second-nearest word (``rows1 != rows2``).
        d1, d2 : (m,) float64 arrays
            Their Euclidean distances to the point, ``d1 ≤ d2`` (computed in float64).

        Notes
        -----
        The tiles keep, per query, the three smallest float32 scores ``f₁ ≤ f₂ ≤ f₃``
        (and the rows of the first two).  Every score is within ``e`` of its exact
        value, so the true second-smallest is within ``e`` of ``f₂`` and both true
        nearest words have ``f ≤ f₂ + 2e``.  If ``f₃ > f₂ + 2e`` those are exactly the
        two float32 picks, which are then ordered by their float64 distances;
        otherwise the query is re-decided in float64 among every word with
        ``f ≤ f₂ + 2e`` (a set that provably holds both).

        Examples
        --------
        >>> emb = Embeddings(["a", "b", "c"], [[0, 0], [3, 0], [0, 4]])
        >>> r1, r2, d1, d2 = ExactDecoder(emb).decode_top2([[1.0, 0.0], [0.0, 3.0]])
        >>> r1.tolist(), r2.tolist(), d1.tolist(), d2.tolist()
        ([0, 2], [1, 0], [1.0, 1.0], [2.0, 3.0])
        """
        z = check_points(points, self.embeddings.dim)
        if len(self.embeddings) < 2:
            raise ValueError("decode_top2 needs a vocabulary of at least 2 words; got "
                             f"{len(self.embeddings)}")
        m = z.shape[0]
        outs = (np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64),
                np.empty(m, dtype=np.float64), np.empty(m, dtype=np.float64))
        if m == 0:
            return outs
        rows = self.block_rows
        if m < self.n_threads * rows:
            rows = max(1, -(-m // self.n_threads))
        blocks = [(s, min(s + rows, m)) for s in range(0, m, rows)]
        run_on_cores(functools.partial(self._work_top2, z, outs, rows=rows), blocks,
                     self.n_threads)
        return outs

    # -- internals ---------------------------------------------------------------------
    def _slack(self, zc: np.ndarray) -> np.ndarray:
        """``2e(z)`` per centred query: twice the float32 rounding bound of the scores."""
        znorm = np.sqrt(np.einsum("ij,ij->i", zc, zc))
        return 2.0 * self._err_scale * (2.0 * znorm * self._radius + self._radius**2)

    def _work(self, z: np.ndarray, out: np.ndarray, blocks: list[tuple[int, int]], *,
              rows: int) -> None:
        """Decode the row blocks ``blocks`` of ``z`` into ``out`` (one worker thread)."""
        dim = self.embeddings.dim
        n_words = len(self.embeddings)
        cols = self.block_cols
        aug_t = self._aug_t
        zq = np.ones((rows, dim + 1), dtype=np.float32)
        tile = np.empty((rows, cols), dtype=np.float32)
        tile_min = np.empty((rows, -(-n_words // cols)), dtype=np.float32)  # per row, per tile
        arange = np.arange(rows)
        for start, stop in blocks:
            b = stop - start
            ar = arange[:b]
            zc = z[start:stop] - self._mean  # float64, the exact centred query
            check_magnitude(zc)
            zq[:b, :dim] = zc
            best = np.full(b, np.inf, dtype=np.float32)
            second = np.full(b, np.inf, dtype=np.float32)
            best_idx = np.zeros(b, dtype=np.int64)
            for k, c0 in enumerate(range(0, n_words, cols)):
                c1 = min(c0 + cols, n_words)
                t = tile[:b, :c1 - c0]
                np.matmul(zq[:b], aug_t[:, c0:c1], out=t)
                i = np.argmin(t, axis=1)
                v = t[ar, i]
                tile_min[:b, k] = v
                if c1 - c0 > 1:
                    t[ar, i] = np.inf
                    v2 = np.min(t, axis=1)
                    np.minimum(second, v2, out=second)
                # new runner-up: min(old runner-up, this tile's runner-up, max(best, v))
                np.minimum(second, np.maximum(best, v), out=second)
                better = v < best  # strict: an equal value in a later tile keeps the lower index
                best[better] = v[better]
                best_idx[better] = i[better] + c0
            slack = self._slack(zc)
            gap = second.astype(np.float64) - best
            near = np.flatnonzero(~(gap > slack))  # NaN gaps (overflow) are re-decided too
            for r in near:
                limit = float(best[r]) + slack[r]
                tiles = np.flatnonzero(~(tile_min[r, :] > limit))
                best_idx[r] = self._float64_argmin(z[start + r], zq[r], tiles, limit)
            out[start:stop] = best_idx

    def _work_top2(self, z: np.ndarray,
                   outs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                   blocks: list[tuple[int, int]], *, rows: int) -> None:
        """:meth:`decode_top2` of the row blocks ``blocks`` of ``z`` (one worker thread)."""
        dim = self.embeddings.dim
        n_words = len(self.embeddings)
        cols = self.block_cols
        aug_t = self._aug_t
        zq = np.ones((rows, dim + 1), dtype=np.float32)
        tile = np.empty((rows, cols), dtype=np.float32)
        tile_min = np.empty((rows, -(-n_words // cols)), dtype=np.float32)
        arange = np.arange(rows)
        vals = np.empty((rows, 6), dtype=np.float32)
        idxs = np.empty((rows, 6), dtype=np.int64)
        for start, stop in blocks:
            b = stop - start
            ar = arange[:b]
            zc = z[start:stop] - self._mean
            check_magnitude(zc)
            zq[:b, :dim] = zc
            # the running three smallest scores (sorted) and the rows of the first two
            v, ix = vals[:b], idxs[:b]
            v[:, :3] = np.inf
            ix[:, :3] = 0
            for k, c0 in enumerate(range(0, n_words, cols)):
                c1 = min(c0 + cols, n_words)
                t = tile[:b, :c1 - c0]
                np.matmul(zq[:b], aug_t[:, c0:c1], out=t)
                for slot in (3, 4, 5):  # this tile's three smallest, in order
                    if slot - 3 < c1 - c0:
                        i = np.argmin(t, axis=1)
                        v[:, slot] = t[ar, i]
                        ix[:, slot] = i + c0
                        t[ar, i] = np.inf
                    else:
                        v[:, slot] = np.inf
                        ix[:, slot] = 0
                tile_min[:b, k] = v[:, 3]
                # merge two sorted triples; stable: equal scores keep the earlier (lower) row
                order = np.argsort(v, axis=1, kind="stable")[:, :3]
                v[:, :3] = np.take_along_axis(v, order, axis=1)
                ix[:, :3] = np.take_along_axis(ix, order, axis=1)
            slack = self._slack(zc)
            gap = v[:, 2].astype(np.float64) - v[:, 1]
            r1, r2 = ix[:, 0].copy(), ix[:, 1].copy()
            fast = gap > slack  # NaN gaps (overflow) are re-decided too
            near = np.flatnonzero(~fast)
            for r in near:
                limit = float(v[r, 1]) + slack[r]
                tiles = np.flatnonzero(~(tile_min[r, :] > limit))
                r1[r], r2[r] = self._float64_top2(z[start + r], zq[r], tiles, limit)
            # both candidates known: their float64 distances, ordered (ties: lower row)
            zb = np.asarray(z[start:stop], np.float64)
            diff1 = self.embeddings.vectors[r1].astype(np.float64) - zb
            diff2 = self.embeddings.vectors[r2].astype(np.float64) - zb
            d1 = np.einsum("ij,ij->i", diff1, diff1)
            d2 = np.einsum("ij,ij->i", diff2, diff2)
            swap = (d2 < d1) | ((d2 == d1) & (r2 < r1))
            outs[0][start:stop] = np.where(swap, r2, r1)
            outs[1][start:stop] = np.where(swap, r1, r2)
            outs[2][start:stop] = np.sqrt(np.where(swap, d2, d1))
            outs[3][start:stop] = np.sqrt(np.where(swap, d1, d2))

    def _candidates(self, zq: np.ndarray, tiles: np.ndarray, limit: float) -> np.ndarray:
        """Rows (increasing) of the words of ``tiles`` whose float32 score is at most ``limit``."""
        cols = self.block_cols
        n_words = len(self.embeddings)
        cand = []
        for k in tiles:
            c0 = int(k) * cols
            c1 = min(c0 + cols, n_words)
            scores = zq @ self._aug_t[:, c0:c1]  # same rounding bound as the tiles
            cand.append(c0 + np.flatnonzero(~(scores > limit)))  # NaN (overflow) included
        return np.concatenate(cand) if cand else np.arange(0)

    def _float64_top2(self, z: np.ndarray, zq: np.ndarray, tiles: np.ndarray,
                      limit: float) -> tuple[int, int]:
        """Float64 two nearest words of a near-tie, among the words that can be them.

        With ``e`` the rounding bound and ``f₂`` the float32 second-smallest score, the
        true second-smallest score is at most ``f₂ + e``, so both true nearest words
        score at most ``f₂ + 2e = limit`` in float32 (their tiles' minimum too).
        Returns them in increasing row order (the caller orders them by distance).
        """
        idx = self._candidates(zq, tiles, limit)
        if idx.size < 2:  # overflowed scores (inf): fall back to every word
            idx = np.arange(len(self.embeddings))
        diff = self.embeddings.vectors[idx].astype(np.float64) - np.asarray(z, np.float64)
        d2 = np.einsum("ij,ij->i", diff, diff)
        a, b = np.argsort(d2, kind="stable")[:2]  # idx increasing: ties to the lower row
        return int(idx[a]), int(idx[b])

    def _float64_argmin(self, z: np.ndarray, zq: np.ndarray, tiles: np.ndarray,
                        limit: float) -> int:
        """Float64 argmin of a near-tie, among the words that can be the true argmin.

        With ``e`` the rounding bound and ``m`` the float32 minimum, the true argmin ``j``
        has ``s_j ≤ m + e``, so its float32 value is at most ``m + 2e = limit`` both in
        the tiles (only tiles whose minimum is within ``limit`` can hold it) and when
        its tile is recomputed here.
        """
        idx = self._candidates(zq, tiles, limit)
        if idx.size == 0:  # overflowed scores (inf): fall back to every word
            idx = np.arange(len(self.embeddings))
        diff = self.embeddings.vectors[idx].astype(np.float64) - np.asarray(z, np.float64)
        d2 = np.einsum("ij,ij->i", diff, diff)
        return int(idx[np.argmin(d2)])
