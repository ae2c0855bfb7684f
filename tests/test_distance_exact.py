"""The Earth Mover's distance is the exact optimum, never a value the solver did not certify
(issue 22, item 14): bags are solved on their histograms, the iteration limit grows until
POT reports the optimum, and a solver that still does not is one line, not a number."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import ot
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment
from scipy.spatial.distance import cdist
from scipy.stats import wasserstein_distance

from emprivacy import earth_movers_distance
from emprivacy.exceptions import SolverError
from emprivacy.math import distance as distance_module
from emprivacy.math.distance import histogram_distance

from .helpers import run_cli


def _occurrences_pot(X: np.ndarray, Y: np.ndarray) -> float:
    """The N × N' transport problem on the occurrences, uniform weights, POT with a limit
    high enough to be optimal (checked)."""
    M = cdist(X, Y)
    cost, log = ot.emd2(np.full(len(X), 1 / len(X)), np.full(len(Y), 1 / len(Y)), M,
                        numItermax=10**8, log=True)
    assert log["result_code"] == 1
    return float(cost)


# -- exact cases ------------------------------------------------------------------------
def test_identical_bags_with_repeats_are_at_zero() -> None:
    gen = np.random.default_rng(0)
    words = gen.normal(size=(30, 5))
    X = words[gen.integers(0, 30, size=400)]
    assert earth_movers_distance(X, X[::-1]) == 0.0
    assert earth_movers_distance(X, np.concatenate([X, X])) == 0.0  # the same histogram


def test_small_known_cases() -> None:
    zero, one, three = [0.0], [1.0], [3.0]
    assert earth_movers_distance(np.array([zero] * 3), np.array([one, three])) == 2.0
    # half the mass of "0, 0" moves 1, the other half stays: 0.5
    assert earth_movers_distance(np.array([zero, zero]), np.array([zero, one])) == 0.5
    # 2-D: two copies at the origin against one each at (3, 4) and the origin: 5/2
    assert earth_movers_distance(np.array([[0.0, 0.0]] * 2),
                                 np.array([[3.0, 4.0], [0.0, 0.0]])) == 2.5
    pts = np.array([[0.0], [1.0], [3.0]])
    assert histogram_distance(pts, np.array([3, 0, 0]), np.array([0, 1, 1])) == 2.0


def test_one_dimensional_bags_match_the_cdf_formula() -> None:
    """In 1-D, E is the L1 distance between the distribution functions
    (``scipy.stats.wasserstein_distance``), for any sizes and repeats."""
    gen = np.random.default_rng(1)
    for _ in range(20):
        a = gen.integers(0, 12, size=gen.integers(1, 300)).astype(float)
        b = gen.integers(0, 12, size=gen.integers(1, 300)).astype(float)
        assert earth_movers_distance(a[:, None], b[:, None]) == pytest.approx(
            wasserstein_distance(a, b), rel=1e-12, abs=1e-12)


def test_a_larger_equal_size_case_against_the_assignment() -> None:
    """600 occurrences of 80 distinct words in R^6 each: the histogram transport equals the
    optimal assignment of the 600 × 600 occurrences / 600 (Birkhoff–von Neumann)."""
    gen = np.random.default_rng(2)
    words = gen.normal(size=(80, 6))
    X = words[gen.zipf(1.3, size=600) % 80]
    Y = words[gen.zipf(1.3, size=600) % 80]
    M = cdist(X, Y)
    rows, cols = linear_sum_assignment(M)
    reference = M[rows, cols].sum() / 600
    assert earth_movers_distance(X, Y) == pytest.approx(reference, rel=1e-10)
    assert earth_movers_distance(X, Y, method="transport") == pytest.approx(reference,
                                                                            rel=1e-10)


def test_different_sizes_against_the_occurrence_problem() -> None:
    gen = np.random.default_rng(3)
    words = gen.normal(size=(50, 4))
    X = words[gen.integers(0, 50, size=500)]
    Y = words[gen.integers(0, 25, size=430)]
    assert earth_movers_distance(X, Y) == pytest.approx(_occurrences_pot(X, Y), rel=1e-10)


# -- the iteration limit ------------------------------------------------------------------
def test_the_limit_grows_until_the_optimum(monkeypatch) -> None:
    """A first limit far too low (10 iterations) is raised until POT certifies the optimum:
    the value is the optimum, and no POT warning escapes (warnings are errors here)."""
    gen = np.random.default_rng(4)
    words = gen.normal(size=(120, 5))
    X = words[gen.integers(0, 120, size=700)]
    Y = words[gen.integers(0, 120, size=650)]
    expected = earth_movers_distance(X, Y)
    monkeypatch.setattr(distance_module, "_MIN_ITER", 10)
    monkeypatch.setattr(distance_module, "_ITER_PER_CELL", 0)
    monkeypatch.setattr(distance_module, "_ITER_GROWTH", 1000)
    assert earth_movers_distance(X, Y) == expected


def test_no_certified_optimum_is_an_error_not_a_number(monkeypatch) -> None:
    gen = np.random.default_rng(5)
    words = gen.normal(size=(120, 5))
    X = words[gen.integers(0, 120, size=700)]
    Y = words[gen.integers(0, 120, size=650)]
    monkeypatch.setattr(distance_module, "_MIN_ITER", 10)
    monkeypatch.setattr(distance_module, "_ITER_PER_CELL", 0)
    monkeypatch.setattr(distance_module, "_ITER_TRIES", 1)
    with pytest.raises(SolverError, match=r"^the transport solver did not reach the optimum "
                                          r"of the Earth Mover's distance \(\d+ x \d+ points; "
                                          r"numItermax reached"):
        earth_movers_distance(X, Y)


def test_command_line_says_it_in_one_line(monkeypatch, tmp_path: Path, capsys) -> None:
    emb = tmp_path / "emb.txt"
    emb.write_text("cat 0 0\ndog 1 0\ncar 10 10\nbus 11 10\nsun -10 5\n", encoding="utf-8")
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("cat dog car bus sun cat cat", encoding="utf-8")
    b.write_text("sun sun bus dog", encoding="utf-8")
    argv = ["distance", str(a), str(b), "--embeddings", str(emb), "-q"]
    code, out, err = run_cli(argv, capsys)
    assert (code, err) == (0, "")
    assert out.startswith("earth_movers_distance: ")
    monkeypatch.setattr(distance_module, "_MIN_ITER", 1)
    monkeypatch.setattr(distance_module, "_ITER_PER_CELL", 0)
    monkeypatch.setattr(distance_module, "_ITER_TRIES", 0)
    code, out, err = run_cli(argv, capsys)
    assert (code, out) == (1, "")
    assert len(err.splitlines()) == 1
    assert err.startswith("emprivacy: error: the transport solver did not reach the optimum")


# -- properties ---------------------------------------------------------------------------
@st.composite
def histograms(draw):
    """Two bags drawn with repeats from a few points of R^n (integer coordinates)."""
    n = draw(st.integers(1, 3))
    k = draw(st.integers(1, 6))
    pts = np.array(draw(st.lists(st.lists(st.integers(-5, 5), min_size=n, max_size=n),
                                 min_size=k, max_size=k)), dtype=float)
    rows = st.lists(st.integers(0, k - 1), min_size=1, max_size=12)
    return pts[draw(rows)], pts[draw(rows)]


@given(histograms())
@settings(max_examples=150, deadline=None)
def test_histograms_give_the_occurrence_optimum(bags) -> None:
    X, Y = bags
    expected = _occurrences_pot(X, Y)
    assert earth_movers_distance(X, Y) == pytest.approx(expected, rel=1e-9, abs=1e-9)
    assert earth_movers_distance(Y, X) == pytest.approx(expected, rel=1e-9, abs=1e-9)
    if len(X) == len(Y):
        M = cdist(X, Y)
        rows, cols = linear_sum_assignment(M)
        assert earth_movers_distance(X, Y, method="transport") == pytest.approx(
            M[rows, cols].sum() / len(X), rel=1e-9, abs=1e-9)
