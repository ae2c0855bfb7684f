"""Calibration of the approximate decoder's search: the stop rule τ, the stages, the candidates.

The approximate decoder (:mod:`emprivacy.decoding.approximate`) scans cells in
stages and, after each stage, goes on while the next unscanned centre is close
compared with the best word found so far, ``‖z − c_next‖² ≤ τ·d²``
(:func:`continues`).  The stop rule τ is *calibrated* when the index is built:
noisy vectors at noise radii spanning the useful range (:func:`calibration_set`)
are decoded exactly and searched through every stage once, and candidate values
of τ are replayed on that record (:func:`replay`).  The smallest is kept that
agrees with exact decoding on ``1 − 2(1 − target_recall)`` of the vectors near
the words (noise radius at most that where exact decoding still returns the
source word for half of them, :func:`half_radius`) and on
``1 − 5(1 − target_recall)`` of the hardest fifth of those, and, beyond, keeps
the share of unchanged words and the mean distance moved within 1 % of exact
decoding's (:class:`Yardstick`).  If even the full search misses these targets
it is widened (:func:`widening`).  See docs/DECODERS.md.

Everything here is a pure function of numpy arrays: the search itself is passed
in (:func:`tune` takes a ``trace`` callable), so the choices can be tested
without faiss.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from emprivacy.math.randomness import check_random_state

__all__ = [
    "MAX_RERANK",
    "TAU_GRID",
    "Trace",
    "Tuning",
    "Yardstick",
    "answer_ranks",
    "calibration_set",
    "check_search",
    "choose_tau",
    "continues",
    "half_radius",
    "replay",
    "stages_up_to",
    "tune",
    "unmet_message",
    "widening",
]

#: Candidate values of the stop rule τ tried by the calibration (inf: search every stage).
TAU_GRID = (1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.25, 2.5, 3.0, 4.0)

#: Most candidates per stage the calibration re-ranks.
MAX_RERANK = 256

#: Seed of the calibration set: the same index for the same embeddings.
CALIBRATION_SEED = 20190101

#: A search through every stage: per vector (rows) and stage (columns) the best word
#: found, its distance, and the squared distance to the nearest cell not yet scanned.
Trace = tuple[np.ndarray, np.ndarray, np.ndarray]


def stages_up_to(limit: int, stages: list[int], *, count: int | None = None) -> list[int]:
    """``stages`` extended by stages of 4× the cells each (capped at ``limit``) until the last
    reaches ``limit``, or by at most ``count`` stages.

    >>> stages_up_to(512, [8]), stages_up_to(2048, [8, 32, 128, 512], count=1)
    ([8, 32, 128, 512], [8, 32, 128, 512, 2048])
    """
    out = list(stages)
    while out[-1] < limit and (count is None or len(out) < len(stages) + count):
        out.append(min(limit, 4 * out[-1]))
    return out


def continues(best_d: np.ndarray, next_d2: np.ndarray, tau: float) -> np.ndarray:
    """The stop rule: whether a vector goes on to the next stage — while the next unscanned
    cell's centre is close compared with the best word found, ``‖z − c‖² ≤ τ·d²``.

    >>> continues(np.array([1.0, 1.0]), np.array([1.5, 2.5]), 2.0).tolist()
    [True, False]
    """
    return next_d2 <= tau * best_d * best_d


def replay(dist: np.ndarray, nxt: np.ndarray, tau: float) -> np.ndarray:
    """The stage (0-based) at which each traced vector stops with the stop rule ``τ``.

    ``dist`` and ``nxt`` are the distance and next-cell columns of a :data:`Trace`.
    """
    m, n_stages = dist.shape
    reached = np.zeros(m, dtype=np.int64)
    going = np.ones(m, dtype=bool)
    for k in range(n_stages - 1):
        going &= continues(dist[:, k], nxt[:, k], tau)
        reached[going] = k + 1
    return reached


def calibration_set(vectors: np.ndarray, queries: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Noisy vectors ``Vec(x) + r·u`` and their sources x: x uniform over the vocabulary,
    u uniform on the sphere, r log-uniform from 0.1× to 4× the median distance between
    two words (from nearly unchanged to nearly random outputs); also returns x and r."""
    gen = check_random_state(CALIBRATION_SEED)
    n_words, dim = vectors.shape
    pairs = gen.integers(0, n_words, size=(4000, 2))
    scale = float(np.median(np.linalg.norm(
        vectors[pairs[:, 0]].astype(np.float64) - vectors[pairs[:, 1]], axis=1)))
    src = gen.integers(0, n_words, size=queries)
    u = gen.standard_normal((queries, dim))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    radius = scale * np.exp(gen.uniform(math.log(0.1), math.log(4.0), size=queries))
    return vectors[src].astype(np.float64) + u * radius[:, None], src, radius


def half_radius(radius: np.ndarray, unchanged: np.ndarray) -> float:
    """Noise radius below which exact decoding returns the source word for ≥ half the
    vectors (the regime where agreement, not statistics, is the yardstick).

    The radii are cut at their 5 % quantiles; the answer is the upper edge of the last
    slice before the first one where fewer than half the vectors are unchanged.

    >>> r = np.arange(1.0, 101.0)
    >>> half_radius(r, r <= 40), half_radius(r, r > 100)
    (40.6, 1.0)
    """
    edges = np.quantile(radius, np.linspace(0, 1, 21))
    half = float(edges[0])
    for lo, hi in itertools.pairwise(edges):
        sel = (radius >= lo) & (radius <= hi)
        if sel.any() and np.mean(unchanged[sel]) < 0.5:
            break
        half = float(hi)
    return half


@dataclass(frozen=True)
class Yardstick:
    """Exact decoding of the calibration set, and what a search must achieve against it.

    ``near``: vectors with a noise radius of at most :func:`half_radius`; ``edge``: the
    hardest fifth of those (the largest radii); ``far``: the others.
    """

    src: np.ndarray
    exact: np.ndarray
    vectors: np.ndarray  # the vocabulary in float64
    near: np.ndarray
    edge: np.ndarray
    far: np.ndarray
    targets: dict[str, float]

    @classmethod
    def of(cls, vectors: np.ndarray, src: np.ndarray, radius: np.ndarray, exact: np.ndarray,
           target_recall: float) -> Yardstick:
        """The yardstick of a calibration set (sources ``src`` at noise radii ``radius``,
        decoded exactly to ``exact``) for the decoder's ``target_recall``."""
        near = radius <= half_radius(radius, exact == src)
        edge = near & (radius >= np.quantile(radius[near], 0.8)) if near.any() else near
        targets = {"near": 1.0 - 2.0 * (1.0 - target_recall),
                   "edge": 1.0 - 5.0 * (1.0 - target_recall)}
        return cls(src=src, exact=exact, vectors=vectors.astype(np.float64), near=near,
                   edge=edge, far=~near, targets=targets)

    def moved(self, out: np.ndarray, rows: np.ndarray) -> float:
        """Total distance from source to answer over the vectors ``rows``."""
        return float(np.linalg.norm(self.vectors[out[rows]] - self.vectors[self.src[rows]],
                                    axis=1).sum())

    def figures(self, out: np.ndarray) -> dict[str, Any]:
        """How the answers ``out`` compare with exact decoding, and whether they meet the
        targets (``met``): agreement near the words and at the hardest radii; beyond, the
        words left unchanged (to within 1 % or two words) and the distance moved (to within
        1 %), each as ``[search, exact]``."""
        near, edge, far, exact, src = self.near, self.edge, self.far, self.exact, self.src
        fig: dict[str, Any] = {
            "near_agreement": float(np.mean(out[near] == exact[near])) if near.any() else 1.0,
            "edge_agreement": float(np.mean(out[edge] == exact[edge])) if edge.any() else 1.0,
            "far_unchanged": [int(np.sum(out[far] == src[far])),
                              int(np.sum(exact[far] == src[far]))],
            "far_moved": [self.moved(out, far), self.moved(exact, far)]}
        same_a, same_e = fig["far_unchanged"]
        moved_a, moved_e = fig["far_moved"]
        fig["met"] = bool(self.agrees(fig)
                          and abs(same_a - same_e) <= max(2, 0.01 * same_e)
                          and abs(moved_a - moved_e) <= 0.01 * moved_e)
        return fig

    def agrees(self, fig: dict[str, Any]) -> bool:
        """Whether the figures meet the agreement targets (near the words and at the edge)."""
        return bool(fig["near_agreement"] >= self.targets["near"]
                    and fig["edge_agreement"] >= self.targets["edge"])

    def summary(self) -> dict[str, Any]:
        """The targets and the size of each regime (the head of the decoder's ``calibration``)."""
        return {"targets": self.targets, "vectors": len(self.src), "near": int(self.near.sum()),
                "edge": int(self.edge.sum()), "far": int(self.far.sum())}


def answer_ranks(z: np.ndarray, cent: np.ndarray, cent_sq: np.ndarray,
                 cells: np.ndarray) -> np.ndarray:
    """1-based rank, by centre distance to each vector of ``z``, of the cell ``cells[i]``
    (the cell holding the exact answer) among the centres ``cent`` (squared norms
    ``cent_sq``), scored in float32 like the search.

    >>> cent = np.array([[0.0], [1.0], [3.0]], np.float32)
    >>> answer_ranks(np.array([[2.9], [0.2]]), cent, (cent**2).ravel(), np.array([1, 1])).tolist()
    [2, 2]
    """
    ranks = np.empty(len(z), dtype=np.int64)
    for start in range(0, len(z), 1024):
        sc = cent_sq[None, :] - 2.0 * (z[start:start + 1024].astype(np.float32) @ cent.T)
        own = sc[np.arange(len(sc)), cells[start:start + 1024]]
        ranks[start:start + 1024] = (sc < own[:, None]).sum(axis=1) + 1
    return ranks


def widening(yard: Yardstick, full: dict[str, Any], answers: np.ndarray,
             answer_rank: np.ndarray, cells_scanned: int, rerank: int,
             nlist: int) -> str | None:
    """How to widen a full search (every stage) that missed its targets.

    ``answers``: the full search's answers; ``full``: their :meth:`Yardstick.figures`;
    ``cells_scanned``: the cells of the last stage.  A miss near the words whose exact
    answer lies in a cell beyond the last stage needs more cells, one within them more
    candidates; statistics off far from the words need more cells.  Returns ``"stage"``
    (add a stage of 4× the cells), ``"candidates"`` (re-rank twice as many, up to
    :data:`MAX_RERANK`) or None (nothing left to widen).
    """
    missed = yard.near & (answers != yard.exact)
    beyond = int(np.sum(missed & (answer_rank > cells_scanned)))
    within = int(np.sum(missed)) - beyond
    more_candidates = within > 0 and rerank < MAX_RERANK
    if cells_scanned < nlist and (beyond >= within or yard.agrees(full) or not more_candidates):
        return "stage"
    if more_candidates:
        return "candidates"
    return None


def choose_tau(yard: Yardstick, trace: Trace, full: dict[str, Any]
               ) -> tuple[float, dict[str, Any]]:
    """The smallest τ of :data:`TAU_GRID` whose replay on ``trace`` meets the targets (a
    larger τ only ever searches on, so it is the cheapest), with its figures; ``(inf, full)``
    if the full search ``full`` misses them or there is a single stage (nothing to decide).
    """
    picks, dist, nxt = trace
    if full["met"] and picks.shape[1] > 1:
        for tau in TAU_GRID:
            fig = yard.figures(picks[np.arange(len(picks)), replay(dist, nxt, tau)])
            if fig["met"]:
                return tau, fig
    return math.inf, full


@dataclass(frozen=True)
class Tuning:
    """The calibrated search: cells after each stage, candidates re-ranked per stage, τ, and
    the calibration's figures (:meth:`Yardstick.summary` and :meth:`Yardstick.figures`)."""

    stages: list[int]
    rerank: int
    tau: float
    calibration: dict[str, Any]


def tune(trace: Callable[[list[int], int], Trace], yard: Yardstick, answer_rank: np.ndarray,
         stages: list[int], rerank: int, nlist: int) -> Tuning:
    """Choose the stop rule τ and the re-rank depth, widening the search if it must.

    ``trace(stages, rerank)`` searches the calibration set through every stage.  While
    that full search misses the targets it is widened (:func:`widening`); then τ is
    chosen (:func:`choose_tau`).  If it misses them even with every cell and
    :data:`MAX_RERANK` candidates, τ = inf and ``calibration["met"]`` is False.
    """
    while True:
        traced = trace(stages, rerank)
        full = yard.figures(traced[0][:, -1])
        if full["met"]:
            break
        step = widening(yard, full, traced[0][:, -1], answer_rank, stages[-1], rerank, nlist)
        if step == "stage":
            stages = stages_up_to(nlist, stages, count=1)
        elif step == "candidates":
            rerank = min(MAX_RERANK, 2 * rerank)
        else:
            break
    tau, chosen = choose_tau(yard, traced, full)
    return Tuning(stages=stages, rerank=rerank, tau=tau, calibration=yard.summary() | chosen)


def unmet_message(calibration: dict[str, Any], rerank: int) -> str | None:
    """What a :class:`~emprivacy.exceptions.CalibrationWarning` says when even the widest
    search (every cell, ``rerank`` candidates) missed the calibration's targets; None if
    they were met."""
    if not calibration or calibration.get("met", True):
        return None
    (same_a, same_e), targets = calibration["far_unchanged"], calibration["targets"]
    return (f"the approximate decoder misses its calibration targets even scanning every "
            f"cell with {rerank} candidates (agreement with exact decoding "
            f"{calibration['near_agreement']:.4f} near the words, target "
            f"{targets['near']:.4f}; {calibration['edge_agreement']:.4f} at the hardest radii, "
            f"target {targets['edge']:.4f}; {same_a} vs {same_e} words unchanged far from "
            "them); use the exact decoder")


def check_search(search: dict[str, Any], *, rerank: int, stages: list[int],
                 nlist: int) -> Tuning:
    """The calibrated search parameters read back from a cache, validated: what
    :func:`tune` can have chosen for a decoder with these ``rerank`` and initial ``stages``.

    >>> check_search({"rerank": 32, "tau": 1.5, "stages": [4, 16], "calibration": {}},
    ...              rerank=16, stages=[4], nlist=64).stages
    [4, 16]
    >>> check_search({"rerank": 32, "tau": 1.55, "stages": [4], "calibration": {}},
    ...              rerank=16, stages=[4], nlist=64)
    Traceback (most recent call last):
    ...
    ValueError: malformed search parameters
    """
    k, tau, calibration = search.get("rerank"), search.get("tau"), search.get("calibration")
    stored = search.get("stages")
    # the stages the calibration may have added, one at a time
    grown = list(stages)
    while isinstance(stored, list) and len(grown) < len(stored) and grown[-1] < nlist:
        grown = stages_up_to(nlist, grown, count=1)
    if not (type(k) is int and rerank <= k <= max(rerank, MAX_RERANK)
            and (tau == math.inf or tau in TAU_GRID) and isinstance(calibration, dict)
            and stored == grown):
        raise ValueError("malformed search parameters")
    return Tuning(stages=grown, rerank=k, tau=float(tau), calibration=calibration)
