"""The corpus a reconstruction attack releases: its documents read into memory, counted and
split between the attacked half and the adversary's reference half.

The attack (:func:`~emprivacy.protection.attacks.reconstruction.reconstruction_attack`)
reads each document twice (the release, the truth), so it holds the corpus in memory
(:func:`load_documents`); the adversary's prior comes from its content-word counts
(:func:`count_words`), and, without a reference corpus of its own, the adversary fits its
context model on the half of the corpus that is not attacked (:func:`split_corpus`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from emprivacy.io.corpus import iter_documents
from emprivacy.io.documents import Document
from emprivacy.text.normalise import normalise_pieces
from emprivacy.text.tokens import piece_words

__all__ = ["count_words", "load_documents", "split_corpus"]


def load_documents(inputs: Iterable[Any], *, stdin: Any = None) -> list[Document]:
    """Every document of ``inputs`` (as :func:`emprivacy.io.corpus.iter_documents` reads
    them), read into memory: the attack reads each twice (the release, the truth)."""
    return [Document(doc.id, doc.text) for doc in iter_documents(inputs, stdin=stdin)]


def count_words(documents: Iterable[Document], *, lang: str = "en") -> Counter[str]:
    """Content-word counts of in-memory documents
    (:func:`~emprivacy.protection.leakage.secrets.content_word_counts` of a corpus
    already read)."""
    counts: Counter[str] = Counter()
    for doc in documents:
        for piece in normalise_pieces(doc.chunks()):
            counts.update(piece_words(piece, lang=lang))
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
