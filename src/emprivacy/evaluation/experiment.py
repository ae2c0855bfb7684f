"""The paper's experiment (§6, Table 3): author identification against topic classification.

For each author set, each privacy level ε and each seeded trial: obfuscate every
unknown-author snippet with the mechanism (Alg. 2; the known-author texts stay
clean — they are the adversary's knowledge), run the four attacks of
:mod:`emprivacy.evaluation.attacks`, and count correct predictions.  ``None``
as an ε means the unmodified snippets (the paper's "none" row).

Randomness: one integer ``seed`` gives the run key
(:func:`emprivacy.randomness.run_key_from_seed`); every random step draws from
its own ChaCha20 stream keyed by the run key and a name —
``"set-20/trial-3/epsilon-7.5/mechanism"``, ``".../koppel"``,
``"set-20/trial-3/fasttext"`` — so each result depends on the seed only, not on
the order of the steps, the number of threads or which other ε were run.  The
author sets depend on ``selection_seed`` alone, so they stay fixed across runs.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import platform
import secrets
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from .._validation import check_choice, check_positive_int
from ..decoding import ExactDecoder
from ..embeddings import Embeddings
from ..exceptions import PrivacyLeakWarning
from ..mechanisms import EarthMoversPrivacy
from ..randomness import document_generator, run_key_from_seed
from .attacks import (
    SIMILARITIES,
    FastTextTopicClassifier,
    KoppelAttribution,
    earth_movers_distances,
    nearest_neighbour_predict,
    write_vec,
)
from .datasets import (
    OOV_POLICIES,
    Corpus,
    PreparedSet,
    _normalised_bag,
    chunk_bag,
    prepare_set,
    select_authors,
    stratified_holdout,
    training_pool,
)

__all__ = [
    "ATTACKS",
    "DEFAULT_EPSILONS",
    "ExperimentConfig",
    "ExperimentResult",
    "SetResult",
    "epsilon_label",
    "parse_epsilons",
    "run_experiment",
]

#: The four inference mechanisms, in the column order of the paper's Table 3.
ATTACKS: tuple[str, ...] = ("SRauth", "SRtopic", "DRauth", "DRtopic")
#: The default privacy levels: the paper's (none, 30 … 10) and three stronger ones,
#: because the 50-d GloVe default is less perturbed than 300-d word2vec at equal ε.
DEFAULT_EPSILONS: tuple[float | None, ...] = (None, 30.0, 25.0, 20.0, 15.0, 10.0, 7.5, 5.0, 2.5)

Progress = Callable[[int, int, str], None]


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


@dataclass(frozen=True)
class ExperimentConfig:
    """Every setting of a run (recorded in the run JSON)."""

    authors: tuple[int, ...] = (20,)
    epsilons: tuple[float | None, ...] = DEFAULT_EPSILONS
    trials: int = 5
    oov: str = "drop"
    similarity: str = "cosine"
    selection_seed: int = 0
    known_fraction: float = 2 / 3
    knn_k: int = 5
    koppel_ngram: int = 4
    koppel_features: int = 20_000
    koppel_iterations: int = 100
    koppel_feature_fraction: float = 0.5
    fasttext_epoch: int = 25
    fasttext_lr: float = 1.0
    validation_fraction: float = 0.2
    app_b_snippets: int = 5
    app_b_neighbours: int = 3
    app_b_words: int = 11
    n_jobs: int = 1

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
        check_positive_int(self.selection_seed, "selection_seed", minimum=0)
        check_positive_int(self.knn_k, "knn_k")
        check_positive_int(self.n_jobs, "n_jobs")
        if not 0 < self.validation_fraction < 1:
            raise ValueError(f"validation_fraction must be in (0, 1); got "
                             f"{self.validation_fraction!r}")


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

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items() if k != "correct"}
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


def _versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for dist in ("emprivacy", "numpy", "scipy", "POT", "fasttext-community", "scikit-learn",
                 "randomgen", "matplotlib"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:  # pragma: no cover
            out[dist] = "not installed"
    return out


def _count(pred: Sequence[str], truth: Sequence[str]) -> int:
    return int(sum(p == t for p, t in zip(pred, truth, strict=True)))


def _obfuscate(prepared: PreparedSet, mech: EarthMoversPrivacy,
               embeddings: Embeddings) -> tuple[list[tuple[str, ...]], int]:
    """All snippets through Alg. 2 in one draw; OOV words (``keep`` only) pass unchanged."""
    positions: list[tuple[int, int]] = []
    indices: list[int] = []
    for j, snip in enumerate(prepared.snippets):
        for i, w in enumerate(snip):
            k = embeddings.get_index(w)
            if k >= 0:
                positions.append((j, i))
                indices.append(k)
    out = [list(s) for s in prepared.snippets]
    if indices:
        noisy = mech.privatize_indices(np.asarray(indices, dtype=np.int64))
        vocab = embeddings.words
        for (j, i), k in zip(positions, noisy, strict=True):
            out[j][i] = vocab[k]
    passed = sum(len(s) for s in prepared.snippets) - len(indices)
    return [tuple(s) for s in out], passed


def run_experiment(corpus: Corpus, *, embeddings: Embeddings, authors: int | Sequence[int] = 20,
                   epsilons: Sequence[float | None] | str = DEFAULT_EPSILONS, trials: int = 5,
                   oov: str = "drop", similarity: str = "cosine", seed: int | None = None,
                   selection_seed: int = 0, n_jobs: int = 1, progress: Progress | None = None,
                   **options: Any) -> ExperimentResult:
    """Run the paper's experiment (§6, Table 3) on a corpus.

    Parameters
    ----------
    corpus : Corpus
        All documents (:func:`~emprivacy.evaluation.datasets.brown`,
        :func:`~emprivacy.evaluation.datasets.load_corpus`); the author sets are drawn
        from it, and its other documents help train the topic classifier.
    embeddings : Embeddings
        ``Vec`` of the mechanism, of the SR attacks and fastText's initial vectors.
    authors : int or sequence of int, default 20
        Author-set sizes (e.g. ``(20, 50)``), each split evenly between topics.
    epsilons : sequence of float or None, or str
        Per-word privacy levels; ``None`` (``"none"``) means unmodified snippets.
    trials : int, default 5
        Seeded repetitions (noise, Koppel feature subsets, fastText training).
    oov : {"drop", "keep"}, default "drop"
        Out-of-vocabulary policy (:mod:`emprivacy.evaluation.datasets`).  ``"keep"``
        models the paper and emits a :class:`~emprivacy.PrivacyLeakWarning`.
    similarity : {"cosine", "minmax"}
        Similarity of the Koppel attack (DRauth).
    seed : int, optional
        Seed of all noise and attack randomness; ``None`` draws one from OS
        entropy, recorded in the result so the run can be repeated.
    selection_seed : int, default 0
        Seed of the author-set selection.
    n_jobs : int, default 1
        Threads for the Earth Mover's distances.
    progress : callable, optional
        ``progress(done, total, description)`` after every (set, ε, trial, attack).
    **options
        Further :class:`ExperimentConfig` fields (``knn_k``, ``koppel_features``,
        ``fasttext_epoch``, ``validation_fraction``, …).

    Returns
    -------
    ExperimentResult
    """
    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a Corpus; got {type(corpus).__name__}")
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    unknown = sorted(set(options) - set(ExperimentConfig.__dataclass_fields__))
    if unknown:
        raise TypeError(f"unexpected option(s): {', '.join(unknown)}")
    if isinstance(epsilons, str):
        epsilons = parse_epsilons(epsilons)
    config = ExperimentConfig(authors=authors if not isinstance(authors, numbers.Integral)
                              else (authors,), epsilons=tuple(epsilons), trials=trials,
                              oov=oov, similarity=similarity, selection_seed=selection_seed,
                              n_jobs=n_jobs, **options)
    if seed is None:
        seed = secrets.randbelow(2**63)
    seed = check_positive_int(seed, "seed", minimum=0)
    run_key = run_key_from_seed(seed)

    started = datetime.now(UTC)
    chosen = [select_authors(corpus, k, seed=config.selection_seed) for k in config.authors]
    prepared = [prepare_set(c, embeddings=embeddings, oov=config.oov,
                            known_fraction=config.known_fraction) for c in chosen]
    for p in prepared:
        if config.knn_k > len(p):
            raise ValueError(f"knn_k must be <= the set size ({len(p)}); got {config.knn_k}")
    leaked = sum(p.oov_words for p in prepared)
    if config.oov == "keep" and leaked:
        warnings.warn(f"oov='keep': {leaked} out-of-vocabulary snippet word(s) pass through the "
                      "mechanism unchanged, as in the paper; the εN·E guarantee does not cover "
                      "them", PrivacyLeakWarning, stacklevel=2)

    total = len(prepared) * len(config.epsilons) * config.trials * len(ATTACKS)
    done = 0

    def step(description: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total, description)

    if progress is not None:
        progress(0, total, "preparing")
    decoder = ExactDecoder(embeddings)
    results: list[SetResult] = []
    with tempfile.TemporaryDirectory(prefix="emprivacy-experiment-") as tmp:
        vec_path = write_vec(embeddings, Path(tmp) / "embeddings.vec")
        for corpus_set, p in zip(chosen, prepared, strict=True):
            results.append(_run_set(corpus, corpus_set, p, config, embeddings, decoder,
                                    run_key, vec_path, step))
    finished = datetime.now(UTC)
    metadata = {
        "started": started.isoformat(timespec="seconds"),
        "finished": finished.isoformat(timespec="seconds"),
        "seconds": round((finished - started).total_seconds(), 1),
        "versions": _versions(),
        "embeddings": {"name": embeddings.name, "words": len(embeddings), "dim": embeddings.dim,
                       "sha256": embeddings.fingerprint},
        "corpus": {"name": corpus.name, "documents": len(corpus),
                   "authors_per_topic": corpus.authors_per_topic(), "source": corpus.source},
        "oov_policy": {
            "policy": config.oov,
            "snippet_words_passed_through_unchanged": leaked if config.oov == "keep" else 0,
            "note": ("out-of-vocabulary snippet words pass through unchanged (models the paper; "
                     "not covered by the privacy guarantee)" if config.oov == "keep" else
                     "bags are built from in-vocabulary words only, so N stays fixed and every "
                     "snippet word goes through the mechanism")},
        "randomness": ("ChaCha20 streams keyed by SHA-256(run key, name); run key = "
                       "emprivacy.randomness.run_key_from_seed(seed); names "
                       "'set-K/trial-t/epsilon-e/mechanism', 'set-K/trial-t/epsilon-e/koppel', "
                       "'set-K/trial-t/fasttext'"),
    }
    return ExperimentResult(corpus.name, config, seed, results, metadata)


def _run_set(corpus: Corpus, corpus_set: Corpus, p: PreparedSet, config: ExperimentConfig,
             embeddings: Embeddings, decoder: ExactDecoder, run_key: bytes, vec_path: Path,
             step: Callable[[str], None]) -> SetResult:
    t0 = time.perf_counter()
    timings: dict[str, float] = {}

    @contextlib.contextmanager
    def _clock(phase: str) -> Iterator[None]:  # accumulates wall time per phase
        start = time.perf_counter()
        try:
            yield
        finally:
            timings[phase] = timings.get(phase, 0.0) + time.perf_counter() - start

    K = len(p)
    name = f"set-{K}"
    texts_str = [" ".join(t) for t in p.texts]
    koppel = KoppelAttribution(n=config.koppel_ngram, n_features=config.koppel_features,
                               iterations=config.koppel_iterations,
                               feature_fraction=config.koppel_feature_fraction,
                               similarity=config.similarity).fit(texts_str, p.authors)
    with _clock("earth_movers_distances"):
        clean_D = earth_movers_distances(p.snippets, p.texts, embeddings, n_jobs=config.n_jobs)

    # topic classifier data: texts holding no snippet of this set, as chunks of N words
    pool = training_pool(corpus, corpus_set, known_fraction=config.known_fraction)
    pool_bags = [(doc_id, topic, chunk_bag(_normalised_bag(text, embeddings, config.oov), p.N))
                 for doc_id, topic, text in pool]
    pool_bags = [x for x in pool_bags if x[2]]

    correct = np.zeros((len(config.epsilons), config.trials, len(ATTACKS)), dtype=np.int64)
    validation: list[float] = []
    fasttext_docs: dict[str, int] = {}
    sample_rows: list[dict[str, Any]] = []
    for t in range(config.trials):
        ft_gen = document_generator(run_key, f"{name}/trial-{t}/fasttext")
        held = stratified_holdout([topic for _, topic, _ in pool_bags],
                                  config.validation_fraction, rng=ft_gen)
        train_x, train_y, val_x, val_y = [], [], [], []
        for (_, topic, chunks), h in zip(pool_bags, held, strict=True):
            (val_x if h else train_x).extend(chunks)
            (val_y if h else train_y).extend([topic] * len(chunks))
        clf = FastTextTopicClassifier(embeddings=embeddings, epoch=config.fasttext_epoch,
                                      lr=config.fasttext_lr, pretrained_path=vec_path)
        with _clock("fasttext_training"):
            clf.fit(train_x, train_y, rng=ft_gen)
            validation.append(clf.score(val_x, val_y))
        fasttext_docs = {"train_documents": int((~held).sum()),
                         "validation_documents": int(held.sum()),
                         "train_chunks": len(train_x), "validation_chunks": len(val_x),
                         "chunk_words": p.N}
        for e, eps in enumerate(config.epsilons):
            label = epsilon_label(eps)
            where = f"{K} authors · ε={label} · trial {t + 1}/{config.trials}"
            if eps is None:
                snippets = list(p.snippets)
                D = clean_D
            else:
                mech = EarthMoversPrivacy(
                    embeddings, epsilon=eps, decoder=decoder,
                    rng=document_generator(run_key, f"{name}/trial-{t}/epsilon-{label}/mechanism"))
                with _clock("mechanism"):
                    snippets, _ = _obfuscate(p, mech, embeddings)
                with _clock("earth_movers_distances"):
                    D = earth_movers_distances(snippets, p.texts, embeddings,
                                               n_jobs=config.n_jobs)
            if t == 0:
                sample_rows.append({"epsilon": label, "words": [
                    [w, w not in embeddings] for w in snippets[0][:config.app_b_words]]})
            correct[e, t, 0] = _count(nearest_neighbour_predict(D, p.authors, k=1), p.authors)
            step(f"{where} · SRauth")
            correct[e, t, 1] = _count(nearest_neighbour_predict(D, p.topics, k=config.knn_k),
                                      p.topics)
            step(f"{where} · SRtopic")
            k_gen = document_generator(run_key, f"{name}/trial-{t}/epsilon-{label}/koppel")
            with _clock("koppel"):
                pred = koppel.predict([" ".join(s) for s in snippets], rng=k_gen)
            correct[e, t, 2] = _count(pred, p.authors)
            step(f"{where} · DRauth")
            with _clock("fasttext_prediction"):
                topic_pred = clf.predict(snippets)
            correct[e, t, 3] = _count(topic_pred, p.topics)
            step(f"{where} · DRtopic")

    # App. B: nearest known texts of sample (unmodified) snippets
    picks = sorted(set(np.linspace(0, K - 1, min(config.app_b_snippets, K)).round().astype(int)))
    nearest = []
    for j in picks:
        order = np.argsort(clean_D[j], kind="stable")[:config.app_b_neighbours]
        nearest.append({"doc_id": p.doc_ids[j], "author": p.authors[j], "neighbours": [
            {"rank": r + 1, "distance": float(clean_D[j, i]), "author": p.authors[i],
             "doc_id": p.doc_ids[i]} for r, i in enumerate(order)]})
    return SetResult(
        n_authors=K, N=p.N, doc_ids=list(p.doc_ids), authors=list(p.authors),
        topics=list(p.topics), oov_words=p.oov_words, shortest=p.shortest,
        epsilons=list(config.epsilons), correct=correct, fasttext_validation=validation,
        fasttext_docs=fasttext_docs, nearest=nearest,
        sample={"doc_id": p.doc_ids[0], "author": p.authors[0], "trial": 1,
                "rows": sample_rows},
        seconds=round(time.perf_counter() - t0, 1),
        timings={k: round(v, 2) for k, v in sorted(timings.items())})
