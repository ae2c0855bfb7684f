"""The reconstruction attack's results and their reports: rates with their intervals, as
records, a Markdown table, CSV and JSON.

:class:`Reconstruction` (its rates, :class:`RecoveryRate`) is what
:func:`~emprivacy.protection.attacks.reconstruction.reconstruction_attack` returns; its
:meth:`~Reconstruction.summary` is the ``reconstruction`` of ``emprivacy audit --json``,
:func:`reconstruction_table` a part of the audit's table and :func:`reconstruction_csv`
writes ``reconstruction.csv``.  Nothing here computes a rate: a report's layout changes
here, not in the attack.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from emprivacy.protection.leakage.secrets import Secrets
from emprivacy.protection.report import (
    MISSING,
    Estimate,
    check_results,
    csv_text,
    estimate_dict,
    estimate_text,
    interval_cells,
    interval_columns,
    markdown_table,
)

__all__ = ["Reconstruction", "RecoveryRate", "reconstruction_csv", "reconstruction_table"]


@dataclass(frozen=True)
class RecoveryRate:
    """How often a guesser names the original: exact and top-5, over ``words`` words.

    ``exact`` and ``top5`` are ``None`` when there is no word of the kind.
    """

    words: int
    exact: Estimate | None
    top5: Estimate | None

    def to_dict(self) -> dict[str, Any]:
        """``{"words", "exact", "top5"}``, each figure ``{estimate, lower, upper, kind}``."""
        return {"words": self.words, "exact": estimate_dict(self.exact),
                "top5": estimate_dict(self.top5)}


@dataclass(frozen=True)
class Reconstruction:
    """The reconstruction attack on one release (one mechanism, one ε).

    Attributes
    ----------
    mechanism, parameters, epsilon
        The mechanism's name, record fields and ε.
    mode : {"text", "bag"}
    context : {"ngram", "custom", "none"}
        The context model: an n-gram model (``order``), a plugged-in scorer, none (bags).
    order : int or None
    reference : str or None
        Where the n-gram model's text came from: ``"half"`` (the other half of the
        corpus) or ``"given"``.
    context_weight : float or None
        w of ``log π + log C + w · log P(context | x)`` (``None``: no context).
    channel : {"exact", "sampled"}
    draws : int or None
    secrets : Secrets
    candidates, frequent, confidence, seed
        The settings.
    documents_attacked, documents_reference : int
    attack : RecoveryRate
        The attack's exact and top-5 recovery over all released content words.
    baselines : dict of RecoveryRate
        ``channel_only``, ``context_only`` (text mode with a context model) and
        ``prior_only``.
    classes : dict of dict of RecoveryRate
        Per class (``frequent``, ``rare``, ``capitalised``, and ``entity`` for a release
        with entity detection): each guesser's rate.
    words_in_secrets : int
        Released content words whose original is a secret (the others are never
        recovered).
    methods : dict
        How each figure was obtained, in words.
    seconds : float
    entities : dict or None
        A release with entity detection: its settings, the words detection took per type
        in the documents attacked, the entity slots attacked per type and each type's
        channel (``None``: no detection).
    """

    mechanism: str
    parameters: dict[str, Any]
    epsilon: float
    mode: str
    context: str
    order: int | None
    reference: str | None
    context_weight: float | None
    channel: str
    draws: int | None
    secrets: Secrets = field(repr=False)
    candidates: int
    frequent: int
    confidence: float
    seed: int
    documents_attacked: int
    documents_reference: int
    attack: RecoveryRate
    baselines: dict[str, RecoveryRate] = field(repr=False)
    classes: dict[str, dict[str, RecoveryRate]] = field(repr=False)
    words_in_secrets: int
    methods: dict[str, str] = field(repr=False)
    seconds: float
    entities: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def words(self) -> int:
        """Released content words attacked."""
        return self.attack.words

    def summary(self) -> dict[str, Any]:
        """The attack as a JSON-ready dict (the ``reconstruction`` of ``--json``)."""
        return {
            "mode": self.mode,
            "context": self.context,
            "order": self.order,
            "reference": self.reference,
            "context_weight": self.context_weight,
            "channel": self.channel,
            "draws": self.draws,
            "secrets": len(self.secrets),
            "prior": self.secrets.prior_name,
            "candidates": self.candidates,
            "frequent": self.frequent,
            "confidence": self.confidence,
            "seed": self.seed,
            "documents": {"attacked": self.documents_attacked,
                          "reference": self.documents_reference},
            "words": self.words,
            "words_in_secrets": self.words_in_secrets,
            "exact": estimate_dict(self.attack.exact),
            "top5": estimate_dict(self.attack.top5),
            "baselines": {k: v.to_dict() for k, v in self.baselines.items()},
            "classes": {c: {g: r.to_dict() for g, r in by.items()}
                        for c, by in self.classes.items()},
            "methods": dict(self.methods),
            "seconds": self.seconds,
            **({"entities": self.entities} if self.entities is not None else {}),
        }


def _check(recons: Sequence[Reconstruction]) -> list[Reconstruction]:
    return check_results(recons, Reconstruction, "reconstructions")


def reconstruction_table(recons: Sequence[Reconstruction]) -> str:
    """A Markdown table of reconstruction attacks (one row per ε), then one per class."""
    recons = _check(recons)
    rows = []
    for r in recons:
        base = r.baselines
        ctx = base.get("context_only")
        rows.append([r.mechanism, f"{r.epsilon:g}", r.mode, _context_label(r), str(r.words),
                     estimate_text(r.attack.exact), estimate_text(r.attack.top5),
                     estimate_text(base["channel_only"].exact),
                     MISSING if ctx is None else estimate_text(ctx.exact),
                     estimate_text(base["prior_only"].exact)])
    lines = markdown_table(["mechanism", "ε", "mode", "context", "words", "exact recovery",
                            "top-5 recovery", "channel only", "context only", "prior only"],
                           rows, right={"ε", "words"})
    lines += ["", "Exact recovery of each guesser (baselines: exact); intervals "
              f"Clopper–Pearson at {recons[0].confidence:.0%}.", ""]
    rows = []
    for r in recons:
        for c, by in r.classes.items():
            attack = by.get("attack", by["channel_only"])
            rows.append([r.mechanism, f"{r.epsilon:g}", c, str(attack.words),
                         estimate_text(attack.exact), estimate_text(attack.top5),
                         estimate_text(by["channel_only"].exact),
                         estimate_text(by["prior_only"].exact)])
    lines += markdown_table(["mechanism", "ε", "class", "words", "attack exact", "attack top-5",
                             "channel only", "prior only"], rows, right={"ε", "words"})
    return "\n".join(lines) + "\n"


def _context_label(r: Reconstruction) -> str:
    if r.context == "ngram":
        return f"{r.order}-gram ({'other half' if r.reference == 'half' else 'reference'})"
    return r.context


def reconstruction_csv(recons: Sequence[Reconstruction]) -> str:
    """CSV: one row per ε, class (``all`` first) and guesser, with the intervals."""
    recons = _check(recons)
    rows = []
    for r in recons:
        groups = {"all": {"attack": r.attack, **r.baselines}, **r.classes}
        for c, by in groups.items():
            for g, rate in by.items():
                rows.append([r.mechanism, r.epsilon, r.mode, r.context, c, g, rate.words,
                             *interval_cells(rate.exact), *interval_cells(rate.top5)])
    return csv_text(["mechanism", "epsilon", "mode", "context", "class", "guesser", "words",
                     *interval_columns("exact"), *interval_columns("top5")], rows)
