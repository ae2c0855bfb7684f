"""The Earth Mover's privacy mechanism: Algorithms 1 and 2 of the paper.

* Alg. 1 ``GenerateNoisyVector`` / ``GeneratePrivateBag``: add n-dimensional
  Laplace noise (Thm. 2) to every vector of a bag.  On bags of size N this is
  εN·E‖·‖-private (Thm. 1, Cor. 2).
* Alg. 2 ``GenerateNoisyBagOfWords``: map a bag of words to its embeddings,
  run Alg. 1, and map every noisy vector back to its nearest vocabulary word.
  This is εN·E_{d_S}-private for bags of size N (Thm. 4); decoding is
  post-processing (Lemma 3).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._validation import check_choice, check_epsilon
from .decoding import Decoder, ExactDecoder
from .embeddings import Embeddings
from .noise import laplace_noise
from .randomness import RandomState, check_random_state

__all__ = [
    "EarthMoversPrivacy",
    "generate_noisy_bag_of_words",
    "generate_noisy_vector",
    "generate_private_bag",
]


def generate_noisy_vector(v: np.ndarray | Sequence[float], epsilon: float, *,
                          rng: RandomState = None) -> np.ndarray:
    """Alg. 1, ``GenerateNoisyVector(v, n, ε)``: return ``v + r·u`` (Thm. 2)."""
    v = np.asarray(v, dtype=np.float64)
    if v.ndim != 1:
        raise ValueError(f"v must be a 1-D vector; got shape {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError("v must be finite; found NaN or infinity")
    return v + laplace_noise(v.shape[0], epsilon, size=1, rng=rng)[0]


def generate_private_bag(X: np.ndarray | Sequence[Sequence[float]], epsilon: float, *,
                         rng: RandomState = None) -> np.ndarray:
    """Alg. 1, ``GeneratePrivateBag(X, n, ε)``: noise every vector of the bag (Cor. 2).

    Parameters
    ----------
    X : (N, n) array-like
        A bag of N vectors in R^n (one row per occurrence).
    epsilon : float
        Per-vector ε; the bag-level guarantee is εN·E‖·‖ (Cor. 2).

    Returns
    -------
    (N, n) float64 array ``X + noise``, one vectorised noise draw.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (N × n); got shape {X.shape}")
    if X.shape[0] == 0:
        raise ValueError("the bag must hold at least one vector; got an empty bag")
    if not np.all(np.isfinite(X)):
        raise ValueError("X must be finite; found NaN or infinity")
    return X + laplace_noise(X.shape[1], epsilon, size=X.shape[0], rng=rng)


class EarthMoversPrivacy:
    """Earth Mover's privacy on bags of words (Alg. 2, Thm. 4).

    Parameters
    ----------
    embeddings : Embeddings
        ``Vec``; its vocabulary is also the output vocabulary.
    epsilon : float
        Per-word ε.  A bag of size N gets the guarantee
        ``P[K(b) ∈ Z] ≤ exp(ε·N·E(b, b'))·P[K(b') ∈ Z]`` for every b' of size N.
    rng : None, int or numpy.random.Generator
        ``None`` (default): a cryptographically secure generator.  An int seeds a
        reproducible run (not for real releases).
    decoder : "exact" or a Decoder, default "exact"
        How ``Vec⁻¹`` is computed.  Any decoder keeps the guarantee (post-processing).

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog", "car"], [[0, 0], [1, 0], [9, 9]], name="toy")
    >>> mech = EarthMoversPrivacy(emb, epsilon=1e6, rng=0)
    >>> mech.privatize(["cat", "car", "cat"])
    ['cat', 'car', 'cat']
    """

    def __init__(self, embeddings: Embeddings, *, epsilon: float, rng: RandomState = None,
                 decoder: str | Decoder = "exact") -> None:
        if not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        self.embeddings = embeddings
        self.epsilon = check_epsilon(epsilon)
        self.rng = check_random_state(rng)
        if isinstance(decoder, str):
            check_choice(decoder, "decoder", ("exact", "approximate"))
            if decoder == "exact":
                decoder = ExactDecoder(embeddings)
            else:
                from .approximate import ApproximateDecoder

                decoder = ApproximateDecoder(embeddings)
        elif not isinstance(decoder, Decoder):
            raise TypeError(f"decoder must be 'exact', 'approximate' or a Decoder; got "
                            f"{type(decoder).__name__}")
        self.decoder = decoder

    @property
    def dim(self) -> int:
        """The embedding dimension n."""
        return self.embeddings.dim

    def __repr__(self) -> str:
        return (f"EarthMoversPrivacy(embeddings={self.embeddings!r}, epsilon={self.epsilon!r}, "
                f"decoder={self.decoder.name!r})")

    def privatize_vectors(self, X: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        """Alg. 1 on a bag of vectors: ``X + Lap_n^ε`` noise, row by row (Cor. 2)."""
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.dim:
            raise ValueError(f"X must have shape (N, {self.dim}) to match the embedding "
                             f"dimension; got {X.shape}")
        return generate_private_bag(X, self.epsilon, rng=self.rng)

    def noisy_vectors(self, indices: np.ndarray | Sequence[int], *,
                      rng: np.random.Generator | None = None) -> np.ndarray:
        """Alg. 1 applied to ``Vec*(b)``: the noisy vectors of a bag given by row indices.

        ``rng`` overrides the mechanism's generator for this call (used to give
        every document of a corpus its own noise stream).  Returns (N, n) float64: the
        decoders decide on the unrounded noisy point.
        """
        idx = np.asarray(indices)
        if idx.size and idx.dtype.kind not in "iu":
            raise TypeError(f"indices must be integers; got dtype {idx.dtype}")
        idx = idx.astype(np.int64, copy=False)
        if idx.ndim != 1:
            raise ValueError(f"indices must be 1-D; got shape {idx.shape}")
        if idx.size == 0:
            raise ValueError("the bag must hold at least one word; got an empty bag")
        if idx.min() < 0 or idx.max() >= len(self.embeddings):
            raise ValueError(f"indices must lie in [0, {len(self.embeddings)}); got "
                             f"[{idx.min()}, {idx.max()}]")
        noise = laplace_noise(self.dim, self.epsilon, size=idx.size,
                              rng=self.rng if rng is None else rng)
        noise += self.embeddings.vectors[idx]
        return noise

    def privatize_indices(self, indices: np.ndarray | Sequence[int], *,
                          rng: np.random.Generator | None = None) -> np.ndarray:
        """Alg. 2 on vocabulary row indices: returns the row indices of the output words."""
        return self.decoder.decode(self.noisy_vectors(indices, rng=rng))

    def privatize(self, words: Sequence[str], *,
                  rng: np.random.Generator | None = None) -> list[str]:
        """Alg. 2, ``GenerateNoisyBagOfWords``: a noisy bag of the same size N.

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
        idx = np.empty(len(words), dtype=np.int64)
        for i, w in enumerate(words):
            j = self.embeddings.get_index(w)
            if j < 0:
                raise ValueError(f"word {w!r} is not in the vocabulary of "
                                 f"{self.embeddings.name!r}; drop it or choose an "
                                 "out-of-vocabulary policy before privatizing")
            idx[i] = j
        out = self.privatize_indices(idx, rng=rng)
        vocab = self.embeddings.words
        return [vocab[i] for i in out]

    def privatize_text(self, text: str, *, oov: str = "placeholder",
                       perturb_stopwords: bool = False, rng: RandomState = None) -> str:
        """Readable output: every perturbed word replaced in place, the layout kept.

        Alg. 2 applied position by position; for two texts with the same layout
        whose perturbed words are x₁…x_M and x'₁…x'_M, output probabilities differ
        by at most ``exp(ε·Σᵢ d(xᵢ, x'ᵢ))`` (the Manhattan lift of §3).  Numbers,
        URLs and e-mail addresses always become placeholders; ``oov`` is
        ``"placeholder"``, ``"drop"`` or ``"keep"`` (which raises a
        :class:`~emprivacy.exceptions.PrivacyLeakWarning`).  See
        :func:`emprivacy.readable.privatize_text`.

        >>> emb = Embeddings(["cat", "dog", "car"], [[0, 0], [1, 0], [9, 9]], name="toy")
        >>> EarthMoversPrivacy(emb, epsilon=1e6).privatize_text("The CAT, the Car; 3 cats!")
        'The CAT, the Car; [NUM] [UNK]!'
        """
        from .readable import privatize_text

        return privatize_text(self, text, oov=oov, perturb_stopwords=perturb_stopwords, rng=rng)


def generate_noisy_bag_of_words(bag: Sequence[str], epsilon: float, embeddings: Embeddings, *,
                                rng: RandomState = None) -> list[str]:
    """Alg. 2, ``GenerateNoisyBagOfWords(b, n, ε, Vec)`` as a function (exact decoding)."""
    return EarthMoversPrivacy(embeddings, epsilon=epsilon, rng=rng).privatize(bag)
