"""The paper's experiment (§6, Table 3): author identification against topic classification.

For each author set, each privacy level ε and each seeded trial: obfuscate every
unknown-author snippet with the mechanism (Alg. 2; the known-author texts stay
clean — they are the adversary's knowledge), run the four attacks of
:mod:`emprivacy.evaluation.attacks`, and count correct predictions.  ``None``
as an ε means the unmodified snippets (the paper's "none" row).

Randomness: one integer ``seed`` gives the run key
(:func:`emprivacy.math.randomness.run_key_from_seed`); every random step draws from
its own ChaCha20 stream keyed by the run key and a name —
``"set-20/trial-3/epsilon-7.5/mechanism"``, ``".../koppel"``,
``"set-20/trial-3/fasttext"`` — so each result depends on the seed only, not on
the order of the steps, the number of threads or which other ε were run.  The
author sets depend on ``selection_seed`` alone, so they stay fixed across runs.
"""

from __future__ import annotations

import contextlib
import inspect
import math
import platform
import secrets
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from emprivacy._validation import check_positive_int
from emprivacy.decoding import ExactDecoder
from emprivacy.embeddings.model import Embeddings
from emprivacy.evaluation.attacks import (
    FastTextTopicClassifier,
    KoppelAttribution,
    earth_movers_distances,
    nearest_neighbour_predict,
    write_vec,
)
from emprivacy.evaluation.authorship import VIEWS, AuthorshipSuite, unchanged_view_method
from emprivacy.evaluation.datasets import (
    KNOWN_TEXTS,
    Corpus,
    PreparedSet,
    chunk_bag,
    normalised_bag,
    prepare_set,
    select_authors,
    stratified_holdout,
    training_pool,
)
from emprivacy.evaluation.privacy_axes import RECOVERY_METHOD, epsilon_hats, release_recoveries
from emprivacy.evaluation.results import ATTACKS, ExperimentResult, SetResult
from emprivacy.evaluation.settings import (
    DEFAULT_EPSILONS,
    ExperimentConfig,
    epsilon_label,
    parse_epsilons,
)
from emprivacy.evaluation.snippets import (
    EntityPlan,
    SnippetEntities,
    entity_plan,
    mark_snippets,
    release_snippets,
)
from emprivacy.evaluation.text_channel import TextChannel, bags_of, release_texts, text_tokens
from emprivacy.evaluation.utility import content_words_kept, default_similarity, meaning_similarity
from emprivacy.exceptions import InputError, PrivacyLeakWarning
from emprivacy.math.randomness import document_generator, run_key_from_seed
from emprivacy.mechanisms import EarthMoversPrivacy, WordMechanism
from emprivacy.mechanisms.registry import make_mechanism, takes_decoder
from emprivacy.protection.epsilon.mechanism_study import TemTruncation, tem_truncation
from emprivacy.text.inflection import inflection_families

__all__ = ["Progress", "check_set_sizes", "run_experiment", "smallest_set"]

#: ``progress(done, total, description)``, called after every (set, ε, trial, attack).
Progress = Callable[[int, int, str], None]


def _versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for dist in ("emprivacy", "numpy", "scipy", "POT", "fasttext-community", "scikit-learn",
                 "randomgen", "matplotlib"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:  # pragma: no cover
            out[dist] = "not installed"
    return out


def smallest_set(n_topics: int, knn_k: int = 5) -> int:
    """The smallest author set the experiment can run: ``knn_k`` rounded up to a multiple of
    ``n_topics``.

    SRtopic votes among the ``knn_k`` nearest known-author texts of the set, so a set needs
    at least ``knn_k`` of them, and a set is split evenly between the topics.

    >>> smallest_set(2), smallest_set(3, knn_k=5), smallest_set(2, knn_k=3)
    (6, 6, 4)
    """
    n_topics = check_positive_int(n_topics, "n_topics")
    knn_k = check_positive_int(knn_k, "knn_k")
    return max(2, n_topics * math.ceil(knn_k / n_topics))


def check_set_sizes(sizes: Iterable[int], *, n_topics: int, knn_k: int = 5) -> None:
    """Refuse, before any work, an author-set size smaller than ``knn_k``, naming the
    smallest size that works (:func:`smallest_set`).

    A size of at least ``knn_k`` that does not split evenly between the topics is left
    to :func:`~emprivacy.evaluation.datasets.select_authors`, which names that problem.

    Raises
    ------
    InputError
        Naming the smallest size that works and why (a user's mistake: exit code 2).
    """
    smallest = smallest_set(n_topics, knn_k)
    for size in sizes:
        if size < knn_k:
            raise InputError(
                f"authors must be >= {smallest}: SRtopic votes among the {knn_k} nearest "
                f"known-author texts of the set, and a set is split evenly between the "
                f"{n_topics} topics; got {size}")


def _count(pred: Sequence[str], truth: Sequence[str]) -> int:
    return int(sum(p == t for p, t in zip(pred, truth, strict=True)))


def _mechanism(config: ExperimentConfig, embeddings: Embeddings, epsilon: float,
               decoder: ExactDecoder, rng: np.random.Generator) -> WordMechanism:
    """The run's mechanism at ``epsilon``; nearest-word mechanisms share one exact decoder."""
    if config.mechanism == "madlib" and not config.mechanism_params:
        return EarthMoversPrivacy(embeddings, epsilon=epsilon, decoder=decoder, rng=rng)
    params = dict(config.mechanism_params)
    if takes_decoder(config.mechanism):
        params.setdefault("decoder", decoder)
    return make_mechanism(config.mechanism, embeddings, epsilon=epsilon, rng=rng, **params)


def _tem_truncation(config: ExperimentConfig, embeddings: Embeddings,
                    prepared: Sequence[PreparedSet]) -> list[TemTruncation]:
    """For TEM: at each ε, for how many distinct snippet words its truncation is active
    (for the others TEM is SanText exactly); nothing for the other mechanisms."""
    if config.mechanism != "tem":
        return []
    from emprivacy.mechanisms.tem import TruncatedExponential

    beta = config.mechanism_params.get(
        "beta", inspect.signature(TruncatedExponential).parameters["beta"].default)
    rows = np.unique(np.concatenate([embeddings.rows(s) for p in prepared for s in p.snippets]
                                    or [np.zeros(0, dtype=np.int64)]))
    return tem_truncation(embeddings, epsilons=[e for e in config.epsilons if e is not None],
                          beta=beta, rows=rows[rows >= 0])


def _obfuscate(prepared: PreparedSet, mech: WordMechanism, embeddings: Embeddings
               ) -> tuple[list[tuple[str, ...]], int, tuple[np.ndarray, np.ndarray]]:
    """All snippets through Alg. 2 in one draw (:func:`release_snippets`, no entities)."""
    return release_snippets(prepared, mech, embeddings)


def run_experiment(corpus: Corpus, *, embeddings: Embeddings, authors: int | Sequence[int] = 20,
                   epsilons: Sequence[float | None] | str = DEFAULT_EPSILONS, trials: int = 5,
                   oov: str = "drop", similarity: str = "cosine", seed: int | None = None,
                   selection_seed: int = 0, n_jobs: int = 1, progress: Progress | None = None,
                   **options: Any) -> ExperimentResult:
    """Run the paper's experiment (§6, Table 3) on a corpus.

    Parameters
    ----------
    corpus : Corpus
        All documents (:func:`~emprivacy.evaluation.brown_corpus.brown`,
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
        Further :class:`ExperimentConfig` fields (``known``: ``"whole"``, the default, or
        ``"truncated"`` known texts (App. B); ``knn_k``, ``known_fraction``,
        ``koppel``, ``fasttext``, ``appendix_b``: the last three settings objects
        or dicts of their fields).

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
    sizes = tuple(authors) if isinstance(authors, Iterable) else (authors,)
    config = ExperimentConfig(authors=sizes, epsilons=tuple(epsilons), trials=trials,
                              oov=oov, similarity=similarity, selection_seed=selection_seed,
                              n_jobs=n_jobs, **options)
    if seed is None:
        seed = secrets.randbelow(2**63)
    seed = check_positive_int(seed, "seed", minimum=0)
    run_key = run_key_from_seed(seed)

    if len(corpus.topics) >= 2:  # fewer: select_authors names that problem
        check_set_sizes(config.authors, n_topics=len(corpus.topics), knn_k=config.knn_k)
    started = datetime.now(UTC)
    chosen = [select_authors(corpus, k, seed=config.selection_seed) for k in config.authors]
    prepared = [prepare_set(c, embeddings=embeddings, oov=config.oov, lang=config.lang,
                            known_fraction=config.known_fraction, known=config.known)
                for c in chosen]
    leaked = sum(p.oov_words for p in prepared)
    if config.oov == "keep" and leaked:
        warnings.warn(f"oov='keep': {leaked} out-of-vocabulary snippet word(s) pass through the "
                      "mechanism unchanged, as in the paper; the εN·E guarantee does not cover "
                      "them", PrivacyLeakWarning, stacklevel=2)

    truncation = _tem_truncation(config, embeddings, prepared)
    total = len(prepared) * len(config.epsilons) * config.trials * len(ATTACKS)
    if config.epsilon_hat:
        total += len(prepared) * sum(e is not None for e in config.epsilons)
    done = 0

    def step(description: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total, description)

    if progress is not None:
        progress(0, total, "preparing")
    decoder = ExactDecoder(embeddings)
    plan = None if config.channel == "text" else entity_plan(  # text: the obfuscator's own
        config.entities, config.entity_epsilon, config.entity_policy,
        _mechanism(config, embeddings, 1.0, decoder, np.random.default_rng(0)), lang=config.lang)
    marks = [None if plan is None else mark_snippets(
        c, p, plan, embeddings, known_fraction=config.known_fraction)
        for c, p in zip(chosen, prepared, strict=True)]
    results: list[SetResult] = []
    with tempfile.TemporaryDirectory(prefix="emprivacy-experiment-") as tmp:
        vec_path = write_vec(embeddings, Path(tmp) / "embeddings.vec")
        for corpus_set, p, m in zip(chosen, prepared, marks, strict=True):
            results.append(_run_set(corpus, corpus_set, p, config, embeddings, decoder,
                                    run_key, vec_path, step, (plan, m)))
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
        **({"tem_truncation": [asdict(t) for t in truncation]} if truncation else {}),
        "randomness": ("ChaCha20 streams keyed by SHA-256(run key, name); run key = "
                       "emprivacy.math.randomness.run_key_from_seed(seed); names "
                       "'set-K/trial-t/epsilon-e/mechanism', 'set-K/trial-t/epsilon-e/koppel', "
                       "'set-K/trial-t/epsilon-e/authorship' (the further authorship attacks), "
                       "'set-K/trial-t/fasttext', 'set-K/trial-t/clean-koppel-KNOWN' (the clean "
                       "DRauth with the known texts the run did not use), "
                       "'set-K/epsilon-e/recovery' (the split of the word recovery), "
                       "'set-K/epsilon-hat-pairs', "
                       "'set-K/epsilon-e/mechanism-hat', 'set-K/epsilon-e/epsilon-hat' (the "
                       "pairs and releases of epsilon-hat)"),
        "recovery": RECOVERY_METHOD,
        "unchanged_view": unchanged_view_method(config.lang),
        **({} if plan is None else {"entities": {**plan.metadata(), "sets": {
            f"set-{len(p)}": m.counts() for p, m in zip(prepared, marks, strict=True)
            if m is not None}}}),
    }
    return ExperimentResult(corpus.name, config, seed, results, metadata)


def _run_set(corpus: Corpus, corpus_set: Corpus, p: PreparedSet, config: ExperimentConfig,
             embeddings: Embeddings, decoder: ExactDecoder, run_key: bytes, vec_path: Path,
             step: Callable[[str], None],
             entities: tuple[EntityPlan | None, SnippetEntities | None] = (None, None)
             ) -> SetResult:
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
    text = (TextChannel.build(corpus_set, known_fraction=config.known_fraction, lang=config.lang)
            if config.channel == "text" else None)
    known_docs = p.known_texts if text is None else text.known  # what the author attacks read
    clean_docs = p.snippets if text is None else text.snippet_tokens
    koppels = {known: KoppelAttribution(
        n=config.koppel.ngram, n_features=config.koppel.features,
        iterations=config.koppel.iterations, feature_fraction=config.koppel.feature_fraction,
        similarity=config.similarity).fit([" ".join(t) for t in known_docs(known)], p.authors)
        for known in KNOWN_TEXTS}
    koppel = koppels[config.known]
    # the unchanged view counts a word's English inflections (other languages: none)
    families = inflection_families() if config.lang == "en" else None
    suite = AuthorshipSuite(known_docs(config.known), p.authors, koppel=koppel,
                            views=VIEWS if text is not None else ("all", "unchanged"),
                            exclude=("koppel/all",), lang=config.lang,  # koppel/all: DRauth
                            same=None if families is None else families.same)
    authorship: dict[str, list[list[int]]] = {c: [[] for _ in config.epsilons]
                                              for c in suite.columns}
    clean_drauth: dict[str, list[int]] = {known: [] for known in KNOWN_TEXTS}
    meaning = config.meaning if config.meaning != "auto" else (  # MiniLM reads English
        default_similarity() if config.lang == "en" else "word-vector")
    utility: dict[str, Any] = {"method": meaning, **{k: [[] for _ in config.epsilons]
                                                     for k in ("similarity", "content_kept")}}
    with _clock("earth_movers_distances"):
        clean_D = earth_movers_distances(p.snippets, p.texts, embeddings, n_jobs=config.n_jobs)

    # topic classifier data: texts holding no snippet of this set, as chunks of N words
    pool = training_pool(corpus, corpus_set, known_fraction=config.known_fraction,
                         lang=config.lang)
    pool_bags = [(doc_id, topic, chunk_bag(normalised_bag(
        text, embeddings, oov=config.oov, lang=config.lang), p.N)) for doc_id, topic, text in pool]
    pool_bags = [x for x in pool_bags if x[2]]

    correct = np.zeros((len(config.epsilons), config.trials, len(ATTACKS)), dtype=np.int64)
    validation: list[float] = []
    validation_chunks: list[int] = []
    validation_majority: list[float] = []
    fasttext_docs: dict[str, int] = {}
    sample_rows: list[dict[str, Any]] = []
    #: per ε: (original rows, released rows) of every word through the mechanism, per trial
    released: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in config.epsilons]
    for t in range(config.trials):
        ft_gen = document_generator(run_key, f"{name}/trial-{t}/fasttext")
        held = stratified_holdout([topic for _, topic, _ in pool_bags],
                                  config.fasttext.validation_fraction, rng=ft_gen)
        train_x: list[tuple[str, ...]] = []
        val_x: list[tuple[str, ...]] = []
        train_y: list[str] = []
        val_y: list[str] = []
        for (_, topic, chunks), h in zip(pool_bags, held, strict=True):
            (val_x if h else train_x).extend(chunks)
            (val_y if h else train_y).extend([topic] * len(chunks))
        clf = FastTextTopicClassifier(embeddings=embeddings, epoch=config.fasttext.epoch,
                                      lr=config.fasttext.lr, pretrained_path=vec_path)
        with _clock("fasttext_training"):
            clf.fit(train_x, train_y, rng=ft_gen)
            validation.append(clf.score(val_x, val_y))
        validation_chunks.append(len(val_y))
        validation_majority.append(max(Counter(val_y).values()) / len(val_y))
        fasttext_docs = {"train_documents": int((~held).sum()),
                         "validation_documents": int(held.sum()),
                         "train_chunks": len(train_x), "validation_chunks": len(val_x),
                         "chunk_words": p.N}
        for known, attack in koppels.items():  # the clean DRauth with either known text
            clean_drauth[known].append(_count(attack.predict(
                [" ".join(s) for s in clean_docs], rng=document_generator(
                    run_key, f"{name}/trial-{t}/epsilon-none/koppel" if known == config.known
                    else f"{name}/trial-{t}/clean-koppel-{known}")), p.authors))
        for e, eps in enumerate(config.epsilons):
            label = epsilon_label(eps)
            where = f"{K} authors · ε={label} · trial {t + 1}/{config.trials}"
            docs: Sequence[Sequence[str]] = clean_docs
            if eps is None:
                snippets = list(p.snippets)
                D = clean_D
            else:
                mech = _mechanism(config, embeddings, eps, decoder, document_generator(
                    run_key, f"{name}/trial-{t}/epsilon-{label}/mechanism"))
                plan, marks = entities
                with _clock("mechanism"):
                    if text is not None:  # as obfuscate --format text releases them
                        out = release_texts(text, mech, run_key=run_key, entities=config.
                                            text_entities(), name=f"{name}/trial-{t}/"
                                            f"epsilon-{label}/text")
                        docs = [text_tokens(x, lang=config.lang) for x in out]
                        snippets = bags_of(out, embeddings, p.N, lang=config.lang)
                    else:
                        snippets, _, through = release_snippets(
                            p, mech, embeddings, None if plan is None or marks is None else (
                                plan, marks, document_generator(
                                    run_key, f"{name}/trial-{t}/epsilon-{label}/entities")))
                        released[e].append(through)
                        docs = snippets
                with _clock("earth_movers_distances"):
                    D = earth_movers_distances(snippets, p.texts, embeddings,
                                               n_jobs=config.n_jobs)
            if t == 0:
                first = snippets[0][:config.appendix_b.words]
                sample_rows.append({"epsilon": label, "words": [
                    [w, bool(k < 0)] for w, k in zip(first, embeddings.rows(first), strict=True)]})
            correct[e, t, 0] = _count(nearest_neighbour_predict(D, p.authors, k=1), p.authors)
            step(f"{where} · SRauth")
            correct[e, t, 1] = _count(nearest_neighbour_predict(D, p.topics, k=config.knn_k),
                                      p.topics)
            step(f"{where} · SRtopic")
            k_gen = document_generator(run_key, f"{name}/trial-{t}/epsilon-{label}/koppel")
            with _clock("koppel"):
                pred = koppel.predict([" ".join(s) for s in docs], rng=k_gen)
            correct[e, t, 2] = _count(pred, p.authors)
            with _clock("authorship"):
                for column, n in suite.correct(clean_docs, docs, p.authors, rng=(
                        document_generator(run_key, f"{name}/trial-{t}/epsilon-{label}/"
                                                    "authorship"))).items():
                    authorship[column][e].append(n)
            with _clock("utility"):
                utility["similarity"][e].append(meaning_similarity(
                    clean_docs, docs, method=meaning, embeddings=embeddings))
                utility["content_kept"][e].append(content_words_kept(clean_docs, docs,
                                                                     lang=config.lang))
            step(f"{where} · DRauth")
            with _clock("fasttext_prediction"):
                topic_pred = clf.predict(snippets)
            correct[e, t, 3] = _count(topic_pred, p.topics)
            step(f"{where} · DRtopic")

    with _clock("recovery"):
        recovery = release_recoveries(p, config.epsilons, embeddings, released, run_key, name)
    hats: list[dict[str, Any] | None] = [None] * len(config.epsilons)
    if config.epsilon_hat:
        with _clock("epsilon_hat"):
            hats = epsilon_hats(p, config, embeddings, lambda e, g: _mechanism(
                config, embeddings, e, decoder, g), run_key, name, step)

    # App. B: nearest known texts of sample (unmodified) snippets
    shown = min(config.appendix_b.snippets, K)
    picks = sorted(set(np.linspace(0, K - 1, shown).round().astype(int)))
    nearest = []
    for j in picks:
        order = np.argsort(clean_D[j], kind="stable")[:config.appendix_b.neighbours]
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
        timings={k: round(v, 2) for k, v in sorted(timings.items())},
        fasttext_validation_chunks=validation_chunks,
        fasttext_validation_majority=validation_majority,
        recovery=recovery, epsilon_hat=hats, clean_drauth=clean_drauth, authorship=authorship,
        utility=utility,
        known_words=[len(t) for t in p.texts])
