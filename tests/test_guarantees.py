"""The paper's guarantees (§3, Thm. 3, App. A): exact values, properties, Monte Carlo checks."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from scipy.special import gammaln

from emprivacy import (
    appendix_utility_bound,
    ball_probability,
    earth_movers_distance,
    generate_private_bag,
    laplace_constant,
    laplace_noise,
    paper_utility_bound,
    privacy_multiplier,
    utility_bound,
)

epsilons = st.floats(min_value=1e-3, max_value=50.0)
deltas = st.floats(min_value=0.0, max_value=50.0)
sizes = st.integers(min_value=1, max_value=30)
dims = st.integers(min_value=1, max_value=300)
LOG_FLOAT_MAX = math.log(np.finfo(np.float64).max)


def _closed_form(n, x):
    """1 − e^{−x} Σ_{k<n} x^k / k!, summed term by term."""
    return 1.0 - math.exp(-x) * math.fsum(x**k / math.factorial(k) for k in range(n))


# -- privacy multiplier (§3, the b1/b2 example) ----------------------------------------
def test_privacy_multiplier_reproduces_the_papers_numbers():
    # E(b1, b2) = 2.816, N = 4: ε = 1/16 → 2.02, ε = 1/32 → 1.42 (§3.1)
    assert round(privacy_multiplier(1 / 16, 4, 2.816), 2) == 2.02
    assert round(privacy_multiplier(1 / 32, 4, 2.816), 2) == 1.42
    assert privacy_multiplier(1 / 16, 4, 2.816) == math.exp(2.816 * 4 / 16)


@given(epsilons, sizes, deltas)
def test_privacy_multiplier_is_exp_of_epsilon_n_distance(epsilon, N, distance):
    value = privacy_multiplier(epsilon, N, distance)
    exponent = epsilon * N * distance
    if exponent < LOG_FLOAT_MAX:
        assert value == pytest.approx(math.exp(exponent), rel=1e-12)
    else:
        assert value == math.inf  # no useful guarantee; never an OverflowError
    assert value >= 1.0


def test_privacy_multiplier_at_distance_zero_is_one():
    assert privacy_multiplier(3.0, 7, 0.0) == 1.0
    assert privacy_multiplier(1.0, 100, 10.0) == math.inf


# -- Thm. 3 as printed ------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8])
def test_paper_utility_bound_equals_the_closed_form(n):
    for N in (1, 2, 4):
        for x in np.linspace(0.0, n / math.e, 9):
            epsilon, delta = 1.0, x / N
            assert paper_utility_bound(epsilon, N, delta, n) == pytest.approx(
                _closed_form(n, x), rel=1e-12, abs=1e-15)


def test_paper_utility_bound_exact_small_cases():
    # n = 1: 1 − e^{−x}; n = 2: 1 − e^{−x}(1 + x)
    assert paper_utility_bound(0.5, 1, 0.5, 1) == pytest.approx(1 - math.exp(-0.25), rel=1e-14)
    assert paper_utility_bound(1.0, 2, 0.35, 2) == pytest.approx(1 - math.exp(-0.7) * 1.7,
                                                                 rel=1e-14)
    assert round(paper_utility_bound(1.0, 2, 0.35, 2), 3) == 0.156


def test_paper_utility_bound_warns_outside_its_condition():
    # εNΔ = 1 > n/e = 0.37 for n = 1
    with pytest.warns(UserWarning, match=r"exceeds n/e"):
        value = paper_utility_bound(1.0, 1, 1.0, 1)
    assert value == pytest.approx(1 - math.exp(-1.0), rel=1e-14)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paper_utility_bound(1.0, 1, 0.36, 1)  # inside the condition: silent


# -- the valid bound -------------------------------------------------------------------
@given(epsilons, sizes, deltas, dims)
def test_utility_bound_is_a_probability_equal_to_the_gamma_cdf(epsilon, N, delta, n):
    value = utility_bound(epsilon, N, delta, n)
    assert 0.0 <= value <= 1.0
    # P[Gamma(N n, 1/ε) ≤ N Δ]: the Manhattan distance of Alg. 1's output
    assert value == pytest.approx(
        stats.gamma(N * n, scale=1 / epsilon).cdf(N * delta), rel=1e-8, abs=1e-300)


@given(epsilons, epsilons, sizes, deltas, deltas, dims)
def test_utility_bound_is_monotone_in_delta_and_epsilon(e1, e2, N, d1, d2, n):
    e_lo, e_hi = sorted((e1, e2))
    d_lo, d_hi = sorted((d1, d2))
    # (1e-12: room for the last bits of the incomplete gamma function at adjacent inputs)
    assert utility_bound(e1, N, d_lo, n) <= utility_bound(e1, N, d_hi, n) + 1e-12
    assert utility_bound(e_lo, N, d1, n) <= utility_bound(e_hi, N, d1, n) + 1e-12


def test_utility_bound_exact_small_case():
    # n = 1, N = 2: Gamma(2, 1/ε) CDF at 2Δ is 1 − e^{−x}(1 + x), x = 2εΔ
    assert utility_bound(1.0, 2, 0.5, 1) == pytest.approx(1 - math.exp(-1.0) * 2.0, rel=1e-14)
    assert utility_bound(1.0, 3, 0.0, 4) == 0.0


@given(epsilons, sizes, deltas, st.integers(min_value=1, max_value=60))
@settings(max_examples=200)
def test_appendix_bound_is_below_the_paper_expression_and_the_exact_manhattan_probability(
        epsilon, N, delta, n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # outside εNΔ ≤ n/e: irrelevant here
        paper = paper_utility_bound(epsilon, N, delta, n)
    appendix = appendix_utility_bound(epsilon, N, delta, n)
    assert appendix <= paper + 1e-12
    # the appendix expression is a valid lower bound on P[Z_M] = utility_bound
    assert appendix <= utility_bound(epsilon, N, delta, n) + 1e-12


def test_appendix_bound_exact_small_case():
    # n = 1, N = 2, x = εNΔ = 0.5: cV = x, 1 − e^{−x}(1 + x)
    assert appendix_utility_bound(0.5, 2, 0.5, 1) == pytest.approx(
        1 - math.exp(-0.5) * 1.5, rel=1e-14)
    assert appendix_utility_bound(1.0, 2, 0.0, 3) == 0.0
    assert appendix_utility_bound(1.0, 4, 100.0, 300) == -math.inf  # the geometric sum explodes
    # Q(n, x) underflows to 0 here, but (cV)^N overflows far more: still −inf, not 1
    assert appendix_utility_bound(1.0, 24, 35.0, 27) == -math.inf


# -- Monte Carlo with Alg. 1 and the exact Earth Mover's distance -------------------------
#: Draws per Monte Carlo estimate, and the slack in standard errors.
M_MC = 20_000
Z = 4.0


def _mc_probability_within(bag, epsilon, deltas, seed):
    """Fraction of Alg. 1 outputs z with E(bag, z) ≤ Δ, for each Δ; and its standard error."""
    gen = np.random.default_rng(seed)
    dist = np.array([earth_movers_distance(bag, generate_private_bag(bag, epsilon, rng=gen))
                     for _ in range(M_MC)])
    p = np.array([np.mean(dist <= d) for d in deltas])
    return p, np.sqrt(p * (1 - p) / M_MC) + 1 / M_MC


BAGS = {
    "far apart": np.array([[0.0, 0.0], [100.0, 0.0]]),
    "close": np.array([[0.0, 0.0], [0.3, 0.0]]),
    "repeated point": np.array([[1.0, 1.0], [1.0, 1.0]]),
}


@pytest.mark.parametrize("name", list(BAGS))
def test_utility_bound_is_below_the_monte_carlo_probability(name):
    bag, epsilon, N, n = BAGS[name], 1.0, 2, 2
    deltas = [0.35, 1.0, 2.0, 3.0]
    p, se = _mc_probability_within(bag, epsilon, deltas, seed=len(name))
    for d, p_hat, s in zip(deltas, p, se, strict=True):
        assert utility_bound(epsilon, N, d, n) <= p_hat + Z * s
    if name == "far apart":
        # the optimal matching is the identity, so E = M/N and the bound is exact
        bounds = np.array([utility_bound(epsilon, N, d, n) for d in deltas])
        np.testing.assert_allclose(p, bounds, atol=Z * se.max())


def test_the_papers_utility_expression_is_not_a_lower_bound():
    """n = 2, N = 2, ε = 1, Δ = 0.35 (εNΔ = 0.7 ≤ n/e: inside Thm. 3's condition).

    Thm. 3 as printed gives 0.156; for far-apart input points P[E ≤ Δ] is
    P(4, 0.7) ≈ 0.0058, estimated here by Monte Carlo (20k draws, ± 4 se).
    """
    epsilon, N, delta, n = 1.0, 2, 0.35, 2
    p, se = _mc_probability_within(BAGS["far apart"], epsilon, [delta], seed=2019)
    paper = paper_utility_bound(epsilon, N, delta, n)
    assert round(paper, 3) == 0.156
    assert 0.003 < p[0] < 0.010
    assert paper > p[0] + Z * se[0]  # the printed theorem overstates the probability
    assert utility_bound(epsilon, N, delta, n) <= p[0] + Z * se[0]  # the valid one does not
    assert appendix_utility_bound(epsilon, N, delta, n) <= p[0] + Z * se[0]


# -- c_n^ε (Cor. A.1) and L_n^ε(R) (Lemma A.4) ------------------------------------------
@given(epsilons)
def test_laplace_constant_in_one_and_two_dimensions(epsilon):
    assert laplace_constant(1, epsilon) == pytest.approx(epsilon / 2, rel=1e-12)
    assert laplace_constant(2, epsilon) == pytest.approx(epsilon**2 / (2 * math.pi), rel=1e-12)
    assert laplace_constant(3, epsilon) == pytest.approx(epsilon**3 / (8 * math.pi), rel=1e-12)


def test_laplace_constant_normalises_the_density_in_two_dimensions():
    from scipy.integrate import dblquad

    epsilon = 1.7
    c = laplace_constant(2, epsilon)
    # ∫∫ c e^{−ε‖v‖} dv in polar coordinates
    total, _ = dblquad(lambda r, t: c * math.exp(-epsilon * r) * r, 0, 2 * math.pi, 0, 60)
    assert total == pytest.approx(1.0, rel=1e-8)


@pytest.mark.parametrize("epsilon", [0.01, 1.0, 1e3])
def test_laplace_constant_does_not_overflow_at_n_300(epsilon):
    log_c = laplace_constant(300, epsilon, log=True)
    assert math.isfinite(log_c)
    # independent check by the recurrence c_{n+2} / c_n = ε² / (2π (n+1)) from c_2 = ε²/2π
    expected = 2 * math.log(epsilon) - math.log(2 * math.pi) + math.fsum(
        2 * math.log(epsilon) - math.log(2 * math.pi * (k + 1)) for k in range(2, 300, 2))
    assert log_c == pytest.approx(expected, rel=1e-12)
    value = laplace_constant(300, epsilon)  # underflows to 0 or overflows to inf, no error
    assert value == (math.exp(log_c) if log_c < LOG_FLOAT_MAX else math.inf)


@pytest.mark.parametrize("n", [1, 2, 50, 300])
def test_ball_probability_is_the_gamma_cdf(n):
    for epsilon in (0.1, 1.0, 4.0):
        for R in (0.0, 0.5, n / 2, n, 3 * n):
            assert ball_probability(n, epsilon, R) == pytest.approx(
                stats.gamma(n, scale=1 / epsilon).cdf(R), rel=1e-9, abs=1e-300)


def test_ball_probability_closed_form_and_monte_carlo():
    assert ball_probability(3, 2.0, 1.5) == pytest.approx(_closed_form(3, 3.0), rel=1e-13)
    m = 50_000
    norms = np.linalg.norm(laplace_noise(10, 2.0, size=m, rng=7), axis=1)
    for R in (3.0, 5.0, 7.0):
        p = ball_probability(10, 2.0, R)
        assert np.mean(norms <= R) == pytest.approx(p, abs=4 * math.sqrt(p * (1 - p) / m))


def test_ball_probability_log_space_in_the_deep_tail():
    # P(300, 1) ≈ 1/300! underflows; the log is finite and within the first series
    # term's error, log(1 + x/(n+1−x)), of the exact log-series value.
    n, x = 300, 1.0
    exact = n * math.log(x) - x - float(gammaln(n + 1)) + math.log(
        math.fsum(math.exp(sum(math.log(x / (n + j)) for j in range(1, k + 1)))
                  for k in range(60)))
    got = ball_probability(n, 1.0, x, log=True)
    assert ball_probability(n, 1.0, x) == 0.0
    assert abs(got - exact) <= math.log1p(x / (n + 1 - x))
    assert ball_probability(2, 1.0, 1.0, log=True) == pytest.approx(
        math.log(_closed_form(2, 1.0)), rel=1e-13)
    assert ball_probability(2, 1.0, 0.0, log=True) == -math.inf


# -- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize("func", [utility_bound, paper_utility_bound, appendix_utility_bound])
def test_utility_bounds_reject_bad_parameters(func):
    with pytest.raises(ValueError, match=r"^epsilon must be a finite number > 0; got 0\.0$"):
        func(0.0, 2, 1.0, 3)
    with pytest.raises(ValueError, match=r"^N must be an integer >= 1; got 0$"):
        func(1.0, 0, 1.0, 3)
    with pytest.raises(TypeError, match=r"^N must be an integer >= 1; got 2\.0"):
        func(1.0, 2.0, 1.0, 3)
    with pytest.raises(ValueError, match=r"^delta must be a finite number >= 0; got -1\.0$"):
        func(1.0, 2, -1.0, 3)
    with pytest.raises(ValueError, match=r"^n must be an integer >= 1; got 0$"):
        func(1.0, 2, 1.0, 0)


def test_privacy_multiplier_rejects_bad_parameters():
    msg = "epsilon must be a finite number > 0; got inf"
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        privacy_multiplier(math.inf, 4, 1.0)
    with pytest.raises(ValueError, match=r"^N must be an integer >= 1; got 0$"):
        privacy_multiplier(1.0, 0, 1.0)
    with pytest.raises(ValueError, match=r"^distance must be a finite number >= 0; got nan$"):
        privacy_multiplier(1.0, 4, math.nan)


def test_constants_reject_bad_parameters():
    with pytest.raises(ValueError, match=r"^n must be an integer >= 1; got 0$"):
        laplace_constant(0, 1.0)
    with pytest.raises(ValueError, match=r"^epsilon must be a finite number > 0; got -2\.0$"):
        laplace_constant(2, -2.0)
    with pytest.raises(ValueError, match=r"^R must be a finite number >= 0; got -1\.0$"):
        ball_probability(2, 1.0, -1.0)
