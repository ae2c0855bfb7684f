"""Choosing ε: plausible-deniability statistics N_w, S_w, the bisection, table, plot, CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import integrate

from emprivacy import Embeddings, utility_bound
from emprivacy.cli import main
from emprivacy.decoding import ExactDecoder
from emprivacy.protection.epsilon.deniability import (
    DeniabilityStudy,
    calibrate_epsilon,
    plausible_deniability,
    sample_words,
)
from emprivacy.protection.epsilon.deniability_report import calibration_table, plot_calibration

D = 2.0  # distance between the two words
LINE = Embeddings(["cat", "car"], [[0.0], [D]], name="two-words-1d")
PLANE = Embeddings(["cat", "car"], [[0.0, 0.0], [D, 0.0]], name="two-words-2d")


def change_1d(eps: float) -> float:
    """P[word changes], n = 1: the noise is ±Exp(ε), and it must exceed D/2 towards the other."""
    return 0.5 * math.exp(-eps * D / 2)


def change_2d(eps: float) -> float:
    """P[word changes], n = 2: P[r cos θ > D/2], r ~ Gamma(2, 1/ε), θ uniform.

    P[r > s] = e^{−εs}(1 + εs) for Gamma(2, 1/ε); integrate over the half-circle cos θ > 0.
    """
    def tail(theta: float) -> float:
        s = D / (2 * math.cos(theta))
        return math.exp(-eps * s) * (1 + eps * s)
    value, _ = integrate.quad(tail, -math.pi / 2, math.pi / 2)
    return value / (2 * math.pi)


def five_sigma(p: float, trials: int) -> float:
    return 5 * math.sqrt(p * (1 - p) / trials) + 1e-9


# -- analytic N_w on two far-apart words -------------------------------------------------
@pytest.mark.parametrize(("emb", "change"), [(LINE, change_1d), (PLANE, change_2d)])
@pytest.mark.parametrize("eps", [0.01, 0.3, 1.0, 3.0, 25.0])
def test_unchanged_matches_the_closed_form(emb, change, eps):
    trials = 4000
    res = plausible_deniability(emb, eps, trials=trials, rng=11)
    p = change(eps)
    assert res.words == ("cat", "car")
    for n_w in res.unchanged:  # both words are symmetric
        assert abs(n_w - (1 - p)) <= five_sigma(p, trials)
    # distance moved: D each time the word changes
    np.testing.assert_allclose(res.distance_moved, D * (1 - res.unchanged), rtol=1e-6)
    # S_w: both words seen among 4000 trials unless one outcome is (nearly) impossible
    expected_distinct = 1 if p * trials < 1e-6 else 2
    assert res.distinct.tolist() == [expected_distinct] * 2


def test_limits_one_as_epsilon_grows_one_half_as_it_vanishes():
    trials = 4000
    big = plausible_deniability(LINE, 40.0, trials=trials, rng=1)
    assert big.unchanged.tolist() == [1.0, 1.0]  # 1 − e^{−40}/2
    small = plausible_deniability(PLANE, 1e-3, trials=trials, rng=2)
    assert np.all(np.abs(small.unchanged - 0.5) <= five_sigma(0.5, trials))
    assert change_2d(1e-3) == pytest.approx(0.5, abs=1e-3)
    assert change_2d(40.0) < 1e-8


def test_several_epsilons_share_draws_and_are_monotone():
    res = plausible_deniability(PLANE, [0.2, 0.5, 1.0, 2.0, 5.0], trials=500, rng=3)
    assert [r.epsilon for r in res] == [0.2, 0.5, 1.0, 2.0, 5.0]
    # common random numbers: every trial unchanged at ε stays unchanged at any larger ε,
    # so each word's N_w is non-decreasing in ε (exactly, not just on average)
    assert np.all(np.diff(np.array([r.unchanged for r in res]), axis=0) >= 0)
    assert res[0].mean_unchanged < res[-1].mean_unchanged


# -- the Voronoi shortcut equals brute-force decoding -----------------------------------
def brute_force(study: DeniabilityStudy, eps: float):
    emb = study.embeddings
    pts = emb.vectors[study.rows].astype(np.float64)[:, None, :] + study.directions * (
        study.radii / eps)[:, :, None]
    out = ExactDecoder(emb).decode(pts.reshape(-1, emb.dim).astype(np.float32)).reshape(
        study.radii.shape)
    same = out == study.rows[:, None]
    distinct = np.array([len(set(row)) for row in out.tolist()])
    moved = np.linalg.norm(emb.vectors[out].astype(np.float64)
                           - emb.vectors[study.rows].astype(np.float64)[:, None, :], axis=2)
    return same.mean(axis=1), distinct, moved.mean(axis=1)


@pytest.mark.parametrize("dim", [2, 3, 8])
def test_measure_equals_brute_force_decoding(dim):
    gen = np.random.default_rng(dim)
    words = [f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(80)]
    emb = Embeddings(words, gen.normal(size=(80, dim)) * 3, name="random")
    study = DeniabilityStudy(emb, trials=60, n_words=25, rng=4)
    for eps in (0.2, 1.0, 3.0, 10.0, 100.0):
        res = study.measure(eps)
        unchanged, distinct, moved = brute_force(study, eps)
        np.testing.assert_array_equal(res.unchanged, unchanged)
        np.testing.assert_array_equal(res.unchanged, study.unchanged(eps))
        np.testing.assert_array_equal(res.distinct, distinct)
        np.testing.assert_allclose(res.distance_moved, moved, rtol=1e-9, atol=1e-12)


def test_duplicate_vectors_follow_the_decoders_tie_break():
    # "cow" repeats the vector of the more frequent "cat": it never comes back
    emb = Embeddings(["cat", "cow", "car", "bus"], [[0, 0], [0, 0], [4, 0], [0, 4]], name="dup")
    study = DeniabilityStudy(emb, words=["cat", "cow", "car"], trials=300, rng=5)
    for eps in (0.3, 3.0, 300.0):
        res = study.measure(eps)
        unchanged, _, _ = brute_force(study, eps)
        np.testing.assert_array_equal(res.unchanged, unchanged)
        assert res.unchanged[1] == 0.0
    assert study.measure(300.0).unchanged.tolist() == [1.0, 0.0, 1.0]
    assert study.nearest_distance.tolist() == [0.0, 0.0, 4.0]


def test_unchanged_curve_is_monotone_and_matches_pointwise():
    study = DeniabilityStudy(PLANE, trials=300, rng=6)
    grid = np.geomspace(0.01, 50, 40)
    curve = study.unchanged_curve(grid)
    assert curve.shape == (2, 40)
    assert np.all(np.diff(curve, axis=1) >= 0)
    for j in (0, 17, 39):
        np.testing.assert_array_equal(curve[:, j], study.unchanged(grid[j]))


# -- the bisection --------------------------------------------------------------------
def test_calibrate_epsilon_two_words_closed_form():
    """N_w = 1 − e^{−εD/2}/2 = P gives ε = −(2/D)·ln(2(1 − P))."""
    target, trials = 0.8, 4000
    res = calibrate_epsilon(LINE, target_unchanged=target, trials=trials, rng=7)
    exact = -(2 / D) * math.log(2 * (1 - target))
    assert res.epsilon == pytest.approx(exact, rel=0.1)
    assert target <= res.median_unchanged <= target + 0.002  # smallest ε reaching it
    fresh = plausible_deniability(LINE, res.epsilon, trials=trials, rng=8)
    assert abs(fresh.median_unchanged - target) <= 0.03  # ≈ 4.5 s.e. of the fresh estimate


@pytest.mark.parametrize("target", [0.2, 0.5, 0.9])
def test_calibrate_epsilon_random_vocabulary(target):
    gen = np.random.default_rng(9)
    words = [f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(200)]
    emb = Embeddings(words, gen.normal(size=(200, 4)), name="random")
    study = DeniabilityStudy(emb, trials=300, n_words=40, rng=10)
    eps = study.epsilon_for(target)
    assert study.median_unchanged(eps) >= target > study.median_unchanged(eps * (1 - 2e-4))
    # measured on fresh draws (other words, other trials): within sampling tolerance
    fresh = plausible_deniability(emb, eps, trials=300, n_words=40, rng=11)
    assert abs(fresh.median_unchanged - target) <= 0.08


def test_default_epsilons_span_the_transition():
    study = DeniabilityStudy(PLANE, trials=2000, rng=12)
    eps = study.default_epsilons()
    assert eps == sorted(eps) and 4 <= len(eps) <= 7
    assert all(float(f"{e:.2g}") == e for e in eps)  # two significant digits
    assert study.median_unchanged(eps[0]) == pytest.approx(0.55, abs=0.05)
    assert study.median_unchanged(eps[-1]) == pytest.approx(0.95, abs=0.02)


# -- sampling words ---------------------------------------------------------------------
def test_sample_words_zipf_without_stopwords():
    words = ["the", *[f"zq{chr(97 + i)}" for i in range(10)]]
    emb = Embeddings(words, np.arange(22.0).reshape(11, 2), name="zipf")
    firsts = [sample_words(emb, 1, rng=s)[0] for s in range(3000)]
    assert "the" not in firsts
    # Zipf on the ranks 1..11, "the" (rank 1) left out: P[zqa] = (1/2) / Σ_{r=2}^{11} 1/r
    p = 0.5 / sum(1 / r for r in range(2, 12))
    assert abs(firsts.count("zqa") / 3000 - p) <= five_sigma(p, 3000)
    sample = sample_words(emb, 50, rng=0)
    assert sorted(sample) == sorted(words[1:])  # all of them, each once


def test_default_sample_on_the_default_embeddings(default_embeddings):
    sample = sample_words(default_embeddings, 1000, rng=0)
    assert len(set(sample)) == 1000
    ranks = np.array([default_embeddings.index_of(w) for w in sample])
    assert np.median(ranks) < 20_000  # frequency-weighted: mostly common words
    assert ranks.max() > 20_000  # but not only the head of the list


# -- statistics, table and plot ----------------------------------------------------------
def test_summary_fields():
    res = plausible_deniability(PLANE, 2.0, trials=100, size=30, delta=0.5, rng=13)
    s = res.summary()
    assert s["epsilon_total"] == 60.0 == res.epsilon_total
    assert s["utility_bound"] == utility_bound(2.0, 30, 0.5, 2) == res.utility_bound
    assert s["N"] == 30 and s["delta"] == 0.5
    assert s["median_unchanged"] == float(np.median(res.unchanged))
    default_delta = plausible_deniability(PLANE, 2.0, trials=10, rng=13)
    assert default_delta.delta == D  # the nearest other word of each word is at D


def test_table_and_plot(tmp_path: Path):
    study = DeniabilityStudy(PLANE, trials=200, rng=14)
    results = [study.measure(e) for e in (0.5, 2.0, 8.0)]
    target = study.measure(study.epsilon_for(0.7))
    table = calibration_table(results, target=target).splitlines()
    assert len(table) == 2 + 4
    assert sum(line.split()[0].endswith("*") for line in table[2:]) == 1
    dest = tmp_path / "cal.png"
    plot_calibration(study, results, dest, target=target)
    assert dest.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["cal.png"]
    with pytest.raises(ValueError, match=r"plot directory .* does not exist"):
        plot_calibration(study, results, tmp_path / "missing" / "x.png")


# -- bad input ----------------------------------------------------------------------------
def test_bad_input():
    with pytest.raises(ValueError, match=r"epsilon must be a finite number > 0; got -1\.0"):
        plausible_deniability(PLANE, -1.0, trials=5, rng=0)
    with pytest.raises(ValueError, match="trials must be an integer >= 1; got 0"):
        plausible_deniability(PLANE, 1.0, trials=0)
    with pytest.raises(ValueError, match="1 of the 2 words are not in the vocabulary"):
        plausible_deniability(PLANE, 1.0, words=["cat", "qwxzzyq"])
    with pytest.raises(TypeError, match="not a single str"):
        plausible_deniability(PLANE, 1.0, words="cat")
    with pytest.raises(TypeError, match="embeddings must be an Embeddings"):
        plausible_deniability([[0.0]], 1.0)
    with pytest.raises(ValueError, match=r"target_unchanged must be a number in \(0, 1\)"):
        calibrate_epsilon(PLANE, target_unchanged=1.0, trials=5, rng=0)
    with pytest.raises(ValueError, match="target_unchanged must be a finite number > 0"):
        calibrate_epsilon(PLANE, target_unchanged=0.0, trials=5, rng=0)
    dup = Embeddings(["cat", "cow", "cap"], [[0, 0], [0, 0], [0, 0]], name="dups")
    with pytest.raises(ValueError, match="median N_w of these words is 0 at every ε"):
        calibrate_epsilon(dup, target_unchanged=0.5, trials=5, rng=0)
    dup = Embeddings(["cat", "cow", "cap", "car"], [[0, 0], [0, 0], [0, 0], [5, 0]], name="d")
    with pytest.raises(ValueError, match=r"a median N_w of 0\.6 is not reached at any ε"):
        calibrate_epsilon(dup, target_unchanged=0.6, trials=5, rng=0)
    with pytest.raises(ValueError, match="at least two words"):
        DeniabilityStudy(Embeddings(["cat"], [[0.0]]), trials=5)


# -- command line -------------------------------------------------------------------------
def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def glove_file(tmp_path: Path) -> Path:
    gen = np.random.default_rng(15)
    path = tmp_path / "tiny.glove.txt"
    lines = []
    for i in range(300):
        word = "w" + chr(97 + i // 26 // 26) + chr(97 + i // 26 % 26) + chr(97 + i % 26)
        lines.append(word + " " + " ".join(f"{x:.5f}" for x in gen.normal(size=6)))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_cli_calibrate_table_and_plot(glove_file: Path, tmp_path: Path, capsys):
    plot = tmp_path / "out.png"
    code, out, err = run(["calibrate", "--embeddings", str(glove_file), "--n-words", "30",
                          "--trials", "50", "--seed", "1", "--plot", str(plot)], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("tiny.glove.txt (300 words, n = 6): 30 words × 50 trials")
    rows = [line for line in lines if line and line.lstrip()[0].isdigit()]
    assert 4 <= len(rows) <= 7
    medians = [float(r.split()[1]) for r in rows]
    assert medians == sorted(medians) and medians[0] < 0.2 and medians[-1] > 0.8
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert f"wrote plot to {plot}" in err


def test_cli_calibrate_target_json(glove_file: Path, capsys):
    code, out, err = run(["calibrate", "--embeddings", str(glove_file), "--n-words", "40",
                          "--trials", "200", "--seed", "2", "--target-unchanged", "0.6",
                          "--epsilons", "1, 10", "--no-plot", "--json", "-q"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert [r["epsilon"] for r in data["results"]] == [1.0, 10.0]
    t = data["target"]
    assert t["target_unchanged"] == 0.6 and 0.6 <= t["median_unchanged"] <= 0.62
    assert data["plot"] is None and data["words"] == 40 and data["trials"] == 200
    assert t["epsilon_total"] == pytest.approx(t["epsilon"] * 100)


def test_cli_calibrate_words_file(glove_file: Path, tmp_path: Path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("waaa wAAb\nzeppelin marmalade waac waaa\n", encoding="utf-8")
    code, out, err = run(["calibrate", "--embeddings", str(glove_file), "--words", str(words),
                          "--trials", "20", "--epsilons", "2", "--no-plot", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["words"] == 3
    assert "2 of the 5 words are not in the vocabulary; skipped" in err
    assert "zeppelin" not in err and "marmalade" not in err


@pytest.mark.parametrize(("extra", "message"), [
    (["--target-unchanged", "1.5"], "--target-unchanged must be a number in (0, 1); got 1.5"),
    (["--epsilons", "1,abc"], "epsilons must be numbers separated by commas or spaces; got 'abc'"),
    (["--epsilons", "-2"], "epsilon must be a finite number > 0; got -2.0"),
    (["--delta", "-1"], "delta must be a finite number >= 0; got -1.0"),
    (["--words", "{oov}"], "is in the vocabulary of"),
    (["--plot", "{missing}/p.png"], "plot directory"),
    (["--trials", "0"], "--trials"),
])
def test_cli_calibrate_bad_input(extra, message, glove_file: Path, tmp_path: Path, capsys):
    oov = tmp_path / "oov.txt"
    oov.write_text("zeppelin marmalade", encoding="utf-8")
    extra = [a.format(oov=oov, missing=tmp_path / "missing") for a in extra]
    code, out, err = run(["calibrate", "--embeddings", str(glove_file), *extra], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("emprivacy: error: ") and message in lines[0]
    assert "zeppelin" not in err


def test_cli_calibrate_default_embeddings(tmp_path: Path, capsys):
    code, out, _ = run(["calibrate", "--n-words", "20", "--trials", "20", "--seed", "0",
                        "--epsilons", "2,60", "--no-plot", "--json", "-q"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["embeddings"] == {"name": "glove-6b-50d", "vocab_size": 100_000, "dim": 50}
    low, high = data["results"]
    assert low["median_unchanged"] == 0.0 and high["median_unchanged"] == 1.0
    assert high["utility_bound"] > 0.99 and high["epsilon_total"] == 6000.0


# -- issue 22 item 11: calibrate without the evaluation extra's matplotlib -------------------
_NO_MPL = ("needs the optional dependency 'matplotlib'; install it with: "
           "pip install 'emprivacy[evaluation]'")


def test_cli_calibrate_without_matplotlib_prints_the_table_and_skips_the_default_plot(
        glove_file: Path, tmp_path: Path, capsys, monkeypatch):
    """No plot asked for by name: the table is printed and one warning says the plot was
    skipped; no calibration.png appears."""
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # the core install
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["calibrate", "--embeddings", str(glove_file), "--n-words", "10",
                          "--trials", "20", "--seed", "1", "--epsilons", "1,10"], capsys)
    assert code == 0
    assert out.splitlines()[0].startswith("tiny.glove.txt (300 words, n = 6)")
    rows = [line for line in out.splitlines() if line and line.lstrip()[0].isdigit()]
    assert len(rows) == 2
    assert err.splitlines() == [
        f"emprivacy: warning: no plot written: the calibration plot {_NO_MPL} "
        "(or pass --no-plot)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.glove.txt"]


def test_cli_calibrate_without_matplotlib_refuses_an_explicit_plot_before_any_work(
        glove_file: Path, tmp_path: Path, capsys, monkeypatch):
    import sys

    from emprivacy.cli import calibration

    def no_work(*args, **kwargs):
        raise AssertionError("loaded the embeddings before checking for matplotlib")

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(calibration, "load", no_work)
    plot = tmp_path / "cal.png"
    code, out, err = run(["calibrate", "--embeddings", str(glove_file), "--plot", str(plot)],
                         capsys)
    assert code == 1 and out == ""
    assert err.splitlines() == [f"emprivacy: error: calibrate --plot {_NO_MPL}"]
    assert not plot.exists()
