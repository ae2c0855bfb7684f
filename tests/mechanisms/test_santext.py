"""SanText (Yue et al. 2021): P(y | x) ∝ exp(−ε·d(x, y)/2) over the whole vocabulary."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from emprivacy import Embeddings
from emprivacy.math.randomness import check_random_state
from emprivacy.mechanisms import _sampling as sampling_module
from emprivacy.mechanisms.santext import SanText

from .conftest import (
    P_MIN,
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


def softmax_law(emb, x, epsilon):
    """The closed form, computed here independently of the library."""
    d = cdist(emb.vectors[[x]].astype(np.float64), emb.vectors.astype(np.float64))[0]
    w = np.exp(-epsilon * d / 2)
    return w / w.sum()


# -- the law ---------------------------------------------------------------------------
def test_output_probabilities_is_the_softmax_closed_form():
    emb = Embeddings([f"w{i}" for i in range(40)],
                     np.random.default_rng(0).normal(size=(40, 3)), name="r3")
    mech = SanText(emb, epsilon=1.7)
    for x in (0, 17, 39):
        np.testing.assert_allclose(mech.output_probabilities(x), softmax_law(emb, x, 1.7),
                                   rtol=1e-12, atol=0)


@pytest.mark.parametrize("block_cols", [None, 1, 2, 3])
@pytest.mark.parametrize("x", [0, 2, 6])
def test_empirical_law_equals_the_closed_form(block_cols, x):
    """Tiles of 1, 2, 3 words (two-level Gumbel-max) or one tile: the same softmax."""
    emb = line([0, 1, 2, 3, 5, 5, 8])  # an exact duplicate (rows 4, 5) too
    mech = SanText(emb, epsilon=1.0, block_cols=block_cols)
    n = 40_000
    freq = frequencies(mech, x, n, seed=11 + x)
    assert chi_square_p(freq, softmax_law(emb, x, 1.0), n) > P_MIN


def test_huge_epsilon_keeps_the_word_and_tiny_epsilon_is_uniform():
    emb = line([0, 1, 2, 3])
    assert SanText(emb, epsilon=1e4, rng=0).privatize_indices([3, 0, 2, 1]).tolist() == [
        3, 0, 2, 1]
    n = 40_000
    freq = frequencies(SanText(emb, epsilon=1e-9), 0, n, seed=3)
    assert chi_square_p(freq, np.full(4, 0.25), n) > P_MIN


def test_far_words_do_not_underflow():
    """Log-weights far below −745 (exp underflows): the Gumbel-max never exponentiates them;
    a point far from every word still gets the softmax of its (tiny) weights."""
    emb = line([0.0, 1.0, 2000.0, 2001.0])
    mech = SanText(emb, epsilon=1.0, block_cols=2, rng=0)
    out = mech.privatize_indices(np.array([2, 3] * 5000))
    assert set(out.tolist()) <= {2, 3} and len(set(out.tolist())) == 2
    n = 20_000
    far = mech.privatize_points(np.full((n, 1), 5000.0), rng=check_random_state(1))
    p = 1 / (1 + math.exp(-0.5))  # w3 against w2; w0, w1 have weight e^{-1500} relative
    assert set(far.tolist()) <= {2, 3}
    assert abs((far == 3).mean() - p) <= 5 * math.sqrt(p * (1 - p) / n)


# -- empirical metric LDP --------------------------------------------------------------
#: x = w1 at 0, a far word w0 at −3, a cluster of 20 words at 1 (x' = w2): the cluster
#: makes the normalisers differ by almost e^{εd/2}, so the bound e^{εd} is nearly tight.
PRIVACY_POSITIONS = [-3.0, 0.0, *([1.0] * 20), 2.0]


def test_empirical_metric_privacy_is_tight_but_holds():
    mech = SanText(line(PRIVACY_POSITIONS), epsilon=1.0, block_cols=4)
    tight, measured = metric_privacy_tightness(mech, PRIVACY_POSITIONS, (0, 1, 2, 22),
                                               n=300_000, seed=100)
    # Not vacuous: the exact worst ratio reaches e^{0.95·εd} (x = w1, x' = w2, y = w0:
    # e^{εd/2} from the numerators times Z(x')/Z(x) ≈ e^{0.45·εd}), and it is measured.
    assert tight > 0.95
    assert measured > 0.9


# -- batches, seeds, threads -----------------------------------------------------------
@pytest.mark.parametrize("c_max", [None, 1.0])
def test_batch_equals_bag_by_bag_exactly(monkeypatch, c_max):
    """Across units, chunks, row blocks, threads and the lazy outside step."""
    shrink_units(monkeypatch, c_max)
    emb = medium_embeddings()
    bags = bags_for(emb)
    batched = assert_batch_equals_bag_by_bag(
        lambda threads: SanText(emb, epsilon=3.0, block_cols=64, n_threads=threads), bags)
    again = SanText(emb, epsilon=3.0, block_cols=64).privatize_indices(
        bags[4], rng=check_random_state(4))
    np.testing.assert_array_equal(again, batched[4])


def test_draws_do_not_depend_on_tiles_row_blocks_or_threads(monkeypatch):
    """The balls come from exact float64 distances only: the float32 pass's tiling (which
    changes its rounding) never changes a released word."""
    emb = medium_embeddings()
    bags = bags_for(emb)
    fast = SanText(emb, epsilon=3.0, block_cols=64).privatize_batches(
        [(b, check_random_state(i)) for i, b in enumerate(bags)])
    monkeypatch.setattr(sampling_module, "_BLOCK_ROWS", 3)
    slow = SanText(emb, epsilon=3.0, block_cols=7, n_threads=1).privatize_batches(
        [(b, check_random_state(i)) for i, b in enumerate(bags)])
    for a, b in zip(fast, slow, strict=True):
        np.testing.assert_array_equal(a, b)


def test_pickles_small_and_equal():
    assert_pickles_small_and_equal(SanText(medium_embeddings(), epsilon=3.0))


def test_seeds_are_reproducible_and_the_default_generator_is_secure(tiny_embeddings):
    assert_seeds_reproducible_and_default_secure(
        lambda rng: SanText(tiny_embeddings, epsilon=0.5, rng=rng))


def test_words_and_text(tiny_embeddings):
    mech = SanText(tiny_embeddings, epsilon=1e4, rng=0)
    assert mech.privatize(["cat", "sun", "bus"]) == ["cat", "sun", "bus"]
    assert mech.privatize_text("The CAT and 3 dogs!") == "The CAT and [NUM] [UNK]!"


# -- the interface ---------------------------------------------------------------------
def test_name_record_fields_and_repr(tiny_embeddings):
    mech = SanText(tiny_embeddings, epsilon=2.0)
    assert SanText.name == "santext"
    assert mech.record_fields() == {"mechanism": "santext", "metric": "euclidean"}
    assert repr(mech) == ("SanText(embeddings=Embeddings(name='tiny', words=5, dim=2), "
                          "epsilon=2.0)")


@pytest.mark.parametrize("epsilon", [0.0, -1.0, math.nan, math.inf])
def test_bad_epsilon(tiny_embeddings, epsilon):
    msg = f"epsilon must be a finite number > 0; got {epsilon!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        SanText(tiny_embeddings, epsilon=epsilon)


def test_bad_arguments(tiny_embeddings):
    with pytest.raises(TypeError):
        SanText(tiny_embeddings, 1.0)  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"^embeddings must be an Embeddings; got list$"):
        SanText([[0.0]], epsilon=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^block_cols must be an integer >= 1; got 0$"):
        SanText(tiny_embeddings, epsilon=1.0, block_cols=0)
    with pytest.raises(ValueError, match=r"^n_threads must be an integer >= 1; got 0$"):
        SanText(tiny_embeddings, epsilon=1.0, n_threads=0)
    mech = SanText(tiny_embeddings, epsilon=1.0)
    with pytest.raises(ValueError, match=r"^indices must lie in \[0, 5\); got \[0, 5\]$"):
        mech.privatize_indices([0, 5])
    with pytest.raises(ValueError, match=r"^the bag must hold at least one word"):
        mech.privatize_batches([(np.array([], dtype=np.int64), check_random_state(0))])
    with pytest.raises(TypeError, match=r"^rng must be a numpy.random.Generator or None"):
        mech.privatize_batches([(np.array([0]), 3)])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"^index must lie in \[0, 5\); got 7$"):
        mech.output_probabilities(7)
    with pytest.raises(TypeError, match=r"^index must be an integer; got 1.0"):
        mech.output_probabilities(1.0)  # type: ignore[arg-type]
