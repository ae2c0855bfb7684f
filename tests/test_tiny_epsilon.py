"""A tiny ε is legal and privatises correctly (issue 22, item 8).

As ε → 0 the noise dwarfs the vocabulary.  For the nearest-word mechanisms the noisy point
then lies far out along a uniformly random direction (stretched, for Mahalanobis noise),
and the released word is the vocabulary's extreme point in that direction: on a square
vocabulary each corner with probability 1/4, a word inside the square never.  SanText
and TEM become uniform over the vocabulary.  No ε > 0 may give NaN, infinity or an
exception (it used to: ``points must be finite``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.math.noise import FAR_RADII
from emprivacy.mechanisms import make_mechanism

from .helpers import run_cli

TINY = [1e-30, 1e-300, 5e-324]
#: Four corners of a square, its centre and a point near one edge: the corners are the
#: extreme points, each the output for a quarter of the directions.
SQUARE = Embeddings(["cat", "dog", "sun", "car", "bus", "sky"],
                    np.array([[1, 1], [-1, 1], [-1, -1], [1, -1], [0, 0], [0.9, 0]],
                             np.float32), name="square")
N = 20_000
NEAREST = [("madlib", {}), ("mahalanobis", {"lam": 0.5}),
           ("vickrey", {"t": 0.5}), ("vickrey", {"t": 0.5, "noise": "mahalanobis"})]
NEAREST_IDS = ["madlib", "mahalanobis", "vickrey", "vickrey-mhl"]


def _counts(mech, row: int, seed: int) -> np.ndarray:
    out = mech.privatize_indices(np.full(N, row), rng=np.random.default_rng(seed))
    return np.bincount(out, minlength=len(SQUARE))


@pytest.mark.parametrize("epsilon", TINY)
@pytest.mark.parametrize(("name", "params"), NEAREST[:2], ids=NEAREST_IDS[:2])
def test_nearest_word_limit_is_each_corner_a_quarter(name, params, epsilon) -> None:
    """20,000 seeded draws: each corner within 4 standard errors of N/4 (σ = √(N·3/16)),
    the inside words never."""
    mech = make_mechanism(name, SQUARE, epsilon=epsilon, **params)
    for row in (4, 5):
        counts = _counts(mech, row, seed=row)
        assert counts[4:].tolist() == [0, 0]
        assert np.all(np.abs(counts[:4] - N / 4) <= 4 * np.sqrt(N * 3 / 16))


@pytest.mark.parametrize("epsilon", TINY)
@pytest.mark.parametrize(("name", "params"), NEAREST, ids=NEAREST_IDS)
def test_tiny_epsilon_has_the_law_of_a_small_one(name, params, epsilon) -> None:
    """ε = 1e-8 never reaches the far sphere (the plain path); a tiny ε's law matches it:
    total variation below 0.03 over 20,000 draws each (its sampling error is about 0.01)."""
    tiny = _counts(make_mechanism(name, SQUARE, epsilon=epsilon, **params), 0, seed=1)
    small = _counts(make_mechanism(name, SQUARE, epsilon=1e-8, **params), 0, seed=2)
    assert tiny.sum() == small.sum() == N
    assert 0.5 * np.abs(tiny - small).sum() / N < 0.03
    assert np.count_nonzero(tiny) >= 4  # spread over the vocabulary, not stuck on one word


@pytest.mark.parametrize("epsilon", TINY)
@pytest.mark.parametrize(("name", "params"), NEAREST, ids=NEAREST_IDS)
def test_noisy_points_stay_finite_and_on_the_far_sphere(name, params, epsilon) -> None:
    mech = make_mechanism(name, SQUARE, epsilon=epsilon, rng=3, **params)
    z = mech.noisy_vectors(np.arange(len(SQUARE)))
    assert np.all(np.isfinite(z))
    centre = SQUARE.vectors.mean(axis=0, dtype=np.float64)
    rho = float(np.linalg.norm(SQUARE.vectors - centre, axis=1).max())
    np.testing.assert_allclose(np.linalg.norm(z - centre, axis=1), FAR_RADII * rho, rtol=1e-9)
    points = mech.privatize_points(np.array([[0.2, 0.1], [5.0, -3.0]]))  # e.g. subword vectors
    assert points.shape == (2,) and np.all((points >= 0) & (points < len(SQUARE)))


@pytest.mark.parametrize("epsilon", [1.0, 1e-3])
def test_an_ordinary_epsilon_is_bit_for_bit_the_plain_noise(epsilon) -> None:
    """Far from a tiny ε nothing changes: X + Lap_n^ε from the same stream, exactly."""
    from emprivacy import laplace_noise

    mech = make_mechanism("madlib", SQUARE, epsilon=epsilon)
    idx = np.arange(len(SQUARE))
    z = mech.noisy_vectors(idx, rng=np.random.default_rng(4))
    expected = laplace_noise(2, epsilon, size=idx.size, rng=np.random.default_rng(4))
    expected += SQUARE.vectors[idx]
    np.testing.assert_array_equal(z, expected)


@pytest.mark.parametrize("epsilon", TINY)
@pytest.mark.parametrize("name", ["santext", "tem"])
def test_exponential_mechanisms_become_uniform(name, epsilon) -> None:
    """Each of the 6 words within 4 standard errors of N/6 (σ = √(N·5/36))."""
    counts = _counts(make_mechanism(name, SQUARE, epsilon=epsilon), 0, seed=5)
    assert np.all(np.abs(counts - N / 6) <= 4 * np.sqrt(N * 5 / 36))
    points = make_mechanism(name, SQUARE, epsilon=epsilon, rng=6).privatize_points(
        np.array([[0.2, 0.1]]))
    assert points.shape == (1,)


def test_tem_threshold_stays_finite() -> None:
    mech = make_mechanism("tem", SQUARE, epsilon=5e-324)
    assert mech.gamma == np.finfo(np.float64).max
    assert np.isfinite(mech.record_fields()["gamma"])


def test_rank_resampling_at_a_tiny_epsilon() -> None:
    mech = make_mechanism("madlib", SQUARE, epsilon=1e-300, rng=7, rank_resample=1.0)
    counts = np.bincount(mech.privatize_indices(np.zeros(N, np.int64)), minlength=6)
    assert np.count_nonzero(counts) == 6  # the resampling spreads over every rank


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    emb = tmp_path / "emb.txt"
    emb.write_text("".join(f"{w} {x:g} {y:g}\n" for w, (x, y)
                           in zip(SQUARE.words, SQUARE.vectors.tolist(), strict=True)),
                   encoding="utf-8")
    doc = tmp_path / "a.txt"
    doc.write_text("The cat and the dog saw the sky.", encoding="utf-8")
    return {"emb": emb, "doc": doc}


@pytest.mark.parametrize("name", ["madlib", "mahalanobis", "vickrey", "tem", "santext"])
@pytest.mark.parametrize("epsilon", ["1e-30", "1e-300", "5e-324"])
def test_obfuscate_with_a_tiny_epsilon(name, epsilon, files, capsys) -> None:
    code, out, err = run_cli(["obfuscate", str(files["doc"]), "--embeddings", str(files["emb"]),
                              "-e", epsilon, "--mechanism", name, "--seed", "1", "-q"], capsys)
    assert (code, err) == (0, "")
    assert len(out.split()) == 3 and set(out.split()) <= set(SQUARE.words)


def test_calibrate_with_a_tiny_epsilon(files, capsys) -> None:
    code, out, err = run_cli(["calibrate", "--embeddings", str(files["emb"]), "--epsilons",
                              "1e-300,5e-324", "--trials", "20", "--n-words", "4", "--no-plot",
                              "-q"], capsys)
    assert (code, err) == (0, "")
    assert "1e-300" in out
    code, out, err = run_cli(["calibrate", "--embeddings", str(files["emb"]), "--mechanism",
                              "vickrey", "--epsilons", "1e-300", "--trials", "20", "--n-words",
                              "4", "-q"], capsys)
    assert (code, err) == (0, "")
