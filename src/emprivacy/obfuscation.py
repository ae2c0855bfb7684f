"""Obfuscating documents: Alg. 2 over a corpus, batched, one noise stream per document.

Each document is normalised to its bag of words (Def. 1), the words outside the
embedding vocabulary are dropped and counted (never released; other policies:
``oov="placeholder"`` or ``"keep"``), the bag is optionally truncated to N words,
and Alg. 2 is applied.  In text mode (``mode="text"``, :mod:`emprivacy.readable`)
every perturbed word of the text is replaced in place and the layout is kept.
Every document draws its noise from its own ChaCha20 stream keyed by the run's
secret key and the document's identifier
(:func:`emprivacy.randomness.document_generator`), so the output does not depend
on batching, order or partitioning.  Noisy vectors of many
documents are decoded together, in large batches, for speed.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import check_choice, check_positive_int
from .corpus import Document
from .exceptions import InputError, PrivacyLeakWarning
from .mechanism import EarthMoversPrivacy
from .randomness import document_generator, run_key_from_seed
from .readable import OOV_PLACEHOLDER, OOV_POLICIES, TEXT_GUARANTEE, TextTemplate, prepare_text
from .text import bag_of_words

__all__ = ["Obfuscator", "PreparedBag", "prepare_bag"]


@dataclass(frozen=True, slots=True)
class PreparedBag:
    """A document's bag as vocabulary row indices, with its out-of-vocabulary words' fate.

    ``fixed`` holds what is released for out-of-vocabulary words without going
    through the mechanism: placeholders, or the words themselves under ``keep``.
    """

    indices: np.ndarray
    oov_dropped: int
    fixed: tuple[str, ...] = ()
    oov_placeholders: int = 0
    oov_kept: int = 0


def prepare_bag(text: str, mechanism: EarthMoversPrivacy, *, size: int | None = None,
                oov: str = "drop") -> PreparedBag:
    """Bag of in-vocabulary words of ``text`` (first ``size`` of them), as row indices.

    Out-of-vocabulary words met before the ``size``-th in-vocabulary word are
    counted and, by ``oov``: dropped (``"drop"``, the default: never released),
    replaced by :data:`~emprivacy.readable.OOV_PLACEHOLDER` (``"placeholder"``) or
    kept unchanged (``"keep"``: outside the guarantee).  They never count towards
    the bag size N.
    """
    check_choice(oov, "oov", OOV_POLICIES)
    emb = mechanism.embeddings
    rows: list[int] = []
    fixed: list[str] = []
    dropped = 0
    for word in bag_of_words(text):
        j = emb.get_index(word)
        if j < 0:
            if oov == "drop":
                dropped += 1
            else:
                fixed.append(OOV_PLACEHOLDER if oov == "placeholder" else word)
            continue
        rows.append(j)
        if size is not None and len(rows) >= size:
            break
    n_fixed = len(fixed)
    return PreparedBag(np.asarray(rows, dtype=np.int64), dropped, tuple(fixed),
                       n_fixed if oov == "placeholder" else 0, n_fixed if oov == "keep" else 0)


class Obfuscator:
    """Apply Alg. 2 to a stream of documents and produce output records.

    Parameters
    ----------
    mechanism : EarthMoversPrivacy
        Embeddings, ε and decoder.
    size : int, optional
        The fixed bag size N: every bag is truncated to its first N in-vocabulary
        words.  ``None``: N is each document's own bag size.
    seed : int, optional
        Derive the run key from a seed: reproducible, **not for real releases**.
        ``None``: a secret random run key.
    batch_words : int
        Noisy vectors are decoded in batches of about this many words.
    on_warning : callable, optional
        Receives one-line warnings (an empty document skipped); default
        :func:`warnings.warn`.
    mode : {"bag", "text"}, default "bag"
        ``"bag"``: records hold the noisy bag (``bag``).  ``"text"``: records hold
        the readable text (``text``) with every perturbed word replaced in place
        (:mod:`emprivacy.readable`) and the text-mode guarantee (``guarantee``).
    oov : {"drop", "placeholder", "keep"}, optional
        Out-of-vocabulary words; default ``"drop"`` for bags, ``"placeholder"``
        for text.  ``"keep"`` releases them unchanged, outside the guarantee: a
        :class:`~emprivacy.exceptions.PrivacyLeakWarning` is raised (once, with a
        count, never the words) and each record counts them in ``oov_kept``.
    perturb_stopwords : bool, default False
        Text mode: send stopwords through the mechanism too (by default they
        are kept: they carry no topic, but they do carry style).
    """

    def __init__(self, mechanism: EarthMoversPrivacy, *, size: int | None = None,
                 seed: int | None = None, batch_words: int = 16384,
                 on_warning: Callable[[str], None] | None = None, mode: str = "bag",
                 oov: str | None = None, perturb_stopwords: bool = False) -> None:
        if not isinstance(mechanism, EarthMoversPrivacy):
            raise TypeError("mechanism must be an EarthMoversPrivacy; got "
                            f"{type(mechanism).__name__}")
        self.mechanism = mechanism
        self.mode = check_choice(mode, "mode", ("bag", "text"))
        self.oov = check_choice("drop" if oov is None and mode == "bag" else
                                "placeholder" if oov is None else oov, "oov", OOV_POLICIES)
        if not isinstance(perturb_stopwords, bool):
            raise TypeError("perturb_stopwords must be a bool; got "
                            f"{type(perturb_stopwords).__name__}")
        if perturb_stopwords and mode == "bag":
            raise ValueError("perturb_stopwords applies to text mode; a bag of words has no "
                             "stopwords (Def. 1)")
        self.perturb_stopwords = perturb_stopwords
        if size is not None and mode == "text":
            raise ValueError("size applies to bags of words; text mode releases the whole text")
        self.size = None if size is None else check_positive_int(size, "size")
        self.seed = seed
        self.run_key = run_key_from_seed(seed)
        self.batch_words = check_positive_int(batch_words, "batch_words")
        self._warn = on_warning or (lambda msg: warnings.warn(msg, UserWarning, stacklevel=3))
        self.documents_written = 0
        self.documents_skipped = 0
        #: Out-of-vocabulary words released unchanged so far (``oov="keep"``).
        self.oov_kept = 0

    def metadata(self) -> dict[str, Any]:
        """The fields every record shares."""
        m = self.mechanism
        return {
            "epsilon": m.epsilon,
            "dim": m.dim,
            "embeddings": {"name": m.embeddings.name, "vocab_size": len(m.embeddings)},
            "decoder": m.decoder.name,
            "mode": self.mode,
            "oov": self.oov,
            **({"perturb_stopwords": self.perturb_stopwords} if self.mode == "text" else {}),
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
        mech = self.mechanism
        if self.mode == "text":
            template = prepare_text(doc.text, mech.embeddings, oov=self.oov,
                                    perturb_stopwords=self.perturb_stopwords)
            if template.words_perturbed + sum(template.counts.values()) == 0:
                return None  # no token at all: nothing to release
            kept = template.counts["oov_kept"]
        else:
            bag = prepare_bag(doc.text, mech, size=self.size, oov=self.oov)
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
        Noisy vectors of many documents are decoded in one call per batch.
        """
        shared = self.metadata()
        mech = self.mechanism
        pending: list[tuple[str, PreparedBag | TextTemplate]] = []
        chunks: list[np.ndarray] = []
        n_pending = 0
        seen_any = False
        skipped: list[str] = []  # warnings wait until a document is written: if every
        # document is empty, the single error below says so instead

        def flush() -> Iterator[dict[str, Any]]:
            nonlocal pending, chunks, n_pending
            if not pending:
                return
            decoded = (mech.decoder.decode(np.concatenate(chunks)) if chunks
                       else np.empty(0, dtype=np.int64))
            offset = 0
            for doc_id, bag in pending:
                n = bag.indices.size
                yield self._record(doc_id, bag, decoded[offset:offset + n], shared)
                offset += n
            self.documents_written += len(pending)
            pending, chunks, n_pending = [], [], 0

        for doc in documents:
            seen_any = True
            bag = self._prepare(doc)
            if bag is None:
                self.documents_skipped += 1
                skipped.append(doc.id)
                if pending or self.documents_written:
                    self._warn_skipped(skipped)
                continue
            if bag.indices.size:  # text mode: a text of stopwords and placeholders has none
                rng = document_generator(self.run_key, doc.id)
                chunks.append(mech.noisy_vectors(bag.indices, rng=rng))
            pending.append((doc.id, bag))
            self._warn_skipped(skipped)
            n_pending += bag.indices.size
            if n_pending >= self.batch_words:
                yield from flush()
        yield from flush()
        if seen_any and self.documents_written == 0:
            raise InputError(f"every input document is empty after normalisation "
                             f"({len(skipped)}, first {skipped[0]!r}); nothing to release")
        if not seen_any:
            raise InputError("no input documents")
