"""The balls of the lazy exponential sampler, and its draws by rejection from an envelope.

:class:`~emprivacy.mechanisms._sampling.LazyGumbelSampler` releases ``v`` with probability
``∝ exp(s_v)`` from a ball S of near words (exact scores) and a bound ``b ≥ s_v`` for every
word outside it.  Its Gumbel-max step looks at ``K ~ Binomial(|V ∖ S|, P(G > M − b))``
outside words, about ``E / W`` of them, where

.. math::

    W = \\sum_{v ∈ S} e^{s_v}, \\qquad E = |V ∖ S|\\, e^{b}

(``e^{−M}`` has mean ``1/W``).  At a small ε the bound is close to the ball's own scores and
that is hundreds of words per draw (1,181 at ε = 1 on 100,000 words of dimension 50, and
their collisions redrawn one by one): 20 to 50 times the cost at ε = 5.  There
:func:`envelope_draws` draws the same law by rejection from the envelope ``e^{s_v}`` on S,
``e^{b}`` outside:

1. with probability ``W / (W + E)`` propose a ball word, ``∝ e^{s_v}`` (a Gumbel-max over
   S), and accept it;
2. otherwise propose a word uniformly from ``V ∖ S`` and accept it with probability
   ``e^{s_v − b} ≤ 1``;
3. repeat until a proposal is accepted.

A proposal is accepted with probability ``Z / (W + E)`` (``Z`` the law's normaliser),
and ``v`` is proposed and accepted with probability ``e^{s_v} / (W + E)``: the released
word has probability ``e^{s_v} / Z``, exactly.  It looks at ``E / Z ≤ E / W`` outside words
per draw on average (2.7 in the example above).  Proposals come in rounds, 1, 2, 4, … (at
most 64) per draw still waiting, its first accepted one released.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

__all__ = ["Balls", "envelope_draws", "segment_max", "segment_positions"]

#: At most this many proposals per waiting draw in one round.
_MAX_PER_ROUND = 64


class Balls(NamedTuple):
    """The balls S of some queries, as CSR arrays (words of each ball sorted by row)."""

    offsets: np.ndarray   # (m + 1,) int64
    words: np.ndarray     # int64, ball words, increasing within each query
    scores: np.ndarray    # float64, their exact s_v
    bound: np.ndarray     # (m,) float64, b = −(ε/2)·min(R, γ): every outside score ≤ b
    n_out: np.ndarray     # (m,) int64, |V ∖ S|
    keys: np.ndarray      # query·(|V| + 1) + (w_k − k) of the k-th word w_k of each ball
    log_mass: np.ndarray  # (m,) float64, log W = log Σ_{v ∈ S} e^{s_v} (−inf: empty ball)

    def outside_words(self, queries: np.ndarray, j: np.ndarray, n_words: int) -> np.ndarray:
        """The ``j``-th word outside each query's (sorted) ball:
        ``j + #{ball words w_k with w_k − k ≤ j}``."""
        below = (np.searchsorted(self.keys, queries * (n_words + 1) + j, side="right")
                 - self.offsets[queries])
        return j + below

    def log_envelope(self, which: np.ndarray) -> np.ndarray:
        """``log E = log |V ∖ S| + b`` of the queries ``which`` (−inf where S is all of V)."""
        with np.errstate(divide="ignore"):
            return np.log(self.n_out[which].astype(np.float64)) + self.bound[which]


def segment_positions(offsets: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``concat(arange(o, o + l) for o, l in zip(offsets, lengths))``, vectorised."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(lengths)
    return np.arange(total, dtype=np.int64) + np.repeat(offsets - (ends - lengths), lengths)


def segment_max(values: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per segment: the maximum and the index into ``values`` of its first occurrence
    (−∞ and −1 for empty segments)."""
    m = lengths.size
    best = np.full(m, -np.inf)
    arg = np.full(m, -1, dtype=np.int64)
    full = np.flatnonzero(lengths > 0)
    if full.size == 0:
        return best, arg
    starts = np.zeros(m, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    seg_max = np.full(m, np.nan)
    seg_max[full] = np.maximum.reduceat(values, starts[full])
    seg_id = np.repeat(np.arange(m), lengths)
    hit = np.flatnonzero(values == seg_max[seg_id])
    first = np.ones(hit.size, dtype=bool)
    first[1:] = seg_id[hit[1:]] != seg_id[hit[:-1]]
    hit = hit[first]
    best[seg_id[hit]] = values[hit]
    arg[seg_id[hit]] = hit
    return best, arg


def segment_log_mass(offsets: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """``log Σ e^{s}`` over each segment of ``scores`` (−inf for an empty one)."""
    lengths = np.diff(offsets)
    top, _ = segment_max(scores, lengths)
    shift = np.where(np.isfinite(top), top, 0.0)
    total = np.zeros(lengths.size)
    np.add.at(total, np.repeat(np.arange(lengths.size), lengths),
              np.exp(scores - np.repeat(shift, lengths)))
    with np.errstate(divide="ignore"):
        return shift + np.log(total)


def envelope_draws(balls: Balls, which: np.ndarray, gen: np.random.Generator,
                   outside_scores: Callable[[np.ndarray, np.ndarray], np.ndarray],
                   n_words: int) -> np.ndarray:
    """Released rows for the queries ``which`` (indices into ``balls``), by rejection.

    ``outside_scores(words, queries)`` gives the exact ``s_v`` of outside words.  Each round
    draws, in order: one uniform per proposal (ball or outside), the Gumbels of the ball
    words of every ball proposal, the outside positions, the outside uniforms — from
    ``gen`` only.
    """
    n = which.size
    out = np.full(n, -1, dtype=np.int64)
    log_w = balls.log_mass[which]
    log_e = balls.log_envelope(which)
    with np.errstate(invalid="ignore"):
        p_ball = np.exp(log_w - np.logaddexp(log_w, log_e))  # W / (W + E)
    p_ball[~np.isfinite(log_w)] = 0.0
    waiting = np.arange(n)
    per = 1
    while waiting.size:
        draw = np.repeat(waiting, per)  # proposals, draw by draw
        query = which[draw]
        from_ball = gen.random(draw.size) < p_ball[draw]
        word = np.full(draw.size, -1, dtype=np.int64)
        accepted = from_ball.copy()
        b = np.flatnonzero(from_ball)
        if b.size:  # a ball word ∝ e^{s_v}: the Gumbel-max over the ball
            lens = balls.offsets[query[b] + 1] - balls.offsets[query[b]]
            pos = segment_positions(balls.offsets[query[b]], lens)
            _, arg = segment_max(balls.scores[pos] + gen.gumbel(size=pos.size), lens)
            word[b] = balls.words[pos[arg]]
        o = np.flatnonzero(~from_ball)
        if o.size:  # a word outside, uniformly, kept with probability e^{s_v − b}
            q = query[o]
            cand = balls.outside_words(q, gen.integers(0, balls.n_out[q]), n_words)
            keep = gen.random(o.size) < np.exp(outside_scores(cand, q) - balls.bound[q])
            word[o] = cand
            accepted[o] = keep
        # each draw's first accepted proposal is its release
        hit = np.flatnonzero(accepted)
        first = hit[np.r_[True, draw[hit][1:] != draw[hit][:-1]]] if hit.size else hit
        out[draw[first]] = word[first]
        waiting = waiting[out[waiting] < 0]
        per = min(2 * per, _MAX_PER_ROUND)
    return out
