"""The Earth Mover's distance between bags (Def. 3): exact cases and metric properties."""

from __future__ import annotations

import math

import numpy as np
import ot
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.distance import cdist

from emprivacy import bag_of_words, earth_movers_distance
from emprivacy.math.distance import cost_matrix

RTOL, ATOL = 1e-9, 1e-9
coords = st.floats(min_value=-100, max_value=100, allow_nan=False, allow_infinity=False)
metrics = st.sampled_from(["euclidean", "manhattan"])


@st.composite
def bags(draw, *, n=None, size=None):
    """A bag of vectors: an (N, n) float array."""
    n = draw(st.integers(1, 4)) if n is None else n
    size = draw(st.integers(1, 6)) if size is None else size
    return draw(arrays(np.float64, (size, n), elements=coords))


@st.composite
def bag_triples(draw, *, equal_sizes):
    n = draw(st.integers(1, 4))
    if equal_sizes:
        size = draw(st.integers(1, 6))
        return tuple(draw(bags(n=n, size=size)) for _ in range(3))
    return tuple(draw(bags(n=n)) for _ in range(3))


def _pot_value(X, Y, metric):
    M = cdist(X, Y, metric={"euclidean": "euclidean", "manhattan": "cityblock"}[metric])
    return ot.emd2(np.full(len(X), 1 / len(X)), np.full(len(Y), 1 / len(Y)), M)


# -- metric properties (hypothesis) ------------------------------------------------------
@given(bags(), metrics, st.randoms(use_true_random=False))
def test_distance_to_itself_and_to_a_reordering_is_zero(X, metric, random):
    assert earth_movers_distance(X, X, metric=metric) == 0.0
    perm = list(range(len(X)))
    random.shuffle(perm)
    assert earth_movers_distance(X, X[perm], metric=metric) == pytest.approx(0.0, abs=ATOL)


@given(bag_triples(equal_sizes=False), metrics)
def test_symmetric(triple, metric):
    X, Y, _ = triple
    assert earth_movers_distance(X, Y, metric=metric) == pytest.approx(
        earth_movers_distance(Y, X, metric=metric), rel=RTOL, abs=ATOL)


@given(bag_triples(equal_sizes=True), metrics)
def test_triangle_inequality_equal_sizes(triple, metric):
    X, Y, Z = triple
    e = lambda a, b: earth_movers_distance(a, b, metric=metric)  # noqa: E731
    assert e(X, Z) <= e(X, Y) + e(Y, Z) + ATOL * (1 + e(X, Z))


@given(bag_triples(equal_sizes=False), metrics)
@settings(max_examples=60)
def test_triangle_inequality_any_sizes(triple, metric):
    X, Y, Z = triple
    e = lambda a, b: earth_movers_distance(a, b, metric=metric)  # noqa: E731
    assert e(X, Z) <= e(X, Y) + e(Y, Z) + 1e-7 * (1 + e(X, Z))


@given(bag_triples(equal_sizes=True), metrics)
def test_assignment_equals_pot_transport_for_equal_sizes(triple, metric):
    """Birkhoff–von Neumann (Thm. A.1): the assignment optimum / N is the transport optimum."""
    X, Y, _ = triple
    assignment = earth_movers_distance(X, Y, metric=metric, method="assignment")
    expected = _pot_value(X, Y, metric)
    assert assignment == pytest.approx(expected, rel=1e-7, abs=1e-7)
    assert earth_movers_distance(X, Y, metric=metric, method="transport") == pytest.approx(
        expected, rel=1e-12, abs=1e-12)
    # auto: the assignment, or the transport on histograms where items repeat (both exact)
    assert earth_movers_distance(X, Y, metric=metric) == pytest.approx(
        assignment, rel=1e-12, abs=1e-12)


@given(bag_triples(equal_sizes=False), metrics)
@settings(max_examples=60)
def test_different_sizes_use_the_transport_solver(triple, metric):
    X, Y, _ = triple
    assert earth_movers_distance(X, Y, metric=metric) == pytest.approx(
        _pot_value(X, Y, metric), rel=1e-12, abs=1e-12)


@given(bags(), arrays(np.float64, 4, elements=coords))
def test_a_shift_costs_its_length(X, shift):
    """Moving every item by the same vector s costs ‖s‖₂ (Euclidean) or ‖s‖₁ (Manhattan)."""
    s = shift[: X.shape[1]]
    assert earth_movers_distance(X, X + s) == pytest.approx(np.linalg.norm(s), rel=1e-7,
                                                           abs=1e-7)
    assert earth_movers_distance(X, X + s, metric="manhattan") == pytest.approx(
        np.abs(s).sum(), rel=1e-7, abs=1e-7)


# -- exact cases -----------------------------------------------------------------------
def test_one_dimensional_shift():
    X = np.array([[0.0], [1.0], [5.0]])
    assert earth_movers_distance(X, X + 2.5) == 2.5
    assert earth_movers_distance(X, X - 0.5) == 0.5


def test_exact_values_for_small_bags():
    # {0} vs {0, 1}: half of the mass moves by 1
    assert earth_movers_distance(np.array([[0.0]]), np.array([[0.0], [1.0]])) == 0.5
    # separated 1-D bags of different sizes: the difference of the means, 2.5 − 0.5
    assert earth_movers_distance(np.array([[0.0], [1.0]]),
                                 np.array([[2.0], [3.0], [2.5]])) == pytest.approx(2.0, rel=1e-12)
    # a crossing matching is never chosen: {0, 10} vs {1, 11} costs (1 + 1)/2
    assert earth_movers_distance(np.array([[0.0], [10.0]]), np.array([[11.0], [1.0]])) == 1.0
    # 3-4-5 triangle, Euclidean vs Manhattan
    assert earth_movers_distance(np.array([[0.0, 0.0]]), np.array([[3.0, 4.0]])) == 5.0
    assert earth_movers_distance(np.array([[0.0, 0.0]]), np.array([[3.0, 4.0]]),
                                 metric="manhattan") == 7.0


def test_cost_matrix():
    M = cost_matrix(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[3.0, 4.0]]))
    np.testing.assert_allclose(M, [[5.0], [math.hypot(2, 3)]], rtol=1e-15)


# -- bags of words ---------------------------------------------------------------------
def test_bags_of_words_use_the_embedding_vectors(tiny_embeddings):
    emb = tiny_embeddings
    a, b = ["cat", "car"], ["dog", "bus"]
    assert earth_movers_distance(a, b, emb) == pytest.approx(1.0, rel=1e-12)  # each moves by 1
    assert earth_movers_distance(a, b, emb) == pytest.approx(
        earth_movers_distance(emb.vectors[[0, 2]], emb.vectors[[1, 3]]), rel=1e-12)
    # multiplicities count: a bag is a multiset
    assert earth_movers_distance(["cat", "cat", "dog"], ["dog", "cat", "cat"], emb) == 0.0
    assert earth_movers_distance(["cat", "cat", "dog"], ["cat", "dog", "dog"], emb) == (
        pytest.approx(1 / 3, rel=1e-12))
    # a numpy array of words is a bag of words too
    assert earth_movers_distance(np.array(a), np.array(b), emb) == pytest.approx(1.0)


def test_figure_1_structure_with_the_default_embeddings(default_embeddings):
    """§2, Fig. 1: b1, b2 are closer to each other than either is to b3."""
    emb = default_embeddings
    b1 = bag_of_words("The President greets the press in Chicago.")
    b2 = bag_of_words("Chief speaks media Illinois")
    b3 = bag_of_words("Chef breaks cooking record")
    assert b1 == ["president", "greets", "press", "chicago"]
    assert b2 == ["chief", "speaks", "media", "illinois"]
    assert b3 == ["chef", "breaks", "cooking", "record"]
    e12 = earth_movers_distance(b1, b2, emb)
    e13 = earth_movers_distance(b1, b3, emb)
    e23 = earth_movers_distance(b2, b3, emb)
    assert e12 < e13
    assert e12 < e23
    # the optimal flow of Fig. 1 moves each word of b1 to the word in the same place in b2
    pairs = [np.linalg.norm(emb.vector(w1).astype(np.float64) - emb.vector(w2))
             for w1, w2 in zip(b1, b2, strict=True)]
    assert e12 == pytest.approx(sum(pairs) / 4, rel=1e-6)


# -- bad input -------------------------------------------------------------------------
def test_empty_bag_is_rejected(tiny_embeddings):
    with pytest.raises(ValueError, match=r"^bag_a is empty; the Earth Mover's distance needs"):
        earth_movers_distance([], ["cat"], tiny_embeddings)
    with pytest.raises(ValueError, match=r"^bag_b is empty"):
        earth_movers_distance(np.ones((2, 2)), np.empty((0, 2)))


def test_unequal_sizes_with_the_assignment_method_are_rejected():
    with pytest.raises(ValueError, match=r"^bags must have the same size for the assignment "
                                         r"method; got 2 and 3$"):
        earth_movers_distance(np.zeros((2, 1)), np.zeros((3, 1)), method="assignment")


def test_dimension_mismatch_is_rejected():
    with pytest.raises(ValueError, match=r"^bags must have the same dimension; got 2 and 3$"):
        earth_movers_distance(np.zeros((2, 2)), np.zeros((2, 3)))


def test_bad_metric_and_method():
    with pytest.raises(ValueError, match=r"^metric must be one of 'euclidean', 'manhattan'; "
                                         r"got 'cosine'$"):
        earth_movers_distance(np.zeros((1, 2)), np.zeros((1, 2)), metric="cosine")
    with pytest.raises(ValueError, match=r"^method must be one of 'auto', 'assignment', "
                                         r"'transport'; got 'sinkhorn'$"):
        earth_movers_distance(np.zeros((1, 2)), np.zeros((1, 2)), method="sinkhorn")


def test_words_need_embeddings_and_must_be_in_the_vocabulary(tiny_embeddings):
    with pytest.raises(ValueError, match=r"^bag_a is a bag of words: pass embeddings"):
        earth_movers_distance(["cat"], ["dog"])
    with pytest.raises(ValueError, match=r"^word 'zebra' of bag_b is not in the vocabulary of "
                                         r"'tiny'$"):
        earth_movers_distance(["cat"], ["dog", "zebra"], tiny_embeddings)
    with pytest.raises(TypeError, match=r"^bag_a must be a sequence of words or an \(N, n\) "
                                        r"array, not a str$"):
        earth_movers_distance("cat dog", ["dog"], tiny_embeddings)


def test_non_finite_and_badly_shaped_vectors_are_rejected():
    with pytest.raises(ValueError, match=r"^bag_a must be finite; found NaN or infinity$"):
        earth_movers_distance(np.array([[np.nan, 0.0]]), np.zeros((1, 2)))
    with pytest.raises(ValueError, match=r"^bag_b must be a bag of words or an \(N, n\) array; "
                                         r"got shape \(3,\)$"):
        earth_movers_distance(np.zeros((1, 3)), np.zeros(3))
