"""The approximate decoder's calibration (stop rule τ, stages, candidates): pure functions,
tested on hand-made traces where the right choice is obvious — no faiss needed."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from emprivacy.decoding.tuning import (
    MAX_RERANK,
    TAU_GRID,
    Yardstick,
    answer_ranks,
    calibration_set,
    check_search,
    choose_tau,
    continues,
    half_radius,
    replay,
    stages_up_to,
    tune,
    unmet_message,
    widening,
)


def test_importing_the_decoders_does_not_import_faiss():
    code = ("import sys, emprivacy, emprivacy.decoding, emprivacy.decoding.tuning; "
            "emprivacy.EarthMoversPrivacy; assert 'faiss' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


# -- stages and the stop rule -------------------------------------------------------------
def test_stages_grow_fourfold_up_to_the_limit():
    assert stages_up_to(512, [8]) == [8, 32, 128, 512]
    assert stages_up_to(100, [8]) == [8, 32, 100]
    assert stages_up_to(8, [8]) == [8]
    assert stages_up_to(2048, [8, 32], count=1) == [8, 32, 128]
    assert stages_up_to(64, [4, 16, 64], count=1) == [4, 16, 64]  # nothing left to add


def test_stop_rule_compares_the_next_centre_with_the_best_word():
    best_d = np.array([1.0, 2.0, 1.0])
    next_d2 = np.array([2.0, 8.0, 2.0001])
    assert continues(best_d, next_d2, 2.0).tolist() == [True, True, False]
    assert continues(best_d, next_d2, math.inf).tolist() == [True, True, True]


def test_replay_of_stop_rules():
    dist = np.array([[1.0, 1.0, 1.0], [1.0, 0.9, 0.9], [3.0, 3.0, 3.0]])
    nxt = np.array([[1.5, 9.0, np.inf], [1.0, 0.5, np.inf], [9.5, 9.5, np.inf]])
    # τ = 2: row 0 goes on once (1.5 <= 2·1²) then stops (9 > 2); rows 1 and 2 go to the
    # end (row 2: 9.5 <= 2·3²)
    assert replay(dist, nxt, 2.0).tolist() == [1, 2, 2]
    # τ = 1: row 1 still goes on (1.0 <= 1, 0.5 <= 0.81), row 2 stops at once
    assert replay(dist, nxt, 1.0).tolist() == [0, 2, 0]
    assert replay(dist, nxt, np.inf).tolist() == [2, 2, 2]
    # a vector that stops never resumes, even if a later stage would let it go on
    assert replay(np.ones((1, 3)), np.array([[5.0, 0.0, np.inf]]), 2.0).tolist() == [0]


# -- the calibration set and its regimes --------------------------------------------------
def test_half_radius_is_where_exact_decoding_stops_returning_the_source():
    radius = np.arange(0.0, 101.0)  # 5 % quantiles fall on multiples of 5
    assert half_radius(radius, radius < 50) == 50.0
    assert half_radius(radius, radius < 12) == 10.0
    assert half_radius(radius, np.zeros(101, bool)) == 0.0  # never unchanged: no "near"
    assert half_radius(radius, np.ones(101, bool)) == 100.0  # always unchanged: all "near"


def test_calibration_set_is_seeded_and_spans_the_radii():
    vectors = np.random.default_rng(0).normal(size=(500, 6)).astype(np.float32)
    z, src, radius = calibration_set(vectors, 300)
    z2, src2, _ = calibration_set(vectors, 300)
    np.testing.assert_array_equal(z, z2)
    np.testing.assert_array_equal(src, src2)
    assert z.shape == (300, 6) and z.dtype == np.float64 and src.shape == radius.shape == (300,)
    np.testing.assert_allclose(np.linalg.norm(z - vectors[src], axis=1), radius, rtol=1e-9)
    ratio = radius.max() / radius.min()
    assert 10 < ratio <= 40  # log-uniform from 0.1× to 4× one scale


def yardstick(exact, src, near, edge, targets=(0.8, 0.5)) -> Yardstick:
    """Words 0..9 on a line; the regimes given by hand."""
    near = np.asarray(near, bool)
    return Yardstick(src=np.asarray(src), exact=np.asarray(exact),
                     vectors=np.arange(10.0)[:, None], near=near, edge=np.asarray(edge, bool),
                     far=~near, targets={"near": targets[0], "edge": targets[1]})


#: 8 vectors: 6 near the words (the last two of them the hardest), 2 far.
SRC = [0, 1, 2, 3, 4, 5, 6, 7]
EXACT = [0, 1, 2, 3, 4, 5, 9, 9]
NEAR = [1, 1, 1, 1, 1, 1, 0, 0]
EDGE = [0, 0, 0, 0, 1, 1, 0, 0]


def test_yardstick_of_a_calibration_set():
    radius = np.arange(0.0, 101.0)
    src = np.zeros(101, dtype=np.int64)
    exact = np.where(radius < 50, 0, 1)
    yard = Yardstick.of(np.arange(10.0)[:, None], src, radius, exact, 0.999)
    assert yard.near.tolist() == (radius <= 50).tolist()
    assert yard.far.tolist() == (radius > 50).tolist()
    assert yard.edge.tolist() == ((radius >= 40) & (radius <= 50)).tolist()
    assert yard.targets == pytest.approx({"near": 0.998, "edge": 0.995})
    assert yard.summary() == {"targets": yard.targets, "vectors": 101, "near": 51,
                              "edge": 11, "far": 50}


def test_figures_against_exact_decoding():
    yard = yardstick(EXACT, SRC, NEAR, EDGE)
    fig = yard.figures(np.array(EXACT))
    assert fig == {"near_agreement": 1.0, "edge_agreement": 1.0, "far_unchanged": [0, 0],
                   "far_moved": [5.0, 5.0], "met": True}
    assert list(fig) == ["near_agreement", "edge_agreement", "far_unchanged", "far_moved", "met"]
    one_miss = yard.figures(np.array([1, 1, 2, 3, 4, 5, 9, 9]))  # 5/6 near: above 0.8
    assert one_miss["near_agreement"] == pytest.approx(5 / 6) and one_miss["met"]
    edge_misses = yard.figures(np.array([0, 1, 2, 3, 3, 3, 9, 9]))
    assert edge_misses["edge_agreement"] == 0.0 and not edge_misses["met"]
    # far from the words: unchanged words within two, distance moved within 1 %
    moved_less = yard.figures(np.array([0, 1, 2, 3, 4, 5, 8, 9]))
    assert moved_less["far_moved"] == [4.0, 5.0] and not moved_less["met"]
    assert yard.agrees(moved_less)


# -- choosing τ ---------------------------------------------------------------------------
def three_stage_trace(gap: float):
    """Rows 0-2 find their exact word only in the second stage; the next centre after the
    first stage is at ``gap``·d² for them, far for the others; nobody goes on after it."""
    m = len(SRC)
    right = np.array(EXACT)
    wrong_first = right.copy()
    wrong_first[:3] = 8
    picks = np.stack([wrong_first, right, right], axis=1)
    dist = np.ones((m, 3))
    nxt = np.full((m, 3), 100.0)
    nxt[:3, 0] = gap
    nxt[:, 2] = np.inf
    return picks, dist, nxt


def test_choose_tau_is_the_smallest_tau_that_meets_the_targets():
    yard = yardstick(EXACT, SRC, NEAR, EDGE)
    trace = three_stage_trace(1.35)
    full = yard.figures(trace[0][:, -1])
    tau, fig = choose_tau(yard, trace, full)
    assert tau == 1.4 and fig["met"]  # 1.3·1² < 1.35 ≤ 1.4·1²
    tau, fig = choose_tau(yard, three_stage_trace(0.5), full)
    assert tau == TAU_GRID[0] == 1.1
    tau, fig = choose_tau(yard, three_stage_trace(50.0), full)  # beyond every τ of the grid
    assert tau == math.inf and fig is full


def test_choose_tau_with_nothing_to_decide():
    yard = yardstick(EXACT, SRC, NEAR, EDGE)
    picks, dist, nxt = three_stage_trace(1.35)
    one_stage = (picks[:, 1:2], dist[:, 1:2], nxt[:, 1:2])
    full = yard.figures(one_stage[0][:, -1])
    assert choose_tau(yard, one_stage, full) == (math.inf, full)
    missed = yard.figures(picks[:, 0])
    assert choose_tau(yard, (picks, dist, nxt), missed) == (math.inf, missed)


# -- widening a search that misses --------------------------------------------------------
def test_widening():
    yard = yardstick(EXACT, SRC, NEAR, EDGE)
    answers = np.array([8, 8, 2, 3, 4, 5, 9, 9])  # two misses near the words
    full = yard.figures(answers)
    beyond = np.full(8, 100)  # the exact answers lie in cells beyond the last stage
    within = np.full(8, 3)
    assert widening(yard, full, answers, beyond, 16, 16, 64) == "stage"
    assert widening(yard, full, answers, within, 16, 16, 64) == "candidates"
    assert widening(yard, full, answers, within, 16, MAX_RERANK, 64) == "stage"
    assert widening(yard, full, answers, within, 64, MAX_RERANK, 64) is None
    assert widening(yard, full, answers, np.full(8, 50), 64, 16, 64) == "candidates"
    # agreement met, statistics off far from the words: more cells, as long as there are
    stats_off = np.array([0, 1, 2, 3, 4, 5, 8, 9])
    full = yard.figures(stats_off)
    assert widening(yard, full, stats_off, within, 16, 16, 64) == "stage"
    assert widening(yard, full, stats_off, within, 64, 16, 64) is None


class FakeSearch:
    """A search that finds the exact answers once it scans ``cells`` cells with ``rerank``
    candidates; every vector stops after the first stage."""

    def __init__(self, yard: Yardstick, cells: int, rerank: int) -> None:
        self.yard, self.cells, self.rerank, self.calls = yard, cells, rerank, []

    def __call__(self, stages, rerank):
        self.calls.append((list(stages), rerank))
        good = stages[-1] >= self.cells and rerank >= self.rerank
        answers = self.yard.exact if good else np.where(self.yard.near, 8, self.yard.exact)
        n = len(stages)
        return (np.repeat(answers[:, None], n, axis=1), np.ones((len(answers), n)),
                np.full((len(answers), n), 100.0))


def test_tune_adds_stages_when_the_answers_lie_beyond():
    yard = yardstick(EXACT, SRC, NEAR, EDGE)
    search = FakeSearch(yard, cells=64, rerank=16)
    out = tune(search, yard, np.full(8, 50), [4, 16], 16, 256)
    assert search.calls == [([4, 16], 16), ([4, 16, 64], 16)]
    assert (out.stages, out.rerank, out.tau) == ([4, 16, 64], 16, 1.1)
    assert out.calibration == yard.summary() | yard.figures(yard.exact)
    assert list(out.calibration)[:5] == ["targets", "vectors", "near", "edge", "far"]


def test_tune_raises_the_candidates_when_the_answers_lie_within():
    yard = yardstick(EXACT, SRC, NEAR, EDGE)
    search = FakeSearch(yard, cells=16, rerank=64)
    out = tune(search, yard, np.full(8, 2), [4, 16], 16, 256)
    assert [r for _, r in search.calls] == [16, 32, 64]
    assert (out.stages, out.rerank, out.tau) == ([4, 16], 64, 1.1)


def test_tune_gives_up_with_every_cell_and_the_most_candidates():
    yard = yardstick(EXACT, SRC, NEAR, EDGE)
    search = FakeSearch(yard, cells=10**9, rerank=10**9)  # never good enough
    out = tune(search, yard, np.full(8, 2), [4, 16], 16, 64)
    assert search.calls[-1] == ([4, 16, 64], MAX_RERANK)
    assert out.tau == math.inf and not out.calibration["met"]
    message = unmet_message(out.calibration, out.rerank)
    assert message is not None and "every cell with 256 candidates" in message
    assert "0.0000 near the words, target 0.8000" in message
    assert unmet_message(yard.summary() | yard.figures(yard.exact), 16) is None
    assert unmet_message({}, 16) is None


def test_answer_ranks_count_the_nearer_centres():
    gen = np.random.default_rng(3)
    cent = gen.normal(size=(40, 5)).astype(np.float32)
    z = gen.normal(size=(2500, 5))  # more than one chunk of 1024
    cells = gen.integers(0, 40, 2500)
    ranks = answer_ranks(z, cent, np.einsum("ij,ij->i", cent, cent), cells)
    d2 = ((z[:, None, :] - cent[None, :, :].astype(np.float64)) ** 2).sum(axis=2)
    own = d2[np.arange(2500), cells]
    expected = (d2 < own[:, None]).sum(axis=1) + 1
    assert np.mean(ranks == expected) > 0.99  # float32 scores: ties within rounding aside
    assert ranks.min() >= 1 and ranks.max() <= 40


# -- the cache's search parameters --------------------------------------------------------
GOOD = {"rerank": 32, "tau": 1.5, "stages": [4, 16, 64], "calibration": {"met": True}}


def test_check_search_accepts_what_tune_can_choose():
    out = check_search(GOOD, rerank=16, stages=[4, 16], nlist=64)
    assert (out.stages, out.rerank, out.tau, out.calibration) == ([4, 16, 64], 32, 1.5,
                                                                   {"met": True})
    assert check_search(GOOD | {"tau": math.inf}, rerank=16, stages=[4, 16], nlist=64).tau \
        == math.inf


@pytest.mark.parametrize("edit", [{"rerank": True}, {"rerank": 8}, {"rerank": 512},
                                  {"rerank": 32.0}, {"tau": 1.45}, {"tau": None},
                                  {"stages": [4, 16, 32]}, {"stages": [4, 16, 64, 256]},
                                  {"stages": None}, {"calibration": []}])
def test_check_search_rejects_anything_else(edit):
    with pytest.raises(ValueError, match="malformed search parameters"):
        check_search(GOOD | edit, rerank=16, stages=[4, 16], nlist=64)
