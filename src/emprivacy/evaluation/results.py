"""What a run of the experiment records: counts, the topic classifier's check, the run.

:class:`SetResult` holds the counts of correct predictions on one author set
(``correct[ε, trial, attack]``) and :class:`ExperimentResult` a whole run with its settings
(:class:`~emprivacy.evaluation.settings.ExperimentConfig`); their ``to_dict`` is the run
JSON.  The runner is :func:`emprivacy.evaluation.experiment.run_experiment`, the report
writer :func:`emprivacy.evaluation.report.write_report`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from emprivacy.evaluation.settings import ExperimentConfig, epsilon_label

__all__ = [
    "ATTACKS",
    "ExperimentResult",
    "SetResult",
    "TopicClassifierCheck",
]

#: The four inference mechanisms, in the column order of the paper's Table 3.
ATTACKS: tuple[str, ...] = ("SRauth", "SRtopic", "DRauth", "DRtopic")


#: One-sided confidence of the Clopper–Pearson bound of :class:`TopicClassifierCheck`.
TOPIC_CHECK_CONFIDENCE = 0.95


@dataclass(frozen=True)
class TopicClassifierCheck:
    """Is DRtopic's classifier clearly better than guessing?  (Its validation accuracy.)

    The topic classifier (fastText) is trained per trial and scored on held-out chunks.
    Its accuracy is **clearly above chance** when both

    * ``mean − sd`` of the per-trial validation accuracies (sample sd; with one trial just
      the mean) is above chance: the classifier is better than guessing in a typical
      trial, not only on average; and
    * the one-sided 95 % Clopper–Pearson lower bound of the pooled validation counts
      (``correct`` of ``chunks``) is above chance: the validation set is large enough to
      tell.

    Chance is what always answering the most frequent topic of the validation chunks
    scores (pooled over the trials): at least 1/#topics, more when the held-out chunks
    are unbalanced.  Otherwise DRtopic measures nothing and :attr:`clearly_above_chance`
    is False.
    """

    mean: float
    sd: float
    chance: float
    correct: int
    chunks: int
    lower: float
    clearly_above_chance: bool

    def describe(self) -> str:
        """One sentence for a report or a warning (no document text)."""
        spread = "" if math.isnan(self.sd) else f" ± {self.sd:.2f}"
        verdict = ("clearly above" if self.clearly_above_chance else "not clearly above")
        return (f"topic classifier (fastText) validation accuracy {self.mean:.2f}{spread} is "
                f"{verdict} chance ({self.chance:.2f}; lower end {self.lower:.2f}: the smaller "
                f"of mean − sd and the 95 % Clopper–Pearson bound of {self.correct}/"
                f"{self.chunks} validation chunks)")


def _clopper_pearson_lower(k: int, n: int, confidence: float = TOPIC_CHECK_CONFIDENCE) -> float:
    """One-sided lower confidence bound of a binomial proportion (0 when ``k == 0``).

    >>> round(_clopper_pearson_lower(9, 10), 3), _clopper_pearson_lower(0, 10)
    (0.606, 0.0)
    """
    if n <= 0 or k <= 0:
        return 0.0
    from scipy.stats import beta

    return float(beta.ppf(1.0 - confidence, k, n - k + 1))


@dataclass
class SetResult:
    """The results on one author set.

    ``correct[e, t, a]`` is the number of correct predictions of attack
    ``ATTACKS[a]`` at ``epsilons[e]`` in trial ``t``, out of ``n_authors`` snippets.
    """

    n_authors: int
    N: int
    doc_ids: list[str]
    authors: list[str]
    topics: list[str]
    oov_words: int
    shortest: str
    epsilons: list[float | None]
    correct: np.ndarray
    fasttext_validation: list[float]
    fasttext_docs: dict[str, int]
    nearest: list[dict[str, Any]]
    sample: dict[str, Any]
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    #: Per trial: the topic classifier's validation chunks, and the fraction of them in
    #: their most frequent topic (what always guessing that topic scores).
    fasttext_validation_chunks: list[int] = field(default_factory=list)
    fasttext_validation_majority: list[float] = field(default_factory=list)
    #: Per ε: the word recovery measured on the run's releases
    #: (:class:`~emprivacy.protection.epsilon.recovery.ReleaseRecovery`; ``None`` where not
    #: measured).
    recovery: list[Any] = field(default_factory=list)
    #: Per ε: ε̂ over the pairs (:meth:`~emprivacy.protection.Distinguishability.summary`),
    #: ``None`` for the unmodified snippets or without ``epsilon_hat``.
    epsilon_hat: list[dict[str, Any] | None] = field(default_factory=list)
    #: Per known-text mode (``"whole"``, ``"truncated"``): DRauth's (Koppel's) correct
    #: attributions of the clean snippets in each trial, so the run's choice of known texts
    #: is reported beside the other.
    clean_drauth: dict[str, list[int]] = field(default_factory=dict)
    #: The words of each author's known text as the adversary used it (the run's ``known``).
    known_words: list[int] = field(default_factory=list)
    #: Per ``"attack/view"`` of :class:`~emprivacy.evaluation.authorship.AuthorshipSuite`:
    #: the correct attributions ``[ε][trial]`` (SRauth and DRauth, ``koppel/all``, are in
    #: :attr:`correct`).
    authorship: dict[str, list[list[int]]] = field(default_factory=dict)
    #: Per ε, per trial: the meaning kept (``"similarity"``, mean cosine of original and
    #: release) and the share of content words kept (``"content_kept"``), with the method
    #: of the similarity (``"method"``; :mod:`emprivacy.evaluation.utility`).
    utility: dict[str, Any] = field(default_factory=dict)

    def author_means(self, i: int) -> dict[str, float]:
        """Mean correct attributions at ``epsilons[i]`` of every authorship attack: SRauth,
        DRauth (``koppel/all``) and the suite's columns."""
        mean = self.mean()
        out = {"SRauth": float(mean[i, 0]), "koppel/all": float(mean[i, 2])}
        out.update({c: float(np.mean(v[i])) for c, v in self.authorship.items() if v[i]})
        return out

    def topic_classifier(self) -> TopicClassifierCheck:
        """Whether the topic classifier is clearly better than guessing
        (:class:`TopicClassifierCheck`); if not, DRtopic means nothing."""
        acc = np.asarray(self.fasttext_validation, dtype=np.float64)
        chunks = np.asarray(self.fasttext_validation_chunks, dtype=np.int64)
        majority = np.asarray(self.fasttext_validation_majority, dtype=np.float64)
        n_topics = max(1, len(set(self.topics)))
        if acc.size == 0 or chunks.size != acc.size or majority.size != acc.size \
                or chunks.sum() == 0:
            mean = float(acc.mean()) if acc.size else math.nan
            return TopicClassifierCheck(mean=mean, sd=math.nan, chance=1.0 / n_topics,
                                        correct=0, chunks=0, lower=math.nan,
                                        clearly_above_chance=False)
        mean = float(acc.mean())
        sd = float(acc.std(ddof=1)) if acc.size > 1 else math.nan
        total = int(chunks.sum())
        correct = int(np.rint(acc * chunks).sum())
        chance = float((majority * chunks).sum() / total)
        lower = min(mean - (0.0 if math.isnan(sd) else sd),
                    _clopper_pearson_lower(correct, total))
        return TopicClassifierCheck(mean=mean, sd=sd, chance=chance, correct=correct,
                                    chunks=total, lower=lower,
                                    clearly_above_chance=bool(lower > chance))

    @property
    def chance(self) -> dict[str, float]:
        """Expected correct predictions of a random guess: 1 author, half the topics."""
        n_topics = len(set(self.topics))
        return {"author": 1.0, "topic": self.n_authors / n_topics}

    def mean(self) -> np.ndarray:
        """(n_eps, 4) mean correct predictions over trials."""
        return self.correct.mean(axis=1)

    def sd(self) -> np.ndarray:
        """(n_eps, 4) sample standard deviation over trials (ddof=1; NaN for one trial)."""
        if self.correct.shape[1] < 2:
            return np.full(self.correct.shape[::2], np.nan)
        return self.correct.std(axis=1, ddof=1)

    def recovery_at(self, i: int) -> Any:
        """The word recovery at ``epsilons[i]`` (``None`` if not measured)."""
        return self.recovery[i] if i < len(self.recovery) else None

    def epsilon_hat_at(self, i: int) -> dict[str, Any] | None:
        """ε̂ at ``epsilons[i]`` (``None`` if not measured)."""
        return self.epsilon_hat[i] if i < len(self.epsilon_hat) else None

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items()
             if k not in ("correct", "recovery", "epsilon_hat")}
        d["epsilons"] = [epsilon_label(e) for e in self.epsilons]
        d["chance"] = self.chance
        d["correct"] = {
            epsilon_label(e): {a: self.correct[i, :, j].tolist() for j, a in enumerate(ATTACKS)}
            for i, e in enumerate(self.epsilons)}
        d["mean"] = {epsilon_label(e): dict(zip(ATTACKS, m.tolist(), strict=True))
                     for e, m in zip(self.epsilons, self.mean(), strict=True)}
        d["sd"] = {epsilon_label(e): dict(zip(ATTACKS, [None if math.isnan(x) else x
                                                        for x in s.tolist()], strict=True))
                   for e, s in zip(self.epsilons, self.sd(), strict=True)}
        d["recovery"] = {epsilon_label(e): (None if r is None else r.to_dict())
                         for e, r in zip(self.epsilons, (self.recovery_at(i) for i in
                                                         range(len(self.epsilons))),
                                         strict=True)}
        if any(h is not None for h in self.epsilon_hat):
            d["epsilon_hat"] = {epsilon_label(e): self.epsilon_hat_at(i)
                                for i, e in enumerate(self.epsilons)}
        check = self.topic_classifier()
        d["topic_classifier"] = {k: (None if isinstance(v, float) and math.isnan(v) else v)
                                 for k, v in asdict(check).items()}
        return d


@dataclass
class ExperimentResult:
    """A whole run: the settings, the seed, one :class:`SetResult` per author set."""

    dataset: str
    config: ExperimentConfig
    seed: int
    sets: list[SetResult]
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cfg = asdict(self.config)
        cfg["epsilons"] = [epsilon_label(e) for e in self.config.epsilons]
        cfg["authors"] = list(self.config.authors)
        return {"dataset": self.dataset, "seed": self.seed, "config": cfg,
                "attacks": list(ATTACKS), "sets": [s.to_dict() for s in self.sets],
                "metadata": self.metadata}
