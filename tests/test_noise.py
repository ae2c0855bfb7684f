"""n-dimensional Laplace noise (Def. 6, Lemma 3, Thm. 2): seeded statistical tests.

Every statistical test is seeded (so it is deterministic) and states its
tolerance.  KS tests accept at p > 1e-3 and, to show they have power, the same
samples are checked to *reject* a slightly wrong law at p < 1e-6.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy import stats

from emprivacy import laplace_noise
from emprivacy.math.noise import uniform_sphere

#: Draws per KS test.
M_KS = 20_000
#: Acceptance / rejection thresholds of the KS tests.
P_ACCEPT = 1e-3
P_REJECT = 1e-6


# -- shape and vectorisation ------------------------------------------------------------
def test_shape_dtype_and_one_draw_for_the_bag():
    x = laplace_noise(7, 0.5, size=11, rng=0)
    assert x.shape == (11, 7)
    assert x.dtype == np.float64
    assert np.all(np.isfinite(x))
    # rows are distinct draws, not one vector repeated
    assert len({tuple(r) for r in x}) == 11


def test_size_zero_gives_empty_array():
    assert laplace_noise(3, 1.0, size=0, rng=0).shape == (0, 3)


# -- radius ~ Gamma(n, 1/ε) (Lemma 3) ---------------------------------------------------
@pytest.mark.parametrize(("n", "epsilon", "seed"),
                         [(1, 0.5, 1), (2, 2.0, 2), (50, 1.0, 3), (300, 0.25, 4)])
def test_radius_follows_gamma_n_scale_one_over_epsilon(n, epsilon, seed):
    r = np.linalg.norm(laplace_noise(n, epsilon, size=M_KS, rng=seed), axis=1)
    law = stats.gamma(n, scale=1.0 / epsilon)
    assert stats.kstest(r, law.cdf).pvalue > P_ACCEPT
    # power: a scale 20% off, or the shape off by one, is rejected by the same samples
    assert stats.kstest(r, stats.gamma(n, scale=1.2 / epsilon).cdf).pvalue < P_REJECT
    assert stats.kstest(r, stats.gamma(n + 1, scale=1.0 / epsilon).cdf).pvalue < P_REJECT


# -- direction uniform on the sphere (Def. 8) --------------------------------------------
@pytest.mark.parametrize(("n", "seed"), [(1, 10), (2, 11), (3, 12), (50, 13), (300, 14)])
def test_direction_has_mean_zero(n, seed):
    x = laplace_noise(n, 1.0, size=M_KS, rng=seed)
    u = x / np.linalg.norm(x, axis=1, keepdims=True)
    # each coordinate of u has mean 0 and variance 1/n, and they are uncorrelated, so
    # n·m·‖mean‖² is approximately χ²_n; accept at p > 1e-3.
    mean = u.mean(axis=0)
    statistic = n * M_KS * float(mean @ mean)
    assert stats.chi2(n).sf(statistic) > P_ACCEPT


def test_direction_in_one_dimension_is_a_fair_sign():
    x = laplace_noise(1, 1.0, size=M_KS, rng=20)[:, 0]
    u = np.sign(x)
    assert set(np.unique(u)) == {-1.0, 1.0}
    assert stats.binomtest(int((u > 0).sum()), M_KS, 0.5).pvalue > P_ACCEPT


@pytest.mark.parametrize(("n", "seed"), [(2, 30), (3, 31), (50, 32), (300, 33)])
def test_direction_projections_follow_the_uniform_sphere_beta_law(n, seed):
    """For u uniform on the sphere and a fixed unit a: (u·a + 1)/2 ~ Beta((n−1)/2, (n−1)/2)."""
    x = laplace_noise(n, 3.0, size=M_KS, rng=seed)
    u = x / np.linalg.norm(x, axis=1, keepdims=True)
    axes = np.random.default_rng(seed).standard_normal((3, n))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    half = (n - 1) / 2
    for a in axes:
        t = (u @ a + 1.0) / 2.0
        assert stats.kstest(t, stats.beta(half, half).cdf).pvalue > P_ACCEPT
    # power: the law of the sphere of another dimension is rejected
    other = (n * 1.3 - 1) / 2 if n > 2 else 1.0
    assert stats.kstest((u @ axes[0] + 1) / 2, stats.beta(other, other).cdf).pvalue < P_REJECT


def test_radius_and_direction_are_independent():
    n = 5
    x = laplace_noise(n, 1.0, size=M_KS, rng=40)
    r = np.linalg.norm(x, axis=1)
    proj = x[:, 0] / r
    # |corr(r, |u₁|)| of independent variables is ≈ N(0, 1/m); accept within 4.5 sd
    assert abs(np.corrcoef(r, np.abs(proj))[0, 1]) < 4.5 / math.sqrt(M_KS)


def test_uniform_sphere_points_are_unit_vectors():
    u = uniform_sphere(4, size=100, rng=0)
    np.testing.assert_allclose(np.linalg.norm(u, axis=1), 1.0, rtol=1e-12)


# -- empirical ε‖·‖-privacy (Thm. 2) ---------------------------------------------------
M_DP = 100_000
#: Sampling slack: Z standard errors of the difference p − e^{εd} p'.
Z = 4.0


def _check_dx_privacy(p, q, factor):
    """Assert p ≤ factor·q + Z·se for every region, p and q estimated from M_DP draws each."""
    se = np.sqrt(p * (1 - p) / M_DP + factor**2 * q * (1 - q) / M_DP)
    slack = Z * se + 1.0 / M_DP
    violations = p - factor * q - slack
    assert np.all(violations <= 0), (p, q, factor, slack)


def _regions_1d(z):
    """Indicator matrix (m × regions) of half-lines and intervals."""
    cols = [z <= t for t in (-2.0, -1.0, 0.0, 0.25, 0.5, 1.0, 2.0)]
    cols += [(z > a) & (z <= b) for a, b in ((-0.5, 0.0), (0.0, 0.5), (0.2, 0.3), (1.0, 3.0))]
    return np.stack(cols, axis=1)


def _regions_2d(z):
    cols = [z[:, 0] <= t for t in (-2.0, -0.5, 0.0, 0.25, 0.5, 1.0)]
    for c in ((0.0, 0.0), (0.5, 0.0), (0.25, 0.0), (0.0, 1.0)):
        d = np.hypot(z[:, 0] - c[0], z[:, 1] - c[1])
        cols += [d <= 0.3, d <= 1.0, (d > 1.0) & (d <= 2.0)]
    cols.append((np.abs(z[:, 0]) <= 0.5) & (z[:, 1] >= 0.5))
    return np.stack(cols, axis=1)


@pytest.mark.parametrize(("n", "regions"), [(1, _regions_1d), (2, _regions_2d)])
def test_empirical_dx_privacy(n, regions):
    """P[x + noise ∈ A] ≤ e^{ε‖x−x'‖} P[x' + noise ∈ A] (+ 4 se), both ways, 100k draws each."""
    epsilon = 1.0
    x = np.zeros(n)
    x_prime = np.zeros(n)
    x_prime[0] = 0.5
    factor = math.exp(epsilon * np.linalg.norm(x - x_prime))
    out_x = x + laplace_noise(n, epsilon, size=M_DP, rng=100 + n)
    out_xp = x_prime + laplace_noise(n, epsilon, size=M_DP, rng=200 + n)
    if n == 1:
        out_x, out_xp = out_x[:, 0], out_xp[:, 0]
    p = regions(out_x).mean(axis=0)
    q = regions(out_xp).mean(axis=0)
    _check_dx_privacy(p, q, factor)
    _check_dx_privacy(q, p, factor)


def test_empirical_dx_privacy_is_tight_in_one_dimension():
    """For A = (−∞, x] the ratio is exactly e^{εd}: the check above has no room to spare,
    and noise drawn with twice the ε (half the noise) visibly violates it."""
    epsilon, d = 1.0, 0.5
    out_x = laplace_noise(1, epsilon, size=M_DP, rng=300)[:, 0]
    out_xp = d + laplace_noise(1, epsilon, size=M_DP, rng=301)[:, 0]
    p, q = np.mean(out_x <= 0.0), np.mean(out_xp <= 0.0)
    assert p / q == pytest.approx(math.exp(epsilon * d), rel=0.03)  # 0.5 / (0.5 e^{−εd})
    # a mechanism that is only 2ε-private fails the ε check
    weak_x = laplace_noise(1, 2 * epsilon, size=M_DP, rng=302)[:, 0]
    weak_xp = d + laplace_noise(1, 2 * epsilon, size=M_DP, rng=303)[:, 0]
    with pytest.raises(AssertionError):
        _check_dx_privacy(np.array([np.mean(weak_x <= 0.0)]),
                          np.array([np.mean(weak_xp <= 0.0)]), math.exp(epsilon * d))


# -- randomness ------------------------------------------------------------------------
def test_same_seed_same_noise_different_seeds_different_noise():
    a = laplace_noise(4, 1.0, size=6, rng=123)
    b = laplace_noise(4, 1.0, size=6, rng=123)
    c = laplace_noise(4, 1.0, size=6, rng=124)
    np.testing.assert_array_equal(a, b)
    assert not np.any(a == c)


def test_default_secure_generator_differs_each_call():
    a = laplace_noise(4, 1.0, size=6)
    b = laplace_noise(4, 1.0, size=6)
    assert not np.any(a == b)


def test_a_generator_is_used_as_given_and_advanced():
    gen = np.random.Generator(np.random.PCG64(5))
    a = laplace_noise(3, 1.0, size=2, rng=gen)
    b = laplace_noise(3, 1.0, size=2, rng=gen)
    assert not np.any(a == b)
    np.testing.assert_array_equal(
        a, laplace_noise(3, 1.0, size=2, rng=np.random.Generator(np.random.PCG64(5))))


def test_global_numpy_random_state_is_untouched():
    # the legacy global state is read (never set) to prove nothing draws from it
    before = np.random.get_state()  # noqa: NPY002
    laplace_noise(5, 1.0, size=10)
    laplace_noise(5, 1.0, size=10, rng=1)
    after = np.random.get_state()  # noqa: NPY002
    assert before[0] == after[0]
    np.testing.assert_array_equal(before[1], after[1])
    assert before[2:] == after[2:]


# -- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize("epsilon", [0, -1.0, math.nan, math.inf, -math.inf])
def test_bad_epsilon_value(epsilon):
    msg = f"epsilon must be a finite number > 0; got {float(epsilon)!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        laplace_noise(2, epsilon, size=1, rng=0)


@pytest.mark.parametrize("epsilon", ["1", None, True, [1.0]])
def test_bad_epsilon_type(epsilon):
    with pytest.raises(TypeError, match=r"^epsilon must be a finite number > 0; got "):
        laplace_noise(2, epsilon, size=1, rng=0)


def test_bad_dimension_and_size():
    with pytest.raises(ValueError, match=r"^n must be an integer >= 1; got 0$"):
        laplace_noise(0, 1.0, size=1)
    with pytest.raises(TypeError, match=r"^n must be an integer >= 1; got 2\.5"):
        laplace_noise(2.5, 1.0, size=1)
    with pytest.raises(ValueError, match=r"^size must be an integer >= 0; got -1$"):
        laplace_noise(2, 1.0, size=-1)
    with pytest.raises(TypeError, match=r"^rng must be None, an integer seed or a numpy"):
        laplace_noise(2, 1.0, size=1, rng=1.5)
