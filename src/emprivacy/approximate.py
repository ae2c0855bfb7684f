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
``‖z − c_next‖² ≤ τ·d²`` (``d`` the distance to that word).  Far from every
word all centres look alike (the ratio tends to 1), so such vectors are
searched through every stage.  The stop rule τ is *calibrated* when the index
is built: noisy vectors at noise radii spanning the useful range are decoded
exactly and searched through every stage once, and candidate values of τ are
replayed on that record; the smallest is kept that agrees with exact decoding
on ``1 − 2(1 − target_recall)`` of the vectors near the words (noise radius at
most that where exact decoding still returns the source word for half of them)
and on ``1 − 5(1 − target_recall)`` of the hardest fifth of those, and, beyond,
keeps the share of unchanged words and the mean distance moved within 1 % of
exact decoding's.  The figures are kept in ``calibration``; a
:class:`CalibrationWarning` says when even the full search misses them.  See
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
import itertools
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
from .exceptions import CalibrationWarning, IndexCacheWarning
from .outputs import atomic_file, user_cache_dir
from .randomness import check_random_state

__all__ = ["ApproximateDecoder", "default_cache_dir"]

#: Bumped whenever the index layout or the calibration changes: old cache files are ignored.
INDEX_FORMAT_VERSION = 8

#: Below this many distinct vectors an index does not pay off: decoding is exact.
MIN_INDEXED_WORDS = 2000

#: Candidate values of the stop rule τ tried by the calibration (inf: search every stage).
TAU_GRID = (1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.25, 2.5, 3.0, 4.0)

#: Most candidates per stage the calibration re-ranks.
MAX_RERANK = 256

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


def _stages_up_to(limit: int, stages: list[int], *, count: int | None = None) -> list[int]:
    """``stages`` extended by stages of 4× the cells each (capped at ``limit``) until the last
    reaches ``limit``, or by at most ``count`` stages.

    >>> _stages_up_to(512, [8]), _stages_up_to(2048, [8, 32, 128, 512], count=1)
    ([8, 32, 128, 512], [8, 32, 128, 512, 2048])
    """
    out = list(stages)
    while out[-1] < limit and (count is None or len(out) < len(stages) + count):
        out.append(min(limit, 4 * out[-1]))
    return out


def _cells_between(scores: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                   exclude: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the columns with ``lo < score ≤ hi`` and their scores, padded with −1 / inf.

    Columns listed in a row of ``exclude`` are left out.

    >>> c, d = _cells_between(np.array([[3., 1., 2., 5.]]), np.array([1.]), np.array([3.]))
    >>> c.tolist(), d.tolist()
    ([[0, 2]], [[3.0, 2.0]])
    >>> _cells_between(np.array([[3., 1., 2., 5.]]), np.array([-np.inf]), np.array([3.]),
    ...                exclude=np.array([[1]]))[0].tolist()
    [[0, 2]]
    """
    mask = (scores > lo[:, None]) & (scores <= hi[:, None])
    if exclude is not None:
        mask[np.arange(len(scores))[:, None], exclude] = False
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=len(scores))
    width = max(1, int(counts.max(initial=0)))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    slot = np.arange(len(rows)) - starts[rows]
    cells = np.full((len(scores), width), -1, dtype=np.int64)
    cell_d = np.full((len(scores), width), np.inf, dtype=np.float32)
    cells[rows, slot] = cols
    cell_d[rows, slot] = scores[rows, cols]
    return cells, cell_d


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
    """Fast approximate nearest-word decoder: staged IVF search with fast-scan codes, exact re-rank.

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary to decode into (V words × n dims).
    cache_dir : path-like, optional
        Directory of the on-disk index cache; default :func:`default_cache_dir`.
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
        self.n_threads = (available_cores() if n_threads is None
                          else check_positive_int(n_threads, "n_threads"))
        self.cache_dir = Path(cache_dir).expanduser() if cache_dir is not None else None
        self.build_seconds = 0.0
        self.load_seconds = 0.0
        self.cache_path: Path | None = None
        self.calibration: dict[str, Any] = {}
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
        self._stages = _stages_up_to(self.max_probes, [self.first_probes])
        self._k = self.rerank  # raised by the calibration if needed
        self._tau = math.inf  # the stop rule, calibrated
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
            except Exception as exc:  # any failure to read means: do not trust it
                warnings.warn(f"the cached decoding index {str(path)!r} is unusable ({exc}); "
                              "rebuilding it", IndexCacheWarning, stacklevel=3)
            else:
                self.load_seconds = time.perf_counter() - t0
                self._warn_if_unmet(stacklevel=4)
                return
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
        search = {"rerank": self._k, "tau": self._tau, "stages": self._stages,
                  "calibration": self.calibration}
        meta = {"fingerprint": self.embeddings.fingerprint, "params": self._params(),
                "sha256": self._checksum(blob, search), "search": search}
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_file(path, "wb") as fh:
            np.savez(fh, index=blob, meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))

    def _load(self, path: Path) -> None:
        import faiss

        with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as data:
            meta = json.loads(data["meta"].tobytes().decode())
            blob = data["index"]
        if meta.get("fingerprint") != self.embeddings.fingerprint:
            raise ValueError("it was built for other embeddings")
        if meta.get("params") != self._params():
            raise ValueError("it was built with other parameters")
        search = meta.get("search")
        if not isinstance(search, dict) or self._checksum(blob, search) != meta.get("sha256"):
            raise ValueError("checksum mismatch")
        k, tau, calibration = search.get("rerank"), search.get("tau"), search.get("calibration")
        stages = search.get("stages")
        # the stages the calibration may have added, one at a time
        grown = list(self._stages)
        while isinstance(stages, list) and len(grown) < len(stages) and grown[-1] < self.nlist:
            grown = _stages_up_to(self.nlist, grown, count=1)
        if not (type(k) is int and self.rerank <= k <= max(self.rerank, MAX_RERANK)
                and (tau == math.inf or tau in TAU_GRID) and isinstance(calibration, dict)
                and stages == grown):
            raise ValueError("malformed search parameters")
        index = faiss.deserialize_index(blob)
        if index.ntotal != len(self._ids) or index.d != self.embeddings.dim:
            raise ValueError("index size does not match the embeddings")
        self._index = index
        self._k = k
        self._tau = float(tau)
        self._stages = grown
        self.calibration = calibration
        self._centroid_arrays()

    @staticmethod
    def _checksum(blob: np.ndarray, search: dict[str, Any]) -> str:
        """SHA-256 of the index bytes and the calibrated search parameters together."""
        digest = hashlib.sha256(blob.tobytes())
        digest.update(json.dumps(search, sort_keys=True).encode())
        return digest.hexdigest()

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

    def _calibration_set(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Noisy vectors ``Vec(x) + r·u`` and their sources x: x uniform over the vocabulary,
        u uniform on the sphere, r log-uniform from 0.1× to 4× the median distance between
        two words (from nearly unchanged to nearly random outputs); also returns x and r."""
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
        return vectors[src].astype(np.float64) + u * radius[:, None], src, radius

    def _calibrate(self) -> None:
        """Choose the stop rule τ and the re-rank depth on the calibration set.

        Every calibration vector is searched through all stages once, recording after each
        stage the best word found, its distance and the distance to the next unscanned
        cell; each candidate τ is then replayed on these records.  Near the words (noise
        radius at most ``r½``, where exact decoding still returns the source word for half
        of the vectors) agreement with exact decoding must reach ``1 − 2(1 − target_recall)``,
        and ``1 − 5(1 − target_recall)`` on the hardest fifth of them (the largest radii
        below ``r½``); beyond ``r½``, the share of unchanged words (to within 1 % or two
        words) and the mean distance moved (to within 1 %) must match exact decoding's.
        The smallest τ that passes is kept.  If even the full search (every stage) fails,
        it is widened: by another stage (4× the cells) when the missed answers lie beyond
        the last stage or the statistics are off, by more re-ranked candidates (up to 256;
        the fast-scan codes are coarse in high dimension) when they lie within it; if it
        fails with every cell and 256 candidates, τ = inf and a :class:`CalibrationWarning`
        says so.  The figures are kept in :attr:`calibration`.
        """
        z, src, radius = self._calibration_set()
        exact = ExactDecoder(self.embeddings).decode(z)
        vectors = self.embeddings.vectors.astype(np.float64)
        moved_exact = np.linalg.norm(vectors[exact] - vectors[src], axis=1)
        near = radius <= self._half_radius(radius, exact == src)
        edge = near & (radius >= np.quantile(radius[near], 0.8)) if near.any() else near
        far = ~near
        targets = {"near": 1.0 - 2.0 * (1.0 - self.target_recall),
                   "edge": 1.0 - 5.0 * (1.0 - self.target_recall)}

        def figures(out: np.ndarray) -> dict[str, Any]:
            fig: dict[str, Any] = {
                "near_agreement": float(np.mean(out[near] == exact[near])) if near.any() else 1.0,
                "edge_agreement": float(np.mean(out[edge] == exact[edge])) if edge.any() else 1.0,
                "far_unchanged": [int(np.sum(out[far] == src[far])),
                                  int(np.sum(exact[far] == src[far]))],
                "far_moved": [float(np.linalg.norm(vectors[out[far]] - vectors[src[far]],
                                                   axis=1).sum()),
                              float(moved_exact[far].sum())]}
            same_a, same_e = fig["far_unchanged"]
            moved_a, moved_e = fig["far_moved"]
            fig["met"] = bool(fig["near_agreement"] >= targets["near"]
                              and fig["edge_agreement"] >= targets["edge"]
                              and abs(same_a - same_e) <= max(2, 0.01 * same_e)
                              and abs(moved_a - moved_e) <= 0.01 * moved_e)
            return fig

        # rank of the cell holding the exact answer among all cells, by centre distance to z
        cent, cent_sq = self._centroid_arrays()
        answer_rank = np.empty(len(z), dtype=np.int64)
        cells = self._cells_of(exact)
        for start in range(0, len(z), 1024):
            sc = cent_sq[None, :] - 2.0 * (z[start:start + 1024].astype(np.float32) @ cent.T)
            own = sc[np.arange(len(sc)), cells[start:start + 1024]]
            answer_rank[start:start + 1024] = (sc < own[:, None]).sum(axis=1) + 1
        while True:
            picks, dist, nxt = self._trace(z)
            full = figures(picks[:, -1])
            if full["met"]:
                break
            # a miss whose answer lies beyond the last stage needs more cells; one within
            # them, more candidates; statistics far from the words, more cells
            missed = near & (picks[:, -1] != exact)
            beyond = int(np.sum(missed & (answer_rank > self._stages[-1])))
            within = int(np.sum(missed)) - beyond
            only_statistics = (full["near_agreement"] >= targets["near"]
                               and full["edge_agreement"] >= targets["edge"])
            more_candidates = within > 0 and self._k < MAX_RERANK
            if self._stages[-1] < self.nlist and (beyond >= within or only_statistics
                                                  or not more_candidates):
                self._stages = _stages_up_to(self.nlist, self._stages, count=1)
            elif more_candidates:
                self._k = min(MAX_RERANK, 2 * self._k)
            else:
                break
        # the smallest τ that passes is the cheapest (a larger τ only ever searches on)
        self._tau, chosen = math.inf, full
        if full["met"] and len(self._stages) > 1:  # one stage: nothing to decide
            for tau in TAU_GRID:
                fig = figures(picks[np.arange(len(z)), self._replay(dist, nxt, tau)])
                if fig["met"]:
                    self._tau, chosen = tau, fig
                    break
        self.calibration = {"targets": targets, "vectors": len(z), "near": int(near.sum()),
                            "edge": int(edge.sum()), "far": int(far.sum())} | chosen
        self._warn_if_unmet(stacklevel=6)

    def _warn_if_unmet(self, *, stacklevel: int) -> None:
        """A :class:`CalibrationWarning` if even the widest search (every cell, 256
        candidates) missed the calibration's targets; the decoder then scans every stage
        for every vector."""
        cal = self.calibration
        if cal and not cal.get("met", True):
            (same_a, same_e), targets = cal["far_unchanged"], cal["targets"]
            warnings.warn(
                f"the approximate decoder misses its calibration targets even scanning every "
                f"cell with {self._k} candidates (agreement with exact decoding "
                f"{cal['near_agreement']:.4f} near the words, target {targets['near']:.4f}; "
                f"{cal['edge_agreement']:.4f} at the hardest radii, target "
                f"{targets['edge']:.4f}; {same_a} vs {same_e} words unchanged far from them); "
                "use the exact decoder", CalibrationWarning, stacklevel=stacklevel)

    @staticmethod
    def _half_radius(radius: np.ndarray, unchanged: np.ndarray) -> float:
        """Noise radius below which exact decoding returns the source word for ≥ half the
        vectors (the regime where agreement, not statistics, is the yardstick)."""
        edges = np.quantile(radius, np.linspace(0, 1, 21))
        half = float(edges[0])
        for lo, hi in itertools.pairwise(edges):
            sel = (radius >= lo) & (radius <= hi)
            if sel.any() and np.mean(unchanged[sel]) < 0.5:
                break
            half = float(hi)
        return half

    @classmethod
    def _replay(cls, dist: np.ndarray, nxt: np.ndarray, tau: float) -> np.ndarray:
        """The stage (0-based) at which each traced vector stops with the stop rule ``τ``."""
        m, n_stages = dist.shape
        reached = np.zeros(m, dtype=np.int64)
        going = np.ones(m, dtype=bool)
        for k in range(n_stages - 1):
            going &= cls._continues(dist[:, k], nxt[:, k], tau)
            reached[going] = k + 1
        return reached

    @staticmethod
    def _continues(best_d: np.ndarray, next_d2: np.ndarray, tau: float) -> np.ndarray:
        """Whether a vector goes on to the next stage: while the next unscanned cell's
        centre is close compared with the best word found, ``‖z − c‖² ≤ τ·d²``."""
        return next_d2 <= tau * best_d * best_d

    def _trace(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Search every vector through all stages; per stage: best word, its distance, and
        the squared distance to the nearest cell not yet scanned (inf if none)."""
        n_stages = len(self._stages)
        out = np.empty((len(z), 3 * n_stages))  # picks (exact in float64), dist, nxt

        def fn(zc: np.ndarray) -> np.ndarray:
            p, d, x = self._search_stages(zc, trace=True)
            return np.concatenate([p, d, x], axis=1)

        self._parallel(z, out, fn)
        return (out[:, :n_stages].astype(np.int64), out[:, n_stages:2 * n_stages],
                out[:, 2 * n_stages:])

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
        return self._search_stages(z)[0]

    def _search_stages(self, z: np.ndarray, *, trace: bool = False
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Search vectors stage by stage, nearest cells first, each stopping by the stop rule.

        Stage ``k`` scans the cells ranked ``stages[k-1]`` to ``stages[k]`` by distance
        of their centre to ``z`` and re-ranks the best candidates together with the best
        word so far.  With ``trace``, every vector goes through every stage and the
        per-stage best word, its distance and the squared distance to the next cell are
        returned (the calibration replays stop rules on them); otherwise the best word of
        each vector, its distance and the last stage (0-based) it went through.
        """
        stages = self._stages
        n_stages = len(stages)
        m = len(z)
        z32 = np.ascontiguousarray(z, dtype=np.float32)
        first = stages[0]
        n_first = min(first + 1, self.nlist)
        cell_d, cells = self._index.quantizer.search(z32, n_first)
        first_cells = cells[:, :first]
        best, best_d = self._rerank(z, self._search(z32, first_cells, cell_d[:, :first]))
        next_d2 = (cell_d[:, first].astype(np.float64) if first < self.nlist
                   else np.full(m, np.inf))
        if trace:
            picks, dist, nxt = (np.empty((m, n_stages), dtype=np.int64), np.empty((m, n_stages)),
                                np.empty((m, n_stages)))
            picks[:, 0], dist[:, 0], nxt[:, 0] = best, best_d, next_d2
            active = np.arange(m)
        else:
            reached = np.zeros(m, dtype=np.int64)
            active = np.flatnonzero(self._continues(best_d, next_d2, self._tau))
        if n_stages > 1 and active.size:
            # the later stages' cells, by rank: stage k takes the cells whose score lies
            # between the stages[k-1]-th and the stages[k]-th smallest (ties: all at once);
            # the second stage, those up to the stages[1]-th not scanned by the first (whose
            # ranking, by faiss, may differ from ours in the last bit)
            cent, cent_sq = self._centroid_arrays()
            za = z32[active]
            scores = cent_sq - 2.0 * (za @ cent.T)
            ranked_s = np.sort(scores, axis=1)
            z_sq = np.einsum("ij,ij->i", za, za).astype(np.float64)
            pos = np.arange(len(active))  # rows of `scores` for the active vectors
            for k in range(1, n_stages):
                lo, hi = stages[k - 1], stages[k]
                rows = active
                if k == 1:  # the first stage's cells came from faiss: leave out exactly them
                    cells, cell_d = _cells_between(scores[pos], np.full(len(pos), -np.inf),
                                                   ranked_s[pos, hi - 1], first_cells[rows])
                else:
                    cells, cell_d = _cells_between(scores[pos], ranked_s[pos, lo - 1],
                                                   ranked_s[pos, hi - 1])
                cand = self._search(z32[rows], cells, cell_d + z_sq[pos, None])
                cand = np.concatenate([best[rows, None], cand], axis=1)
                best[rows], best_d[rows] = self._rerank(z[rows], cand)
                next_d2 = (ranked_s[pos, hi] + z_sq[pos] if hi < self.nlist
                           else np.full(len(rows), np.inf))
                if trace:
                    picks[:, k], dist[:, k], nxt[:, k] = best, best_d, next_d2
                    continue
                reached[rows] = k
                go = self._continues(best_d[rows], next_d2, self._tau)
                active, pos = active[go], pos[go]
                if not active.size:
                    break
        if trace:
            return picks, dist, nxt
        return best, best_d, reached

    def _centroid_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if self._cent is None:
            cent = np.ascontiguousarray(self._centroids(), dtype=np.float32)
            self._cent = (cent, np.einsum("ij,ij->i", cent, cent))
        return self._cent
