"""The pairs that the distinguishability audit compares, and their checks.

The audit (:mod:`emprivacy.protection.leakage.distinguish`) tells two inputs apart; they are
chosen here:

* pairs of secret words at a spread of distances (:func:`choose_pairs`), in the metric of
  the mechanism's own guarantee (:func:`guarantee_distance`);
* pairs of words read from a file (:func:`read_word_pairs`), or given as words or rows and
  checked against the vocabulary;
* two documents of one layout, compared position by position in text mode
  (:func:`document_positions`: the check a command can make before any release).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from emprivacy._validation import check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.exceptions import InputError
from emprivacy.io.corpus import read_named_file
from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.mechanisms.base import WordMechanism, check_rows
from emprivacy.preparation.template import EUCLIDEAN_GUARANTEE, prepare_text
from emprivacy.text.normalise import normalise_surface, normalise_word

__all__ = ["choose_pairs", "document_positions", "guarantee_distance", "read_word_pairs",
           "vocabulary_word"]

#: Secrets whose distances to all others are candidates for automatic pairs.
_ANCHORS = 256


# -- the metric ----------------------------------------------------------------------------
def guarantee_distance(mechanism: WordMechanism, first: Any, second: Any
                       ) -> np.ndarray | None:
    """``d(x, x′)`` in the metric of the mechanism's guarantee, for rows ``first``, ``second``.

    The mechanism's own ``distance`` (madlib: Euclidean; mahalanobis: d_RM; vickrey: its
    noise's metric), the Euclidean distance for a mechanism whose
    :meth:`~emprivacy.mechanisms.WordMechanism.guarantee_metric` is the Euclidean one
    (SanText, TEM), else ``None`` (a mechanism that states no metric: no nominal bound).

    >>> from emprivacy import Embeddings, SanText
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
    >>> guarantee_distance(SanText(emb, epsilon=1.0), [0, 0], [1, 2]).tolist()
    [1.0, 3.0]
    """
    vectors = mechanism.embeddings.vectors
    n = len(mechanism.embeddings)
    a = vectors[check_rows(np.atleast_1d(first), "rows", n)].astype(np.float64)
    b = vectors[check_rows(np.atleast_1d(second), "rows", n)].astype(np.float64)
    distance = getattr(mechanism, "distance", None)
    if callable(distance):
        return np.asarray(distance(a, b), dtype=np.float64)
    if mechanism.guarantee_metric() == EUCLIDEAN_GUARANTEE:
        diff = a - b
        return np.sqrt(np.einsum("...i,...i->...", diff, diff))
    return None


# -- the pairs -----------------------------------------------------------------------------
def choose_pairs(mechanism: WordMechanism, rows: Any, n_pairs: int, *,
                 rng: RandomState = None) -> list[tuple[int, int]]:
    """``n_pairs`` pairs of distinct ``rows`` at a spread of distances.

    Candidates: the distances (in the mechanism's metric, :func:`guarantee_distance`; the
    Euclidean one where it states none) from up to 256 of the rows, drawn at random, to
    every other row.  For each of ``n_pairs`` distances evenly spaced from the smallest
    to the largest candidate, the nearest unused candidate: close pairs, where the bound
    ε·d is small enough to be tested, and far ones.  Pairs at distance 0 (two words with
    one vector) are left out.

    Returns
    -------
    list of (row, row)
        At most ``n_pairs`` (fewer if there are fewer candidates), by distance.

    >>> from emprivacy import Embeddings, SanText
    >>> emb = Embeddings(list("abcd"), [[0.0], [1.0], [3.0], [7.0]])
    >>> choose_pairs(SanText(emb, epsilon=1.0), [0, 1, 2, 3], 3, rng=0)
    [(0, 1), (2, 3), (0, 3)]
    """
    n_pairs = check_positive_int(n_pairs, "pairs")
    n_words = len(mechanism.embeddings)
    secret = check_rows(rows, "rows", n_words)
    secret = secret[np.sort(np.unique(secret, return_index=True)[1])]
    k = secret.size
    if k < 2:
        raise ValueError(f"pairs need at least two distinct secret words; got {k}")
    gen = check_random_state(rng)
    anchors = np.sort(gen.choice(k, size=min(k, _ANCHORS), replace=False))
    metric_known = guarantee_distance(mechanism, secret[:1], secret[:1]) is not None
    vec = mechanism.embeddings.vectors
    firsts, seconds, dists = [], [], []
    per = max(1, (1 << 21) // (k * max(1, mechanism.dim)))
    for start in range(0, anchors.size, per):
        i = np.repeat(anchors[start:start + per], k)
        j = np.tile(np.arange(k), anchors[start:start + per].size)
        keep = i != j
        i, j = i[keep], j[keep]
        known = guarantee_distance(mechanism, secret[i], secret[j]) if metric_known else None
        if known is None:  # no metric stated: spread the pairs in the Euclidean one
            diff = vec[secret[i]].astype(np.float64) - vec[secret[j]]
            known = np.sqrt(np.einsum("ij,ij->i", diff, diff))
        d = known
        a, b = np.minimum(i, j), np.maximum(i, j)
        firsts.append(a)
        seconds.append(b)
        dists.append(d)
    a = np.concatenate(firsts)
    b = np.concatenate(seconds)
    d = np.concatenate(dists)
    _, first = np.unique(a * k + b, return_index=True)  # each unordered pair once
    a, b, d = a[first], b[first], d[first]
    keep = d > 0
    a, b, d = a[keep], b[keep], d[keep]
    if d.size == 0:
        raise ValueError("every pair of secret words lies at distance 0: nothing to "
                         "distinguish")
    order = np.lexsort((b, a, d))
    a, b, d = a[order], b[order], d[order]
    targets = np.linspace(d[0], d[-1], min(n_pairs, d.size))
    used = np.zeros(d.size, dtype=bool)
    picked = []
    for t in targets:
        cand = np.flatnonzero(~used)
        best = cand[int(np.argmin(np.abs(d[cand] - t)))]
        used[best] = True
        picked.append(int(best))
    picked.sort()
    return [(int(secret[a[p]]), int(secret[b[p]])) for p in picked]


def read_word_pairs(path: str | os.PathLike[str], embeddings: Embeddings | None = None, *,
                    encoding: str = "utf-8") -> list[tuple[str, str]]:
    """Word pairs from a file: two words a line, separated by whitespace.

    Blank lines and lines starting with ``#`` are skipped.  With ``embeddings``, every word
    must be in its vocabulary, read as a corpus's words are (:func:`vocabulary_word`:
    ``Monday`` is ``monday``), and the pairs hold the vocabulary's words.

    Raises
    ------
    emprivacy.exceptions.InputError
        Naming the file (and the line): missing, unreadable, not text, a line that is not
        two words, a pair of one word twice, a word not in the vocabulary, no pair at all.
    """
    where = os.fspath(path)
    lines = read_named_file(where, what="pairs file", encoding=encoding).splitlines()
    pairs = []
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 2:
            raise InputError(f"pairs file {where!r}, line {number}: expected two words "
                             f"separated by whitespace; got {len(fields)} field"
                             f"{'' if len(fields) == 1 else 's'}")
        if embeddings is not None:
            found = [vocabulary_word(embeddings, word) for word in fields]
            for word, known in zip(fields, found, strict=True):
                if known is None:
                    raise InputError(f"pairs file {where!r}, line {number}: word {word!r} "
                                     f"is not in the vocabulary of {embeddings.name!r}")
            fields = [w for w in found if w is not None]
        first, second = fields
        if first == second:
            raise InputError(f"pairs file {where!r}, line {number}: the two words are the "
                             "same word")
        pairs.append((first, second))
    if not pairs:
        raise InputError(f"pairs file {where!r} holds no pair of words")
    return pairs


def vocabulary_word(embeddings: Embeddings, word: str) -> str | None:
    """The vocabulary's word for ``word`` as a corpus reads it, or ``None``: as written,
    then its surface form (a cased vocabulary), then its vocabulary form
    (:func:`~emprivacy.text.normalise.normalise_word`: NFKC, lowercase).

    >>> emb = Embeddings(["monday", "tuesday"], [[0.0], [1.0]])
    >>> vocabulary_word(emb, "Monday"), vocabulary_word(emb, "MONDAY"), vocabulary_word(emb, "x")
    ('monday', 'monday', None)
    """
    for form in (word, normalise_surface(word), normalise_word(word)):
        row = embeddings.get_index(form)
        if row >= 0:
            return str(embeddings.words[row])
    return None


def _as_row(embeddings: Embeddings, value: Any, name: str) -> tuple[str, int]:
    if isinstance(value, str):
        found = vocabulary_word(embeddings, value)
        if found is None:
            raise ValueError(f"word {value!r} is not in the vocabulary of {embeddings.name!r}")
        return found, int(embeddings.get_index(found))
    row = int(check_rows(np.atleast_1d(value), name, len(embeddings))[0])
    return embeddings.words[row], row


def _check_word_pairs(embeddings: Embeddings, pairs: Sequence[tuple[Any, Any]]
                      ) -> list[tuple[str, str, int, int]]:
    """Pairs of words (str) or rows (int) as ``(word, word, row, row)``: every word in the
    vocabulary, the two of a pair distinct, at least one pair."""
    if isinstance(pairs, str | bytes):
        raise TypeError("pairs must be a sequence of (word, word) pairs")
    items = []
    for pair in pairs:
        if isinstance(pair, str | bytes) or len(pair) != 2:
            raise ValueError(f"each pair must be two words; got {pair!r}")
        (w0, r0), (w1, r1) = (_as_row(embeddings, v, "pairs") for v in pair)
        if r0 == r1:
            raise ValueError(f"the two words of a pair must differ; got {w0!r} twice")
        items.append((w0, w1, r0, r1))
    if not items:
        raise ValueError("pairs must hold at least one pair; got none")
    return items


def document_positions(embeddings: Embeddings, first: str, second: str, *,
                       perturb_stopwords: bool = False,
                       labels: tuple[str, str] = ("first", "second")
                       ) -> tuple[np.ndarray, np.ndarray]:
    """The vocabulary rows at which two documents of one layout differ, in text mode.

    The check :func:`distinguish_documents` makes before any release (so that a command
    can make it before any work): the two texts must have one layout (the text around
    the perturbed words, their capitalisation and their number) and differ in at least
    one perturbed word.

    Returns
    -------
    (first_rows, second_rows) : two int64 arrays of one length ≥ 1
        The rows of the words at the positions where the documents differ.

    Raises
    ------
    ValueError
        As :func:`distinguish_documents`, naming the documents by ``labels``.

    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
    >>> a, b = document_positions(emb, "A cat, a car.", "A dog, a car.")
    >>> a.tolist(), b.tolist()
    ([0], [1])
    """
    ta = prepare_text(first, embeddings, oov="placeholder", perturb_stopwords=perturb_stopwords)
    tb = prepare_text(second, embeddings, oov="placeholder",
                      perturb_stopwords=perturb_stopwords)
    if (ta.pieces != tb.pieces or ta.cases != tb.cases or ta.curly != tb.curly
            or ta.indices.size != tb.indices.size):
        raise ValueError(f"documents {labels[0]!r} and {labels[1]!r} do not have one layout "
                         "(the text around the perturbed words, their capitalisation or "
                         "their number differ): the layout alone tells them apart")
    a = np.asarray(ta.indices, dtype=np.int64)
    b = np.asarray(tb.indices, dtype=np.int64)
    differ = a != b
    if not differ.any():
        raise ValueError(f"documents {labels[0]!r} and {labels[1]!r} release the same words: "
                         "nothing to tell apart")
    return a[differ], b[differ]
