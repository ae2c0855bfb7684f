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
    has_exact_channel,
    sample_channel,
)
from emprivacy.protection.leakage.secrets import Secrets
from emprivacy.protection.leakage.vulnerability import (
    _check_confidence,
    channel_measures,
    clopper_pearson,
    plugin_margin,
    split_half_attack,
)
from emprivacy.protection.report import Estimate

__all__ = ["audit_mechanism"]


_EXACT_METHODS = {
    "channel": "exact: the closed-form law of the mechanism over the whole vocabulary, in "
               "float64",
    "posterior_vulnerability": "exact",
    "attack_recovery": "exact: the Bayes-optimal guesser argmax_x pi_x C[x, y]",
    "capacity": "exact",
}


def audit_mechanism(mechanism: WordMechanism, secrets: Secrets, *, draws: int = 500,
                    channel: str = "auto", confidence: float = 0.95,
                    rng: RandomState = None, progress: Progress | None = None) -> WordAudit:
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
    conf = _check_confidence(confidence)
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
    sampled = sample_channel(mechanism, secrets.rows, draws=draws, rng=rng, progress=progress)
    d = sampled.draws
    m = channel_measures(prior, sampled.matrix())
    attack = split_half_attack(prior, sampled.outputs, confidence=conf)
    uniform = np.full(k, 1.0 / k)
    attack_u = (attack if secrets.prior_name == "uniform"
                else split_half_attack(uniform, sampled.outputs, confidence=conf))
    upper = min(1.0, m.posterior_vulnerability + plugin_margin(prior, d, confidence=conf))
    post = Estimate(m.posterior_vulnerability, max(v_prior, attack.lower), upper, False)
    cap_upper = m.capacity + k * plugin_margin(uniform, d, confidence=conf)
    capacity = Estimate(m.capacity, max(1.0, k * attack_u.lower), min(float(k), cap_upper),
                        False)
    lo, hi = clopper_pearson(attack.successes, np.full(k, attack.trials), confidence=conf)
    recovery = np.column_stack([attack.successes / attack.trials, lo, hi])
    interval = ("Clopper-Pearson on the pooled held-out successes" if attack.method ==
                "clopper-pearson" else "Hoeffding's bound for a prior-weighted score")
    methods = {
        "channel": f"sampled: {d} releases of every secret through the mechanism",
        "posterior_vulnerability": "estimate: plug-in sum_y max_x pi_x C^[x, y] (biased "
                                   "upward); interval [split-half attack's lower bound, "
                                   "plug-in + McDiarmid margin]",
        "attack_recovery": f"estimate: guesser built on {d // 2} draws per secret, scored "
                           f"on the other {attack.trials}; {interval}",
        "capacity": "estimate: plug-in sum_y max_x C^[x, y]; interval [K x uniform-prior "
                    "split-half lower bound, plug-in + K x McDiarmid margin]",
        "most_exposed": "split-half guesser's recovery per word, Clopper-Pearson per word",
    }
    return WordAudit(
        mechanism.name, mechanism.record_fields(), mechanism.epsilon, secrets, "sampled", d,
        conf, v_prior, post, Estimate(attack.estimate, attack.lower, attack.upper, False),
        post.scaled(1.0 / v_prior), capacity, recovery,
        int(np.unique(sampled.outputs).size), methods, time.perf_counter() - start)
