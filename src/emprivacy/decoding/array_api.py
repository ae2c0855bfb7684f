"""The exact decoder written once against the Python array API: NumPy, CuPy, PyTorch.

:class:`ArrayAPIDecoder` makes the same decisions as
:class:`~emprivacy.decoding.ExactDecoder` — the float64 argmin of ``‖z − Vec(w)‖``
over the vocabulary, ties to the lowest row index (``Vec⁻¹`` of Alg. 2), and the
two nearest words for the Vickrey mechanism — with the score tiles computed by
whatever array library holds the vocabulary: NumPy on the host, CuPy or PyTorch on a
GPU.  The code is written once against the array API standard (through
``array-api-compat``), so every library takes the same path; the test suite runs it
on NumPy and on ``array-api-strict``.

What runs where:

* the device holds the augmented vocabulary ``[−2w′, ‖w′‖²]`` (float32, ``′``: minus
  the mean word vector, as in :class:`~emprivacy.decoding.ExactDecoder`), copied once;
* the queries are streamed in batches: each batch's scores ``[z′, 1]·[−2w′, ‖w′‖²]ᵀ``
  are computed tile by tile on the device, reduced there to a few numbers per query
  (each tile's minimum and runner-up, and whether another score lies within the
  rounding bound of them), and only those come back to the host;
* the host re-decides the near ties in float64, as the CPU decoder does, among the
  words whose float32 score lies within the bound (found on the device).

Decoding is post-processing of the noisy vectors (Lemma 3); the noise itself is drawn
on the host by the mechanism's generator, so a seeded run releases the same words
whichever device decodes.  :func:`cuda_namespace` gives the GPU library behind
``--device cuda`` (CuPy, the ``gpu`` extra).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

import numpy as np

from emprivacy._optional import import_optional
from emprivacy._validation import check_positive_int
from emprivacy.decoding.base import check_magnitude, check_points
from emprivacy.embeddings.model import Embeddings
from emprivacy.exceptions import DeviceUnavailableError

__all__ = ["DEVICES", "ArrayAPIDecoder", "cuda_namespace", "float32_ieee_problem"]

#: The ``--device`` choices: ``cpu`` (:class:`~emprivacy.decoding.ExactDecoder`) and
#: ``cuda`` (:class:`ArrayAPIDecoder` on CuPy).
DEVICES = ("cpu", "cuda")

#: Default bound on the device memory of one batch's scratch (bytes).
DEFAULT_DEVICE_MEMORY = 256 * 2**20
#: The scratch of ``--device cuda`` (bytes): on an H100, 1 GiB decoded 1.6× (100k × 50) and
#: 1.26× (400k × 300) the words per second of 256 MiB (docs/DECODERS.md, benchmarks/gpu.py).
CUDA_DEVICE_MEMORY = 2**30
#: Default tile width (words); a batch's rows then fill the memory bound.
_BLOCK_COLS = 32768
_MAX_BATCH_ROWS = 16384
#: Bytes of device scratch per score: the float32 tile, the masked copy of the top-2
#: pass and a boolean comparison.
_BYTES_PER_SCORE = 9
#: Candidate pairs per float64 step on the host (bounds its memory: pairs × n × 8 bytes).
_PAIRS_PER_STEP = 16384
_UNIT_ROUNDOFF32 = 2.0**-24


def _compat() -> ModuleType:
    return import_optional("array_api_compat", extra="array",
                           purpose="the array-API decoder")


def cuda_namespace() -> ModuleType:
    """The GPU array library behind ``--device cuda`` (CuPy), checked to see a CUDA device.

    Raises
    ------
    MissingExtraError
        CuPy or ``array-api-compat`` is not installed (the ``gpu`` extra).
    DeviceUnavailableError
        CuPy cannot reach a CUDA device (no GPU, no driver, or none visible).
    """
    import_optional("array_api_compat", extra="gpu", purpose="--device cuda")
    cupy = import_optional("cupy", extra="gpu", purpose="--device cuda")
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as exc:  # CUDARuntimeError and the driver's own failures
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DeviceUnavailableError(f"device 'cuda' is not available: {reason}") from None
    if count < 1:
        raise DeviceUnavailableError("device 'cuda' is not available: no CUDA device found")
    return cupy


def cuda_decoder(embeddings: Embeddings) -> ArrayAPIDecoder:
    """The exact decoder of ``--device cuda``: CuPy, with :data:`CUDA_DEVICE_MEMORY` scratch.

    Raises
    ------
    MissingExtraError, DeviceUnavailableError
        As :func:`cuda_namespace`.
    """
    return ArrayAPIDecoder(embeddings, namespace=cuda_namespace(),
                           memory_budget=CUDA_DEVICE_MEMORY)


def float32_ieee_problem(xp: Any) -> str | None:
    """Why float32 matrix products of the namespace ``xp`` may not be IEEE float32, or None.

    The rounding bound of the near-tie rule assumes float32 products (any summation
    order); TF32 tensor cores round the inputs to 10 bits, far beyond it.  PyTorch
    uses them for float32 ``matmul`` when ``torch.backends.cuda.matmul.allow_tf32`` is
    set (or the float32 matmul precision is not "highest"); CuPy when ``CUPY_TF32=1``.
    """
    compat = _compat()
    if compat.is_cupy_namespace(xp) and os.environ.get("CUPY_TF32", "0") != "0":
        return "CUPY_TF32 is set: CuPy's float32 matrix products use TF32"
    if compat.is_torch_namespace(xp):
        import torch

        if torch.get_float32_matmul_precision() != "highest" or \
                torch.backends.cuda.matmul.allow_tf32:
            return ("PyTorch's float32 matrix products may use TF32 "
                    "(torch.backends.cuda.matmul.allow_tf32 or "
                    "torch.set_float32_matmul_precision)")
    return None


class ArrayAPIDecoder:
    """The exact decoder on any array-API library: the same decisions as ExactDecoder.

    Implements ``Vec⁻¹(z) = argmin_w ‖z − Vec(w)‖`` of Alg. 2 exactly, like
    :class:`~emprivacy.decoding.ExactDecoder` (the float64 brute force, ties to the
    lowest row index), with the float32 score tiles computed by the array library
    ``namespace`` on ``device``: NumPy on the host, CuPy or PyTorch on a GPU.

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary to decode into (V words × n dims).
    namespace : module, optional
        The array library: ``numpy`` (default), ``cupy``, ``torch``,
        ``array_api_strict``, or an ``array_api_compat`` namespace.
    device : optional
        Where the vocabulary lives, as the library names devices (``"cuda:1"`` for
        PyTorch, a ``cupy.cuda.Device``); default the library's current device.
    memory_budget : int, default 256 MiB
        Upper bound, in bytes, on one batch's scratch on the device (the score tile
        and its temporaries); the vocabulary itself takes ``4·V·(n + 1)`` bytes more.
    batch_rows, block_cols : int, optional
        Queries per batch and words per tile; by default tiles of 32768 words and as
        many queries as fit ``memory_budget``.

    Notes
    -----
    Per batch and tile the device computes the float32 scores
    ``s_w = ‖w′‖² − 2 z′·w′`` (a matrix product) and, per query, the tile's minimum,
    its row, and whether another score of the tile lies within ``2e(z)`` of it, where

    .. math::

        e(z) = 2 (n + 4)\\, u\\, (2‖z′‖ρ + ρ²),\\qquad ρ = \\max_w ‖w′‖,\\ u = 2^{-24}

    bounds the rounding of any float32 score, in any summation order — the bound of
    :class:`~emprivacy.decoding.ExactDecoder`.  The tiles' minima are merged on the
    device; a query whose best score has another within ``2e(z)`` (in its own tile or
    as another tile's minimum) is a near tie, re-decided on the host in float64 among
    every word whose score is within ``2e(z)`` of the best (found on the device), a
    set that provably holds the float64 argmin.  Every other query's float32 argmin
    is the exact argmin.  The thresholds are rounded upwards, so the set of near ties
    may be a little larger than the CPU decoder's, never smaller: both decoders return
    the float64 brute force's answer for every query.  :meth:`decode_top2` keeps each
    tile's two smallest scores and applies the same rule to the second and third.

    Points whose scores overflow float32 (coordinates near ``1e30``) are decided by
    a float64 pass over the whole vocabulary.

    ``near_ties`` counts the queries re-decided in float64 so far (for benchmarks: each
    costs a pass of the host).

    The bound needs IEEE float32 products: TF32 (PyTorch's ``allow_tf32``,
    ``CUPY_TF32=1``) is refused (:func:`float32_ieee_problem`).

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c"], [[0, 0], [3, 0], [0, 4]])
    >>> ArrayAPIDecoder(emb).decode([[1.4, 0.0], [1.6, 0.0], [1.5, 0.0]]).tolist()
    [0, 1, 0]
    """

    name = "exact"

    def __init__(self, embeddings: Embeddings, *, namespace: Any = None, device: Any = None,
                 memory_budget: int = DEFAULT_DEVICE_MEMORY, batch_rows: int | None = None,
                 block_cols: int | None = None) -> None:
        if not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        compat = _compat()
        raw = np if namespace is None else namespace
        if not callable(getattr(raw, "asarray", None)):
            raise TypeError(f"namespace must be an array library such as numpy, cupy or "
                            f"torch; got {type(raw).__name__}")
        xp = compat.array_namespace(raw.asarray(0.0))
        problem = float32_ieee_problem(xp)
        if problem is not None:
            raise ValueError(f"the exact decoder needs IEEE float32 matrix products; {problem}")
        self.embeddings = embeddings
        self.memory_budget = check_positive_int(memory_budget, "memory_budget")
        self._xp, self._compat, self.device = xp, compat, device
        n_words, dim = len(embeddings), embeddings.dim
        vectors = embeddings.vectors
        # the same augmented vocabulary, mean and bound as ExactDecoder's
        self._mean = vectors.mean(axis=0, dtype=np.float64)
        aug = np.empty((n_words, dim + 1), dtype=np.float32)
        sq_max = 0.0
        for start in range(0, n_words, 65536):
            w = vectors[start:start + 65536] - self._mean
            sq = np.einsum("ij,ij->i", w, w)
            aug[start:start + len(w), :dim] = -2.0 * w
            aug[start:start + len(w), dim] = sq
            sq_max = max(sq_max, float(sq.max()))
        self._radius = float(np.sqrt(sq_max))
        self._err_scale = 2.0 * (dim + 4) * _UNIT_ROUNDOFF32
        # the tile shape
        cols = _BLOCK_COLS if block_cols is None else check_positive_int(block_cols,
                                                                         "block_cols")
        cols = min(cols, n_words)
        while cols > 1 and _BYTES_PER_SCORE * cols > self.memory_budget:
            cols = max(1, cols // 2)
        self.block_cols = cols
        fit = max(1, self.memory_budget // (_BYTES_PER_SCORE * cols))
        self.batch_rows = (min(fit, _MAX_BATCH_ROWS) if batch_rows is None
                           else check_positive_int(batch_rows, "batch_rows"))
        # on the device: the vocabulary, as contiguous tiles of rows (transposed views)
        self._aug = xp.asarray(aug, device=device)
        del aug
        self._tiles = [(c0, min(c0 + cols, n_words),
                        xp.matrix_transpose(self._aug[c0:min(c0 + cols, n_words), :]))
                       for c0 in range(0, n_words, cols)]
        self._iota = xp.arange(cols, dtype=xp.int64, device=device)
        self.near_ties = 0
        self._inf = xp.asarray(np.inf, dtype=xp.float32, device=device)

    def __repr__(self) -> str:
        return (f"ArrayAPIDecoder({self.embeddings!r}, namespace={self._xp.__name__}, "
                f"device={self.device!r}, batch={self.batch_rows}x{self.block_cols})")

    # -- the Decoder protocol ----------------------------------------------------------
    def decode(self, points: np.ndarray | object) -> np.ndarray:
        """Row index of the nearest vocabulary word of each point (exact argmin).

        Parameters
        ----------
        points : (m, n) array-like
            Noisy vectors (host arrays); float64 points are decided as given.

        Returns
        -------
        (m,) int64 NumPy array of vocabulary row indices, equal to what
        :meth:`ExactDecoder.decode <emprivacy.decoding.ExactDecoder.decode>` returns.
        """
        z = check_points(points, self.embeddings.dim)
        out = np.empty(z.shape[0], dtype=np.int64)
        for start in range(0, z.shape[0], self.batch_rows):
            zb = z[start:start + self.batch_rows]
            zq, slack = self._queries(zb)
            with np.errstate(over="ignore", invalid="ignore"):  # overflow: handled below
                best, near, limit = self._top1(zq, slack)
            rows = np.flatnonzero(near)
            if rows.size:
                best[rows] = self._float64_nearest(zb, zq, rows, limit[rows], 1)[:, 0]
            out[start:start + zb.shape[0]] = best
        return out

    def decode_top2(self, points: np.ndarray | object
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The nearest and second-nearest vocabulary word of each point, exactly.

        The same as :meth:`ExactDecoder.decode_top2
        <emprivacy.decoding.ExactDecoder.decode_top2>`: rows ``rows1, rows2`` (int64,
        distinct, in the order of the float64 brute force's stable ``argsort``) and
        their Euclidean distances ``d1 ≤ d2`` (float64).

        Examples
        --------
        >>> emb = Embeddings(["a", "b", "c"], [[0, 0], [3, 0], [0, 4]])
        >>> r1, r2, d1, d2 = ArrayAPIDecoder(emb).decode_top2([[1.0, 0.0], [0.0, 3.0]])
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
        vectors = self.embeddings.vectors
        for start in range(0, m, self.batch_rows):
            zb = z[start:start + self.batch_rows]
            stop = start + zb.shape[0]
            zq, slack = self._queries(zb)
            with np.errstate(over="ignore", invalid="ignore"):  # overflow: handled below
                r1, r2, near, limit = self._top2(zq, slack)
            rows = np.flatnonzero(near)
            if rows.size:
                pick = self._float64_nearest(zb, zq, rows, limit[rows], 2)
                r1[rows], r2[rows] = pick[:, 0], pick[:, 1]
            # both words known: their float64 distances, ordered (ties: the lower row),
            # computed as ExactDecoder computes them
            z64 = np.asarray(zb, np.float64)
            diff1 = vectors[r1].astype(np.float64) - z64
            diff2 = vectors[r2].astype(np.float64) - z64
            d1 = np.einsum("ij,ij->i", diff1, diff1)
            d2 = np.einsum("ij,ij->i", diff2, diff2)
            swap = (d2 < d1) | ((d2 == d1) & (r2 < r1))
            outs[0][start:stop] = np.where(swap, r2, r1)
            outs[1][start:stop] = np.where(swap, r1, r2)
            outs[2][start:stop] = np.sqrt(np.where(swap, d2, d1))
            outs[3][start:stop] = np.sqrt(np.where(swap, d1, d2))
        return outs

    # -- internals ---------------------------------------------------------------------
    def _to_host(self, x: Any) -> np.ndarray:
        """A device array as a NumPy array."""
        compat = self._compat
        if compat.is_cupy_array(x):
            return np.asarray(x.get())
        if compat.is_torch_array(x):
            return np.asarray(x.detach().cpu().numpy())
        return np.asarray(x)

    def _queries(self, zb: np.ndarray) -> tuple[Any, Any]:
        """A batch's augmented float32 queries ``[z′, 1]`` and its slack ``2e(z)`` (rounded
        up to float32), both on the device."""
        xp, dim = self._xp, self.embeddings.dim
        zc = zb - self._mean  # float64, the exact centred query (as ExactDecoder's)
        check_magnitude(zc)
        zq = np.ones((zb.shape[0], dim + 1), dtype=np.float32)
        zq[:, :dim] = zc
        znorm = np.sqrt(np.einsum("ij,ij->i", zc, zc))
        slack = 2.0 * self._err_scale * (2.0 * znorm * self._radius + self._radius**2)
        slack32 = np.nextafter(slack.astype(np.float32), np.float32(np.inf))
        return (xp.asarray(zq, device=self.device),
                xp.asarray(slack32[:, None], device=self.device))

    def _above(self, x: Any, slack: Any) -> Any:
        """``x + slack`` rounded upwards (one float32 step above the rounded sum)."""
        return self._xp.nextafter(x + slack, self._inf)

    def _top1(self, zq: Any, slack: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The float32 argmin of each query of a batch, whether it is a near tie, and the
        score limit ``best + 2e(z)`` of its float64 re-decision (host arrays)."""
        xp = self._xp
        mins, rows, crowded = [], [], []
        for c0, _, tile in self._tiles:
            s = zq @ tile
            low = xp.min(s, axis=1, keepdims=True)  # NaN (overflow) propagates
            rows.append(xp.argmin(s, axis=1) + c0)
            mins.append(low[:, 0])
            crowded.append(xp.count_nonzero(s <= self._above(low, slack), axis=1) >= 2)
        tile_min = xp.stack(mins, axis=1)
        best = xp.min(tile_min, axis=1, keepdims=True)
        which = xp.argmin(tile_min, axis=1, keepdims=True)  # the first tile on ties
        limit = self._overflow_as_nan(self._above(best, slack), best)
        near = ((xp.count_nonzero(tile_min <= limit, axis=1) >= 2)
                | xp.take_along_axis(xp.stack(crowded, axis=1), which, axis=1)[:, 0]
                | xp.isnan(limit[:, 0]))
        picked = xp.take_along_axis(xp.stack(rows, axis=1), which, axis=1)[:, 0]
        return (self._to_host(picked).astype(np.int64), self._to_host(near),
                self._to_host(limit[:, 0]))

    def _overflow_as_nan(self, limit: Any, *scores: Any) -> Any:
        """``limit``, NaN where it or one of ``scores`` is not finite: the float32 scores
        overflowed, and the rounding bound says nothing there."""
        xp = self._xp
        ok = xp.isfinite(limit)
        for s in scores:
            ok = ok & xp.isfinite(s)
        return xp.where(ok, limit, self._inf - self._inf)

    def _top2(self, zq: Any, slack: Any
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The float32 two smallest of each query of a batch (rows), whether the second
        and third are a near tie, and the limit ``second + 2e(z)`` (host arrays)."""
        xp = self._xp
        vals, rows, crowded = [], [], []
        for c0, c1, tile in self._tiles:
            s = zq @ tile
            i1 = xp.argmin(s, axis=1)
            m1 = xp.min(s, axis=1)
            if c1 - c0 > 1:
                rest = xp.where(self._iota[None, :c1 - c0] == i1[:, None], self._inf, s)
                i2 = xp.argmin(rest, axis=1)
                m2 = xp.min(rest, axis=1)
            else:
                i2, m2 = i1, xp.full_like(m1, np.inf)
            # a tile holding both picks: is a third of its scores within 2e(z) of them?
            crowded.append(xp.count_nonzero(s <= self._above(m2[:, None], slack),
                                            axis=1) >= 3)
            vals.extend([m1, m2])
            rows.extend([i1 + c0, i2 + c0])
        v = xp.stack(vals, axis=1)  # tile k's two smallest in columns 2k, 2k + 1
        r = xp.stack(rows, axis=1)
        order = xp.argsort(v, axis=1, stable=True)[:, :2]
        pick = xp.take_along_axis(r, order, axis=1)
        first = xp.take_along_axis(v, order[:, :1], axis=1)
        second = xp.take_along_axis(v, order[:, 1:], axis=1)
        nan = xp.any(xp.isnan(v), axis=1, keepdims=True)  # sorted last: seen here only
        limit = self._overflow_as_nan(self._above(second, slack), first,
                                      xp.where(nan, self._inf, first))
        tile1 = pick[:, :1] // self.block_cols
        same = tile1[:, 0] == pick[:, 1] // self.block_cols
        near = ((xp.count_nonzero(v <= limit, axis=1) >= 3)
                | (same & xp.take_along_axis(xp.stack(crowded, axis=1), tile1, axis=1)[:, 0])
                | xp.isnan(limit[:, 0]))
        pick_h = self._to_host(pick).astype(np.int64)
        return (pick_h[:, 0].copy(), pick_h[:, 1].copy(), self._to_host(near),
                self._to_host(limit[:, 0]))

    def _float64_nearest(self, zb: np.ndarray, zq: Any, rows: np.ndarray, limit: np.ndarray,
                         k: int) -> np.ndarray:
        """The ``k`` nearest words of the near ties ``rows`` of a batch in float64 (by
        distance, ties to the lower row), among the words that can be them: those whose
        float32 score is at most ``limit`` (found on the device).  Rows whose limit is not
        finite (overflow), or that have fewer than ``k`` such words, look at every word.
        """
        xp = self._xp
        self.near_ties += rows.size
        out = np.empty((rows.size, k), dtype=np.int64)
        finite = np.isfinite(limit)
        fin = np.flatnonzero(finite)
        everywhere: list[int] = np.flatnonzero(~finite).tolist()
        if fin.size:
            sub = xp.take(zq, xp.asarray(rows[fin], device=self.device), axis=0)
            lim = xp.asarray(limit[fin][:, None].astype(np.float32), device=self.device)
            pos, cand = [], []
            for c0, _, tile in self._tiles:
                with np.errstate(over="ignore", invalid="ignore"):
                    hit = xp.nonzero(~((sub @ tile) > lim))  # NaN (overflow) included
                pos.append(self._to_host(hit[0]).astype(np.int64))
                cand.append(self._to_host(hit[1]).astype(np.int64) + c0)
            p, c = np.concatenate(pos), np.concatenate(cand)
            z64 = np.asarray(zb, np.float64)[rows[fin]]
            d2 = np.empty(p.size, dtype=np.float64)
            for s in range(0, p.size, _PAIRS_PER_STEP):
                diff = (self.embeddings.vectors[c[s:s + _PAIRS_PER_STEP]].astype(np.float64)
                        - z64[p[s:s + _PAIRS_PER_STEP]])
                d2[s:s + _PAIRS_PER_STEP] = np.einsum("ij,ij->i", diff, diff)
            order = np.lexsort((c, d2, p))  # per row: by distance, then by row index
            p, c = p[order], c[order]
            first = np.searchsorted(p, np.arange(fin.size))
            count = np.searchsorted(p, np.arange(fin.size), side="right") - first
            for j in range(k):
                ok = count > j
                out[fin[ok], j] = c[first[ok] + j]
            everywhere.extend(fin[count < k].tolist())
        for j in everywhere:
            out[j] = self._float64_everywhere(np.asarray(zb[rows[j]], np.float64), k)
        return out

    def _float64_everywhere(self, z: np.ndarray, k: int) -> np.ndarray:
        """The ``k`` nearest words of one point in float64 over the whole vocabulary."""
        vectors = self.embeddings.vectors
        d2 = np.empty(len(vectors), dtype=np.float64)
        for s in range(0, len(vectors), 65536):
            diff = vectors[s:s + 65536].astype(np.float64) - z
            d2[s:s + 65536] = np.einsum("ij,ij->i", diff, diff)
        return np.argsort(d2, kind="stable")[:k]
