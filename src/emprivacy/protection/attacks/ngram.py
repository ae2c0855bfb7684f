"""A small n-gram language model: the reconstruction adversary's sense of context.

:class:`NgramModel` is an interpolated absolute-discounting model (Ney, Essen & Kneser
1994; Chen & Goodman 1998, §2.6) with one discount D at every order:

.. math::

    P_k(w \\mid h) = \\frac{\\max(c(h w) − D, 0)}{c(h •)}
                   + \\frac{D \\, N_{1+}(h •)}{c(h •)} \\, P_{k−1}(w \\mid h'),

h' the history h without its first word, ``N_{1+}(h •)`` the number of distinct words
seen after h; ``P_k(w | h) = P_{k−1}(w | h')`` for a history never seen.  The lowest
order is add-one smoothed over the whole vocabulary, ``P_1(w) = (c(w) + 1) / (N + |V|)``,
so every word has mass and every ``P(· | h)`` sums to 1 over the vocabulary
(:meth:`NgramModel.probabilities`).  The lower orders use raw counts, not Kneser–Ney's
continuation counts, on purpose: the attack divides by ``P_1(x)`` to remove a word's own
frequency (:meth:`NgramModel.__call__`), which is only right if a context never seen
backs off to that same frequency.

The vocabulary is every token of the training sequences, any ``vocabulary`` words given
(the candidates the adversary will score), the boundary token :data:`BOUNDARY` (which
pads every sequence: ``order − 1`` before it, one after it) and :data:`UNKNOWN` (what
any other token is read as).  Counts are kept as sorted int64 keys
(``Σ_i w_i · |V|^{k−1−i}``), so that the probabilities of many (history, word) pairs are
looked up at once (:meth:`NgramModel.log_prob`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from emprivacy._validation import check_positive_int

__all__ = ["BOUNDARY", "UNKNOWN", "NgramModel"]

#: Pads sequences and marks sentence boundaries.
BOUNDARY = "<s>"
#: Any token outside the model's vocabulary.
UNKNOWN = "<unk>"

_MAX_KEY = 2**63 - 1


@dataclass(frozen=True)
class _Level:
    """The counts of one order k ≥ 2: k-grams and their histories, as sorted keys."""

    keys: np.ndarray      # sorted k-gram keys
    counts: np.ndarray    # c_k of each
    hist_keys: np.ndarray  # sorted (k−1)-gram history keys
    hist_total: np.ndarray  # c_k(h •)
    hist_types: np.ndarray  # N_{1+}(h •)


def _lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray) -> np.ndarray:
    """``values`` at ``query`` where present in the sorted ``keys``, else 0."""
    if keys.size == 0:
        return np.zeros(query.shape, dtype=values.dtype)
    pos = np.minimum(np.searchsorted(keys, query), keys.size - 1)
    return np.where(keys[pos] == query, values[pos], 0)


def _level(keys: np.ndarray, counts: np.ndarray, size: int) -> _Level:
    hist = keys // size
    hist_keys, inverse, types = np.unique(hist, return_inverse=True, return_counts=True)
    total = np.bincount(inverse, weights=counts, minlength=hist_keys.size)
    return _Level(keys, counts.astype(np.float64), hist_keys, total, types.astype(np.float64))


class NgramModel:
    """An interpolated absolute-discounting n-gram model over a closed vocabulary (module
    docstring).

    Build one with :meth:`fit`.  The model is also a context scorer of the
    reconstruction attack (:class:`emprivacy.protection.attacks.context.ContextScorer`):
    calling it with the tokens left and right of a word and some candidate words gives
    each candidate's log-likelihood of that context (:meth:`__call__`).

    Attributes
    ----------
    order : int
        n (1 = unigrams).
    discount : float
        D, in (0, 1).
    vocabulary : tuple of str
        The words, :data:`BOUNDARY` and :data:`UNKNOWN` first.

    Examples
    --------
    >>> lm = NgramModel.fit([["the", "red", "apple"], ["a", "blue", "berry"]], order=2)
    >>> p = lm.probabilities(["red"])
    >>> round(float(p.sum()), 12), lm.vocabulary[int(p.argmax())]
    (1.0, 'apple')
    """

    def __init__(self, vocabulary: Sequence[str], *, order: int, discount: float,
                 levels: list[_Level], lowest: np.ndarray) -> None:
        self.vocabulary = tuple(vocabulary)
        self.index = {w: i for i, w in enumerate(self.vocabulary)}
        self.order = order
        self.discount = discount
        self._levels = levels  # orders 2 … n
        self._lowest_log = np.log(lowest)

    @classmethod
    def fit(cls, sequences: Iterable[Sequence[str]], *, order: int = 3,
            discount: float = 0.75, vocabulary: Iterable[str] = ()) -> NgramModel:
        """Count the n-grams of ``sequences`` (each a document's or sentence's tokens).

        Parameters
        ----------
        sequences : iterable of sequences of str
            Training text, tokenised; each sequence is padded with :data:`BOUNDARY`.
        order : int, default 3
            n ≥ 1.
        discount : float, default 0.75
            D in (0, 1).
        vocabulary : iterable of str, optional
            Words to give mass to although the sequences may not hold them (the
            candidates the model will score).

        Raises
        ------
        ValueError
            For a bad ``order`` or ``discount``, or a vocabulary too large for int64
            keys of this order (|V|^order ≥ 2^63).
        """
        order = check_positive_int(order, "order")
        if isinstance(discount, bool) or not isinstance(discount, int | float) or not (
                0.0 < float(discount) < 1.0):
            raise ValueError(f"discount must be a number in (0, 1); got {discount!r}")
        seqs = [list(s) for s in sequences]
        words = {t for s in seqs for t in s} | set(vocabulary)
        words -= {BOUNDARY, UNKNOWN}
        vocab = (BOUNDARY, UNKNOWN, *sorted(words))
        size = len(vocab)
        if size ** order > _MAX_KEY:
            raise ValueError(f"a vocabulary of {size} words is too large for an n-gram model "
                             f"of order {order} (int64 keys)")
        index = {w: i for i, w in enumerate(vocab)}
        grams: list[np.ndarray] = []
        freq = np.zeros(size)
        for s in seqs:
            ids = np.asarray([0] * (order - 1) + [index[t] for t in s] + [0], dtype=np.int64)
            freq += np.bincount(ids[order - 1:], minlength=size)
            n = ids.size - order + 1
            key = np.zeros(n, dtype=np.int64)
            for i in range(order):
                key = key * size + ids[i:i + n]
            grams.append(key)
        keys, counts = np.unique(np.concatenate(grams) if grams else np.empty(0, np.int64),
                                 return_counts=True)
        levels: list[_Level] = []
        for k in range(order, 1, -1):  # counts of order k, then of their suffixes
            levels.append(_level(keys, counts, size))
            keys, inverse = np.unique(keys % size ** (k - 1), return_inverse=True)
            counts = np.bincount(inverse.ravel(), weights=counts,
                                 minlength=keys.size).astype(np.int64)
        levels.reverse()
        lowest = (freq + 1.0) / (freq.sum() + size)
        return cls(vocab, order=order, discount=float(discount), levels=levels,
                   lowest=lowest)

    def __len__(self) -> int:
        return len(self.vocabulary)

    def ids(self, tokens: Sequence[str]) -> np.ndarray:
        """The tokens' ids (:data:`UNKNOWN`'s for a token outside the vocabulary)."""
        unknown = self.index[UNKNOWN]
        return np.asarray([self.index.get(t, unknown) for t in tokens], dtype=np.int64)

    def log_prob(self, histories: np.ndarray, words: np.ndarray) -> np.ndarray:
        """``log P(word | history)`` for many pairs at once.

        Parameters
        ----------
        histories : (m, order − 1) int array
            Token ids, oldest first (pad with :data:`BOUNDARY`'s id 0).
        words : (m,) int array

        Returns
        -------
        (m,) float64 array
        """
        h = np.asarray(histories, dtype=np.int64).reshape(len(words), self.order - 1)
        w = np.asarray(words, dtype=np.int64)
        size = len(self.vocabulary)
        if w.size and (w.min() < 0 or w.max() >= size or (h.size and (
                h.min() < 0 or h.max() >= size))):
            raise ValueError("token ids must be in [0, len(model))")
        p = np.exp(self._lowest_log[w])
        d = self.discount
        for k, level in enumerate(self._levels, start=2):
            hist = h[:, h.shape[1] - (k - 1):]
            hkey = np.zeros(w.size, dtype=np.int64)
            for j in range(k - 1):
                hkey = hkey * size + hist[:, j]
            total = _lookup(level.hist_keys, level.hist_total, hkey)
            types = _lookup(level.hist_keys, level.hist_types, hkey)
            count = _lookup(level.keys, level.counts, hkey * size + w)
            seen = total > 0
            safe = np.where(seen, total, 1.0)
            p = np.where(seen, np.maximum(count - d, 0.0) / safe + d * types / safe * p, p)
        return np.log(p)

    def probabilities(self, history: Sequence[str]) -> np.ndarray:
        """``P(w | history)`` for every word w of :attr:`vocabulary` (sums to 1).

        ``history`` is padded on the left with :data:`BOUNDARY` (or cut to its last
        ``order − 1`` tokens).
        """
        hist = self._pad_left(self.ids(history))
        size = len(self.vocabulary)
        return np.exp(self.log_prob(np.tile(hist, (size, 1)), np.arange(size)))

    def _pad_left(self, ids: np.ndarray) -> np.ndarray:
        n = self.order - 1
        return np.concatenate([np.zeros(n, dtype=np.int64), ids])[ids.size:] if n else ids[:0]

    def _pad_right(self, ids: np.ndarray) -> np.ndarray:
        n = self.order - 1
        return np.concatenate([ids, np.zeros(n, dtype=np.int64)])[:n]

    def window_scores(self, left: np.ndarray, right: np.ndarray,
                      candidates: np.ndarray) -> np.ndarray:
        """Context log-likelihoods of candidates, many slots at once (see :meth:`__call__`).

        Parameters
        ----------
        left, right : (m, order − 1) int arrays
            Token ids before (oldest first) and after each slot, padded with 0.
        candidates : (m, c) int array
            Candidate ids per slot.

        Returns
        -------
        (m, c) float64 array
            ``Σ_j log P(t_j | its history) − log P_1(x)`` over the ``order`` n-grams that
            hold the slot.
        """
        cand = np.asarray(candidates, dtype=np.int64)
        m, c = cand.shape
        n = self.order
        width = 2 * n - 1
        window = np.empty((m, c, width), dtype=np.int64)
        window[:, :, :n - 1] = np.asarray(left, dtype=np.int64).reshape(m, 1, n - 1)
        window[:, :, n - 1] = cand
        window[:, :, n:] = np.asarray(right, dtype=np.int64).reshape(m, 1, n - 1)
        flat = window.reshape(m * c, width)
        score = -self._lowest_log[cand.ravel()]
        for j in range(n):
            score += self.log_prob(flat[:, j:j + n - 1], flat[:, j + n - 1])
        return score.reshape(m, c)

    def __call__(self, left: Sequence[str], right: Sequence[str],
                 candidates: Sequence[str]) -> np.ndarray:
        """Each candidate x's log-likelihood of its context, ``log P(context | x)`` + const.

        The ``order`` n-grams of ``left + [x] + right`` that hold x (``left`` padded with
        :data:`BOUNDARY` to ``order − 1`` tokens, ``right`` likewise): their summed
        ``log P`` is ``log P(window)`` up to terms without x; less ``log P_1(x)``, the
        model's (add-one) unigram frequency of x, it is ``log P(context | x)`` up to a
        constant — the context's evidence about x, x's own frequency removed (the
        adversary's prior holds that).  A left context the model has never seen backs
        off to ``P_1(x)`` and adds nothing.

        >>> lm = NgramModel.fit([["the", "red", "apple"], ["a", "blue", "berry"]], order=2)
        >>> s = lm(["red"], ["<s>"], ["apple", "berry"])
        >>> bool(s[0] > s[1])
        True
        """
        left_ids = self._pad_left(self.ids(list(left)))
        right_ids = self._pad_right(self.ids(list(right)))
        cand = self.ids(list(candidates))
        return self.window_scores(left_ids[None, :], right_ids[None, :], cand[None, :])[0]
