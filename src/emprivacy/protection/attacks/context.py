"""The reconstruction adversary's context: how it reads released text, and how it scores
each candidate original by the words around a released one.

* The adversary reads a released text as tokens (:func:`_text_view`): kept words in lower
  case, placeholders, ``<s>`` for sentence punctuation, and each perturbed word's slot.
* Its context model is an :class:`~emprivacy.protection.attacks.ngram.NgramModel` fitted
  on reference documents read the same way (:func:`fit_context_model`), or any
  :class:`ContextScorer` the caller plugs in.
* For each target slot and candidate original x it gives ``log P(context | x)`` up to a
  constant, a neighbouring released content word read as its channel-only best guess
  (:func:`_ngram_context`, :func:`_custom_context`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import numpy as np

from emprivacy.embeddings.model import OOV_PLACEHOLDER, Embeddings
from emprivacy.io.documents import Document
from emprivacy.preparation.template import PLACEHOLDERS, TextTemplate, prepare_text
from emprivacy.protection.attacks.corpus import _check_documents
from emprivacy.protection.attacks.ngram import BOUNDARY, NgramModel
from emprivacy.protection.leakage.secrets import Secrets
from emprivacy.text.normalise import normalise_word

__all__ = ["ContextScorer", "fit_context_model"]

_SLOTS_PER_CHUNK = 2048


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
                      where: str = "the reference", lang: str = "en") -> NgramModel:
    """The adversary's n-gram model, fitted on reference documents seen as a release.

    Each reference document is read as text mode would release it with no noise (its
    content words in place, function words kept, numbers, URLs and unknown words as
    placeholders: :func:`~emprivacy.preparation.template.prepare_text`), so that its
    contexts look like the release's (in ``lang``).  The secret words are in the model's
    vocabulary.

    Raises
    ------
    ValueError
        When the reference holds no word of the vocabulary (``where`` names it).
    """
    sequences = []
    words = 0
    for doc in _check_documents(reference, "reference"):
        template = prepare_text(doc.text, embeddings, lang=lang)
        words += template.words_perturbed
        sequences.append(_text_view(template, template.indices.tolist(), embeddings.words)[0])
    if words == 0:
        raise ValueError(f"{where} holds no word of the vocabulary of {embeddings.name!r}: "
                         "nothing to fit the context model on")
    return NgramModel.fit(sequences, order=order, discount=discount, vocabulary=secrets.words)


# -- log P(context | x) ----------------------------------------------------------------------
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
