"""Algorithms 1 and 2: the Earth Mover's privacy mechanism (Cor. 1, Thm. 1, Thm. 4)."""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pytest
from scipy import stats
from scipy.spatial.distance import cdist

from emprivacy import (
    EarthMoversPrivacy,
    Embeddings,
    earth_movers_distance,
    generate_noisy_bag_of_words,
    generate_noisy_vector,
    generate_private_bag,
    laplace_noise,
)
from emprivacy.decoding import ExactDecoder


def _brute_force_nearest(points, vectors):
    """Squared Euclidean distances in float64 and their argmin."""
    d2 = cdist(np.asarray(points, np.float64), np.asarray(vectors, np.float64), "sqeuclidean")
    return d2, d2.argmin(axis=1)


def _assert_exact_argmin(points, vectors, chosen):
    """``chosen`` is the nearest word of each point, up to float32 near-ties."""
    d2, ref = _brute_force_nearest(points, vectors)
    rows = np.arange(len(points))
    scale = (np.asarray(points, np.float64) ** 2).sum(axis=1) + (
        np.asarray(vectors, np.float64) ** 2).sum(axis=1).max()
    assert np.all(d2[rows, chosen] - d2[rows, ref] <= 1e-5 * scale)
    assert np.mean(chosen == ref) >= 0.99


# -- Alg. 1 ----------------------------------------------------------------------------
def test_generate_private_bag_adds_one_laplace_draw_per_row():
    X = np.array([[0.0, 1.0, 2.0], [5.0, 5.0, 5.0]])
    out = generate_private_bag(X, 2.0, rng=42)
    np.testing.assert_array_equal(out, X + laplace_noise(3, 2.0, size=2, rng=42))
    assert out.shape == X.shape


def test_generate_private_bag_noise_law():
    """Rows of the output minus the input have Gamma(n, 1/ε) norms (KS, p > 1e-3)."""
    X = np.tile(np.arange(4.0), (20_000, 1))
    r = np.linalg.norm(generate_private_bag(X, 0.5, rng=8) - X, axis=1)
    assert stats.kstest(r, stats.gamma(4, scale=2.0).cdf).pvalue > 1e-3


def test_generate_noisy_vector():
    v = np.array([1.0, -2.0])
    np.testing.assert_array_equal(generate_noisy_vector(v, 1.0, rng=3),
                                  v + laplace_noise(2, 1.0, size=1, rng=3)[0])


def test_privatize_vectors_is_alg1_with_the_mechanisms_generator(tiny_embeddings):
    X = tiny_embeddings.vectors[[0, 2, 2]]
    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=0.7, rng=5)
    np.testing.assert_array_equal(mech.privatize_vectors(X),
                                  X + laplace_noise(2, 0.7, size=3, rng=5))


# -- Alg. 2 ----------------------------------------------------------------------------
def test_privatize_returns_a_bag_of_the_same_size_from_the_vocabulary(tiny_embeddings):
    bag = ["cat", "cat", "sun", "bus"]
    out = EarthMoversPrivacy(tiny_embeddings, epsilon=0.3, rng=1).privatize(bag)
    assert len(out) == len(bag)
    assert all(w in tiny_embeddings for w in out)


def test_huge_epsilon_returns_the_input_words(tiny_embeddings, default_embeddings):
    bag = ["sun", "cat", "dog", "cat", "bus", "car"]
    assert EarthMoversPrivacy(tiny_embeddings, epsilon=1e9, rng=0).privatize(bag) == bag
    words = default_embeddings.words
    idx = np.random.default_rng(4).choice(len(words), size=100, replace=False)
    bag = [words[i] for i in idx]
    assert EarthMoversPrivacy(default_embeddings, epsilon=1e6, rng=0).privatize(bag) == bag


@pytest.mark.parametrize("seed", range(5))
def test_decoding_is_the_exact_argmin_tiny(tiny_embeddings, seed):
    """Alg. 2 = noise (same stream as ``laplace_noise``) + brute-force nearest word."""
    emb, epsilon = tiny_embeddings, 0.2
    idx = np.random.default_rng(seed).integers(0, len(emb), size=200)
    out = EarthMoversPrivacy(emb, epsilon=epsilon, rng=seed).privatize_indices(idx)
    noisy = (emb.vectors[idx] + laplace_noise(emb.dim, epsilon, size=idx.size, rng=seed))
    _assert_exact_argmin(noisy.astype(np.float32), emb.vectors, out)


def test_decoding_is_the_exact_argmin_default(default_embeddings):
    emb, epsilon = default_embeddings, 2.0
    idx = np.random.default_rng(9).integers(0, len(emb), size=40)
    out = EarthMoversPrivacy(emb, epsilon=epsilon, rng=9).privatize_indices(idx)
    noisy = emb.vectors[idx] + laplace_noise(emb.dim, epsilon, size=idx.size, rng=9)
    _assert_exact_argmin(noisy.astype(np.float32), emb.vectors, out)
    assert np.mean(out != idx) > 0.5  # at this ε most words change


def test_function_form_equals_the_class(tiny_embeddings):
    bag = ["cat", "bus", "sun"]
    assert generate_noisy_bag_of_words(bag, 0.5, tiny_embeddings, rng=12) == \
        EarthMoversPrivacy(tiny_embeddings, epsilon=0.5, rng=12).privatize(bag)


def test_a_custom_decoder_is_used(tiny_embeddings):
    class Constant:
        name = "constant"

        def decode(self, points):
            return np.full(len(points), 4, dtype=np.int64)

    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=1.0, rng=0, decoder=Constant())
    assert mech.privatize(["cat", "dog"]) == ["sun", "sun"]
    assert "decoder='constant'" in repr(mech)
    assert isinstance(EarthMoversPrivacy(tiny_embeddings, epsilon=1.0).decoder, ExactDecoder)


# -- randomness ------------------------------------------------------------------------
def test_same_seed_same_output_different_seeds_different(default_embeddings):
    bag = ["president", "greets", "press", "chicago"] * 5
    run = lambda seed: EarthMoversPrivacy(  # noqa: E731
        default_embeddings, epsilon=10.0, rng=seed).privatize(bag)
    assert run(7) == run(7)
    assert run(7) != run(8)


def test_default_secure_rng_differs_each_call(default_embeddings):
    bag = ["president", "greets", "press", "chicago"] * 5
    a = EarthMoversPrivacy(default_embeddings, epsilon=10.0).privatize(bag)
    b = EarthMoversPrivacy(default_embeddings, epsilon=10.0).privatize(bag)
    assert a != b
    mech = EarthMoversPrivacy(default_embeddings, epsilon=10.0)
    assert not np.any(mech.privatize_vectors(default_embeddings.vectors[:3])
                      == mech.privatize_vectors(default_embeddings.vectors[:3]))


def test_a_mechanism_keeps_drawing_from_its_stream(tiny_embeddings):
    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=1.0, rng=3)
    X = tiny_embeddings.vectors[:2]
    first, second = mech.privatize_vectors(X), mech.privatize_vectors(X)
    assert not np.any(first == second)


# -- empirical privacy of Alg. 2 (Thm. 4, via Thm. 1 and post-processing) ----------------
#: Three words in R^2; ε = 1.  Outcome frequencies over M_DP runs per input, 4 se slack.
DP_WORDS = ("a", "b", "c")
DP_VECTORS = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.5]]
M_DP = 100_000
Z = 4.0


def _outcome_frequencies(mech, bag_idx, seed):
    """Frequencies of output bags (as sorted index tuples) of M_DP independent runs."""
    N = len(bag_idx)
    # Alg. 2 draws every word independently: M_DP runs are one long bag cut into pieces
    out = mech.privatize_indices(np.tile(bag_idx, M_DP), rng=np.random.default_rng(seed))
    counts = Counter(map(tuple, np.sort(out.reshape(M_DP, N), axis=1).tolist()))
    return {k: v / M_DP for k, v in counts.items()}


@pytest.mark.parametrize(("bag", "other"), [
    (["a"], ["b"]),             # one word: ε‖x − x'‖ = 1
    (["a", "a"], ["a", "b"]),   # N = 2, E = 1/2: multiplier e^{εNE} = e
    (["a", "a"], ["b", "c"]),   # N = 2, E = (1 + 1.5)/2: multiplier e^{2.5}
    (["b", "c"], ["c", "a"]),   # E = 1/2 · min(1.8 + 1.5, ‖b − a‖ + 0) → assignment b→a, c→c
])
def test_empirical_earth_movers_privacy_of_alg2(bag, other):
    emb = Embeddings(DP_WORDS, DP_VECTORS, name="dp")
    mech = EarthMoversPrivacy(emb, epsilon=1.0)
    b, b2 = emb.indices(bag), emb.indices(other)
    factor = math.exp(mech.epsilon * len(bag) * earth_movers_distance(bag, other, emb))
    p = _outcome_frequencies(mech, b, seed=1)
    q = _outcome_frequencies(mech, b2, seed=2)
    ratios = []
    for P, Q in ((p, q), (q, p)):
        for outcome in set(P) | set(Q):
            pp, qq = P.get(outcome, 0.0), Q.get(outcome, 0.0)
            slack = Z * math.sqrt((pp * (1 - pp) + factor**2 * qq * (1 - qq)) / M_DP) + 1 / M_DP
            assert pp <= factor * qq + slack, (outcome, pp, qq, factor)
            if qq > 0.01:
                ratios.append(pp / qq)
    assert max(ratios) > 1.2  # the inputs are distinguishable, yet within the bound


# -- bad input -------------------------------------------------------------------------
@pytest.mark.parametrize("epsilon", [0.0, -1.0, math.nan, math.inf])
def test_bad_epsilon(tiny_embeddings, epsilon):
    msg = f"epsilon must be a finite number > 0; got {epsilon!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        EarthMoversPrivacy(tiny_embeddings, epsilon=epsilon)
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        generate_private_bag([[0.0]], epsilon)
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        generate_noisy_bag_of_words(["cat"], epsilon, tiny_embeddings)


def test_epsilon_is_keyword_only_and_typed(tiny_embeddings):
    with pytest.raises(TypeError):
        EarthMoversPrivacy(tiny_embeddings, 1.0)  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"^epsilon must be a finite number > 0; got '1'"):
        EarthMoversPrivacy(tiny_embeddings, epsilon="1")


def test_empty_bag(tiny_embeddings):
    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=1.0)
    msg = r"^the bag must hold at least one word; got an empty bag$"
    with pytest.raises(ValueError, match=msg):
        mech.privatize([])
    with pytest.raises(ValueError, match=msg):
        mech.privatize_indices([])
    with pytest.raises(ValueError, match=r"^the bag must hold at least one vector; got an empty "
                                         r"bag$"):
        generate_private_bag(np.empty((0, 2)), 1.0)


def test_out_of_vocabulary_word_is_named(tiny_embeddings):
    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=1.0)
    with pytest.raises(ValueError, match=r"^word 'zebra' is not in the vocabulary of 'tiny'; "
                                         r"drop it or choose an out-of-vocabulary policy"):
        mech.privatize(["cat", "zebra", "okapi"])


def test_a_str_is_not_a_bag(tiny_embeddings):
    with pytest.raises(TypeError, match=r"^words must be a sequence of words, not a single str"):
        EarthMoversPrivacy(tiny_embeddings, epsilon=1.0).privatize("cat dog")


def test_dimension_mismatch(tiny_embeddings):
    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=1.0)
    with pytest.raises(ValueError, match=r"^X must have shape \(N, 2\) to match the embedding "
                                         r"dimension; got \(4, 3\)$"):
        mech.privatize_vectors(np.zeros((4, 3)))
    with pytest.raises(ValueError, match=r"^X must have shape \(N, 2\).*got \(2,\)$"):
        mech.privatize_vectors(np.zeros(2))
    with pytest.raises(ValueError, match=r"^points must have shape \(m, 2\) to match the "
                                         r"embedding dimension; got \(1, 3\)$"):
        mech.decoder.decode([[0.0, 0.0, 0.0]])


def test_bad_vectors_and_indices(tiny_embeddings):
    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=1.0)
    with pytest.raises(ValueError, match=r"^X must be finite; found NaN or infinity$"):
        mech.privatize_vectors([[0.0, np.nan]])
    with pytest.raises(ValueError, match=r"^v must be finite; found NaN or infinity$"):
        generate_noisy_vector([np.inf], 1.0)
    with pytest.raises(ValueError, match=r"^v must be a 1-D vector; got shape \(1, 2\)$"):
        generate_noisy_vector([[0.0, 1.0]], 1.0)
    with pytest.raises(ValueError, match=r"^X must be a 2-D array \(N × n\); got shape \(2,\)$"):
        generate_private_bag([0.0, 1.0], 1.0)
    with pytest.raises(ValueError, match=r"^indices must lie in \[0, 5\); got \[0, 5\]$"):
        mech.privatize_indices([0, 5])


def test_bad_embeddings_and_decoder(tiny_embeddings):
    with pytest.raises(TypeError, match=r"^embeddings must be an Embeddings; got dict$"):
        EarthMoversPrivacy({"cat": [0.0]}, epsilon=1.0)
    with pytest.raises(ValueError, match=r"^decoder must be one of 'exact', 'approximate'; "
                                         r"got 'fast'$"):
        EarthMoversPrivacy(tiny_embeddings, epsilon=1.0, decoder="fast")
    with pytest.raises(TypeError, match=r"^decoder must be 'exact', 'approximate' or a Decoder; "
                                        r"got int$"):
        EarthMoversPrivacy(tiny_embeddings, epsilon=1.0, decoder=3)


def test_privatize_indices_rejects_float_indices(tiny_embeddings) -> None:
    from emprivacy import EarthMoversPrivacy

    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=1.0, rng=0)
    with pytest.raises(TypeError, match="indices must be integers; got dtype float64"):
        mech.privatize_indices(np.array([0.7, 1.0]))
