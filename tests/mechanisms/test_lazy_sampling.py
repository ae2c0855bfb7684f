"""The exact lazy Gumbel-max sampler of SanText and TEM (``mechanisms/_sampling.py``).

P(v | q) ∝ exp(−ε·min(d(q, v), γ)/2) is computed here in closed form (scipy ``cdist``),
independently of the library, on small vocabularies; the sampler's constants are shrunk
(balls of at most 3 words, a small ``(ε/2)·R_max``) so that its lazy outside step — a
Binomial count of the words beyond the ball that can win, drawn uniformly without
replacement, with Gumbels conditioned to exceed the bound — decides many draws.  Each
check is a seeded chi-square goodness of fit with p > ``P_MIN`` = 1e-4 (at the true
law a failure has probability 1e-4 per check), or a frequency within ``Z`` = 5 standard
errors; ``test_the_checks_catch_a_sampler_without_its_outside_step`` shows they fail on a
sampler that skips the outside step.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from scipy.spatial.distance import cdist

from emprivacy import Embeddings
from emprivacy.mechanisms import _sampling as sampling_module
from emprivacy.mechanisms._sampling import LazyGumbelSampler
from emprivacy.mechanisms.santext import SanText
from emprivacy.mechanisms.tem import TruncatedExponential

from .conftest import P_MIN, Z, chi_square_p, line

N = 20_000


def closed_form(vectors, q, epsilon, gamma=math.inf):
    d = cdist(np.asarray(q, np.float64)[None, :], np.asarray(vectors, np.float64))[0]
    w = np.exp(-epsilon * np.minimum(d, gamma) / 2)
    return w / w.sum()


def thirty():
    """30 words in R^3: clusters and spread, so balls, bounds and outsides all vary."""
    g = np.random.default_rng(3)
    v = np.concatenate([g.normal(size=(20, 3)), 0.3 * g.normal(size=(10, 3)) + 1.5])
    return Embeddings([f"w{i}" for i in range(30)], v, name="thirty")


def make(name, emb, epsilon, **kw):
    if name == "santext":
        return SanText(emb, epsilon=epsilon, **kw)
    return TruncatedExponential(emb, epsilon=epsilon, beta=0.3, **kw)


def gamma_of(mech):
    return getattr(mech, "gamma", math.inf)


def shrink(monkeypatch, c_max, cap=3):
    monkeypatch.setattr(sampling_module, "_C_MAX", c_max)
    monkeypatch.setattr(sampling_module, "_CAP", cap)


# -- the law, on vocabulary rows repeated many times in one call -------------------------
@pytest.mark.parametrize("c_max", [0.3, 2.0, 12.0])
@pytest.mark.parametrize("epsilon", [1.0, 4.0])
@pytest.mark.parametrize("name", ["santext", "tem"])
def test_repeated_rows_follow_the_closed_form(monkeypatch, name, epsilon, c_max):
    shrink(monkeypatch, c_max)
    emb = thirty()
    mech = make(name, emb, epsilon)
    rows = np.array([0, 7, 22, 25])
    bag = np.random.default_rng(1).permutation(np.repeat(rows, N))  # interleaved repeats
    out = mech.privatize_indices(bag, rng=np.random.default_rng(2))
    for r in rows:
        law = closed_form(emb.vectors, emb.vectors[r], epsilon, gamma_of(mech))
        np.testing.assert_allclose(mech.output_probabilities(int(r)), law, rtol=1e-12)
        freq = np.bincount(out[bag == r], minlength=30) / N
        assert chi_square_p(freq, law, N) > P_MIN, r


def test_the_outside_step_releases_words_beyond_the_ball_at_their_rate(monkeypatch):
    """With c = 0.3 the ball of w0 is a few words; the rest of the law — most of its mass —
    is released by the outside step alone, at exactly the closed-form rate."""
    shrink(monkeypatch, 0.3)
    emb = thirty()
    mech = SanText(emb, epsilon=1.0)
    balls = mech._sampler.balls(emb.vectors[[0]].astype(np.float64))
    inside = balls.words
    law = closed_form(emb.vectors, emb.vectors[0], 1.0)
    outside_mass = 1 - law[inside].sum()
    assert 0 < inside.size <= 3 and outside_mass > 0.5
    out = mech.privatize_indices(np.zeros(N, dtype=np.int64), rng=np.random.default_rng(4))
    rate = 1 - np.isin(out, inside).mean()
    assert abs(rate - outside_mass) <= Z * math.sqrt(outside_mass * (1 - outside_mass) / N)


def test_the_checks_catch_a_sampler_without_its_outside_step(monkeypatch):
    """Sanity of the tests above: drop the outside step (|V ∖ S| forced to 0) and the
    chi-square rejects the law by far."""
    shrink(monkeypatch, 2.0)
    original = LazyGumbelSampler.balls

    def no_outside(self, points, limit=None):
        b = original(self, points, limit)
        return b._replace(n_out=np.zeros_like(b.n_out))

    monkeypatch.setattr(LazyGumbelSampler, "balls", no_outside)
    emb = thirty()
    mech = SanText(emb, epsilon=1.0)
    freq = np.bincount(mech.privatize_indices(np.zeros(N, dtype=np.int64),
                                              rng=np.random.default_rng(5)), minlength=30) / N
    assert chi_square_p(freq, closed_form(emb.vectors, emb.vectors[0], 1.0), N) < 1e-12


def test_more_exact_duplicates_than_the_ball_cap(monkeypatch):
    """Four copies of x at distance 0 with balls capped at 2: the ball keeps all copies."""
    shrink(monkeypatch, 0.5, cap=2)
    emb = line([0, 0, 0, 0, 1, 3])
    mech = SanText(emb, epsilon=1.0)
    assert sorted(mech._sampler.balls(np.zeros((1, 1))).words.tolist()) == [0, 1, 2, 3]
    freq = np.bincount(mech.privatize_indices(np.full(N, 2), rng=np.random.default_rng(6)),
                       minlength=6) / N
    assert chi_square_p(freq, closed_form(emb.vectors, [0.0], 1.0), N) > P_MIN


# -- arbitrary points --------------------------------------------------------------------
@pytest.mark.parametrize("name", ["santext", "tem"])
def test_a_point_at_a_word_vector_releases_like_the_word(monkeypatch, name):
    shrink(monkeypatch, 2.0)
    emb = thirty()
    mech = make(name, emb, 2.0)
    x = 7
    by_row = np.bincount(mech.privatize_indices(np.full(N, x), rng=np.random.default_rng(7)),
                         minlength=30)
    by_point = np.bincount(mech.privatize_points(np.repeat(emb.vectors[[x]], N, axis=0),
                                                 rng=np.random.default_rng(8)), minlength=30)
    law = mech.output_probabilities(x)
    assert chi_square_p(by_point / N, law, N) > P_MIN
    # and the two empirical laws agree with each other (two-sample chi-square)
    seen = (by_row + by_point) > 0
    assert stats.chi2_contingency(np.stack([by_row[seen], by_point[seen]])).pvalue > P_MIN


@pytest.mark.parametrize("name", ["santext", "tem"])
def test_points_off_the_vocabulary_follow_the_closed_form(monkeypatch, name):
    """Points between words, in a cluster, and far from every word (R beyond its nearest
    word); each repeated in one call, interleaved."""
    shrink(monkeypatch, 1.0)
    emb = thirty()
    mech = make(name, emb, 1.5)
    pts = np.array([[0.1, -0.2, 0.3], [1.5, 1.5, 1.4], [6.0, -5.0, 4.0]])
    which = np.random.default_rng(9).integers(0, 3, 3 * N)
    out = mech.privatize_points(pts[which], rng=np.random.default_rng(10))
    for k, p in enumerate(pts):
        n = int((which == k).sum())
        freq = np.bincount(out[which == k], minlength=30) / n
        assert chi_square_p(freq, closed_form(emb.vectors, p, 1.5, gamma_of(mech)), n) > P_MIN


def test_an_empty_ball(monkeypatch):
    """A point equidistant from its two nearest words with balls capped at 1: R is that
    distance, the ball S = {d < R} is empty and the outside step draws every word."""
    shrink(monkeypatch, 1.0, cap=1)
    emb = line([0, 2, 5, 9])
    mech = SanText(emb, epsilon=1.0)
    balls = mech._sampler.point_balls(np.array([[1.0]]))
    assert balls.words.size == 0 and balls.n_out.tolist() == [4]
    freq = np.bincount(mech.privatize_points(np.ones((N, 1)), rng=np.random.default_rng(11)),
                       minlength=4) / N
    assert chi_square_p(freq, closed_form(emb.vectors, [1.0], 1.0), N) > P_MIN


#: x = w1 at 0 and the point p at 1 (not a word), a cluster of 20 words at 1, w0 at −3:
#: the cluster makes the normalisers differ by almost e^{εd/2}, so e^{εd} is nearly tight.
POSITIONS = [-3.0, 0.0, *([1.0] * 20), 2.0]


@pytest.mark.parametrize("name", ["santext", "tem"])
def test_empirical_metric_privacy_between_a_point_and_a_word(monkeypatch, name):
    """P̂(y | p) ≤ e^{ε|p − x|}·P̂(y | x) both ways, for p = 0.9 (off the vocabulary) and
    x = w1 at 0, within Z standard errors of the log-ratio; the estimate follows the
    exact ratio, and the exact worst ratio is close to the bound (not vacuous)."""
    shrink(monkeypatch, 1.0)
    emb = line(POSITIONS)
    mech = make(name, emb, 1.0)
    n = 200_000
    p, x = 0.9, 1
    fp = np.bincount(mech.privatize_points(np.full((n, 1), p), rng=np.random.default_rng(12)),
                     minlength=len(emb)) / n
    fx = np.bincount(mech.privatize_indices(np.full(n, x), rng=np.random.default_rng(13)),
                     minlength=len(emb)) / n
    lp = closed_form(emb.vectors, [p], 1.0, gamma_of(mech))
    lx = mech.output_probabilities(x)
    bound = math.exp(1.0 * abs(p - POSITIONS[x]))
    tight = 0.0
    for a, b, la, lb in ((fp, fx, lp, lx), (fx, fp, lx, lp)):
        assert (la / lb).max() <= bound * (1 + 1e-12)
        ok = (a * n >= 400) & (b * n >= 400)
        se = np.sqrt((1 - a[ok]) / (n * a[ok]) + (1 - b[ok]) / (n * b[ok]))
        ratio = a[ok] / b[ok]
        assert np.all(ratio <= bound * np.exp(Z * se))
        assert np.all(np.abs(np.log(ratio / (la[ok] / lb[ok]))) <= Z * se)
        tight = max(tight, math.log((la / lb).max()) / math.log(bound))
    assert tight > 0.9


# -- the default embeddings --------------------------------------------------------------
@pytest.mark.parametrize("name", ["santext", "tem"])
def test_default_embeddings_at_epsilon_5(default_embeddings, name):
    """GloVe 6B 50d, 100k words, ε = 5, the default constants: 5–50 % of the mass of a
    frequent word lies beyond its ball (at most 64 words) — the outside step matters."""
    emb = default_embeddings
    mech = (SanText(emb, epsilon=5.0) if name == "santext"
            else TruncatedExponential(emb, epsilon=5.0))
    x = 0
    law = mech.output_probabilities(x)
    balls = mech._sampler.balls(emb.vectors[[x]].astype(np.float64))
    assert 0.05 < 1 - law[balls.words].sum() < 0.5
    freq = np.bincount(mech.privatize_indices(np.full(N, x), rng=np.random.default_rng(14)),
                       minlength=len(emb)) / N
    assert chi_square_p(freq, law, N) > P_MIN


@pytest.mark.parametrize("name", ["santext", "tem"])
def test_points_of_vocabulary_words_release_their_rows_draw_for_draw(monkeypatch, name):
    """A word's vector as a point has the same ball as the word (R = 0 + R_max), and the
    draws go occurrence by occurrence: the same generator gives the same words."""
    monkeypatch.setattr(sampling_module, "_UNIT_WORDS", 50)
    emb = Embeddings([f"w{i}" for i in range(300)],
                     np.random.default_rng(5).normal(size=(300, 4)), name="medium")
    mech = make(name, emb, 2.0)
    idx = np.random.default_rng(1).integers(0, 300, 260)
    by_rows = mech.privatize_indices(idx, rng=np.random.default_rng(3))
    by_points = mech.privatize_points(emb.vectors[idx], rng=np.random.default_rng(3))
    np.testing.assert_array_equal(by_rows, by_points)
