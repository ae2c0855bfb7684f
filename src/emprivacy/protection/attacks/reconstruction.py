"""The reconstruction attack: what an adversary gets back from a released corpus.

The word audit (:mod:`emprivacy.protection.leakage.audit`) asks how well the Bayes-optimal
guesser recovers *one* word from its release.  This attack releases a corpus the way a
user would (:class:`~emprivacy.obfuscation.Obfuscator`, text mode or bags, seeded) and
tries to get every released content word back, as an adversary who sees the release,
knows the mechanism, its ε and the prior π over the secret words S, and has a language
model of text like the user's:

* for a released word y at a slot, each candidate original x ∈ S is scored
  ``log π(x) + log C[x, y] + w · log P(context | x)`` — with w = 1, the posterior of x
  given y and its context if the context and y are independent given x; the adversary
  picks w ∈ :data:`CONTEXT_WEIGHTS` by attacking a release of half its own reference
  with a model fitted on the other half (a model of little text is over-confident);
* ``C[x, y]`` is the word channel of :mod:`emprivacy.protection.leakage.channel` (exact for
  SanText and TEM; for the others estimated from ``draws`` releases of every secret,
  independent of the release attacked; a candidate never seen to give y is dropped, and
  if no secret was, the channel is taken as uniform);
* the context is the released text around the slot (text mode keeps layout and
  function words): the ``order − 1`` tokens each side, a neighbouring released content
  word read as its channel-only best guess; ``log P(context | x)`` comes from an
  :class:`~emprivacy.protection.attacks.ngram.NgramModel` fitted on a reference corpus (by
  default the other half of the user's corpus, split by document, seeded), or from any
  :class:`~emprivacy.protection.attacks.context.ContextScorer` the caller plugs in;
* a bag has no context: its attack is ``π(x) · C[x, y]`` alone.

The context reranks the ``candidates`` best secrets by ``π · C``.  Each released
content word (a slot whose original is a content word,
:func:`~emprivacy.protection.leakage.secrets.is_content_word`) counts
as recovered if the top guess is its original (exact) or the original is among the top
five (top-5); an original outside S is never recovered.  Rates come with
Clopper–Pearson intervals, beside three baselines — ``π · C`` without context
(``channel_only``), ``π`` × context among the ``candidates`` most probable secrets,
the released word ignored (``context_only``, text mode), and ``π`` alone
(``prior_only``) — and per class of word: ``frequent`` (an original among the first
``frequent`` secrets, the corpus's most frequent content words), ``rare`` (the others,
words outside S included) and ``capitalised`` (written Title or UPPER case); a release
made with entity detection (``entities``) adds ``entity``: its entity slots, attacked with
their type's channel (:mod:`._entities`).

The attack is in parts: its settings, checked before any work (here); the corpus, read
and split (:mod:`.corpus`); the adversary's context (:mod:`.context`, with :mod:`.ngram`);
the release and its truth, and the ranking of candidates (``_release``, ``_ranking``);
what it returns and how that is written (:mod:`.reconstruction_report`).
"""

from __future__ import annotations

import secrets as _secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from emprivacy._validation import check_choice, check_nonnegative_number, check_positive_int
from emprivacy.exceptions import InputError
from emprivacy.io.documents import Document
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.protection.attacks._entities import (
    EntityCandidates,
    entity_options,
    entity_summary,
)
from emprivacy.protection.attacks._ranking import (
    NEVER,
    Candidates,
    context_ranks,
    prior_order,
    rank_of_truth,
    score_release,
)
from emprivacy.protection.attacks._release import release_corpus
from emprivacy.protection.attacks.context import (
    ContextScorer,
    _custom_context,
    _ngram_context,
    fit_context_model,
)
from emprivacy.protection.attacks.corpus import _check_documents, split_corpus
from emprivacy.protection.attacks.ngram import NgramModel
from emprivacy.protection.attacks.reconstruction_report import Reconstruction, RecoveryRate
from emprivacy.protection.leakage.channel import Progress, has_exact_channel
from emprivacy.protection.leakage.entity_secrets import EntityOptions, detect_entity_words
from emprivacy.protection.leakage.secrets import Secrets
from emprivacy.protection.leakage.vulnerability import _check_confidence, clopper_pearson
from emprivacy.protection.report import Estimate

__all__ = ["MODES", "reconstruction_attack"]

#: What a release is: readable text (layout kept) or a bag of words.
MODES = ("text", "bag")
#: The top-k of the "top-5" recovery rate.
TOP = 5
#: Candidates per slot that the context reranks (the best by π · C).
DEFAULT_CANDIDATES = 50
#: Secrets (most frequent first) whose words count as "frequent".
DEFAULT_FREQUENT = 100
#: Tokens each side given to a plugged-in scorer.
DEFAULT_WINDOW = 16
#: The guessers, in report order.
GUESSERS = ("attack", "channel_only", "context_only", "prior_only")
#: The classes of words, in report order (``entity``: only with entity detection).
CLASSES = ("frequent", "rare", "capitalised", "entity")
#: The weights of the context score the adversary tries on its own text.
CONTEXT_WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)


# -- the attack -----------------------------------------------------------------------------
def reconstruction_attack(
        mechanism: WordMechanism, documents: Iterable[Document], *, secrets: Secrets,
        mode: str = "text", reference: Iterable[Document] | None = None,
        scorer: ContextScorer | None = None, order: int = 3,
        context_weight: float | None = None, candidates: int = DEFAULT_CANDIDATES,
        frequent: int = DEFAULT_FREQUENT, window: int = DEFAULT_WINDOW, draws: int = 500,
        channel: str = "auto", confidence: float = 0.95, seed: int | None = None,
        progress: Progress | None = None, entities: str | EntityOptions = "none",
        entity_epsilon: float = 1.0, entity_policy: Any = (), lang: str = "en"
) -> Reconstruction:
    """Release a corpus and try to get its content words back (module docstring).

    Parameters
    ----------
    mechanism : WordMechanism
        The mechanism at its ε.
    documents : iterable of Document
        The corpus (in memory: :func:`~emprivacy.protection.attacks.corpus.load_documents`).
    secrets : Secrets
        The candidates S and the prior π (:func:`~emprivacy.protection.secret_words`).
    mode : {"text", "bag"}, default "text"
        How the corpus is released (:class:`~emprivacy.obfuscation.ObfuscationConfig`).
    reference : iterable of Document, optional
        Text mode: the adversary's reference corpus for its n-gram model.  Default: half
        of ``documents`` (:func:`~emprivacy.protection.attacks.corpus.split_corpus`), the
        other half being attacked.
    scorer : ~emprivacy.protection.attacks.context.ContextScorer, optional
        Text mode: a context model of your own instead of the n-gram model; every
        document is then attacked.
    order : int, default 3
        The n-gram model's n (≥ 2).
    context_weight : float, optional
        w ≥ 0 in ``log π + log C + w · log P(context | x)``.  Default: for the n-gram
        model, the weight of :data:`CONTEXT_WEIGHTS` that recovers most words of a
        release of half the reference, attacked with a model fitted on the other half
        (the adversary calibrating its model on text it has; 1 when the reference has
        fewer than two documents); 1 for a plugged-in scorer.
    candidates : int, default 50
        Secrets per released word (the best by π · C) that the context reranks (≥ 5).
    frequent : int, default 100
        The first ``frequent`` secrets are the "frequent" class.
    window : int, default 16
        Tokens each side given to a plugged-in ``scorer``.
    draws : int, default 500
        Releases per secret of a sampled channel.
    channel : {"auto", "exact", "sampled"}
        As :func:`~emprivacy.protection.audit_mechanism`.
    confidence : float, default 0.95
        Of the Clopper–Pearson intervals.
    seed : int, optional
        Seeds the release (:class:`~emprivacy.obfuscation.Obfuscator`), the splits and the
        sampled channel; ``None``: a random seed, recorded in the result.
    progress : callable, optional
        ``progress(done, total, description)``.
    entities, entity_epsilon, entity_policy
        Text mode: release with entity detection, as ``obfuscate --entities``,
        ``--entity-epsilon``, ``--entity-policy`` (docs/ENTITIES.md; or an
        :class:`~emprivacy.protection.leakage.entity_secrets.EntityOptions` as
        ``entities``).  The entity slots are attacked with their type's channel (the
        mechanism restricted to its public sub-vocabulary at ε_e) over the secrets in that
        sub-vocabulary (:mod:`._entities`), and reported as the class ``entity``.
    lang : str, default "en"
        The corpus's language (:mod:`emprivacy.text.language`): the release's tokens,
        function words and entity detectors, the content words attacked, the reference's
        reading.

    Returns
    -------
    ~emprivacy.protection.attacks.reconstruction_report.Reconstruction

    Raises
    ------
    ValueError
        For a bad setting, a reference or scorer with bags, fewer than two documents to
        split, a reference without a word of the vocabulary, or no content word
        released.
    emprivacy.exceptions.InputError
        When no document can be released (every one empty).

    Examples
    --------
    >>> from emprivacy import Embeddings, SanText
    >>> from emprivacy.io.documents import Document
    >>> from emprivacy.protection import Secrets
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [30.0]])
    >>> s = Secrets.from_words(emb, ["cat", "dog", "car"], weights=[3, 2, 1])
    >>> docs = [Document("a", "cat dog car cat"), Document("b", "dog cat")]
    >>> r = reconstruction_attack(SanText(emb, epsilon=100.0), docs, secrets=s,
    ...                           mode="bag", seed=0)
    >>> r.attack.exact.estimate, r.baselines["prior_only"].exact.estimate
    (1.0, 0.5)
    """
    start_time = time.perf_counter()
    checked = _check_settings(
        mechanism, documents, secrets=secrets, mode=mode, reference=reference, scorer=scorer,
        order=order, context_weight=context_weight, candidates=candidates, frequent=frequent,
        window=window, draws=draws, channel=channel, confidence=confidence, seed=seed)
    opts = entity_options(entities, entity_epsilon, entity_policy, mode, lang)
    docs, seed, conf = checked.documents, checked.seed, checked.confidence
    order, n_cand, frequent = checked.order, checked.candidates, checked.frequent
    window, draws, context_weight = checked.window, checked.draws, checked.context_weight
    emb = mechanism.embeddings

    # the adversary's context model
    model: NgramModel | None = None
    ref_label: str | None = None
    ref_docs: list[Document] = []
    attacked = docs
    if mode == "text" and scorer is None:
        if reference is None:
            if len(docs) < 2:
                raise ValueError("the reconstruction attack needs at least 2 documents to fit "
                                 "its context model on half of them; got 1 (give a "
                                 "reference corpus)")
            attacked, ref_docs = split_corpus(docs, seed=seed)
            ref_label, where = "half", "the reference half of the corpus"
        else:
            ref_docs = _check_documents(reference, "reference")
            ref_label, where = "given", "the reference"
        model = fit_context_model(ref_docs, emb, secrets, order=order, where=where, lang=lang)
    if progress is not None:
        progress(0, 1, "releasing the corpus")
    release = release_corpus(mechanism, attacked, mode, seed, secrets, opts, lang)
    if release.slots.size == 0:
        raise ValueError("the released documents hold no content word of the vocabulary: "
                         "nothing to reconstruct")

    # the channel, the context, the guessers
    kind = "exact" if channel == "exact" or (channel == "auto" and has_exact_channel(
        mechanism)) else "sampled"
    cands = Candidates(mechanism, secrets, n=min(n_cand, len(secrets)), kind=kind,
                       draws=draws, rng=np.random.default_rng(np.random.SeedSequence(
                           [seed, 1])), progress=progress)
    own = None if release.run is None else EntityCandidates(
        release.run, release.entity_types, secrets,
        detect_entity_words(release.run, docs, emb), n=cands.n, channel=channel,
        draws=draws, seed=seed, progress=progress)
    context = ("ngram" if model is not None else "custom" if scorer is not None
               else "none")
    context_fn: Callable[..., np.ndarray] | None = None
    tuning = ""
    if model is not None:
        context_fn = partial(_ngram_context, model)
        if context_weight is None:
            context_weight, tuning = _tune(mechanism, ref_docs, secrets, cands, order, seed,
                                           lang)
    elif scorer is not None:
        context_fn = partial(_custom_context, scorer, window=window)
        context_weight = 1.0 if context_weight is None else context_weight
    scored = score_release(release, cands, secrets, context_fn, own)
    truth = release.truth
    prior_rank = prior_order(secrets.prior)[1]
    ranks = {"channel_only": rank_of_truth(scored.cand, scored.chan, truth),
             "prior_only": np.where(truth >= 0, prior_rank[np.maximum(truth, 0)], NEVER)}
    if own is not None:
        ranks["prior_only"] = own.prior_ranks(release, truth, ranks["prior_only"])
    if scored.ctx is not None:
        ranks["attack"], ranks["context_only"] = context_ranks(
            scored, scored.ctx, truth, float(context_weight or 0.0), cands.prior_top,
            cands.log_prior)
    else:
        ranks["attack"] = ranks["channel_only"]

    frequent_mask = (truth >= 0) & (truth < frequent)
    masks = {"frequent": frequent_mask, "rare": ~frequent_mask, "capitalised": release.capital}
    if release.entity is not None:
        masks["entity"] = release.entity[release.slots] >= 0
    guessers = [g for g in GUESSERS if g in ranks]
    rates = {g: _rate(ranks[g] == 0, ranks[g] < TOP, conf) for g in guessers}
    classes = {c: {g: _rate(ranks[g][m] == 0, ranks[g][m] < TOP, conf) for g in guessers}
               for c, m in masks.items()}
    methods = _methods(kind, cands.draws, mode, context, order, ref_label, cands.n,
                       frequent, window, context_weight, tuning, own is not None)
    return Reconstruction(
        mechanism.name, mechanism.record_fields(), mechanism.epsilon, mode, context,
        order if context == "ngram" else None, ref_label,
        None if context == "none" else context_weight, kind, cands.draws, secrets, cands.n,
        frequent, conf, seed, len(attacked), len(ref_docs), rates["attack"],
        {g: rates[g] for g in guessers if g != "attack"}, classes,
        int(np.count_nonzero(truth >= 0)), methods, time.perf_counter() - start_time,
        None if own is None or opts is None else entity_summary(release, own, opts))

@dataclass(frozen=True)
class _Settings:
    """The attack's settings, checked (:func:`_check_settings`)."""

    documents: list[Document]
    order: int
    candidates: int
    frequent: int
    window: int
    draws: int
    confidence: float
    seed: int
    context_weight: float | None


def _check_settings(mechanism: Any, documents: Any, *, secrets: Any, mode: Any,
                    reference: Any, scorer: Any, order: Any, context_weight: Any,
                    candidates: Any, frequent: Any, window: Any, draws: Any, channel: Any,
                    confidence: Any, seed: Any) -> _Settings:
    """Check every setting of :func:`reconstruction_attack` before any work, in the order
    of its parameters; a random seed where none is given."""
    if not isinstance(mechanism, WordMechanism):
        raise TypeError(f"mechanism must be a WordMechanism; got {type(mechanism).__name__}")
    if not isinstance(secrets, Secrets):
        raise TypeError(f"secrets must be a Secrets; got {type(secrets).__name__}")
    check_choice(mode, "mode", MODES)
    check_choice(channel, "channel", ("auto", "exact", "sampled"))
    order = check_positive_int(order, "order", minimum=2)
    n_cand = check_positive_int(candidates, "candidates", minimum=TOP)
    frequent = check_positive_int(frequent, "frequent")
    window = check_positive_int(window, "window")
    draws = check_positive_int(draws, "draws", minimum=2)
    conf = _check_confidence(confidence)
    if context_weight is not None:
        context_weight = check_nonnegative_number(context_weight, "context_weight")
    if seed is None:
        seed = _secrets.randbelow(2**63)
    seed = check_positive_int(seed, "seed", minimum=0)
    if scorer is not None and not callable(scorer):
        raise TypeError(f"scorer must be callable (a ContextScorer); got "
                        f"{type(scorer).__name__}")
    if mode == "bag" and (reference is not None or scorer is not None):
        raise ValueError("reference and scorer apply to mode 'text': a bag of words has no "
                         "context")
    if reference is not None and scorer is not None:
        raise ValueError("give reference or scorer, not both: the reference fits the "
                         "n-gram model that a scorer replaces")
    if channel == "exact" and not has_exact_channel(mechanism):
        raise ValueError(f"mechanism {mechanism.name!r} has no closed-form channel; use "
                         "channel 'sampled' or 'auto'")
    if len(mechanism.embeddings) <= int(secrets.rows.max()):
        raise ValueError("secrets must be rows of the mechanism's vocabulary")
    docs = _check_documents(documents, "documents")
    if not docs:
        raise ValueError("documents must hold at least one document; got none")
    return _Settings(docs, order, n_cand, frequent, window, draws, conf, seed, context_weight)


def _tune(mechanism: WordMechanism, reference: list[Document], secrets: Secrets,
          cands: Candidates, order: int, seed: int, lang: str = "en") -> tuple[float, str]:
    """The context weight of :data:`CONTEXT_WEIGHTS` that recovers most words of half the
    reference, released and attacked with a model fitted on its other half (ties: the
    larger weight); 1 where that cannot be done."""
    if len(reference) < 2:
        return 1.0, "not tuned (the reference has fewer than 2 documents): weight 1"
    fit, tune = split_corpus(reference, seed=seed, stream=2)
    try:
        model = fit_context_model(fit, mechanism.embeddings, secrets, order=order, lang=lang)
        release = release_corpus(mechanism, tune, "text", seed, secrets, lang=lang)
    except (ValueError, InputError):
        return 1.0, "not tuned (half the reference holds no word to fit or release): weight 1"
    if release.slots.size == 0:
        return 1.0, "not tuned (half the reference releases no content word): weight 1"
    scored = score_release(release, cands, secrets, partial(_ngram_context, model))
    if scored.ctx is None:  # pragma: no cover - score_release was given a context
        return 1.0, "not tuned: weight 1"
    best, best_hits = 1.0, -1
    for weight in sorted(CONTEXT_WEIGHTS, reverse=True):
        attack, _ = context_ranks(scored, scored.ctx, release.truth, weight,
                                  cands.prior_top, cands.log_prior)
        hits = int(np.count_nonzero(attack == 0))
        if hits > best_hits:
            best, best_hits = weight, hits
    return best, (f"tuned: the weight of {list(CONTEXT_WEIGHTS)} that recovered most of "
                  f"{release.slots.size} content words of a release of half the reference "
                  f"({len(tune)} documents), attacked with a model fitted on its other half "
                  f"({len(fit)})")


def _rate(exact: np.ndarray, top: np.ndarray, confidence: float) -> RecoveryRate:
    n = int(exact.size)
    if n == 0:
        return RecoveryRate(0, None, None)
    figures = []
    for hits in (exact, top):
        k = int(np.count_nonzero(hits))
        lo, hi = clopper_pearson(k, n, confidence=confidence)
        figures.append(Estimate(k / n, float(lo), float(hi), False))
    return RecoveryRate(n, figures[0], figures[1])


def _methods(kind: str, draws: int | None, mode: str, context: str, order: int,
             reference: str | None, candidates: int, frequent: int, window: int,
             weight: float | None, tuning: str, entities: bool = False) -> dict[str, str]:
    chan = ("exact: the closed-form channel" if kind == "exact" else
            f"sampled: {draws} releases of every secret, independent of the release "
            "attacked; a secret never seen to give the output is no candidate, and an "
            "output no secret gave is read with a uniform channel")
    if context == "ngram":
        where = ("the other half of the corpus (split by document, seeded)"
                 if reference == "half" else "the reference corpus given")
        ctx = (f"{order}-gram model (interpolated absolute discounting) fitted on {where}; "
               f"log P(context | x) over the {order - 1} released tokens each side, "
               "neighbouring content words read as their channel-only best guess; weight "
               f"{weight:g}, {tuning or 'given'}")
    elif context == "custom":
        ctx = (f"a plugged-in scorer given {window} released tokens each side, "
               "neighbouring content words read as their channel-only best guess; weight "
               f"{weight:g}")
    else:
        ctx = "none: a bag has no context" if mode == "bag" else "none"
    return {
        "release": f"the corpus released in {mode} mode through the Obfuscator, seeded",
        "channel": chan,
        "context": ctx,
        "attack": (f"argmax over the {candidates} best secrets by pi(x) C[x, y] of "
                   + ("log pi(x) + log C[x, y] + w log P(context | x)"
                      if context != "none" else "pi(x) C[x, y]")),
        "baselines": ("channel_only: pi(x) C[x, y]; "
                      + (f"context_only: log pi(x) + w log P(context | x) among the "
                         f"{candidates} most probable secrets; " if context != "none" else "")
                      + "prior_only: pi(x)"),
        "intervals": "Clopper-Pearson over the released content words",
        "classes": (f"frequent: an original among the first {frequent} secrets (the most "
                    "frequent content words); rare: the others, words outside the secrets "
                    "included; capitalised: written in Title or UPPER case"
                    + ("; entity: the entity slots (words detection marked), attacked with "
                       "their type's channel, the mechanism restricted to its public "
                       "sub-vocabulary at epsilon_e, over the secrets that detection made "
                       "entity words of the type in the whole corpus, pi restricted to "
                       "them; conditional on detection" if entities else "")),
    }
