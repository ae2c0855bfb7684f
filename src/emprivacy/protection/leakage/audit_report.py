"""The word audit's results and their reports: :class:`WordAudit`, its table, CSV and file.

:class:`WordAudit` is what :func:`~emprivacy.protection.leakage.audit.audit_mechanism`
returns (its :meth:`~WordAudit.summary` is the ``--json`` object of ``emprivacy audit``);
:func:`audit_table`, :func:`audit_csv` and :func:`audit_report` render audits for the
command line and its ``--out`` files (``audit.csv``, ``audit.json``), with the pieces every
report of :mod:`emprivacy.protection` shares (:mod:`emprivacy.protection.report`).  Nothing
here computes a figure: a report's layout changes here, not in the audit.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np

from emprivacy._validation import check_positive_int
from emprivacy.protection.leakage.distinguish_report import Distinguishability
from emprivacy.protection.leakage.secrets import Secrets
from emprivacy.protection.report import (
    Estimate,
    blank,
    check_results,
    csv_text,
    interval_cells,
    interval_columns,
    markdown_table,
)

__all__ = ["TOP_EXPOSED", "WordAudit", "audit_csv", "audit_report", "audit_table", "versions"]

#: How many of the most exposed words summaries list by default.
TOP_EXPOSED = 20


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


def _check_audits(audits: Sequence[WordAudit]) -> list[WordAudit]:
    return check_results(audits, WordAudit, "audits")


def audit_table(audits: Sequence[WordAudit], *, top: int = 10) -> str:
    """A Markdown table of audits (one row per mechanism and ε), then each one's most
    exposed words.  A sampled figure reads ``estimate [lower, upper]``."""
    audits = _check_audits(audits)
    conf = audits[0].confidence
    lines = markdown_table(
        ["mechanism", "ε", "channel", "V(π)", "V(π▷C)", "attack recovery", "leakage",
         "capacity"],
        ([a.mechanism, f"{a.epsilon:g}", "exact" if a.exact else f"sampled ({a.draws} draws)",
          f"{a.prior_vulnerability:.4g}", a.posterior_vulnerability.text(),
          a.attack_recovery.text(), a.multiplicative_leakage.text(), a.capacity.text()]
         for a in audits),
        right={"ε", "V(π)"})
    lines.append("")
    lines.append(f"Intervals: {conf:.0%} confidence.")
    for a in audits:
        lines += ["", f"Most exposed words, {a.mechanism} at ε = {a.epsilon:g} "
                      "(probability that the attacker recovers the word from its release):",
                  ""]
        lines += markdown_table(
            ["word", "prior", "recovery"],
            ([row["word"], f"{row['prior']:.4g}", _exposed(row["recovery"], a.exact).text()]
             for row in a.most_exposed(top)),
            right={"prior"})
    for a in audits:  # the distinguishability audits, where they were run
        for hat in (a.epsilon_hat, a.epsilon_hat_documents):
            if hat is not None:
                lines += ["", *hat.table()]
    return "\n".join(lines) + "\n"


def _exposed(recovery: dict[str, Any], exact: bool) -> Estimate:
    return Estimate(recovery["estimate"], recovery["lower"], recovery["upper"], exact)


_CSV_FIGURES = ("posterior_vulnerability", "attack_recovery", "multiplicative_leakage",
                "capacity")
_HATS = ("epsilon_hat", "epsilon_hat_documents")


def audit_csv(audits: Sequence[WordAudit]) -> str:
    """The audits as CSV: one row per mechanism and ε, each figure with its interval."""
    audits = _check_audits(audits)
    header = ["mechanism", "epsilon", "channel", "secrets", "draws", "prior", "confidence",
              "prior_vulnerability"]
    for name in _CSV_FIGURES:
        header += interval_columns(name)
    sets = [name for name in _HATS if any(getattr(a, name) is not None for a in audits)]
    extra_header = [f"{name}{end}" for name in sets
                    for end in ("", "_lower", "_nominal", "_tightness")]
    rows = []
    for a in audits:
        row: list[Any] = [a.mechanism, a.epsilon, a.channel, len(a.secrets),
                          blank(a.draws), a.secrets.prior_name, a.confidence,
                          a.prior_vulnerability]
        for name in _CSV_FIGURES:
            row += interval_cells(getattr(a, name))
        extra: list[Any] = []
        for name in sets:
            hat: Distinguishability | None = getattr(a, name)
            e_h = None if hat is None else hat.summary()
            extra += ["", "", "", ""] if e_h is None else [
                e_h["estimate"], e_h["lower"], blank(e_h["nominal"]), blank(e_h["tightness"])]
        rows.append([*row, "exact" if a.exact else "estimate", *extra])
    return csv_text([*header, "kind", *extra_header], rows)


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
