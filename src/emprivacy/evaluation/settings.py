"""The settings of a run of the experiment: ε labels, the attacks' settings and
:class:`ExperimentConfig`, every setting of a run (recorded in the run JSON).

The runner is :func:`emprivacy.evaluation.experiment.run_experiment`; what a run records is
:mod:`emprivacy.evaluation.results`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from emprivacy._validation import check_choice, check_epsilon, check_positive_int
from emprivacy.entities.policy import DEFAULT_ENTITY_EPSILON, parse_entity_policies
from emprivacy.entities.registry import check_entities
from emprivacy.evaluation.attacks import SIMILARITIES
from emprivacy.evaluation.datasets import KNOWN_TEXTS, OOV_POLICIES
from emprivacy.mechanisms.registry import MECHANISMS, check_params
from emprivacy.text.language import get_language

__all__ = [
    "DEFAULT_EPSILONS",
    "AppendixBSettings",
    "ExperimentConfig",
    "FastTextSettings",
    "KoppelSettings",
    "epsilon_label",
    "parse_epsilons",
]

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
    #: ``"auto"`` (sentence embeddings where the ``similarity`` extra is installed and the
    #: language is English, else word vectors), ``"sentence-embedding"`` or ``"word-vector"``.
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
    #: The corpus's language (:mod:`emprivacy.text.language`): its tokenising, stopwords,
    #: function words (text mode, the attacks' function-word view) and entity detectors.
    lang: str = "en"

    def text_entities(self) -> dict[str, Any]:
        """The language, entity and style settings of a text-channel release
        (``ObfuscationConfig``)."""
        style: dict[str, Any] = ({} if self.style_epsilon is None
                                 else {"style_epsilon": self.style_epsilon})
        if self.lang != "en":
            style["lang"] = self.lang
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
        object.__setattr__(self, "lang", get_language(self.lang).code)
        if self.meaning == "sentence-embedding" and self.lang != "en":
            raise ValueError("meaning 'sentence-embedding' reads English (all-MiniLM-L6-v2); "
                             f"with lang={self.lang!r} use 'word-vector' or 'auto'")
        if self.style_epsilon is not None and self.lang != "en":
            raise ValueError("style_epsilon applies to English text: the function-word "
                             f"classes of lang={self.lang!r} are not written")
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
