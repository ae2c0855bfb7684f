"""The Vickrey mechanism (Xu et al. 2021) and the decoders' exact top-2 search."""

from __future__ import annotations

import inspect
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emprivacy import EarthMoversPrivacy
from emprivacy.decoding import ApproximateDecoder, ExactDecoder, Top2Decoder
from emprivacy.mechanisms import MahalanobisPrivacy, VickreyPrivacy, second_word_probability

from ..helpers import integer_grid, make_embeddings, with_duplicates


def brute_top2(points, vectors):
    """Float64 brute force: the two smallest ‖z − w‖² (stable argsort: ties to the lower row)."""
    w = np.asarray(vectors, np.float64)
    r1, r2, d1, d2 = [], [], [], []
    for z in np.asarray(points, np.float64):
        diff = w - z
        dd = np.einsum("ij,ij->i", diff, diff)
        a, b = np.argsort(dd, kind="stable")[:2]
        r1.append(a)
        r2.append(b)
        d1.append(math.sqrt(dd[a]))
        d2.append(math.sqrt(dd[b]))
    return np.array(r1), np.array(r2), np.array(d1), np.array(d2)


def assert_top2_equal(got, ref):
    np.testing.assert_array_equal(got[0], ref[0])
    np.testing.assert_array_equal(got[1], ref[1])
    np.testing.assert_allclose(got[2], ref[2], rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(got[3], ref[3], rtol=1e-12, atol=1e-300)


# -- the exact decoder's top 2 ---------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(1, 4), st.integers(1, 30), st.integers(1, 9),
       st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_top2_on_integer_grids_with_ties_equals_brute_force(V, n, m, rows, cols, seed):
    """Small integer coordinates: exact distances, ties and duplicate vectors everywhere."""
    W, Z = integer_grid(seed, V, n, m)
    dec = ExactDecoder(make_embeddings(W), block_rows=rows, block_cols=cols)
    got = dec.decode_top2(Z)
    assert_top2_equal(got, brute_top2(Z, W))
    np.testing.assert_array_equal(got[0], dec.decode(Z))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 120), st.integers(1, 12), st.integers(1, 12), st.integers(1, 17),
       st.integers(0, 5), st.integers(0, 2**32 - 1))
def test_top2_on_random_data_with_duplicates_equals_brute_force(V, n, rows, cols, dups, seed):
    gen = np.random.default_rng(seed)
    W = (gen.normal(size=(V, n)) * gen.uniform(0.1, 5)).astype(np.float32)
    for _ in range(dups):  # exact duplicates, anywhere in the matrix
        W[gen.integers(0, V)] = W[gen.integers(0, V)]
    src = gen.integers(0, V, 25)
    Z = W[src] + gen.normal(size=(25, n)) * gen.uniform(0.0, 3.0, (25, 1))
    Z[:3] = W[src[:3]]  # exactly on words (d1 = 0; duplicates: d2 = 0 too)
    dec = ExactDecoder(make_embeddings(W), block_rows=rows, block_cols=cols,
                       n_threads=int(gen.integers(1, 3)))
    got = dec.decode_top2(Z)
    assert_top2_equal(got, brute_top2(Z, W))
    assert np.all(got[0] != got[1]) and np.all(got[2] <= got[3])


def test_top2_duplicates_across_tiles():
    W = with_duplicates(np.random.default_rng(2))
    Z = W[[3, 17, 49, 8, 40]].astype(np.float64)
    for rows, cols in ((None, None), (1, 7), (3, 1), (2, 13)):
        r1, r2, d1, d2 = ExactDecoder(make_embeddings(W), block_rows=rows,
                                      block_cols=cols).decode_top2(Z)
        assert r1.tolist() == [3, 3, 3, 8, 8] and r2.tolist() == [17, 17, 17, 40, 40]
        assert d1.tolist() == [0.0] * 5 and d2.tolist() == [0.0] * 5


def test_top2_float32_near_ties_are_decided_in_float64(monkeypatch):
    """Triplets of words one float32 ulp apart, queried from far away: float32 scores cannot
    tell the second from the third, so the re-decision in float64 runs (counted) and
    matches the brute force, where a plain float32 product does not."""
    gen = np.random.default_rng(5)
    n, triples = 8, 200
    base = gen.normal(size=(triples, n)).astype(np.float32)
    rows = np.arange(triples)
    twins = []
    for direction in (np.inf, -np.inf):
        twin = base.copy()
        cols = gen.integers(0, n, triples)
        twin[rows, cols] = np.nextafter(twin[rows, cols], np.float32(direction))
        twins.append(twin)
    W = np.concatenate([base, *twins])
    Z = base + gen.normal(size=(triples, n)) * 40 / np.sqrt(n)
    dec = ExactDecoder(make_embeddings(W), block_cols=37)
    calls = []
    slow = dec._float64_nearest

    def counting(*args):
        calls.append(1)
        return slow(*args)

    monkeypatch.setattr(dec, "_float64_nearest", counting)
    ref = brute_top2(Z, W)
    assert_top2_equal(dec.decode_top2(Z), ref)
    assert len(calls) > 0
    W32 = W.astype(np.float32)
    naive = ((W32**2).sum(1)[None, :] - 2 * Z.astype(np.float32) @ W32.T)
    assert np.any(np.argsort(naive, axis=1, kind="stable")[:, 1] != ref[1])


def test_top2_float64_points_are_not_rounded():
    dec = ExactDecoder(make_embeddings([[0.0], [1.0], [3.0]]))
    r1, r2, d1, d2 = dec.decode_top2(np.array([[0.5 + 1e-12], [0.5 - 1e-12], [0.5]]))
    assert r1.tolist() == [1, 0, 0] and r2.tolist() == [0, 1, 1]
    assert d1[2] == d2[2] == 0.5


def test_top2_interface_and_errors(tiny_embeddings):
    dec = ExactDecoder(tiny_embeddings)
    assert isinstance(dec, Top2Decoder)
    out = dec.decode_top2(np.empty((0, 2)))
    assert [a.shape for a in out] == [(0,)] * 4
    assert [a.dtype for a in out] == [np.int64, np.int64, np.float64, np.float64]
    r1, r2, _, _ = dec.decode_top2([0.0, 0.0])  # a single point as a vector
    assert (r1.tolist(), r2.tolist()) == ([0], [1])
    with pytest.raises(ValueError, match=r"^points must have shape \(m, 2\)"):
        dec.decode_top2([[0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match=r"^points must be finite"):
        dec.decode_top2([[np.nan, 0.0]])
    with pytest.raises(ValueError, match=r"^decode_top2 needs a vocabulary of at least 2 "
                                         r"words; got 1$"):
        ExactDecoder(make_embeddings([[0.0]])).decode_top2([[1.0]])


# -- the approximate decoder's top 2 ----------------------------------------------------------
def clustered(seed: int, n_words: int, dim: int) -> np.ndarray:
    gen = np.random.default_rng(seed)
    centers = gen.normal(size=(60, dim)) * 2
    return (centers[gen.integers(0, 60, n_words)]
            + gen.normal(size=(n_words, dim)) * gen.uniform(0.3, 1.0, (n_words, 1))
            ).astype(np.float32)


def test_approximate_top2(tmp_path):
    W = clustered(1, 3000, 8)
    W[2500] = W[10]
    W[2999] = W[10]
    W[2000] = W[5]
    emb = make_embeddings(W, "clusters")
    dec = ApproximateDecoder(emb, cache_dir=tmp_path, calibration_queries=500)
    assert dec.nlist > 0 and isinstance(dec, Top2Decoder)
    gen = np.random.default_rng(3)
    Z = W[gen.integers(0, 3000, 1000)] + gen.normal(size=(1000, 8)) * gen.uniform(0.1, 2,
                                                                                  (1000, 1))
    Z = np.concatenate([Z, W[[10, 2500, 5, 2000]]])
    r1, r2, d1, d2 = dec.decode_top2(Z)
    np.testing.assert_array_equal(r1, dec.decode(Z))
    assert np.all(r1 != r2) and np.all(d1 <= d2)
    # true float64 Euclidean distances of the words returned (not faiss' squared codes)
    for rows, d in ((r1, d1), (r2, d2)):
        np.testing.assert_allclose(d, np.linalg.norm(W[rows].astype(np.float64) - Z, axis=1),
                                   rtol=1e-12)
    # a duplicated nearest word: its first copy, then its duplicate at the same distance
    assert r1[-4:].tolist() == [10, 10, 5, 5] and r2[-4:].tolist() == [2500, 2500, 2000, 2000]
    e1, e2, _, _ = ExactDecoder(emb).decode_top2(Z)
    assert np.mean(r1 == e1) > 0.95 and np.mean(r2 == e2) > 0.9


def test_approximate_top2_on_tiny_vocabularies_is_exact(tiny_embeddings, tmp_path):
    dec = ApproximateDecoder(tiny_embeddings, cache_dir=tmp_path)
    Z = np.random.default_rng(0).normal(size=(50, 2)) * 8
    assert_top2_equal(dec.decode_top2(Z), brute_top2(Z, tiny_embeddings.vectors))


# -- the release rule ------------------------------------------------------------------------
def test_second_word_probability():
    d1 = np.array([0.0, 1.0, 1.0, 2.0, 0.0, 0.0])
    d2 = np.array([0.0, 1.0, 3.0, 2.0, 1.0, 0.0])
    np.testing.assert_allclose(second_word_probability(d1, d2, t=0.5),
                               [0.5, 0.5, 0.25, 0.5, 0.0, 0.5])
    np.testing.assert_allclose(second_word_probability(d1, d2, t=0.75),
                               [0.75, 0.75, 0.5, 0.75, 0.0, 0.75])
    np.testing.assert_array_equal(second_word_probability(d1, d2, t=0.0), 0.0)
    np.testing.assert_array_equal(second_word_probability(d1, d2, t=1.0), 1.0)
    gen = np.random.default_rng(0)
    a = gen.exponential(size=1000)
    b = a + gen.exponential(size=1000)
    p = second_word_probability(a, b, t=0.5)
    assert np.all((p >= 0) & (p <= 0.5))


def test_t_zero_is_the_plain_mechanism_exactly():
    emb = make_embeddings(clustered(2, 300, 6))
    idx = np.random.default_rng(1).integers(0, 300, 400)
    mad = EarthMoversPrivacy(emb, epsilon=1.5, rng=4)
    vic = VickreyPrivacy(emb, epsilon=1.5, t=0.0, rng=4)
    for _ in range(2):  # no uniforms drawn at t = 0: the streams stay in step
        np.testing.assert_array_equal(vic.privatize_indices(idx), mad.privatize_indices(idx))
    mah = MahalanobisPrivacy(emb, epsilon=1.5, lam=0.4, rng=4)
    vim = VickreyPrivacy(emb, epsilon=1.5, t=0.0, noise="mahalanobis", lam=0.4, rng=4)
    np.testing.assert_array_equal(vim.privatize_indices(idx), mah.privatize_indices(idx))


@pytest.mark.parametrize("noise", ["euclidean", "mahalanobis"])
def test_t_one_always_releases_the_second_nearest(noise):
    emb = make_embeddings(clustered(3, 200, 5))
    idx = np.random.default_rng(2).integers(0, 200, 500)
    mech = VickreyPrivacy(emb, epsilon=2.0, t=1.0, noise=noise)
    z = mech.noisy_vectors(idx, rng=np.random.default_rng(9))
    _, r2, _, _ = brute_top2(z, emb.vectors)
    np.testing.assert_array_equal(mech.privatize_indices(idx, rng=np.random.default_rng(9)), r2)
    # at a huge ε, w₁ is the input word itself: t = 1 releases its nearest other word
    sharp = VickreyPrivacy(emb, epsilon=1e9, t=1.0, noise=noise, rng=0)
    np.testing.assert_array_equal(sharp.privatize_indices(np.arange(200)),
                                  brute_top2(emb.vectors, emb.vectors)[1])


def _fixed_point(mech, z, monkeypatch):
    """Make every noisy vector equal ``z``, whatever the input word (the rest unchanged)."""
    monkeypatch.setattr(mech, "noisy_vectors",
                        lambda idx, *, rng=None: np.tile(np.asarray(z, np.float64),
                                                         (len(idx), 1)))


@pytest.mark.parametrize("t", [0.25, 0.5, 0.75])
def test_release_frequency_of_the_second_word_for_a_fixed_point(t, monkeypatch):
    """For fixed z, P̂(w₂) = t·d₁/(t·d₁ + (1 − t)·d₂) within 4 binomial standard errors."""
    emb = make_embeddings([[0.0, 0.0], [3.0, 0.0], [0.0, 5.0], [9.0, 9.0]])
    mech = VickreyPrivacy(emb, epsilon=1.0, t=t)
    z = np.array([1.0, 0.5])  # d₁ = √1.25 (word 0), d₂ = √4.25 (word 1)
    _fixed_point(mech, z, monkeypatch)
    m = 40_000
    out = mech.privatize_indices(np.zeros(m, dtype=np.int64), rng=np.random.default_rng(7))
    assert set(np.unique(out).tolist()) == {0, 1}
    d1, d2 = math.sqrt(1.25), math.sqrt(4.25)
    p = t * d1 / (t * d1 + (1 - t) * d2)
    assert abs(np.mean(out == 1) - p) <= 4 * math.sqrt(p * (1 - p) / m)


def test_release_never_sees_the_input_word(monkeypatch):
    """The post-processing takes the noisy vector and uniforms only (no input at all), and
    for one fixed z the outputs are identical whether the input is w₁ or w₂."""
    params = list(inspect.signature(VickreyPrivacy.select).parameters)
    assert params == ["self", "points", "uniforms"]
    emb = make_embeddings([[0.0, 0.0], [3.0, 0.0], [0.0, 5.0], [9.0, 9.0]])
    mech = VickreyPrivacy(emb, epsilon=1.0, t=0.75)
    z = np.array([1.0, 0.5])
    _fixed_point(mech, z, monkeypatch)
    m = 20_000
    from_w1 = mech.privatize_indices(np.zeros(m, dtype=np.int64), rng=np.random.default_rng(3))
    from_w2 = mech.privatize_indices(np.ones(m, dtype=np.int64), rng=np.random.default_rng(3))
    from_far = mech.privatize_indices(np.full(m, 3), rng=np.random.default_rng(3))
    np.testing.assert_array_equal(from_w1, from_w2)
    np.testing.assert_array_equal(from_w1, from_far)
    # with independent streams, the two frequencies agree within binomial error
    other = mech.privatize_indices(np.ones(m, dtype=np.int64), rng=np.random.default_rng(4))
    p1, p2 = np.mean(from_w1 == 1), np.mean(other == 1)
    assert abs(p1 - p2) <= 4 * math.sqrt(2 * p1 * (1 - p1) / m)
    # and the input word is released when it is the nearest (no exclusion)
    assert np.mean(from_w1 == 0) > 0.3


def test_select_is_the_rule_applied_to_given_uniforms():
    emb = make_embeddings([[0.0], [1.0], [4.0]])
    mech = VickreyPrivacy(emb, epsilon=1.0, t=0.5)
    z = np.array([[0.25], [0.25], [2.0], [2.0], [9.0]])
    # z=0.25: d₁=0.25, d₂=0.75, p=1/4; z=2: w₁=1 (d 1), then a tie at d 2 between rows 0
    # and 2 (the lower row is w₂), p=1/3; z=9: w₁=2 (d 5), w₂=1 (d 8), p=5/13
    out = mech.select(z, np.array([0.2, 0.3, 0.3, 0.34, 0.38]))
    assert out.tolist() == [1, 0, 0, 1, 1]
    with pytest.raises(ValueError, match=r"^uniforms must have shape \(5,\); got \(4,\)$"):
        mech.select(z, np.zeros(4))


# -- empirical privacy: ε·d₂ / ε·d_RM, tight on 1-D vocabularies ------------------------------
M_DP = 200_000
Z = 4.0


def _frequencies(mech, row, seed):
    out = mech.privatize_indices(np.full(M_DP, row), rng=np.random.default_rng(seed))
    return np.bincount(out, minlength=len(mech.embeddings)) / M_DP


def _check_pair(mech, x, x2):
    """Every output: P̂[w|x] ≤ e^{ε·d(x,x')}·P̂[w|x'] + 4 se (both ways); returns the largest
    ratio among outputs with at least 1000 hits under both inputs, and the bound."""
    emb = mech.embeddings
    factor = math.exp(mech.epsilon * float(mech.distance(emb.vectors[x], emb.vectors[x2])))
    p, q = _frequencies(mech, x, seed=1), _frequencies(mech, x2, seed=2)
    ratios = [0.0]
    for P, Q in ((p, q), (q, p)):
        for w in range(len(emb)):
            slack = Z * math.sqrt((P[w] * (1 - P[w]) + factor**2 * Q[w] * (1 - Q[w])) / M_DP)
            assert P[w] <= factor * Q[w] + slack, (w, P[w], Q[w], factor)
            if min(P[w], Q[w]) * M_DP >= 1000:
                ratios.append(P[w] / Q[w])
    return max(ratios), factor


@pytest.mark.parametrize("t", [0.25, 0.75])
def test_empirical_privacy_euclidean_noise(t):
    """1-D words 0, 1, 2, 6 at ε = 1: for x = 0, x' = 1 the outputs 2 and 6 lie beyond both
    inputs, where the Laplace density ratio is exactly e^{ε}: the bound is attained."""
    mech = VickreyPrivacy(make_embeddings([[0.0], [1.0], [2.0], [6.0]]), epsilon=1.0, t=t)
    for x, x2 in ((0, 1), (1, 2)):
        worst, factor = _check_pair(mech, x, x2)
        assert worst >= 0.9 * factor


def test_empirical_privacy_mahalanobis_noise():
    """Mahalanobis noise (λ = 1) on anisotropic words: bounded by e^{ε·d_RM}, nearly attained,
    and beyond e^{ε·d₂} (the metric is the noise's)."""
    words = [[0.0, 0.0], [0.0, 1.0], [-6.0, 0.0], [6.0, 0.0], [0.0, 5.0]]
    mech = VickreyPrivacy(make_embeddings(words), epsilon=1.0, t=0.5, noise="mahalanobis",
                          lam=1.0)
    worst, factor = _check_pair(mech, 0, 1)
    assert worst >= 0.8 * factor and worst > 1.3 * math.e


# -- parameters ----------------------------------------------------------------------------
@pytest.mark.parametrize(("kwargs", "exc", "msg"), [
    ({"t": -0.5}, ValueError, "t must be a finite number in [0, 1]; got -0.5"),
    ({"t": 1.01}, ValueError, "t must be a finite number in [0, 1]; got 1.01"),
    ({"t": math.nan}, ValueError, "t must be a finite number in [0, 1]; got nan"),
    ({"t": "0.5"}, TypeError, "t must be a finite number in [0, 1]; got '0.5' of type str"),
    ({"noise": "gauss"}, ValueError,
     "noise must be one of 'euclidean', 'mahalanobis'; got 'gauss'"),
    ({"lam": 2.0}, ValueError, "lam must be a finite number in [0, 1]; got 2.0"),
    ({"epsilon": 0.0}, ValueError, "epsilon must be a finite number > 0; got 0.0"),
    ({"decoder": "fast"}, ValueError, "decoder must be one of 'exact', 'approximate'; got 'fast'"),
    ({"rank_resample": -1.0}, ValueError,
     "rank_resample must be None or a finite number > 0; got -1.0"),
])
def test_bad_parameters(tiny_embeddings, kwargs, exc, msg):
    kwargs = {"epsilon": 1.0, **kwargs}
    with pytest.raises(exc, match=f"^{re.escape(msg)}$"):
        VickreyPrivacy(tiny_embeddings, **kwargs)


def test_a_decoder_without_top2_is_refused(tiny_embeddings):
    class Nearest:
        name = "nearest"

        def decode(self, points):
            return np.zeros(len(points), dtype=np.int64)

    with pytest.raises(TypeError, match=r"^decoder must be 'exact', 'approximate' or a Decoder "
                                        r"with a decode_top2 method; got Nearest$"):
        VickreyPrivacy(tiny_embeddings, epsilon=1.0, decoder=Nearest())
    EarthMoversPrivacy(tiny_embeddings, epsilon=1.0, decoder=Nearest())  # fine there


def test_a_single_word_vocabulary_is_refused():
    with pytest.raises(ValueError, match=r"^the Vickrey mechanism needs a vocabulary of at "
                                         r"least 2 words; got 1$"):
        VickreyPrivacy(make_embeddings([[0.0, 1.0]]), epsilon=1.0)


def test_records_metric_and_repr(tiny_embeddings):
    vic = VickreyPrivacy(tiny_embeddings, epsilon=1.0, t=0.5)
    assert vic.record_fields() == {"mechanism": "vickrey", "metric": "euclidean", "t": 0.5,
                                   "noise": "euclidean", "decoder": "exact"}
    assert vic.metric == "euclidean"
    a, b = tiny_embeddings.vectors[0], tiny_embeddings.vectors[2]
    np.testing.assert_allclose(vic.distance(a, b), np.linalg.norm(a - b), rtol=1e-6)
    vim = VickreyPrivacy(tiny_embeddings, epsilon=1.0, noise="mahalanobis", lam=0.5)
    assert vim.record_fields() == {"mechanism": "vickrey", "metric": "mahalanobis", "t": 0.75,
                                   "noise": "mahalanobis", "lam": 0.5, "decoder": "exact"}
    mah = MahalanobisPrivacy(tiny_embeddings, epsilon=1.0, lam=0.5)
    np.testing.assert_allclose(vim.distance(a, b), mah.distance(a, b), rtol=1e-12)
    assert repr(vim) == ("VickreyPrivacy(embeddings=" + repr(tiny_embeddings) + ", epsilon=1.0, "
                         "t=0.75, noise='mahalanobis', lam=0.5, decoder='exact')")


def test_approximate_decoder_instance_is_used(tmp_path):
    emb = make_embeddings(clustered(4, 2500, 6))
    dec = ApproximateDecoder(emb, cache_dir=tmp_path, calibration_queries=300)
    mech = VickreyPrivacy(emb, epsilon=5.0, t=0.5, decoder=dec, rng=0)
    out = mech.privatize_indices(np.arange(100))
    assert out.shape == (100,) and out.min() >= 0 and out.max() < len(emb)
    assert mech.record_fields()["decoder"] == "approximate"
