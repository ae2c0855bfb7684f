"""Approximate nearest-word decoding with a calibrated, adaptive inverted-file index.

``Vec⁻¹(z) = argmin_w ‖z − Vec(w)‖`` (Alg. 2) looked up in a faiss inverted file
(IVF: the vocabulary split into k-means cells, each scanned with 4-bit
product-quantised fast-scan codes), the best candidates re-ranked with exact
float64 distances.  Decoding is post-processing: the output is a deterministic
function of the noisy vector ``z`` alone, so the privacy guarantee of the
mechanism is unchanged (Lemma 3); only utility can differ from exact decoding,
and how much is measured and reported (docs/BENCHMARKS.md).

Why adaptive.  The noisy vectors lie far from every word when ε is small
(noise radius ≈ n/ε), and there an index must scan a large part of the
vocabulary to find the nearest word; near a word (large ε) a few cells
suffice.  The decoder therefore searches twice: a first pass over the
``first_probes`` nearest cells gives an upper bound ``d₁`` on the distance to
the nearest word, and ``d₁`` — a function of ``z`` only — selects how many
cells the second pass scans.  That table is *calibrated* when the index is
built: noisy vectors at noise radii spanning the useful range are decoded
exactly, and for each range of ``d₁`` the number of cells is 1.25× the
``target_recall`` quantile of the rank of the cell holding the exact answer,
capped at ``max_probe_fraction`` of the cells (that far from every word the
exact output is nearly random and only its statistics matter).  The whole
search is then checked on the same noisy vectors, and more candidates are
re-ranked, or the cap raised, until agreement with exact decoding (uncapped
ranges) and the output statistics (capped ranges) meet their targets.  See
docs/DECODERS.md.

The index and its calibration are cached on disk, keyed by the embeddings'
:attr:`~emprivacy.Embeddings.fingerprint` and the index parameters, in
``cache_dir`` (default: ``$EMPRIVACY_CACHE_DIR``, else
``$XDG_CACHE_HOME/emprivacy``, else ``~/.cache/emprivacy``).  Cache files are
written atomically and verified (fingerprint, parameters, SHA-256 of the index
bytes) on load; a corrupt or mismatching file is rebuilt with an
:class:`IndexCacheWarning`, never used.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ._validation import check_positive_int, check_positive_number
from .decoding import ExactDecoder, _blas_controller, _check_points, available_cores
from .embeddings import Embeddings
from .outputs import atomic_file, user_cache_dir
from .randomness import check_random_state

__all__ = ["ApproximateDecoder", "IndexCacheWarning", "default_cache_dir"]

#: Bumped whenever the index layout or the calibration changes: old cache files are ignored.
INDEX_FORMAT_VERSION = 4

#: Below this many distinct vectors an index does not pay off: decoding is exact.
MIN_INDEXED_WORDS = 2000

#: Queries decoded per chunk (bounds the per-call scratch memory to a few tens of MiB).
_CHUNK = 4096


@contextlib.contextmanager
def _faiss_single_thread() -> Iterator[None]:
    """faiss (OpenMP) on one thread in the calling thread; the previous setting restored.

    All parallelism is ours (one Python thread per core, like the exact decoder):
    idle OpenMP and OpenBLAS thread pools spin-wait, and two pools spinning in
    turn on the same cores made index builds up to 25× slower in our measurements.
    """
    import faiss

    previous = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(previous)


class IndexCacheWarning(UserWarning):
    """A cached approximate-decoding index was unusable (corrupt, stale) and is rebuilt."""


def default_cache_dir() -> Path:
    """Where indexes are cached: :func:`emprivacy.outputs.user_cache_dir`.

    >>> isinstance(default_cache_dir(), Path)
    True
    """
    return user_cache_dir()


def _default_nlist(n_words: int) -> int:
    """About 4√V cells (a power of two), with at least 40 words per cell for k-means."""
    target = min(4.0 * math.sqrt(n_words), n_words / 40.0)
    return int(max(8, 2 ** round(math.log2(max(target, 8.0)))))


def _default_pq_m(dim: int) -> int:
    """Sub-quantisers for 4-bit fast-scan codes: one per dimension (up to 512 dimensions).

    Coarser codes (two or three dimensions per sub-quantiser) needed 16× more
    re-ranked candidates for the same agreement at 100k × 300, and were slower.
    """
    for dsub in range(1, dim + 1):
        if dim % dsub == 0 and dim // dsub <= 512:
            return dim // dsub
    return 1  # pragma: no cover - dsub = dim always qualifies


class ApproximateDecoder:
    """Fast approximate nearest-word decoder: adaptive IVF with fast-scan codes, exact re-rank.

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary to decode into (V words × n dims).
    cache_dir : path-like, optional
        Directory of the on-disk index cache; default :func:`default_cache_dir`.
    nlist : int, optional
        Number of k-means cells; default about ``4√V`` (2048 for 400k words).
    target_recall : float in (0, 1), default 0.999
        Per-range quantile used by the calibration (see the module notes): the
        share of calibration queries, within each range of ``d₁``, whose exact
        answer lies in the cells scanned; the whole search must then agree with
        exact decoding on ``1 − 2(1 − target_recall)`` of them.
    max_probe_fraction : float in (0, 1], default 0.25
        Cap on the share of cells scanned for one query (raised by the
        calibration if the output statistics need it).
    first_probes : int, optional
        Cells scanned by the first pass; default ``max(4, nlist // 256)``.
    rerank : int, default 16
        Candidates per pass re-ranked with exact float64 distances.
    calibration_queries : int, default 8000
        Noisy vectors decoded exactly to calibrate the index at build time.
    n_threads : int, optional
        Threads searching in parallel (each with single-threaded faiss and BLAS);
        default: every core this process may use.  The answers do not depend on it.

    Attributes
    ----------
    build_seconds : float
        Time spent building the index (0 when it was loaded from the cache).
    load_seconds : float
        Time spent loading it from the cache (0 when it was built).
    cache_path : Path or None
        The cache file used.
    effective_rerank, effective_max_probes : int
        ``rerank`` and the cap on cells after calibration.

    Notes
    -----
    The output depends on the noisy vector only (never on the word it was
    made from), so this decoder is post-processing and keeps the mechanism's
    guarantee.  Ties between exact duplicates resolve to the lowest index
    (duplicates are indexed once, under their first row).  Vocabularies with
    fewer than 2000 distinct vectors are decoded exactly.  Each call uses every
    core (one thread per core); decode from one thread at a time.

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c"], [[0, 0], [3, 0], [0, 4]])
    >>> ApproximateDecoder(emb).decode([[1.4, 0.0], [0.1, 3.0]]).tolist()  # tiny: exact
    [0, 2]
    """

    name = "approximate"

    def __init__(self, embeddings: Embeddings, *, cache_dir: str | os.PathLike[str] | None = None,
                 nlist: int | None = None, target_recall: float = 0.999,
                 max_probe_fraction: float = 0.25, first_probes: int | None = None,
                 rerank: int = 16, calibration_queries: int = 8000,
                 n_threads: int | None = None) -> None:
        if not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        self.embeddings = embeddings
        target_recall = check_positive_number(target_recall, "target_recall")
        if not target_recall < 1.0:
            raise ValueError(f"target_recall must lie in (0, 1); got {target_recall!r}")
        max_probe_fraction = check_positive_number(max_probe_fraction, "max_probe_fraction")
        if max_probe_fraction > 1.0:
            raise ValueError(f"max_probe_fraction must lie in (0, 1]; got {max_probe_fraction!r}")
        self.target_recall = target_recall
        self.max_probe_fraction = max_probe_fraction
        self.rerank = check_positive_int(rerank, "rerank")
        self.calibration_queries = check_positive_int(calibration_queries,
                                                      "calibration_queries", minimum=100)
        self.n_threads = (available_cores() if n_threads is None
                          else check_positive_int(n_threads, "n_threads"))
        self.cache_dir = Path(cache_dir).expanduser() if cache_dir is not None else None
        self.build_seconds = 0.0
        self.load_seconds = 0.0
        self.cache_path: Path | None = None
        self._index: Any = None
        self._cent: tuple[np.ndarray, np.ndarray] | None = None
        self._exact: ExactDecoder | None = None

        vectors = embeddings.vectors
        _, first = np.unique(vectors.view(np.dtype((np.void, vectors.dtype.itemsize
                                                      * vectors.shape[1]))).ravel(),
                             return_index=True)
        self._ids = np.sort(first).astype(np.int64)  # first occurrence of each distinct vector
        if len(self._ids) < MIN_INDEXED_WORDS:
            self._exact = ExactDecoder(embeddings)
            self.nlist = 0
            return
        self.nlist = (_default_nlist(len(self._ids)) if nlist is None
                      else check_positive_int(nlist, "nlist", minimum=2))
        if self.nlist > len(self._ids):
            raise ValueError(f"nlist must be at most the number of distinct words "
                             f"({len(self._ids)}); got {self.nlist}")
        self.first_probes = (max(4, self.nlist // 256) if first_probes is None
                             else check_positive_int(first_probes, "first_probes"))
        self.first_probes = min(self.first_probes, self.nlist)
        self.max_probes = max(self.first_probes, round(self.max_probe_fraction * self.nlist))
        self._k, self._cap = self.rerank, self.max_probes  # raised by the calibration if needed
        self.pq_m = _default_pq_m(embeddings.dim)
        self._load_or_build()

    def __repr__(self) -> str:
        return (f"ApproximateDecoder({self.embeddings!r}, nlist={self.nlist}, "
                f"target_recall={self.target_recall})")

    # -- cache -------------------------------------------------------------------------
    def _params(self) -> dict[str, Any]:
        return {"version": INDEX_FORMAT_VERSION, "nlist": self.nlist, "pq_m": self.pq_m,
                "first_probes": self.first_probes, "max_probes": self.max_probes,
                "target_recall": self.target_recall, "rerank": self.rerank,
                "calibration_queries": self.calibration_queries}

    def _cache_file(self) -> Path:
        params = json.dumps(self._params(), sort_keys=True).encode()
        key = hashlib.sha256(params).hexdigest()[:12]
        base = self.cache_dir if self.cache_dir is not None else default_cache_dir()
        return base / f"ivf-{self.embeddings.fingerprint[:24]}-{key}.npz"

    def _load_or_build(self) -> None:
        path = self._cache_file()
        self.cache_path = path
        if path.exists():
            t0 = time.perf_counter()
            try:
                self._load(path)
                self.load_seconds = time.perf_counter() - t0
                return
            except Exception as exc:  # any failure to read means: do not trust it
                warnings.warn(f"the cached decoding index {str(path)!r} is unusable ({exc}); "
                              "rebuilding it", IndexCacheWarning, stacklevel=3)
        t0 = time.perf_counter()
        self._build()
        self.build_seconds = time.perf_counter() - t0
        try:
            self._save(path)
        except OSError as exc:
            warnings.warn(f"could not write the decoding index cache {str(path)!r} ({exc}); "
                          "the index will be rebuilt next time", IndexCacheWarning, stacklevel=3)

    def _save(self, path: Path) -> None:
        import faiss

        blob = faiss.serialize_index(self._index)
        meta = {"fingerprint": self.embeddings.fingerprint, "params": self._params(),
                "sha256": hashlib.sha256(blob.tobytes()).hexdigest(),
                "rerank": self._k, "max_probes": self._cap}
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_file(path, "wb") as fh:
            np.savez(fh, index=blob, edges=self._edges, probes=self._probes,
                     meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))

    def _load(self, path: Path) -> None:
        import faiss

        with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as data:
            meta = json.loads(data["meta"].tobytes().decode())
            blob = data["index"]
            edges, probes = data["edges"], data["probes"]
        if meta.get("fingerprint") != self.embeddings.fingerprint:
            raise ValueError("it was built for other embeddings")
        if meta.get("params") != self._params():
            raise ValueError("it was built with other parameters")
        if hashlib.sha256(blob.tobytes()).hexdigest() != meta.get("sha256"):
            raise ValueError("checksum mismatch")
        if edges.ndim != 1 or probes.shape != (len(edges) + 1,):
            raise ValueError("malformed calibration table")
        k, cap = meta.get("rerank"), meta.get("max_probes")
        if not (isinstance(k, int) and isinstance(cap, int) and 0 < k and 0 < cap <= self.nlist):
            raise ValueError("malformed search parameters")
        index = faiss.deserialize_index(blob)
        if index.ntotal != len(self._ids) or index.d != self.embeddings.dim:
            raise ValueError("index size does not match the embeddings")
        self._index = index
        self._edges = edges.astype(np.float64)
        self._probes = probes.astype(np.int64)
        self._k, self._cap = k, cap
        self._centroid_arrays()

    # -- build ---------------------------------------------------------------------------
    def _build(self) -> None:
        import faiss

        dim = self.embeddings.dim
        x = np.ascontiguousarray(self.embeddings.vectors[self._ids])
        quantizer = faiss.IndexFlatL2(dim)
        index = faiss.IndexIVFPQFastScan(quantizer, dim, self.nlist, self.pq_m, 4)
        index.by_residual = False
        index.cp.max_points_per_centroid = 64  # k-means on ≤ 64 points per cell: fast, enough
        with _faiss_single_thread():
            index.train(x)
            index.add_with_ids(x, self._ids)
        self._index = index
        self._centroid_arrays()
        self._calibrate()

    def _calibration_set(self) -> tuple[np.ndarray, np.ndarray]:
        """Noisy vectors ``Vec(x) + r·u`` and their sources x: x uniform over the vocabulary,
        u uniform on the sphere, r log-uniform from 0.1× to 4× the median distance between
        two words (from nearly unchanged to nearly random outputs)."""
        gen = check_random_state(20190101)  # fixed: the same index for the same embeddings
        vectors = self.embeddings.vectors
        n_words, dim = vectors.shape
        pairs = gen.integers(0, n_words, size=(4000, 2))
        scale = float(np.median(np.linalg.norm(
            vectors[pairs[:, 0]].astype(np.float64) - vectors[pairs[:, 1]], axis=1)))
        q = self.calibration_queries
        src = gen.integers(0, n_words, size=q)
        u = gen.standard_normal((q, dim))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        radius = scale * np.exp(gen.uniform(math.log(0.1), math.log(4.0), size=q))
        return vectors[src].astype(np.float64) + u * radius[:, None], src

    def _calibrate(self) -> None:
        """Fit the ``d₁`` → cells table, then check the whole search on the calibration set.

        Where the table is not capped, agreement with exact decoding must reach
        ``1 − 2(1 − target_recall)``; otherwise more candidates are re-ranked (the
        fast-scan codes are coarse in high dimension).  Where it is capped (far
        from every word), the share of unchanged words and the mean distance moved
        must be within 1 % of exact decoding's; otherwise the cap is raised.
        """
        z, src = self._calibration_set()
        exact = ExactDecoder(self.embeddings).decode(z)
        z32 = z.astype(np.float32)
        cells = self._cells_of(exact)
        cent, cent_sq = self._centroid_arrays()
        # rank of the exact answer's cell among all cells, by distance to z (1 = nearest)
        scores = cent_sq[None, :] - 2.0 * (z32 @ cent.T)
        own = scores[np.arange(len(z)), cells]
        need = (scores < own[:, None]).sum(axis=1) + 1
        del scores
        vectors = self.embeddings.vectors.astype(np.float64)
        moved_exact = np.linalg.norm(vectors[exact] - vectors[src], axis=1)
        min_agreement = 1.0 - 2.0 * (1.0 - self.target_recall)
        for _ in range(8):
            d1 = np.empty(len(z))
            self._parallel(z, d1, lambda zc: self._first_pass(zc, zc.astype(np.float32))[1])
            self._fit_table(d1, need)
            out = np.empty(len(z), dtype=np.int64)
            self._parallel(z, out, self._decode_chunk)
            capped = self.probes_for(d1) >= self._cap
            free = ~capped
            if free.any() and np.mean(out[free] == exact[free]) < min_agreement \
                    and self._k < 256:
                self._k *= 2
                continue
            if capped.any() and self._cap < self.nlist:
                same_e = int(np.sum(exact[capped] == src[capped]))
                same_a = int(np.sum(out[capped] == src[capped]))
                moved_a = np.linalg.norm(vectors[out[capped]] - vectors[src[capped]], axis=1).sum()
                moved_e = moved_exact[capped].sum()
                if (abs(same_a - same_e) > max(2, 0.01 * same_e)
                        or abs(moved_a - moved_e) > 0.01 * moved_e):
                    self._cap = min(self.nlist, 2 * self._cap)
                    continue
            break

    def _fit_table(self, d1: np.ndarray, need: np.ndarray) -> None:
        """Cells per range of ``d₁``: the ``target_recall`` quantile of ``need``, monotone."""
        n_bins = 32
        edges = np.unique(np.quantile(d1, np.linspace(0, 1, n_bins + 1)[1:-1]))
        bins = np.searchsorted(edges, d1, side="right")
        probes = np.empty(len(edges) + 1, dtype=np.int64)
        for b in range(len(edges) + 1):
            sel = need[bins == b]
            q = float(np.quantile(sel, self.target_recall)) if sel.size else self._cap
            # beyond the first pass, a 25 % margin: the quantile of a few hundred samples is
            # itself uncertain (within the first pass there is nothing to save)
            probes[b] = math.ceil(q if q <= self.first_probes else 1.25 * q)
        probes = np.maximum.accumulate(probes)  # farther from every word: never fewer cells
        self._edges = edges.astype(np.float64)
        self._probes = np.clip(probes, self.first_probes, self._cap)

    def _centroids(self) -> np.ndarray:
        import faiss

        return faiss.downcast_index(self._index.quantizer).reconstruct_n(0, self.nlist)

    def _cells_of(self, rows: np.ndarray) -> np.ndarray:
        with _faiss_single_thread():
            _, cells = self._index.quantizer.search(
                np.ascontiguousarray(self.embeddings.vectors[rows]), 1)
        return cells[:, 0]

    # -- search --------------------------------------------------------------------------
    def _rerank(self, z: np.ndarray, cand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Exact float64 re-rank of candidate rows (−1 = none); ties to the lowest index."""
        valid = cand >= 0
        safe = np.where(valid, cand, 0)
        diff = self.embeddings.vectors[safe].astype(np.float64) - z[:, None, :]
        d2 = np.einsum("ijk,ijk->ij", diff, diff)
        d2[~valid] = np.inf
        best = d2.min(axis=1)
        pick = np.where(d2 == best[:, None], safe, np.iinfo(np.int64).max).min(axis=1)
        return pick, np.sqrt(best)

    def _search(self, z32: np.ndarray, cells: np.ndarray, cell_d: np.ndarray) -> np.ndarray:
        """The best words of the given cells by fast-scan code distance (``rerank`` or more).

        The number of cells goes in per-call search parameters, not in the shared
        index, so that threads can search at once.
        """
        import faiss

        n, nprobe = cells.shape
        params = faiss.SearchParametersIVF()
        params.nprobe = nprobe
        z32 = np.ascontiguousarray(z32, dtype=np.float32)
        cells = np.ascontiguousarray(cells, dtype=np.int64)
        cell_d = np.ascontiguousarray(cell_d, dtype=np.float32)
        dist = np.empty((n, self._k), dtype=np.float32)
        ids = np.empty((n, self._k), dtype=np.int64)
        self._index.search_preassigned_c(n, faiss.swig_ptr(z32), self._k,
                                         faiss.swig_ptr(cells), faiss.swig_ptr(cell_d),
                                         faiss.swig_ptr(dist), faiss.swig_ptr(ids), False, params)
        return ids

    def _first_pass(self, z: np.ndarray, z32: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Scan the ``first_probes`` nearest cells: best word and its distance ``d₁``."""
        cell_d, cells = self._index.quantizer.search(z32, self.first_probes)
        return self._rerank(z, self._search(z32, cells, cell_d))

    @property
    def effective_rerank(self) -> int:
        """Candidates re-ranked per pass, as raised by the calibration (≥ ``rerank``)."""
        return self._k if self._exact is None else 0

    @property
    def effective_max_probes(self) -> int:
        """Most cells scanned for one query, as raised by the calibration."""
        return self._cap if self._exact is None else 0

    def probes_for(self, d1: np.ndarray) -> np.ndarray:
        """Cells scanned for queries whose first pass found a word at distance ``d1``."""
        return self._probes[np.searchsorted(self._edges, d1, side="right")]

    def decode(self, points: np.ndarray | object) -> np.ndarray:
        """Row index of the (approximately) nearest vocabulary word of each point.

        Parameters
        ----------
        points : (m, n) array-like
            Noisy vectors.

        Returns
        -------
        (m,) int64 array of vocabulary row indices.
        """
        if self._exact is not None:
            return self._exact.decode(points)
        z_all = _check_points(points, self.embeddings.dim)
        out = np.empty(z_all.shape[0], dtype=np.int64)
        self._parallel(z_all, out, self._decode_chunk)
        return out

    def _parallel(self, z_all: np.ndarray, out: np.ndarray,
                  fn: Any) -> None:
        """``out[s:e] = fn(z_all[s:e] as float64)`` over chunks, on every core.

        One Python thread per core, each with single-threaded faiss and BLAS, takes
        every n-th chunk; each query's answer depends on that query only.
        """
        m = z_all.shape[0]
        if m == 0:
            return
        n_threads = self.n_threads
        size = min(_CHUNK, max(1, -(-m // n_threads)))
        chunks = [(s, min(s + size, m)) for s in range(0, m, size)]
        n_workers = min(n_threads, len(chunks))

        def work(part: list[tuple[int, int]]) -> None:
            with _faiss_single_thread():
                for start, stop in part:
                    z = z_all[start:stop].astype(np.float64)
                    if not np.all(np.abs(z) < 1e30):
                        raise ValueError("points must be finite (and below 1e30 in magnitude); "
                                         "found NaN, infinity or a huge value")
                    out[start:stop] = fn(z)

        with _blas_controller().limit(limits=1, user_api="blas"):
            if n_workers == 1:
                work(chunks)
            else:
                with ThreadPoolExecutor(max_workers=n_workers) as pool:
                    futures = [pool.submit(work, chunks[k::n_workers]) for k in range(n_workers)]
                    for f in futures:
                        f.result()

    def _decode_chunk(self, z: np.ndarray) -> np.ndarray:
        z32 = np.ascontiguousarray(z, dtype=np.float32)
        best, d1 = self._first_pass(z, z32)
        probes = self.probes_for(d1)
        more = np.flatnonzero(probes > self.first_probes)
        if more.size == 0:
            return best
        # second pass: the p nearest cells (a set: the first pass's cells come again, cheaply);
        # ‖c‖² − 2 z·c ranks the cells like ‖z − c‖², with one matrix product
        cent, cent_sq = self._centroid_arrays()
        scores = cent_sq - 2.0 * (z32[more] @ cent.T)
        for p in np.unique(probes[more]):
            sel = np.flatnonzero(probes[more] == p)
            s = scores[sel]
            cells = (np.argpartition(s, p - 1, axis=1)[:, :p] if p < self.nlist
                     else np.broadcast_to(np.arange(self.nlist), s.shape))
            rows = more[sel]
            ids = self._search(z32[rows], cells, np.take_along_axis(s, cells, axis=1))
            cand = np.concatenate([best[rows, None], ids], axis=1)
            best[rows], _ = self._rerank(z[rows], cand)
        return best

    def _centroid_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if self._cent is None:
            cent = np.ascontiguousarray(self._centroids(), dtype=np.float32)
            self._cent = (cent, np.einsum("ij,ij->i", cent, cent))
        return self._cent
