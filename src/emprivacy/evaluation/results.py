"""What a run of the experiment is and what it records: settings, counts, ε labels.

:class:`ExperimentConfig` holds every setting of a run, :class:`SetResult` the
counts of correct predictions on one author set (``correct[ε, trial, attack]``)
and :class:`ExperimentResult` a whole run; their ``to_dict`` is the run JSON.
The runner is :func:`emprivacy.evaluation.experiment.run_experiment`, the
report writer :func:`emprivacy.evaluation.report.write_report`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from emprivacy._validation import check_choice, check_epsilon, check_positive_int
from emprivacy.entities.policy import DEFAULT_ENTITY_EPSILON, parse_entity_policies
from emprivacy.entities.registry import check_entities
from emprivacy.evaluation.attacks import SIMILARITIES
from emprivacy.evaluation.datasets import KNOWN_TEXTS, OOV_POLICIES
from emprivacy.mechanisms.registry import MECHANISMS, check_params

__all__ = [
    "ATTACKS",
    "DEFAULT_EPSILONS",
    "AppendixBSettings",
    "ExperimentConfig",
    "ExperimentResult",
    "FastTextSettings",
    "KoppelSettings",
    "SetResult",
    "TopicClassifierCheck",
    "epsilon_label",
    "parse_epsilons",
]

#: The four inference mechanisms, in the column order of the paper's Table 3.
ATTACKS: tuple[str, ...] = ("SRauth", "SRtopic", "DRauth", "DRtopic")
#: The default privacy levels: the paper's (none, 30 … 10) and three stronger ones,
#: because the 50-d GloVe default is less perturbed than 300-d word2vec at equal ε.
DEFAULT_EPSILONS: tuple[float | None, ...] = (None, 30.0, 25.0, 20.0, 15.0, 10.0, 7.5, 5.0, 2.5)


def epsilon_label(epsilon: float | None) -> str:
    """``"none"`` for the unmodified snippets, else ε in its shortest form.

    >>> epsilon_label(None), epsilon_label(30.0), epsilon_label(7.5)
    ('none', '30', '7.5')
    """
    return "none" if epsilon is None else f"{epsilon:g}"


def parse_epsilons(spec: str) -> tuple[float | None, ...]:
    """Parse ``"none,30,7.5"`` into ``(None, 30.0, 7.5)``.

    >>> parse_epsilons("none, 30,7.5")
    (None, 30.0, 7.5)
    """
    if not isinstance(spec, str):
        raise TypeError(f"epsilons must be a comma-separated str; got {type(spec).__name__}")
    out: list[float | None] = []
    for item in spec.split(","):
        item = item.strip()
        if item.lower() == "none":
            out.append(None)
            continue
        try:
            value = float(item)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value <= 0:
            raise ValueError(f"epsilons must be 'none' or finite numbers > 0, comma-separated; "
                             f"got {item!r}")
        out.append(value)
    return _check_epsilons(out)


def _check_epsilons(epsilons: Sequence[float | None]) -> tuple[float | None, ...]:
    if isinstance(epsilons, str):
        return parse_epsilons(epsilons)
    out: list[float | None] = []
    for e in epsilons:
        if e is None:
            out.append(None)
            continue
        if isinstance(e, bool) or not isinstance(e, numbers.Real):
            raise TypeError(f"epsilons must be None or finite numbers > 0; got {e!r}")
        if not math.isfinite(float(e)) or float(e) <= 0:
            raise ValueError(f"epsilons must be None or finite numbers > 0; got {e!r}")
        out.append(float(e))
    if not out:
        raise ValueError("epsilons must hold at least one value; got none")
    labels = [epsilon_label(e) for e in out]
    dup = next((x for x in labels if labels.count(x) > 1), None)
    if dup is not None:
        raise ValueError(f"epsilons must be distinct; {dup!r} appears twice")
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class AppendixBSettings:
    """What the App. B tables show.

    Attributes
    ----------
    snippets, neighbours, words : int
        How many sample snippets are shown with their nearest known texts, how
        many of those each shows, and how many first words of one snippet are
        shown at each ε.
    """

    snippets: int = 5
    neighbours: int = 3
    words: int = 11

    def __post_init__(self) -> None:
        for name in ("snippets", "neighbours", "words"):
            check_positive_int(getattr(self, name), f"appendix_b.{name}")


@dataclass(frozen=True, kw_only=True)
class KoppelSettings:
    """DRauth (Koppel et al. 2011, App. B of the paper).

    Attributes
    ----------
    ngram : int
        Character n-gram length.
    features : int
        How many of the most frequent n-grams are the features.
    iterations : int
        Rounds of the vote.
    feature_fraction : float
        Fraction of the features kept in each round, in (0, 1].
    """

    ngram: int = 4
    features: int = 20_000
    iterations: int = 100
    feature_fraction: float = 0.5

    def __post_init__(self) -> None:
        check_positive_int(self.ngram, "koppel.ngram")
        check_positive_int(self.features, "koppel.features")
        check_positive_int(self.iterations, "koppel.iterations")
        if not 0 < self.feature_fraction <= 1:
            raise ValueError(f"koppel.feature_fraction must be in (0, 1]; got "
                             f"{self.feature_fraction!r}")


@dataclass(frozen=True, kw_only=True)
class FastTextSettings:
    """DRtopic (fastText, App. B of the paper).

    Attributes
    ----------
    epoch : int
        Training epochs.
    lr : float
        Learning rate.
    validation_fraction : float
        Fraction of the classifier's training documents held out to report its
        accuracy (stratified, drawn per trial), in (0, 1).
    """

    epoch: int = 25
    lr: float = 1.0
    validation_fraction: float = 0.2

    def __post_init__(self) -> None:
        check_positive_int(self.epoch, "fasttext.epoch")
        if not self.lr > 0:
            raise ValueError(f"fasttext.lr must be a number > 0; got {self.lr!r}")
        if not 0 < self.validation_fraction < 1:
            raise ValueError(f"fasttext.validation_fraction must be in (0, 1); got "
                             f"{self.validation_fraction!r}")


@dataclass(frozen=True)
class ExperimentConfig:
    """Every setting of a run (recorded in the run JSON, in this order)."""

    #: Author-set sizes (``(20, 50)``: both halves of Table 3), each split evenly by topic.
    authors: tuple[int, ...] = (20,)
    #: Per-word privacy levels; ``None`` is the unmodified snippets.
    epsilons: tuple[float | None, ...] = DEFAULT_EPSILONS
    #: Seeded repetitions of the noise and of the randomised attacks.
    trials: int = 5
    #: Out-of-vocabulary policy, ``"drop"`` or ``"keep"`` (:mod:`emprivacy.evaluation.datasets`).
    oov: str = "drop"
    #: Similarity of DRauth, ``"cosine"`` (the paper) or ``"minmax"`` (its code).
    similarity: str = "cosine"
    #: Seed of the author-set selection, so the sets stay fixed across runs.
    selection_seed: int = 0
    #: Fraction of an author's words in the known text; the rest is the snippet
    #: (App. B: the first 2000 and the last 1000 words).
    known_fraction: float = 2 / 3
    #: What the adversary knows of each author: its ``"whole"`` known text (the default:
    #: an adversary at full strength) or that text ``"truncated"`` to N words (App. B).
    known: str = "whole"
    #: What is released and attacked: ``"bag"`` (the paper's bags of N words) or ``"text"``
    #: (``obfuscate --format text``'s release; :mod:`emprivacy.evaluation.text_channel`).
    channel: str = "bag"
    #: How the meaning kept is measured (:mod:`emprivacy.evaluation.utility`):
    #: ``"auto"`` (sentence embeddings where the ``similarity`` extra is installed, else
    #: word vectors), ``"sentence-embedding"`` or ``"word-vector"``.
    meaning: str = "auto"
    #: Neighbours of SRtopic (SRauth is 1-NN).
    knn_k: int = 5
    #: Settings of DRauth (Koppel et al. 2011).
    koppel: KoppelSettings = field(default_factory=lambda: KoppelSettings())
    #: Settings of DRtopic (fastText).
    fasttext: FastTextSettings = field(default_factory=lambda: FastTextSettings())
    #: What the App. B tables show.
    appendix_b: AppendixBSettings = field(default_factory=lambda: AppendixBSettings())
    #: Threads for the Earth Mover's distances.
    n_jobs: int = 1
    #: The mechanism (:data:`emprivacy.mechanisms.MECHANISMS`) and its own parameters.
    mechanism: str = "madlib"
    mechanism_params: dict[str, Any] = field(default_factory=dict)
    #: Pairs of snippet words whose ε̂ (a lower bound on the privacy loss,
    #: :func:`emprivacy.protection.distinguish_pairs`) is measured at each ε; 0: none.
    epsilon_hat: int = 0
    #: Releases of each word of an ε̂ pair.
    epsilon_hat_draws: int = 2000
    #: Entity detection of the snippets (:mod:`emprivacy.evaluation.entities`): ``"none"``,
    #: ``"auto"`` or a comma list of detectors, as ``obfuscate --entities`` spells it.
    entities: str = "none"
    #: ε_e of a privatised entity word, once per distinct entity word of a snippet.
    entity_epsilon: float = DEFAULT_ENTITY_EPSILON
    #: Policies per type overriding the defaults, as sorted ``(TYPE, POLICY)`` pairs (a
    #: mapping or ``"TYPE=POLICY"`` strings are accepted).
    entity_policy: Any = ()
    #: The text channel's style option: ε_f of each kept function word (obfuscation.style).
    style_epsilon: float | None = None

    def text_entities(self) -> dict[str, Any]:
        """The entity and style settings of a text-channel release (``ObfuscationConfig``)."""
        style = {} if self.style_epsilon is None else {"style_epsilon": self.style_epsilon}
        if self.entities == "none":
            return style
        return {"entities": self.entities, "entity_epsilon": self.entity_epsilon,
                "entity_policy": dict(self.entity_policy), **style}

    def __post_init__(self) -> None:
        authors = self.authors
        if isinstance(authors, numbers.Integral):
            authors = (authors,)
        authors = tuple(check_positive_int(a, "authors", minimum=2) for a in authors)
        if not authors or len(set(authors)) != len(authors):
            raise ValueError(f"authors must be distinct set sizes; got {list(authors)}")
        object.__setattr__(self, "authors", authors)
        object.__setattr__(self, "epsilons", _check_epsilons(self.epsilons))
        check_positive_int(self.trials, "trials")
        check_choice(self.oov, "oov", OOV_POLICIES)
        check_choice(self.similarity, "similarity", SIMILARITIES)
        check_choice(self.known, "known", KNOWN_TEXTS)
        check_choice(self.channel, "channel", ("bag", "text"))
        check_choice(self.meaning, "meaning", ("auto", "sentence-embedding", "word-vector"))
        check_positive_int(self.selection_seed, "selection_seed", minimum=0)
        check_positive_int(self.knn_k, "knn_k")
        check_positive_int(self.n_jobs, "n_jobs")
        check_positive_int(self.epsilon_hat, "epsilon_hat", minimum=0)
        check_positive_int(self.epsilon_hat_draws, "epsilon_hat_draws", minimum=2)
        check_choice(self.mechanism, "mechanism", tuple(MECHANISMS))
        if not isinstance(self.mechanism_params, dict):
            raise TypeError(f"mechanism_params must be a dict; got "
                            f"{type(self.mechanism_params).__name__}")
        check_params(self.mechanism, sorted(self.mechanism_params))
        object.__setattr__(self, "entities", check_entities(self.entities))
        object.__setattr__(self, "entity_epsilon", check_epsilon(self.entity_epsilon))
        if self.style_epsilon is not None:  # the style option: the text channel's only
            check_choice(self.channel, "channel of style_epsilon", ("text",))
            object.__setattr__(self, "style_epsilon", check_epsilon(self.style_epsilon))
        policy = self.entity_policy
        if isinstance(policy, str):
            raise TypeError("entity_policy must be a mapping or 'TYPE=POLICY' strings, not a "
                            "single str")
        items = policy.items() if isinstance(policy, dict) else policy
        pairs = [p if isinstance(p, str) else "=".join(map(str, p)) for p in items]
        object.__setattr__(self, "entity_policy",
                           tuple(sorted(parse_entity_policies(pairs).items())))
        for name, kind in (("koppel", KoppelSettings), ("fasttext", FastTextSettings),
                           ("appendix_b", AppendixBSettings)):
            value = getattr(self, name)
            if isinstance(value, dict):
                object.__setattr__(self, name, kind(**value))
            elif not isinstance(value, kind):
                raise TypeError(f"{name} must be a {kind.__name__} or a dict; got "
                                f"{type(value).__name__}")


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
