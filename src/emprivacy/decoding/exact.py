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
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import numpy as np

from emprivacy._validation import check_positive_int
from emprivacy.decoding.base import check_magnitude, check_points
from emprivacy.decoding.threads import check_threads, row_blocks, run_on_cores
from emprivacy.embeddings.model import Embeddings

__all__ = ["DEFAULT_MEMORY_BUDGET", "ExactDecoder"]

#: Default bound on the decoder's scratch memory (bytes), whatever the number of queries.
DEFAULT_MEMORY_BUDGET = 256 * 2**20


def _scores(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The float32 product ``a @ b`` of a score tile, with floating-point flags ignored.

    BLAS kernels may raise the "invalid" or "overflow" flag spuriously (from padding or
    scratch memory they read; numpy/numpy#28967 and #24067), which numpy reports as a
    ``RuntimeWarning`` although the product is right.  Nothing is lost by ignoring the
    flags here: every score that is not finite, spurious or real, already sends its query
    to the float64 re-decision (:meth:`ExactDecoder._near_ties`).
    """
    with np.errstate(all="ignore"):
        return np.matmul(a, b, out=out)

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
        # the tile shape: n_threads tiles at once within memory_budget
        self.memory_budget = check_positive_int(memory_budget, "memory_budget")
        self.n_threads = check_threads(n_threads)
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
        out = np.empty(z.shape[0], dtype=np.int64)
        self._run(self._work, z, out)
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
        self._run(self._work_top2, z, outs)
        return outs

    # -- internals ---------------------------------------------------------------------
    def _run(self, work: Callable[[np.ndarray, Any, list[tuple[int, int]]], None],
             z: np.ndarray, out: Any) -> None:
        """``work(z, out, blocks)`` over row blocks of ``z``, on every core."""
        blocks = row_blocks(z.shape[0], self.block_rows, self.n_threads)
        run_on_cores(functools.partial(work, z, out), blocks, self.n_threads)

    def _slack(self, zc: np.ndarray) -> np.ndarray:
        """``2e(z)`` per centred query: twice the float32 rounding bound of the scores."""
        znorm = np.sqrt(np.einsum("ij,ij->i", zc, zc))
        return 2.0 * self._err_scale * (2.0 * znorm * self._radius + self._radius**2)

    def _scan(self, z: np.ndarray, blocks: list[tuple[int, int]]) -> Iterator[_Block]:
        """The row blocks of ``z``, one at a time, in one worker's scratch buffers.

        Each :class:`_Block` holds the exact centred queries ``zc`` (float64), their
        augmented float32 rows ``zq = [z′, 1]``, a (rows × tiles) array for the caller to
        keep each tile's minimum score in, and the iterator of the block's score tiles
        ``(k, c0, t)``: ``t`` the float32 ``s_w`` of the words from row ``c0`` on (the
        caller may overwrite it).
        """
        dim, n_words, cols = self.embeddings.dim, len(self.embeddings), self.block_cols
        rows = max(stop - start for start, stop in blocks)
        zq = np.ones((rows, dim + 1), dtype=np.float32)
        tile = np.empty((rows, cols), dtype=np.float32)
        tile_min = np.empty((rows, -(-n_words // cols)), dtype=np.float32)

        def tiles(b: int) -> Iterator[tuple[int, int, np.ndarray]]:
            for k, c0 in enumerate(range(0, n_words, cols)):
                c1 = min(c0 + cols, n_words)
                t = tile[:b, :c1 - c0]
                _scores(zq[:b], self._aug_t[:, c0:c1], out=t)
                yield k, c0, t

        for start, stop in blocks:
            b = stop - start
            zc = z[start:stop] - self._mean  # float64, the exact centred query
            check_magnitude(zc)
            zq[:b, :dim] = zc
            yield _Block(start, stop, zc, zq[:b], tile_min[:b], tiles(b))

    def _work(self, z: np.ndarray, out: np.ndarray, blocks: list[tuple[int, int]]) -> None:
        """Decode the row blocks ``blocks`` of ``z`` into ``out`` (one worker thread)."""
        for blk in self._scan(z, blocks):
            ar = np.arange(blk.stop - blk.start)
            best = np.full(ar.size, np.inf, dtype=np.float32)
            second = np.full(ar.size, np.inf, dtype=np.float32)
            best_idx = np.zeros(ar.size, dtype=np.int64)
            for k, c0, t in blk.tiles:
                i = np.argmin(t, axis=1)
                v = t[ar, i]
                blk.tile_min[:, k] = v
                if t.shape[1] > 1:
                    t[ar, i] = np.inf
                    v2 = np.min(t, axis=1)
                    np.minimum(second, v2, out=second)
                # new runner-up: min(old runner-up, this tile's runner-up, max(best, v))
                np.minimum(second, np.maximum(best, v), out=second)
                better = v < best  # strict: an equal value in a later tile keeps the lower index
                best[better] = v[better]
                best_idx[better] = i[better] + c0
            for r, limit in self._near_ties(blk.zc, best, second):
                best_idx[r] = self._float64_nearest(z[blk.start + r], blk, r, limit, 1)[0]
            out[blk.start:blk.stop] = best_idx

    def _work_top2(self, z: np.ndarray,
                   outs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                   blocks: list[tuple[int, int]]) -> None:
        """:meth:`decode_top2` of the row blocks ``blocks`` of ``z`` (one worker thread).

        Per tile: the two smallest scores with their rows (two arg-mins, as many passes as
        :meth:`decode`'s arg-min and runner-up), merged into the running sorted triple by
        elementwise min/max (the k-th smallest of two sorted lists ``a``, ``b`` is
        ``min_{i+j=k} max(a_i, b_j)``), no sort.  A tile's third smallest can be below the
        merged third only if that tile holds both picks (then its first two are the two
        smallest of all); for those rows alone that tile is recomputed (one small product,
        same rounding bound) and its third smallest taken.
        """
        cols = self.block_cols
        for blk in self._scan(z, blocks):
            start, stop = blk.start, blk.stop
            ar = np.arange(stop - start)
            # the running three smallest scores (sorted) and the rows of the first two
            a1 = np.full(ar.size, np.inf, dtype=np.float32)
            a2 = a1.copy()
            a3 = a1.copy()
            ra1 = np.zeros(ar.size, dtype=np.int64)
            ra2 = ra1.copy()
            for k, c0, t in blk.tiles:
                i1 = np.argmin(t, axis=1)
                b1 = t[ar, i1]
                blk.tile_min[:, k] = b1
                if t.shape[1] > 1:
                    t[ar, i1] = np.inf
                    i2 = np.argmin(t, axis=1)
                    b2 = t[ar, i2]
                else:
                    i2, b2 = i1, np.full(ar.size, np.inf, dtype=np.float32)
                rb1, rb2 = i1 + c0, i2 + c0
                # ties keep the earlier tile (the lower rows): a before b on equality
                first_a = a1 <= b1
                # second smallest: min(a2, b1) if a1 ≤ b1, else min(a1, b2)
                s_a = np.where(first_a, a2, a1)  # the candidate from a
                s_ra = np.where(first_a, ra2, ra1)
                s_b = np.where(first_a, b1, b2)  # the candidate from b
                s_rb = np.where(first_a, rb1, rb2)
                take_a = s_a <= s_b
                # third smallest, the tile's own third left out (see above)
                a3 = np.minimum(a3, np.minimum(np.maximum(a2, b1), np.maximum(a1, b2)))
                a1, ra1 = np.where(first_a, a1, b1), np.where(first_a, ra1, rb1)
                a2 = np.where(take_a, s_a, s_b)
                ra2 = np.where(take_a, s_ra, s_rb)
            same = np.flatnonzero(ra1 // cols == ra2 // cols)
            for tile in np.unique(ra1[same] // cols).tolist():  # both picks in one tile
                rows = same[ra1[same] // cols == tile]
                c0 = tile * cols
                sc = _scores(blk.zq[rows], self._aug_t[:, c0:c0 + cols])
                sc[np.arange(rows.size), ra1[rows] - c0] = np.inf
                sc[np.arange(rows.size), ra2[rows] - c0] = np.inf
                a3[rows] = np.minimum(a3[rows], sc.min(axis=1))
            v = np.stack([a1, a2, a3], axis=1)
            ix = np.stack([ra1, ra2], axis=1)
            r1, r2 = ix[:, 0].copy(), ix[:, 1].copy()
            for r, limit in self._near_ties(blk.zc, v[:, 1], v[:, 2]):
                r1[r], r2[r] = self._float64_nearest(z[start + r], blk, r, limit, 2)
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

    def _near_ties(self, zc: np.ndarray, kept: np.ndarray, next_: np.ndarray
                   ) -> list[tuple[int, float]]:
        """Rows whose last kept float32 score ``kept`` is within ``2e(z)`` of the next one,
        with the limit ``kept + 2e(z)`` below which the float64 re-decision must look."""
        slack = self._slack(zc)
        gap = next_.astype(np.float64) - kept
        near = np.flatnonzero(~(gap > slack))  # NaN gaps (overflow) are re-decided too
        return [(int(r), float(kept[r]) + slack[r]) for r in near]

    def _float64_nearest(self, z: np.ndarray, blk: _Block, r: int, limit: float,
                         k: int) -> np.ndarray:
        """The ``k`` nearest words of a near tie in float64 (by distance, ties to the lower
        row), among the words that can be them: those scoring at most ``limit``.

        With ``e`` the rounding bound and ``f`` the float32 k-th smallest score, the true
        k-th smallest is at most ``f + e``, so each of the true k nearest words scores at
        most ``f + 2e = limit`` in float32, both in the tiles (only tiles whose minimum
        is within ``limit`` can hold one) and when its tile is recomputed here.
        """
        zq = blk.zq[r]
        cols = self.block_cols
        n_words = len(self.embeddings)
        cand = []
        for t in np.flatnonzero(~(blk.tile_min[r] > limit)).tolist():
            c0 = t * cols
            c1 = min(c0 + cols, n_words)
            scores = _scores(zq, self._aug_t[:, c0:c1])  # same rounding bound as the tiles
            cand.append(c0 + np.flatnonzero(~(scores > limit)))  # NaN (overflow) included
        idx = np.concatenate(cand) if cand else np.arange(0)
        if idx.size < k:  # overflowed scores (inf): fall back to every word
            idx = np.arange(n_words)
        diff = self.embeddings.vectors[idx].astype(np.float64) - np.asarray(z, np.float64)
        d2 = np.einsum("ij,ij->i", diff, diff)
        return idx[np.argsort(d2, kind="stable")[:k]]  # idx increasing: ties to the lower row


class _Block(NamedTuple):
    """One row block of :meth:`ExactDecoder._scan`."""

    start: int
    stop: int
    zc: np.ndarray
    zq: np.ndarray
    tile_min: np.ndarray
    tiles: Iterator[tuple[int, int, np.ndarray]]
