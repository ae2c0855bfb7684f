"""Blocked exact distances over the vocabulary, and a cache of per-row results.

The rank resampling (:mod:`~emprivacy.mechanisms.curse`) needs, for a query word, its
distance to every vocabulary word — too many to keep (|V|² values).  It gets them
tile by tile: :class:`VocabularyGeometry` cuts the mean-centred vocabulary into tiles
of words and computes a (queries × tile) block of squared distances as one float64
GEMM, ``‖a′‖² + ‖b′‖² − 2a′·b′``, with a proven bound on its rounding error, so that
every decision near a boundary (a threshold, a tie, a distance near 0) can be rechecked
against the exact float64 sum ``Σ_k (b_k − a_k)²`` — the rule every decision is
defined by.  What a mechanism derives from a row's distances (per-tile summaries,
neighbour lists) is kept per row in a bounded :class:`RowCache`.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from emprivacy._validation import check_positive_int
from emprivacy.embeddings.model import Embeddings

__all__ = ["ACCURATE_RTOL", "RowCache", "VocabularyGeometry"]

#: Vocabulary tile width (words per tile) unless the vocabulary is larger than 512²:
#: then ⌈√|V|⌉ rounded up to 64, so that both levels of the sampler stay small.
_DEFAULT_BLOCK_COLS = 512
#: float64 unit roundoff.
_U64 = 2.0**-53
#: float32 unit roundoff.
_U32 = 2.0**-24
#: Below this radius (of the centred vectors) the float32 screen cannot overflow:
#: its values are at most (2ρ)² ≪ the float32 maximum, 3.4e38.
_SCREEN_RADIUS = 1e15
#: An absolute term of the screen's bound, far above what float32 underflow can lose
#: ((n + 4)·2⁻¹⁴⁹ for n + 2 products and their sum).
_SCREEN_FLOOR = 1e-30
#: Above this radius the floor is negligible beside the bound's relative term; below it
#: (vectors of about 1e-10 or less) every word would pass the screen: float64 is used.
_SCREEN_MIN_RADIUS = 1e-10
#: The float32 copy of the vocabulary is kept when at most this large, else each tile is
#: made when asked (a 400,000 × 300 vocabulary would keep 480 MB).
_SCREEN_KEPT_BYTES = 64 * 2**20
#: :meth:`VocabularyGeometry.accurate_squared`: a GEMM squared distance below its rounding
#: bound over this is recomputed by the defining sum, so the others are within a relative
#: 1.5e-11 of it.
ACCURATE_RTOL = 2.0**-36
#: Pairs per block of :meth:`VocabularyGeometry.exact_squared`.
_EXACT_PAIRS = 8192


class VocabularyGeometry:
    """The vocabulary, centred, cut into tiles: float64 squared distances by blocks.

    For query rows q and a tile of words w, ``d² = ‖q′‖² + ‖w′‖² − 2 q′·w′`` with
    ``′`` meaning minus the mean word vector (centring changes no distance and shrinks
    the cancellation), as one GEMM of augmented vectors ``[−2q′, 1, ‖q′‖²]·[w′, ‖w′‖², 1]``.
    Computed in float64 this is within

    .. math::

        s(q) = 4 (n + 6)\\, u\\, (‖q′‖ + ρ)^2, \\qquad ρ = \\max_w ‖w′‖,\\ u = 2^{-53}

    of the float64 sum ``Σ_k (w_k − q_k)²`` (the dot-product bound ``(n + 2)u·Σ|terms|``,
    the norms' and the centring's rounding, and that of the sum itself: ``(3n + 8)u``),
    which is what :meth:`exact_squared` computes and what every decision of the
    mechanisms built on it is defined by.
    """

    def __init__(self, embeddings: Embeddings, *, block_cols: int | None = None) -> None:
        vectors = embeddings.vectors
        n_words, dim = vectors.shape
        self.vectors = vectors
        self.n_words = int(n_words)
        self.dim = int(dim)
        self.mean = vectors.mean(axis=0, dtype=np.float64)
        sq = np.empty(n_words, dtype=np.float64)
        for start in range(0, n_words, 65536):
            w = vectors[start:start + 65536] - self.mean
            sq[start:start + len(w)] = np.einsum("ij,ij->i", w, w)
        self.sq = sq
        self.radius = float(np.sqrt(sq.max()))
        self._err = 4.0 * (dim + 6) * _U64
        if block_cols is None:
            cols = max(_DEFAULT_BLOCK_COLS, 64 * math.ceil(math.sqrt(n_words) / 64))
        else:
            cols = check_positive_int(block_cols, "block_cols")
        self.block_cols = min(cols, self.n_words)
        self.starts = np.arange(0, self.n_words, self.block_cols, dtype=np.int64)
        self.lens = np.minimum(self.block_cols, self.n_words - self.starts)
        self.n_tiles = int(self.starts.size)
        self._tiles32: np.ndarray | None = None  # the float32 screen's tiles, when asked

    def queries(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Augmented query vectors ``[−2q′, 1, ‖q′‖²]`` of ``rows`` and their rounding bounds."""
        qa = np.empty((rows.size, self.dim + 2), dtype=np.float64)
        np.subtract(self.vectors[rows], self.mean, out=qa[:, :self.dim])
        qa[:, :self.dim] *= -2.0
        qa[:, self.dim] = 1.0
        qa[:, self.dim + 1] = self.sq[rows]
        return qa, self.slack(rows)

    def slack(self, rows: np.ndarray) -> np.ndarray:
        """The rounding bound ``s(q)`` of each query row."""
        return self._err * (np.sqrt(self.sq[rows]) + self.radius) ** 2

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the float32 screen's tiles (rebuilt on first use)."""
        return {**self.__dict__, "_tiles32": None}

    @property
    def screens(self) -> bool:
        """Whether :meth:`screen` may be used: the centred vectors are small enough that
        float32 cannot overflow and large enough that its bound's absolute term does not
        let every word through (every embedding in practice)."""
        return _SCREEN_MIN_RADIUS < self.radius < _SCREEN_RADIUS

    def prepare_screen(self) -> None:
        """Make the float32 copy :meth:`screen` keeps (one, before threads share it), if the
        vocabulary is small enough to keep one (:data:`_SCREEN_KEPT_BYTES`)."""
        if self._tiles32 is None and \
                self.n_words * (self.dim + 2) * 4 <= _SCREEN_KEPT_BYTES:
            self._tiles32 = self._screen_rows(0, self.n_words)

    def _screen_rows(self, start: int, stop: int) -> np.ndarray:
        """The augmented centred vectors of rows ``start:stop`` in float32."""
        aug = np.empty((stop - start, self.dim + 2), dtype=np.float32)
        for a in range(start, stop, 65536):
            b = min(a + 65536, stop)
            aug[a - start:b - start] = self._augmented(slice(a, b))
        return aug

    def _augmented(self, cols: slice | np.ndarray) -> np.ndarray:
        """The augmented centred vectors ``[w′, ‖w′‖², 1]`` of the words ``cols``, float64."""
        w = self.vectors[cols]
        wa = np.empty((w.shape[0], self.dim + 2), dtype=np.float64)
        np.subtract(w, self.mean, out=wa[:, :self.dim])
        wa[:, self.dim] = self.sq[cols]
        wa[:, self.dim + 1] = 1.0
        return wa

    def screen_queries(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The augmented queries of ``rows`` in float32, for :meth:`screen`, and their bounds
        (:meth:`screen_slack`)."""
        return self.queries(rows)[0].astype(np.float32), self.screen_slack(rows)

    def screen_slack(self, rows: np.ndarray) -> np.ndarray:
        """The bound ``s₃₂(q)`` of each query row of :meth:`screen`:

        .. math::

            s_{32}(q) = 4 (n + 6)\\, u_{32}\\, (‖q′‖ + ρ)^2 + 10^{-30},
            \\qquad u_{32} = 2^{-24}.

        The screen's value of a word differs from the float64 sum
        ``Σ_k (w_k − q_k)²`` (:meth:`exact_squared`) by at most that: rounding the augmented
        vectors to float32 moves each term ``a_k b_k`` by at most ``(2u₃₂ + u₃₂²)|a_k b_k|``,
        the float32 dot product of n + 2 terms adds at most ``(n + 2)u₃₂/(1 − (n + 2)u₃₂)``
        of ``Σ_k |a_k b_k| ≤ (‖q′‖ + ‖w′‖)²``, and the float64 steps (the centring, the
        norms, the sum itself) add ``O(n u₆₄)`` of it; ``4(n + 6)u₃₂`` is over four times
        their total, and the absolute term covers float32 underflow.  So a word whose
        screen value is above ``x + s₃₂(q)`` has its exact value above ``x``.
        """
        bound = 4.0 * (self.dim + 6) * _U32 * (np.sqrt(self.sq[rows]) + self.radius) ** 2
        return bound + _SCREEN_FLOOR

    def screen(self, q32: np.ndarray, t: int) -> np.ndarray:
        """Squared distances from float32 augmented queries (:meth:`screen_queries`) to tile
        ``t``, as one float32 GEMM: (m, len) float32, each within ``s₃₂(q)`` of the float64
        sum.  Half the memory and about half the time of :meth:`squared`: a search keeps
        only the words below a threshold (issue 40, cost: the rank resampling of the entity
        slots)."""
        c0, c1 = int(self.starts[t]), int(self.starts[t] + self.lens[t])
        if self._tiles32 is None:  # not kept (prepare_screen): this tile alone
            return q32 @ self._screen_rows(c0, c1).T
        return q32 @ self._tiles32[c0:c1].T

    def squared(self, qa: np.ndarray, t: int) -> np.ndarray:
        """GEMM squared distances from augmented queries to tile ``t``: (m, len) float64.

        The tile is centred and augmented on the fly (no float64 copy of the vocabulary).
        """
        c0 = int(self.starts[t])
        return self.squared_to(qa, slice(c0, c0 + int(self.lens[t])))

    def squared_to(self, qa: np.ndarray, cols: slice | np.ndarray) -> np.ndarray:
        """GEMM squared distances from augmented queries to the words ``cols``."""
        return qa @ self._augmented(cols).T

    def exact_squared(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """``Σ_k (Vec(b)_k − Vec(a)_k)²`` in float64, pair by pair (deterministic).

        :data:`_EXACT_PAIRS` pairs at a time: memory ``_EXACT_PAIRS × n`` float64 however
        many pairs (a rank resampler keeping every word asks for |V| per pivot).
        """
        out = np.empty(np.size(b))
        for s in range(0, out.size, _EXACT_PAIRS):
            diff = self.vectors[b[s:s + _EXACT_PAIRS]].astype(np.float64)
            diff -= self.vectors[a[s:s + _EXACT_PAIRS]]
            diff *= diff
            out[s:s + _EXACT_PAIRS] = np.add.reduce(diff, axis=1)
        return out

    def accurate_squared(self, rows: np.ndarray, cols: slice | np.ndarray, *,
                         rtol: float = ACCURATE_RTOL) -> np.ndarray:
        """Squared distances from ``rows`` to the words ``cols``: (rows, cols) float64.

        Each is the GEMM value (:meth:`squared_to`) where that is at least ``s(q) / rtol``,
        hence within a relative ``rtol / (1 − rtol)`` of the float64 sum ``Σ_k (w_k − q_k)²``,
        and the sum itself (:meth:`exact_squared`) below: the word itself and its
        duplicates are exactly 0, and no near neighbour loses its digits to cancellation.
        """
        qa, slack = self.queries(rows)
        d2 = self.squared_to(qa, cols)
        band = d2 < (slack / rtol)[:, None]
        if band.any():
            i, j = np.nonzero(band)
            where = (j + (cols.start or 0) if isinstance(cols, slice)
                     else np.asarray(cols)[j])
            d2[i, j] = self.exact_squared(rows[i], where)
        return d2

    def recheck(self, d2: np.ndarray, rows: np.ndarray, c0: int, band: np.ndarray) -> None:
        """Replace the entries ``band`` of a (rows × tile) block by the exact values."""
        if band.any():
            i, j = np.nonzero(band)
            d2[i, j] = self.exact_squared(rows[i], c0 + j)


class RowCache:
    """A bounded least-recently-used store of per-row arrays, vectorised over rows.

    ``fetch(rows, compute)`` returns copies of the arrays stored for ``rows`` (unique),
    computing the missing ones with ``compute(missing) -> {field: array}`` and evicting
    the least recently used rows to make room.  Thread-safe; pickles as an empty cache.
    """

    def __init__(self, n_rows: int, capacity: int,
                 fields: dict[str, tuple[tuple[int, ...], Any]]) -> None:
        self._spec = (int(n_rows), int(capacity), dict(fields))
        self.capacity = int(capacity)
        self._slot_of = np.full(n_rows, -1, dtype=np.int64)
        self._row_of = np.full(self.capacity, -1, dtype=np.int64)
        self._stamp = np.full(self.capacity, -1, dtype=np.int64)
        self._clock = 0
        self._lock = threading.Lock()
        # np.empty: pages are only touched (and counted) when rows are stored
        self._data = {name: np.empty((self.capacity, *shape), dtype=dtype)
                      for name, (shape, dtype) in fields.items()}

    def __len__(self) -> int:
        return int(np.count_nonzero(self._row_of >= 0))

    def __getstate__(self) -> tuple[int, int, dict[str, tuple[tuple[int, ...], Any]]]:
        """Pickled empty (a lock cannot be pickled; the cached rows are not worth shipping)."""
        return self._spec

    def __setstate__(self, spec: tuple[int, int, dict[str, tuple[tuple[int, ...], Any]]]
                     ) -> None:
        self.__init__(*spec)  # type: ignore[misc]

    def fetch(self, rows: np.ndarray,
              compute: Callable[[np.ndarray], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        if rows.size > self.capacity:  # pragma: no cover - callers chunk by capacity
            raise RuntimeError(f"{rows.size} rows do not fit a cache of {self.capacity}")
        with self._lock:
            self._clock += 1
            slots = self._slot_of[rows]
            hit = slots >= 0
            self._stamp[slots[hit]] = self._clock  # the newest: never evicted below
            missing = rows[~hit]
            if missing.size:
                values = compute(missing)
                k = missing.size
                free = (np.arange(self.capacity) if k == self.capacity
                        else np.argpartition(self._stamp, k - 1)[:k])
                old = self._row_of[free]
                self._slot_of[old[old >= 0]] = -1
                for name, arr in values.items():
                    self._data[name][free] = arr
                self._row_of[free] = missing
                self._slot_of[missing] = free
                self._stamp[free] = self._clock
                slots[~hit] = free
            return {name: arr[slots] for name, arr in self._data.items()}
