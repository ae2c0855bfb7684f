"""The secrets of a word audit and the adversary's prior over them.

An audit asks how well an adversary who sees one released word recovers the
original.  The original X is one of a set S of *secret words* (by default the
K = 2,000 most frequent content words of the user's corpus, or of the vocabulary when
no corpus is given), drawn from a prior π:

* ``"corpus"`` — the words' frequencies in the corpus, restricted to S (the adversary
  knows how often each word is written);
* ``"zipf"`` — without a corpus, ``π(x) ∝ 1/(r + 1)`` for the vocabulary rank r (the
  built-in embeddings are ordered by frequency: Zipf's law stands in for counts);
* ``"uniform"`` — every secret equally likely (the prior at which the multiplicative
  leakage reaches the channel's capacity).

A *content word* is what a bag of words keeps (:func:`emprivacy.text.tokens.bag_of_words`):
a real word (:func:`emprivacy.text.tokens.is_word`), not a stopword, not a number word.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from emprivacy._validation import check_choice, check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.io.corpus import iter_documents
from emprivacy.text.language import Language, get_language
from emprivacy.text.normalise import normalise_pieces
from emprivacy.text.tokens import is_word, piece_words
from emprivacy.text.word_lists import STOPWORDS, is_number_word

__all__ = ["PRIORS", "Secrets", "content_word_counts", "is_content_word", "secret_words"]

#: The priors an audit knows by name.
PRIORS = ("corpus", "zipf", "uniform")

#: The default number of secret words K.
DEFAULT_SECRETS = 2000


def is_content_word(word: str, lang: str | Language = "en") -> bool:
    """Whether a vocabulary word is a content word of ``lang``: a real word, no stopword, no
    number.

    >>> is_content_word("chicago"), is_content_word("the"), is_content_word("forty-two")
    (True, False, False)
    >>> is_content_word("hôpital", "fr"), is_content_word("les", "fr")
    (True, False)
    """
    language = get_language(lang)
    if language.code == "en":
        return is_word(word) and word not in STOPWORDS and not is_number_word(word)
    return (is_word(word) and word not in language.stopwords
            and not language.is_number_word(word))


def content_word_counts(inputs: Iterable[str | os.PathLike[str]], *, stdin: TextIO | None = None,
                        lang: str | Language = "en") -> Counter[str]:
    """How often each content word occurs in the documents of ``inputs``.

    The words of :func:`emprivacy.text.tokens.bag_of_words` (normalised, lowercased, no
    stopwords, no numbers), counted over every document; documents are read in
    chunks (:meth:`emprivacy.io.documents.Document.chunks`), so memory does not grow with
    a document's length.

    Parameters
    ----------
    inputs : iterable of path-like or ``"-"``
        As :func:`emprivacy.io.corpus.iter_documents`: text files, directories, JSONL,
        Parquet, ``"-"`` for standard input.
    stdin : text stream, optional
        Replaces :data:`sys.stdin`.
    lang : str or Language, default "en"
        The documents' language (its tokenising and stopwords).

    Raises
    ------
    emprivacy.exceptions.InputError
        Naming the input that is missing, unreadable or malformed.
    """
    counts: Counter[str] = Counter()
    for doc in iter_documents(inputs, stdin=stdin):
        for piece in normalise_pieces(doc.chunks()):
            counts.update(piece_words(piece, lang=lang))
    return counts


@dataclass(frozen=True)
class Secrets:
    """The secret words S of an audit, as vocabulary rows, with the prior π over them.

    Attributes
    ----------
    words : tuple of str, length K
        The secret words, most probable first.
    rows : (K,) int64 array
        Their rows in the embeddings' vocabulary.
    prior : (K,) float64 array
        π, positive, summing to 1.
    prior_name : str
        ``"corpus"``, ``"zipf"``, ``"uniform"`` or ``"given"`` (weights given by the caller).
    """

    words: tuple[str, ...]
    rows: np.ndarray = field(repr=False)
    prior: np.ndarray = field(repr=False)
    prior_name: str

    def __post_init__(self) -> None:
        k = len(self.words)
        if k == 0:
            raise ValueError("secrets must hold at least one word; got none")
        if self.rows.shape != (k,) or self.prior.shape != (k,):
            raise ValueError(f"rows and prior must have shape ({k},); got {self.rows.shape} "
                             f"and {self.prior.shape}")
        if np.unique(self.rows).size != k:
            raise ValueError("secrets must be distinct words")
        if not (np.all(np.isfinite(self.prior)) and np.all(self.prior > 0)
                and abs(float(self.prior.sum()) - 1.0) < 1e-9):
            raise ValueError("prior must be positive and sum to 1")

    def __len__(self) -> int:
        return len(self.words)

    @classmethod
    def from_words(cls, embeddings: Embeddings, words: Sequence[str], *,
                   weights: Sequence[float] | None = None) -> Secrets:
        """Secrets given as words (of the vocabulary), with a uniform prior or ``weights``.

        >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]], name="line")
        >>> s = Secrets.from_words(emb, ["dog", "cat"], weights=[3, 1])
        >>> s.rows.tolist(), s.prior.tolist(), s.prior_name
        ([1, 0], [0.75, 0.25], 'given')
        """
        if isinstance(words, str):
            raise TypeError("words must be a sequence of words, not a single str")
        words = list(words)
        rows = embeddings.rows(words)
        if (rows < 0).any():
            first = words[int(np.flatnonzero(rows < 0)[0])]
            raise ValueError(f"word {first!r} is not in the vocabulary of {embeddings.name!r}")
        if weights is None:
            prior = np.full(len(words), 1.0 / max(1, len(words)))
            name = "uniform"
        else:
            w = np.asarray(weights, dtype=np.float64)
            if w.shape != (len(words),) or not np.all(np.isfinite(w)) or np.any(w <= 0):
                raise ValueError(f"weights must be {len(words)} finite numbers > 0")
            prior, name = w / w.sum(), "given"
        return cls(tuple(words), rows.astype(np.int64), prior, name)


def secret_words(embeddings: Embeddings, *, k: int = DEFAULT_SECRETS,
                 counts: Mapping[str, int] | None = None, prior: str | None = None,
                 lang: str | Language = "en") -> Secrets:
    """The K secret words of an audit and their prior.

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary (the mechanism's).
    k : int, default 2000
        How many secret words (fewer if fewer content words are available).
    counts : mapping of word to count, optional
        Word counts of the user's corpus (:func:`content_word_counts`): S is then its
        K most frequent content words that are in the vocabulary (ties by vocabulary
        rank; words that share a row, the aliases of a pruned table such as the French
        one, count for the row's output word).  Without counts, S is the first K content
        words of the vocabulary.
    prior : {"corpus", "zipf", "uniform"}, optional
        π over S (see the module docstring).  Default: ``"corpus"`` with counts,
        ``"zipf"`` without; ``"corpus"`` needs counts.
    lang : str or Language, default "en"
        Whose stopwords and number words are no content words.

    Returns
    -------
    Secrets

    Raises
    ------
    ValueError
        For a bad ``k`` or ``prior``, ``"corpus"`` without counts, or no content word.

    Examples
    --------
    >>> emb = Embeddings(["the", "cat", "dog", "car"], [[0.0], [1.0], [2.0], [3.0]])
    >>> s = secret_words(emb, counts={"dog": 3, "car": 1, "the": 9, "cow": 5})
    >>> s.words, s.prior.tolist()
    (('dog', 'car'), [0.75, 0.25])
    >>> secret_words(emb, k=2, prior="uniform").words
    ('cat', 'dog')
    """
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    k = check_positive_int(k, "secrets")
    if prior is None:
        prior = "zipf" if counts is None else "corpus"
    check_choice(prior, "prior", PRIORS)
    if counts is None:
        if prior == "corpus":
            raise ValueError("prior 'corpus' needs a corpus to count words in; give one, or "
                             "use prior 'zipf' or 'uniform'")
        rows_list: list[int] = []
        for i, w in enumerate(embeddings.words):
            if is_content_word(w, lang):
                rows_list.append(i)
                if len(rows_list) == k:
                    break
        rows = np.asarray(rows_list, dtype=np.int64)
        weights: np.ndarray = np.ones(rows.size)
    else:
        by_row: Counter[int] = Counter()  # an alias counts for its row (one output word)
        for w, c in counts.items():
            if c > 0 and is_content_word(w, lang) and w in embeddings:
                by_row[embeddings.get_index(w)] += int(c)
        found = sorted((-c, r, embeddings.words[r]) for r, c in by_row.items())
        chosen = found[:k]
        rows = np.asarray([r for _, r, _ in chosen], dtype=np.int64)
        weights = np.asarray([-c for c, _, _ in chosen], dtype=np.float64)
    if rows.size == 0:
        where = "the corpus" if counts is not None else f"the vocabulary of {embeddings.name!r}"
        raise ValueError(f"{where} holds no content word of the vocabulary: nothing to audit")
    if prior == "uniform":
        weights = np.ones(rows.size)
    elif prior == "zipf":  # by vocabulary rank, whether or not the words came from a corpus
        weights = 1.0 / (rows + 1.0)
    words = tuple(embeddings.words[r] for r in rows.tolist())
    return Secrets(words, rows, weights / weights.sum(), prior)
