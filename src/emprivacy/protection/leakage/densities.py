"""The noise law of the noise-then-decode mechanisms, as the posterior-weighted audit needs it.

madlib (Alg. 1–2 of the paper), the regularised Mahalanobis mechanism and the Vickrey
mechanism (with either noise, and any of them with rank resampling) release

.. math::

    z = \\mathrm{Vec}(x) + r\\,S u, \\qquad r \\sim Γ(n, 1/ε),\\ u \\sim \\mathcal U(S^{n-1}),
    \\qquad y = R(z, ξ),

``S = I`` (madlib's noise, Thm. 2) or ``S = Σ_λ^{1/2}`` (Mahalanobis noise), and ``R`` a
function of the noisy point and of fresh randomness ξ only — the nearest word, the
Vickrey auction between the two nearest, rank resampling — that is, post-processing
(Lemma 3).  The noisy point has the density

.. math::

    f(z \\mid x) = c\\, e^{-ε \\lVert A (z − \\mathrm{Vec}\\,x) \\rVert}, \\qquad A = S^{-1},

the same constant c for every x.  :class:`NoiseLaw` draws ``(r, u)``, makes the noisy
points exactly as the mechanism does (the far-sphere projection at a tiny ε included:
a function of z, so post-processing), releases them through the mechanism's own public
post-processing, with the Vickrey coin integrated out (both candidates, with their exact
probabilities), and gives the log-density ratios ``ln f(z | x) − ln f(z | o)`` of every
secret x against the point's origin o, computed from ``(r, u)`` without cancellation at
any radius.
"""

from __future__ import annotations

import math

import numpy as np

from emprivacy.decoding import Top2Decoder
from emprivacy.math.noise import far_noisy_points, far_sphere, uniform_sphere
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.mechanisms.madlib import EarthMoversPrivacy
from emprivacy.mechanisms.mahalanobis import MahalanobisPrivacy, RegularizedMahalanobis
from emprivacy.mechanisms.vickrey import VickreyPrivacy, second_word_probability

__all__ = ["NoiseLaw", "guarantee_ceiling", "has_noise_density"]


def _geometry(mechanism: WordMechanism) -> RegularizedMahalanobis | None:
    """The Mahalanobis noise shape of a supported mechanism, ``None`` for madlib's noise."""
    if isinstance(mechanism, MahalanobisPrivacy | VickreyPrivacy):
        return mechanism.geometry
    return None


def has_noise_density(mechanism: WordMechanism) -> bool:
    """Whether the posterior-weighted audit applies: noise of known density, then
    post-processing.

    True for madlib, mahalanobis and vickrey (either noise; with or without rank
    resampling; any decoder), exactly those classes; False for a subclass (its noise may
    differ), for SanText and TEM (their channel is exact anyway) and for Mahalanobis noise
    with a singular ``Σ_λ`` (λ = 1 on a degenerate vocabulary: no density).

    >>> from emprivacy import Embeddings, EarthMoversPrivacy, SanText
    >>> emb = Embeddings(["cat", "dog"], [[0.0], [1.0]])
    >>> has_noise_density(EarthMoversPrivacy(emb, epsilon=1.0)), has_noise_density(
    ...     SanText(emb, epsilon=1.0))
    (True, False)
    """
    if type(mechanism) not in (EarthMoversPrivacy, MahalanobisPrivacy, VickreyPrivacy):
        return False
    geometry = _geometry(mechanism)
    return geometry is None or geometry.min_eigenvalue > 0.0


def guarantee_ceiling(mechanism: WordMechanism, rows: np.ndarray) -> float:
    """``e^{ε·diam(S)}``: what the guarantee alone allows the secrets ``rows`` to leak.

    An ε·d-private mechanism has ``C[x, y] ≤ e^{ε d(x, x')} C[x', y]``, so its capacity
    ``Σ_y max_x C[x, y]`` is at most ``e^{ε·diam(S)}`` and ``V(π▷C) ≤ V(π)·e^{ε·diam(S)}``,
    diam(S) the secrets' largest distance in the metric of the guarantee (d₂, or d_RM for
    Mahalanobis noise).  ``inf`` for a mechanism without a noise density here.

    >>> from emprivacy import Embeddings, EarthMoversPrivacy
    >>> emb = Embeddings(["a", "b", "c"], [[0.0], [1.0], [3.0]])
    >>> round(guarantee_ceiling(EarthMoversPrivacy(emb, epsilon=0.5), np.array([0, 2])), 6)
    4.481689
    """
    if not has_noise_density(mechanism):
        return math.inf
    exponent = mechanism.epsilon * NoiseLaw(mechanism, rows).diameter()
    return math.exp(exponent) if exponent < 700.0 else math.inf


class NoiseLaw:
    """A supported mechanism's noise and post-processing (see the module docstring).

    Parameters
    ----------
    mechanism : EarthMoversPrivacy, MahalanobisPrivacy or VickreyPrivacy
        At its ε (:func:`has_noise_density` must hold).
    rows : (K,) int array
        The secrets' vocabulary rows: the x of :meth:`log_ratios`.

    Attributes
    ----------
    shaped : (K, n) float64 array
        ``A·(Vec x − μ)`` for every secret (μ the vocabulary's mean): in these
        coordinates the noise is madlib's and d(x, x') is Euclidean.
    outputs : int
        Releases per noisy point: 2 for Vickrey (both candidates), else 1.
    """

    def __init__(self, mechanism: WordMechanism, rows: np.ndarray) -> None:
        if not has_noise_density(mechanism) or not isinstance(mechanism, EarthMoversPrivacy):
            raise TypeError(f"mechanism {getattr(mechanism, 'name', mechanism)!r} has no noise "
                            "density here (madlib, mahalanobis and vickrey have)")
        self.mechanism = mechanism
        self.epsilon = float(mechanism.epsilon)
        vectors = mechanism.embeddings.vectors
        self.dim = int(vectors.shape[1])
        self.geometry = _geometry(mechanism)
        self.inverse: np.ndarray | None = None
        if self.geometry is not None and self.geometry.lam > 0.0:
            mu, q = np.linalg.eigh(self.geometry.covariance)
            self.inverse = (q / np.sqrt(mu)) @ q.T  # A = Σ_λ^{-1/2}, symmetric
        self.centre, self.far, self.spread = far_sphere(vectors)
        self.mean = vectors.mean(axis=0, dtype=np.float64)
        self.rows = np.asarray(rows, dtype=np.int64)
        self.secrets = vectors[self.rows].astype(np.float64)
        self.shaped = self.shape(self.secrets)
        self.outputs = 2 if isinstance(mechanism, VickreyPrivacy) else 1

    def shape(self, points: np.ndarray) -> np.ndarray:
        """``A·(p − μ)`` for points p (m, n): the coordinates where the noise is isotropic."""
        centred = np.asarray(points, dtype=np.float64) - self.mean
        return centred if self.inverse is None else centred @ self.inverse

    def diameter(self, gram: np.ndarray | None = None) -> float:
        """``diam(S) = max_{x, x'} d(x, x')`` in the metric of the guarantee (d₂ or d_RM),
        from :meth:`pair_squares` (given, or computed), rounded up by 1e-12."""
        squares = self.pair_squares() if gram is None else gram
        return math.sqrt(float(squares.max(initial=0.0))) * (1.0 + 1e-12)

    def draw(self, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``size`` draws ``(g, u)``: ``g ~ Γ(n, 1)`` (the radius in units of 1/ε) and ``u``
        uniform on the sphere, in the mechanism's order of draws."""
        g = np.asarray(rng.standard_gamma(self.dim, size=size), dtype=np.float64)
        return g, uniform_sphere(self.dim, size=size, rng=rng)

    def _stretch(self, noise: np.ndarray) -> np.ndarray:
        return noise if self.geometry is None else self.geometry.transform(noise)

    def points(self, origins: np.ndarray, g: np.ndarray, u: np.ndarray) -> np.ndarray:
        """The noisy points ``Vec(o) + (g/ε)·S u`` of secrets ``origins`` (indices into the
        secrets), a point beyond the far sphere brought onto it as the mechanism does."""
        x = self.secrets[origins]
        with np.errstate(over="ignore"):
            radius = g * (1.0 / self.epsilon)
        near = np.asarray(radius * math.sqrt(self.dim) + self.spread <= self.far)
        if near.all():
            return self._stretch(u * radius[:, None]) + x
        out = np.empty(x.shape)
        out[near] = self._stretch(u[near] * radius[near, None]) + x[near]
        far = ~near
        out[far] = far_noisy_points(x[far], g[far], self._stretch(u[far]), self.epsilon,
                                    centre=self.centre, radius=self.far)
        return out

    def release(self, points: np.ndarray, rng: np.random.Generator
                ) -> tuple[np.ndarray, np.ndarray]:
        """The mechanism's release of noisy points: ``(rows, probabilities)``, (m, outputs)
        each; row j of a point is released with probability ``probabilities[:, j]``
        (summing to 1 per point; the rank resampling, when on, drawn from ``rng``)."""
        mech = self.mechanism
        decoder = mech.decoder
        if isinstance(mech, VickreyPrivacy) and isinstance(decoder, Top2Decoder):
            rows1, rows2, d1, d2 = decoder.decode_top2(points)
            p = second_word_probability(d1, d2, t=mech.t)
            rows = np.column_stack([rows1, rows2]).astype(np.int64)
            probs = np.column_stack([1.0 - p, p])
        else:
            rows = np.asarray(decoder.decode(points), dtype=np.int64)[:, None]
            probs = np.ones(rows.shape)
        resampler = mech.rank_resampler
        if resampler is not None:
            rows = np.column_stack([resampler.resample(rows[:, j], rng)
                                    for j in range(rows.shape[1])]).astype(np.int64)
        return rows, probs

    def log_ratios(self, origins: np.ndarray, g: np.ndarray, u: np.ndarray,
                   gram: np.ndarray) -> np.ndarray:
        """``ln f(z | x) − ln f(z | o)`` for every point (row) and secret x (column).

        With ``δ = A(Vec o − Vec x)``, ``q = ‖δ‖²``, ``s = u·δ`` and ``t = 1/r = ε/g``,

        .. math::

            \\ln\\frac{f(z \\mid x)}{f(z \\mid o)} = −ε(\\lVert δ + r u\\rVert − r)
            = −ε\\,\\frac{q t + 2 s}{\\sqrt{q t^2 + 2 s t + 1} + 1},

        exact at every radius (no ``‖z − x‖ − r`` cancellation).  Numerator and denominator
        are multiplied by ``c = min(1, r)`` (``w = c t = min(1, t)``): the numerator
        ``q w + 2 s c``, the denominator ``sqrt(w·numerator + c²) + c``, finite where r
        overflows and where it is tiny (an ε near the top of float64).
        ``gram`` is the (K, K) matrix of the ``q`` (:meth:`pair_squares`).
        """
        with np.errstate(over="ignore"):
            t = self.epsilon / g
            r = g / self.epsilon
        w = np.minimum(t, 1.0)[:, None]
        c = np.minimum(r, 1.0)[:, None]
        s = u @ self.shaped.T  # u·A(x − μ), then s = u·δ
        np.subtract(s[np.arange(origins.size), origins][:, None], s, out=s)
        num = gram[origins]  # q, then the numerator q w + 2 s c
        num *= w
        s *= 2.0 * c
        num += s
        np.multiply(num, w, out=s)  # then the denominator sqrt(w·num + c²) + c
        s += c * c
        np.maximum(s, 0.0, out=s)
        np.sqrt(s, out=s)
        s += c
        num /= s
        with np.errstate(over="ignore"):  # −inf: a weight of 0
            num *= -self.epsilon
        return num

    def pair_squares(self) -> np.ndarray:
        """``‖A(Vec o − Vec x)‖²`` for every pair of secrets: (K, K) float64, 0 on the diagonal."""
        p = self.shaped
        k, n = p.shape
        out = np.empty((k, k))
        step = max(1, (1 << 21) // (k * n))
        for start in range(0, k, step):
            diff = p[start:start + step, None, :] - p[None, :, :]
            out[start:start + step] = np.einsum("ijk,ijk->ij", diff, diff)
        return out
