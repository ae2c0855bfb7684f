"""The regularised Mahalanobis mechanism (Xu, Aggarwal, Feyisetan, Teissier 2020).

Madlib's noise ``r·u`` (``r ~ Gamma(n, 1/ε)``, ``u`` uniform on the unit sphere)
stretched along the directions in which the vocabulary itself spreads:

.. math::

    z = \\mathrm{Vec}(x) + r\\,\\Sigma_\\lambda^{1/2} u,\\qquad
    \\Sigma_\\lambda = \\lambda\\Sigma + (1 - \\lambda) I_n,

``Σ`` the vocabulary's sample covariance scaled to unit average variance
(``tr Σ = n``), ``λ ∈ [0, 1]``; ``z`` is decoded to its Euclidean-nearest word as
in Alg. 2.  The noise has density ``∝ exp(−ε‖v‖_RM)`` with
``‖v‖_RM = √(vᵀ Σ_λ⁻¹ v)``, so the mechanism is ε·d_RM-private,
``d_RM(a, b) = ‖Σ_λ^{−1/2}(a − b)‖``; as every eigenvalue of ``Σ_λ`` is at least
``1 − λ``, it is also ``(ε/√(1 − λ))·d₂``-private for ``λ < 1``.  ``λ = 0`` is
Madlib (:class:`~emprivacy.mechanisms.madlib.EarthMoversPrivacy`) exactly.

``Σ_λ^{1/2}`` is computed once per mechanism (a symmetric eigendecomposition), the
vocabulary covariance once per embeddings (cached by fingerprint), and the noise is
never renormalised after the stretch (renormalising, as one peer implementation
does, destroys the density and with it any usable ε).
"""

from __future__ import annotations

import math
import numbers
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from emprivacy.decoding import Decoder
from emprivacy.embeddings.model import Embeddings
from emprivacy.math.randomness import RandomState
from emprivacy.mechanisms.madlib import EarthMoversPrivacy

__all__ = [
    "MahalanobisPrivacy",
    "RegularizedMahalanobis",
    "check_unit_interval",
    "mahalanobis_distance",
    "regularized_covariance",
    "rm_guarantee",
    "vocabulary_covariance",
]

#: Eigenvalues at most this fraction of the largest count as 0 (only possible at λ = 1).
_NULL_EIGENVALUE = 1e-12

_COVARIANCE_CACHE: OrderedDict[str, np.ndarray] = OrderedDict()
_COVARIANCE_CACHE_SIZE = 4
_cache_lock = threading.Lock()


def check_unit_interval(value: Any, name: str) -> float:
    """Return ``value`` as a float if it is a real number in [0, 1].

    >>> check_unit_interval(0.2, "lam")
    0.2
    >>> check_unit_interval(1.5, "lam")
    Traceback (most recent call last):
    ...
    ValueError: lam must be a finite number in [0, 1]; got 1.5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite number in [0, 1]; got {value!r} of type "
                        f"{type(value).__name__}")
    value = float(value)
    if not 0.0 <= value <= 1.0:  # also False for NaN
        raise ValueError(f"{name} must be a finite number in [0, 1]; got {value!r}")
    return value


def rm_guarantee(lam: float) -> str:
    """The metric of an ε·d_RM guarantee with this λ, as output records state it.

    >>> rm_guarantee(0.2)[:61]
    'the regularised Mahalanobis distance d_RM(a, b) = ‖Σ_λ^(−1/2)'
    """
    lam = check_unit_interval(lam, "lam")
    return ("the regularised Mahalanobis distance d_RM(a, b) = ‖Σ_λ^(−1/2)(a − b)‖ between "
            f"the words' embeddings, Σ_λ = λΣ + (1 − λ)I with λ = {lam!r} and Σ the "
            "vocabulary's covariance scaled to trace n (Xu et al. 2020) — not the Euclidean "
            "distance")


def vocabulary_covariance(embeddings: Embeddings) -> np.ndarray:
    """The vocabulary's covariance scaled to unit average variance: ``Σ`` with ``tr Σ = n``.

    .. math::

        C = \\frac1V \\sum_w (\\mathrm{Vec}\\,w - \\mu)(\\mathrm{Vec}\\,w - \\mu)^\\top,
        \\qquad \\Sigma = \\frac{n}{\\operatorname{tr} C}\\, C

    (population covariance, ``ddof = 0``, divided by the mean per-dimension
    variance), as in Xu et al. (2020).  Computed in float64, in chunks, and cached by
    the embeddings' fingerprint (the last few); the returned array is read-only.

    Parameters
    ----------
    embeddings : Embeddings
        V words × n dimensions.

    Returns
    -------
    (n, n) float64 array, symmetric positive semi-definite, trace n.

    Raises
    ------
    ValueError
        If every word has the same vector (the covariance is zero).

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c", "d"], [[0, 0], [2, 0], [0, 1], [2, 1]])
    >>> vocabulary_covariance(emb).tolist()
    [[1.6, 0.0], [0.0, 0.4]]
    """
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    key = embeddings.fingerprint
    with _cache_lock:
        cached = _COVARIANCE_CACHE.get(key)
        if cached is not None:
            _COVARIANCE_CACHE.move_to_end(key)
            return cached
    vectors = embeddings.vectors
    n_words, dim = vectors.shape
    mean = vectors.mean(axis=0, dtype=np.float64)
    cov = np.zeros((dim, dim))
    for start in range(0, n_words, 65536):
        w = vectors[start:start + 65536].astype(np.float64) - mean
        cov += w.T @ w
    cov /= n_words
    cov = (cov + cov.T) / 2.0
    trace = float(np.trace(cov))
    if not trace > 0.0:
        raise ValueError(f"the vectors of {embeddings.name!r} must not all be equal: their "
                         "covariance is zero and cannot be scaled to unit average variance")
    cov *= dim / trace
    cov.flags.writeable = False
    with _cache_lock:
        _COVARIANCE_CACHE[key] = cov
        while len(_COVARIANCE_CACHE) > _COVARIANCE_CACHE_SIZE:
            _COVARIANCE_CACHE.popitem(last=False)
    return cov


def regularized_covariance(embeddings: Embeddings, lam: float) -> np.ndarray:
    """``Σ_λ = λΣ + (1 − λ)I_n`` (Xu et al. 2020), ``Σ`` from :func:`vocabulary_covariance`.

    Its trace is n for every λ; ``λ = 0`` gives the identity (Madlib's noise).

    >>> emb = Embeddings(["a", "b", "c", "d"], [[0, 0], [2, 0], [0, 1], [2, 1]])
    >>> regularized_covariance(emb, 0.5).tolist()
    [[1.3, 0.0], [0.0, 0.7]]
    """
    lam = check_unit_interval(lam, "lam")
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    eye = np.eye(embeddings.dim)
    if lam == 0.0:
        return eye
    return lam * vocabulary_covariance(embeddings) + (1.0 - lam) * eye


def mahalanobis_distance(a: np.ndarray | Sequence[float], b: np.ndarray | Sequence[float],
                         covariance: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """The Mahalanobis distance ``√((a − b)ᵀ Σ⁻¹ (a − b))`` for a covariance ``Σ``.

    With ``Σ = Σ_λ`` this is the metric ``d_RM`` of the regularised Mahalanobis
    mechanism (Xu et al. 2020).  Directions in which ``Σ`` is singular are at
    infinite distance.  For many calls with one ``Σ``, use
    :class:`RegularizedMahalanobis` (one eigendecomposition).

    Parameters
    ----------
    a, b : (..., n) array-like
        Vectors, broadcast against each other.
    covariance : (n, n) array-like
        Symmetric positive semi-definite.

    Returns
    -------
    float64 array of the broadcast shape without the last axis.

    Examples
    --------
    >>> float(mahalanobis_distance([3.0, 4.0], [0.0, 0.0], [[4.0, 0.0], [0.0, 1.0]]))
    4.272001872658765
    """
    cov = np.asarray(covariance, np.float64)
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError(f"covariance must be a square matrix; got shape {cov.shape}")
    if not np.all(np.isfinite(cov)):
        raise ValueError("covariance must be finite; found NaN or infinity")
    return _Eigen(cov).distance(a, b)


class _Eigen:
    """A symmetric PSD matrix ``Q diag(μ) Qᵀ``: its square root and its Mahalanobis norm."""

    def __init__(self, cov: np.ndarray) -> None:
        mu, q = np.linalg.eigh((cov + cov.T) / 2.0)
        mu = np.clip(mu, 0.0, None)
        self.eigenvalues, self.eigenvectors = mu, q
        self.null = mu <= _NULL_EIGENVALUE * max(float(mu.max(initial=0.0)), 1e-300)
        self.sqrt = (q * np.sqrt(mu)) @ q.T
        self.sqrt = (self.sqrt + self.sqrt.T) / 2.0

    def distance(self, a: np.ndarray | Sequence[float],
                 b: np.ndarray | Sequence[float]) -> np.ndarray:
        diff = np.asarray(a, np.float64) - np.asarray(b, np.float64)
        n = self.eigenvalues.shape[0]
        if diff.shape[-1:] != (n,):
            raise ValueError(f"a and b must be vectors of dimension {n} (shape (..., {n})); "
                             f"got {diff.shape}")
        proj = diff @ self.eigenvectors  # coordinates in the eigenbasis
        mu = np.where(self.null, 1.0, self.eigenvalues)
        d2 = np.einsum("...i,...i->...", proj * np.where(self.null, 0.0, 1.0 / mu), proj)
        norm = np.sqrt(np.einsum("...i,...i->...", diff, diff))
        # a difference along a null direction (beyond rounding) is never hidden by the noise
        off = np.abs(proj[..., self.null]).max(axis=-1, initial=0.0) > 1e-9 * norm
        return np.where(off, np.inf, np.sqrt(d2))


class RegularizedMahalanobis:
    """The noise shape and the metric of the regularised Mahalanobis mechanism.

    Holds ``Σ_λ = λΣ + (1 − λ)I_n`` (:func:`regularized_covariance`), its symmetric
    square root ``Σ_λ^{1/2}`` (one eigendecomposition) and the metric
    ``d_RM(a, b) = ‖Σ_λ^{−1/2}(a − b)‖``.

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary whose covariance shapes the noise.
    lam : float in [0, 1]
        λ; 0 is the identity (Madlib).

    Attributes
    ----------
    lam : float
    covariance : (n, n) float64 array
        ``Σ_λ``.
    sqrt_covariance : (n, n) float64 array
        ``Σ_λ^{1/2}`` (symmetric), with ``Σ_λ^{1/2}Σ_λ^{1/2} = Σ_λ``.
    min_eigenvalue : float
        Smallest eigenvalue of ``Σ_λ`` (at least ``1 − λ``).

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c", "d"], [[0, 0], [2, 0], [0, 1], [2, 1]])
    >>> geo = RegularizedMahalanobis(emb, lam=1.0)
    >>> np.round(geo.sqrt_covariance @ geo.sqrt_covariance, 12).tolist()
    [[1.6, 0.0], [0.0, 0.4]]
    >>> round(float(geo.distance([0.0, 1.0], [0.0, 0.0])), 9)  # 1/√0.4
    1.58113883
    """

    def __init__(self, embeddings: Embeddings, *, lam: float) -> None:
        self.lam = check_unit_interval(lam, "lam")
        self.covariance = regularized_covariance(embeddings, self.lam)
        self.covariance.flags.writeable = False
        if self.lam == 0.0:
            self._eigen = None
            self.sqrt_covariance = self.covariance
            self.min_eigenvalue = 1.0
        else:
            self._eigen = _Eigen(self.covariance)
            self.sqrt_covariance = self._eigen.sqrt
            self.sqrt_covariance.flags.writeable = False
            self.min_eigenvalue = float(np.where(self._eigen.null, 0.0,
                                                 self._eigen.eigenvalues).min())

    def __repr__(self) -> str:
        return f"RegularizedMahalanobis(lam={self.lam!r}, dim={self.covariance.shape[0]})"

    def transform(self, noise: np.ndarray) -> np.ndarray:
        """``Σ_λ^{1/2}v`` for every row ``v`` of ``noise`` ((N, n) → (N, n)); never renormalised.

        ``λ = 0`` returns ``noise`` itself (bit for bit Madlib's noise).
        """
        if self._eigen is None:
            return noise
        return noise @ self.sqrt_covariance  # row form of Σ^{1/2}v (Σ^{1/2} is symmetric)

    def distance(self, a: np.ndarray | Sequence[float],
                 b: np.ndarray | Sequence[float]) -> np.ndarray:
        """``d_RM(a, b) = ‖Σ_λ^{−1/2}(a − b)‖`` over the last axis (broadcast).

        At λ = 0 the Euclidean distance.  Differences along a null direction of
        ``Σ_λ`` (possible only at λ = 1, for a degenerate vocabulary) are at
        infinite distance: the noise does not hide them.
        """
        if self._eigen is None:
            diff = np.asarray(a, np.float64) - np.asarray(b, np.float64)
            return np.sqrt(np.einsum("...i,...i->...", diff, diff))
        return self._eigen.distance(a, b)

    @property
    def euclidean_factor(self) -> float:
        """``1/√μ_min``: ``d_RM ≤ d₂/√μ_min ≤ d₂/√(1 − λ)`` (inf if ``Σ_λ`` is singular)."""
        return math.inf if self.min_eigenvalue <= 0.0 else 1.0 / math.sqrt(self.min_eigenvalue)


class MahalanobisPrivacy(EarthMoversPrivacy):
    """The regularised Mahalanobis mechanism (Xu, Aggarwal, Feyisetan, Teissier 2020).

    Each word x becomes the Euclidean-nearest word to

    .. math::

        z = \\mathrm{Vec}(x) + r\\,\\Sigma_\\lambda^{1/2} u,\\qquad r \\sim \\Gamma(n, 1/ε),
        \\ u \\sim \\mathcal U(B^n),\\qquad \\Sigma_\\lambda = \\lambda\\Sigma + (1-\\lambda)I_n

    (``Σ``: :func:`vocabulary_covariance`, ``tr Σ = n``): Madlib's noise ``r·u``
    (Alg. 1) stretched by ``Σ_λ^{1/2}``, so more noise goes where the vocabulary is
    spread out.  Its density is ``∝ exp(−ε‖v‖_RM)``, ``‖v‖_RM = √(vᵀΣ_λ⁻¹v)``.

    Guarantee: ε·d_RM metric DP per word, ``d_RM(a, b) = ‖Σ_λ^{−1/2}(a − b)‖``
    (:meth:`distance`); since ``Σ_λ ⪰ (1 − λ)I``, also ``(ε/√(1 − λ))·d₂`` for
    ``λ < 1`` (:attr:`euclidean_epsilon` is the sharper ``ε/√μ_min``).  Decoding is
    post-processing.  ``λ = 0`` is :class:`EarthMoversPrivacy` exactly (same seed,
    same words).

    Parameters
    ----------
    embeddings : Embeddings
        ``Vec``; its vocabulary is also the output vocabulary, and its covariance
        shapes the noise.
    epsilon : float
        Per-word ε.
    lam : float in [0, 1], default 0.2
        λ, the weight of the vocabulary's covariance (0: Madlib).
    rng : None, int or numpy.random.Generator
        ``None`` (default): a cryptographically secure generator.  An int seeds a
        reproducible run (not for real releases).
    decoder : "exact", "approximate" or a Decoder, default "exact"
        Euclidean nearest-word decoding (post-processing).
    rank_resample : float, optional
        The curse-of-dimensionality rank resampling with this c (post-processing).

    References
    ----------
    Z. Xu, A. Aggarwal, O. Feyisetan, N. Teissier.  A differentially private text
    perturbation method using a regularized Mahalanobis metric.  PrivateNLP 2020.

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog", "car"], [[0, 0], [1, 0], [9, 9]], name="toy")
    >>> MahalanobisPrivacy(emb, epsilon=1e6, rng=0).privatize(["cat", "car"])
    ['cat', 'car']
    """

    name = "mahalanobis"

    def __init__(self, embeddings: Embeddings, *, epsilon: float, lam: float = 0.2,
                 rng: RandomState = None, decoder: str | Decoder = "exact",
                 rank_resample: float | None = None) -> None:
        lam = check_unit_interval(lam, "lam")
        super().__init__(embeddings, epsilon=epsilon, rng=rng, decoder=decoder,
                         rank_resample=rank_resample)
        self.lam = lam
        self.geometry = RegularizedMahalanobis(embeddings, lam=lam)

    def _repr_params(self) -> str:
        return f", lam={self.lam!r}"

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> dict[str, Any]:
        """``lam`` and the nearest-word options validated (before any work)."""
        out = super().check_parameters(params)
        if "lam" in out:
            out["lam"] = check_unit_interval(out["lam"], "lam")
        return out

    def record_fields(self) -> dict[str, Any]:
        """The mechanism, its metric and λ, the decoder (and the rank resampling if on)."""
        return {"mechanism": self.name, "metric": self.metric, "lam": self.lam,
                **super().record_fields()}

    @property
    def metric(self) -> str:
        """``"mahalanobis"``: the guarantee is ε·d_RM (:meth:`distance`)."""
        return "mahalanobis"

    def guarantee_metric(self) -> str:
        """The metric of the guarantee in words: d_RM with this λ (:func:`rm_guarantee`)."""
        return rm_guarantee(self.lam)

    def distance(self, a: np.ndarray | Sequence[float],
                 b: np.ndarray | Sequence[float]) -> np.ndarray:
        """``d_RM(a, b) = ‖Σ_λ^{−1/2}(a − b)‖`` between vectors (..., n), broadcast.

        The mechanism satisfies ``P[K(x) = w] ≤ exp(ε·d_RM(Vec x, Vec x'))·P[K(x') = w]``.
        """
        return self.geometry.distance(a, b)

    @property
    def euclidean_epsilon(self) -> float:
        """ε' with an ε'·d₂ guarantee: ``ε/√μ_min(Σ_λ) ≤ ε/√(1 − λ)`` (inf if singular)."""
        return self.epsilon * self.geometry.euclidean_factor

    def _stretch(self, noise: np.ndarray) -> np.ndarray:
        """``r·Σ_λ^{1/2}u``: Madlib's draw ``r·u`` (same stream), stretched; (size, n)."""
        return self.geometry.transform(noise)
