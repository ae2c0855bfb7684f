"""The word audit: how well the Bayes-optimal adversary recovers a released word.

:func:`audit_mechanism` measures one mechanism at its ε on a set of secret words
(:mod:`emprivacy.protection.leakage.secrets`) through its word channel
(:mod:`emprivacy.protection.leakage.channel`): exact for SanText and TEM, sampled for the
others; the figures (:mod:`emprivacy.protection.leakage.vulnerability`) come with their
uncertainty, and a sampled figure is always labelled an estimate.
:func:`audit_table`, :func:`audit_csv` and :func:`audit_report` render audits for the
command line (``emprivacy audit``) and its ``--out`` files.
"""

from __future__ import annotations

import csv
import io
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np

from emprivacy._validation import check_choice, check_positive_int
from emprivacy.math.randomness import RandomState
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.protection.leakage.channel import (
    ExactChannel,
    Progress,
    has_exact_channel,
    sample_channel,
)
from emprivacy.protection.leakage.densities import guarantee_ceiling, has_noise_density
from emprivacy.protection.leakage.distinguish import Distinguishability
from emprivacy.protection.leakage.secrets import Secrets
from emprivacy.protection.leakage.vulnerability import (
    _check_confidence,
    channel_measures,
    clopper_pearson,
    plugin_margin,
    split_half_attack,
)
from emprivacy.protection.leakage.weighted import weighted_measures

__all__ = ["Estimate", "WordAudit", "audit_csv", "audit_mechanism", "audit_report",
           "audit_table", "versions"]

#: How many of the most exposed words summaries list by default.
TOP_EXPOSED = 20
#: The width of V(π▷C)'s interval the weighted estimator draws until (issue 31: ±0.025).
DEFAULT_WIDTH = 0.05


@dataclass(frozen=True)
class Estimate:
    """A figure with its interval; ``exact`` when it is computed, not estimated.

    An exact figure has ``lower == estimate == upper``.
    """

    estimate: float
    lower: float
    upper: float
    exact: bool

    @classmethod
    def of(cls, value: float) -> Estimate:
        """An exact figure."""
        return cls(float(value), float(value), float(value), True)

    def scaled(self, factor: float) -> Estimate:
        """The same figure times ``factor`` (> 0)."""
        return Estimate(self.estimate * factor, self.lower * factor, self.upper * factor,
                        self.exact)

    def to_dict(self) -> dict[str, Any]:
        """``{"estimate", "lower", "upper", "kind"}``; kind ``"exact"`` or ``"estimate"``."""
        return {"estimate": self.estimate, "lower": self.lower, "upper": self.upper,
                "kind": "exact" if self.exact else "estimate"}

    def text(self, digits: int = 4) -> str:
        """``0.4123 (exact)`` or ``0.4123 estimate [0.4010, 0.4250]``."""
        if self.exact:
            return f"{self.estimate:.{digits}g} (exact)"
        return (f"{self.estimate:.{digits}g} estimate [{self.lower:.{digits}g}, "
                f"{self.upper:.{digits}g}]")


@dataclass(frozen=True)
class WordAudit:
    """What the Bayes-optimal adversary learns from one released word (one mechanism, ε).

    Attributes
    ----------
    mechanism : str
        The mechanism's name.
    parameters : dict
        Its record fields (:meth:`~emprivacy.mechanisms.WordMechanism.record_fields`).
    epsilon : float
    secrets : Secrets
        The secret words and the prior π.
    channel : {"exact", "sampled"}
    draws : int or None
        Releases per secret of a sampled channel.
    confidence : float
        Of every interval.
    prior_vulnerability : float
        ``V(π) = max π`` (exact).
    posterior_vulnerability : Estimate
        ``V(π▷C)``; sampled: the plug-in estimate (biased upward) in
        ``[split-half attack's lower bound, plug-in + McDiarmid margin]``.
    attack_recovery : Estimate
        The success rate of the attack actually run: the optimal guesser (exact) or the
        split-half guesser scored on held-out draws (sampled).
    multiplicative_leakage : Estimate
        ``V(π▷C) / V(π)``.
    capacity : Estimate
        ``Σ_y max_x C[x, y]``, the leakage under the worst prior.
    recovery : (K, 3) float64 array
        Per secret (in the order of ``secrets``): the probability that the attacker
        recovers it from its release — estimate, lower, upper (exact: the optimal
        guesser; sampled: the split-half guesser with Clopper–Pearson per word).
    distinct_outputs : int
        Outputs with mass (exact) or observed (sampled).
    methods : dict
        How each figure was obtained, in words.
    seconds : float
        Time the audit took.
    """

    mechanism: str
    parameters: dict[str, Any]
    epsilon: float
    secrets: Secrets = field(repr=False)
    channel: str
    draws: int | None
    confidence: float
    prior_vulnerability: float
    posterior_vulnerability: Estimate
    attack_recovery: Estimate
    multiplicative_leakage: Estimate
    capacity: Estimate
    recovery: np.ndarray = field(repr=False)
    distinct_outputs: int
    methods: dict[str, str] = field(repr=False)
    seconds: float
    #: The distinguishability audit (ε̂ per pair), when one was run: attach it with
    #: ``dataclasses.replace(audit, epsilon_hat=distinguish_pairs(...))``.
    epsilon_hat: Distinguishability | None = None
    #: The distinguishability audit of two documents of one layout, when one was run
    #: (:func:`~emprivacy.protection.distinguish_documents`), attached the same way.
    epsilon_hat_documents: Distinguishability | None = None

    @property
    def exact(self) -> bool:
        """Whether the figures are exact (closed-form channel)."""
        return self.channel == "exact"

    def most_exposed(self, top: int = TOP_EXPOSED) -> list[dict[str, Any]]:
        """The ``top`` secrets the attacker recovers most often, most exposed first.

        Each: ``{"word", "prior", "recovery": {"estimate", "lower", "upper", "kind"}}``.
        Ties go to the more probable secret.
        """
        top = check_positive_int(top, "top")
        order = np.lexsort((-self.secrets.prior, -self.recovery[:, 0]))[:top]
        return [{"word": self.secrets.words[i], "prior": float(self.secrets.prior[i]),
                 "recovery": self._recovery(i).to_dict()} for i in order.tolist()]

    def summary(self, *, top: int = TOP_EXPOSED) -> dict[str, Any]:
        """The audit as a JSON-ready dict (the ``--json`` object), ``top`` exposed words."""
        return {
            "mechanism": self.mechanism,
            "parameters": dict(self.parameters),
            "epsilon": self.epsilon,
            "channel": self.channel,
            "secrets": len(self.secrets),
            "draws": self.draws,
            "prior": self.secrets.prior_name,
            "confidence": self.confidence,
            "prior_vulnerability": self.prior_vulnerability,
            "posterior_vulnerability": self.posterior_vulnerability.to_dict(),
            "attack_recovery": self.attack_recovery.to_dict(),
            "multiplicative_leakage": self.multiplicative_leakage.to_dict(),
            "capacity": self.capacity.to_dict(),
            "distinct_outputs": self.distinct_outputs,
            "most_exposed": self.most_exposed(top),
            "methods": dict(self.methods),
            "seconds": self.seconds,
            "epsilon_hat": None if self.epsilon_hat is None else self.epsilon_hat.summary(),
            "epsilon_hat_documents": (None if self.epsilon_hat_documents is None
                                      else self.epsilon_hat_documents.summary()),
        }

    def per_secret(self) -> list[dict[str, Any]]:
        """Every secret with its prior and recovery (for ``audit.json``)."""
        return [{"word": w, "prior": float(p), "recovery": self._recovery(i).to_dict()}
                for i, (w, p) in enumerate(zip(self.secrets.words,
                                               self.secrets.prior.tolist(), strict=True))]

    def _recovery(self, i: int) -> Estimate:
        est, lo, hi = (float(v) for v in self.recovery[i])
        return Estimate(est, lo, hi, self.exact)


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
    lo, hi = clopper_pearson(attack.successes, np.full(k, attack.trials), confidence=conf)
    recovery = np.column_stack([attack.successes / attack.trials, lo, hi])
    interval = ("Clopper-Pearson on the pooled held-out successes" if attack.method ==
                "clopper-pearson" else "Hoeffding's bound for a prior-weighted score")
    methods = {
        "channel": f"sampled: {d} releases of every secret through the mechanism",
        "posterior_vulnerability": "estimate: plug-in sum_y max_x pi_x C^[x, y] (biased "
                                   "upward); interval [split-half attack's lower bound, "
                                   "plug-in + McDiarmid margin], clipped to [V(pi), "
                                   "V(pi) e^(eps diam S)]",
        "attack_recovery": f"estimate: guesser built on {d // 2} draws per secret, scored "
                           f"on the other {attack.trials}; {interval}",
        "capacity": "estimate: plug-in sum_y max_x C^[x, y]; interval [K x uniform-prior "
                    "split-half lower bound, plug-in + K x McDiarmid margin], clipped to "
                    "[1, min(K, e^(eps diam S))]",
        "most_exposed": "split-half guesser's recovery per word, Clopper-Pearson per word",
    }
    return WordAudit(
        mechanism.name, mechanism.record_fields(), mechanism.epsilon, secrets, "sampled", d,
        conf, v_prior, post, Estimate(attack.estimate, attack.lower, attack.upper, False),
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
                                   "fixed guesser's Hoeffding lower bound, plug-in + "
                                   "McDiarmid margin], clipped to [V(pi), V(pi) "
                                   "e^(eps diam S)]",
        "attack_recovery": f"estimate: {m.guesser}, scored on every release by its "
                           "weights; Hoeffding's bound (union over the guessers)",
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


def _check_audits(audits: Sequence[WordAudit]) -> list[WordAudit]:
    audits = list(audits)
    if not audits or not all(isinstance(a, WordAudit) for a in audits):
        raise TypeError("audits must be a non-empty sequence of WordAudit")
    return audits


def audit_table(audits: Sequence[WordAudit], *, top: int = 10) -> str:
    """A Markdown table of audits (one row per mechanism and ε), then each one's most
    exposed words.  A sampled figure reads ``estimate [lower, upper]``."""
    audits = _check_audits(audits)
    conf = audits[0].confidence
    lines = [
        "| mechanism | ε | channel | V(π) | V(π▷C) | attack recovery | leakage | capacity |",
        "|---|---:|---|---:|---|---|---|---|",
    ]
    for a in audits:
        chan = "exact" if a.exact else f"sampled ({a.draws} draws)"
        lines.append(
            f"| {a.mechanism} | {a.epsilon:g} | {chan} | {a.prior_vulnerability:.4g} | "
            f"{a.posterior_vulnerability.text()} | {a.attack_recovery.text()} | "
            f"{a.multiplicative_leakage.text()} | {a.capacity.text()} |")
    lines.append("")
    lines.append(f"Intervals: {conf:.0%} confidence.")
    for a in audits:
        lines += ["", f"Most exposed words, {a.mechanism} at ε = {a.epsilon:g} "
                      "(probability that the attacker recovers the word from its release):",
                  "", "| word | prior | recovery |", "|---|---:|---|"]
        for row in a.most_exposed(top):
            r = row["recovery"]
            est = Estimate(r["estimate"], r["lower"], r["upper"], a.exact)
            lines.append(f"| {row['word']} | {row['prior']:.4g} | {est.text()} |")
    for a in audits:  # the distinguishability audits, where they were run
        for hat in (a.epsilon_hat, a.epsilon_hat_documents):
            if hat is not None:
                lines += ["", *hat.table()]
    return "\n".join(lines) + "\n"


_CSV_FIGURES = ("posterior_vulnerability", "attack_recovery", "multiplicative_leakage",
                "capacity")


def audit_csv(audits: Sequence[WordAudit]) -> str:
    """The audits as CSV: one row per mechanism and ε, each figure with its interval."""
    audits = _check_audits(audits)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    header = ["mechanism", "epsilon", "channel", "secrets", "draws", "prior", "confidence",
              "prior_vulnerability"]
    for name in _CSV_FIGURES:
        header += [name, f"{name}_lower", f"{name}_upper"]
    sets = [name for name in ("epsilon_hat", "epsilon_hat_documents")
            if any(getattr(a, name) is not None for a in audits)]
    extra_header = [f"{name}{end}" for name in sets
                    for end in ("", "_lower", "_nominal", "_tightness")]
    writer.writerow([*header, "kind", *extra_header])
    for a in audits:
        row: list[Any] = [a.mechanism, a.epsilon, a.channel, len(a.secrets),
                          "" if a.draws is None else a.draws, a.secrets.prior_name,
                          a.confidence, a.prior_vulnerability]
        for name in _CSV_FIGURES:
            e: Estimate = getattr(a, name)
            row += [e.estimate, e.lower, e.upper]
        extra: list[Any] = []
        for name in sets:
            hat: Distinguishability | None = getattr(a, name)
            e_h = None if hat is None else hat.summary()
            extra += ["", "", "", ""] if e_h is None else [
                e_h["estimate"], e_h["lower"], _blank(e_h["nominal"]), _blank(e_h["tightness"])]
        writer.writerow([*row, "exact" if a.exact else "estimate", *extra])
    return buf.getvalue()


def _blank(value: Any) -> Any:
    return "" if value is None else value


def versions() -> dict[str, str]:
    """Python, platform and the versions of emprivacy, NumPy and SciPy."""
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for dist in ("emprivacy", "numpy", "scipy"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:  # pragma: no cover - a source tree
            out[dist] = "unknown"
    return out


def audit_report(audits: Sequence[WordAudit], *, settings: dict[str, Any] | None = None,
                 top: int = TOP_EXPOSED) -> dict[str, Any]:
    """``audit.json``: the settings, the versions, and every audit with every secret."""
    audits = _check_audits(audits)
    return {
        "settings": dict(settings or {}),
        "versions": versions(),
        "results": [{**a.summary(top=top), "per_secret": a.per_secret()} for a in audits],
    }
