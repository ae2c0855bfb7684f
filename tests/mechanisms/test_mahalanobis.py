"""The regularised Mahalanobis mechanism (Xu et al. 2020): z = Vec(x) + r·Σ_λ^{1/2}·u."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy import stats

from emprivacy import EarthMoversPrivacy, Embeddings
from emprivacy.math.noise import laplace_noise
from emprivacy.mechanisms import (
    MahalanobisPrivacy,
    RegularizedMahalanobis,
    mahalanobis_distance,
    regularized_covariance,
    vocabulary_covariance,
)

#: Words spread widely along x, narrowly along y: Σ = diag(1.586, 0.414) after scaling.
#: The pair (0, 1) differs along y only, where the Mahalanobis noise is smaller than
#: Madlib's; word 4 gives the y-direction a tail output where the bound is nearly tight.
ANISO = [[0.0, 0.0], [0.0, 1.0], [-6.0, 0.0], [6.0, 0.0], [0.0, 5.0]]


def make_embeddings(vectors, name: str = "test") -> Embeddings:
    vectors = np.asarray(vectors, np.float32)
    return Embeddings([f"w{i}" for i in range(len(vectors))], vectors, name=name)


def random_embeddings(seed: int = 0, n_words: int = 60, dim: int = 5) -> Embeddings:
    gen = np.random.default_rng(seed)
    scales = np.linspace(0.3, 3.0, dim)
    mixing = np.linalg.qr(gen.normal(size=(dim, dim)))[0]
    return make_embeddings((gen.normal(size=(n_words, dim)) * scales) @ mixing, "random")


# -- Σ and Σ_λ: exact properties ------------------------------------------------------------
@pytest.mark.parametrize("lam", [0.0, 0.2, 0.5, 1.0])
def test_regularized_covariance_has_trace_n(lam):
    emb = random_embeddings()
    cov = regularized_covariance(emb, lam)
    np.testing.assert_allclose(np.trace(cov), emb.dim, rtol=1e-12)
    np.testing.assert_allclose(cov, cov.T, rtol=0, atol=0)


def test_vocabulary_covariance_is_the_population_covariance_over_mean_variance():
    emb = random_embeddings(seed=3)
    X = emb.vectors.astype(np.float64)
    ref = np.cov(X, rowvar=False, ddof=0)
    ref /= ref.diagonal().mean()
    np.testing.assert_allclose(vocabulary_covariance(emb), ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(np.trace(vocabulary_covariance(emb)), emb.dim, rtol=1e-12)


def test_hand_computed_covariance_and_cache():
    # var x = 1, var y = 1/4, no correlation: scaled by 2 / 1.25
    emb = make_embeddings([[0, 0], [2, 0], [0, 1], [2, 1]])
    cov = vocabulary_covariance(emb)
    np.testing.assert_allclose(cov, [[1.6, 0.0], [0.0, 0.4]], rtol=1e-12, atol=1e-15)
    assert vocabulary_covariance(make_embeddings(emb.vectors)) is cov  # same fingerprint
    assert not cov.flags.writeable
    np.testing.assert_allclose(regularized_covariance(emb, 0.5), [[1.3, 0.0], [0.0, 0.7]],
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(regularized_covariance(emb, 0.0), np.eye(2))


@pytest.mark.parametrize("lam", [0.2, 0.7, 1.0])
def test_square_root_squares_to_sigma_lambda(lam):
    geo = RegularizedMahalanobis(random_embeddings(seed=1), lam=lam)
    S = geo.sqrt_covariance
    np.testing.assert_allclose(S, S.T, rtol=0, atol=0)
    np.testing.assert_allclose(S @ S, geo.covariance, rtol=1e-12, atol=1e-12)
    assert np.linalg.eigvalsh(S).min() > 0
    assert geo.min_eigenvalue >= 1 - lam - 1e-12
    np.testing.assert_allclose(geo.min_eigenvalue, np.linalg.eigvalsh(geo.covariance).min(),
                               rtol=1e-10)


def test_mahalanobis_distance_hand_computed_2d():
    """Σ = [[4, 0], [0, 1]]: d((3, 4), 0) = √(9/4 + 16); Σ = [[2, 1], [1, 2]]: Σ⁻¹ = [[2, −1],
    [−1, 2]]/3, so d((1, 0), 0) = √(2/3) and d((1, 1), 0) = √(2/3)."""
    np.testing.assert_allclose(mahalanobis_distance([3.0, 4.0], [0.0, 0.0], [[4, 0], [0, 1]]),
                               math.sqrt(9 / 4 + 16), rtol=1e-14)
    corr = [[2.0, 1.0], [1.0, 2.0]]
    np.testing.assert_allclose(mahalanobis_distance([[1.0, 0.0], [1.0, 1.0], [2.0, -1.0]],
                                                    [0.0, 0.0], corr),
                               [math.sqrt(2 / 3), math.sqrt(2 / 3), math.sqrt(14 / 3)],
                               rtol=1e-14)
    # the rectangle of test_hand_computed_covariance_and_cache, λ = 1: a square under d_RM
    mech = MahalanobisPrivacy(make_embeddings([[0, 0], [2, 0], [0, 1], [2, 1]]), epsilon=1.0,
                              lam=1.0)
    np.testing.assert_allclose(mech.distance([[2.0, 0.0], [0.0, 1.0]], [0.0, 0.0]),
                               [2 / math.sqrt(1.6), 1 / math.sqrt(0.4)], rtol=1e-12)
    np.testing.assert_allclose(mech.euclidean_epsilon, 1 / math.sqrt(0.4), rtol=1e-12)


def test_distance_is_euclidean_at_lambda_zero_and_bounded_by_the_euclidean_factor():
    emb = random_embeddings(seed=2)
    a, b = emb.vectors[:20].astype(np.float64), emb.vectors[20:40].astype(np.float64)
    m0 = MahalanobisPrivacy(emb, epsilon=1.0, lam=0.0)
    np.testing.assert_allclose(m0.distance(a, b), np.linalg.norm(a - b, axis=1), rtol=1e-12)
    assert m0.euclidean_epsilon == 1.0
    for lam in (0.3, 0.9):
        mech = MahalanobisPrivacy(emb, epsilon=2.0, lam=lam)
        d_rm, d2 = mech.distance(a, b), np.linalg.norm(a - b, axis=1)
        assert np.all(d_rm <= d2 / math.sqrt(1 - lam) * (1 + 1e-12))
        assert np.all(mech.epsilon * d_rm <= mech.euclidean_epsilon * d2 * (1 + 1e-12))
        assert mech.euclidean_epsilon <= 2.0 / math.sqrt(1 - lam)


def test_singular_sigma_at_lambda_one_gives_infinite_distance_off_its_range():
    # every word on the line y = x: at λ = 1 the noise never leaves that line
    emb = make_embeddings([[0, 0], [1, 1], [3, 3], [-2, -2]])
    mech = MahalanobisPrivacy(emb, epsilon=1.0, lam=1.0)
    assert math.isinf(float(mech.distance([1.0, -1.0], [0.0, 0.0])))
    assert np.isfinite(mech.distance([1.0, 1.0], [0.0, 0.0]))
    assert math.isinf(mech.euclidean_epsilon)
    noise = mech.privatize_vectors(np.zeros((50, 2)))
    np.testing.assert_allclose(noise[:, 0], noise[:, 1], rtol=1e-9, atol=1e-12)


# -- the mechanism: exact cases ------------------------------------------------------------
def test_lambda_zero_is_madlib_exactly():
    emb = random_embeddings(seed=4)
    idx = np.random.default_rng(0).integers(0, len(emb), 300)
    mad = EarthMoversPrivacy(emb, epsilon=0.8, rng=11)
    mah = MahalanobisPrivacy(emb, epsilon=0.8, lam=0.0, rng=11)
    for _ in range(2):  # the mechanisms' own streams stay in step
        np.testing.assert_array_equal(mah.privatize_indices(idx), mad.privatize_indices(idx))
    np.testing.assert_array_equal(mah.noisy_vectors(idx, rng=np.random.default_rng(5)),
                                  mad.noisy_vectors(idx, rng=np.random.default_rng(5)))
    np.testing.assert_array_equal(mah.privatize_vectors(emb.vectors[:4]),
                                  mad.privatize_vectors(emb.vectors[:4]))


def test_noise_is_madlibs_draw_times_the_square_root():
    emb = random_embeddings(seed=5)
    mech = MahalanobisPrivacy(emb, epsilon=1.5, lam=0.6, rng=0)
    idx = np.arange(10)
    z = mech.noisy_vectors(idx, rng=np.random.default_rng(3))
    lap = laplace_noise(emb.dim, 1.5, size=10, rng=np.random.default_rng(3))
    np.testing.assert_allclose(z - emb.vectors[idx], lap @ mech.geometry.sqrt_covariance.T,
                               rtol=1e-12, atol=1e-12)


def test_decoding_is_euclidean_nearest_word():
    emb = random_embeddings(seed=6)
    mech = MahalanobisPrivacy(emb, epsilon=0.5, lam=0.5)
    idx = np.arange(len(emb))
    z = mech.noisy_vectors(idx, rng=np.random.default_rng(8))
    out = mech.decoder.decode(z)
    d2 = ((z[:, None, :] - emb.vectors[None, :, :].astype(np.float64)) ** 2).sum(axis=2)
    np.testing.assert_array_equal(out, d2.argmin(axis=1))
    np.testing.assert_array_equal(
        mech.privatize_indices(idx, rng=np.random.default_rng(8)), out)


# -- the noise law (statistical, seeded) ------------------------------------------------------
M_NOISE = 200_000


def test_noise_covariance_is_proportional_to_sigma_lambda():
    """Cov(z − x) = E[r²]/n · Σ_λ = (n + 1)/ε² · Σ_λ; every entry within 5 standard errors."""
    emb = random_embeddings(seed=7, dim=3)
    eps, n = 2.0, 3
    mech = MahalanobisPrivacy(emb, epsilon=eps, lam=0.8, rng=21)
    v = mech.privatize_vectors(np.zeros((M_NOISE, n)))
    expected = (n + 1) / eps**2 * mech.geometry.covariance
    products = v[:, :, None] * v[:, None, :]  # E[v] = 0 exactly, by symmetry
    got = products.mean(axis=0)
    se = products.std(axis=0) / math.sqrt(M_NOISE)
    assert np.all(np.abs(got - expected) <= 5 * se), (got, expected, se)
    # the anisotropy is real: the ratio of extreme variances is far from 1
    evals = np.linalg.eigvalsh(mech.geometry.covariance)
    assert evals.max() / evals.min() > 3


def test_whitened_noise_is_n_dimensional_laplace():
    """Σ_λ^{−1/2}(z − x) = r·u: its norm (d_RM) is Gamma(n, 1/ε) and its direction uniform —
    the density exp(−ε‖v‖_RM).  (Renormalising after Σ^{1/2}, a peer's bug, fails this.)"""
    emb = random_embeddings(seed=8, dim=4)
    eps = 0.7
    mech = MahalanobisPrivacy(emb, epsilon=eps, lam=0.9, rng=2)
    v = mech.privatize_vectors(np.zeros((50_000, 4)))
    r = mech.distance(v, 0.0)
    assert stats.kstest(r, stats.gamma(4, scale=1 / eps).cdf).pvalue > 1e-3
    u = v @ np.linalg.inv(mech.geometry.sqrt_covariance).T / r[:, None]
    # a uniform direction on S³: each coordinate has mean 0 and variance 1/4
    np.testing.assert_allclose(u.mean(axis=0), 0.0, atol=5 * math.sqrt(0.25 / 50_000))
    np.testing.assert_allclose((u**2).mean(axis=0), 0.25, atol=0.01)


# -- empirical privacy: ε·d_RM, tight, and stronger than the Euclidean reading -----------------
M_DP = 200_000
Z = 4.0


def _frequencies(mech, row: int, seed: int) -> np.ndarray:
    out = mech.privatize_indices(np.full(M_DP, row), rng=np.random.default_rng(seed))
    return np.bincount(out, minlength=len(mech.embeddings)) / M_DP


@pytest.mark.parametrize("lam", [1.0, 0.6])
def test_empirical_privacy_with_the_mahalanobis_metric(lam):
    """P̂[w|x] ≤ e^{ε·d_RM(x,x')}·P̂[w|x'] + 4 se for x, x' differing along the narrow axis.

    The bound is nearly attained (≥ 0.8 of it) and exceeds e^{ε·d₂}: the guarantee
    holds in the mechanism's own metric, not in the Euclidean one at the same ε."""
    emb = make_embeddings(ANISO, "aniso")
    mech = MahalanobisPrivacy(emb, epsilon=1.0, lam=lam)
    x, x2 = 0, 1
    factor = math.exp(mech.epsilon * float(mech.distance(emb.vectors[x], emb.vectors[x2])))
    euclid = math.exp(mech.epsilon * float(np.linalg.norm(emb.vectors[x] - emb.vectors[x2])))
    p, q = _frequencies(mech, x, seed=1), _frequencies(mech, x2, seed=2)
    ratios = []
    for P, Q in ((p, q), (q, p)):
        for w in range(len(emb)):
            slack = Z * math.sqrt((P[w] * (1 - P[w]) + factor**2 * Q[w] * (1 - Q[w])) / M_DP)
            assert P[w] <= factor * Q[w] + slack, (w, P[w], Q[w], factor)
            if min(P[w], Q[w]) * M_DP >= 200:
                ratios.append(P[w] / Q[w])
    assert max(ratios) >= 0.8 * factor
    if lam == 1.0:
        assert max(ratios) > 1.3 * euclid


# -- parameters ----------------------------------------------------------------------------
@pytest.mark.parametrize(("lam", "exc", "shown"), [
    (-0.1, ValueError, "-0.1"), (1.5, ValueError, "1.5"), (math.nan, ValueError, "nan"),
    (math.inf, ValueError, "inf"), ("0.2", TypeError, "'0.2' of type str"),
    (True, TypeError, "True of type bool"), (None, TypeError, "None of type NoneType"),
])
def test_bad_lambda(tiny_embeddings, lam, exc, shown):
    msg = f"lam must be a finite number in [0, 1]; got {shown}"
    with pytest.raises(exc, match=f"^{re.escape(msg)}$"):
        MahalanobisPrivacy(tiny_embeddings, epsilon=1.0, lam=lam)


def test_bad_epsilon_and_keyword_only(tiny_embeddings):
    with pytest.raises(ValueError, match=r"^epsilon must be a finite number > 0; got -1\.0$"):
        MahalanobisPrivacy(tiny_embeddings, epsilon=-1.0)
    with pytest.raises(TypeError):
        MahalanobisPrivacy(tiny_embeddings, 1.0)  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"^embeddings must be an Embeddings; got list$"):
        MahalanobisPrivacy([[0.0]], epsilon=1.0)


def test_equal_vectors_have_no_covariance_to_scale():
    emb = make_embeddings([[1.0, 2.0]] * 3, "flat")
    with pytest.raises(ValueError, match=r"^the vectors of 'flat' must not all be equal"):
        MahalanobisPrivacy(emb, epsilon=1.0, lam=0.5)
    MahalanobisPrivacy(emb, epsilon=1.0, lam=0.0)  # λ = 0 needs no covariance


def test_mahalanobis_distance_rejects_bad_input():
    with pytest.raises(ValueError, match=r"^covariance must be a square matrix; got shape"):
        mahalanobis_distance([0.0], [1.0], [[1.0, 2.0]])
    with pytest.raises(ValueError, match=r"^a and b must be vectors of dimension 2"):
        mahalanobis_distance([0.0, 1.0, 2.0], [1.0, 0.0, 0.0], np.eye(2))


def test_records_and_repr(tiny_embeddings):
    mech = MahalanobisPrivacy(tiny_embeddings, epsilon=2.0, lam=0.3)
    assert mech.record_fields() == {"mechanism": "mahalanobis", "metric": "mahalanobis",
                                    "lam": 0.3, "decoder": "exact"}
    assert mech.metric == "mahalanobis" and mech.name == "mahalanobis"
    assert repr(mech) == ("MahalanobisPrivacy(embeddings=" + repr(tiny_embeddings)
                          + ", epsilon=2.0, lam=0.3, decoder='exact')")
