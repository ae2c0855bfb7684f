"""Helpers shared by the tests of the exponential-family mechanisms (SanText, TEM):
1-D vocabularies, empirical laws and their checks (import: ``from .conftest import …``)."""

from __future__ import annotations

import itertools
import math
import pickle

import numpy as np
from scipy import stats

from emprivacy import Embeddings
from emprivacy.math.randomness import check_random_state
from emprivacy.mechanisms import _sampling as sampling_module

#: A chi-square goodness of fit must have p > P_MIN (seeded, so each test is
#: deterministic; at the true law a failure would have probability P_MIN per test).
P_MIN = 1e-4
#: Binomial and ratio checks allow Z standard errors (of the log-ratio, for ratios).
Z = 5.0


def line(positions, name="line"):
    """Words w0, w1, … at the given positions of the real line (1-D embeddings)."""
    pos = np.asarray(positions, dtype=np.float64)
    return Embeddings([f"w{i}" for i in range(pos.size)], pos[:, None], name=name)


def frequencies(mech, x, n, seed):
    out = mech.privatize_indices(np.full(n, x), rng=check_random_state(seed))
    return np.bincount(out, minlength=len(mech.embeddings)) / n


def chi_square_p(freq, law, n):
    keep = law * n >= 5  # pool the rare outcomes into one cell
    observed = np.append(freq[keep], freq[~keep].sum()) * n
    expected = np.append(law[keep], law[~keep].sum()) * n
    if expected[-1] == 0:
        observed, expected = observed[:-1], expected[:-1]
    return stats.chisquare(observed, expected).pvalue


def metric_privacy_tightness(mech, positions, inputs, n, seed):
    """Checks P(y | x) ≤ e^{ε·|x − x'|}·P(y | x') for every ordered pair of ``inputs`` (words
    of ``line(positions)``), exactly and on ``n`` draws each (seeded ``seed + x``): the
    estimate stays below the bound and follows the exact ratio within Z standard errors
    wherever both outputs have enough mass.  Returns the largest exact and measured
    log-ratios as fractions of ε·d: (tight, measured)."""
    epsilon = mech.epsilon
    freq = {x: frequencies(mech, x, n, seed=seed + x) for x in inputs}
    tight = measured = 0.0
    for x, y in itertools.permutations(inputs, 2):
        bound = math.exp(epsilon * abs(positions[x] - positions[y]))
        exact = mech.output_probabilities(x) / mech.output_probabilities(y)
        assert exact.max() <= bound * (1 + 1e-12)
        px, py = freq[x], freq[y]
        ok = (px * n >= 400) & (py * n >= 400)  # enough mass: log-ratio se ≤ 0.07
        se = np.sqrt((1 - px[ok]) / (n * px[ok]) + (1 - py[ok]) / (n * py[ok]))
        ratio = px[ok] / py[ok]
        assert np.all(ratio <= bound * np.exp(Z * se)), (x, y)
        # the estimate follows the exact ratio, wherever it is measurable
        assert np.all(np.abs(np.log(ratio / exact[ok])) <= Z * se), (x, y)
        tight = max(tight, math.log(exact.max()) / math.log(bound))
        measured = max(measured, math.log(ratio.max()) / math.log(bound))
    return tight, measured


# -- batches, seeds, pickling ------------------------------------------------------------
def medium_embeddings():
    return Embeddings([f"w{i}" for i in range(3000)],
                      np.random.default_rng(5).normal(size=(3000, 8)), name="medium")


BAG_SIZES = (1, 5, 40, 13, 100, 2)


def bags_for(emb):
    g = np.random.default_rng(9)
    return [g.integers(0, len(emb), size=n) for n in BAG_SIZES]


def shrink_units(monkeypatch, c_max=None):
    """Tiny work units, chunks and row blocks, balls of at most 3 words and, if given, a
    small ``(ε/2)·R_max`` (``c_max``): the sampler's lazy outside step then decides many
    of the draws."""
    monkeypatch.setattr(sampling_module, "_UNIT_WORDS", 7)
    monkeypatch.setattr(sampling_module, "_CHUNK_WORDS", 16)
    monkeypatch.setattr(sampling_module, "_BLOCK_ROWS", 5)
    monkeypatch.setattr(sampling_module, "_CAP", 3)
    if c_max is not None:
        monkeypatch.setattr(sampling_module, "_C_MAX", c_max)


def assert_pickles_small_and_equal(mech):
    """Dask ships mechanisms to workers: the row cache travels empty, the draws are equal."""
    emb = mech.embeddings
    bag = np.arange(0, 3000, 7)
    first = mech.privatize_indices(bag, rng=check_random_state(1))
    data = pickle.dumps(mech)
    assert len(data) < 4 * emb.vectors.nbytes
    copy = pickle.loads(data)
    np.testing.assert_array_equal(copy.privatize_indices(bag, rng=check_random_state(1)), first)


def assert_batch_equals_bag_by_bag(make, bags):
    """``make(n_threads)`` builds the mechanism: its batch on 2 threads equals the bags one
    by one on 1 thread, each bag with its own seeded generator; returns the batch."""
    batched = make(2).privatize_batches(
        [(b, check_random_state(i)) for i, b in enumerate(bags)])
    one = make(1)
    single = [one.privatize_indices(b, rng=check_random_state(i)) for i, b in enumerate(bags)]
    for a, b in zip(batched, single, strict=True):
        np.testing.assert_array_equal(a, b)
    return batched


def assert_seeds_reproducible_and_default_secure(make):
    """``make(rng)`` builds the mechanism: equal seeds give equal draws, other seeds other
    draws; without a seed the generator is ChaCha and one stream serves every call."""
    bag = [0, 1, 2, 3, 4] * 20
    a, b, c = (make(seed).privatize_indices(bag) for seed in (7, 7, 8))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    mech = make(None)
    assert type(mech.rng.bit_generator).__name__ == "ChaCha"
    first, second = mech.privatize_indices(bag), mech.privatize_indices(bag)
    assert not np.array_equal(first, second)  # one stream, not a reset per call
