"""Rank resampling: the post-processing fix for the curse of dimensionality.

Asghar, Carpentier, Zhao, Kaafar (PoPETs 2026, arXiv 2411.13784) observe that with
high-dimensional embeddings the nearest-word mechanisms (Madlib and its successors)
mostly release either the input word itself or a distant word, rarely a close
neighbour (their Fig. 2).  Their fix post-processes the decoded word x* (the *pivot*):
it releases v with probability

.. math::

    P(v \\mid x^*) = \\frac{e^{-c ε\\, r(x^*, v)}}{\\sum_{v'} e^{-c ε\\, r(x^*, v')}},

where ``r(x*, v)`` is the position of v in the list of the pivot's neighbours sorted by
Euclidean distance (the pivot at 0).  It depends on x* alone, so the guarantee of the
mechanism that produced x* is unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from emprivacy._validation import check_epsilon, check_positive_int, check_positive_number
from emprivacy.decoding.threads import available_cores, check_threads, row_blocks, run_on_cores
from emprivacy.embeddings.model import Embeddings
from emprivacy.mechanisms._tiles import RowCache, VocabularyGeometry
from emprivacy.mechanisms.base import check_rows

__all__ = ["RankResampler", "neighbour_ranks", "rank_buckets"]

#: The resampler drops ranks whose total mass is below this (see ``RankResampler``).
NEGLIGIBLE_MASS = 1e-12
#: Bytes of cached neighbour lists a resampler may keep.
_CACHE_BYTES = 64 * 2**20
#: Vocabulary columns per float64 GEMM tile, and the bound on a (rows × |V|) block.
_TILE_COLS = 4096
_BLOCK_BYTES = 32 * 2**20
#: Bytes a candidate of a neighbour list takes while its row is searched (its row and
#: column, GEMM and exact distances, their concatenations and the sort's order).
_CANDIDATE_BYTES = 80
#: The fewest neighbour lists the cache holds (of K ranks each).
_CACHE_ROWS = 16
#: Ranks of the short neighbour lists: a draw below this rank reads its pivot's short list,
#: found about twice as fast as a list of K ranks when K is large (c·ε = 0.1: K = 277, and
#: a rank ≥ 64 has probability e^(−6.4) ≈ 0.002).
_SHORT_RANKS = 64


def _row_blocks(m: int, bytes_per_row: int, n_threads: int) -> list[tuple[int, int]]:
    """Row blocks of at most ``_BLOCK_BYTES`` (``bytes_per_row`` each), one per core at
    least."""
    return row_blocks(m, max(1, min(256, _BLOCK_BYTES // bytes_per_row)), n_threads)


class RankResampler:
    """Release a word at a random rank of the pivot's neighbour list (Asghar et al. 2026).

    Given the decoded word x* of a nearest-word mechanism, release the word of rank r
    in x*'s neighbour list with probability

    .. math::

        P(r) = \\frac{e^{-cεr}}{\\sum_{r' < K} e^{-cεr'}} = \\frac{q^r (1 − q)}{1 − q^K},
        \\qquad q = e^{-cε},\\ 0 ≤ r < K,

    the ranking being: the pivot itself at 0, then every other word by increasing
    Euclidean distance to x*, ties by increasing row (float64 distances, exact ties
    included).  The paper sums over all of V; the list is cut at ``K = top_k`` ranks.
    The mass the cut drops is ``Σ_{r ≥ K} q^r / Σ_{r ≥ 0} q^r = q^K`` of the total
    (at most that much with a finite vocabulary), so the default
    ``K = min(|V|, ⌊ln(10¹²)/(cε)⌋ + 1)`` — the smallest K with ``e^{−cεK} < 10⁻¹²``
    — is within 10⁻¹² of the untruncated law in total variation.  Either way the release
    depends on x* alone: it is post-processing (Lemma 3 of Fernandes et al.), and the
    mechanism keeps its guarantee (ε·d per word for Madlib).

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary and the vectors that rank it (the mechanism's embeddings).
    c : float
        Rate per unit of ε (the paper uses c = 0.04 for GloVe 6B 300d and 0.007 for
        word2vec).  Must be > 0.
    epsilon : float
        The ε of the mechanism whose decoded words are resampled.
    top_k : int, optional
        Number of ranks kept (≥ 1, capped at |V|); default as above.

    Notes
    -----
    The ranks are drawn by inverting the truncated geometric distribution (one uniform
    per word: ``r = ⌊−ln(1 − U(1 − q^K))/(cε)⌋``).  The top-K lists of the distinct
    pivots come from a blocked range search: a threshold is taken from a strided sample
    of the vocabulary (``partition`` at about 2K/stride: about 2K words fall below it),
    GEMM tiles collect every word below the threshold plus the rounding bound (float32
    tiles with their own bound, :meth:`~emprivacy.mechanisms._tiles.VocabularyGeometry.screen`;
    float64 for vectors too large for float32), those candidates get exact float64
    distances and are sorted by (distance, row), and
    the first K are kept — a row whose threshold turns out to have fewer than K words
    below it is searched whole.  The lists are cached per pivot (bounded LRU).  Cost:
    O(|V|·n) per distinct pivot, then O(1) per word.

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c", "d"], [[0.0], [1.0], [-2.0], [4.0]], name="line")
    >>> res = RankResampler(emb, c=1.0, epsilon=1.0)
    >>> res.neighbours([0]).tolist()  # "b" at 1, "c" at 2, "d" at 4
    [[0, 1, 2, 3]]
    >>> res.resample(np.array([3, 3, 0]), np.random.default_rng(0)).shape
    (3,)

    References
    ----------
    .. [1] H. J. Asghar, R. Carpentier, B. Z. H. Zhao, D. Kaafar, "d_X-privacy for text
       and the curse of dimensionality", PoPETs 2026 (arXiv 2411.13784): the
       post-processing fix.
    """

    def __init__(self, embeddings: Embeddings, *, c: float, epsilon: float,
                 top_k: int | None = None) -> None:
        if not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        self.embeddings = embeddings
        self.c = check_positive_number(c, "c")
        self.epsilon = check_epsilon(epsilon)
        self.rate = self.c * self.epsilon
        n_words = len(embeddings)
        if top_k is None:
            k = math.floor(math.log(1.0 / NEGLIGIBLE_MASS) / self.rate) + 1
        else:
            k = check_positive_int(top_k, "top_k")
        self.top_k = int(min(k, n_words))
        self._geo = VocabularyGeometry(embeddings, block_cols=_TILE_COLS)
        self._n_threads = available_cores()
        self._cache = self._new_cache(self.top_k)
        # the first ranks of each list, enough for nearly every draw (see _SHORT_RANKS)
        self._short = (self._new_cache(_SHORT_RANKS) if 2 * _SHORT_RANKS <= self.top_k
                       else None)

    def _new_cache(self, width: int) -> RowCache:
        n_words = len(self.embeddings)
        capacity = min(n_words, max(_CACHE_ROWS, _CACHE_BYTES // (4 * width)))
        return RowCache(n_words, capacity, {"neighbours": ((width,), np.int32)})

    def __repr__(self) -> str:
        return (f"RankResampler(embeddings={self.embeddings!r}, c={self.c!r}, "
                f"epsilon={self.epsilon!r}, top_k={self.top_k})")

    def record_fields(self) -> dict[str, Any]:
        """What output records should say about the resampling."""
        return {"rank_resample": self.c, "rank_resample_top_k": self.top_k}

    def rank_probabilities(self) -> np.ndarray:
        """``P(r)`` for r = 0 … K − 1 (the closed form above): (K,) float64."""
        r = np.arange(self.top_k, dtype=np.float64)
        return np.exp(-self.rate * r) * (-math.expm1(-self.rate)) / (
            -math.expm1(-self.rate * self.top_k))

    def neighbours(self, pivots: np.ndarray | Sequence[int]) -> np.ndarray:
        """The first K rows of each pivot's ranking: (m, K) int64, column r = rank r."""
        p = check_rows(pivots, "pivots", len(self.embeddings))
        out = np.empty((p.size, self.top_k), dtype=np.int64)

        def put(sel: np.ndarray, lists: np.ndarray, pos: np.ndarray) -> None:
            out[sel] = lists[pos]

        self._gather(p, put)
        return out

    def resample(self, pivots: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Resample decoded words: row of the released word for each pivot row.

        Draws ``rng.random(len(pivots))``, one uniform per pivot, and nothing else.
        """
        return self.resample_many([pivots], [rng])[0]

    def resample_many(self, parts: Sequence[np.ndarray],
                      rngs: Sequence[np.random.Generator]) -> list[np.ndarray]:
        """:meth:`resample` of each ``parts[i]`` with ``rngs[i]`` — the same draws and the
        same words — with every pivot's neighbour list found in one pass (one call per
        document of a corpus found them a few pivots at a time: 2,000 short documents with
        entity slots took 4 s of thread starts and small matrix products)."""
        if len(parts) != len(rngs):
            raise ValueError(f"parts and rngs must have the same length; got {len(parts)} "
                             f"and {len(rngs)}")
        for rng in rngs:
            if not isinstance(rng, np.random.Generator):
                raise TypeError(f"rng must be a numpy.random.Generator; got "
                                f"{type(rng).__name__}")
        ps = [check_rows(part, "pivots", len(self.embeddings)) for part in parts]
        if not ps:
            return []
        u = np.concatenate([rng.random(p.size) for p, rng in zip(ps, rngs, strict=True)])
        p = np.concatenate(ps)
        mass = -math.expm1(-self.rate * self.top_k)  # 1 − q^K
        ranks = np.floor(-np.log1p(-u * mass) / self.rate).astype(np.int64)
        np.clip(ranks, 0, self.top_k - 1, out=ranks)
        out = np.empty(p.size, dtype=np.int64)
        near = (np.ones(p.size, dtype=bool) if self._short is None
                else ranks < _SHORT_RANKS)
        for part, short in ((np.flatnonzero(near), self._short is not None),
                            (np.flatnonzero(~near), False)):
            def put(sel: np.ndarray, lists: np.ndarray, pos: np.ndarray,
                    part: np.ndarray = part) -> None:
                out[part[sel]] = lists[pos, ranks[part[sel]]]

            self._gather(p[part], put, short=short)
        return np.split(out, np.cumsum([q.size for q in ps])[:-1])

    def _gather(self, p: np.ndarray,
                put: Callable[[np.ndarray, np.ndarray, np.ndarray], None], *,
                short: bool = False) -> None:
        """Call ``put(selected words, neighbour lists, list of each)`` chunk by chunk; the
        lists of :data:`_SHORT_RANKS` ranks if ``short``, else of K ranks.  A short list is
        the first ranks of the long one, exactly (the same candidates, distances and
        order by (distance, row))."""
        if p.size == 0:
            return
        cache = self._short if short and self._short is not None else self._cache
        width = _SHORT_RANKS if cache is self._short else self.top_k
        uniq, inv = np.unique(p, return_inverse=True)
        cap = cache.capacity
        for a in range(0, uniq.size, cap):
            z = min(a + cap, uniq.size)
            lists = cache.fetch(uniq[a:z], lambda rows: self._top_k_lists(rows, width)
                                )["neighbours"]
            sel = np.flatnonzero((inv >= a) & (inv < z))
            put(sel, lists.astype(np.int64), inv[sel] - a)

    def _top_k_lists(self, rows: np.ndarray, k: int | None = None) -> dict[str, np.ndarray]:
        """The first ``k`` (K) rows of each pivot's ranking (pivot, then (distance, row))."""
        geo = self._geo
        n_words = geo.n_words
        k = self.top_k if k is None else k
        out = np.empty((rows.size, k), dtype=np.int32)
        # A threshold from a strided sample of the vocabulary: its m-th smallest value is
        # expected to have about 2K words below it (K exactly when the sample is all of V).
        step = max(1, n_words // (16 * k))
        sample = np.arange(0, n_words, step)
        m = k if step == 1 else min(sample.size, 2 * -(-k // step) + 2)
        screen = geo.screens
        if screen:
            geo.prepare_screen()  # once, before the threads read it

        def work(part: list[tuple[int, int]]) -> None:
            for s, e in part:
                r = rows[s:e]
                b = r.size
                qa, slack = geo.queries(r)
                tau = np.partition(geo.squared_to(qa, sample), m - 1, axis=1)[:, m - 1]
                limit, low = tau + 2.0 * slack, tau
                if screen:  # float32 tiles (VocabularyGeometry.screen) with their own bound,
                    # the limit rounded up to float32 and τ rounded down
                    qa = qa.astype(np.float32)
                    limit = np.nextafter((tau + 2.0 * geo.screen_slack(r)).astype(np.float32),
                                         np.float32(np.inf))
                    low = np.nextafter(tau.astype(np.float32), np.float32(-np.inf))
                parts_i, parts_j, parts_d = [], [], []
                for t in range(geo.n_tiles):
                    d2 = geo.screen(qa, t) if screen else geo.squared(qa, t)
                    # flat indices: one pass where np.nonzero of a 2-d mask takes two
                    i, j = np.divmod(np.flatnonzero(d2 <= limit[:, None]), d2.shape[1])
                    parts_i.append(i)
                    parts_j.append(int(geo.starts[t]) + j)
                    parts_d.append(d2[i, j])
                i, j = np.concatenate(parts_i), np.concatenate(parts_j)
                # If K words have GEMM values ≤ τ, the K-th smallest exact value is ≤ τ + slack,
                # so every word of the true top K has its GEMM value ≤ τ + 2·slack: collected.
                enough = np.bincount(i[np.concatenate(parts_d) <= low[i]], minlength=b) >= k
                if not enough.all():  # the sample misled: take these rows whole
                    keep = enough[i]
                    short = np.flatnonzero(~enough)
                    i = np.concatenate([i[keep], np.repeat(short, n_words)])
                    j = np.concatenate([j[keep], np.tile(np.arange(n_words), short.size)])
                exact = geo.exact_squared(r[i], j)
                exact[j == r[i]] = -1.0  # the pivot comes first
                order = np.lexsort((j, exact, i))
                starts = np.zeros(b, dtype=np.int64)
                np.cumsum(np.bincount(i, minlength=b)[:-1], out=starts[1:])
                out[s:e] = j[order][starts[:, None] + np.arange(k)]

        # a row holds a GEMM tile and its candidates (about 2K, at most |V|; their rows,
        # distances and order: about _CANDIDATE_BYTES each): K near |V| (a tiny c·ε) takes
        # a few rows per block, not 256 rows of |V| candidates each
        per_row = 8 * min(n_words, _TILE_COLS) + _CANDIDATE_BYTES * min(n_words, 2 * k + 2)
        blocks = _row_blocks(rows.size, per_row, self._n_threads)
        run_on_cores(work, blocks, self._n_threads)
        return {"neighbours": out}


def neighbour_ranks(embeddings: Embeddings, rows: np.ndarray | Sequence[int],
                    outputs: np.ndarray | Sequence[int], *,
                    n_threads: int | None = None) -> np.ndarray:
    """Rank of each output word in its input word's neighbour list (curse paper, Fig. 2).

    ``rank(x, o) = 0`` if ``o = x``, else ``1 + #{v ≠ x : (d(x, v), v) < (d(x, o), o)}``:
    the ranking of :class:`RankResampler` (input first, then by float64 Euclidean
    distance, ties by row), over the whole vocabulary.  Blocked float64 GEMM tiles, exact
    recomputation of every distance within the rounding bound of ``d(x, o)``; memory
    bounded by the tiles, O(m·|V|·n) time for m pairs.

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary and vectors.
    rows, outputs : (m,) array-like of int
        Input and output vocabulary rows, pair by pair.
    n_threads : int, optional
        Worker threads (default: every core this process may use).

    Returns
    -------
    (m,) int64 array of ranks in [0, |V|).

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c", "d"], [[0.0], [1.0], [-1.0], [4.0]], name="line")
    >>> neighbour_ranks(emb, [0, 0, 0, 3], [0, 2, 3, 1]).tolist()  # b, c tie: b first
    [0, 2, 3, 1]
    """
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    n_words = len(embeddings)
    x = check_rows(rows, "rows", n_words)
    o = check_rows(outputs, "outputs", n_words)
    if x.size != o.size:
        raise ValueError(f"rows and outputs must have the same length; got {x.size} and "
                         f"{o.size}")
    threads = check_threads(n_threads)
    geo = VocabularyGeometry(embeddings, block_cols=_TILE_COLS)
    ranks = np.zeros(x.size, dtype=np.int64)

    def work(part: list[tuple[int, int]]) -> None:
        for s, e in part:
            xs, os_ = x[s:e], o[s:e]
            b = xs.size
            qa, slack = geo.queries(xs)
            target = geo.exact_squared(xs, os_)
            before = np.zeros(b, dtype=np.int64)
            for t in range(geo.n_tiles):
                c0 = int(geo.starts[t])
                d2 = geo.squared(qa, t)
                before += np.count_nonzero(d2 < (target - slack)[:, None], axis=1)
                i, j = np.nonzero(np.abs(d2 - target[:, None]) <= slack[:, None])
                if i.size:
                    v = c0 + j
                    ex = geo.exact_squared(xs[i], v)
                    first = (ex < target[i]) | ((ex == target[i]) & (v < os_[i]))
                    before += np.bincount(i[first], minlength=b)
            # the input itself, key (0, x), was counted iff it precedes (d(x, o), o)
            self_first = (target > 0) | (xs < os_)
            ranks[s:e] = np.where(os_ == xs, 0, before - self_first + 1)

    run_on_cores(work, _row_blocks(x.size, 8 * min(n_words, _TILE_COLS), threads), threads)
    return ranks


def rank_buckets(ranks: np.ndarray | Sequence[int], *, close: int = 100) -> dict[str, float]:
    """Proportions of ranks 0 (the input), 1…close ("close") and above (curse paper, Fig. 2).

    >>> rank_buckets([0, 0, 5, 250])
    {'0': 0.5, '1-100': 0.25, '>100': 0.25}
    """
    close = check_positive_int(close, "close")
    r = np.asarray(ranks, dtype=np.int64)
    if r.size == 0:
        raise ValueError("ranks must hold at least one rank; got none")
    n = float(r.size)
    return {"0": float(np.count_nonzero(r == 0)) / n,
            f"1-{close}": float(np.count_nonzero((r >= 1) & (r <= close))) / n,
            f">{close}": float(np.count_nonzero(r > close)) / n}
