"""The Vickrey mechanism (Xu, Aggarwal, Feyisetan, Teissier 2021).

Noise as in Madlib (``noise="euclidean"``) or the regularised Mahalanobis
mechanism (``noise="mahalanobis"``) gives a noisy vector ``z``; with ``w₁`` and
``w₂`` the nearest and second-nearest vocabulary words to ``z``, at Euclidean
distances ``d₁ ≤ d₂``, the mechanism releases

.. math::

    w_2 \\text{ with probability } p(z) = \\frac{t\\,d_1}{t\\,d_1 + (1 - t)\\,d_2},
    \\qquad w_1 \\text{ otherwise}

(a second-price auction between the two nearest words; ``t = 0`` is the plain
mechanism, ``t = 1`` always releases ``w₂``).  The choice depends on ``z`` and
fresh randomness only — never on the input word — so it is post-processing and
the guarantee is the noise's: ε·d₂ (Euclidean noise) or ε·d_RM (Mahalanobis
noise).  Excluding the input word from the candidates, as one peer implementation
does, would make the release depend on the private input and void that argument.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from emprivacy._validation import check_choice
from emprivacy.decoding import Decoder, Top2Decoder
from emprivacy.embeddings.model import Embeddings
from emprivacy.math.randomness import RandomState
from emprivacy.mechanisms.madlib import EarthMoversPrivacy
from emprivacy.mechanisms.mahalanobis import (
    RegularizedMahalanobis,
    check_unit_interval,
    rm_guarantee,
)

__all__ = ["VickreyPrivacy", "second_word_probability"]


def second_word_probability(d1: np.ndarray | float, d2: np.ndarray | float, *,
                            t: float) -> np.ndarray:
    """Probability that the Vickrey mechanism releases the second-nearest word.

    .. math::

        p = \\frac{t\\,d_1}{t\\,d_1 + (1 - t)\\,d_2}

    (Xu et al. 2021), with ``p = t`` where the denominator is 0 (``d₁ = d₂ = 0``:
    the two words are duplicates, the limit of ``p`` along ``d₁ = d₂``; or ``t = 1``
    and ``d₁ = 0``, the limit of ``p ≡ 1``).  Always in [0, 1]; at most 1/2 for
    ``t ≤ 1/2``.

    Parameters
    ----------
    d1, d2 : array-like
        Euclidean distances of the nearest and second-nearest words, ``0 ≤ d1 ≤ d2``.
    t : float in [0, 1]

    Examples
    --------
    >>> second_word_probability([1.0, 1.0, 0.0], [3.0, 1.0, 0.0], t=0.5).tolist()
    [0.25, 0.5, 0.5]
    """
    t = check_unit_interval(t, "t")
    d1 = np.asarray(d1, np.float64)
    d2 = np.asarray(d2, np.float64)
    num = t * d1
    den = num + (1.0 - t) * d2
    safe = np.where(den > 0.0, den, 1.0)
    return np.where(den > 0.0, np.minimum(num / safe, 1.0), t)


class VickreyPrivacy(EarthMoversPrivacy):
    """The Vickrey mechanism (Xu, Aggarwal, Feyisetan, Teissier 2021).

    Each word x gets the noisy vector ``z = Vec(x) + noise`` (Madlib's
    ``Lap_n^ε``, or the regularised Mahalanobis noise ``r·Σ_λ^{1/2}u``); with
    ``w₁, w₂`` the two nearest vocabulary words to z at Euclidean distances
    ``d₁ ≤ d₂`` (ties to the lower row), it releases ``w₂`` with probability

    .. math::

        p(z) = \\frac{t\\,d_1}{t\\,d_1 + (1 - t)\\,d_2}

    and ``w₁`` otherwise (:func:`second_word_probability`).  The choice is a function
    of z and a fresh uniform draw only (:meth:`select`): post-processing, so the
    guarantee is the noise's, ε·d₂ per word (``noise="euclidean"``) or ε·d_RM
    (``noise="mahalanobis"``, :meth:`distance`).  ``t = 0`` is the plain mechanism
    (Madlib or Mahalanobis) exactly, same seed, same words.

    Parameters
    ----------
    embeddings : Embeddings
        ``Vec``; its vocabulary (at least 2 words) is also the output vocabulary.
    epsilon : float
        Per-word ε.
    t : float in [0, 1], default 0.75
        Weight of the second-nearest word: 0 never releases it, 1 always does.
    noise : {"euclidean", "mahalanobis"}, default "euclidean"
        Madlib's noise (Vickrey-CMP) or the regularised Mahalanobis noise (Vickrey-Mhl).
    lam : float in [0, 1], default 0.2
        λ of the Mahalanobis noise (used with ``noise="mahalanobis"`` only).
    rng : None, int or numpy.random.Generator
        ``None`` (default): a cryptographically secure generator.  An int seeds a
        reproducible run (not for real releases).
    decoder : "exact", "approximate" or a decoder with ``decode_top2``, default "exact"
        How the two nearest words are found (post-processing).
    rank_resample : float, optional
        The curse-of-dimensionality rank resampling with this c, applied to the
        released word (post-processing).

    References
    ----------
    Z. Xu, A. Aggarwal, O. Feyisetan, N. Teissier.  On a utilitarian approach to
    privacy preserving text generation.  PrivateNLP 2021.

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog", "car"], [[0, 0], [1, 0], [9, 9]], name="toy")
    >>> VickreyPrivacy(emb, epsilon=1e6, t=0.0, rng=0).privatize(["cat", "car"])
    ['cat', 'car']
    >>> VickreyPrivacy(emb, epsilon=1e6, t=1.0, rng=0).privatize(["cat", "car"])
    ['dog', 'dog']
    """

    name = "vickrey"

    def __init__(self, embeddings: Embeddings, *, epsilon: float, t: float = 0.75,
                 noise: str = "euclidean", lam: float = 0.2, rng: RandomState = None,
                 decoder: str | Decoder = "exact", rank_resample: float | None = None) -> None:
        t = check_unit_interval(t, "t")
        noise = check_choice(noise, "noise", ("euclidean", "mahalanobis"))
        lam = check_unit_interval(lam, "lam")
        super().__init__(embeddings, epsilon=epsilon, rng=rng, decoder=decoder,
                         rank_resample=rank_resample)
        if len(embeddings) < 2:
            raise ValueError("the Vickrey mechanism needs a vocabulary of at least 2 words; "
                             f"got {len(embeddings)}")
        if not isinstance(self.decoder, Top2Decoder):
            raise TypeError("decoder must be 'exact', 'approximate' or a Decoder with a "
                            f"decode_top2 method; got {type(self.decoder).__name__}")
        self.t = t
        self.noise = noise
        self.lam = lam
        self.geometry = (RegularizedMahalanobis(embeddings, lam=lam) if noise == "mahalanobis"
                         else None)
        self._top2: Top2Decoder = self.decoder

    def _repr_params(self) -> str:
        lam = f", lam={self.lam!r}" if self.noise == "mahalanobis" else ""
        return f", t={self.t!r}, noise={self.noise!r}{lam}"

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> dict[str, Any]:
        """``t``, ``noise``, ``lam`` and the nearest-word options validated (before any work)."""
        out = super().check_parameters(params)
        for key in ("t", "lam"):
            if key in out:
                out[key] = check_unit_interval(out[key], key)
        if "noise" in out:
            out["noise"] = check_choice(out["noise"], "noise", ("euclidean", "mahalanobis"))
        return out

    def record_fields(self) -> dict[str, Any]:
        """The mechanism, t, the noise and its metric (λ for Mahalanobis noise), the decoder."""
        fields: dict[str, Any] = {"mechanism": self.name, "metric": self.metric, "t": self.t,
                                  "noise": self.noise}
        if self.noise == "mahalanobis":
            fields["lam"] = self.lam
        return {**fields, **super().record_fields()}

    @property
    def metric(self) -> str:
        """``"euclidean"`` or ``"mahalanobis"``: the metric of the noise's guarantee."""
        return "mahalanobis" if self.geometry is not None else "euclidean"

    def guarantee_metric(self) -> str:
        """The metric of the noise's guarantee in words: Euclidean, or d_RM with λ."""
        if self.geometry is None:
            return super().guarantee_metric()
        return rm_guarantee(self.lam)

    def distance(self, a: np.ndarray | Sequence[float],
                 b: np.ndarray | Sequence[float]) -> np.ndarray:
        """The metric of the guarantee: ``‖a − b‖`` or ``d_RM(a, b)`` (vectors, broadcast)."""
        if self.geometry is None:
            return super().distance(a, b)
        return self.geometry.distance(a, b)

    def _stretch(self, noise: np.ndarray) -> np.ndarray:
        """Madlib's ``r·u`` (same stream), stretched by ``Σ_λ^{1/2}`` for Mahalanobis noise."""
        return noise if self.geometry is None else self.geometry.transform(noise)

    def _uniforms(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """The auction's uniform draws; none are drawn when ``t`` makes it deterministic."""
        if 0.0 < self.t < 1.0:
            return rng.random(size)
        return np.zeros(size)

    def select(self, points: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
        """The released word of each noisy vector: the second-nearest iff ``U < p(z)``.

        A function of the noisy vectors ``points`` (m, n) and independent uniforms
        ``uniforms`` (m,) in [0, 1) only — it is never given the input words, which
        is what makes it post-processing.

        Returns
        -------
        (m,) int64 array of vocabulary rows.
        """
        rows1, rows2, d1, d2 = self._top2.decode_top2(points)
        u = np.asarray(uniforms, np.float64)
        if u.shape != rows1.shape:
            raise ValueError(f"uniforms must have shape {rows1.shape}; got {u.shape}")
        return np.where(u < second_word_probability(d1, d2, t=self.t), rows2, rows1)

    def _decode_points(self, noisy: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The auction on noisy vectors whose noise was drawn from ``rng``: its uniforms
        next, as in :meth:`privatize_batches`."""
        return self.select(noisy, self._uniforms(noisy.shape[0], rng))

    def privatize_batches(self, bags: Sequence[tuple[np.ndarray, np.random.Generator]]
                          ) -> list[np.ndarray]:
        """Many bags: each bag's noise, then its uniforms, from its own generator; one
        top-2 decode for all (equal to the bag-by-bag result)."""
        if not bags:
            return []
        bags = [(self.check_indices(idx), gen) for idx, gen in bags]
        points, uniforms = [], []
        for idx, gen in bags:
            points.append(self.noisy_vectors(idx, rng=gen))
            uniforms.append(self._uniforms(idx.size, gen))
        rows = self.select(np.concatenate(points), np.concatenate(uniforms))
        return self._split_and_resample(rows, bags)
