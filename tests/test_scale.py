"""One privacy scale (emprivacy.protection.epsilon: scale, search, recovery): the ε search,
``calibrate_recovery`` and the recovery measured on a release.

The bisection is checked exactly on figures known in closed form; the calibration on a
1-D toy vocabulary where the optimal adversary's recovery V(π▷C) has a closed form and is
monotone in ε (checked on a grid first): exact for SanText, seeded draws for madlib, whose
intervals are Bonferroni-corrected over every ε the search can measure.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emprivacy import Embeddings
from emprivacy.protection import (
    ReleaseRecovery,
    Secrets,
    calibrate_recovery,
    find_epsilon,
    release_recovery,
)
from emprivacy.protection.epsilon import recovery, scale, search

POINTS = [0.0, 1.0, 2.5, 3.0, 5.0, 8.0]  # a 1-D vocabulary, unevenly spaced
WORDS = ["a", "b", "c", "d", "e", "f"]


def toy() -> Embeddings:
    return Embeddings(WORDS, [[p] for p in POINTS], name="toy")


def santext_v(epsilon: float, prior: np.ndarray | None = None) -> float:
    """V(π▷C) of SanText on the toy, by hand: C[x, y] ∝ exp(−ε|x − y|/2)."""
    p = np.asarray(POINTS)
    w = np.exp(-0.5 * epsilon * np.abs(p[:, None] - p[None, :]))
    c = w / w.sum(axis=1, keepdims=True)
    pi = np.full(p.size, 1 / p.size) if prior is None else prior
    return float((pi[:, None] * c).max(axis=0).sum())


def laplace_cdf(t: np.ndarray, epsilon: float) -> np.ndarray:
    """The Laplace(0, 1/ε) CDF, each branch evaluated where it does not overflow."""
    z = epsilon * np.asarray(t, dtype=np.float64)
    return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0.0)),
                    1.0 - 0.5 * np.exp(-np.maximum(z, 0.0)))


def madlib_v(epsilon: float) -> float:
    """V(π▷C) of madlib on the toy, uniform π: in 1-D its noise is Laplace(0, 1/ε) and the
    word released is the nearest (Voronoi cells between the midpoints)."""
    p = np.asarray(POINTS)
    bounds = np.concatenate([[-np.inf], (p[1:] + p[:-1]) / 2, [np.inf]])
    c = np.stack([np.diff(laplace_cdf(bounds - x, epsilon)) for x in p])
    return float(c.max(axis=0).sum() / p.size)


GRID = np.geomspace(1e-3, 1e3, 400)


def test_the_toy_recovery_is_monotone_in_epsilon():
    """The premise of the calibration tests: on the toy, both closed forms rise with ε from
    V(π) = 1/6 towards 1."""
    for v in (santext_v, madlib_v):
        values = np.array([v(e) for e in GRID])
        assert np.all(np.diff(values) >= -1e-12)
        assert values[0] == pytest.approx(1 / 6, abs=1e-3) and values[-1] > 0.999


# -- find_epsilon ---------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(target=st.floats(0.01, 0.99), start=st.floats(1e-2, 1e2),
       rtol=st.floats(1e-4, 0.2))
def test_find_epsilon_brackets_the_target_within_rtol(target, start, rtol):
    """f(ε) = 1 − e^{−ε}: the answer is ln(1/(1−P)); found within rtol, on the safe side."""
    search = find_epsilon(lambda e: 1 - math.exp(-e), target, start=start, rtol=rtol)
    exact = -math.log1p(-target)
    assert 1 - math.exp(-search.epsilon) <= target < 1 - math.exp(-search.above)
    assert search.epsilon <= exact < search.above
    assert search.above / search.epsilon - 1 <= rtol
    fine = search.fine()
    assert [p.epsilon for p in fine] == sorted(p.epsilon for p in fine)
    assert {p.stage for p in search.points} == {"fine"}


def test_find_epsilon_widens_a_bracket_that_does_not_hold():
    f = lambda e: e / (1 + e)  # noqa: E731
    s = find_epsilon(f, 0.9, bracket=(0.5, 2.0), rtol=1e-3)  # f(2) = 2/3 < 0.9: widen up
    assert s.epsilon <= 9.0 < s.above and s.above / s.epsilon - 1 <= 1e-3
    s = find_epsilon(f, 0.1, bracket=(0.5, 2.0), rtol=1e-3)  # f(0.5) = 1/3 > 0.1: go down
    assert s.epsilon <= 1 / 9 < s.above


def test_find_epsilon_coarse_figure_then_the_fine_one():
    """A cheaper, more conservative figure brackets; the fine one decides (its ends are
    measured again, and widened where the coarse bracket does not hold for it)."""
    fine = lambda e: 1 - math.exp(-e)  # noqa: E731
    coarse = lambda e: min(1.0, fine(e) + 0.2)  # noqa: E731
    s = find_epsilon(fine, 0.5, coarse=coarse, start=1.0, rtol=1e-4)
    assert s.epsilon <= math.log(2) < s.above
    stages = [p.stage for p in s.points]
    assert stages[0] == "bracket" and "fine" in stages
    first_fine = stages.index("fine")
    assert set(stages[first_fine:]) == {"fine"}  # the coarse grid only brackets
    # a coarse figure that never falls below the target: the fine one brackets alone
    s = find_epsilon(fine, 0.5, coarse=lambda e: 1.0, start=1.0, rtol=1e-4)
    assert s.epsilon <= math.log(2) < s.above


def test_find_epsilon_refuses_a_figure_that_is_not_monotone():
    # rises as ε falls, while above the target: found while bracketing
    bump = lambda e: 0.9 if e < 0.5 else 1 - math.exp(-e)  # noqa: E731
    with pytest.raises(ValueError, match=r"not monotone in epsilon: it rises as epsilon "
                                         r"falls, 0\.6321 at epsilon 1 but 0\.9 at 0\.25"):
        find_epsilon(bump, 0.3, start=1.0)
    # a dip inside the bracket: the bisection walks into it, and the final check says so
    dip = lambda e: 0.05 if 2.2 <= e <= 2.8 else e / 10  # noqa: E731
    with pytest.raises(ValueError, match=r"not monotone in epsilon over the points "
                                         r"measured: 0.2 at epsilon 2 but 0.05 at 2\.3"):
        find_epsilon(dip, 0.25, start=1.0, rtol=1e-3)
    # falls as ε grows, while below the target
    with pytest.raises(ValueError, match="it falls as epsilon grows"):
        find_epsilon(lambda e: 0.2 if e < 3 else 0.1, 0.5, start=1.0)


def test_find_epsilon_tolerates_a_dip_within_its_tolerance():
    """A sampled figure moves by its noise: a bump of 0.1 at ε = 2 (0.3 there, 0.283 at the
    next ε measured, √8) passes a tolerance of 0.02, and the answer is the crossing; not a
    tolerance of 0.005."""
    dip = lambda e: e / 10 + (0.1 if 1.9 <= e <= 2.1 else 0.0)  # noqa: E731
    s = find_epsilon(dip, 0.35, start=1.0, rtol=1e-3, tolerance=0.02)
    assert s.epsilon <= 3.5 < s.above
    assert [p.epsilon for p in s.points][:4] == [1.0, 4.0, 2.0, math.sqrt(8)]
    with pytest.raises(ValueError, match=r"more than the tolerance 0\.005"):
        find_epsilon(dip, 0.35, start=1.0, rtol=1e-3, tolerance=0.005)


def test_find_epsilon_says_when_the_target_is_out_of_reach():
    # the figure's limit (0.5) is below the target: no ε reaches it
    with pytest.raises(ValueError, match=r"stays at or below 0\.6 at every epsilon tried, "
                                         r"from 1 up to .*and at epsilon 1e\+150, where it "
                                         r"has reached its limit \(0\.5\): the target does "
                                         r"not constrain epsilon"):
        find_epsilon(lambda e: 0.5 * (1 - math.exp(-e)), 0.6, limit=lambda: 0.5)
    # without the limit, only what was measured
    with pytest.raises(ValueError, match=r"stays at or below 0\.6 at every epsilon tried, "
                                         r"from 1 up to 6\.554e\+04 \(0\.5 there\); a larger "
                                         r"epsilon may exceed it: start the search there"):
        find_epsilon(lambda e: 0.5 * (1 - math.exp(-e)), 0.6)
    with pytest.raises(ValueError,
                       match=r"is above 0\.3 at every epsilon tried, from 1 down to"):
        find_epsilon(lambda e: 0.5 + 0.1 * (1 - math.exp(-e)), 0.3)


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"rtol": 0.0}, ValueError, "rtol must be a finite number > 0; got 0.0"),
    ({"rtol": 1e-300}, ValueError, "rtol must be a finite number >= 1e-09; got 1e-300"),
    ({"start": 1e-300}, ValueError, "start must be a number in [1e-150, 1e+150]; got 1e-300"),
    ({"bracket": (1.0, 1e200)}, ValueError,
     "bracket must be a number in [1e-150, 1e+150]; got 1e+200"),
    ({"factor": 1.0}, ValueError, "factor must be a number > 1; got 1.0"),
    ({"bracket": (2.0, 1.0)}, ValueError, "bracket must be two numbers lo < hi"),
    ({"start": -1.0}, ValueError, "start must be a finite number > 0; got -1.0"),
    ({"max_steps": 0}, ValueError, "max_steps"),
])
def test_find_epsilon_checks_its_options(kwargs, error, message):
    with pytest.raises(error) as info:
        find_epsilon(lambda e: e / (1 + e), 0.5, **kwargs)
    assert str(info.value).startswith(message)


class _Branch(Exception):
    """The search asked for a figure beyond the answers given."""


def _answered(answers, coarse, kwargs):
    """Run ``find_epsilon`` on figures that answer ``answers`` in turn (True: above the
    target); return what it asked, ``(stage, ε)``, and whether it stopped on the last ask."""
    asked = []

    def figure(stage):
        def f(e):
            asked.append((stage, e))
            if len(asked) > len(answers):
                raise _Branch
            return 1.0 if answers[len(asked) - 1] else 0.0
        return f

    try:
        find_epsilon(figure("fine"), 0.5, coarse=figure("bracket") if coarse else None,
                     tolerance=2.0, **kwargs)
    except _Branch:
        return asked, True
    except ValueError:
        pass  # no bracket, or not monotone: the search ends on this path
    return asked, False


def _fine_nodes(coarse=True, **kwargs):
    """Every full measurement ``find_epsilon`` can make, by depth-first search over the
    answers (at or below the target, or above) of the figures it asks for: the nodes of its
    decision tree that measure the full figure (one per history of full measurements), and
    the distinct ε there."""
    nodes, eps = set(), set()
    stack: list[tuple[bool, ...]] = [()]
    while stack:
        answers = stack.pop()
        asked, more = _answered(answers, coarse, kwargs)
        if not more:
            continue
        stage, e = asked[-1]
        if stage == "fine":
            history = tuple((q, a) for (st_, q), a in zip(asked, answers, strict=False)
                            if st_ == "fine")
            nodes.add((*history, e))
            eps.add(e)
        stack.extend([(*answers, False), (*answers, True)])
    return len(nodes), eps


@pytest.mark.parametrize("coarse", [True, False])
@pytest.mark.parametrize(("kwargs", "tight"), [
    ({}, True), ({"max_steps": 3, "rtol": 0.2}, True),
    ({"max_steps": 2, "bracket": (1.0, 100.0)}, False),  # b from the wide bracket: a bound
])
def test_reachable_points_bounds_every_full_measurement_the_search_can_make(kwargs, tight,
                                                                           coarse):
    """The Bonferroni count bounds the full measurements of the search's decision tree,
    enumerated over every sequence of answers (nodes with the same history of full
    measurements are one), and so the distinct ε measured in full; with no bracket given it
    is the tree's exact size."""
    nodes, eps = _fine_nodes(coarse, **kwargs)
    n = search.reachable_points(coarse=coarse, **kwargs)
    assert len(eps) <= nodes <= n
    assert (nodes == n) == tight
    if not kwargs:
        assert n == (16 if coarse else 1) * (17 + 16 * 31)  # m = 8; 5 halvings of log 4


# -- calibrate_recovery -----------------------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=st.floats(0.2, 0.97))
def test_calibrate_recovery_exact_channel_meets_the_target(target):
    """SanText's channel is exact: the ε found has V(π▷C) ≤ P, and the ε above it (within
    rtol) more than P — the hand-computed closed form, not the audit's own figure."""
    emb = toy()
    s = Secrets.from_words(emb, WORDS)
    r = calibrate_recovery(emb, target_recovery=target, mechanism="santext", secrets=s,
                           rtol=0.01)
    assert santext_v(r.epsilon) <= target < santext_v(r.above.epsilon)
    assert r.above.epsilon / r.epsilon - 1 <= 0.01
    post = r.audit.posterior_vulnerability
    assert post.exact and post.estimate == pytest.approx(santext_v(r.epsilon), abs=1e-12)
    assert r.draws is None and r.search_draws is None
    summary = r.summary()
    assert summary["epsilon"] == r.epsilon and summary["target_recovery"] == target
    assert summary["posterior_vulnerability"]["kind"] == "exact"
    assert summary["above"]["posterior_vulnerability"]["upper"] > target
    assert summary["monotone"] is True and summary["channel"] == "exact"


def test_calibrate_recovery_with_a_skewed_prior():
    emb = toy()
    weights = [8, 4, 2, 1, 1, 1]
    s = Secrets.from_words(emb, WORDS, weights=weights)
    prior = np.asarray(weights, dtype=float) / sum(weights)
    r = calibrate_recovery(emb, target_recovery=0.7, mechanism="santext", secrets=s,
                           rtol=0.02)
    assert santext_v(r.epsilon, prior) <= 0.7 < santext_v(r.above.epsilon, prior)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_calibrate_recovery_sampled_channel_holds_at_its_confidence(seed):
    """madlib, 2,000 seeded draws per word: at the ε found the upper end of the interval
    (95 % over every ε the search can measure) is ≤ P, the interval holds the closed-form
    V(π▷C) (so the optimal adversary recovers at most P there), and at the ε above it the
    upper end exceeds P."""
    emb = toy()
    s = Secrets.from_words(emb, WORDS)
    r = calibrate_recovery(emb, target_recovery=0.5, mechanism="madlib", secrets=s,
                           draws=2000, rng=seed)
    post = r.audit.posterior_vulnerability
    exact = madlib_v(r.epsilon)
    assert not post.exact and post.upper <= 0.5
    assert post.lower <= exact <= post.upper
    assert r.above.posterior_vulnerability.upper > 0.5
    assert r.above.epsilon / r.epsilon - 1 <= 0.05
    assert r.draws == 2000 and r.search_draws == 500
    assert r.monotone_tolerance == pytest.approx(math.sqrt(math.log(40) / (6 * 2 * 2000)))
    (at,) = [p for p in r.search.points if p.stage == "fine" and p.epsilon == r.epsilon]
    assert at.value == post.upper
    # common random numbers: the same seed gives the same search
    again = calibrate_recovery(emb, target_recovery=0.5, mechanism="madlib", secrets=s,
                               draws=2000, rng=seed)
    assert again.epsilon == r.epsilon and again.seed == r.seed


def test_calibrate_recovery_corrects_each_sampled_measurement_for_the_search(monkeypatch):
    """Each full measurement of a sampled channel is at 1 − 0.05/N (Bonferroni over the N
    ε the search can measure in full), the coarse ones too; the summary says so.  An exact
    channel is measured at 0.95 itself."""
    seen = []
    real = scale.audit_mechanism

    def spy(mech, secrets, **kwargs):
        seen.append((kwargs["draws"], kwargs["confidence"]))
        return real(mech, secrets, **kwargs)

    monkeypatch.setattr(scale, "audit_mechanism", spy)
    emb = toy()
    s = Secrets.from_words(emb, WORDS)
    r = calibrate_recovery(emb, target_recovery=0.5, mechanism="madlib", secrets=s,
                           draws=200, rng=0)
    n = 16 * (17 + 16 * 31)  # search.reachable_points() with the defaults
    per_point = 1 - 0.05 / n
    assert {c for _, c in seen} == {per_point} and {d for d, _ in seen} == {50, 200}
    assert r.audit.confidence == per_point
    summary = r.summary()
    assert summary["confidence"] == 0.95 and summary["confidence_per_point"] == per_point
    assert summary["points_covered"] == n
    # the wider intervals are what the search kept at or below P
    assert r.audit.posterior_vulnerability.upper <= 0.5
    seen.clear()
    exact = calibrate_recovery(emb, target_recovery=0.5, mechanism="santext", secrets=s)
    assert {c for _, c in seen} == {0.95}
    assert exact.summary()["confidence_per_point"] == 0.95
    assert exact.summary()["points_covered"] is None


def test_calibrate_recovery_works_for_every_mechanism():
    emb = toy()
    s = Secrets.from_words(emb, WORDS)
    for name, params in (("mahalanobis", {"lam": 0.5}), ("vickrey", {"t": 0.5}),
                         ("tem", {"beta": 0.001})):
        r = calibrate_recovery(emb, target_recovery=0.6, mechanism=name, params=params,
                               secrets=s, draws=400, rng=3)
        assert r.audit.posterior_vulnerability.upper <= 0.6, name
        assert r.above.posterior_vulnerability.upper > 0.6, name
        assert r.audit.mechanism == name


@pytest.mark.parametrize(("value", "error"), [
    (0.0, ValueError), (1.0, ValueError), (-0.5, ValueError), (1.5, ValueError),
    (math.nan, ValueError), (math.inf, ValueError), (True, TypeError), ("0.5", TypeError),
    (None, TypeError),
])
def test_calibrate_recovery_rejects_a_target_outside_0_1(value, error):
    with pytest.raises(error, match=r"target_recovery must be a number in \(0, 1\); got"):
        calibrate_recovery(toy(), target_recovery=value, mechanism="santext")


def test_calibrate_recovery_refuses_a_target_below_the_blind_guess():
    emb = toy()
    s = Secrets.from_words(emb, WORDS)  # uniform: V(π) = 1/6
    with pytest.raises(ValueError, match=r"target_recovery must be at least the prior "
                                         r"vulnerability V\(pi\) = 0.1667"):
        calibrate_recovery(emb, target_recovery=0.1, mechanism="santext", secrets=s)


def test_calibrate_recovery_says_when_the_target_does_not_constrain_epsilon():
    """TEM at β = 0.5 never keeps a word more than about half the time: a recovery of 0.9
    holds at every ε."""
    emb = toy()
    s = Secrets.from_words(emb, WORDS)
    with pytest.raises(ValueError, match=r"stays at or below 0\.9 at every epsilon tried.*"
                                         r"the target does not constrain epsilon"):
        calibrate_recovery(emb, target_recovery=0.9, mechanism="tem", params={"beta": 0.5},
                           secrets=s)


def test_calibrate_recovery_refuses_a_figure_that_is_not_monotone(monkeypatch):
    """A word audit whose upper end dips as ε grows: no ε is returned."""
    def fake_audit(mech, secrets, **kwargs):
        e = mech.epsilon
        upper = 0.05 if 2.2 <= e <= 2.8 else min(0.99, e / 10)
        return SimpleNamespace(posterior_vulnerability=SimpleNamespace(upper=upper))

    monkeypatch.setattr(scale, "audit_mechanism", fake_audit)
    emb = toy()
    with pytest.raises(ValueError, match="is not monotone in epsilon over the points "
                                         "measured"):
        calibrate_recovery(emb, target_recovery=0.25, mechanism="santext",
                           secrets=Secrets.from_words(emb, WORDS), start=1.0, rtol=1e-3)


def test_calibrate_recovery_checks_its_arguments():
    emb = toy()
    with pytest.raises(TypeError, match="embeddings must be an Embeddings"):
        calibrate_recovery("toy", target_recovery=0.5)
    with pytest.raises(TypeError, match="secrets must be a Secrets"):
        calibrate_recovery(emb, target_recovery=0.5, secrets=["a", "b"])
    with pytest.raises(ValueError, match="mechanism must be one of"):
        calibrate_recovery(emb, target_recovery=0.5, mechanism="nope")
    with pytest.raises(ValueError, match="draws must be an integer >= 2"):
        calibrate_recovery(emb, target_recovery=0.5, draws=1)


# -- release_recovery ---------------------------------------------------------------------------
def test_release_recovery_by_hand():
    # every release the same word: the release says nothing; the attack and the plug-in are
    # the blind guess of the most frequent original
    o = np.array([0, 0, 0, 0, 1, 1, 2, 2])
    r = release_recovery(o, np.full(8, 5), rng=0)
    assert r.plugin == r.baseline == 0.5 and r.words == 8 and r.test_words == 4
    assert r.plugin_upper == pytest.approx(0.5 + math.sqrt(math.log(40) / 16))
    # the identity: the release names the original
    o = np.repeat(np.arange(5), 40)
    r = release_recovery(o, o, rng=1)
    assert r.estimate == 1.0 and r.plugin == 1.0 and r.prior_weight == 0.0
    assert r.lower == pytest.approx(0.025 ** (1 / 100))  # Clopper–Pearson at 100 of 100
    ident = ReleaseRecovery.identity(o)
    assert ident.exact and ident.to_dict()["kind"] == "exact" and ident.baseline == 0.2


def test_release_recovery_bounds_the_optimum_on_a_known_channel():
    """Releases of the toy through madlib's closed-form channel (drawn here, seeded):
    the attack's lower end ≤ V(π▷C) ≤ the plug-in's upper end, for several seeds
    (each side at 97.5 %)."""
    p = np.asarray(POINTS)
    bounds = np.concatenate([[-np.inf], (p[1:] + p[:-1]) / 2, [np.inf]])
    for eps in (0.3, 1.0, 3.0):
        c = np.stack([np.diff(laplace_cdf(bounds - x, eps)) for x in p])
        v = c.max(axis=0).sum() / p.size
        for seed in range(3):
            gen = np.random.default_rng(seed)
            o = np.repeat(np.arange(p.size), 400)
            y = np.array([gen.choice(p.size, p=c[x]) for x in o])
            r = release_recovery(o, y, rng=seed)
            assert r.lower <= v <= r.plugin_upper, (eps, seed)
            assert r.baseline == pytest.approx(1 / 6)


def test_release_recovery_falls_back_on_the_prior_where_the_release_says_nothing():
    """Releases independent of the originals: the chosen λ makes the attack guess the most
    frequent original, so it scores the blind guess, not below it."""
    gen = np.random.default_rng(5)
    o = gen.choice(4, size=4000, p=[0.55, 0.15, 0.15, 0.15])
    y = gen.integers(0, 500, size=4000)
    r = release_recovery(o, y, rng=5)
    assert math.isinf(r.prior_weight) or r.prior_weight >= 8
    assert r.lower <= 0.55 <= r.upper


@settings(max_examples=80, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 9)), min_size=2,
                     max_size=80), seed=st.integers(0, 2**16))
def test_release_recovery_figures_are_ordered(data, seed):
    o = np.array([a for a, _ in data])
    y = np.array([b for _, b in data])
    r = release_recovery(o, y, rng=seed)
    assert 0.0 <= r.lower <= r.estimate <= r.upper <= 1.0
    assert 0.0 < r.baseline <= r.plugin <= r.plugin_upper <= 1.0
    assert r.words == len(data) and r.test_words == len(data) - len(data) // 2
    assert r.prior_weight in recovery.PRIOR_WEIGHTS


@pytest.mark.parametrize(("o", "y", "message"), [
    ([[0, 1]], [[0, 1]], "1-D integer arrays of one length"),
    ([0, 1, 2], [0, 1], "1-D integer arrays of one length"),
    ([0.5, 1.0], [0, 1], "1-D integer arrays of one length"),
    ([0], [0], "released words must number at least 2; got 1"),
])
def test_release_recovery_checks_its_input(o, y, message):
    with pytest.raises(ValueError, match=message):
        release_recovery(o, y)
