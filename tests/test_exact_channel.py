"""Exact channels (TEM, SanText) at every ε and on vocabularies far from the origin
(issue 30, items 1 and 2): the channel is the sampler's law, computed in log space from
exact float64 distances, so no ε gives a wrong figure or a NaN."""

from __future__ import annotations

import math

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.mechanisms import make_mechanism
from emprivacy.protection import ExactChannel, Secrets, audit_mechanism
from emprivacy.protection.epsilon.scale import _start_epsilon

BETA = 0.001


def offset_cloud(n_words: int = 400, dim: int = 50, offset: float = 3.0, seed: int = 0
                 ) -> Embeddings:
    """Words close to each other far from the origin: ‖x‖² + ‖y‖² − 2x·y cancels badly."""
    gen = np.random.default_rng(seed)
    vectors = gen.normal(size=(n_words, dim)) * 0.5 + gen.normal(size=dim) * offset
    return Embeddings([f"w{i}" for i in range(n_words)], vectors.astype(np.float32),
                      name="offset")


def exact_squared(emb: Embeddings, rows: np.ndarray) -> np.ndarray:
    """The defining float64 sum ``Σ_k (y_k − x_k)²`` for every secret row and word."""
    x = emb.vectors[rows].astype(np.float64)
    diff = emb.vectors.astype(np.float64)[None, :, :] - x[:, None, :]
    return np.add.reduce(diff * diff, axis=2)


@pytest.mark.parametrize("name", ["tem", "santext"])
def test_a_word_is_at_distance_zero_from_itself(name):
    emb = offset_cloud()
    rows = np.arange(0, 60, 3)
    mech = make_mechanism(name, emb, epsilon=20.0)
    weights = ExactChannel(mech, rows, block_cols=128).log_weights(0, len(emb))
    # −(ε/2)·d(x, x): exactly 0 (the GEMM's cancellation left 1e-7 here)
    assert weights[np.arange(rows.size), rows].tolist() == [0.0] * rows.size
    truth = -10.0 * np.minimum(np.sqrt(exact_squared(emb, rows)), getattr(mech, "gamma",
                                                                         math.inf))
    np.testing.assert_allclose(weights, truth, rtol=2.0**-36, atol=0.0)


@pytest.mark.parametrize("name", ["tem", "santext"])
def test_the_channel_is_the_samplers_law_to_float64_rounding(name):
    emb = offset_cloud()
    rows = np.array([0, 7, 123, 399])
    mech = make_mechanism(name, emb, epsilon=20.0)
    C = ExactChannel(mech, rows).matrix()
    for i, r in enumerate(rows.tolist()):
        np.testing.assert_allclose(C[i], mech.output_probabilities(r), rtol=1e-10, atol=0.0)


def _separated(n_words: int = 200) -> Embeddings:
    """Words far from the origin, at least 1e-3 apart: at ε ≥ 1e7 every other word lies
    beyond TEM's γ."""
    emb = offset_cloud(n_words)
    d = np.sqrt(exact_squared(emb, np.arange(n_words)))
    assert d[~np.eye(n_words, dtype=bool)].min() > 1e-3
    return emb


@pytest.mark.parametrize("epsilon", [1e7, 1e15, 1e300, 1.7e308])
def test_tem_at_a_huge_epsilon_keeps_a_word_with_probability_one_minus_beta(epsilon):
    emb = _separated()
    n = len(emb)
    secrets = Secrets.from_words(emb, [f"w{i}" for i in range(30)])
    mech = make_mechanism("tem", emb, epsilon=epsilon, beta=BETA)
    audit = audit_mechanism(mech, secrets)
    # each secret stays itself with 1 − β and goes to each other word with β/(|V| − 1):
    # V(π▷C) = (1 − β) + (|V| − K)·β/((|V| − 1)·K) for the uniform prior over K secrets
    k = len(secrets)
    expected = (1 - BETA) + (n - k) * BETA / ((n - 1) * k)
    assert audit.posterior_vulnerability.estimate == pytest.approx(expected, rel=1e-9)
    assert audit.posterior_vulnerability.exact


@pytest.mark.parametrize("epsilon", [1e7, 1e15, 1e300, 1.7e308])
def test_santext_at_a_huge_epsilon_keeps_every_word(epsilon):
    emb = _separated()
    secrets = Secrets.from_words(emb, [f"w{i}" for i in range(30)])
    audit = audit_mechanism(make_mechanism("santext", emb, epsilon=epsilon), secrets)
    assert audit.posterior_vulnerability.estimate == 1.0  # was NaN (0/0) at 1e15 and beyond
    assert audit.capacity.estimate == 30.0


def test_tem_samples_its_law_at_a_huge_epsilon():
    """The sampler too: γ² underflowed to 0 at ε = 1e300, and TEM released uniformly."""
    emb = _separated()
    mech = make_mechanism("tem", emb, epsilon=1e300, beta=0.2)
    out = mech.privatize_indices(np.full(4000, 5), rng=np.random.default_rng(1))
    kept = float(np.mean(out == 5))
    assert abs(kept - 0.8) < 5 * math.sqrt(0.8 * 0.2 / 4000)


@pytest.mark.parametrize("seed", range(3))
def test_calibrate_starts_at_the_nearest_neighbour_scale(seed):
    """The start point from exact distances: a residue of the word itself (1e-7) used to
    pass for its nearest neighbour and start the search at 1e7 or more."""
    emb = offset_cloud(n_words=2000, seed=seed)
    secrets = Secrets.from_words(emb, [f"w{i}" for i in range(32)])
    d = np.sqrt(exact_squared(emb, secrets.rows))
    d[d == 0] = np.inf
    expected = 2 * math.sqrt(emb.dim) / float(np.median(d.min(axis=1)))
    start = _start_epsilon(make_mechanism("madlib", emb, epsilon=1.0), secrets)
    assert start == pytest.approx(expected, rel=1e-9)
