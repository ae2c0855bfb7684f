"""Obfuscating documents: a mechanism over a corpus, batched, one noise stream per document.

Each document is normalised to its bag of words (Def. 1), the words outside the
embedding vocabulary are dropped and counted (never released; other policies:
``oov="placeholder"`` or ``"keep"``), the bag is optionally truncated to N words
(never padded: a shorter bag keeps, and releases, its own size), and the
mechanism (Alg. 2 for the paper's) is applied.  In text mode
(``mode="text"``, :mod:`emprivacy.readable`) every perturbed word of the text is
replaced in place and the layout is kept.  Every document draws its noise from its
own ChaCha20 stream keyed by the run's secret key and the document's identifier
(:func:`emprivacy.randomness.document_generator`), so the output does not depend
on batching, order or partitioning.  An identifier may therefore be used once:
a repeated one is refused (:class:`~emprivacy.exceptions.InputError`), since two
documents with one identifier would be released with the same, perfectly
correlated, noise.  Many documents are privatised together
(:meth:`~emprivacy.mechanisms.WordMechanism.privatize_batches`), for speed.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ._validation import check_choice, check_positive_int
from .corpus import Document, UniqueIds
from .embeddings import OOV_POLICIES, PreparedBag
from .exceptions import InputError, PrivacyLeakWarning
from .mechanisms import WordMechanism
from .randomness import document_generator, run_key_from_seed
from .readable import TEXT_GUARANTEE, TextTemplate, prepare_text
from .text import bag_of_words

__all__ = ["DEFAULT_VOCAB_SIZE", "ObfuscationConfig", "Obfuscator"]

#: How many of the most frequent real words of an embeddings file are kept by default.
DEFAULT_VOCAB_SIZE = 100_000


@dataclass(frozen=True, kw_only=True)
class ObfuscationConfig:
    """What a run releases for each document; validated on construction.

    Parameters
    ----------
    mode : {"bag", "text"}, default "bag"
        ``"bag"``: records hold the noisy bag (``bag``).  ``"text"``: records hold
        the readable text (``text``) with every perturbed word replaced in place
        (:mod:`emprivacy.readable`) and the text-mode guarantee (``guarantee``).
    oov : {"drop", "placeholder", "keep"}, optional
        Out-of-vocabulary words; default ``"drop"`` for bags, ``"placeholder"``
        for text.  ``"keep"`` releases them unchanged, outside the guarantee: a
        :class:`~emprivacy.exceptions.PrivacyLeakWarning` is raised (once, with a
        count, never the words) and each record counts them in ``oov_kept``.
    size : int, optional
        The bag size N: every bag longer than N is truncated to its first N
        in-vocabulary words.  A shorter bag is **not padded**: it keeps its own
        size n < N, and releases it (``n_words``; the records also say the
        requested ``size``).  The εN·E guarantee (Thm. 1, Thm. 4) compares bags of
        one size only, so it does not hide a document's length: ``size`` caps what
        a document releases, it does not make all documents alike.  ``None``: N is
        each document's own bag size.  Bags only.
    perturb_stopwords : bool, default False
        Text mode: send stopwords through the mechanism too (by default they
        are kept: they carry no topic, but they do carry style).
    batch_words : int, default 16384
        Documents are privatised together in batches of about this many words.

    Examples
    --------
    >>> ObfuscationConfig(mode="text").oov
    'placeholder'
    >>> ObfuscationConfig(mode="text", size=3)
    Traceback (most recent call last):
    ...
    ValueError: size applies to bags of words; text mode releases the whole text
    """

    mode: Literal["bag", "text"] = "bag"
    oov: str | None = None
    size: int | None = None
    perturb_stopwords: bool = False
    batch_words: int = 16384

    def __post_init__(self) -> None:
        check_choice(self.mode, "mode", ("bag", "text"))
        default = "drop" if self.mode == "bag" else "placeholder"
        object.__setattr__(self, "oov", check_choice(
            default if self.oov is None else self.oov, "oov", OOV_POLICIES))
        if not isinstance(self.perturb_stopwords, bool):
            raise TypeError("perturb_stopwords must be a bool; got "
                            f"{type(self.perturb_stopwords).__name__}")
        if self.perturb_stopwords and self.mode == "bag":
            raise ValueError("perturb_stopwords applies to text mode; a bag of words has no "
                             "stopwords (Def. 1)")
        if self.size is not None:
            if self.mode == "text":
                raise ValueError("size applies to bags of words; text mode releases the "
                                 "whole text")
            object.__setattr__(self, "size", check_positive_int(self.size, "size"))
        object.__setattr__(self, "batch_words", check_positive_int(self.batch_words,
                                                                   "batch_words"))

    def metadata(self) -> dict[str, Any]:
        """The fields of every record that describe this configuration (``size`` when
        one was requested: next to the record's ``n_words``, which may be smaller)."""
        return {"mode": self.mode, "oov": self.oov,
                **({"size": self.size} if self.size is not None else {}),
                **({"perturb_stopwords": self.perturb_stopwords} if self.mode == "text"
                   else {})}


class Obfuscator:
    """Apply a mechanism to a stream of documents and produce output records.

    Parameters
    ----------
    mechanism : WordMechanism
        Embeddings, ε and how words are privatised (e.g.
        :class:`~emprivacy.mechanisms.EarthMoversPrivacy`).
    config : ObfuscationConfig, optional
        Mode, out-of-vocabulary policy, bag size, batching; default
        ``ObfuscationConfig()`` (bags, OOV words dropped).
    seed : int, optional
        Derive the run key from a seed: reproducible, **not for real releases**.
    run_key : bytes, optional
        The run's secret key (shared by every worker of a distributed run).  With
        neither ``seed`` nor ``run_key``: a fresh secret random key.
    on_warning : callable, optional
        Receives one-line warnings (an empty document skipped); default
        :func:`warnings.warn`.

    Notes
    -----
    Every document draws its noise from its own ChaCha20 stream keyed by the run
    key and its identifier (:func:`emprivacy.randomness.document_generator`).  An
    obfuscator therefore releases each identifier at most once over its lifetime
    (across calls of :meth:`obfuscate`): a repeated identifier raises
    :class:`~emprivacy.exceptions.InputError` naming it and the positions of both
    documents, before the second one is obfuscated.
    """

    def __init__(self, mechanism: WordMechanism, config: ObfuscationConfig | None = None, *,
                 seed: int | None = None, run_key: bytes | None = None,
                 on_warning: Callable[[str], None] | None = None) -> None:
        if not isinstance(mechanism, WordMechanism):
            raise TypeError("mechanism must be a WordMechanism (e.g. EarthMoversPrivacy); got "
                            f"{type(mechanism).__name__}")
        config = ObfuscationConfig() if config is None else config
        if not isinstance(config, ObfuscationConfig):
            raise TypeError(f"config must be an ObfuscationConfig; got {type(config).__name__}")
        if seed is not None and run_key is not None:
            raise ValueError("give seed or run_key, not both")
        if run_key is not None and (not isinstance(run_key, bytes) or len(run_key) < 16):
            raise ValueError("run_key must be bytes of length >= 16")
        self.mechanism = mechanism
        self.config = config
        self.seed = seed
        self.run_key = run_key if run_key is not None else run_key_from_seed(seed)
        self._warn = on_warning or (lambda msg: warnings.warn(msg, UserWarning, stacklevel=3))
        self.documents_written = 0
        self.documents_skipped = 0
        #: Out-of-vocabulary words released unchanged so far (``oov="keep"``).
        self.oov_kept = 0
        self._ids = UniqueIds()  # every id this obfuscator has seen: each keys one stream

    def metadata(self) -> dict[str, Any]:
        """The fields every record shares."""
        m = self.mechanism
        return {
            "epsilon": m.epsilon,
            "dim": m.dim,
            "embeddings": {"name": m.embeddings.name, "vocab_size": len(m.embeddings)},
            **m.record_fields(),
            **self.config.metadata(),
            "seeded": self.seed is not None,
        }

    def _warn_skipped(self, skipped: list[str]) -> None:
        for doc_id in skipped:
            self._warn(f"document {doc_id!r} is empty after normalisation; skipped")
        skipped.clear()

    def _record(self, doc_id: str, bag: PreparedBag | TextTemplate, out: np.ndarray,
                shared: dict[str, Any]) -> dict[str, Any]:
        vocab = self.mechanism.embeddings.words
        n = int(bag.indices.size)
        head = {
            "id": doc_id,
            "n_words": n,
            "epsilon": shared["epsilon"],
            "epsilon_total": shared["epsilon"] * n,
            **{k: v for k, v in shared.items() if k != "epsilon"},
        }
        if isinstance(bag, TextTemplate):
            return {**head, "words_perturbed": n, **bag.counts, "guarantee": TEXT_GUARANTEE,
                    "text": bag.render(out, vocab)}
        return {
            **head,
            "oov_dropped": bag.oov_dropped,
            "oov_placeholders": bag.oov_placeholders,
            "oov_kept": bag.oov_kept,
            # released in sorted order: a function of the multiset only, so the output is a
            # bag and the εN·E guarantee of Thm. 4 applies (an ordered list would pair each
            # output word with its input position and only carry the Manhattan lift, §3)
            "bag": sorted([vocab[i] for i in out] + list(bag.fixed)),
        }

    def _prepare(self, doc: Document) -> PreparedBag | TextTemplate | None:
        """A document's bag or text template; ``None`` for an empty document."""
        mech, config = self.mechanism, self.config
        template: PreparedBag | TextTemplate
        if config.mode == "text":
            template = prepare_text(doc.text, mech.embeddings, oov=str(config.oov),
                                    perturb_stopwords=config.perturb_stopwords)
            if template.words_perturbed + sum(template.counts.values()) == 0:
                return None  # no token at all: nothing to release
            kept = template.counts["oov_kept"]
        else:
            bag = mech.embeddings.lookup(bag_of_words(doc.text), oov=str(config.oov),
                                         size=config.size)
            if bag.indices.size == 0:
                if bag.oov_dropped or bag.fixed:
                    raise InputError(f"document {doc.id!r} has no word in the vocabulary of "
                                     f"{mech.embeddings.name!r}")
                return None
            template, kept = bag, bag.oov_kept
        if kept:
            if not self.oov_kept:
                warnings.warn("out-of-vocabulary words are released unchanged (oov='keep'): "
                              "the privacy guarantee does not cover them; each record counts "
                              "them in 'oov_kept'", PrivacyLeakWarning, stacklevel=4)
            self.oov_kept += kept
        return template

    def obfuscate(self, documents: Iterable[Document]) -> Iterator[dict[str, Any]]:
        """Yield one output record per document, in input order.

        Empty documents (no word left after normalisation; in text mode, no
        token at all) are skipped with a warning; if every document is empty,
        :class:`InputError` is raised.  In bag mode, a document whose words are
        all outside the vocabulary raises :class:`InputError` naming it; in text
        mode it is released with its out-of-vocabulary words handled by ``oov``.
        A document whose identifier this obfuscator has already seen raises
        :class:`InputError` (positions counted from 1 over the obfuscator's
        lifetime) before it is obfuscated: the records yielded so far are all of
        distinct documents.  Noisy vectors of many documents are decoded in one
        call per batch.
        """
        shared = self.metadata()
        mech = self.mechanism
        pending: list[tuple[str, PreparedBag | TextTemplate]] = []
        n_pending = 0
        seen_any = False
        skipped: list[str] = []  # warnings wait until a document is written: if every
        # document is empty, the single error below says so instead

        def flush() -> Iterator[dict[str, Any]]:
            nonlocal pending, n_pending
            if not pending:
                return
            # text mode: a text of stopwords and placeholders has no word to privatise
            todo = [(doc_id, bag) for doc_id, bag in pending if bag.indices.size]
            released = iter(mech.privatize_batches(
                [(bag.indices, document_generator(self.run_key, doc_id)) for doc_id, bag in todo]))
            empty = np.empty(0, dtype=np.int64)
            for doc_id, bag in pending:
                out = next(released) if bag.indices.size else empty
                yield self._record(doc_id, bag, out, shared)
            self.documents_written += len(pending)
            pending, n_pending = [], 0

        for doc in documents:
            if not isinstance(doc, Document):
                raise TypeError("documents must be emprivacy.corpus.Document objects; got "
                                f"{type(doc).__name__}")
            self._ids.add(doc.id)
            seen_any = True
            bag = self._prepare(doc)
            if bag is None:
                self.documents_skipped += 1
                skipped.append(doc.id)
                if pending or self.documents_written:
                    self._warn_skipped(skipped)
                continue
            pending.append((doc.id, bag))
            self._warn_skipped(skipped)
            n_pending += bag.indices.size
            if n_pending >= self.config.batch_words:
                yield from flush()
        yield from flush()
        if seen_any and self.documents_written == 0:
            raise InputError(f"every input document is empty after normalisation "
                             f"({len(skipped)}, first {skipped[0]!r}); nothing to release")
        if not seen_any:
            raise InputError("no input documents")
