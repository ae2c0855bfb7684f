"""Sampled statistics and rank histograms of every mechanism (issue 13, calibrate)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.mechanisms import EarthMoversPrivacy, SanText, make_mechanism
from emprivacy.protection.epsilon.deniability import DeniabilityStudy
from emprivacy.protection.epsilon.mechanism_study import study_mechanism

#: 40 words on a line, 1 apart: ranks in a neighbour list are easy to reason about.
LINE = Embeddings([f"w{i}" for i in range(40)], np.arange(40, dtype=np.float32)[:, None],
                  name="line")


def test_huge_epsilon_every_mechanism_returns_the_input() -> None:
    for name in ("madlib", "mahalanobis", "vickrey", "tem", "santext"):
        params = {"t": 0.0} if name == "vickrey" else {}
        mech = make_mechanism(name, LINE, epsilon=1e7, **params)
        s = study_mechanism(mech, words=["w3", "w20"], trials=20, rng=1)
        assert s.unchanged.tolist() == [1.0, 1.0], name
        assert s.distinct.tolist() == [1, 1] and s.distance_moved.tolist() == [0.0, 0.0]
        assert s.ranks == {"0": 1.0, "1-100": 0.0, ">100": 0.0}
        assert s.summary()["mechanism"] == name


def test_madlib_matches_the_exact_study_within_sampling_error() -> None:
    """N_w sampled by running the mechanism agrees with DeniabilityStudy's exact count.

    Both estimate P[K(w) = w] from 400 independent runs per word; their difference
    has sd ≤ sqrt(2·0.25/400) ≈ 0.035 per word; we allow 5 sd.
    """
    emb = Embeddings([f"w{i}" for i in range(60)],
                     np.random.default_rng(3).normal(size=(60, 5)).astype(np.float32), name="g")
    words = ["w1", "w7", "w30"]
    eps = 2.0
    exact = DeniabilityStudy(emb, words=words, trials=400, rng=4).measure(eps)
    sampled = study_mechanism(EarthMoversPrivacy(emb, epsilon=eps), words=words, trials=400,
                              rng=5)
    assert np.all(np.abs(exact.unchanged - sampled.unchanged) < 5 * math.sqrt(0.5 / 400))
    assert 0.05 < sampled.unchanged.mean() < 0.95  # not a trivial regime


def test_santext_rank_histogram_matches_its_closed_form() -> None:
    """On the line, rank(w, v) for the middle word w = 20 is 0 for v = w, then 1, 2 for
    the two words at distance 1 (ties by row), … so P(rank 0) = p(w) and
    P(rank 1..close) = the mass within 50 ranks; checked within 5 binomial sd."""
    eps = 0.6
    mech = SanText(LINE, epsilon=eps)
    probs = mech.output_probabilities(20)
    s = study_mechanism(mech, words=["w20"], trials=4000, rank_sample=4000, close=10, rng=7)
    d = np.abs(np.arange(40) - 20)
    p0, p_close = probs[20], probs[(d >= 1) & (d <= 5)].sum()  # ranks 1..10 = distances 1..5
    for got, want in ((s.ranks["0"], p0), (s.ranks["1-10"], p_close)):
        assert abs(got - want) < 5 * math.sqrt(want * (1 - want) / 4000), (got, want)
    assert s.unchanged[0] == pytest.approx(s.ranks["0"])


def test_errors() -> None:
    mech = EarthMoversPrivacy(LINE, epsilon=1.0)
    with pytest.raises(TypeError, match="mechanism must be a WordMechanism; got str"):
        study_mechanism("madlib")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="1 of the words are not in the vocabulary of 'line'"):
        study_mechanism(mech, words=["w1", "nope"])
    with pytest.raises(ValueError, match=r"trials must be an integer >= 1; got 0"):
        study_mechanism(mech, words=["w1"], trials=0)
    with pytest.raises(TypeError, match="not a single str"):
        study_mechanism(mech, words="w1")
