"""The distinguishability audit (emprivacy.protection.leakage.distinguish): ε̂ against ε·d.

Every statistical test is seeded, on a tiny vocabulary, with its tolerance or its
false-alarm rate stated.  A lower bound ε̂ holds with probability ≥ 0.95 (simultaneous
over a run's pairs): a seeded run where it exceeds ε·d is a false alarm of that rate, and
the tests say how many they allow.
"""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest
from scipy import stats

from emprivacy import Embeddings, SanText
from emprivacy.exceptions import InputError
from emprivacy.mechanisms import EarthMoversPrivacy, make_mechanism
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.protection import (
    Distinguishability,
    choose_pairs,
    distinguish_documents,
    distinguish_pairs,
    epsilon_lower_bound,
    guarantee_distance,
    read_word_pairs,
)

from .helpers import input_env, run_cli, spy_batch_path

WORDS = ["cat", "dog", "car", "bus", "sun", "sky", "tea", "pen", "cup", "hat", "map", "box"]


def toy_line(spacing: float = 1.0) -> Embeddings:
    """Four words on a line, the pair (a, b) in the middle: madlib's noise is Laplace in
    1-D, and the outputs l (left of a) and r (right of b) have likelihood ratio exactly
    e^{ε·d(a, b)} — the bound is reached on sets of probability ½e^{−ε·spacing/2}."""
    return Embeddings(["l", "a", "b", "r"], [[-spacing], [0.0], [spacing], [2 * spacing]],
                      name="toy")


@pytest.fixture(scope="module")
def cloud() -> Embeddings:
    """12 words in 2-D, stretched along one axis (so that d_RM differs from d₂)."""
    vec = np.random.default_rng(3).normal(size=(12, 2)) * np.array([2.5, 0.5])
    return Embeddings(WORDS, vec, name="cloud")


PAIRS = [("cat", "dog"), ("car", "bus"), ("sun", "hat"), ("tea", "box")]

#: (mechanism, parameters) — every mechanism, rank resampling and Mahalanobis noise included
MECHANISMS = [
    ("madlib", {}),
    ("madlib", {"rank_resample": 0.5}),
    ("mahalanobis", {"lam": 0.7}),
    ("vickrey", {"t": 0.5}),
    ("vickrey", {"t": 0.5, "noise": "mahalanobis", "lam": 0.3, "rank_resample": 0.5}),
    ("tem", {"beta": 0.2}),
    ("santext", {}),
]
IDS = ["madlib", "madlib-resampled", "mahalanobis", "vickrey", "vickrey-mhl-resampled", "tem",
       "santext"]


# -- the bound -----------------------------------------------------------------------------
def test_epsilon_lower_bound_is_the_clopper_pearson_formula():
    n, tp, fp = 1000, 600, 200
    half = 0.025  # each one-sided end of a 95 % interval
    t_lo = stats.beta.ppf(half, tp, n - tp + 1)
    f_hi = stats.beta.ppf(1 - half, fp + 1, n - fp)
    est, lower = epsilon_lower_bound(tp, fp, n)
    assert lower == pytest.approx(max(math.log(t_lo / f_hi),
                                      math.log((1 - f_hi) / (1 - t_lo))), rel=1e-12)
    assert est == pytest.approx(math.log(600.5 / 200.5), rel=1e-12)
    # the complement's bound: TPR = 1 makes 1 − TPR_lower tiny
    est, lower = epsilon_lower_bound(n, 500, n)
    t_lo = half ** (1 / n)
    f_hi = stats.beta.ppf(1 - half, 501, 500)
    assert lower == pytest.approx(math.log((1 - f_hi) / (1 - t_lo)), rel=1e-12)
    assert epsilon_lower_bound(300, 300, n)[1] == 0.0  # no power, no bound (never < 0)
    with pytest.raises(ValueError, match="need 0 <= true_positives"):
        epsilon_lower_bound(11, 0, 10)


def test_the_confidence_is_split_over_the_pairs(cloud):
    mech = SanText(cloud, epsilon=1.0)
    one = distinguish_pairs(mech, PAIRS[:1], draws=200, rng=0)
    four = distinguish_pairs(mech, PAIRS, draws=200, rng=0)
    # the ceiling is the bound at TPR = 1, FPR = 0 for the per-pair confidence 1 − 0.05/P
    n = 200
    for result, p in ((one, 1), (four, 4)):
        end = (0.05 / p) / 2
        assert result.ceiling == pytest.approx(math.log(end ** (1 / n) / (1 - end ** (1 / n))))
    assert four.ceiling < one.ceiling


# -- never above ε·d -----------------------------------------------------------------------
@pytest.mark.parametrize(("name", "params"), MECHANISMS, ids=IDS)
def test_lower_bound_never_exceeds_the_nominal_bound(cloud, name, params):
    """ε̂'s lower bound ≤ ε·d for every pair, at two ε, in 3 seeded runs each (each run's
    bounds hold at once with probability ≥ 0.95: a false alarm here has probability ≤ 0.3,
    and with these seeds there is none); the point estimate stays near it too."""
    for epsilon in (0.5, 2.0):
        mech = make_mechanism(name, cloud, epsilon=epsilon, **params)
        for seed in range(3):
            r = distinguish_pairs(mech, PAIRS, draws=3000, rng=seed)
            assert r.method == ("likelihood-ratio" if name in ("tem", "santext")
                                else "split-half")
            for p in r.pairs:
                assert p.nominal == pytest.approx(epsilon * p.distance)
                assert 0.0 <= p.lower <= p.nominal
                assert p.lower <= p.estimate
                if p.exact_loss is not None:  # the law's own loss: within the guarantee
                    assert p.exact_loss <= p.nominal * (1 + 1e-12)
                    assert p.lower <= p.exact_loss


def test_the_false_alarm_rate_where_the_bound_is_tight():
    """On the 1-D toy, where madlib's ratio reaches e^{ε·d}, the lower bound exceeds ε·d in
    at most the stated 5 % of runs: 40 seeded runs of 2,000 draws, at most 7 allowed
    (P[Bin(40, 0.05) ≥ 8] < 0.001); the estimates average ε·d within 3 standard errors."""
    mech = EarthMoversPrivacy(toy_line(), epsilon=1.0)
    runs = [distinguish_pairs(mech, [("a", "b")], draws=2000, rng=s).pairs[0]
            for s in range(40)]
    assert sum(p.lower > 1.0 for p in runs) <= 7
    est = np.array([p.estimate for p in runs])
    assert abs(est.mean() - 1.0) <= 3 * est.std(ddof=1) / math.sqrt(est.size) + 0.02


# -- tight where it can be -----------------------------------------------------------------
@pytest.mark.parametrize(("epsilon", "spacing"), [(1.0, 1.0), (1.5, 1.0), (0.5, 2.0)])
def test_madlib_on_the_line_is_nearly_tight(epsilon, spacing):
    """ε̂'s lower bound ≥ 0.8·ε·d where the likelihood ratio reaches e^{ε·d} (40,000 draws
    of each word, seeded); the estimate within 0.1·ε·d of it."""
    mech = EarthMoversPrivacy(toy_line(spacing), epsilon=epsilon)
    p = distinguish_pairs(mech, [("a", "b")], draws=40_000, rng=5).pairs[0]
    nominal = epsilon * spacing
    assert p.nominal == pytest.approx(nominal)
    assert 0.8 * nominal <= p.lower <= nominal
    assert abs(p.estimate - nominal) <= 0.1 * nominal
    assert p.tightness == pytest.approx(p.lower / nominal)


# -- the known law -------------------------------------------------------------------------
@pytest.mark.parametrize("epsilon", [0.4, 1.0, 3.0])
def test_santext_two_words_by_hand(epsilon):
    """Two words at distance 1: C[x, y] ∝ e^{−(ε/2)·d}, so every output's ratio is e^{ε/2}:
    the pair's loss is exactly ε/2 (half of the nominal ε·d), and the test's TPR is
    1/(1 + e^{−ε/2})."""
    emb = Embeddings(["cat", "dog"], [[0.0], [1.0]])
    p = distinguish_pairs(SanText(emb, epsilon=epsilon), [("cat", "dog")], draws=20_000,
                          rng=1).pairs[0]
    assert p.exact_loss == pytest.approx(epsilon / 2, rel=1e-12)
    assert p.test_value == pytest.approx(epsilon / 2, rel=1e-12)
    assert p.nominal == pytest.approx(epsilon)
    assert p.lower <= epsilon / 2
    tpr = 1 / (1 + math.exp(-epsilon / 2))
    se = math.sqrt(tpr * (1 - tpr) / p.trials)
    assert abs(p.true_positives / p.trials - tpr) <= 5 * se


@pytest.mark.parametrize("name", ["tem", "santext"])
def test_exact_law_against_the_closed_form(cloud, name):
    """The pair's exact loss is max_y |ln P(y | x′) − ln P(y | x)| from the mechanism's own
    closed form; the test's sampled estimate lies within 0.1 of the test's closed-form value
    (20,000 draws, seeded), and its lower bound below it."""
    params = {"beta": 0.2} if name == "tem" else {}
    mech = make_mechanism(name, cloud, epsilon=1.5, **params)
    r = distinguish_pairs(mech, PAIRS, draws=20_000, rng=2)
    assert r.method == "likelihood-ratio" and r.pairs[0].trials == 20_000
    for (w0, w1), p in zip(PAIRS, r.pairs, strict=True):
        lp0 = np.log(mech.output_probabilities(cloud.get_index(w0)))
        lp1 = np.log(mech.output_probabilities(cloud.get_index(w1)))
        assert p.exact_loss == pytest.approx(float(np.abs(lp1 - lp0).max()), rel=1e-9)
        assert p.test_value <= p.exact_loss + 1e-12
        assert p.lower <= p.test_value
        assert abs(p.estimate - p.test_value) <= 0.1


@pytest.mark.parametrize("name", ["tem", "santext"])
def test_split_half_on_a_known_law(cloud, name):
    """The distinguisher of the unknown-law path, forced on a known law: its bound stays
    below the pair's exact loss and reaches 85 % of it (20,000 draws, seeded; the likelihood-
    ratio test on all the draws reaches 93-97 % here)."""
    params = {"beta": 0.2} if name == "tem" else {}
    mech = make_mechanism(name, cloud, epsilon=1.5, **params)
    exact = distinguish_pairs(mech, PAIRS, draws=20_000, rng=3)
    split = distinguish_pairs(mech, PAIRS, draws=20_000, rng=3, method="split-half")
    assert split.method == "split-half" and split.pairs[0].trials == 10_000
    for e, s in zip(exact.pairs, split.pairs, strict=True):
        assert s.exact_loss is None
        assert s.lower <= e.exact_loss
        assert s.lower >= 0.85 * e.exact_loss
    with pytest.raises(ValueError, match="no closed-form law"):
        distinguish_pairs(EarthMoversPrivacy(cloud, epsilon=1.0), PAIRS,
                          method="likelihood-ratio")


# -- documents -----------------------------------------------------------------------------
def test_documents_of_one_layout(cloud):
    """Text mode: the positions that differ add up (the Manhattan lift); the exact loss of
    two positions is the sum of the per-position losses in the one direction or the other."""
    a = "The cat saw a dog. Tea, then the sun!"
    b = "The car saw a dog. Box, then the sun!"
    mech = SanText(cloud, epsilon=0.8)
    r = distinguish_documents(mech, a, b, draws=4000, rng=4, labels=("a.txt", "b.txt"))
    assert r.inputs == "documents" and distinguish_pairs(mech, PAIRS[:1], draws=10,
                                                          rng=0).inputs == "words"
    assert r.table()[0].startswith("ε̂ of two documents, santext at ε = 0.8: 4000 releases "
                                   "of each input; likelihood-ratio test (the law is known); "
                                   "lower bound at 95% confidence;")
    p = r.pairs[0]
    assert (p.first, p.second, p.positions) == ("a.txt", "b.txt", 2)
    d = guarantee_distance(mech, cloud.rows(["cat", "tea"]), cloud.rows(["car", "box"]))
    assert p.distance == pytest.approx(float(d.sum()))
    assert p.nominal == pytest.approx(0.8 * float(d.sum()))
    s = [np.log(mech.output_probabilities(cloud.get_index(y)))
         - np.log(mech.output_probabilities(cloud.get_index(x)))
         for x, y in (("cat", "car"), ("tea", "box"))]
    up, down = sum(float(v.max()) for v in s), sum(float(-v.min()) for v in s)
    assert p.exact_loss == pytest.approx(max(up, down), rel=1e-9)
    assert p.lower <= p.exact_loss <= p.nominal * (1 + 1e-12)
    m = distinguish_documents(EarthMoversPrivacy(cloud, epsilon=0.8), a, b, draws=4000,
                              rng=4).pairs[0]
    assert m.exact_loss is None and m.lower <= m.nominal and m.trials == 2000


def test_documents_must_share_a_layout(cloud):
    mech = SanText(cloud, epsilon=1.0)
    for other in ("The cat saw a dog; tea.", "the cat saw a dog. Tea.", "The cat saw a dog."):
        with pytest.raises(ValueError, match="do not have one layout"):
            distinguish_documents(mech, "The cat saw a dog. Tea.", other, draws=10)
    with pytest.raises(ValueError, match="release the same words"):
        distinguish_documents(mech, "The cat.", "The cat.", draws=10)


# -- the pairs -----------------------------------------------------------------------------
def test_a_lower_bound_at_the_ceiling_says_so():
    """Two words far apart at a large ε: every release tells them apart, the lower bound is
    the most the draws can show, and the table marks it "(the ceiling)" (issue 30, 15)."""
    emb = toy_line(spacing=10.0)
    hat = distinguish_pairs(SanText(emb, epsilon=20.0), [("l", "r")], draws=200, rng=0)
    far = hat.pairs[0]
    assert far.lower == pytest.approx(hat.ceiling) and hat.at_ceiling(far)
    assert f"| {far.lower:.4g} (the ceiling) |" in hat.table()[-1]
    weak = distinguish_pairs(SanText(emb, epsilon=0.01), [("l", "r")], draws=200, rng=0)
    assert not weak.at_ceiling(weak.pairs[0]) and "ceiling)" not in weak.table()[-1]


def test_choose_pairs_spreads_the_distances():
    points = [0.0, 1.0, 3.0, 6.0, 10.0, 15.0, 21.0, 21.0]  # the last two share a vector
    emb = Embeddings([f"w{i}" for i in range(8)], [[v] for v in points])
    mech = SanText(emb, epsilon=1.0)
    pairs = choose_pairs(mech, np.arange(8), 4, rng=0)
    d = guarantee_distance(mech, [a for a, _ in pairs], [b for _, b in pairs])
    assert len(set(pairs)) == 4 and all(a != b for a, b in pairs)
    assert d.tolist() == sorted(d.tolist())
    assert d[0] == 1.0 and d[-1] == 21.0  # the closest and the farthest pair
    assert 0.0 not in d.tolist()
    assert choose_pairs(mech, np.arange(8), 4, rng=0) == pairs  # seeded
    assert len(choose_pairs(mech, [0, 1, 2], 10, rng=0)) == 3  # as many as there are
    with pytest.raises(ValueError, match="at least two distinct secret words; got 1"):
        choose_pairs(mech, [3], 2)
    with pytest.raises(ValueError, match="at distance 0"):
        choose_pairs(mech, [6, 7], 1)


def test_guarantee_distance_is_the_mechanisms_metric(cloud):
    mahal = make_mechanism("mahalanobis", cloud, epsilon=1.0, lam=0.7)
    a, b = cloud.rows(["cat", "car"]), cloud.rows(["dog", "sun"])
    want = mahal.distance(cloud.vectors[a], cloud.vectors[b])
    np.testing.assert_allclose(guarantee_distance(mahal, a, b), want, rtol=1e-12)
    eu = np.linalg.norm(cloud.vectors[a].astype(np.float64) - cloud.vectors[b], axis=1)
    np.testing.assert_allclose(guarantee_distance(SanText(cloud, epsilon=1.0), a, b), eu)
    assert not np.allclose(want, eu)


class _Verbatim(WordMechanism):
    """A mechanism that releases every word as it is and states no metric."""

    name = "verbatim"

    def privatize_indices(self, indices, *, rng=None):
        return self.check_indices(indices)


def test_a_mechanism_without_a_metric_has_no_nominal_bound(cloud):
    r = distinguish_pairs(_Verbatim(cloud, epsilon=1.0), PAIRS[:2], draws=400, rng=0)
    p = r.pairs[0]
    assert p.distance is None and p.nominal is None and p.tightness is None
    assert p.lower == pytest.approx(r.ceiling)  # told apart every time: the draws' limit
    assert r.tightness is None and r.summary()["nominal"] is None
    assert choose_pairs(_Verbatim(cloud, epsilon=1.0), np.arange(12), 2, rng=0)


# -- the batch path, seeds, values ---------------------------------------------------------
def test_the_pairs_go_through_the_batch_path(cloud, monkeypatch):
    calls = spy_batch_path(monkeypatch)
    distinguish_pairs(EarthMoversPrivacy(cloud, epsilon=1.0), PAIRS, draws=500, rng=0)
    assert calls == [[8 * 500]]  # 8 distinct words, one call


@pytest.mark.parametrize("name", ["madlib", "santext"])
def test_seeded_runs_are_reproducible(cloud, name):
    mech = make_mechanism(name, cloud, epsilon=1.0)
    a = distinguish_pairs(mech, PAIRS, draws=300, rng=11)
    b = distinguish_pairs(mech, PAIRS, draws=300, rng=11)
    c = distinguish_pairs(mech, PAIRS, draws=300, rng=12)
    assert a == b and a.summary() == b.summary()  # `seconds` is not compared
    assert a != c


def test_bad_values(cloud):
    mech = SanText(cloud, epsilon=1.0)
    with pytest.raises(ValueError, match="draws must be an integer >= 2; got 1"):
        distinguish_pairs(mech, PAIRS, draws=1)
    with pytest.raises(ValueError, match="must differ; got 'cat' twice"):
        distinguish_pairs(mech, [("cat", "cat")])
    with pytest.raises(ValueError, match="'zebra' is not in the vocabulary of 'cloud'"):
        distinguish_pairs(mech, [("cat", "zebra")])
    with pytest.raises(ValueError, match="at least one pair"):
        distinguish_pairs(mech, [])
    with pytest.raises(ValueError, match="each pair must be two words"):
        distinguish_pairs(mech, [("cat",)])
    with pytest.raises(ValueError, match="method must be one of"):
        distinguish_pairs(mech, PAIRS, method="best")
    with pytest.raises(ValueError, match="confidence must be a number in"):
        distinguish_pairs(mech, PAIRS, confidence=1.5)
    r = distinguish_pairs(mech, [(0, 1)], draws=10, rng=0)  # rows work too
    assert (r.pairs[0].first, r.pairs[0].second) == ("cat", "dog")


def test_read_word_pairs(tmp_path, cloud):
    f = tmp_path / "pairs.txt"
    f.write_text("# pairs\ncat dog\n\n  car\tbus  \n", encoding="utf-8")
    assert read_word_pairs(f, cloud) == [("cat", "dog"), ("car", "bus")]
    cases = {
        "cat\n": "line 1: expected two words separated by whitespace; got 1 field",
        "cat dog\ncat dog car\n": "line 2: expected two words separated by whitespace; "
                                  "got 3 fields",
        "cat cat\n": "line 1: the two words are the same word",
        "cat zebra\n": "line 1: word 'zebra' is not in the vocabulary of 'cloud'",
        "# none\n\n": "holds no pair of words",
    }
    for text, message in cases.items():
        f.write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match=message):
            read_word_pairs(f, cloud)
    with pytest.raises(InputError, match="does not exist"):
        read_word_pairs(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="is a directory"):
        read_word_pairs(tmp_path)
    f.write_bytes(b"\xff\xfe cat")
    with pytest.raises(InputError, match="is not utf-8 text"):
        read_word_pairs(f)


def test_pairs_are_read_as_a_corpus_is(tmp_path, cloud):
    """A corpus's words are lowercased, so are a pairs file's (issue 30, item 15): "Cat"
    was "not in the vocabulary", and "Cat cat" two different words."""
    f = tmp_path / "pairs.txt"
    f.write_text("Cat DOG\nＣａｒ bus\n", encoding="utf-8")
    assert read_word_pairs(f, cloud) == [("cat", "dog"), ("car", "bus")]
    f.write_text("Cat cat\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 1: the two words are the same word"):
        read_word_pairs(f, cloud)
    r = distinguish_pairs(SanText(cloud, epsilon=1.0), [("Cat", "Dog")], draws=20, rng=0)
    assert (r.pairs[0].first, r.pairs[0].second) == ("cat", "dog")


# -- the command line ----------------------------------------------------------------------
TEXT = ("The cat saw the dog by the harbour. The cat was quiet; a bus drifted past the "
        "factory. Cat and dog!")


@pytest.fixture
def env(tmp_path):
    return input_env(tmp_path, TEXT)


def _audit(env, *args):
    return ["audit", str(env["text"]), "--embeddings", str(env["emb"]), "-q", *args]


def test_cli_json_has_epsilon_hat_per_epsilon(env, capsys):
    code, out, err = run_cli(_audit(env, "-e", "1,3", "--draws", "20", "--seed", "3",
                                    "--json", "--distinguish", "3", "--distinguish-draws",
                                    "400"), capsys)
    assert code == 0 and err == ""
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["epsilon"] for o in objects] == [1.0, 3.0]
    for o in objects:
        hat = o["epsilon_hat"]
        assert {"estimate", "lower", "nominal", "pair", "tightness", "confidence", "draws",
                "method", "ceiling", "pairs"} <= set(hat)
        assert hat["method"] == "split-half" and hat["draws"] == 400
        assert len(hat["pairs"]) == 3
        for p in hat["pairs"]:
            assert p["nominal"] == pytest.approx(o["epsilon"] * p["distance"])
            assert 0 <= p["lower"] <= p["nominal"]
        assert hat["lower"] == max(p["lower"] for p in hat["pairs"])
    # the same pairs at every ε
    assert ([p["first"] for p in objects[0]["epsilon_hat"]["pairs"]]
            == [p["first"] for p in objects[1]["epsilon_hat"]["pairs"]])
    code, out, _ = run_cli(_audit(env, "-e", "1", "--draws", "20", "--json"), capsys)
    assert code == 0 and json.loads(out)["epsilon_hat"] is None  # not asked for


def test_cli_pairs_file_and_the_out_files(env, capsys):
    pairs = env["in"] / "pairs.txt"
    pairs.write_text("cat dog\nbus factory\n", encoding="utf-8")
    where = env["out"] / "audit"
    code, _, _ = run_cli(_audit(env, "-e", "1", "--mechanism", "tem", "--distinguish",
                                str(pairs), "--distinguish-draws", "500", "--seed", "2",
                                "--out", str(where)), capsys)
    assert code == 0
    assert sorted(p.name for p in where.iterdir()) == ["audit.csv", "audit.json", "audit.md",
                                                       "audit.png", "distinguish.csv"]
    report = json.loads((where / "audit.json").read_text(encoding="utf-8"))
    assert report["settings"]["distinguish"] == {
        "pairs": [["cat", "dog"], ["bus", "factory"]], "pairs_file": str(pairs), "draws": 500}
    assert "--distinguish" in report["settings"]["command"]
    hat = report["results"][0]["epsilon_hat"]
    assert hat["method"] == "likelihood-ratio"
    assert [(p["first"], p["second"]) for p in hat["pairs"]] == [("cat", "dog"),
                                                                ("bus", "factory")]
    for p in hat["pairs"]:
        assert p["lower"] <= p["exact_loss"] <= p["nominal"] + 1e-12
    md = (where / "audit.md").read_text(encoding="utf-8")
    assert "ε̂, tem at ε = 1" in md and "| cat / dog |" in md
    csv_text = (where / "audit.csv").read_text(encoding="utf-8").splitlines()
    assert csv_text[0].endswith(",kind,epsilon_hat,epsilon_hat_lower,epsilon_hat_nominal,"
                                "epsilon_hat_tightness")
    rows = (where / "distinguish.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("mechanism,epsilon,method,draws,confidence,first,second")
    assert len(rows) == 3 and rows[1].startswith("tem,1.0,likelihood-ratio,500,0.95,cat,dog")


def test_cli_same_seed_same_epsilon_hat(env, capsys):
    args = _audit(env, "-e", "2", "--draws", "20", "--seed", "9", "--json",
                  "--distinguish", "2", "--distinguish-draws", "300")
    first = json.loads(run_cli(args, capsys)[1])["epsilon_hat"]
    second = json.loads(run_cli(args, capsys)[1])["epsilon_hat"]
    assert first == second


def test_cli_epsilon_hat_leaves_the_other_figures_alone(env, capsys):
    """ε̂ draws from a stream of its own: with one seed, the audit's figures are the same
    with --distinguish and without."""
    args = _audit(env, "-e", "1", "--draws", "30", "--seed", "4", "--json")
    plain = json.loads(run_cli(args, capsys)[1])
    both = json.loads(run_cli([*args, "--distinguish", "2", "--distinguish-draws", "100"],
                              capsys)[1])
    assert both["epsilon_hat"] is not None
    for o in (plain, both):
        del o["seconds"], o["epsilon_hat"]
    assert plain == both


@pytest.mark.parametrize(("args", "message"), [
    (["--distinguish", "0"],
     "--distinguish must be a number of pairs >= 1 or a file of word pairs; got '0'"),
    (["--distinguish", "-3"],
     "--distinguish must be a number of pairs >= 1 or a file of word pairs; got '-3'"),
    (["--distinguish", "{root}/nope.txt"], "pairs file '{root}/nope.txt' does not exist"),
    (["--distinguish", "{root}"], "pairs file '{root}' is a directory, not a file"),
    (["--distinguish", "{root}/p.txt"],
     "pairs file '{root}/p.txt', line 2: expected two words separated by whitespace; got 1 "
     "field"),
    (["--distinguish", "{root}/same.txt"],
     "pairs file '{root}/same.txt', line 1: the two words are the same word"),
    (["--distinguish", "{root}/oov.txt"],
     "pairs file '{root}/oov.txt', line 1: word 'zebra' is not in the vocabulary of "
     "'emb.txt'"),
    (["--distinguish", "{root}/empty.txt"], "pairs file '{root}/empty.txt' holds no pair of "
     "words"),
    (["--distinguish", "2", "--distinguish-draws", "1"],
     "Invalid value for '--distinguish-draws': Input should be greater than or equal to 2 "
     "(see 'emprivacy audit --help')"),
    (["--distinguish", "2", "--secrets", "1"],
     "--distinguish: pairs need at least two distinct secret words; got 1"),
    (["--distinguish", "{root}/in/distinguish.csv", "--out", "{root}/in"],
     "output '{root}/in/distinguish.csv' is also an input ('{root}/in/distinguish.csv'); "
     "write the output elsewhere"),
])
def test_cli_errors_are_one_line_exit_2(env, capsys, args, message):
    root = env["root"]
    (root / "p.txt").write_text("cat dog\ncat\n", encoding="utf-8")
    (root / "same.txt").write_text("dog dog\n", encoding="utf-8")
    (root / "oov.txt").write_text("cat zebra\n", encoding="utf-8")
    (root / "empty.txt").write_text("# nothing here\n", encoding="utf-8")
    (root / "in" / "distinguish.csv").write_text("cat dog\n", encoding="utf-8")
    before = sorted(p.name for p in root.rglob("*"))
    code, out, err = run_cli(_audit(env, "-e", "1", *[a.format(root=root) for a in args]),
                             capsys)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"emprivacy: error: {message.format(root=root)}"]
    assert sorted(p.name for p in root.rglob("*")) == before
    assert list(env["out"].iterdir()) == []


def test_distinguishability_is_exported():
    import emprivacy.protection as api

    assert api.Distinguishability is Distinguishability
    assert {"distinguish_pairs", "distinguish_documents", "epsilon_lower_bound",
            "choose_pairs", "read_word_pairs", "guarantee_distance"} <= set(api.__all__)


# -- two documents on the command line -----------------------------------------------------
OTHER = ("The dog saw the cat by the harbour. The cat was quiet; a car drifted past the "
         "factory. Cat and dog!")  # TEXT with cat/dog swapped and bus -> car: 3 positions


def _docs(env):
    other = env["in"] / "b.txt"
    other.write_text(OTHER, encoding="utf-8")
    return f"{env['text']},{other}", (str(env["text"]), str(other))


def test_cli_json_has_every_figure_per_mechanism_and_epsilon(env, capsys):
    """Issue 23 item 5: --json prints, per ε and mechanism, prior_vulnerability,
    posterior_vulnerability and attack_recovery (estimate, lower, upper),
    multiplicative_leakage, capacity and epsilon_hat per pair set (the word pairs and the
    two documents: estimate and lower bound)."""
    docs, (first, second) = _docs(env)
    code, out, err = run_cli(_audit(env, "-e", "1,4", "--mechanism", "santext,madlib",
                                    "--draws", "20", "--seed", "3", "--json",
                                    "--distinguish", "2", "--distinguish-documents", docs,
                                    "--distinguish-draws", "300"), capsys)
    assert code == 0 and err == ""
    objects = [json.loads(line) for line in out.splitlines()]
    assert [(o["mechanism"], o["epsilon"]) for o in objects] == [
        ("santext", 1.0), ("santext", 4.0), ("madlib", 1.0), ("madlib", 4.0)]
    for o in objects:
        assert isinstance(o["prior_vulnerability"], float)
        for key in ("posterior_vulnerability", "attack_recovery", "multiplicative_leakage",
                    "capacity"):
            assert o[key]["lower"] <= o[key]["estimate"] <= o[key]["upper"]
        words, documents = o["epsilon_hat"], o["epsilon_hat_documents"]
        assert words["inputs"] == "words" and len(words["pairs"]) == 2
        assert documents["inputs"] == "documents" and len(documents["pairs"]) == 1
        for hat in (words, documents):
            assert 0.0 <= hat["lower"] and isinstance(hat["estimate"], float)
            assert hat["lower"] <= hat["nominal"]
        p = documents["pairs"][0]
        assert documents["pair"] == [first, second] == [p["first"], p["second"]]
        # cat <-> dog twice, bus -> car once: each 1 apart in the embeddings file
        assert p["positions"] == 3 and p["distance"] == pytest.approx(3.0)
        assert p["nominal"] == pytest.approx(3.0 * o["epsilon"])
        if o["mechanism"] == "santext":  # the law is known: the exact loss, below ε·Σd
            assert documents["method"] == "likelihood-ratio"
            assert p["lower"] <= p["exact_loss"] <= p["nominal"] * (1 + 1e-12)
        else:
            assert documents["method"] == "split-half" and p["exact_loss"] is None
    code, out, _ = run_cli(_audit(env, "-e", "1", "--draws", "20", "--json"), capsys)
    assert json.loads(out)["epsilon_hat_documents"] is None  # not asked for


def test_cli_documents_in_every_file(env, capsys):
    docs, (first, second) = _docs(env)
    where = env["out"] / "audit"
    code, _, _ = run_cli(_audit(env, "-e", "2", "--mechanism", "tem", "--seed", "2",
                                "--distinguish-documents", docs, "--distinguish-draws", "400",
                                "--out", str(where)), capsys)
    assert code == 0
    assert sorted(p.name for p in where.iterdir()) == ["audit.csv", "audit.json", "audit.md",
                                                       "audit.png", "distinguish.csv"]
    report = json.loads((where / "audit.json").read_text(encoding="utf-8"))
    assert report["settings"]["distinguish_documents"] == {"documents": [first, second],
                                                           "draws": 400}
    assert f"--distinguish-documents {first},{second}" in report["settings"]["command"]
    hat = report["results"][0]["epsilon_hat_documents"]
    assert report["results"][0]["epsilon_hat"] is None
    md = (where / "audit.md").read_text(encoding="utf-8")
    assert "ε̂ of two documents, tem at ε = 2: 400 releases of each input" in md
    assert f"| {first} / {second} | 3 | 3 | 6 |" in md
    rows = list(csv.DictReader(io.StringIO((where / "audit.csv").read_text(encoding="utf-8"))))
    assert float(rows[0]["epsilon_hat_documents_lower"]) == hat["lower"]
    assert float(rows[0]["epsilon_hat_documents_nominal"]) == pytest.approx(6.0)
    assert "epsilon_hat" not in rows[0]  # no word pairs asked for
    pairs = list(csv.DictReader(io.StringIO(
        (where / "distinguish.csv").read_text(encoding="utf-8"))))
    assert [(r["first"], r["second"], r["positions"], r["inputs"]) for r in pairs] == [
        (first, second, "3", "documents")]


def test_cli_documents_leave_the_other_figures_alone(env, capsys):
    """The documents' ε̂ draws from a stream of its own: with one seed, the word pairs'
    ε̂ and the audit's figures are the same with --distinguish-documents and without."""
    docs, _ = _docs(env)
    args = _audit(env, "-e", "1", "--draws", "30", "--seed", "4", "--json", "--distinguish",
                  "2", "--distinguish-draws", "100")
    plain = json.loads(run_cli(args, capsys)[1])
    both = json.loads(run_cli([*args, "--distinguish-documents", docs], capsys)[1])
    assert both["epsilon_hat_documents"] is not None and plain["epsilon_hat_documents"] is None
    again = json.loads(run_cli([*args, "--distinguish-documents", docs], capsys)[1])
    assert again["epsilon_hat_documents"] == both["epsilon_hat_documents"]  # seeded
    for o in (plain, both):
        del o["seconds"], o["epsilon_hat_documents"]
    assert plain == both


@pytest.mark.parametrize(("value", "message"), [
    ("{a}", "--distinguish-documents must be two text files separated by a comma "
            "(A.txt,B.txt); got '{a}'"),
    ("{a},{b},{a}", "--distinguish-documents must be two text files separated by a comma "
                    "(A.txt,B.txt); got '{a},{b},{a}'"),
    ("{a},", "--distinguish-documents must be two text files separated by a comma "
             "(A.txt,B.txt); got '{a},'"),
    ("-,{b}", "--distinguish-documents cannot read standard input ('-'); give two files"),
    ("{a},{root}/nope.txt", "input file '{root}/nope.txt' does not exist"),
    ("{a},{root}", "--distinguish-documents: '{root}' is a directory, not a text file"),
    ("{a},{root}/latin1.txt", "input file '{root}/latin1.txt' is not valid UTF-8 (byte 7)"),
    ("{a},{root}/layout.txt",
     "--distinguish-documents: documents '{a}' and '{root}/layout.txt' do not have one "
     "layout (the text around the perturbed words, their capitalisation or their number "
     "differ): the layout alone tells them apart"),
    ("{a},{root}/copy.txt",
     "--distinguish-documents: documents '{a}' and '{root}/copy.txt' release the same "
     "words: nothing to tell apart"),
    ("{a},{root}/in/audit.md",
     "output '{root}/in/audit.md' is also an input ('{root}/in/audit.md'); write the output "
     "elsewhere"),
])
def test_cli_documents_errors_are_one_line_exit_2(env, capsys, value, message):
    root = env["root"]
    b = env["in"] / "b.txt"
    b.write_text(OTHER, encoding="utf-8")
    (root / "latin1.txt").write_bytes("The cat\xe9.".encode("latin-1"))
    (root / "layout.txt").write_text(TEXT.replace("quiet;", "quiet,"), encoding="utf-8")
    (root / "copy.txt").write_text(TEXT, encoding="utf-8")
    (root / "in" / "audit.md").write_text(OTHER, encoding="utf-8")
    before = sorted(p.name for p in root.rglob("*"))
    fmt = {"a": env["text"], "b": b, "root": root}
    code, out, err = run_cli(_audit(env, "-e", "1", "--distinguish-documents",
                                    value.format(**fmt), "--out", str(root / "in")), capsys)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"emprivacy: error: {message.format(**fmt)}"]
    assert sorted(p.name for p in root.rglob("*")) == before
    assert list(env["out"].iterdir()) == []
