"""The approximate decoder's search: cells scanned in stages, candidates re-ranked exactly.

A noisy vector ``z`` is looked up in the cells of a faiss inverted file
(:mod:`~emprivacy.decoding.ivf`), nearest centres first, in stages: the
``stages[0]`` nearest cells, then up to ``stages[1]``, and so on.  Each stage takes
the best words of its cells by fast-scan code distance, and re-ranks them together
with the best word so far by exact float64 distance (ties to the lowest row).  After
each stage the stop rule of :mod:`~emprivacy.decoding.tuning` decides, from what has
been seen only (a function of ``z``), whether to go on: while the next unscanned
centre is close compared with the best word, ``‖z − c_next‖² ≤ τ·d²``.

:class:`StagedSearch` is one configuration of that search (the index, its stages, the
re-rank depth and τ): :class:`~emprivacy.decoding.approximate.ApproximateDecoder`
searches with the calibrated one, and the calibration traces candidate ones.  faiss is
used through :mod:`~emprivacy.decoding.ivf` only, and only when a search runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from emprivacy.decoding import ivf, tuning

__all__ = ["StagedSearch", "cells_between", "rerank", "rerank2"]


def cells_between(scores: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                  exclude: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the columns with ``lo < score ≤ hi`` and their scores, padded with −1 / inf.

    Columns listed in a row of ``exclude`` are left out.

    >>> c, d = cells_between(np.array([[3., 1., 2., 5.]]), np.array([1.]), np.array([3.]))
    >>> c.tolist(), d.tolist()
    ([[0, 2]], [[3.0, 2.0]])
    >>> cells_between(np.array([[3., 1., 2., 5.]]), np.array([-np.inf]), np.array([3.]),
    ...               exclude=np.array([[1]]))[0].tolist()
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


def _candidate_d2(vectors: np.ndarray, z: np.ndarray, cand: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Candidate rows with −1 replaced by 0, and their float64 squared distances (inf for −1)."""
    valid = cand >= 0
    safe = np.where(valid, cand, 0)
    diff = vectors[safe].astype(np.float64) - z[:, None, :]
    d2 = np.einsum("ijk,ijk->ij", diff, diff)
    d2[~valid] = np.inf
    return safe, d2


def rerank(vectors: np.ndarray, z: np.ndarray, cand: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray]:
    """Exact float64 re-rank of candidate rows (−1 = none); ties to the lowest index.

    >>> vectors = np.array([[0.0], [1.0], [3.0]], dtype=np.float32)
    >>> rows, d = rerank(vectors, np.array([[2.0], [0.5]]), np.array([[2, 1, -1], [1, 0, -1]]))
    >>> rows.tolist(), d.tolist()
    ([1, 0], [1.0, 0.5])
    """
    safe, d2 = _candidate_d2(vectors, z, cand)
    best = d2.min(axis=1)
    pick = np.where(d2 == best[:, None], safe, np.iinfo(np.int64).max).min(axis=1)
    return pick, np.sqrt(best)


def rerank2(vectors: np.ndarray, z: np.ndarray, cand: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`rerank` keeping the two best distinct rows (−1 / inf when there is none)."""
    safe, d2 = _candidate_d2(vectors, z, cand)
    none = np.iinfo(np.int64).max
    best = d2.min(axis=1)
    pick = np.where(d2 == best[:, None], safe, none).min(axis=1)
    d2[safe == pick[:, None]] = np.inf  # the same row may be listed twice
    second = d2.min(axis=1)
    pick2 = np.where((d2 == second[:, None]) & np.isfinite(d2), safe, none).min(axis=1)
    pick2[pick2 == none] = -1
    return pick, np.sqrt(best), pick2, np.sqrt(second)


@dataclass(frozen=True)
class StagedSearch:
    """The staged search of an inverted file with given stages, re-rank depth and stop rule.

    Attributes
    ----------
    index : faiss index
        The inverted file (ids: vocabulary rows).
    vectors : (V, n) float32 array
        The vocabulary, for the exact re-rank.
    centroids, centroid_sq : (nlist, n) float32 array, (nlist,) float32 array
        The cell centres and their squared norms.
    stages : sequence of int
        Cells scanned after each stage (cumulative, increasing).
    rerank : int
        Candidates per stage re-ranked exactly.
    tau : float
        The stop rule: a vector goes on while ``‖z − c_next‖² ≤ τ·d²`` (inf: always).
    """

    index: Any
    vectors: np.ndarray
    centroids: np.ndarray
    centroid_sq: np.ndarray
    stages: Sequence[int]
    rerank: int
    tau: float

    @property
    def nlist(self) -> int:
        """The number of cells."""
        return len(self.centroids)

    def candidates(self, z32: np.ndarray, cells: np.ndarray, cell_d: np.ndarray,
                   at_least: int = 1) -> np.ndarray:
        """The best words of the given cells by fast-scan code distance (``rerank`` of them,
        or ``at_least`` if that is more; −1 where the cells hold fewer)."""
        return ivf.search_cells(self.index, z32, cells, cell_d, max(self.rerank, at_least))

    def nearest(self, z: np.ndarray) -> np.ndarray:
        """The best word found for each vector (rows), the stop rule applied."""
        return self.search(z)[0]

    def search(self, z: np.ndarray, *, trace: bool = False,
               runner_up: tuple[np.ndarray, np.ndarray] | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Search vectors stage by stage, nearest cells first, each stopping by the stop rule.

        Stage ``k`` scans the cells ranked ``stages[k-1]`` to ``stages[k]`` by distance
        of their centre to ``z`` and re-ranks the best candidates together with the best
        word so far.  With ``trace``, every vector goes through every stage and the
        per-stage best word, its distance and the squared distance to the next cell are
        returned (the calibration replays stop rules on them); otherwise the best word of
        each vector, its distance and the last stage (0-based) it went through.  With
        ``runner_up`` (two arrays, filled in place), the second-best re-ranked word and
        its distance are kept too (−1 / inf if no other word was a candidate); the best
        word and the stop rule are the same as without.
        """
        stages = self.stages
        n_stages = len(stages)
        m = len(z)
        z32 = np.ascontiguousarray(z, dtype=np.float32)
        first = stages[0]
        n_first = min(first + 1, self.nlist)
        cell_d, cells = self.index.quantizer.search(z32, n_first)
        first_cells = cells[:, :first]
        top2 = runner_up is not None
        at_least = 2 if top2 else 1
        cand = self.candidates(z32, first_cells, cell_d[:, :first], at_least)
        if top2:
            best, best_d, second, second_d = rerank2(self.vectors, z, cand)
        else:
            best, best_d = rerank(self.vectors, z, cand)
        next_d2 = (cell_d[:, first].astype(np.float64) if first < self.nlist
                   else np.full(m, np.inf))
        if trace:
            picks, dist, nxt = (np.empty((m, n_stages), dtype=np.int64), np.empty((m, n_stages)),
                                np.empty((m, n_stages)))
            picks[:, 0], dist[:, 0], nxt[:, 0] = best, best_d, next_d2
            active = np.arange(m)
        else:
            reached = np.zeros(m, dtype=np.int64)
            active = np.flatnonzero(tuning.continues(best_d, next_d2, self.tau))
        if n_stages > 1 and active.size:
            # the later stages' cells, by rank: stage k takes the cells whose score lies
            # between the stages[k-1]-th and the stages[k]-th smallest (ties: all at once);
            # the second stage, those up to the stages[1]-th not scanned by the first (whose
            # ranking, by faiss, may differ from ours in the last bit)
            za = z32[active]
            scores = self.centroid_sq - 2.0 * (za @ self.centroids.T)
            ranked_s = np.sort(scores, axis=1)
            z_sq = np.einsum("ij,ij->i", za, za).astype(np.float64)
            pos = np.arange(len(active))  # rows of `scores` for the active vectors
            for k in range(1, n_stages):
                lo, hi = stages[k - 1], stages[k]
                rows = active
                if k == 1:  # the first stage's cells came from faiss: leave out exactly them
                    cells, cell_d = cells_between(scores[pos], np.full(len(pos), -np.inf),
                                                  ranked_s[pos, hi - 1], first_cells[rows])
                else:
                    cells, cell_d = cells_between(scores[pos], ranked_s[pos, lo - 1],
                                                  ranked_s[pos, hi - 1])
                cand = self.candidates(z32[rows], cells, cell_d + z_sq[pos, None], at_least)
                if top2:
                    cand = np.concatenate([best[rows, None], second[rows, None], cand], axis=1)
                    best[rows], best_d[rows], second[rows], second_d[rows] = \
                        rerank2(self.vectors, z[rows], cand)
                else:
                    cand = np.concatenate([best[rows, None], cand], axis=1)
                    best[rows], best_d[rows] = rerank(self.vectors, z[rows], cand)
                next_d2 = (ranked_s[pos, hi] + z_sq[pos] if hi < self.nlist
                           else np.full(len(rows), np.inf))
                if trace:
                    picks[:, k], dist[:, k], nxt[:, k] = best, best_d, next_d2
                    continue
                reached[rows] = k
                go = tuning.continues(best_d[rows], next_d2, self.tau)
                active, pos = active[go], pos[go]
                if not active.size:
                    break
        if trace:
            return picks, dist, nxt
        if runner_up is not None:
            runner_up[0][:], runner_up[1][:] = second, second_d
        return best, best_d, reached
