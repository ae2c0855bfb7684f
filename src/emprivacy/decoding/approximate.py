"""Approximate nearest-word decoding with a calibrated, adaptive inverted-file index.

``Vec⁻¹(z) = argmin_w ‖z − Vec(w)‖`` (Alg. 2) looked up in a faiss inverted file
(IVF: the vocabulary split into k-means cells, each scanned with 4-bit
product-quantised fast-scan codes), the best candidates re-ranked with exact
float64 distances.  Decoding is post-processing: the output is a deterministic
function of the noisy vector ``z`` alone, so the privacy guarantee of the
mechanism is unchanged (Lemma 3); only utility can differ from exact decoding,
and how much is measured and reported (docs/BENCHMARKS.md).

Why staged.  The noisy vectors lie far from every word when ε is small
(noise radius ≈ n/ε), and there an index must scan a large part of the
vocabulary to find the nearest word; near a word (large ε) a few cells
suffice, and which case a vector is in shows only during the search.  The
decoder therefore scans cells in stages, nearest centres first — the
``first_probes`` nearest, then 4× as many, and so on up to
``max_probe_fraction`` of the cells — and after each stage decides from what
it has seen, a function of ``z`` only, whether to go on: it goes on while the
next unscanned centre is close compared with the best word found so far,
``‖z − c_next‖² ≤ τ·d²`` (``d`` the distance to that word); that search is
:mod:`emprivacy.decoding.staged`.  Far from every word all centres look alike
(the ratio tends to 1), so such vectors are searched through every stage.  The
stop rule τ is *calibrated* when the index is built
(:mod:`emprivacy.decoding.tuning`); the figures are kept in
``calibration``, and a :class:`~emprivacy.exceptions.CalibrationWarning` says
when even the full search misses them.  The index and its calibration are
cached on disk (:mod:`emprivacy.decoding.index_cache`).  See docs/DECODERS.md.

faiss (the ``approximate`` extra) is imported when a decoder builds or loads an
index, never with the package.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from emprivacy._validation import check_positive_int, check_positive_number
from emprivacy.decoding import index_cache, ivf, tuning
from emprivacy.decoding.base import check_magnitude, check_points
from emprivacy.decoding.exact import ExactDecoder
from emprivacy.decoding.staged import StagedSearch
from emprivacy.decoding.threads import check_threads, row_blocks, run_on_cores
from emprivacy.embeddings.model import Embeddings
from emprivacy.exceptions import CalibrationWarning

__all__ = ["ApproximateDecoder"]

#: Below this many distinct vectors an index does not pay off: decoding is exact.
MIN_INDEXED_WORDS = 2000

#: Queries decoded per chunk (bounds the per-call scratch memory to a few tens of MiB).
_CHUNK = 4096


def _row_keys(vectors: np.ndarray) -> np.ndarray:
    """One opaque key per row, equal exactly when the rows' bytes are (to find duplicates)."""
    return vectors.view(np.dtype((np.void, vectors.dtype.itemsize * vectors.shape[1]))).ravel()


class ApproximateDecoder:
    """Fast approximate nearest-word decoder: staged IVF search with fast-scan codes, exact re-rank.

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary to decode into (V words × n dims).
    cache_dir : path-like, optional
        Directory of the on-disk index cache; default
        :func:`~emprivacy.decoding.index_cache.default_cache_dir`.
    nlist : int, optional
        Number of k-means cells; default about ``4√V`` (2048 for 400k words).
    target_recall : float in (0, 1), default 0.999
        Sets the calibration's agreement target (see the module notes): near the
        words, the search must agree with exact decoding on
        ``1 − 2(1 − target_recall)`` of the calibration vectors.
    max_probe_fraction : float in (0, 1], default 0.25
        Share of the cells scanned by the last stage (the most for one vector; at
        least ``first_probes`` cells, and ties between centres may add one).  The
        calibration adds stages if its targets need more.
    first_probes : int, optional
        Cells scanned by the first stage; default ``max(4, nlist // 256)``.  Each
        further stage scans up to 4× as many in all.
    rerank : int, default 16
        Candidates per stage re-ranked with exact float64 distances (raised by the
        calibration if the full search misses its agreement target).
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
    stages : list of int
        Cells scanned after each stage (cumulative), e.g. ``[8, 32, 128, 512]``.
    tau : float
        The calibrated stop rule (see the module notes; inf with a single stage or when
        the calibration fell back to the full search).
    calibration : dict
        The calibration's targets and figures (agreement near the words and at the
        hardest radii, unchanged words and distance moved beyond, ``met``).
    effective_rerank, effective_max_probes : int
        ``rerank`` after calibration, and the cells scanned by the last stage.

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
        self.n_threads = check_threads(n_threads)
        self.cache_dir = Path(cache_dir).expanduser() if cache_dir is not None else None
        self.build_seconds = 0.0
        self.load_seconds = 0.0
        self.cache_path: Path | None = None
        self.calibration: dict[str, Any] = {}
        self._index: Any = None
        self._cent: tuple[np.ndarray, np.ndarray] | None = None
        self._exact: ExactDecoder | None = None
        self._twin: np.ndarray | None = None  # per first occurrence: its first duplicate

        _, first = np.unique(_row_keys(embeddings.vectors), return_index=True)
        self._ids = np.sort(first).astype(np.int64)  # first occurrence of each distinct vector
        if len(self._ids) < MIN_INDEXED_WORDS:
            self._exact = ExactDecoder(embeddings)
            self.nlist = 0
            return
        self.nlist = (ivf.default_nlist(len(self._ids)) if nlist is None
                      else check_positive_int(nlist, "nlist", minimum=2))
        if self.nlist > len(self._ids):
            raise ValueError(f"nlist must be at most the number of distinct words "
                             f"({len(self._ids)}); got {self.nlist}")
        self.first_probes = (max(4, self.nlist // 256) if first_probes is None
                             else check_positive_int(first_probes, "first_probes"))
        self.first_probes = min(self.first_probes, self.nlist)
        self.max_probes = max(self.first_probes, round(self.max_probe_fraction * self.nlist))
        self._stages = tuning.stages_up_to(self.max_probes, [self.first_probes])
        self._k = self.rerank  # raised by the calibration if needed
        self._tau = math.inf  # the stop rule, calibrated
        self.pq_m = ivf.default_pq_m(embeddings.dim)
        ivf.load_faiss()  # a missing extra is said now, not taken for an unusable cache file
        self.cache_path = index_cache.cache_file(self.cache_dir, embeddings.fingerprint,
                                                 self._params())
        loaded, seconds = index_cache.load_or_build(
            self.cache_path, load=self._load, build=self._build, save=self._save, stacklevel=3)
        if loaded:
            self.load_seconds = seconds
            self._warn_if_unmet(stacklevel=3)  # the warning of its build, again
        else:
            self.build_seconds = seconds

    def __repr__(self) -> str:
        return (f"ApproximateDecoder({self.embeddings!r}, nlist={self.nlist}, "
                f"target_recall={self.target_recall})")

    # -- cache ---------------------------------------------------------------------------
    def _params(self) -> dict[str, Any]:
        return {"version": index_cache.INDEX_FORMAT_VERSION, "nlist": self.nlist,
                "pq_m": self.pq_m, "first_probes": self.first_probes,
                "max_probes": self.max_probes, "target_recall": self.target_recall,
                "rerank": self.rerank, "calibration_queries": self.calibration_queries}

    def _save(self, path: Path) -> None:
        search = {"rerank": self._k, "tau": self._tau, "stages": self._stages,
                  "calibration": self.calibration}
        index_cache.write_index(path, ivf.to_bytes(self._index),
                                fingerprint=self.embeddings.fingerprint,
                                params=self._params(), search=search)

    def _load(self, path: Path) -> None:
        blob, search = index_cache.read_index(path, fingerprint=self.embeddings.fingerprint,
                                              params=self._params())
        tuned = tuning.check_search(search, rerank=self.rerank, stages=self._stages,
                                    nlist=self.nlist)
        index = ivf.from_bytes(blob)
        if index.ntotal != len(self._ids) or index.d != self.embeddings.dim:
            raise ValueError("index size does not match the embeddings")
        self._index = index
        self._adopt(tuned)
        self._centroid_arrays()

    def _adopt(self, tuned: tuning.Tuning) -> None:
        """Search with calibrated parameters (the calibration's, or the cache's)."""
        self._stages, self._k, self._tau = tuned.stages, tuned.rerank, tuned.tau
        self.calibration = tuned.calibration

    # -- build ---------------------------------------------------------------------------
    def _build(self) -> None:
        self._index = ivf.build_index(np.ascontiguousarray(self.embeddings.vectors[self._ids]),
                                      self._ids, self.nlist, self.pq_m)
        self._centroid_arrays()
        self._calibrate()

    def _calibrate(self) -> None:
        """Choose the stop rule τ, the stages and the re-rank depth (:func:`tuning.tune`) on
        the calibration set, decoded exactly; a :class:`CalibrationWarning` if even the
        widest search misses the targets.  The figures are kept in :attr:`calibration`."""
        z, src, radius = tuning.calibration_set(self.embeddings.vectors,
                                                self.calibration_queries)
        exact = ExactDecoder(self.embeddings).decode(z)
        yard = tuning.Yardstick.of(self.embeddings.vectors, src, radius, exact,
                                   self.target_recall)
        answer_rank = tuning.answer_ranks(z, *self._centroid_arrays(), self._cells_of(exact))

        def trace(stages: list[int], rerank: int) -> tuning.Trace:
            self._stages, self._k = stages, rerank
            return self._trace(z)

        self._adopt(tuning.tune(trace, yard, answer_rank, self._stages, self._k, self.nlist))
        self._warn_if_unmet(stacklevel=6)

    def _warn_if_unmet(self, *, stacklevel: int) -> None:
        """A :class:`CalibrationWarning` if even the widest search (every cell, 256
        candidates) missed the calibration's targets; the decoder then scans every stage
        for every vector."""
        message = tuning.unmet_message(self.calibration, self._k)
        if message:
            warnings.warn(message, CalibrationWarning, stacklevel=stacklevel)

    def _trace(self, z: np.ndarray) -> tuning.Trace:
        """Search every vector through all stages; per stage: best word, its distance, and
        the squared distance to the nearest cell not yet scanned (inf if none)."""
        n_stages = len(self._stages)
        out = np.empty((len(z), 3 * n_stages))  # picks (exact in float64), dist, nxt
        search = self._searcher()

        def fn(zc: np.ndarray) -> np.ndarray:
            p, d, x = search.search(zc, trace=True)
            return np.concatenate([p, d, x], axis=1)

        self._parallel(z, out, fn)
        return (out[:, :n_stages].astype(np.int64), out[:, n_stages:2 * n_stages],
                out[:, 2 * n_stages:])

    def _cells_of(self, rows: np.ndarray) -> np.ndarray:
        with ivf.single_thread():
            _, cells = self._index.quantizer.search(
                np.ascontiguousarray(self.embeddings.vectors[rows]), 1)
        return cells[:, 0]

    # -- search --------------------------------------------------------------------------
    def _searcher(self) -> StagedSearch:
        """The staged search with the current (calibrated, or tried) parameters."""
        cent, cent_sq = self._centroid_arrays()
        return StagedSearch(self._index, self.embeddings.vectors, cent, cent_sq,
                            tuple(self._stages), self._k, self._tau)

    def _centroid_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if self._cent is None:
            cent = np.ascontiguousarray(ivf.centroids(self._index, self.nlist),
                                        dtype=np.float32)
            self._cent = (cent, np.einsum("ij,ij->i", cent, cent))
        return self._cent

    @property
    def effective_rerank(self) -> int:
        """Candidates re-ranked per stage, as raised by the calibration (≥ ``rerank``)."""
        return self._k if self._exact is None else 0

    @property
    def effective_max_probes(self) -> int:
        """Most cells scanned for one query (the last stage)."""
        return self._stages[-1] if self._exact is None else 0

    @property
    def stages(self) -> list[int]:
        """Cells scanned after each stage of the search (cumulative), e.g. ``[8, 32, 128, 512]``."""
        return list(self._stages) if self._exact is None else []

    @property
    def tau(self) -> float:
        """The calibrated stop rule: search on while ``‖z − c_next‖² ≤ τ·d²`` (inf: always)."""
        return self._tau if self._exact is None else math.inf

    def decode(self, points: np.ndarray | object) -> np.ndarray:
        """Row index of the (approximately) nearest vocabulary word of each point.

        Parameters
        ----------
        points : (m, n) array-like
            Noisy vectors: the index is searched with them in float32, the candidates
            re-ranked with them as given.

        Returns
        -------
        (m,) int64 array of vocabulary row indices.
        """
        if self._exact is not None:
            return self._exact.decode(points)
        z_all = check_points(points, self.embeddings.dim)
        out = np.empty(z_all.shape[0], dtype=np.int64)
        self._parallel(z_all, out, self._searcher().nearest)
        return out

    def _parallel(self, z_all: np.ndarray, out: np.ndarray,
                  fn: Callable[[np.ndarray], np.ndarray]) -> None:
        """``out[s:e] = fn(z_all[s:e] as float64)`` over chunks, on every core.

        One Python thread per core, each with single-threaded faiss and BLAS, takes
        every n-th chunk; each query's answer depends on that query only.
        """
        def work(part: list[tuple[int, int]]) -> None:
            with ivf.single_thread():
                for start, stop in part:
                    z = z_all[start:stop].astype(np.float64)
                    check_magnitude(z)
                    out[start:stop] = fn(z)

        run_on_cores(work, row_blocks(z_all.shape[0], _CHUNK, self.n_threads), self.n_threads)

    def decode_top2(self, points: np.ndarray | object
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The (approximately) nearest and second-nearest vocabulary word of each point.

        The staged search of :meth:`decode` keeping the two best re-ranked
        candidates instead of one: ``rows1`` is what :meth:`decode` returns, and
        both distances are exact float64 Euclidean distances (never the index's
        quantised, squared ones).  An exact duplicate of the nearest word (indexed
        once, under its first row) is its runner-up at the same distance.  Like
        :meth:`decode`, a function of each point alone (post-processing).

        Parameters
        ----------
        points : (m, n) array-like
            Noisy vectors.

        Returns
        -------
        rows1, rows2 : (m,) int64 arrays
            The nearest and the second-nearest word found (``rows1 != rows2``).
        d1, d2 : (m,) float64 arrays
            Their Euclidean distances to the point, ``d1 ≤ d2``.
        """
        if self._exact is not None:
            return self._exact.decode_top2(points)
        z_all = check_points(points, self.embeddings.dim)
        self._twins()  # built once, before the threads use it
        out = np.empty((z_all.shape[0], 4))  # rows (exact in float64) and distances
        search = self._searcher()
        self._parallel(z_all, out, lambda z: self._top2_chunk(search, z))
        return (out[:, 0].astype(np.int64), out[:, 1].astype(np.int64), out[:, 2],
                out[:, 3])

    def _top2_chunk(self, search: StagedSearch, z: np.ndarray) -> np.ndarray:
        second, second_d = np.empty(len(z), dtype=np.int64), np.empty(len(z))
        best, best_d, _ = search.search(z, runner_up=(second, second_d))
        # duplicates of the nearest word are not in the index: the first is its runner-up
        twin = self._twins()[best]
        use = (twin >= 0) & ((second_d > best_d) | (second < 0) | (twin < second))
        second[use], second_d[use] = twin[use], best_d[use]
        for r in np.flatnonzero(second < 0):  # too few candidates found: every word
            second[r], second_d[r] = self._brute_runner_up(z[r], int(best[r]))
        return np.stack([best, second, best_d, second_d], axis=1)

    def _twins(self) -> np.ndarray:
        """Per row: the lowest other row with the same vector, if the row is the first of
        its vector (−1 otherwise, and for vectors that occur once)."""
        if self._twin is None:
            keys = _row_keys(self.embeddings.vectors)
            order = np.argsort(keys, kind="stable")  # equal vectors: increasing rows
            same = keys[order[1:]] == keys[order[:-1]]
            twin = np.full(len(keys), -1, dtype=np.int64)
            starts = np.flatnonzero(same & np.concatenate([[True], ~same[:-1]]))
            twin[order[starts]] = order[starts + 1]
            self._twin = twin
        return self._twin

    def _brute_runner_up(self, z: np.ndarray, best: int) -> tuple[int, float]:
        """The nearest word other than ``best`` (lowest row on ties), by a float64 scan."""
        vectors = self.embeddings.vectors
        pick, pick_d2 = -1, np.inf
        for start in range(0, len(vectors), 65536):
            diff = vectors[start:start + 65536].astype(np.float64) - z
            d2 = np.einsum("ij,ij->i", diff, diff)
            if start <= best < start + len(d2):
                d2[best - start] = np.inf
            i = int(np.argmin(d2))
            if d2[i] < pick_d2:
                pick, pick_d2 = start + i, float(d2[i])
        return pick, float(np.sqrt(pick_d2))
