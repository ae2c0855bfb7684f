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

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from emprivacy._validation import check_choice, check_positive_number
from emprivacy.decoding import Decoder, ExactDecoder
from emprivacy.embeddings.model import Embeddings
from emprivacy.math.noise import far_noisy_points, far_sphere, laplace_noise, uniform_sphere
from emprivacy.math.randomness import RandomState
from emprivacy.mechanisms.base import WordMechanism, check_points
from emprivacy.preparation.template import EUCLIDEAN_GUARANTEE

if TYPE_CHECKING:
    from emprivacy.mechanisms.curse import RankResampler

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
    X = _check_vector_bag(X)
    return X + laplace_noise(X.shape[1], epsilon, size=X.shape[0], rng=rng)


def _check_vector_bag(X: np.ndarray | Sequence[Sequence[float]], dim: int | None = None
                      ) -> np.ndarray:
    """A non-empty, finite (N, n) bag of vectors as float64 (``n = dim`` if given)."""
    X = np.asarray(X, dtype=np.float64)
    if dim is not None and (X.ndim != 2 or X.shape[1] != dim):
        raise ValueError(f"X must have shape (N, {dim}) to match the embedding "
                         f"dimension; got {X.shape}")
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (N × n); got shape {X.shape}")
    if X.shape[0] == 0:
        raise ValueError("the bag must hold at least one vector; got an empty bag")
    if not np.all(np.isfinite(X)):
        raise ValueError("X must be finite; found NaN or infinity")
    return X


def check_rank_resample(value: Any) -> float | None:
    """Validate the ``rank_resample`` option: ``None`` or a finite number c > 0.

    >>> check_rank_resample(None), check_rank_resample(0.04)
    (None, 0.04)
    >>> check_rank_resample(0)
    Traceback (most recent call last):
    ...
    ValueError: rank_resample must be None or a finite number > 0; got 0.0
    """
    if value is None:
        return None
    try:
        return check_positive_number(value, "rank_resample")
    except TypeError:
        raise TypeError(f"rank_resample must be None or a finite number > 0; got {value!r} "
                        f"of type {type(value).__name__}") from None
    except ValueError:
        raise ValueError("rank_resample must be None or a finite number > 0; got "
                         f"{float(value)!r}") from None


def check_decoder(decoder: Any) -> str | Decoder:
    """Validate the ``decoder`` option: ``"exact"``, ``"approximate"`` or a Decoder.

    >>> check_decoder("exact")
    'exact'
    >>> check_decoder("fast")
    Traceback (most recent call last):
    ...
    ValueError: decoder must be one of 'exact', 'approximate'; got 'fast'
    """
    if isinstance(decoder, str):
        return check_choice(decoder, "decoder", ("exact", "approximate"))
    if not isinstance(decoder, Decoder):
        raise TypeError(f"decoder must be 'exact', 'approximate' or a Decoder; got "
                        f"{type(decoder).__name__}")
    return decoder


def make_decoder(embeddings: Embeddings, decoder: str | Decoder) -> Decoder:
    """The decoder named by ``decoder`` (``"exact"`` or ``"approximate"``), or ``decoder``."""
    decoder = check_decoder(decoder)
    if isinstance(decoder, str):
        if decoder == "exact":
            return ExactDecoder(embeddings)
        from emprivacy.decoding import ApproximateDecoder

        return ApproximateDecoder(embeddings)
    return decoder


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
    rank_resample : float, optional
        The curse-of-dimensionality fix (Asghar et al.): release a word drawn with
        probability ∝ ``exp(−c·ε·rank)`` of its distance rank from the decoded word,
        ``c = rank_resample``.  Post-processing: the guarantee is unchanged.

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
    supports_points = True

    def __init__(self, embeddings: Embeddings, *, epsilon: float, rng: RandomState = None,
                 decoder: str | Decoder = "exact", rank_resample: float | None = None) -> None:
        super().__init__(embeddings, epsilon=epsilon, rng=rng)
        self.rank_resample = check_rank_resample(rank_resample)
        self.decoder = make_decoder(embeddings, decoder)
        self._resampler: RankResampler | None = None
        self._far_sphere: tuple[np.ndarray, float, float] | None = None

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(embeddings={self.embeddings!r}, "
                f"epsilon={self.epsilon!r}{self._repr_params()}, "
                f"decoder={self.decoder.name!r}"
                + ("" if self.rank_resample is None else
                   f", rank_resample={self.rank_resample!r}") + ")")

    def _repr_params(self) -> str:
        """The subclass's own parameters in :meth:`__repr__` (``", name=value"`` each)."""
        return ""

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> dict[str, Any]:
        """``decoder`` and ``rank_resample`` validated (see
        :meth:`WordMechanism.check_parameters`)."""
        out = super().check_parameters(params)
        if "decoder" in out:
            out["decoder"] = check_decoder(out["decoder"])
        if "rank_resample" in out:
            out["rank_resample"] = check_rank_resample(out["rank_resample"])
        return out

    def record_fields(self) -> dict[str, Any]:
        """Output records name the decoder (a choice of speed, not of guarantee), and the
        rank resampling when it is on."""
        fields: dict[str, Any] = {"decoder": self.decoder.name}
        if self.rank_resample is not None:
            fields["rank_resample"] = self.rank_resample
        return fields

    # -- the metric of the guarantee ---------------------------------------------------
    @property
    def metric(self) -> str:
        """Name of the metric d of the guarantee ``ε·d`` (here ``"euclidean"``)."""
        return "euclidean"

    def guarantee_metric(self) -> str:
        """The metric of the guarantee in words: the Euclidean distance (Thm. 2).

        Rank resampling and the decoder are post-processing and change nothing here.
        """
        return EUCLIDEAN_GUARANTEE

    def distance(self, a: np.ndarray | Sequence[float],
                 b: np.ndarray | Sequence[float]) -> np.ndarray:
        """The metric of the guarantee between vectors: here ``‖a − b‖`` (Thm. 2).

        ``a`` and ``b`` are (..., n) arrays, broadcast against each other; the result
        has their broadcast shape without the last axis.  The mechanism satisfies
        ``P[K(x) = w] ≤ exp(ε·d(Vec x, Vec x'))·P[K(x') = w]``.
        """
        diff = np.asarray(a, np.float64) - np.asarray(b, np.float64)
        return np.sqrt(np.einsum("...i,...i->...", diff, diff))

    # -- Alg. 1 ------------------------------------------------------------------------
    def _stretch(self, noise: np.ndarray) -> np.ndarray:
        """The noise's shape applied to draws of ``Lap_n^ε`` ((size, n) → (size, n)): here
        none.  A mechanism of the family with another noise overrides this one step; it
        must be linear with operator norm at most √n (Mahalanobis noise: ``Σ_λ^{1/2}``)."""
        return noise

    def _noise(self, size: int, *, rng: np.random.Generator) -> np.ndarray:
        """``size`` draws of the additive noise: ``Lap_n^ε`` (Thm. 2), shaped by
        :meth:`_stretch`; (size, n)."""
        return self._stretch(laplace_noise(self.dim, self.epsilon, size=size, rng=rng))

    def privatize_vectors(self, X: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        """Alg. 1 on a bag of vectors: ``X + Lap_n^ε`` noise, row by row (Cor. 2)."""
        X = _check_vector_bag(X, self.dim)
        return X + self._noise(X.shape[0], rng=self.rng)

    def _far_state(self) -> tuple[np.ndarray, float, float]:
        """:func:`~emprivacy.math.noise.far_sphere` of the vocabulary, computed on first use."""
        if self._far_sphere is None:
            self._far_sphere = far_sphere(self.embeddings.vectors)
        return self._far_sphere

    def _noisy_points(self, X: np.ndarray, rng: np.random.Generator,
                      spread: float | None = None) -> np.ndarray:
        """``X + noise`` row by row (Alg. 1), the draws as :meth:`_noise` makes them.

        A noisy point z farther than R from the vocabulary's centre c
        (:func:`~emprivacy.math.noise.far_sphere`, 2⁴⁰ vocabulary radii) is returned as
        ``c + R·(z − c)/‖z − c‖`` (:func:`~emprivacy.math.noise.far_noisy_points`): a function
        of z alone, so decoding it is post-processing and the guarantee is unchanged; it
        is computed in a scaled form, so that a tiny ε (a radius of 10³⁰⁰, or beyond the
        largest float) never overflows.  Only a tiny ε gets there: otherwise the result
        is bit for bit ``X + _noise(m)``.  ``spread`` bounds ``‖X − c‖`` (computed if not
        given).
        """
        m, n = X.shape
        g = np.asarray(rng.standard_gamma(n, size=m))  # with the sphere: laplace_noise's draws
        u = uniform_sphere(n, size=m, rng=rng)
        with np.errstate(over="ignore"):
            radius = g * (1.0 / self.epsilon)  # exactly gamma(shape=n, scale=1/ε)
        centre, far, _ = self._far_state()
        if spread is None:
            diff = X - centre
            spread = float(np.sqrt(np.einsum("ij,ij->i", diff, diff).max(initial=0.0)))
        # ‖z − c‖ ≤ R for sure (‖stretch‖ ≤ √n); False for an infinite radius
        near = np.asarray(radius * math.sqrt(n) + spread <= far)
        if near.all():
            out = self._stretch(u * radius[:, None])
            out += X
            return out
        out = np.empty((m, n))
        if near.any():
            out[near] = self._stretch(u[near] * radius[near, None]) + X[near]
        rows = np.flatnonzero(~near)
        out[rows] = far_noisy_points(X[rows], g[rows], self._stretch(u[rows]), self.epsilon,
                                     centre=centre, radius=far)
        return out

    def noisy_vectors(self, indices: np.ndarray | Sequence[int], *,
                      rng: np.random.Generator | None = None) -> np.ndarray:
        """Alg. 1 applied to ``Vec*(b)``: the noisy vectors of a bag given by row indices.

        ``rng`` overrides the mechanism's generator for this call (used to give
        every document of a corpus its own noise stream).  Returns (N, n) float64: the
        decoders decide on the unrounded noisy point.  At a tiny ε a point beyond 2⁴⁰
        vocabulary radii from the vocabulary's centre comes back on that sphere
        (post-processing, see :meth:`_noisy_points`).
        """
        idx = self.check_indices(indices)
        return self._noisy_points(self.embeddings.vectors[idx],
                                  self.rng if rng is None else rng, spread=self._far_state()[2])

    # -- Alg. 2 ------------------------------------------------------------------------
    def privatize_indices(self, indices: np.ndarray | Sequence[int], *,
                          rng: np.random.Generator | None = None) -> np.ndarray:
        """Alg. 2 on vocabulary row indices: returns the row indices of the output words."""
        idx = self.check_indices(indices)
        return self.privatize_batches([(idx, self.rng if rng is None else rng)])[0]

    def privatize_batches(self, bags: Sequence[tuple[np.ndarray, np.random.Generator]]
                          ) -> list[np.ndarray]:
        """Alg. 2 on many bags: noise each from its own generator, decode all at once."""
        if not bags:
            return []
        bags = [(self.check_indices(idx), gen) for idx, gen in bags]
        decoded = self.decoder.decode(np.concatenate(
            [self.noisy_vectors(idx, rng=gen) for idx, gen in bags]))
        return self._split_and_resample(decoded, bags)

    def privatize_points(self, points: np.ndarray, *,
                         rng: np.random.Generator | None = None) -> np.ndarray:
        """Alg. 2 on arbitrary points p of R^n: ``Vec⁻¹(p + noise)``, as vocabulary rows.

        The same noise, decoding and rank resampling as :meth:`privatize_indices`, in
        the same order of draws, with ``p`` in place of ``Vec(x)``: the guarantee
        ``P[K(p) = w] ≤ exp(ε·d(p, p'))·P[K(p') = w]`` (Thm. 2; decoding and resampling
        are post-processing) holds for any two points, e.g. the subword vector of an
        out-of-vocabulary word and the vector of a vocabulary word.
        """
        X = check_points(points, self.dim)
        gen = self.rng if rng is None else rng
        noisy = self._noisy_points(X, gen)
        rows = self._decode_points(noisy, gen)
        return self._split_and_resample(rows, [(np.empty(X.shape[0], np.int64), gen)])[0]

    def _decode_points(self, noisy: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The released rows of noisy vectors (after their noise was drawn from ``rng``):
        the nearest words.  A mechanism with another decoding step overrides it."""
        return self.decoder.decode(noisy)

    def _split_and_resample(self, rows: np.ndarray,
                            bags: Sequence[tuple[np.ndarray, np.random.Generator]]
                            ) -> list[np.ndarray]:
        """The decoded rows of all bags, split per bag; with ``rank_resample``, each bag's
        words resampled by rank with that bag's generator (after its noise draws)."""
        parts = np.split(rows, np.cumsum([idx.size for idx, _ in bags])[:-1])
        if self.rank_resample is None:
            return parts
        resampler = self._build_resampler(self.rank_resample)
        return resampler.resample_many(parts, [gen for _, gen in bags])

    @property
    def rank_resampler(self) -> RankResampler | None:
        """The rank resampler of ``rank_resample`` (built on first use), or ``None``."""
        if self.rank_resample is None:
            return None
        return self._build_resampler(self.rank_resample)

    def _build_resampler(self, c: float) -> RankResampler:
        if self._resampler is None:
            from emprivacy.mechanisms.curse import RankResampler

            self._resampler = RankResampler(self.embeddings, c=c, epsilon=self.epsilon)
        return self._resampler


def generate_noisy_bag_of_words(bag: Sequence[str], epsilon: float, embeddings: Embeddings, *,
                                rng: RandomState = None) -> list[str]:
    """Alg. 2, ``GenerateNoisyBagOfWords(b, n, ε, Vec)`` as a function (exact decoding)."""
    return EarthMoversPrivacy(embeddings, epsilon=epsilon, rng=rng).privatize(bag)
