"""The word audit of entity words, reported: :class:`EntityAudit`, its table and CSV.

:class:`EntityAudit` is what :func:`~emprivacy.protection.leakage.entity_audit.audit_entities`
returns: one :class:`~emprivacy.protection.leakage.audit_report.WordAudit` per privatised
entity type (the type's secrets under the mechanism restricted to its sub-vocabulary at
ε_e), and what detection took in the corpus.  Its :meth:`~EntityAudit.summary` is the
``entities`` of ``emprivacy audit --json``; :func:`entity_table` a part of the audit's table
and :func:`entity_csv` writes ``entities.csv``.  Nothing here computes a figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from emprivacy.protection.leakage.audit_report import WordAudit
from emprivacy.protection.report import (
    MISSING,
    check_results,
    csv_text,
    interval_cells,
    interval_columns,
    markdown_table,
)

__all__ = ["EntityAudit", "entity_csv", "entity_table"]


@dataclass(frozen=True)
class EntityAudit:
    """The entity words of one mechanism at one ε, audited at their own ε_e.

    Attributes
    ----------
    mechanism : str
    epsilon : float
        The general ε (the other words').
    detectors : str
        The detectors of the run (``auto`` resolved).
    entity_epsilon : float
        ε_e.
    policy : str
        The policies, as records name them.
    detected : dict or None
        Per type, the words (and placeholders) detection took in the corpus; ``None``
        without a corpus (the secrets of a type are then its sub-vocabulary's).
    mentions, distinct : dict or None
        Per privatised type, the entity-slot mentions in the corpus and their distinct
        words.
    secrets : dict
        Per privatised type, the secrets audited (0: none of the secrets is of the type).
    prior_mass : dict
        Per privatised type, the share of π that its secrets hold.
    audits : dict of WordAudit
        Per privatised type with secrets: the audit under the restricted mechanism.
    methods : dict
        How each figure was obtained, in words.
    """

    mechanism: str
    epsilon: float
    detectors: str
    entity_epsilon: float
    policy: str
    detected: dict[str, int] | None
    mentions: dict[str, int] | None
    distinct: dict[str, int] | None
    secrets: dict[str, int]
    prior_mass: dict[str, float]
    audits: dict[str, WordAudit] = field(repr=False)
    methods: dict[str, str] = field(repr=False)

    def summary(self, *, top: int = 20) -> dict[str, Any]:
        """JSON-ready: the settings, what detection took, and each type's audit (its
        :meth:`WordAudit.summary`, ``top`` exposed words)."""
        return {
            "detectors": self.detectors,
            "entity_epsilon": self.entity_epsilon,
            "entity_policy": self.policy,
            "detected": self.detected,
            "mentions": self.mentions,
            "distinct_words": self.distinct,
            "secrets": dict(self.secrets),
            "prior_mass": dict(self.prior_mass),
            "types": {t: a.summary(top=top) for t, a in self.audits.items()},
            "methods": dict(self.methods),
        }


def _check(results: Sequence[EntityAudit]) -> list[EntityAudit]:
    return check_results(results, EntityAudit, "entity audits")


def entity_table(results: Sequence[EntityAudit]) -> str:
    """A Markdown table: one row per mechanism, ε and entity type, beside what detection
    took in the corpus."""
    results = _check(results)
    first = results[0]
    rows = []
    for r in results:
        for t, n in r.secrets.items():
            a = r.audits.get(t)
            found = (MISSING if r.mentions is None
                     else f"{r.mentions.get(t, 0)} ({r.distinct.get(t, 0) if r.distinct else 0})")
            if a is None:
                rows.append([r.mechanism, f"{r.epsilon:g}", t, f"{r.entity_epsilon:g}", found,
                             "0", *[MISSING] * 5])
                continue
            rows.append([r.mechanism, f"{r.epsilon:g}", t, f"{r.entity_epsilon:g}", found,
                         str(n), "exact" if a.exact else f"sampled ({a.draws} draws)",
                         f"{a.prior_vulnerability:.4g}", a.posterior_vulnerability.text(),
                         a.attack_recovery.text(), a.capacity.text()])
    lines = [f"Entity words (detected by {first.detectors}; ε_e = {first.entity_epsilon:g}), "
             "each audited under the mechanism restricted to its type's public "
             "sub-vocabulary at ε_e, the prior restricted to the type's secrets:", ""]
    lines += markdown_table(["mechanism", "ε", "type", "ε_e", "corpus mentions (words)",
                             "secrets", "channel", "V(π)", "V(π▷C)", "attack recovery",
                             "capacity"], rows, right={"ε", "ε_e", "secrets", "V(π)"})
    if first.detected is not None:
        took = ", ".join(f"{t} {n:,}" for t, n in first.detected.items())
        lines += ["", f"Detection took, in the corpus: {took} words. Entity words it missed "
                  "are ordinary words at ε (the rows above do not cover them)."]
    return "\n".join(lines) + "\n"


def entity_csv(results: Sequence[EntityAudit]) -> str:
    """CSV: one row per mechanism, ε and entity type, each figure with its interval."""
    results = _check(results)
    figures = ("posterior_vulnerability", "attack_recovery", "multiplicative_leakage",
               "capacity")
    header = ["mechanism", "epsilon", "entity_type", "entity_epsilon", "detectors",
              "corpus_mentions", "secrets", "prior_mass", "channel", "draws",
              "prior_vulnerability"]
    for name in figures:
        header += interval_columns(name)
    rows = []
    for r in results:
        for t, a in r.audits.items():
            row: list[Any] = [r.mechanism, r.epsilon, t, r.entity_epsilon, r.detectors,
                              "" if r.mentions is None else r.mentions.get(t, 0),
                              r.secrets[t], r.prior_mass[t], a.channel,
                              "" if a.draws is None else a.draws, a.prior_vulnerability]
            for name in figures:
                row += interval_cells(getattr(a, name))
            rows.append([*row, "exact" if a.exact else "estimate"])
    return csv_text([*header, "kind"], rows)
