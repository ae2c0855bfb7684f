"""The distinguishability audit's results and their reports: ε̂ per pair, as a record, a
Markdown table, CSV and JSON.

:class:`Distinguishability` (one :class:`PairEpsilon` per pair) is what
:func:`~emprivacy.protection.leakage.distinguish.distinguish_pairs` and
:func:`~emprivacy.protection.leakage.distinguish.distinguish_documents` return; its
:meth:`~Distinguishability.summary` is the ``epsilon_hat`` of ``emprivacy audit --json``,
its :meth:`~Distinguishability.table` a part of the audit's table, and
:func:`distinguish_csv` writes ``distinguish.csv``.  Nothing here computes a bound: a
report's layout changes here, not in the audit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from emprivacy.protection.report import blank, csv_text, markdown_table, number_text

__all__ = ["PAIR_CSV_HEADER", "Distinguishability", "PairEpsilon", "distinguish_csv"]


@dataclass(frozen=True)
class PairEpsilon:
    """ε̂ for one pair of inputs (two words, or two documents of one layout).

    Attributes
    ----------
    first, second : str
        The two inputs (words; for documents, their labels).
    positions : int
        Positions at which they differ (1 for words).
    distance : float or None
        ``d(x, x′)`` in the mechanism's metric (documents: summed over the positions);
        ``None`` where the mechanism states no metric.
    nominal : float or None
        The guarantee's bound on the privacy loss, ``ε·d``.
    estimate, lower : float
        ε̂: the test's point estimate, and its lower confidence bound (≥ 0).
    true_positives, false_positives, trials : int
        The test's hits on the evaluation releases of the second and the first input.
    exact_loss : float or None
        Known law only: the pair's privacy loss in closed form,
        ``max(Σᵢ max_y sᵢ(y), Σᵢ max_y −sᵢ(y))``, sᵢ the log-likelihood ratio — the most any
        test can show.
    test_value : float or None
        Known law, words only: the chosen test's own value in closed form (what
        ``estimate`` estimates).
    """

    first: str
    second: str
    positions: int
    distance: float | None
    nominal: float | None
    estimate: float
    lower: float
    true_positives: int
    false_positives: int
    trials: int
    exact_loss: float | None = None
    test_value: float | None = None

    @property
    def tightness(self) -> float | None:
        """``lower / nominal``: how much of the nominal bound the test shows (``None`` at
        ``nominal`` 0 or unknown)."""
        if self.nominal is None or self.nominal <= 0:
            return None
        return self.lower / self.nominal

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every attribute and the tightness."""
        return {"first": self.first, "second": self.second, "positions": self.positions,
                "distance": self.distance, "nominal": self.nominal,
                "estimate": self.estimate, "lower": self.lower,
                "tightness": self.tightness, "true_positives": self.true_positives,
                "false_positives": self.false_positives, "trials": self.trials,
                "exact_loss": self.exact_loss, "test_value": self.test_value}


@dataclass(frozen=True)
class Distinguishability:
    """The distinguishability audit of one mechanism at its ε over a set of pairs.

    Attributes
    ----------
    mechanism : str
    epsilon : float
    draws : int
        Releases of each input.
    confidence : float
        Simultaneous over the pairs (each pair's bound at ``1 − (1 − confidence)/P``).
    method : str
        ``"likelihood-ratio"`` (known law) or ``"split-half"`` (a distinguisher built
        from half the draws, scored on the other half).
    pairs : tuple of PairEpsilon
    ceiling : float
        The largest lower bound the evaluation draws of one pair can give: an ε̂ at the
        ceiling means "at least this much; more draws would show more".
    seconds : float
    inputs : {"words", "documents"}
        What the pairs are: words (:func:`distinguish_pairs`) or two documents of one
        layout (:func:`distinguish_documents`).
    """

    mechanism: str
    epsilon: float
    draws: int
    confidence: float
    method: str
    pairs: tuple[PairEpsilon, ...]
    ceiling: float
    seconds: float = field(default=0.0, compare=False)
    inputs: str = "words"

    def best(self) -> PairEpsilon:
        """The pair with the largest lower bound (ties: the first)."""
        return max(self.pairs, key=lambda p: p.lower)

    @property
    def tightness(self) -> float | None:
        """The largest ``lower / nominal`` over the pairs (``None`` if none is defined)."""
        values = [p.tightness for p in self.pairs if p.tightness is not None]
        return max(values) if values else None

    def at_ceiling(self, pair: PairEpsilon) -> bool:
        """Whether a pair's lower bound is the most the draws can show (TPR 1, FPR 0): then
        it says "at least this, and more draws would show more"."""
        return pair.lower > 0 and pair.lower >= self.ceiling * (1 - 1e-12)

    def table(self) -> list[str]:
        """Markdown lines: a heading and one row per pair (ε̂ beside ε·d; a lower bound
        that is the most the draws can show is marked "(the ceiling)")."""
        what = ("likelihood-ratio test (the law is known)" if self.method == "likelihood-ratio"
                else "distinguisher built on half the releases, scored on the other half")
        docs = self.inputs == "documents"
        n = len(self.pairs)
        level = (f"lower bound at {self.confidence:.0%} confidence" if n == 1 else
                 f"lower bounds at {self.confidence:.0%} confidence, simultaneous over the "
                 f"{n} pairs")
        header = ["documents" if docs else "pair", *(["positions"] if docs else []), "d",
                  "ε·d", "ε̂", "ε̂ lower", "lower / ε·d", "exact loss"]
        rows = ([f"{p.first} / {p.second}", *([str(p.positions)] if docs else []),
                 number_text(p.distance), number_text(p.nominal), f"{p.estimate:.4g}",
                 f"{p.lower:.4g}" + (" (the ceiling)" if self.at_ceiling(p) else ""),
                 number_text(p.tightness), number_text(p.exact_loss)]
                for p in self.pairs)
        return [f"ε̂{' of two documents' if docs else ''}, {self.mechanism} at ε = "
                f"{self.epsilon:g}: {self.draws} releases of each input; {what}; {level}; "
                f"the draws cannot show more than {self.ceiling:.3g}:", "",
                *markdown_table(header, rows, right=header[1:])]

    def csv_rows(self) -> list[list[Any]]:
        """One row per pair, in the order of :data:`PAIR_CSV_HEADER`."""
        return [[self.mechanism, self.epsilon, self.method, self.draws, self.confidence,
                 p.first, p.second, p.positions, blank(p.distance), blank(p.nominal),
                 p.estimate, p.lower, blank(p.tightness), p.true_positives,
                 p.false_positives, p.trials, blank(p.exact_loss), blank(p.test_value),
                 self.inputs]
                for p in self.pairs]

    def summary(self) -> dict[str, Any]:
        """JSON-ready (the ``epsilon_hat`` of ``emprivacy audit --json``): the pair set's
        largest ε̂ (estimate and lower bound, with its pair and nominal ε·d), the
        tightness, how it was computed, and every pair."""
        best = self.best()
        return {
            "estimate": best.estimate, "lower": best.lower, "nominal": best.nominal,
            "pair": [best.first, best.second], "tightness": self.tightness,
            "confidence": self.confidence, "draws": self.draws, "method": self.method,
            "ceiling": self.ceiling, "inputs": self.inputs,
            "pairs": [p.to_dict() for p in self.pairs],
        }


#: The columns of :meth:`Distinguishability.csv_rows` (``distinguish.csv``).
PAIR_CSV_HEADER = ("mechanism", "epsilon", "method", "draws", "confidence", "first",
                   "second", "positions", "distance", "nominal", "epsilon_hat",
                   "epsilon_hat_lower", "tightness", "true_positives", "false_positives",
                   "trials", "exact_loss", "test_value", "inputs")


def distinguish_csv(results: Sequence[Distinguishability]) -> str:
    """CSV of one row per pair of every result (:data:`PAIR_CSV_HEADER`)."""
    return csv_text(PAIR_CSV_HEADER, [row for r in results for row in r.csv_rows()])
