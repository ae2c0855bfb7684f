"""What every word-level mechanism implements: vocabulary rows in, vocabulary rows out.

A mechanism of the family (the paper's, §5, and its successors) maps each word x of
a bag independently to a random vocabulary word K(x), with a metric-DP guarantee
``P[K(x) = w] ≤ exp(ε·d(x, x'))·P[K(x') = w]`` for its metric d.  Applied word by
word to a bag of size N it is εN·E_d-private (Thm. 1 / Thm. 4 of the paper); applied
in place to a text it carries the Manhattan lift of §3.  A new mechanism subclasses
:class:`WordMechanism` and implements :meth:`~WordMechanism.privatize_indices`;
bags, text mode, corpora and the command line then work with it unchanged.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from emprivacy._validation import check_epsilon
from emprivacy.embeddings.model import Embeddings
from emprivacy.math.randomness import RandomState, check_random_state

__all__ = ["WordMechanism", "check_points", "check_row", "check_rows", "check_supports_points"]


class WordMechanism(ABC):
    """Base class of the word-level mechanisms.

    Parameters
    ----------
    embeddings : Embeddings
        ``Vec``; its vocabulary is also the output vocabulary.
    epsilon : float
        Per-word ε.
    rng : None, int or numpy.random.Generator
        ``None`` (default): a cryptographically secure generator.  An int seeds a
        reproducible run (not for real releases).
    """

    #: The mechanism's name on the command line and in output records.
    name: ClassVar[str]

    #: Whether :meth:`privatize_points` is implemented (``oov="subword"`` needs it): a
    #: subclass that implements it sets this to ``True``.
    supports_points: ClassVar[bool] = False

    def __init__(self, embeddings: Embeddings, *, epsilon: float,
                 rng: RandomState = None) -> None:
        if not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        self.embeddings = embeddings
        self.epsilon = check_epsilon(epsilon)
        self.rng = check_random_state(rng)

    @property
    def dim(self) -> int:
        """The embedding dimension n."""
        return self.embeddings.dim

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> dict[str, Any]:
        """The mechanism's own keyword parameters, validated without building it.

        The registry calls this before any work (:func:`~emprivacy.mechanisms.make_mechanism`,
        :func:`~emprivacy.mechanisms.registry.parse_params`), so that a bad value is
        one error before embeddings are loaded.  A subclass with parameters overrides it
        (calling ``super()``) and raises the errors its constructor raises; the names
        are checked by the registry.

        Returns
        -------
        dict
            ``params`` with each value as the constructor would use it.
        """
        return dict(params)

    def record_fields(self) -> dict[str, Any]:
        """Fields that output records carry about this mechanism (besides ε)."""
        return {}

    def guarantee_metric(self) -> str:
        """The metric d of the mechanism's guarantee ``ε·d``, in words, for output records.

        Completes "d …" in the ``guarantee`` of text-mode records
        (:func:`~emprivacy.preparation.template.text_guarantee`): e.g. ``"the Euclidean distance
        between the words' embeddings"``.  Every mechanism states its own; this default
        claims no metric and points to the mechanism's documentation.
        """
        return (f"the metric of the {self.name!r} mechanism's own guarantee (see its "
                "documentation)")

    def check_indices(self, indices: np.ndarray | Sequence[int]) -> np.ndarray:
        """Validate a bag given as vocabulary rows; returns it as a 1-D int64 array."""
        idx = check_rows(indices, "indices", len(self.embeddings))
        if idx.size == 0:
            raise ValueError("the bag must hold at least one word; got an empty bag")
        return idx

    @abstractmethod
    def privatize_indices(self, indices: np.ndarray | Sequence[int], *,
                          rng: np.random.Generator | None = None) -> np.ndarray:
        """The mechanism on vocabulary rows: the rows of the released words, in order.

        ``rng`` overrides the mechanism's generator for this call (a corpus gives
        every document its own stream).
        """

    def privatize_points(self, points: np.ndarray, *,
                         rng: np.random.Generator | None = None) -> np.ndarray:
        """The mechanism applied to arbitrary points of R^n: each point's released word,
        as a vocabulary row.

        For inputs that are not vocabulary words (e.g. the subword vectors of
        out-of-vocabulary words, ``oov="subword"``).  A mechanism whose guarantee
        ``P[K(p) = w] ≤ exp(ε·d(p, p'))·P[K(p') = w]`` holds for all points p, p' of
        R^n implements it and sets :attr:`supports_points`; on the vectors of
        vocabulary words it must release the law of :meth:`privatize_indices`.

        Parameters
        ----------
        points : (m, n) array-like
            Finite points, m ≥ 1 (:func:`check_points`).
        rng : numpy.random.Generator, optional
            Overrides the mechanism's generator for this call.

        Returns
        -------
        (m,) int64 array of vocabulary rows, in the order of ``points``.

        Raises
        ------
        NotImplementedError
            Here, naming the mechanism: it does not support arbitrary points.
        """
        raise NotImplementedError(f"mechanism {self.name!r} does not support --oov subword "
                                  "(privatize_points is not implemented)")

    def privatize_mixed(self, indices: np.ndarray | Sequence[int],
                        points: np.ndarray | None = None, *,
                        rng: np.random.Generator | None = None) -> np.ndarray:
        """The mechanism on a bag of vocabulary rows and points, in one call and one order.

        ``indices`` holds a vocabulary row per word, or ``-1`` where the word is given
        by the next row of ``points`` (a subword vector,
        :attr:`~emprivacy.embeddings.model.PreparedBag.points`).  Without any ``-1`` this is
        :meth:`privatize_batches` on the one bag (the same draws, the same output);
        otherwise :meth:`privatize_points` on every word's vector in bag order, so
        that one generator serves the words in their order.
        """
        idx = np.asarray(indices)
        n_points = 0 if points is None else int(np.asarray(points).shape[0])
        if idx.size and idx.dtype.kind in "iu" and int(idx.min()) == -1:
            unknown = idx < 0
            if int(unknown.sum()) != n_points:
                raise ValueError(f"indices hold {int(unknown.sum())} -1 entries but points "
                                 f"has {n_points} rows")
            pts = check_points(points, self.dim)
            X = np.empty((idx.size, self.dim), dtype=np.float64)
            X[~unknown] = self.embeddings.vectors[check_rows(idx[~unknown], "indices",
                                                             len(self.embeddings))]
            X[unknown] = pts
            return self.privatize_points(X, rng=rng)
        if n_points:
            raise ValueError(f"points has {n_points} rows but indices hold no -1 entry")
        gen = self.rng if rng is None else rng
        return self.privatize_batches([(self.check_indices(idx), gen)])[0]

    def privatize_batches(self, bags: Sequence[tuple[np.ndarray, np.random.Generator]]
                          ) -> list[np.ndarray]:
        """:meth:`privatize_indices` on many bags, each with its own generator.

        Mechanisms override this to do the expensive part (e.g. decoding) once for
        all bags; the result must equal the bag-by-bag one.
        """
        return [self.privatize_indices(idx, rng=gen) for idx, gen in bags]

    def privatize(self, words: Sequence[str], *,
                  rng: np.random.Generator | None = None) -> list[str]:
        """The mechanism on a bag of words: a noisy bag of the same size N.

        Every word must be in the vocabulary: the caller decides what to do with
        out-of-vocabulary words (the error names the first one).

        The i-th output word is the noisy image of the i-th input word.  Released in
        that order, the list is a vector and carries the Manhattan guarantee
        ``exp(ε·Σᵢ d(xᵢ, x'ᵢ))`` (§3); to get the εN·E guarantee of Thm. 4 release it
        as a bag, e.g. ``sorted(...)`` (what the command line does).
        """
        if isinstance(words, str):
            raise TypeError("words must be a sequence of words, not a single str; "
                            "use emprivacy.bag_of_words(text) first")
        words = list(words)
        if not words:
            raise ValueError("the bag must hold at least one word; got an empty bag")
        idx = self.embeddings.rows(words)
        if (idx < 0).any():
            first = words[int(np.flatnonzero(idx < 0)[0])]
            raise ValueError(f"word {first!r} is not in the vocabulary of "
                             f"{self.embeddings.name!r}; drop it or choose an "
                             "out-of-vocabulary policy before privatizing")
        out = self.privatize_indices(idx, rng=rng)
        vocab = self.embeddings.words
        return [vocab[i] for i in out]

    def privatize_text(self, text: str, *, oov: str = "placeholder",
                       perturb_stopwords: bool = False, rng: RandomState = None) -> str:
        """Readable output: every perturbed word replaced in place, the layout kept.

        The mechanism applied position by position; for two texts with the same
        layout whose perturbed words are x₁…x_M and x'₁…x'_M, output probabilities
        differ by at most ``exp(ε·Σᵢ d(xᵢ, x'ᵢ))`` (the Manhattan lift of §3).
        Numbers, URLs and e-mail addresses always become placeholders; ``oov`` is
        ``"placeholder"``, ``"drop"``, ``"keep"`` (which raises a
        :class:`~emprivacy.exceptions.PrivacyLeakWarning`) or ``"subword"`` (fastText
        embeddings and a mechanism with :attr:`supports_points`).  See
        :mod:`emprivacy.preparation.template` for what the layout reveals.

        Entity detection (docs/ENTITIES.md) belongs to the obfuscation layer above the
        mechanisms: for one text with entities, use
        ``emprivacy.privatize_texts([text], mechanism=self, entities="auto", ...)``, the
        path of ``obfuscate --entities``.
        """
        from emprivacy.preparation.template import prepare_text, warn_kept

        if oov == "subword":
            check_supports_points(self)
        template = prepare_text(text, self.embeddings, oov=oov,
                                perturb_stopwords=perturb_stopwords)
        if template.counts["oov_kept"]:
            warn_kept(template.counts["oov_kept"], stacklevel=2)
        if template.words_perturbed == 0:
            return template.render([], self.embeddings.words)
        gen = None if rng is None else check_random_state(rng)
        out = self.privatize_mixed(template.indices, template.points, rng=gen)
        return template.render(out, self.embeddings.words)


def check_supports_points(mechanism: WordMechanism) -> None:
    """The one ``ValueError`` of ``oov="subword"`` with a mechanism without
    :meth:`~WordMechanism.privatize_points`; before any work."""
    if not type(mechanism).supports_points:
        raise ValueError(f"mechanism {mechanism.name!r} does not support --oov subword")


def check_points(points: Any, dim: int) -> np.ndarray:
    """Points of R^``dim`` as a non-empty, finite (m, dim) float64 array.

    >>> check_points([[0.5, 1.0]], 2)
    array([[0.5, 1. ]])
    >>> check_points([[0.5]], 2)
    Traceback (most recent call last):
    ...
    ValueError: points must have shape (m, 2) to match the embedding dimension; got (1, 1)
    """
    arr = np.asarray(points, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] != dim:
        raise ValueError(f"points must have shape (m, {dim}) to match the embedding "
                         f"dimension; got {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError("points must hold at least one point; got none")
    if not np.all(np.isfinite(arr)):
        raise ValueError("points must be finite; found NaN or infinity")
    return arr


def check_rows(values: Any, name: str, n_words: int) -> np.ndarray:
    """Vocabulary rows ``values`` (of a vocabulary of ``n_words``) as a 1-D int64 array.

    >>> check_rows([2, 0], "pivots", 3)
    array([2, 0])
    >>> check_rows([3], "pivots", 3)
    Traceback (most recent call last):
    ...
    ValueError: pivots must lie in [0, 3); got [3, 3]
    """
    arr = np.asarray(values)
    if arr.size and arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integers; got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() >= n_words):
        raise ValueError(f"{name} must lie in [0, {n_words}); got [{arr.min()}, {arr.max()}]")
    return arr


def check_row(index: Any, n_words: int) -> int:
    """One vocabulary row ``index`` (of a vocabulary of ``n_words``), as an int.

    >>> check_row(np.int64(2), 3)
    2
    >>> check_row(3, 3)
    Traceback (most recent call last):
    ...
    ValueError: index must lie in [0, 3); got 3
    """
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise TypeError(f"index must be an integer; got {index!r} of type "
                        f"{type(index).__name__}")
    if not 0 <= int(index) < n_words:
        raise ValueError(f"index must lie in [0, {n_words}); got {int(index)}")
    return int(index)
