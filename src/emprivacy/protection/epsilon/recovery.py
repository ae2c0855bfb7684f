"""Recovery on a release: the share of released words an adversary names, measured on
releases whose originals are known (the privacy axis of ``emprivacy evaluate``).

:func:`release_recovery` builds the Bayes guesser from half of the (original, release)
pairs and scores it on the other half — an unbiased estimate of that attack's success, a
lower bound on the optimum — beside the plug-in upper bound of the optimum.  The optimum
itself, measured by the word audit on the mechanism's channel, is what
:func:`~emprivacy.protection.epsilon.scale.calibrate_recovery` chooses ε by.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.protection.leakage.vulnerability import _check_confidence, clopper_pearson
from emprivacy.protection.report import finite_or_none

__all__ = ["PRIOR_WEIGHTS", "ReleaseRecovery", "release_recovery"]

#: The prior weights λ the release attack chooses among (:func:`release_recovery`); ∞ is
#: the blind guess (always the most frequent original).
PRIOR_WEIGHTS: tuple[float, ...] = (0.0, 0.5, 2.0, 8.0, 32.0, math.inf)


@dataclass(frozen=True)
class ReleaseRecovery:
    """How many released words an adversary names, measured on releases with known originals.

    Attributes
    ----------
    estimate, lower, upper : float
        The attack actually run (:func:`release_recovery`: a guesser built from a random
        half of the (original, release) pairs) scored on the other half: its share of
        correct guesses, with a Clopper–Pearson interval.  A lower bound on the optimal
        one-word adversary's recovery.
    plugin, plugin_upper : float
        The plug-in ``Σ_y max_x n[x, y] / n`` over all pairs (biased upward) and its upper
        confidence end (McDiarmid): an upper bound on the optimal adversary's recovery,
        ``V(π▷C)`` with π the originals' frequencies.
    baseline : float
        Without the release: always guessing the most frequent original (``V(π)``).
    words, test_words : int
        Pairs in all, and in the scored half.
    confidence : float
    prior_weight : float
        The weight λ the attack chose (``inf``: the blind guess).
    exact : bool
        True for a release that is the identity (no mechanism): every figure is 1.
    """

    estimate: float
    lower: float
    upper: float
    plugin: float
    plugin_upper: float
    baseline: float
    words: int
    test_words: int
    confidence: float
    prior_weight: float = 0.0
    exact: bool = False

    @classmethod
    def identity(cls, originals: Any, *, confidence: float = 0.95) -> ReleaseRecovery:
        """The unmodified release: every word is its own release, so every figure is 1."""
        o = np.asarray(originals, dtype=np.int64).ravel()
        base = float(np.unique(o, return_counts=True)[1].max() / o.size) if o.size else 0.0
        return cls(1.0, 1.0, 1.0, 1.0, 1.0, base, int(o.size), int(o.size), confidence,
                   0.0, True)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every attribute (``prior_weight`` ∞ as ``null``), and ``kind``
        (``"exact"`` or ``"estimate"``)."""
        return {"estimate": self.estimate, "lower": self.lower, "upper": self.upper,
                "plugin": self.plugin, "plugin_upper": self.plugin_upper,
                "baseline": self.baseline, "words": self.words,
                "test_words": self.test_words, "confidence": self.confidence,
                "prior_weight": finite_or_none(self.prior_weight),
                "kind": "exact" if self.exact else "estimate"}


def release_recovery(originals: Any, released: Any, *, rng: RandomState = None,
                     confidence: float = 0.95) -> ReleaseRecovery:
    """The share of released words an adversary recovers, from (original, release) pairs.

    Each pair is one word through the mechanism (independent noise per word).  A random
    half A of the pairs teaches the adversary the mechanism on these words — counts
    ``n_A[x, y]`` of original x released as y, which hold both the channel and the
    originals' frequencies ``π̂_x = c_A(x) / |A|`` — and it guesses

    .. math::  g_λ(y) = \\arg\\max_x \\; n_A[x, y] + λ\\,π̂_x

    (ties to the more frequent x; λ = 0 is the plug-in Bayes guesser, λ = ∞ the blind guess
    of the most frequent original, which is also the answer to a release never seen in
    A).  λ ∈ :data:`PRIOR_WEIGHTS` is chosen on A alone — fitted on one half of A, scored on
    the other — so that where the counts say little (a small ε, a rare word) the attack
    falls back on the prior rather than on noise.  Scored on the other half B, it is an
    unbiased estimate of that attacker's success against a released word, with a
    Clopper–Pearson interval (the test words are independent Bernoulli trials with
    unequal rates; by Hoeffding's 1956 theorem the binomial interval is then
    conservative): a lower bound on what the Bayes-optimal one-word adversary recovers.

    Beside it, the plug-in ``V̂ = Σ_y max_x n[x, y] / n`` over all pairs, whose mean is at
    least the optimum ``V(π▷C)`` (a maximum of averages) and which one pair moves by at
    most 1/n, so ``V̂ + sqrt(ln(2/α) / (2n))`` bounds the optimum from above with
    probability ≥ 1 − α/2 (McDiarmid; V as in Alvim et al., *The Science of Quantitative
    Information Flow*, 2020).

    Parameters
    ----------
    originals, released : 1-D array-like of int
        Vocabulary rows: the original of each released word and the release.
    rng : None, int or numpy.random.Generator
        Draws the split.
    confidence : float, default 0.95

    Returns
    -------
    ReleaseRecovery

    Examples
    --------
    >>> r = release_recovery([0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2], rng=0)
    >>> r.plugin, r.baseline, r.test_words
    (1.0, 0.3333333333333333, 3)
    """
    o = np.asarray(originals)
    y = np.asarray(released)
    if o.ndim != 1 or y.shape != o.shape or o.dtype.kind not in "iu" \
            or y.dtype.kind not in "iu":
        raise ValueError("originals and released must be 1-D integer arrays of one length")
    n = int(o.size)
    if n < 2:
        raise ValueError(f"released words must number at least 2; got {n}")
    o = o.astype(np.int64)
    y = y.astype(np.int64)
    conf = _check_confidence(confidence)
    gen = check_random_state(rng)
    order = gen.permutation(n)
    train, test = order[: n // 2], order[n // 2:]
    fit, check = train[: train.size // 2], train[train.size // 2:]
    weight = 0.0
    if fit.size and check.size:  # λ chosen on the training half alone
        scores = [int(np.count_nonzero(_Guesser(o[fit], y[fit], lam)(y[check]) == o[check]))
                  for lam in PRIOR_WEIGHTS]
        weight = PRIOR_WEIGHTS[int(np.argmax(scores))]  # ties: the smaller λ
    guessed = _Guesser(o[train], y[train], weight)(y[test])
    successes = int(np.count_nonzero(guessed == o[test]))
    m = int(test.size)
    lo, hi = clopper_pearson(successes, m, confidence=conf)
    (cols, _), counts = np.unique(np.stack([y, o]), axis=1, return_counts=True)
    starts = np.flatnonzero(np.r_[True, cols[1:] != cols[:-1]])
    plugin = float(np.maximum.reduceat(counts, starts).sum() / n)
    margin = math.sqrt(math.log(2.0 / (1.0 - conf)) / (2.0 * n))
    freq = np.unique(o, return_counts=True)[1]
    return ReleaseRecovery(successes / m, float(lo), float(hi), plugin,
                           min(1.0, plugin + margin), float(freq.max() / n), n, m, conf,
                           weight)


class _Guesser:
    """``g_λ(y) = argmax_x n[x, y] + λ·π̂_x`` from (original, release) pairs.

    For a release y, the originals never seen to give y score ``λ·π̂_x``, the most
    frequent of them best: so the candidates are those seen with y and the most frequent
    original overall (the answer for a y never seen, and for λ = ∞).
    """

    def __init__(self, originals: np.ndarray, released: np.ndarray, weight: float) -> None:
        xs_all, freq = np.unique(originals, return_counts=True)
        total = max(1, originals.size)
        order = np.lexsort((xs_all, -freq))
        self.mode = int(xs_all[order[0]])
        mode_prior = float(freq[order[0]]) / total
        (ys, xs), count = np.unique(np.stack([released, originals]), axis=1,
                                    return_counts=True)
        prior = freq[np.searchsorted(xs_all, xs)] / total
        if math.isinf(weight):
            score = prior  # the count does not matter at λ = ∞
        else:
            score = count + weight * prior
        best = np.lexsort((xs, -prior, -score, ys))  # by release, score down, π̂ down, x
        ys_sorted = ys[best]
        first = best[np.flatnonzero(np.r_[True, ys_sorted[1:] != ys_sorted[:-1]])]
        self.seen = ys[first]
        guess = xs[first]
        if math.isinf(weight):
            guess = np.full_like(guess, self.mode)
        else:  # the mode, unseen with y, scores λ·π̂_mode: it wins where that is more
            mode_seen = np.zeros(self.seen.size, dtype=bool)
            at = ys[xs == self.mode]
            mode_seen[np.searchsorted(self.seen, at)] = True
            wins = ~mode_seen & (weight * mode_prior >= score[first])
            guess = np.where(wins, self.mode, guess)
        self.guess = guess

    def __call__(self, released: np.ndarray) -> np.ndarray:
        if self.seen.size == 0:
            return np.full(released.shape, self.mode, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.seen, released), self.seen.size - 1)
        found = self.seen[pos] == released
        return np.where(found, self.guess[pos], self.mode)
