"""n-dimensional Laplace noise (Def. 5, Lemma 4 and Thm. 2 of the paper).

The density ``Lap_n^ε(v) = c_n^ε · exp(−ε‖v‖)`` is sampled as ``r·u`` with the
radius ``r ~ Gamma(n, scale 1/ε)`` (Def. 6) and the direction ``u`` uniform on
the unit sphere ``B^n`` (Def. 7), drawn as a normalised standard normal vector
(Marsaglia 1972).  Adding it to a vector is ε‖·‖-private (Thm. 2).
"""

from __future__ import annotations

import numpy as np

from ._validation import check_epsilon, check_positive_int
from .randomness import RandomState, check_random_state

__all__ = ["laplace_noise", "uniform_sphere"]


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
        See :func:`emprivacy.randomness.check_random_state`; default secure.

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
