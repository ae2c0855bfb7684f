"""The word audit: how well the Bayes-optimal adversary recovers a released word.

:func:`audit_mechanism` measures one mechanism at its ε on a set of secret words
(:mod:`emprivacy.protection.leakage.secrets`) through its word channel
(:mod:`emprivacy.protection.leakage.channel`): exact for SanText and TEM, sampled for the
others; the figures (:mod:`emprivacy.protection.leakage.vulnerability`) come with their
uncertainty, and a sampled figure is always labelled an estimate.  What it returns, a
:class:`~emprivacy.protection.leakage.audit_report.WordAudit`, and how audits are written
for the command line (``emprivacy audit``) and its ``--out`` files are in
:mod:`emprivacy.protection.leakage.audit_report`.
"""

from __future__ import annotations

import time

import numpy as np

from emprivacy._validation import check_choice
from emprivacy.math.randomness import RandomState
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.protection.leakage.audit_report import WordAudit
from emprivacy.protection.leakage.channel import (
    ExactChannel,
    Progress,
    check_sample_size,
    has_exact_channel,
    sample_channel,
)
from emprivacy.protection.leakage.densities import guarantee_ceiling, has_noise_density
from emprivacy.protection.leakage.secrets import Secrets
from emprivacy.protection.leakage.vulnerability import (
    _blind_guess,
    _check_confidence,
    channel_measures,
    clopper_pearson,
    plugin_margin,
    split_half_attack,
)
from emprivacy.protection.leakage.weighted import weighted_measures
from emprivacy.protection.report import Estimate

__all__ = ["DEFAULT_WIDTH", "audit_mechanism"]

#: The width of V(π▷C)'s interval the weighted estimator draws until (issue 31: ±0.025).
DEFAULT_WIDTH = 0.05


_EXACT_METHODS = {
    "channel": "exact: the closed-form law of the mechanism over the whole vocabulary, in "
               "float64",
    "posterior_vulnerability": "exact",
    "attack_recovery": "exact: the Bayes-optimal guesser argmax_x pi_x C[x, y]",
    "capacity": "exact",
}


def audit_mechanism(mechanism: WordMechanism, secrets: Secrets, *, draws: int = 500,
                    channel: str = "auto", confidence: float = 0.95,
                    rng: RandomState = None, progress: Progress | None = None,
                    estimator: str = "auto", width: float | None = DEFAULT_WIDTH,
                    max_draws: int | None = None) -> WordAudit:
    """Audit one mechanism at its ε: the Bayes-optimal adversary against one released word.

    Parameters
    ----------
    mechanism : WordMechanism
        Any mechanism (:func:`emprivacy.mechanisms.make_mechanism`), at its ε.
    secrets : Secrets
        The secret words and the prior (:func:`~emprivacy.protection.secret_words`).
    draws : int, default 500
        Releases per secret for a sampled channel (D ≥ 2).
    channel : {"auto", "exact", "sampled"}
        ``"auto"``: exact where the mechanism has a closed form (SanText, TEM), sampled
        otherwise.  ``"sampled"`` forces sampling (e.g. to check an exact channel).
    confidence : float, default 0.95
        Of every interval (:mod:`emprivacy.protection.leakage.vulnerability`).
    rng : None, int or numpy.random.Generator
        Draws of a sampled channel (``None``: secure generator).
    progress : callable, optional
        ``progress(done, total, description)``.
    estimator : {"auto", "weighted", "counts"}
        How a sampled channel is measured.  ``"weighted"``: every release credited to
        every secret by the noise's density (:mod:`~emprivacy.protection.leakage.weighted`:
        madlib, mahalanobis, vickrey, with or without rank resampling), the draws
        allocated by π; ``"counts"``: each secret's releases counted
        (:func:`~emprivacy.protection.sample_channel`), the split-half attack below and the
        plug-in above.  ``"auto"``: weighted where it applies.  Both are valid at
        ``confidence``; the weighted intervals are far narrower at small ε.
    width : float or None, default 0.05
        The weighted estimator draws until the interval of V(π▷C) is at most this wide:
        ``draws`` per secret, then as many again, then twice as many… up to ``max_draws``
        (default ``2·draws``), each of these stages at ``(1 − confidence)/S`` so that the
        interval reported holds at ``confidence`` wherever it stops; ``None``: exactly
        ``draws``.  The counting estimator always draws ``draws``.
    max_draws : int, optional
        The most draws per secret for ``width``.

    Returns
    -------
    WordAudit

    Examples
    --------
    >>> from emprivacy import Embeddings, SanText
    >>> from emprivacy.protection import Secrets
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
    >>> s = Secrets.from_words(emb, ["cat", "dog", "car"])
    >>> a = audit_mechanism(SanText(emb, epsilon=1e3), s)
    >>> a.posterior_vulnerability.text(), a.capacity.text()
    ('1 (exact)', '3 (exact)')
    """
    if not isinstance(mechanism, WordMechanism):
        raise TypeError(f"mechanism must be a WordMechanism; got {type(mechanism).__name__}")
    if not isinstance(secrets, Secrets):
        raise TypeError(f"secrets must be a Secrets; got {type(secrets).__name__}")
    check_choice(channel, "channel", ("auto", "exact", "sampled"))
    check_choice(estimator, "estimator", ("auto", "weighted", "counts"))
    conf = _check_confidence(confidence)
    if estimator == "weighted" and not has_noise_density(mechanism):
        raise ValueError(f"mechanism {mechanism.name!r} has no noise density for the "
                         "weighted estimator (madlib, mahalanobis and vickrey have); use "
                         "estimator 'counts' or 'auto'")
    if channel == "exact" and not has_exact_channel(mechanism):
        raise ValueError(f"mechanism {mechanism.name!r} has no closed-form channel; use "
                         "channel 'sampled' or 'auto'")
    if len(mechanism.embeddings) <= int(secrets.rows.max()):
        raise ValueError("secrets must be rows of the mechanism's vocabulary")
    start = time.perf_counter()
    prior = secrets.prior
    k = len(secrets)
    v_prior = float(prior.max())
    if channel == "exact" or (channel == "auto" and has_exact_channel(mechanism)):
        exact = ExactChannel(mechanism, secrets.rows)
        m = channel_measures(prior, exact, progress=progress)
        post = Estimate.of(m.posterior_vulnerability)
        recovery = np.repeat(m.recovery[:, None], 3, axis=1)
        return WordAudit(
            mechanism.name, mechanism.record_fields(), mechanism.epsilon, secrets, "exact",
            None, conf, v_prior, post, post, post.scaled(1.0 / v_prior),
            Estimate.of(m.capacity), recovery, exact.n_outputs, dict(_EXACT_METHODS),
            time.perf_counter() - start)
    check_sample_size(k, draws)  # before any release, whichever estimator
    if estimator == "weighted" or (estimator == "auto" and has_noise_density(mechanism)):
        return _weighted_audit(mechanism, secrets, draws, conf, rng, progress, start, width,
                               max_draws)
    sampled = sample_channel(mechanism, secrets.rows, draws=draws, rng=rng, progress=progress)
    d = sampled.draws
    ceiling = guarantee_ceiling(mechanism, secrets.rows)
    m = channel_measures(prior, sampled.matrix())
    attack = split_half_attack(prior, sampled.outputs, confidence=conf)
    uniform = np.full(k, 1.0 / k)
    attack_u = (attack if secrets.prior_name == "uniform"
                else split_half_attack(uniform, sampled.outputs, confidence=conf))
    upper = min(1.0, v_prior * ceiling,
                m.posterior_vulnerability + plugin_margin(prior, d, confidence=conf))
    lower = min(upper, max(v_prior, attack.lower))
    post = Estimate(min(max(m.posterior_vulnerability, lower), upper), lower, upper, False)
    cap_upper = min(float(k), ceiling, m.capacity + k * plugin_margin(uniform, d,
                                                                      confidence=conf))
    cap_lower = min(cap_upper, max(1.0, k * attack_u.lower))
    capacity = Estimate(min(max(m.capacity, cap_lower), cap_upper), cap_lower, cap_upper,
                        False)
    interval = ("Clopper-Pearson on the pooled held-out successes" if attack.method ==
                "clopper-pearson" else "Hoeffding's bound for a prior-weighted score")
    split = (f"guesser built on {d // 2} draws per secret, scored on the other "
             f"{attack.trials}; {interval}")
    if attack.lower > v_prior:
        lo, hi = clopper_pearson(attack.successes, np.full(k, attack.trials), confidence=conf)
        recovery = np.column_stack([attack.successes / attack.trials, lo, hi])
        attack_fig = Estimate(attack.estimate, attack.lower, attack.upper, False)
        attack_text = f"estimate: {split}"
    else:  # the blind guess does at least as well: its success is V(pi) exactly (issue 31)
        recovery = np.repeat(_blind_guess(prior)[:, None], 3, axis=1)
        attack_fig = Estimate(v_prior, v_prior, v_prior, False)
        attack_text = ("the blind guess argmax_x pi_x (success V(pi) exactly); the "
                       f"{split} was not shown to do better")
    methods = {
        "channel": f"sampled: {d} releases of every secret through the mechanism",
        "posterior_vulnerability": "estimate: plug-in sum_y max_x pi_x C^[x, y] (biased "
                                   "upward); interval [split-half attack's lower bound, "
                                   "plug-in + McDiarmid margin], clipped to [V(pi), "
                                   "V(pi) e^(eps diam S)]",
        "attack_recovery": attack_text,
        "capacity": "estimate: plug-in sum_y max_x C^[x, y]; interval [K x uniform-prior "
                    "split-half lower bound, plug-in + K x McDiarmid margin], clipped to "
                    "[1, min(K, e^(eps diam S))]",
        "most_exposed": "split-half guesser's recovery per word, Clopper-Pearson per word",
    }
    return WordAudit(
        mechanism.name, mechanism.record_fields(), mechanism.epsilon, secrets, "sampled", d,
        conf, v_prior, post, attack_fig,
        post.scaled(1.0 / v_prior), capacity, recovery,
        int(np.unique(sampled.outputs).size), methods, time.perf_counter() - start)


def _weighted_audit(mechanism: WordMechanism, secrets: Secrets, draws: int, conf: float,
                    rng: RandomState, progress: Progress | None, start: float,
                    width: float | None, max_draws: int | None) -> WordAudit:
    """:func:`audit_mechanism` with the posterior-weighted estimator."""
    m = weighted_measures(mechanism, secrets.rows, secrets.prior, draws=draws,
                          confidence=conf, rng=rng, progress=progress, width=width,
                          max_draws=max_draws)
    post = Estimate(*m.posterior, False)
    n = int(m.samples.sum())
    used = n // len(secrets)
    stop = ("" if width is None else
            f"; drawn until the interval of V(pi|>C) was at most {width:g} wide or "
            f"{m.stages[-1] * draws} per secret were drawn, in {len(m.stages)} stages of "
            f"{', '.join(str(c * draws) for c in m.stages)} per secret, each at "
            f"(1 - confidence)/{len(m.stages)}")
    methods = {
        "channel": f"sampled: {n} releases ({used} per secret on average, allocated in "
                   "proportion to the prior), each credited to every secret by the noise's "
                   f"density (multiple importance sampling){stop}",
        "posterior_vulnerability": "estimate: plug-in sum_y max_x pi_x C^[x, y] of the "
                                   "weighted channel (biased upward); interval [best "
                                   "Hoeffding lower bound of the fixed guessers and the "
                                   "one learned on half the draws, plug-in + "
                                   "McDiarmid margin], clipped to [V(pi), V(pi) "
                                   "e^(eps diam S)]",
        "attack_recovery": f"estimate: {m.guesser}, scored by the weights of the releases "
                           "it did not learn from; Hoeffding's bound (union over the "
                           "guessers)",
        "capacity": "estimate: plug-in with the uniform prior, times K; interval [K x the "
                    "nearest-secret guesser's lower bound, plug-in + margin], clipped to "
                    "[1, min(K, e^(eps diam S))]",
        "most_exposed": "the attack's recovery per word on its own releases, "
                        "Clopper-Pearson (Hoeffding for vickrey) per word",
    }
    return WordAudit(
        mechanism.name, mechanism.record_fields(), mechanism.epsilon, secrets, "sampled",
        used, conf, m.prior_vulnerability, post, Estimate(*m.attack, False),
        post.scaled(1.0 / m.prior_vulnerability), Estimate(*m.capacity, False), m.recovery,
        m.distinct_outputs, methods, time.perf_counter() - start)
