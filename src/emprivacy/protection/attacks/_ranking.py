"""How the reconstruction attack ranks the candidate originals of each released word.

For a released word y the channel gives the ``n`` best secrets by ``log π + log C[x, y]``
(:class:`Candidates`: measured once, exact or sampled); the context, when there is one, adds
``w · log P(context | x)`` (:func:`context_ranks`); and each guesser is scored by the rank
of the true original among its candidates (:func:`rank_of_truth`; :data:`NEVER` when it is
not one).

Internal to :mod:`emprivacy.protection.attacks`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from emprivacy.mechanisms.base import WordMechanism
from emprivacy.protection.attacks._release import Release
from emprivacy.protection.leakage.channel import ExactChannel, Progress, sample_channel
from emprivacy.protection.leakage.secrets import Secrets

__all__ = ["NEVER", "Candidates", "Scored", "SlotChannels", "context_ranks", "prior_order",
           "rank_of_truth", "score_release"]

NEVER = np.iinfo(np.int64).max  # the rank of an original the guesser cannot name


def prior_order(prior: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Secrets by π (ties: the earlier secret first), and each secret's rank there."""
    order = np.lexsort((np.arange(prior.size), -prior))
    rank = np.empty(prior.size, dtype=np.int64)
    rank[order] = np.arange(prior.size)
    return order, rank


class Candidates:
    """The channel of the attack, measured once: for released rows, the n best secrets by
    ``log π + log C`` (in order, ties to the earlier secret) and their scores (``-inf``:
    no candidate)."""

    def __init__(self, mechanism: WordMechanism, secrets: Secrets, *, n: int, kind: str,
                 draws: int, rng: np.random.Generator, progress: Progress | None) -> None:
        self.n = n
        self.log_prior = np.log(secrets.prior)
        self.prior_top = prior_order(secrets.prior)[0][:n]
        self.progress = progress
        self.exact: ExactChannel | None = None
        self.counts: Any = None
        self.draws: int | None = None
        if kind == "exact":
            self.exact = ExactChannel(mechanism, secrets.rows)
        else:
            sampled = sample_channel(mechanism, secrets.rows, draws=draws, rng=rng,
                                     progress=progress)
            self.counts = sampled.counts().tocsc()
            self.draws = sampled.draws

    def __call__(self, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = self.n
        cand = np.full((columns.size, n), -1, dtype=np.int64)
        score = np.full((columns.size, n), -np.inf)
        if self.exact is not None:
            width = self.exact.block_cols  # K × width float64 at a time
            for start in range(0, columns.size, width):
                cols = columns[start:start + width]
                lc = self.exact.log_columns(cols, self.progress) + self.log_prior[:, None]
                best = np.argsort(-lc, axis=0, kind="stable")[:n]
                cand[start:start + cols.size] = best.T
                score[start:start + cols.size] = np.take_along_axis(lc, best, axis=0).T
            return cand, score
        sub = self.counts[:, columns].tocoo()
        x, j = sub.row.astype(np.int64), sub.col.astype(np.int64)
        s = (self.log_prior[x] + np.log(sub.data.astype(np.float64))
             - math.log(float(self.draws or 1)))
        order = np.lexsort((x, -s, j))
        x, j, s = x[order], j[order], s[order]
        pos = np.arange(j.size) - np.searchsorted(j, np.arange(columns.size))[j]
        keep = pos < n
        cand[j[keep], pos[keep]] = x[keep]
        score[j[keep], pos[keep]] = s[keep]
        unseen = np.bincount(j, minlength=columns.size) == 0
        if unseen.any():  # no secret gave this output in the draws: a uniform channel
            top = self.prior_top
            cand[unseen, :top.size] = top
            score[unseen, :top.size] = self.log_prior[top]
        return cand, score


def rank_of_truth(cand: np.ndarray, score: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """The rank of ``truth`` (a secret, or -1) among each row's candidates by score
    (ties: the earlier secret first); :data:`NEVER` when it is not a candidate."""
    match = (cand == truth[:, None]) & (truth[:, None] >= 0) & np.isfinite(score)
    has = match.any(axis=1)
    pos = match.argmax(axis=1)
    rows = np.arange(cand.shape[0])
    mine = score[rows, pos][:, None]
    above = (score > mine) | ((score == mine) & (cand < truth[:, None]) & (cand >= 0))
    rank = above.sum(axis=1).astype(np.int64)
    return np.where(has, rank, NEVER)


@dataclass
class Scored:
    """A release's candidates and scores: the channel's, the prior's, the context's."""

    cand: np.ndarray       # (M, n) the channel's best secrets per target
    chan: np.ndarray       # (M, n) their log π + log C
    ctx: np.ndarray | None  # (M, 2n) log P(context | x): the channel's, then the prior's top
    top: np.ndarray | None = None  # (M, n) the prior's top per target (-1: none), where
    # entity slots have a prior of their own; None: the prior's top for every target


class SlotChannels(Protocol):
    """Channels of their own for some slots (the entity slots of a release,
    :class:`~emprivacy.protection.attacks._entities.EntityCandidates`): each slot's
    candidates, scores and prior's top replaced in place, every slot's guess too."""

    def apply(self, release: Release, cand: np.ndarray, chan: np.ndarray,
              guess: np.ndarray, top: np.ndarray) -> None:  # pragma: no cover - a protocol
        ...


def score_release(release: Release, candidates: Candidates, secrets: Secrets,
                  context: Callable[..., np.ndarray] | None,
                  own: SlotChannels | None = None) -> Scored:
    """The channel's candidates and scores of every target slot of a release (``own``:
    the entity slots' from their own channels), and, with a ``context``
    (:func:`~emprivacy.protection.attacks.context._ngram_context` or
    :func:`~emprivacy.protection.attacks.context._custom_context`), each candidate's
    ``log P(context | x)`` beside that of the prior's top secrets."""
    columns, inverse = np.unique(release.out, return_inverse=True)
    cand_y, score_y = candidates(columns)
    col = inverse.ravel()
    cand = cand_y[col[release.slots]]
    chan = score_y[col[release.slots]]
    guess = cand_y[col, 0]  # each slot's channel-only best guess
    top = None
    if own is not None:
        top = np.array(np.broadcast_to(candidates.prior_top, cand.shape))
        own.apply(release, cand, chan, guess, top)
    ctx = None
    if context is not None:
        tops = np.broadcast_to(candidates.prior_top, cand.shape) if top is None else top
        both = np.concatenate([cand, tops], axis=1)
        ctx = context(release.views, guess, release.slots, both, secrets)
    return Scored(cand, chan, ctx, top)


def context_ranks(scored: Scored, ctx: np.ndarray, truth: np.ndarray, weight: float,
                  prior_top: np.ndarray, log_prior: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The ranks of the attack, ``log π + log C + w·ctx``, and of the context-only
    baseline, ``log π + w·ctx`` among the prior's top secrets."""
    n = scored.cand.shape[1]
    total = np.where(np.isfinite(scored.chan), scored.chan + weight * ctx[:, :n], -np.inf)
    top = np.broadcast_to(prior_top if scored.top is None else scored.top, scored.cand.shape)
    blind = np.where(top >= 0, log_prior[np.maximum(top, 0)] + weight * ctx[:, n:], -np.inf)
    return rank_of_truth(scored.cand, total, truth), rank_of_truth(top, blind, truth)
