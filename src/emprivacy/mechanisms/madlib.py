"""The paper's mechanism ("Madlib", multivariate Laplace): Algorithms 1 and 2.

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

from .._validation import check_choice
from ..decoding import Decoder, ExactDecoder
from ..embeddings import Embeddings
from ..noise import laplace_noise
from ..randomness import RandomState
from .base import WordMechanism

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


class EarthMoversPrivacy(WordMechanism):
    """Earth Mover's privacy on bags of words (Alg. 2, Thm. 4): the paper's mechanism.

    Each word x becomes ``Vec⁻¹(Vec(x) + r·u)``, r ~ Gamma(n, 1/ε) and u uniform on
    the unit sphere (Alg. 1, Thm. 2), decoded to the nearest vocabulary word
    (Alg. 2; post-processing, Lemma 3).  Feyisetan et al. (WSDM 2020) call the same
    per-word step "Madlib".  Guarantee: ε·d per word, d the Euclidean distance;
    εN·E for bags of size N (Thm. 4).

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
    decoder : "exact", "approximate" or a Decoder, default "exact"
        How ``Vec⁻¹`` is computed.  Any decoder keeps the guarantee (post-processing).

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog", "car"], [[0, 0], [1, 0], [9, 9]], name="toy")
    >>> mech = EarthMoversPrivacy(emb, epsilon=1e6, rng=0)
    >>> mech.privatize(["cat", "car", "cat"])
    ['cat', 'car', 'cat']
    >>> EarthMoversPrivacy(emb, epsilon=1e6).privatize_text("The CAT, the Car; 3 cats!")
    'The CAT, the Car; [NUM] [UNK]!'
    """

    name = "madlib"

    def __init__(self, embeddings: Embeddings, *, epsilon: float, rng: RandomState = None,
                 decoder: str | Decoder = "exact") -> None:
        super().__init__(embeddings, epsilon=epsilon, rng=rng)
        if isinstance(decoder, str):
            check_choice(decoder, "decoder", ("exact", "approximate"))
            if decoder == "exact":
                decoder = ExactDecoder(embeddings)
            else:
                from ..decoding import ApproximateDecoder

                decoder = ApproximateDecoder(embeddings)
        elif not isinstance(decoder, Decoder):
            raise TypeError(f"decoder must be 'exact', 'approximate' or a Decoder; got "
                            f"{type(decoder).__name__}")
        self.decoder = decoder

    def __repr__(self) -> str:
        return (f"EarthMoversPrivacy(embeddings={self.embeddings!r}, epsilon={self.epsilon!r}, "
                f"decoder={self.decoder.name!r})")

    def record_fields(self) -> dict[str, str]:
        """Output records name the decoder (a choice of speed, not of guarantee)."""
        return {"decoder": self.decoder.name}

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
        idx = self.check_indices(indices)
        noise = laplace_noise(self.dim, self.epsilon, size=idx.size,
                              rng=self.rng if rng is None else rng)
        noise += self.embeddings.vectors[idx]
        return noise

    def privatize_indices(self, indices: np.ndarray | Sequence[int], *,
                          rng: np.random.Generator | None = None) -> np.ndarray:
        """Alg. 2 on vocabulary row indices: returns the row indices of the output words."""
        return self.decoder.decode(self.noisy_vectors(indices, rng=rng))

    def privatize_batches(self, bags: Sequence[tuple[np.ndarray, np.random.Generator]]
                          ) -> list[np.ndarray]:
        """Alg. 2 on many bags: noise each from its own generator, decode all at once."""
        if not bags:
            return []
        sizes = [int(np.asarray(idx).size) for idx, _ in bags]
        decoded = self.decoder.decode(np.concatenate(
            [self.noisy_vectors(idx, rng=gen) for idx, gen in bags]))
        return np.split(decoded, np.cumsum(sizes)[:-1])


def generate_noisy_bag_of_words(bag: Sequence[str], epsilon: float, embeddings: Embeddings, *,
                                rng: RandomState = None) -> list[str]:
    """Alg. 2, ``GenerateNoisyBagOfWords(b, n, ε, Vec)`` as a function (exact decoding)."""
    return EarthMoversPrivacy(embeddings, epsilon=epsilon, rng=rng).privatize(bag)
