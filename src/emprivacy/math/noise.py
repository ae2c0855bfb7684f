"""n-dimensional Laplace noise (Def. 5, Lemma 4 and Thm. 2 of the paper).

The density ``Lap_n^ε(v) = c_n^ε · exp(−ε‖v‖)`` is sampled as ``r·u`` with the
radius ``r ~ Gamma(n, scale 1/ε)`` (Def. 6) and the direction ``u`` uniform on
the unit sphere ``B^n`` (Def. 7), drawn as a normalised standard normal vector
(Marsaglia 1972).  Adding it to a vector is ε‖·‖-private (Thm. 2).
"""

from __future__ import annotations

import numpy as np

from emprivacy._validation import check_epsilon, check_positive_int
from emprivacy.math.randomness import RandomState, check_random_state

__all__ = ["FAR_RADII", "far_noisy_points", "far_sphere", "laplace_noise", "uniform_sphere"]

#: A noisy point farther than this many vocabulary radii from the vocabulary's centre is
#: decoded from the sphere of that radius (post-processing; it happens only at a tiny ε).
FAR_RADII = 2.0**40
#: The far radius stays below this: the decoders take coordinates below 1e30.
_FAR_LIMIT = 1e28


def uniform_sphere(n: int, *, size: int, rng: RandomState = None) -> np.ndarray:
    """``size`` points drawn uniformly on the unit sphere ``B^n`` (Def. 7).

    Returns
    -------
    (size, n) float64 array of unit vectors.
    """
    n = check_positive_int(n, "n")
    size = check_positive_int(size, "size", minimum=0)
    gen = check_random_state(rng)
    u = gen.standard_normal((size, n))
    norms = np.linalg.norm(u, axis=1)
    bad = norms == 0.0
    while np.any(bad):  # probability 0 in exact arithmetic; redraw to be safe
        u[bad] = gen.standard_normal((int(bad.sum()), n))
        norms[bad] = np.linalg.norm(u[bad], axis=1)
        bad = norms == 0.0
    u /= norms[:, None]
    return u


def laplace_noise(n: int, epsilon: float, *, size: int, rng: RandomState = None) -> np.ndarray:
    """Draw ``size`` vectors from the n-dimensional Laplacian ``Lap_n^ε`` (Def. 5).

    .. math::

        X = r\\,u,\\qquad r \\sim \\Gamma(n, 1/\\epsilon),\\quad u \\sim \\mathcal U(B^n)

    (Lemma 4: this realises the density ``c_n^ε e^{−ε‖v‖}``; Thm. 2: adding it to
    ``x`` is ε‖·‖-private).  One vectorised draw for the whole bag.

    Parameters
    ----------
    n : int
        Dimension (≥ 1).
    epsilon : float
        Privacy parameter ε (finite, > 0).
    size : int
        Number of vectors (the bag size N).
    rng : None, int or numpy.random.Generator
        See :func:`emprivacy.math.randomness.check_random_state`; default secure.

    Returns
    -------
    (size, n) float64 array.

    Examples
    --------
    >>> x = laplace_noise(3, 2.0, size=4, rng=0)
    >>> x.shape
    (4, 3)
    """
    n = check_positive_int(n, "n")
    epsilon = check_epsilon(epsilon)
    size = check_positive_int(size, "size", minimum=0)
    gen = check_random_state(rng)
    radius = gen.gamma(shape=n, scale=1.0 / epsilon, size=size)
    return uniform_sphere(n, size=size, rng=gen) * radius[:, None]


def far_sphere(vectors: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The vocabulary's centre c (mean vector), the far radius R and the vocabulary radius ρ.

    ``ρ = max_w ‖Vec(w) − c‖`` and ``R = FAR_RADII·ρ`` (1 if ρ = 0), kept below the
    decoders' coordinate limit.  A noisy point z with ``‖z − c‖ > R`` is decoded from
    ``c + R·(z − c)/‖z − c‖`` (:func:`far_noisy_points`): a function of z alone, so
    post-processing (Lemma 3), and at 2⁴⁰ vocabulary radii the nearest word of a point
    along a direction from c no longer changes to float64 precision.  No ε above about
    10⁻¹⁰ reaches R in practice; a tiny ε (1e-30, 1e-300, the smallest float) does.

    >>> c, R, rho = far_sphere(np.array([[0.0, 0.0], [2.0, 0.0]]))
    >>> c.tolist(), rho, R == 2.0**40
    ([1.0, 0.0], 1.0, True)
    """
    centre = vectors.mean(axis=0, dtype=np.float64)
    rho = 0.0
    for start in range(0, len(vectors), 65536):
        w = vectors[start:start + 65536] - centre
        rho = max(rho, float(np.sqrt(np.einsum("ij,ij->i", w, w).max(initial=0.0))))
    radius = FAR_RADII * rho if rho > 0.0 else 1.0
    radius = min(radius, _FAR_LIMIT - float(np.abs(centre).max(initial=0.0)))
    return centre, radius, rho


def far_noisy_points(X: np.ndarray, g: np.ndarray, directions: np.ndarray, epsilon: float, *,
                     centre: np.ndarray, radius: float) -> np.ndarray:
    """``z = X + (g/ε)·directions`` row by row, with z beyond ``radius`` of ``centre`` brought
    onto that sphere, in a scaled form that never overflows.

    ``z − c = (g/ε)·w`` with ``w = (X − c)·ε/g + directions``: z is beyond R iff
    ``g·‖w‖ > R·ε``, and then its image is ``c + R·w/‖w‖`` (:func:`far_sphere`); so ε
    may be as small as the smallest positive float (g/ε infinite) and the result is still
    finite.

    Parameters
    ----------
    X : (m, n) array
        The points noise is added to.
    g : (m,) float64 array
        The noise radii in units of 1/ε (Gamma(n, 1) draws), all > 0.
    directions : (m, n) float64 array
        The noise directions (unit vectors, or stretched ones).
    epsilon : float
    centre, radius
        From :func:`far_sphere`.

    Returns
    -------
    (m, n) float64 array of finite points.

    Examples
    --------
    >>> far_noisy_points(np.zeros((2, 1)), np.array([1.0, 1.0]), np.array([[1.0], [-1.0]]),
    ...                  5e-324, centre=np.zeros(1), radius=10.0).tolist()
    [[10.0], [-10.0]]
    """
    with np.errstate(under="ignore"):
        w = (X - centre) * (epsilon / g)[:, None] + directions
    norm_w = np.sqrt(np.einsum("ij,ij->i", w, w))
    with np.errstate(under="ignore"):
        beyond = g * norm_w > radius * epsilon
    out = np.empty(w.shape)
    out[beyond] = centre + radius * (w[beyond] / norm_w[beyond, None])
    inside = ~beyond
    with np.errstate(over="ignore"):
        out[inside] = centre + w[inside] * (g[inside] * (1.0 / epsilon))[:, None]
    return out
