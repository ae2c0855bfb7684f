"""The release that the reconstruction attack attacks, made as a user makes it, with its truth.

The corpus goes through the real release path (:class:`~emprivacy.obfuscation.Obfuscator`,
text mode or bags, seeded), which keeps, for each document, its words and their released
rows in order (:class:`_CapturingObfuscator`); :func:`release_corpus` lines them up with
the truth the attack is scored on: the target slots (released content words), their
originals as secrets, their capitalisation, and the text as the adversary reads it.

Internal to :mod:`emprivacy.protection.attacks`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from emprivacy.embeddings.model import Embeddings, PreparedBag
from emprivacy.exceptions import InputError
from emprivacy.io.documents import Document
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.obfuscation import BLOCK_CHARS, ObfuscationConfig, Obfuscator
from emprivacy.obfuscation.entities import EntityRun
from emprivacy.preparation.decisions import EntityKey
from emprivacy.preparation.template import TextTemplate
from emprivacy.preparation.writing import case_pattern
from emprivacy.protection.attacks.context import _text_view
from emprivacy.protection.leakage.entity_secrets import EntityOptions
from emprivacy.protection.leakage.secrets import Secrets, is_content_word
from emprivacy.text.language import get_language
from emprivacy.text.normalise import normalise_pieces, normalise_word
from emprivacy.text.tokens import tokenize

__all__ = ["Release", "release_corpus"]


class _CapturingObfuscator(Obfuscator):
    """The real release path, keeping each document's inputs and outputs in order.

    ``captured``: ``(record id, bag or template, released rows before any sorting, the
    surrogates of its entity words)``; nothing of it reaches a record.  Documents are
    released in one block each.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.captured: list[tuple[str, PreparedBag | TextTemplate, np.ndarray,
                                  Mapping[EntityKey, str]]] = []

    def _record(self, doc_id: str, bag: PreparedBag | TextTemplate, out: np.ndarray,
                shared: dict[str, Any]) -> dict[str, Any]:
        found = dict(self._found.get(id(bag), {}))  # the record pops them
        record = super()._record(doc_id, bag, out, shared)
        self.captured.append((doc_id, bag, np.array(out, dtype=np.int64), found))
        return record

    def _long_text(self, doc_id: str, label: str, *args: Any, **kwargs: Any) -> Any:
        raise InputError(f"document {label!r} is longer than {BLOCK_CHARS} characters: the "
                         "reconstruction attack reads each document whole; split it")

    _long_bag = _long_text


def _captured_release(mechanism: WordMechanism, documents: list[Document], mode: str,
                      seed: int, entities: EntityOptions | None = None, lang: str = "en"
                      ) -> tuple[list[tuple[str, PreparedBag | TextTemplate, np.ndarray,
                                            Mapping[EntityKey, str]]], EntityRun | None]:
    """The release's captures, and its entity run (``None`` without entities)."""
    opts = {"lang": lang, **({} if entities is None else entities.config())}
    config = ObfuscationConfig(mode=mode, block_words=2**62, **opts)  # type: ignore[arg-type]
    obfuscator = _CapturingObfuscator(mechanism, config, seed=seed,
                                      on_warning=lambda message: None,
                                      entity_lists=None if entities is None else entities.lists)
    for _ in obfuscator.obfuscate(documents):
        pass
    return obfuscator.captured, obfuscator.entities


def _bag_cases(doc: Document, embeddings: Embeddings, rows: np.ndarray, lang: str = "en"
               ) -> list[bool]:
    """Whether each word of a document's bag (in bag order, in ``lang``) was capitalised."""
    caps: list[bool] = []
    found: list[int] = []
    stopwords = get_language(lang).stopwords
    for piece in normalise_pieces(doc.chunks()):
        toks = [t for t in tokenize(piece, lang=lang) if t.kind == "word"]
        keep = [(t, w) for t in toks if (w := normalise_word(t.text)) not in stopwords]
        for (tok, _), row in zip(keep, embeddings.rows([w for _, w in keep]).tolist(),
                                 strict=True):
            if row >= 0:
                caps.append(case_pattern(tok.text) != "lower")
                found.append(row)
    if found != rows.tolist():  # pragma: no cover - a bug, not the user's input
        raise RuntimeError(f"internal error: the bag of document {doc.id!r} does not match "
                           "its words")
    return caps


@dataclass
class Release:
    """A release and its truth: every slot's released row; the target slots (content
    words), their originals as secrets (-1: not a secret) and capitalisation; text mode:
    each document's tokens as the adversary reads them.  With entities: each slot's entity
    type (an index into ``entity_types``; -1: an ordinary word), the run, and the words
    detection took per type (``detected``)."""

    out: np.ndarray
    slots: np.ndarray
    truth: np.ndarray
    capital: np.ndarray
    views: list[tuple[list[str], list[int]]]
    entity: np.ndarray | None = None
    entity_types: tuple[str, ...] = ()
    run: EntityRun | None = None
    detected: dict[str, int] = field(default_factory=dict)


def release_corpus(mechanism: WordMechanism, documents: list[Document], mode: str, seed: int,
                   secrets: Secrets, entities: EntityOptions | None = None,
                   lang: str = "en") -> Release:
    """Release ``documents`` in ``mode`` with ``seed`` (and ``entities``: text mode with
    entity detection, as ``obfuscate --entities``) in ``lang``, and line the release up with
    its truth (:class:`Release`): the target slots are the content words of ``lang``
    (:func:`~emprivacy.protection.leakage.secrets.is_content_word`) and the entity words."""
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
    captured, run = _captured_release(mechanism, documents, mode, seed, entities, lang)
    types = tuple(run.mechanisms) if run is not None else ()
    kinds: list[np.ndarray] = []
    detected: Counter[str] = Counter({t: 0 for t in run.marking.types} if run else {})
    for doc_id, bag, out, found in captured:
        orig = bag.indices
        kind = np.full(orig.size, -1, dtype=np.int64)
        if isinstance(bag, TextTemplate) and bag.entities:
            orig, out, kind = _with_entity_slots(bag, out, found, emb, types)
            detected.update(bag.entity_counts)
        is_target = np.fromiter(
            (k >= 0 or content.setdefault(r, is_content_word(vocab[r], lang))
             for r, k in zip(orig.tolist(), kind.tolist(), strict=True)),
            dtype=bool, count=orig.size)
        kinds.append(kind)
        if isinstance(bag, TextTemplate):
            caps = np.asarray([c != "lower" for c in bag.cases], dtype=bool)
            views.append(_text_view(bag, out.tolist(), vocab))
        else:
            caps = np.asarray(_bag_cases(by_id[doc_id], emb, orig, lang), dtype=bool)
        idx = np.flatnonzero(is_target)
        outs.append(out)
        slots.append(offset + idx)
        truth.append(np.where(orig[idx] >= 0, secret_of_row[orig[idx]], -1))
        capital.append(caps[idx] if idx.size else np.zeros(0, dtype=bool))
        offset += out.size

    def cat(parts: list[np.ndarray], dtype: Any) -> np.ndarray:
        return np.concatenate(parts) if parts else np.empty(0, dtype)

    return Release(cat(outs, np.int64), cat(slots, np.int64), cat(truth, np.int64),
                   cat(capital, bool), views, cat(kinds, np.int64) if run else None, types,
                   run, dict(detected))


def _with_entity_slots(template: TextTemplate, out: np.ndarray,
                       surrogates: Mapping[EntityKey, str], embeddings: Embeddings,
                       types: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A template's every slot in text order (its ordinary words' and its entity words'):
    the original rows (an entity word's input row; -1 for one from its vector), the released
    rows (an entity slot: its surrogate's row) and each slot's entity type (an index into
    ``types``; -1: an ordinary word)."""
    general = iter(out.tolist())
    inputs = iter(template.indices.tolist())
    orig: list[int] = []
    released: list[int] = []
    kind: list[int] = []
    for key in template.entities:
        if key is None:
            orig.append(next(inputs))
            released.append(next(general))
            kind.append(-1)
        else:
            orig.append(int(template.entity_inputs[key][0]))
            released.append(embeddings.get_index(surrogates[key]))
            kind.append(types.index(key[0]))
    return (np.asarray(orig, dtype=np.int64), np.asarray(released, dtype=np.int64),
            np.asarray(kind, dtype=np.int64))
