"""Obfuscating documents: Alg. 2 over a corpus, batched, one noise stream per document.

Each document is normalised to its bag of words (Def. 1), the words outside the
embedding vocabulary are dropped and counted (never released), the bag is
optionally truncated to N words, and Alg. 2 is applied.  Every document draws its
noise from its own ChaCha20 stream keyed by the run's secret key and the
document's identifier (:func:`emprivacy.randomness.document_generator`), so the
output does not depend on batching, order or partitioning.  Noisy vectors of many
documents are decoded together, in large batches, for speed.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import check_positive_int
from .corpus import Document, InputError
from .mechanism import EarthMoversPrivacy
from .randomness import document_generator, run_key_from_seed
from .text import bag_of_words

__all__ = ["Obfuscator", "PreparedBag", "prepare_bag"]


@dataclass(frozen=True, slots=True)
class PreparedBag:
    """A document's bag as vocabulary row indices, with the count of dropped words."""

    indices: np.ndarray
    oov_dropped: int


def prepare_bag(text: str, mechanism: EarthMoversPrivacy, *, size: int | None = None
                ) -> PreparedBag:
    """Bag of in-vocabulary words of ``text`` (first ``size`` of them), as row indices.

    Out-of-vocabulary words are dropped and counted; they are never released.
    """
    emb = mechanism.embeddings
    rows: list[int] = []
    dropped = 0
    for word in bag_of_words(text):
        j = emb.get_index(word)
        if j < 0:
            dropped += 1
            continue
        rows.append(j)
        if size is not None and len(rows) >= size:
            break
    return PreparedBag(np.asarray(rows, dtype=np.int64), dropped)


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
    """

    def __init__(self, mechanism: EarthMoversPrivacy, *, size: int | None = None,
                 seed: int | None = None, batch_words: int = 16384,
                 on_warning: Callable[[str], None] | None = None) -> None:
        if not isinstance(mechanism, EarthMoversPrivacy):
            raise TypeError("mechanism must be an EarthMoversPrivacy; got "
                            f"{type(mechanism).__name__}")
        self.mechanism = mechanism
        self.size = None if size is None else check_positive_int(size, "size")
        self.seed = seed
        self.run_key = run_key_from_seed(seed)
        self.batch_words = check_positive_int(batch_words, "batch_words")
        self._warn = on_warning or (lambda msg: warnings.warn(msg, UserWarning, stacklevel=3))
        self.documents_written = 0
        self.documents_skipped = 0

    def metadata(self) -> dict[str, Any]:
        """The fields every record shares."""
        m = self.mechanism
        return {
            "epsilon": m.epsilon,
            "dim": m.dim,
            "embeddings": {"name": m.embeddings.name, "vocab_size": len(m.embeddings)},
            "decoder": m.decoder.name,
            "oov": "drop",
            "seeded": self.seed is not None,
        }

    def _warn_skipped(self, skipped: list[str]) -> None:
        for doc_id in skipped:
            self._warn(f"document {doc_id!r} is empty after normalisation; skipped")
        skipped.clear()

    def _record(self, doc_id: str, bag: PreparedBag, out: np.ndarray,
                shared: dict[str, Any]) -> dict[str, Any]:
        vocab = self.mechanism.embeddings.words
        n = int(bag.indices.size)
        return {
            "id": doc_id,
            "n_words": n,
            "epsilon": shared["epsilon"],
            "epsilon_total": shared["epsilon"] * n,
            **{k: v for k, v in shared.items() if k != "epsilon"},
            "oov_dropped": bag.oov_dropped,
            "bag": [vocab[i] for i in out],
        }

    def obfuscate(self, documents: Iterable[Document]) -> Iterator[dict[str, Any]]:
        """Yield one output record per document, in input order.

        Empty documents (no word left after normalisation) are skipped with a
        warning; if every document is empty, :class:`InputError` is raised.  A
        document whose words are all outside the vocabulary raises
        :class:`InputError` naming it.
        """
        shared = self.metadata()
        mech = self.mechanism
        pending: list[tuple[str, PreparedBag]] = []
        chunks: list[np.ndarray] = []
        n_pending = 0
        seen_any = False
        skipped: list[str] = []  # warnings wait until a document is written: if every
        # document is empty, the single error below says so instead

        def flush() -> Iterator[dict[str, Any]]:
            nonlocal pending, chunks, n_pending
            if not pending:
                return
            decoded = mech.decoder.decode(np.concatenate(chunks))
            offset = 0
            for doc_id, bag in pending:
                n = bag.indices.size
                yield self._record(doc_id, bag, decoded[offset:offset + n], shared)
                offset += n
            self.documents_written += len(pending)
            pending, chunks, n_pending = [], [], 0

        for doc in documents:
            seen_any = True
            bag = prepare_bag(doc.text, mech, size=self.size)
            if bag.indices.size == 0:
                if bag.oov_dropped:
                    raise InputError(f"document {doc.id!r} has no word in the vocabulary of "
                                     f"{mech.embeddings.name!r}")
                self.documents_skipped += 1
                skipped.append(doc.id)
                if pending or self.documents_written:
                    self._warn_skipped(skipped)
                continue
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
