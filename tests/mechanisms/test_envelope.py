"""SanText and TEM at a small ε (issue 30, item 15): draws by rejection from the envelope
(``mechanisms/_envelope.py``) where the Gumbel-max outside step would look at hundreds of
words per draw.

The law is checked as in ``test_lazy_sampling.py`` (seeded chi-square against the closed
form, p > ``P_MIN``) with every query forced through the envelope, on balls shrunk so that
most of the mass lies outside them; the cost as the exact distances computed per draw.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.mechanisms import _sampling as sampling_module
from emprivacy.mechanisms.santext import SanText
from emprivacy.mechanisms.tem import TruncatedExponential

from .conftest import P_MIN, chi_square_p
from .test_lazy_sampling import closed_form, gamma_of, make, shrink, thirty

N = 20_000


def envelope_everywhere(monkeypatch) -> None:
    """Every query with words outside its ball is drawn by the envelope."""
    monkeypatch.setattr(sampling_module, "_GUMBEL_OUTSIDE_MAX", 0.0)


@pytest.mark.parametrize("c_max", [0.3, 2.0])
@pytest.mark.parametrize("epsilon", [0.3, 1.0, 4.0])
@pytest.mark.parametrize("name", ["santext", "tem"])
def test_the_envelope_draws_the_closed_form(monkeypatch, name, epsilon, c_max):
    shrink(monkeypatch, c_max)
    envelope_everywhere(monkeypatch)
    emb = thirty()
    mech = make(name, emb, epsilon)
    rows = np.array([0, 7, 22, 25])
    bag = np.random.default_rng(1).permutation(np.repeat(rows, N))
    out = mech.privatize_indices(bag, rng=np.random.default_rng(2))
    for r in rows:
        law = closed_form(emb.vectors, emb.vectors[r], epsilon, gamma_of(mech))
        freq = np.bincount(out[bag == r], minlength=30) / N
        assert chi_square_p(freq, law, N) > P_MIN, r


@pytest.mark.parametrize("name", ["santext", "tem"])
def test_the_envelope_draws_points_off_the_vocabulary(monkeypatch, name):
    shrink(monkeypatch, 1.0)
    envelope_everywhere(monkeypatch)
    emb = thirty()
    mech = make(name, emb, 1.5)
    pts = np.array([[0.1, -0.2, 0.3], [1.5, 1.5, 1.4], [6.0, -5.0, 4.0]])
    which = np.random.default_rng(9).integers(0, 3, 3 * N)
    out = mech.privatize_points(pts[which], rng=np.random.default_rng(10))
    for k, p in enumerate(pts):
        n = int((which == k).sum())
        freq = np.bincount(out[which == k], minlength=30) / n
        assert chi_square_p(freq, closed_form(emb.vectors, p, 1.5, gamma_of(mech)), n) > P_MIN


def test_the_check_catches_an_envelope_below_the_law(monkeypatch):
    """Sanity of the checks above: a bound 5 below the true one is no envelope (outside
    words are kept with a probability capped at 1), and the chi-square rejects by far."""
    shrink(monkeypatch, 0.3)
    envelope_everywhere(monkeypatch)
    original = sampling_module.LazyGumbelSampler.balls

    def low_bound(self, points, limit=None):
        b = original(self, points, limit)
        return b._replace(bound=b.bound - 5.0)

    monkeypatch.setattr(sampling_module.LazyGumbelSampler, "balls", low_bound)
    emb = thirty()
    mech = SanText(emb, epsilon=1.0)
    freq = np.bincount(mech.privatize_indices(np.zeros(N, dtype=np.int64),
                                              rng=np.random.default_rng(5)), minlength=30) / N
    assert chi_square_p(freq, closed_form(emb.vectors, emb.vectors[0], 1.0), N) < 1e-12


def _cloud() -> Embeddings:
    gen = np.random.default_rng(0)
    return Embeddings([f"w{i}" for i in range(5000)],
                      gen.normal(size=(5000, 20)).astype(np.float32), name="cloud")


@pytest.mark.parametrize(("name", "epsilon"), [("santext", 0.01), ("santext", 0.3),
                                               ("tem", 0.3)])
def test_a_small_epsilon_looks_at_a_few_words_per_draw(name, epsilon):
    """At ε = 0.3 the ball (the 64 nearest words) holds little of the law: the Gumbel-max
    step computed 73 exact distances per draw here (1,181 on 100,000 words of dimension 50),
    the envelope fewer than 8 (the ball's own 64 once per query)."""
    emb = _cloud()
    mech = (SanText(emb, epsilon=epsilon) if name == "santext"
            else TruncatedExponential(emb, epsilon=epsilon))
    pairs = [0]
    original = mech._sampler.exact_squared

    def counted(points, cols, rows=None):
        pairs[0] += cols.size
        return original(points, cols, rows)

    mech._sampler.exact_squared = counted
    mech.privatize_indices(np.full(4000, 7), rng=np.random.default_rng(0))
    assert pairs[0] / 4000 < 8


def test_ordinary_epsilons_draw_as_before(monkeypatch):
    """Where the Gumbel-max step looks at few words (every query at ε = 10 here), the
    envelope is not used: a seed releases exactly what it released before."""
    emb = _cloud()
    mech = SanText(emb, epsilon=10.0)
    rows = np.random.default_rng(3).integers(0, 5000, 3000)
    now = mech.privatize_indices(rows, rng=np.random.default_rng(4))
    monkeypatch.setattr(sampling_module, "_GUMBEL_OUTSIDE_MAX", math.inf)
    np.testing.assert_array_equal(now, mech.privatize_indices(rows,
                                                              rng=np.random.default_rng(4)))
