"""One privacy scale: ε chosen by what the adversary recovers.

The ε of different mechanisms are not comparable; what the Bayes-optimal adversary
recovers is (:mod:`emprivacy.protection.leakage.audit`).  :func:`calibrate_recovery` —
``emprivacy calibrate --target-recovery P`` — puts that figure to work: the ε at which the
optimal adversary recovers **at most** a fraction P of the words, for any mechanism.  The
figure is the *upper end* of the interval of the posterior Bayes vulnerability ``V(π▷C)``
(:class:`~emprivacy.protection.leakage.audit_report.WordAudit`; exact for TEM and SanText).
For a sampled channel each full measurement's interval is at the Bonferroni-corrected
confidence ``1 − (1 − confidence)/N``, N the ε the search can measure in full
(:func:`~emprivacy.protection.epsilon.search.reachable_points`, 8,208 by default), so that
"at most P" holds at the stated confidence at the ε returned, although that ε was chosen
from the measurements.  The search (:func:`~emprivacy.protection.epsilon.search.find_epsilon`)
brackets the target on a coarse grid of ε (steps of ×4), then bisects on log ε to a
relative tolerance, and checks that the figure is non-decreasing over every point it
measured: where it is not, it says so and returns no ε.  (The recovery measured on a
release whose originals are known is
:func:`~emprivacy.protection.epsilon.recovery.release_recovery`.)

How the search treats a sampled channel.  Each ε is measured with the same seed (common
random numbers: madlib's noise at ε is ``u·g/ε`` for the same draws ``(u, g)``), so the
figure moves smoothly with ε.  The coarse bracket uses fewer releases per word
(``search_draws``, by default a quarter of ``draws``, at least 20): fewer draws only widen
the upper end, so the coarse bracket errs on the small side; its two ends are then
measured again with the full ``draws`` (and moved by ×4 until they bracket the target),
and the bisection uses the full ``draws`` throughout.  The plug-in estimate of a sampled
``V(π▷C)`` is biased upward — most at small ε, where a word's releases scatter over
thousands of outputs — so the upper end there can be far above the attack actually run:
the ε found is conservative, and more draws make it less so.  A sampled figure also
moves by its sampling noise from one ε to the next: the monotone check does not count a
dip within the plug-in's McDiarmid margin (:func:`~emprivacy.protection.plugin_margin`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from emprivacy._validation import check_fraction, check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.mechanisms._tiles import VocabularyGeometry
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.mechanisms.registry import make_mechanism
from emprivacy.protection.epsilon.search import (
    DEFAULT_RTOL,
    EPSILON_RANGE,
    EpsilonSearch,
    check_rtol,
    check_search_epsilon,
    find_epsilon,
    reachable_points,
)
from emprivacy.protection.leakage.audit import audit_mechanism
from emprivacy.protection.leakage.audit_report import WordAudit
from emprivacy.protection.leakage.channel import check_sample_size, has_exact_channel
from emprivacy.protection.leakage.secrets import Secrets, secret_words
from emprivacy.protection.leakage.vulnerability import _check_confidence, plugin_margin

__all__ = ["RecoveryCalibration", "calibrate_recovery", "check_above_prior", "check_target"]


def check_target(value: Any, name: str = "target_recovery") -> float:
    """A target fraction: a real number in the open interval (0, 1).

    >>> check_target(0.25)
    0.25
    >>> check_target(1.0)
    Traceback (most recent call last):
    ...
    ValueError: target_recovery must be a number in (0, 1); got 1.0
    """
    return check_fraction(value, name)


def check_above_prior(target: float, secrets: Secrets, name: str = "target_recovery"
                      ) -> float:
    """A target recovery no smaller than the prior vulnerability ``V(π) = max_x π_x``.

    No ε makes the optimal adversary recover less than the best blind guess.

    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog"], [[0.0], [1.0]])
    >>> s = Secrets.from_words(emb, ["cat", "dog"])  # uniform: V(π) = 0.5
    >>> check_above_prior(0.75, s)
    0.75
    >>> try:
    ...     check_above_prior(0.25, s)
    ... except ValueError as exc:
    ...     print(str(exc)[:68])
    target_recovery must be at least the prior vulnerability V(pi) = 0.5
    """
    v_prior = float(secrets.prior.max())
    if target < v_prior:
        raise ValueError(f"{name} must be at least the prior vulnerability V(pi) = "
                         f"{v_prior:.4g} (the best blind guess: no epsilon recovers less); "
                         f"got {target!r}")
    return target


# -- calibrate --target-recovery -------------------------------------------------------------
@dataclass(frozen=True)
class RecoveryCalibration:
    """The ε at which the optimal adversary recovers at most a fraction P of the words.

    Attributes
    ----------
    target_recovery : float
        P.
    epsilon : float
        The ε found: the upper end of ``V(π▷C)`` measured at it is ≤ P.
    audit : WordAudit
        The word audit at ``epsilon`` (the full draws): ``V(π▷C)`` with its interval,
        the attack actually run, the most exposed words.
    above : WordAudit
        The word audit at the next ε measured above it (within ``rtol``), where the
        upper end exceeds P.
    search : EpsilonSearch
        Every measurement of the search (its ``value``: the upper end of ``V(π▷C)``).
    draws, search_draws : int or None
        Releases per secret of a sampled channel in the fine measurements and in the
        coarse bracket (``None`` for an exact channel).
    seed : int
        The seed of every measurement's draws (common random numbers).
    monotone_tolerance : float
        A decrease of the figure between two ε up to this much was not counted as
        non-monotone: the plug-in's McDiarmid margin for a sampled channel (its sampling
        noise), 1e-12 for an exact one.
    confidence : float
        With at least this probability the optimal adversary recovers at most P at
        ``epsilon`` — at every ε the search could have measured in full, simultaneously.
    confidence_per_point : float
        The confidence of each full measurement's interval (``audit.confidence``):
        ``1 − (1 − confidence) / points_covered`` for a sampled channel (Bonferroni),
        ``confidence`` for an exact one.
    points_covered : int or None
        The ε the correction covers (:func:`reachable_points`); ``None`` for an exact
        channel, which needs none.
    """

    target_recovery: float
    epsilon: float
    audit: WordAudit = field(repr=False)
    above: WordAudit = field(repr=False)
    search: EpsilonSearch = field(repr=False)
    draws: int | None
    search_draws: int | None
    seed: int
    monotone_tolerance: float = 0.0
    confidence: float = 0.95
    confidence_per_point: float = 0.95
    points_covered: int | None = None

    def summary(self) -> dict[str, Any]:
        """JSON-ready: ε, the figure at it with its interval, how it was found."""
        a = self.audit
        return {
            "target_recovery": self.target_recovery,
            "epsilon": self.epsilon,
            "mechanism": a.mechanism,
            "parameters": dict(a.parameters),
            "channel": a.channel,
            "secrets": len(a.secrets),
            "prior": a.secrets.prior_name,
            "draws": self.draws,
            "search_draws": self.search_draws,
            "confidence": self.confidence,
            "confidence_per_point": self.confidence_per_point,
            "points_covered": self.points_covered,
            "prior_vulnerability": a.prior_vulnerability,
            "posterior_vulnerability": a.posterior_vulnerability.to_dict(),
            "attack_recovery": a.attack_recovery.to_dict(),
            "above": {"epsilon": self.above.epsilon,
                      "posterior_vulnerability": self.above.posterior_vulnerability.to_dict()},
            "rtol": self.search.rtol,
            "monotone": True,
            "monotone_tolerance": self.monotone_tolerance,
            "figure": "upper end of posterior_vulnerability",
            "points": [p.to_dict() for p in self.search.points],
            "seed": self.seed,
        }


def _start_epsilon(mechanism: WordMechanism, secrets: Secrets) -> float:
    """Where the coarse grid starts: about where a word starts to come back.

    From (up to 32 of) the secrets' distances to every word of the vocabulary:

    * noise-then-decode mechanisms (madlib, mahalanobis, vickrey): the noise has norm
      about n/ε, of which about √n/ε falls along the direction to a neighbour, and the
      word stays while that is below half the distance δ to its nearest neighbour:
      ε = 2·√n/δ, δ the median nearest-neighbour distance;
    * exponential mechanisms (SanText, TEM): the word itself weighs 1 against |V| words at
      a typical distance D weighing e^{−εD/2} each: ε = 2·ln|V|/D, D the median distance.

    Only a starting point: the coarse grid moves from it by ×4 steps.
    """
    emb = mechanism.embeddings
    geometry = VocabularyGeometry(emb)
    nearest, typical = [], []
    for start in range(0, min(32, len(secrets)), 8):
        rows = secrets.rows[start:start + 8]
        # float64 distances, exact where cancellation could eat them (the word itself is 0,
        # not a residue of 1e-7 that would pass for a nearest neighbour)
        d2 = np.concatenate([geometry.accurate_squared(rows, slice(c, c + 65536))
                             for c in range(0, len(emb), 65536)], axis=1)
        np.maximum(d2, 0.0, out=d2)
        typical.extend(np.sqrt(np.median(d2, axis=1)).tolist())
        d2[d2 <= 0.0] = np.inf  # the word itself, and exact duplicates
        nearest.extend(np.sqrt(d2.min(axis=1)).tolist())
    if has_exact_channel(mechanism):
        scale, dist = 2.0 * math.log(max(len(emb), 2)), typical
    else:
        scale, dist = 2.0 * math.sqrt(emb.dim), nearest
    finite = [d for d in dist if math.isfinite(d) and d > 0]
    return scale / float(np.median(finite)) if finite else 1.0


def calibrate_recovery(embeddings: Embeddings, *, target_recovery: float,
                       mechanism: str = "madlib", params: Mapping[str, Any] | None = None,
                       secrets: Secrets | None = None, draws: int = 200,
                       search_draws: int | None = None, confidence: float = 0.95,
                       bracket: tuple[float, float] | None = None, start: float | None = None,
                       rtol: float = DEFAULT_RTOL, rng: RandomState = None,
                       progress: Callable[[int, float, int, int, str], None] | None = None
                       ) -> RecoveryCalibration:
    """The ε at which the Bayes-optimal adversary recovers at most a fraction P of the words.

    For ε on a coarse grid and then by bisection (:func:`find_epsilon`), the word audit
    (:func:`~emprivacy.protection.audit_mechanism`) measures the posterior Bayes
    vulnerability ``V(π▷C) = Σ_y max_x π_x C[x, y]`` — the share of the secrets' words
    (weighted by π) that the optimal guesser names from their release — and the search
    keeps the *upper end* of its interval at or below P: exact for SanText and TEM,
    ``plug-in + McDiarmid margin`` for a sampled channel (Alvim et al., *The Science of
    Quantitative Information Flow*, 2020; :mod:`emprivacy.protection.leakage.vulnerability`).
    With probability at least ``confidence``, the optimal adversary recovers at most P at
    the ε returned: exactly so for an exact channel; for a sampled one, each full
    measurement's interval is at ``1 − (1 − confidence)/N`` (Bonferroni), N =
    :func:`reachable_points` the ε the search can measure in full (8,208 with the
    defaults), so the upper ends hold simultaneously at every ε the search could measure,
    and therefore at the one it chose from them.  A figure not monotone over the points
    measured raises instead (a sampled figure may dip by its sampling noise, the plug-in's
    McDiarmid margin, without counting as non-monotone).

    Parameters
    ----------
    embeddings : Embeddings
    target_recovery : float
        P, in (0, 1); at least the prior vulnerability V(π) (no ε recovers less than the
        best blind guess).
    mechanism : str, default "madlib"
        Any mechanism of :data:`emprivacy.mechanisms.MECHANISMS`.
    params : mapping, optional
        Its own parameters (``{"beta": 0.01}`` for TEM).
    secrets : Secrets, optional
        The secret words and the prior (:func:`~emprivacy.protection.secret_words`);
        default: the vocabulary's first 2,000 content words, Zipf prior.
    draws : int, default 200
        Releases per secret in each full measurement of a sampled channel (≥ 2).
    search_draws : int, optional
        Releases per secret on the coarse grid; default ``max(20, draws // 4)`` (at most
        ``draws``).
    confidence : float, default 0.95
        That the optimal adversary recovers at most P at the ε returned (each sampled
        measurement's interval at ``1 − (1 − confidence)/N``, above).
    bracket : (float, float), optional
        A starting bracket of ε (widened as needed); default: start from the scale at
        which the mechanism starts to keep words (see ``start``).  The search's ε stay in
        [1e-150, 1e150] (:data:`~emprivacy.protection.epsilon.search.EPSILON_RANGE`); where
        the figure stays at or below P wherever the grid looks, it is measured at 1e150,
        its limit, to tell a target that no ε reaches from one beyond the ε searched.
    start : float, optional
        Where the coarse grid starts; default: about where a word starts to come back,
        2·√n/δ for noise-then-decode mechanisms (δ: the median distance from a secret to
        its nearest other word) and 2·ln|V|/D for SanText and TEM (D: the median distance
        from a secret to the vocabulary's words).
    rtol : float, default 0.05
        The bisection stops when the ε measured at or below P and the one above it are
        within this relative distance (at least 1e-9: a float64 ε has 16 digits, and each
        step is a measurement).
    rng : None, int or numpy.random.Generator
        Seeds the draws: one seed, drawn from it, for every measurement (common random
        numbers).
    progress : callable, optional
        ``progress(measurement, epsilon, done, total, description)`` as the work advances.

    Returns
    -------
    RecoveryCalibration

    Raises
    ------
    ValueError
        A bad target (outside (0, 1), or below V(π)), a target that does not constrain ε
        (reached at every ε tried, e.g. TEM's recovery never reaches 1), one that no ε
        tried reaches, or a figure not monotone over the points measured.

    Examples
    --------
    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog", "cow", "car"], [[0.0], [1.0], [2.0], [3.0]])
    >>> s = Secrets.from_words(emb, ["cat", "dog", "cow", "car"])
    >>> r = calibrate_recovery(emb, target_recovery=0.5, mechanism="santext", secrets=s)
    >>> r.audit.posterior_vulnerability.upper <= 0.5 < r.above.posterior_vulnerability.upper
    True
    """
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    p = check_target(target_recovery)
    conf = _check_confidence(confidence)
    draws = check_positive_int(draws, "draws", minimum=2)
    if search_draws is None:
        search_draws = min(draws, max(20, draws // 4))
    search_draws = check_positive_int(search_draws, "search_draws", minimum=2)
    params = dict(params or {})
    first = make_mechanism(mechanism, embeddings, epsilon=1.0, **params)
    if secrets is None:
        secrets = secret_words(embeddings)
    elif not isinstance(secrets, Secrets):
        raise TypeError(f"secrets must be a Secrets; got {type(secrets).__name__}")
    check_above_prior(p, secrets)
    exact = has_exact_channel(first)
    if not exact:  # every full measurement samples K × draws releases: can they be held?
        check_sample_size(len(secrets), draws)
    rtol = check_rtol(rtol)
    if bracket is not None:
        bracket = (check_search_epsilon(bracket[0], "bracket"),
                   check_search_epsilon(bracket[1], "bracket"))
    if start is not None:
        start = check_search_epsilon(start, "start")
    coarse_used = not exact and search_draws < draws
    # Bonferroni over every ε the search can measure in full (common random numbers: which
    # ε are measured depends on the draws, so a bound over one run's measurements would
    # not hold); an exact channel's figure has no error to correct
    points = 1 if exact else reachable_points(rtol=rtol, bracket=bracket,
                                              coarse=coarse_used)
    conf_point = 1.0 - (1.0 - conf) / points
    if start is None:
        start = _start_epsilon(first, secrets)
    gen = check_random_state(rng)
    seed = int(gen.integers(0, 2**63))
    audits: dict[tuple[float, int | None], WordAudit] = {}
    count = [0]

    def measure(eps: float, d: int) -> float:
        key = (eps, None if exact else d)
        if key not in audits:
            count[0] += 1
            n = count[0]

            def step(done: int, total: int, description: str) -> None:
                if progress is not None:
                    progress(n, eps, done, total, description)

            mech = make_mechanism(mechanism, embeddings, epsilon=eps, **params)
            audits[key] = audit_mechanism(mech, secrets, draws=d, confidence=conf_point,
                                          rng=check_random_state(seed), progress=step,
                                          width=None)
        return audits[key].posterior_vulnerability.upper

    what = ("the optimal adversary's recovery V(pi|>C)" if exact else
            f"the upper end of the optimal adversary's recovery V(pi|>C) ({draws} draws)")
    coarse = (lambda e: measure(e, search_draws)) if coarse_used else None
    # a sampled figure moves by its sampling noise: a dip within the plug-in's own McDiarmid
    # margin is not evidence that the figure falls as ε grows
    tolerance = 1e-12 if exact else plugin_margin(secrets.prior, draws, confidence=conf)
    search = find_epsilon(lambda e: measure(e, draws), p, coarse=coarse, start=start,
                          bracket=bracket, rtol=rtol, tolerance=tolerance, what=what,
                          limit=lambda: measure(EPSILON_RANGE[1], draws))
    key = None if exact else draws
    return RecoveryCalibration(p, search.epsilon, audits[(search.epsilon, key)],
                               audits[(search.above, key)], search,
                               None if exact else draws,
                               None if exact or coarse is None else search_draws, seed,
                               tolerance, conf, conf_point, None if exact else points)
