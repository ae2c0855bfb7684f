"""The reconstruction attack: what an adversary gets back from a released corpus.

The word audit (:mod:`emprivacy.protection.leakage.audit`) asks how well the Bayes-optimal
guesser recovers *one* word from its release.  This attack releases a corpus the way a
user would (:class:`~emprivacy.obfuscation.obfuscator.Obfuscator`, text mode or bags, seeded) and
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
  :class:`ContextScorer` the caller plugs in;
* a bag has no context: its attack is ``π(x) · C[x, y]`` alone.

The context reranks the ``candidates`` best secrets by ``π · C``.  Each released
content word (a slot whose original is a content word, :func:`is_content_word`) counts
as recovered if the top guess is its original (exact) or the original is among the top
five (top-5); an original outside S is never recovered.  Rates come with
Clopper–Pearson intervals, beside three baselines — ``π · C`` without context
(``channel_only``), ``π`` × context among the ``candidates`` most probable secrets,
the released word ignored (``context_only``, text mode), and ``π`` alone
(``prior_only``) — and per class of word: ``frequent`` (an original among the first
``frequent`` secrets, the corpus's most frequent content words), ``rare`` (the others,
words outside S included) and ``capitalised`` (written Title or UPPER case).
"""

from __future__ import annotations

import csv
import io
import math
import re
import secrets as _secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

import numpy as np

from emprivacy._validation import check_choice, check_nonnegative_number, check_positive_int
from emprivacy.embeddings.model import OOV_PLACEHOLDER, Embeddings, PreparedBag
from emprivacy.exceptions import InputError
from emprivacy.io.corpus import Document, iter_documents
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.obfuscation import BLOCK_CHARS, ObfuscationConfig, Obfuscator
from emprivacy.preparation.template import PLACEHOLDERS, TextTemplate, case_pattern, prepare_text
from emprivacy.protection.attacks.ngram import BOUNDARY, NgramModel
from emprivacy.protection.leakage.audit import Estimate
from emprivacy.protection.leakage.channel import (
    ExactChannel,
    Progress,
    has_exact_channel,
    sample_channel,
)
from emprivacy.protection.leakage.secrets import Secrets, is_content_word
from emprivacy.protection.leakage.vulnerability import _check_confidence, clopper_pearson
from emprivacy.text.normalise import normalise_pieces, normalise_word
from emprivacy.text.tokens import piece_words, tokenize
from emprivacy.text.word_lists import STOPWORDS

__all__ = [
    "MODES",
    "ContextScorer",
    "Reconstruction",
    "RecoveryRate",
    "count_words",
    "fit_context_model",
    "load_documents",
    "reconstruction_attack",
    "reconstruction_csv",
    "reconstruction_table",
    "split_corpus",
]

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
#: The classes of words, in report order.
CLASSES = ("frequent", "rare", "capitalised")

_NEVER = np.iinfo(np.int64).max  # the rank of an original the guesser cannot name
_SLOTS_PER_CHUNK = 2048
_COLUMNS_PER_BLOCK = 2048


class ContextScorer(Protocol):
    """What a plugged-in context model is: any callable of this shape.

    ``scorer(left, right, candidates)`` gets the tokens before a released word (oldest
    first; at most ``window``), the tokens after it, and the candidate originals, and
    returns one finite log-score per candidate: ``log P(context | candidate)`` up to a
    constant.  (A score of ``log P(candidate | context)`` counts the candidate's
    frequency twice: the prior π already holds it.)  Tokens are lower-case words, the
    placeholders ``[UNK]``, ``[NUM]``, ``[URL]``, ``[EMAIL]``, ``[PATH]``, ``[SYM]``, and
    ``<s>`` for a sentence boundary.
    """

    def __call__(self, left: Sequence[str], right: Sequence[str],
                 candidates: Sequence[str]) -> Any:  # pragma: no cover - a protocol
        ...


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
        return {"words": self.words,
                "exact": None if self.exact is None else self.exact.to_dict(),
                "top5": None if self.top5 is None else self.top5.to_dict()}


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
        Per class (``frequent``, ``rare``, ``capitalised``): each guesser's rate.
    words_in_secrets : int
        Released content words whose original is a secret (the others are never
        recovered).
    methods : dict
        How each figure was obtained, in words.
    seconds : float
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
            "exact": None if self.attack.exact is None else self.attack.exact.to_dict(),
            "top5": None if self.attack.top5 is None else self.attack.top5.to_dict(),
            "baselines": {k: v.to_dict() for k, v in self.baselines.items()},
            "classes": {c: {g: r.to_dict() for g, r in by.items()}
                        for c, by in self.classes.items()},
            "methods": dict(self.methods),
            "seconds": self.seconds,
        }


# -- documents ---------------------------------------------------------------------------
def load_documents(inputs: Iterable[Any], *, stdin: Any = None) -> list[Document]:
    """Every document of ``inputs`` (as :func:`emprivacy.io.corpus.iter_documents` reads
    them), read into memory: the attack reads each twice (the release, the truth)."""
    return [Document(doc.id, doc.text) for doc in iter_documents(inputs, stdin=stdin)]


def count_words(documents: Iterable[Document]) -> Counter[str]:
    """Content-word counts of in-memory documents
    (:func:`~emprivacy.protection.leakage.secrets.content_word_counts` of a corpus already read)."""
    counts: Counter[str] = Counter()
    for doc in documents:
        for piece in normalise_pieces(doc.chunks()):
            counts.update(piece_words(piece))
    return counts


def _check_documents(documents: Any, name: str) -> list[Document]:
    if isinstance(documents, str | Document):
        raise TypeError(f"{name} must be a sequence of Document, not a single one")
    docs = list(documents)
    for doc in docs:
        if not isinstance(doc, Document):
            raise TypeError(f"{name} must hold emprivacy.io.corpus.Document objects; got "
                            f"{type(doc).__name__}")
    return docs


def split_corpus(documents: Sequence[Document], *, seed: int, stream: int = 0
                 ) -> tuple[list[Document], list[Document]]:
    """Split documents at random into the attacked half and the reference half.

    The attacked half holds ``n − n // 2`` documents, the reference ``n // 2``; the
    split depends only on ``seed``, ``stream`` (another split of the same seed) and n,
    and keeps the documents' order within a half.

    >>> docs = [Document(str(i), "x") for i in range(5)]
    >>> a, r = split_corpus(docs, seed=1)
    >>> len(a), len(r), sorted(d.id for d in a + r) == [d.id for d in docs]
    (3, 2, True)
    """
    docs = _check_documents(documents, "documents")
    n = len(docs)
    perm = np.random.default_rng(np.random.SeedSequence([seed, 0, stream])).permutation(n)
    attacked = np.sort(perm[:n - n // 2])
    reference = np.sort(perm[n - n // 2:])
    return [docs[i] for i in attacked.tolist()], [docs[i] for i in reference.tolist()]


# -- the adversary's view of a text -------------------------------------------------------
_PLACEHOLDER_SET = frozenset({OOV_PLACEHOLDER, *PLACEHOLDERS.values()})
_VIEW_TOKEN = re.compile(r"\[[^\W\d_]+\]|[.!?]|[^\W\d_]+(?:['’-][^\W\d_]+)*|['’][^\W\d_]+")


def _layout_tokens(piece: str, out: list[str]) -> None:
    """Append the tokens of released layout: kept words (lower case), placeholders,
    ``<s>`` for sentence punctuation (never two in a row, never first)."""
    for match in _VIEW_TOKEN.finditer(piece):
        tok = match.group()
        if tok in (".", "!", "?"):
            if out and out[-1] != BOUNDARY:
                out.append(BOUNDARY)
        elif tok in _PLACEHOLDER_SET:
            out.append(tok)
        else:
            out.append(normalise_word(tok.strip("[]")))


def _text_view(template: TextTemplate, rows: Sequence[int], vocabulary: Sequence[str]
               ) -> tuple[list[str], list[int]]:
    """The tokens of a released text (``rows`` in the template's slots) and the position
    of each slot among them."""
    tokens: list[str] = []
    slots: list[int] = []
    for i, piece in enumerate(template.pieces):
        _layout_tokens(piece, tokens)
        if i < len(rows):
            slots.append(len(tokens))
            tokens.append(vocabulary[int(rows[i])])
    return tokens, slots


def fit_context_model(reference: Iterable[Document], embeddings: Embeddings,
                      secrets: Secrets, *, order: int = 3, discount: float = 0.75,
                      where: str = "the reference") -> NgramModel:
    """The adversary's n-gram model, fitted on reference documents seen as a release.

    Each reference document is read as text mode would release it with no noise (its
    content words in place, function words kept, numbers, URLs and unknown words as
    placeholders: :func:`~emprivacy.preparation.template.prepare_text`), so that its contexts look
    like the release's.  The secret words are in the model's vocabulary.

    Raises
    ------
    ValueError
        When the reference holds no word of the vocabulary (``where`` names it).
    """
    sequences = []
    words = 0
    for doc in _check_documents(reference, "reference"):
        template = prepare_text(doc.text, embeddings)
        words += template.words_perturbed
        sequences.append(_text_view(template, template.indices.tolist(), embeddings.words)[0])
    if words == 0:
        raise ValueError(f"{where} holds no word of the vocabulary of {embeddings.name!r}: "
                         "nothing to fit the context model on")
    return NgramModel.fit(sequences, order=order, discount=discount, vocabulary=secrets.words)


# -- the release, as a user makes it ------------------------------------------------------
class _CapturingObfuscator(Obfuscator):
    """The real release path, keeping each document's inputs and outputs in order.

    ``captured``: ``(record id, bag or template, released rows before any sorting)``;
    nothing of it reaches a record.  Documents are released in one block each.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.captured: list[tuple[str, PreparedBag | TextTemplate, np.ndarray]] = []

    def _record(self, doc_id: str, bag: PreparedBag | TextTemplate, out: np.ndarray,
                shared: dict[str, Any]) -> dict[str, Any]:
        record = super()._record(doc_id, bag, out, shared)
        self.captured.append((doc_id, bag, np.array(out, dtype=np.int64)))
        return record

    def _long_text(self, doc_id: str, label: str, *args: Any, **kwargs: Any) -> Any:
        raise InputError(f"document {label!r} is longer than {BLOCK_CHARS} characters: the "
                         "reconstruction attack reads each document whole; split it")

    _long_bag = _long_text


def _release(mechanism: WordMechanism, documents: list[Document], mode: str, seed: int
             ) -> list[tuple[str, PreparedBag | TextTemplate, np.ndarray]]:
    config = ObfuscationConfig(mode=mode, block_words=2**62)  # type: ignore[arg-type]
    obfuscator = _CapturingObfuscator(mechanism, config, seed=seed,
                                      on_warning=lambda message: None)
    for _ in obfuscator.obfuscate(documents):
        pass
    return obfuscator.captured


def _bag_cases(doc: Document, embeddings: Embeddings, rows: np.ndarray) -> list[bool]:
    """Whether each word of a document's bag (in bag order) was capitalised."""
    caps: list[bool] = []
    found: list[int] = []
    for piece in normalise_pieces(doc.chunks()):
        toks = [t for t in tokenize(piece) if t.kind == "word"]
        keep = [(t, w) for t in toks if (w := normalise_word(t.text)) not in STOPWORDS]
        for (tok, _), row in zip(keep, embeddings.rows([w for _, w in keep]).tolist(),
                                 strict=True):
            if row >= 0:
                caps.append(case_pattern(tok.text) != "lower")
                found.append(row)
    if found != rows.tolist():  # pragma: no cover - a bug, not the user's input
        raise RuntimeError(f"internal error: the bag of document {doc.id!r} does not match "
                           "its words")
    return caps


# -- the channel's candidates ---------------------------------------------------------------
def _prior_order(prior: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Secrets by π (ties: the earlier secret first), and each secret's rank there."""
    order = np.lexsort((np.arange(prior.size), -prior))
    rank = np.empty(prior.size, dtype=np.int64)
    rank[order] = np.arange(prior.size)
    return order, rank


class _Candidates:
    """The channel of the attack, measured once: for released rows, the n best secrets by
    ``log π + log C`` (in order, ties to the earlier secret) and their scores (``-inf``:
    no candidate)."""

    def __init__(self, mechanism: WordMechanism, secrets: Secrets, *, n: int, kind: str,
                 draws: int, rng: np.random.Generator, progress: Progress | None) -> None:
        self.n = n
        self.log_prior = np.log(secrets.prior)
        self.prior_top = _prior_order(secrets.prior)[0][:n]
        self.progress = progress
        self.exact: ExactChannel | None = None
        self.counts: Any = None
        self.draws: int | None = None
        if kind == "exact":
            self.exact = ExactChannel(mechanism, secrets.rows)
        else:
            sampled = sample_channel(mechanism, secrets.rows, draws=draws, rng=rng,
                                     progress=progress)
            self.counts = sampled.counts().tocsc()
            self.draws = sampled.draws

    def __call__(self, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = self.n
        cand = np.full((columns.size, n), -1, dtype=np.int64)
        score = np.full((columns.size, n), -np.inf)
        if self.exact is not None:
            for start in range(0, columns.size, _COLUMNS_PER_BLOCK):
                cols = columns[start:start + _COLUMNS_PER_BLOCK]
                lc = self.exact.log_columns(cols, self.progress) + self.log_prior[:, None]
                best = np.argsort(-lc, axis=0, kind="stable")[:n]
                cand[start:start + cols.size] = best.T
                score[start:start + cols.size] = np.take_along_axis(lc, best, axis=0).T
            return cand, score
        sub = self.counts[:, columns].tocoo()
        x, j = sub.row.astype(np.int64), sub.col.astype(np.int64)
        s = (self.log_prior[x] + np.log(sub.data.astype(np.float64))
             - math.log(float(self.draws or 1)))
        order = np.lexsort((x, -s, j))
        x, j, s = x[order], j[order], s[order]
        pos = np.arange(j.size) - np.searchsorted(j, np.arange(columns.size))[j]
        keep = pos < n
        cand[j[keep], pos[keep]] = x[keep]
        score[j[keep], pos[keep]] = s[keep]
        unseen = np.bincount(j, minlength=columns.size) == 0
        if unseen.any():  # no secret gave this output in the draws: a uniform channel
            top = self.prior_top
            cand[unseen, :top.size] = top
            score[unseen, :top.size] = self.log_prior[top]
        return cand, score


def _ranks(cand: np.ndarray, score: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """The rank of ``truth`` (a secret, or -1) among each row's candidates by score
    (ties: the earlier secret first); :data:`_NEVER` when it is not a candidate."""
    match = (cand == truth[:, None]) & (truth[:, None] >= 0) & np.isfinite(score)
    has = match.any(axis=1)
    pos = match.argmax(axis=1)
    rows = np.arange(cand.shape[0])
    mine = score[rows, pos][:, None]
    above = (score > mine) | ((score == mine) & (cand < truth[:, None]) & (cand >= 0))
    rank = above.sum(axis=1).astype(np.int64)
    return np.where(has, rank, _NEVER)


# -- one release, attacked -------------------------------------------------------------------
@dataclass
class _Release:
    """A release and its truth: every slot's released row; the target slots (content
    words), their originals as secrets (-1: not a secret) and capitalisation; text mode:
    each document's tokens as the adversary reads them."""

    out: np.ndarray
    slots: np.ndarray
    truth: np.ndarray
    capital: np.ndarray
    views: list[tuple[list[str], list[int]]]


def _released(mechanism: WordMechanism, documents: list[Document], mode: str, seed: int,
              secrets: Secrets) -> _Release:
    emb = mechanism.embeddings
    vocab = emb.words
    secret_of_row = np.full(len(emb), -1, dtype=np.int64)
    secret_of_row[secrets.rows] = np.arange(len(secrets))
    by_id = {doc.id: doc for doc in documents}
    outs: list[np.ndarray] = []
    slots: list[np.ndarray] = []
    truth: list[np.ndarray] = []
    capital: list[np.ndarray] = []
    views: list[tuple[list[str], list[int]]] = []
    offset = 0
    content: dict[int, bool] = {}
    for doc_id, bag, out in _release(mechanism, documents, mode, seed):
        orig = bag.indices
        is_target = np.fromiter(
            (content.setdefault(r, is_content_word(vocab[r])) for r in orig.tolist()),
            dtype=bool, count=orig.size)
        if isinstance(bag, TextTemplate):
            caps = np.asarray([c != "lower" for c in bag.cases], dtype=bool)
            views.append(_text_view(bag, out.tolist(), vocab))
        else:
            caps = np.asarray(_bag_cases(by_id[doc_id], emb, orig), dtype=bool)
        idx = np.flatnonzero(is_target)
        outs.append(out)
        slots.append(offset + idx)
        truth.append(secret_of_row[orig[idx]])
        capital.append(caps[idx] if idx.size else np.zeros(0, dtype=bool))
        offset += out.size

    def cat(parts: list[np.ndarray], dtype: Any) -> np.ndarray:
        return np.concatenate(parts) if parts else np.empty(0, dtype)

    return _Release(cat(outs, np.int64), cat(slots, np.int64), cat(truth, np.int64),
                    cat(capital, bool), views)


@dataclass
class _Scored:
    """A release's candidates and scores: the channel's, the prior's, the context's."""

    cand: np.ndarray       # (M, n) the channel's best secrets per target
    chan: np.ndarray       # (M, n) their log π + log C
    ctx: np.ndarray | None  # (M, 2n) log P(context | x): the channel's, then the prior's top


def _score(release: _Release, candidates: _Candidates, secrets: Secrets,
           context: Callable[..., np.ndarray] | None) -> _Scored:
    columns, inverse = np.unique(release.out, return_inverse=True)
    cand_y, score_y = candidates(columns)
    col = inverse.ravel()
    cand = cand_y[col[release.slots]]
    chan = score_y[col[release.slots]]
    ctx = None
    if context is not None:
        guess = cand_y[col, 0]  # each slot's channel-only best guess
        both = np.concatenate([cand, np.broadcast_to(candidates.prior_top, cand.shape)],
                              axis=1)
        ctx = context(release.views, guess, release.slots, both, secrets)
    return _Scored(cand, chan, ctx)


def _context_ranks(scored: _Scored, ctx: np.ndarray, truth: np.ndarray, weight: float,
                   prior_top: np.ndarray, log_prior: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The ranks of the attack, ``log π + log C + w·ctx``, and of the context-only
    baseline, ``log π + w·ctx`` among the prior's top secrets."""
    n = scored.cand.shape[1]
    total = np.where(np.isfinite(scored.chan), scored.chan + weight * ctx[:, :n], -np.inf)
    top = np.broadcast_to(prior_top, scored.cand.shape)
    blind = log_prior[prior_top][None, :] + weight * ctx[:, n:]
    return _ranks(scored.cand, total, truth), _ranks(top, blind, truth)


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
        progress: Progress | None = None) -> Reconstruction:
    """Release a corpus and try to get its content words back (module docstring).

    Parameters
    ----------
    mechanism : WordMechanism
        The mechanism at its ε.
    documents : iterable of Document
        The corpus (in memory: :func:`load_documents`).
    secrets : Secrets
        The candidates S and the prior π (:func:`~emprivacy.protection.secret_words`).
    mode : {"text", "bag"}, default "text"
        How the corpus is released (:class:`~emprivacy.obfuscation.config.ObfuscationConfig`).
    reference : iterable of Document, optional
        Text mode: the adversary's reference corpus for its n-gram model.  Default: half
        of ``documents`` (:func:`split_corpus`), the other half being attacked.
    scorer : ContextScorer, optional
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
        Seeds the release (:class:`~emprivacy.obfuscation.obfuscator.Obfuscator`), the splits and
        the sampled channel; ``None``: a random seed, recorded in the result.
    progress : callable, optional
        ``progress(done, total, description)``.

    Returns
    -------
    Reconstruction

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
    >>> from emprivacy.io.corpus import Document
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
    emb = mechanism.embeddings
    if len(emb) <= int(secrets.rows.max()):
        raise ValueError("secrets must be rows of the mechanism's vocabulary")
    docs = _check_documents(documents, "documents")
    if not docs:
        raise ValueError("documents must hold at least one document; got none")

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
        model = fit_context_model(ref_docs, emb, secrets, order=order, where=where)
    if progress is not None:
        progress(0, 1, "releasing the corpus")
    release = _released(mechanism, attacked, mode, seed, secrets)
    if release.slots.size == 0:
        raise ValueError("the released documents hold no content word of the vocabulary: "
                         "nothing to reconstruct")

    # the channel, the context, the guessers
    kind = "exact" if channel == "exact" or (channel == "auto" and has_exact_channel(
        mechanism)) else "sampled"
    cands = _Candidates(mechanism, secrets, n=min(n_cand, len(secrets)), kind=kind,
                        draws=draws, rng=np.random.default_rng(np.random.SeedSequence(
                            [seed, 1])), progress=progress)
    context = ("ngram" if model is not None else "custom" if scorer is not None
               else "none")
    context_fn: Callable[..., np.ndarray] | None = None
    tuning = ""
    if model is not None:
        context_fn = partial(_ngram_context, model)
        if context_weight is None:
            context_weight, tuning = _tune(mechanism, ref_docs, secrets, cands, order, seed)
    elif scorer is not None:
        context_fn = partial(_custom_context, scorer, window=window)
        context_weight = 1.0 if context_weight is None else context_weight
    scored = _score(release, cands, secrets, context_fn)
    truth = release.truth
    prior_rank = _prior_order(secrets.prior)[1]
    ranks = {"channel_only": _ranks(scored.cand, scored.chan, truth),
             "prior_only": np.where(truth >= 0, prior_rank[np.maximum(truth, 0)], _NEVER)}
    if scored.ctx is not None:
        ranks["attack"], ranks["context_only"] = _context_ranks(
            scored, scored.ctx, truth, float(context_weight or 0.0), cands.prior_top,
            cands.log_prior)
    else:
        ranks["attack"] = ranks["channel_only"]

    frequent_mask = (truth >= 0) & (truth < frequent)
    masks = {"frequent": frequent_mask, "rare": ~frequent_mask, "capitalised": release.capital}
    guessers = [g for g in GUESSERS if g in ranks]
    rates = {g: _rate(ranks[g] == 0, ranks[g] < TOP, conf) for g in guessers}
    classes = {c: {g: _rate(ranks[g][m] == 0, ranks[g][m] < TOP, conf) for g in guessers}
               for c, m in masks.items()}
    methods = _methods(kind, cands.draws, mode, context, order, ref_label, cands.n,
                       frequent, window, context_weight, tuning)
    return Reconstruction(
        mechanism.name, mechanism.record_fields(), mechanism.epsilon, mode, context,
        order if context == "ngram" else None, ref_label,
        None if context == "none" else context_weight, kind, cands.draws, secrets, cands.n,
        frequent, conf, seed, len(attacked), len(ref_docs), rates["attack"],
        {g: rates[g] for g in guessers if g != "attack"}, classes,
        int(np.count_nonzero(truth >= 0)), methods, time.perf_counter() - start_time)


def _tune(mechanism: WordMechanism, reference: list[Document], secrets: Secrets,
          cands: _Candidates, order: int, seed: int) -> tuple[float, str]:
    """The context weight of :data:`CONTEXT_WEIGHTS` that recovers most words of half the
    reference, released and attacked with a model fitted on its other half (ties: the
    larger weight); 1 where that cannot be done."""
    if len(reference) < 2:
        return 1.0, "not tuned (the reference has fewer than 2 documents): weight 1"
    fit, tune = split_corpus(reference, seed=seed, stream=2)
    try:
        model = fit_context_model(fit, mechanism.embeddings, secrets, order=order)
        release = _released(mechanism, tune, "text", seed, secrets)
    except (ValueError, InputError):
        return 1.0, "not tuned (half the reference holds no word to fit or release): weight 1"
    if release.slots.size == 0:
        return 1.0, "not tuned (half the reference releases no content word): weight 1"
    scored = _score(release, cands, secrets, partial(_ngram_context, model))
    if scored.ctx is None:  # pragma: no cover - _score was given a context
        return 1.0, "not tuned: weight 1"
    best, best_hits = 1.0, -1
    for weight in sorted(CONTEXT_WEIGHTS, reverse=True):
        attack, _ = _context_ranks(scored, scored.ctx, release.truth, weight,
                                   cands.prior_top, cands.log_prior)
        hits = int(np.count_nonzero(attack == 0))
        if hits > best_hits:
            best, best_hits = weight, hits
    return best, (f"tuned: the weight of {list(CONTEXT_WEIGHTS)} that recovered most of "
                  f"{release.slots.size} content words of a release of half the reference "
                  f"({len(tune)} documents), attacked with a model fitted on its other half "
                  f"({len(fit)})")


def _context_ids(views: list[tuple[list[str], list[int]]], guess: np.ndarray,
                 ids_of: Callable[[list[str]], np.ndarray], guess_ids: np.ndarray
                 ) -> list[np.ndarray]:
    """Each document's token ids, every slot holding its channel-only best guess."""
    out = []
    g = 0
    for tokens, positions in views:
        ids = ids_of(tokens)
        if positions:
            ids[np.asarray(positions)] = guess_ids[guess[g:g + len(positions)]]
        g += len(positions)
        out.append(ids)
    return out


def _slot_positions(views: list[tuple[list[str], list[int]]], slots: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(document, token position) of each target slot (given as a global slot index)."""
    doc_of = np.concatenate([np.full(len(p), d, dtype=np.int64)
                             for d, (_, p) in enumerate(views)] or [np.empty(0, np.int64)])
    pos = np.concatenate([np.asarray(p, dtype=np.int64) for _, p in views]
                         or [np.empty(0, np.int64)])
    return doc_of[slots], pos[slots]


def _ngram_context(model: NgramModel, views: list[tuple[list[str], list[int]]],
                   guess: np.ndarray, slots: np.ndarray, cand: np.ndarray,
                   secrets: Secrets) -> np.ndarray:
    """``log P(context | x)`` from the n-gram model, every target slot × candidate."""
    secret_ids = model.ids(list(secrets.words))
    docs = _context_ids(views, guess, model.ids, secret_ids)
    n = model.order - 1
    pad = np.zeros(n, dtype=np.int64)
    padded = [np.concatenate([pad, d, pad]) for d in docs]
    lengths = np.asarray([p.size for p in padded], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    flat = np.concatenate(padded)
    doc, pos = _slot_positions(views, slots)
    at = starts[doc] + pos + n  # the slot in ``flat``
    steps = np.arange(n)
    left = flat[at[:, None] - n + steps]
    right = flat[at[:, None] + 1 + steps]
    ids = secret_ids[np.maximum(cand, 0)]
    out = np.empty(cand.shape)
    for s in range(0, cand.shape[0], _SLOTS_PER_CHUNK):
        e = s + _SLOTS_PER_CHUNK
        out[s:e] = model.window_scores(left[s:e], right[s:e], ids[s:e])
    return out


def _custom_context(scorer: ContextScorer, views: list[tuple[list[str], list[int]]],
                    guess: np.ndarray, slots: np.ndarray, cand: np.ndarray, secrets: Secrets,
                    window: int) -> np.ndarray:
    """A plugged-in scorer's log-scores, one call per target slot."""
    words = np.asarray(secrets.words, dtype=object)
    tokens_of = []
    g = 0
    for tokens, positions in views:
        toks = list(tokens)
        for p in positions:
            toks[p] = str(words[guess[g]])
            g += 1
        tokens_of.append(toks)
    doc, pos = _slot_positions(views, slots)
    out = np.empty(cand.shape)
    for i, (d, p) in enumerate(zip(doc.tolist(), pos.tolist(), strict=True)):
        toks = tokens_of[d]
        names = [str(w) for w in words[np.maximum(cand[i], 0)]]
        got = np.asarray(scorer(toks[max(0, p - window):p], toks[p + 1:p + 1 + window], names),
                         dtype=np.float64)
        if got.shape != (cand.shape[1],) or np.isnan(got).any():
            raise ValueError(f"scorer must return one log-score per candidate "
                             f"({cand.shape[1]}), none NaN; got shape {got.shape}")
        out[i] = got
    return out


def _methods(kind: str, draws: int | None, mode: str, context: str, order: int,
             reference: str | None, candidates: int, frequent: int, window: int,
             weight: float | None, tuning: str) -> dict[str, str]:
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
                    "included; capitalised: written in Title or UPPER case"),
    }


# -- reports --------------------------------------------------------------------------------
def _check(recons: Sequence[Reconstruction]) -> list[Reconstruction]:
    recons = list(recons)
    if not recons or not all(isinstance(r, Reconstruction) for r in recons):
        raise TypeError("reconstructions must be a non-empty sequence of Reconstruction")
    return recons


def _text(e: Estimate | None) -> str:
    return "–" if e is None else e.text()


def reconstruction_table(recons: Sequence[Reconstruction]) -> str:
    """A Markdown table of reconstruction attacks (one row per ε), then one per class."""
    recons = _check(recons)
    lines = ["| mechanism | ε | mode | context | words | exact recovery | top-5 recovery | "
             "channel only | context only | prior only |",
             "|---|---:|---|---|---:|---|---|---|---|---|"]
    for r in recons:
        base = r.baselines
        ctx = base.get("context_only")
        lines.append(
            f"| {r.mechanism} | {r.epsilon:g} | {r.mode} | {_context_label(r)} | {r.words} | "
            f"{_text(r.attack.exact)} | {_text(r.attack.top5)} | "
            f"{_text(base['channel_only'].exact)} | {'–' if ctx is None else _text(ctx.exact)}"
            f" | {_text(base['prior_only'].exact)} |")
    lines += ["", "Exact recovery of each guesser (baselines: exact); intervals "
              f"Clopper–Pearson at {recons[0].confidence:.0%}.", "",
              "| mechanism | ε | class | words | attack exact | attack top-5 | channel only | "
              "prior only |",
              "|---|---:|---|---:|---|---|---|---|"]
    for r in recons:
        for c, by in r.classes.items():
            attack = by.get("attack", by["channel_only"])
            lines.append(f"| {r.mechanism} | {r.epsilon:g} | {c} | {attack.words} | "
                         f"{_text(attack.exact)} | "
                         f"{_text(attack.top5)} | {_text(by['channel_only'].exact)} | "
                         f"{_text(by['prior_only'].exact)} |")
    return "\n".join(lines) + "\n"


def _context_label(r: Reconstruction) -> str:
    if r.context == "ngram":
        return f"{r.order}-gram ({'other half' if r.reference == 'half' else 'reference'})"
    return r.context


def reconstruction_csv(recons: Sequence[Reconstruction]) -> str:
    """CSV: one row per ε, class (``all`` first) and guesser, with the intervals."""
    recons = _check(recons)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["mechanism", "epsilon", "mode", "context", "class", "guesser", "words",
                     "exact", "exact_lower", "exact_upper", "top5", "top5_lower",
                     "top5_upper"])
    for r in recons:
        groups = {"all": {"attack": r.attack, **r.baselines}, **r.classes}
        for c, by in groups.items():
            for g, rate in by.items():
                row: list[Any] = [r.mechanism, r.epsilon, r.mode, r.context, c, g, rate.words]
                for e in (rate.exact, rate.top5):
                    row += ["", "", ""] if e is None else [e.estimate, e.lower, e.upper]
                writer.writerow(row)
    return buf.getvalue()
