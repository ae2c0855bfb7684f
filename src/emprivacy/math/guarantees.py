"""The paper's guarantees as computable functions (§3, §4.2, Appendix A).

* Privacy: Thm. 1 / Cor. 2 / Thm. 4 — for bags b, b' of size N,
  ``P[K(b) ∈ Z] ≤ exp(ε·N·E(b, b'))·P[K(b') ∈ Z]``.  :func:`privacy_multiplier`.
* Utility: Thm. 3 — a lower bound on ``P[E(b, K(b)) ≤ Δ]`` for Alg. 1.

About Thm. 3.  The appendix shows ``Z_M ⊆ Z_E`` (in the proof of Thm. 3): every output whose
Manhattan distance ``M = Σᵢ‖zᵢ − bᵢ‖`` is at most NΔ has Earth Mover's distance
at most Δ.  Under Alg. 1, ``‖zᵢ − bᵢ‖`` are N independent Gamma(n, 1/ε) radii,
so M ~ Gamma(N·n, 1/ε) and, exactly,

.. math::  P[Z_E] \\ge P[Z_M] = P(N n, \\varepsilon N \\Delta)

(regularised lower incomplete gamma) — :func:`utility_bound`, valid for every
ε, N, Δ, n.  The printed theorem, ``1 − e^{−x} e_{n−1}(x)`` with ``x = εNΔ``,
is ``P(n, x)``: it drops the factor ``((cV)^N − 1)/(cV − 1) ≥ 1`` of the
appendix's last step (cV = x^n/n!) and is **not** a valid bound — e.g. n = 2,
N = 2, ε = 1, Δ = 0.35 gives 0.156 while ``P[Z_E]`` is ≈ 0.007.  It is provided
as :func:`paper_utility_bound` for fidelity, and the unsimplified appendix
expression as :func:`appendix_utility_bound`.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy.special import gammainc, gammaln, logsumexp

from emprivacy._validation import check_epsilon, check_nonnegative_number, check_positive_int

#: Largest x with ``exp(x)`` finite in float64.
_LOG_FLOAT_MAX = math.log(np.finfo(np.float64).max)

#: The largest bag size N and embedding dimension n that ``emprivacy guarantee`` accepts:
#: far beyond any document (the whole Brown corpus is about 10⁶ words) or embedding
#: (hundreds to a few thousand dimensions), and small enough to compute at once.
MAX_BAG_SIZE = 10_000_000
MAX_DIM = 100_000

__all__ = [
    "MAX_BAG_SIZE",
    "MAX_DIM",
    "appendix_utility_bound",
    "ball_probability",
    "laplace_constant",
    "paper_utility_bound",
    "privacy_multiplier",
    "utility_bound",
]


def privacy_multiplier(epsilon: float, N: int, distance: float) -> float:
    """The privacy multiplier ``exp(ε·N·E)`` of Thm. 1 (and the b1/b2 example of §3).

    For input bags of size N at Earth Mover's distance E, the probability of any
    set of outputs differs by at most this factor (``inf`` when it exceeds float64).

    >>> round(privacy_multiplier(1 / 16, 4, 2.816), 2)
    2.02
    """
    epsilon = check_epsilon(epsilon)
    N = check_positive_int(N, "N")
    distance = check_nonnegative_number(distance, "distance")
    exponent = epsilon * N * distance
    return math.exp(exponent) if exponent < _LOG_FLOAT_MAX else math.inf


def _x(epsilon: float, N: int, delta: float) -> float:
    return check_epsilon(epsilon) * check_positive_int(N, "N") * check_nonnegative_number(
        delta, "delta")


def utility_bound(epsilon: float, N: int, delta: float, n: int) -> float:
    """A valid lower bound on ``P[E(b, Alg1(b)) ≤ Δ]`` (Thm. 3, corrected).

    .. math::  P[Z_E] \\ge P(N n,\\ \\varepsilon N \\Delta)

    where P is the regularised lower incomplete gamma function: the Manhattan
    distance of Alg. 1's output is a sum of N independent Gamma(n, 1/ε) radii,
    i.e. Gamma(Nn, 1/ε), and ``Z_M ⊆ Z_E`` (proof of Thm. 3, App. A).  No condition on
    εNΔ is needed.  It bounds the noisy *vectors* of Alg. 1; the decoded words
    of Alg. 2 are post-processed and are not covered by this bound.

    >>> 0.0 <= utility_bound(10, 4, 2.0, 50) <= 1.0
    True
    """
    x = _x(epsilon, N, delta)
    n = check_positive_int(n, "n")
    return float(gammainc(N * n, x))


def paper_utility_bound(epsilon: float, N: int, delta: float, n: int) -> float:
    """Thm. 3 exactly as printed: ``1 − e^{−εNΔ} e_{n−1}(εNΔ)`` (= ``P(n, εNΔ)``).

    **Not a valid lower bound.**  The appendix's final step drops the factor
    ``((cV)^N − 1)/(cV − 1) ≥ 1``; with n = 2, N = 2, ε = 1, Δ = 0.35 this
    expression gives 0.156 while a Monte Carlo estimate of ``P[Z_E]`` for far-apart
    input points is about 0.007.  Use :func:`utility_bound`.  A
    :class:`UserWarning` is also raised outside the theorem's stated condition
    ``εNΔ ≤ n/e``.

    >>> round(paper_utility_bound(1, 2, 0.35, 2), 3)
    0.156
    """
    x = _x(epsilon, N, delta)
    n = check_positive_int(n, "n")
    if x > n / math.e:
        warnings.warn(f"paper_utility_bound: εNΔ = {x:.4g} exceeds n/e = {n / math.e:.4g}, the "
                      "condition of Thm. 3 (the expression is not a valid bound in any case)",
                      UserWarning, stacklevel=2)
    return float(gammainc(n, x))


def _log_geometric_sum(log_r: float, N: int) -> float:
    """``log Σ_{k<N} r^k`` for ``r = exp(log_r)``, in closed form (no array of N terms)."""
    if N == 1:
        return 0.0
    if log_r == 0.0:
        return math.log(N)
    if log_r < 0.0:  # (1 − r^N) / (1 − r)
        return math.log(-math.expm1(N * log_r)) - math.log(-math.expm1(log_r))
    # r > 1: r^(N−1) · (1 − r^−N) / (1 − r^−1)
    return ((N - 1) * log_r + math.log(-math.expm1(-N * log_r))
            - math.log(-math.expm1(-log_r)))


def appendix_utility_bound(epsilon: float, N: int, delta: float, n: int) -> float:
    """The appendix's unsimplified bound (Thm. A.2) before its last approximation.

    .. math::

        1 - e^{-x} e_{n-1}(x)\\,\\frac{(cV)^N - 1}{cV - 1},\\qquad
        cV = c_n^\\varepsilon V_n(N\\Delta) = x^n / n!,\\quad x = \\varepsilon N \\Delta

    Valid but often ≤ 0 (then it says nothing); computed in log space, returns
    ``-inf`` when the subtracted term overflows.

    >>> appendix_utility_bound(1, 2, 0.35, 2) < paper_utility_bound(1, 2, 0.35, 2)
    True
    """
    x = _x(epsilon, N, delta)
    n = check_positive_int(n, "n")
    if x == 0.0:
        return 0.0
    # log(e^{−x} e_{n−1}(x)) summed in log space: Q(n, x) itself underflows for large x
    k = np.arange(n)
    log_tail = -x + float(logsumexp(k * math.log(x) - gammaln(k + 1)))
    log_cv = n * math.log(x) - float(gammaln(n + 1))
    log_sum = _log_geometric_sum(log_cv, N)
    log_term = log_tail + log_sum
    if log_term > 700:
        return -math.inf
    return 1.0 - math.exp(log_term)


def laplace_constant(n: int, epsilon: float, *, log: bool = False) -> float:
    """The normalising constant ``c_n^ε`` of ``Lap_n^ε`` (Def. 5; the corollary on c_n^ε in App. A).

    .. math::  c_n^\\varepsilon = \\frac{\\varepsilon^n}{(n-1)!\\,S_{n-1}(1)},
               \\qquad S_{n-1}(1) = \\frac{2\\pi^{n/2}}{\\Gamma(n/2)}

    Computed in log space; with ``log=True`` returns ``log c_n^ε`` (use it for
    n = 300, where ``c_n^ε`` itself underflows to 0, or
    overflows to ``inf`` for large ε).

    >>> round(laplace_constant(1, 2.0), 12), round(laplace_constant(2, 1.0), 12)
    (1.0, 0.159154943092)
    """
    n = check_positive_int(n, "n")
    epsilon = check_epsilon(epsilon)
    log_surface = math.log(2.0) + (n / 2) * math.log(math.pi) - float(gammaln(n / 2))
    value = n * math.log(epsilon) - float(gammaln(n)) - log_surface
    if log:
        return value
    return math.exp(value) if value < _LOG_FLOAT_MAX else math.inf


def ball_probability(n: int, epsilon: float, R: float, *, log: bool = False) -> float:
    """``L_n^ε(R)``, the probability that ``Lap_n^ε`` noise has norm ≤ R (Lemma A.4).

    .. math::  \\mathcal L_n^\\varepsilon(R) = 1 - e^{-\\varepsilon R} e_{n-1}(\\varepsilon R)
               = P(n, \\varepsilon R)

    >>> round(ball_probability(1, 1.0, 1.0), 6)  # 1 − e^{−1}
    0.632121
    """
    n = check_positive_int(n, "n")
    epsilon = check_epsilon(epsilon)
    R = check_nonnegative_number(R, "R")
    p = float(gammainc(n, epsilon * R))
    if not log:
        return p
    if p > 0:
        return math.log(p)
    # deep lower tail: log P(n, x) ≈ n log x − x − log Γ(n+1) (first series term)
    x = epsilon * R
    return -math.inf if x == 0 else n * math.log(x) - x - float(gammaln(n + 1))
