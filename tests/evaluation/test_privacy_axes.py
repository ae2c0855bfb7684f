"""One privacy scale in ``evaluate``: the word recovery (and ε̂) beside author identification,
in the results, the report files, the frontier and on the command line (synthetic data)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from emprivacy.cli import main
from emprivacy.evaluation.experiment import run_experiment
from emprivacy.evaluation.frontier import (
    frontier_figure,
    frontier_points,
    frontier_table,
    privacy_axes,
)
from emprivacy.evaluation.report import format_table3, report_files
from emprivacy.math.randomness import document_generator, run_key_from_seed
from emprivacy.protection import release_recovery

from .conftest import synthetic_records


@pytest.fixture(scope="module")
def graded(synth_corpus, synth_embeddings):
    """madlib at a spread of ε, with ε̂ on 3 pairs (2 trials)."""
    return run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
                          epsilons=(None, 0.005, 2.0, 50.0), trials=2, seed=11,
                          epsilon_hat=3, epsilon_hat_draws=400)


def test_recovery_is_measured_on_the_runs_own_releases(synth_result, synth_embeddings):
    """The recovery at ε is release_recovery on the (original, release) pairs of every
    trial at ε, split by the run's own stream: recomputed here from the releases."""
    from emprivacy.decoding import ExactDecoder
    from emprivacy.evaluation.datasets import from_records, prepare_set, select_authors
    from emprivacy.evaluation.experiment import _mechanism, _obfuscate

    corpus = from_records(synthetic_records(), name="synthetic")
    p = prepare_set(select_authors(corpus, 6, seed=0), embeddings=synth_embeddings,
                    oov="drop", known_fraction=2 / 3)
    key = run_key_from_seed(7)
    decoder = ExactDecoder(synth_embeddings)
    cfg = synth_result.config
    pairs = []
    for t in range(2):
        mech = _mechanism(cfg, synth_embeddings, 0.005, decoder,
                          document_generator(key, f"set-6/trial-{t}/epsilon-0.005/mechanism"))
        pairs.append(_obfuscate(p, mech, synth_embeddings)[2])
    o = np.concatenate([a for a, _ in pairs])
    y = np.concatenate([b for _, b in pairs])
    expected = release_recovery(o, y, rng=document_generator(key, "set-6/epsilon-0.005/"
                                                                   "recovery"))
    (s,) = synth_result.sets
    none, noisy = s.recovery
    assert noisy == expected and noisy.words == 2 * sum(len(x) for x in p.snippets)
    assert none.exact and none.estimate == 1.0 and none.baseline == noisy.baseline
    assert s.epsilon_hat == [None, None]  # not asked for


def test_recovery_rises_with_epsilon(graded):
    (s,) = graded.sets
    rec = s.recovery
    assert [r.exact for r in rec] == [True, False, False, False]
    # ε = 0.005 hides the words (at most about the blind guess); ε = 50 gives them back
    assert rec[1].lower <= rec[1].baseline + 0.05 and rec[3].lower > 0.9
    assert rec[1].estimate < rec[2].estimate < rec[3].estimate
    for r in rec[1:]:
        assert 0 <= r.lower <= r.estimate <= r.upper <= 1 and r.upper <= 1
        assert r.plugin_upper >= r.lower  # the optimum's upper bound above the attack's lower


def test_epsilon_hat_is_measured_per_epsilon_on_its_own_streams(graded, synth_corpus,
                                                                synth_embeddings):
    (s,) = graded.sets
    assert s.epsilon_hat[0] is None  # the unmodified snippets have no ε̂
    for h, eps in zip(s.epsilon_hat[1:], (0.005, 2.0, 50.0), strict=True):
        assert len(h["pairs"]) == 3 and h["draws"] == 400
        assert h["lower"] >= 0 and h["lower"] <= h["nominal"] + 1e-9
        for pair in h["pairs"]:
            assert pair["nominal"] == pytest.approx(eps * pair["distance"])
    # the pairs are the same at every ε, and asking for ε̂ changes nothing else
    pairs = [tuple(tuple(p[k] for k in ("first", "second")) for p in h["pairs"])
             for h in s.epsilon_hat[1:]]
    assert len(set(pairs)) == 1
    plain = run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
                           epsilons=(None, 0.005, 2.0, 50.0), trials=2, seed=11)
    np.testing.assert_array_equal(plain.sets[0].correct, s.correct)
    assert plain.sets[0].recovery == s.recovery
    assert plain.sets[0].epsilon_hat == [None] * 4


def test_run_json_records_recovery_and_epsilon_hat(graded):
    d = json.loads(json.dumps(graded.to_dict()))
    sd = d["sets"][0]
    assert list(sd["recovery"]) == ["none", "0.005", "2", "50"]
    assert sd["recovery"]["none"]["kind"] == "exact"
    r = sd["recovery"]["2"]
    assert r["kind"] == "estimate" and r["estimate"] == graded.sets[0].recovery[2].estimate
    assert set(r) >= {"estimate", "lower", "upper", "plugin", "plugin_upper", "baseline",
                      "words", "test_words", "confidence", "prior_weight"}
    assert sd["epsilon_hat"]["none"] is None and sd["epsilon_hat"]["2"]["lower"] >= 0
    assert d["config"]["epsilon_hat"] == 3 and d["config"]["epsilon_hat_draws"] == 400
    assert "recovery" in d["metadata"] and "argmax" in d["metadata"]["recovery"]
    assert "recovery" in d["sets"][0]["timings"]


def test_report_has_the_recovery_in_table3(graded):
    (s,) = graded.sets
    md = format_table3(graded)
    assert "### 6-author set: word recovery" in md
    assert "| ε | word recovery | optimum ≤ | prior only | ε̂ (lower bound) | ε·d | pair |" in md
    r = s.recovery[2]
    assert f"| 2 | {r.estimate:.3f} [{r.lower:.3f}, {r.upper:.3f}] | {r.plugin_upper:.3f} |" \
        in md
    assert "| none | 1 (exact) |" in md
    files = report_files(graded)
    rows = list(csv.DictReader(files["table3.csv"].decode().splitlines()))
    assert [r_["epsilon"] for r_ in rows] == ["none", "0.005", "2", "50", "chance"]
    for i, row in enumerate(rows[:4]):
        rec = s.recovery[i]
        assert float(row["6-author recovery"]) == rec.estimate
        assert float(row["6-author recovery lower"]) == rec.lower
        assert float(row["6-author recovery upper"]) == rec.upper
        assert float(row["6-author recovery optimum upper"]) == rec.plugin_upper
        hat = s.epsilon_hat[i]
        assert row["6-author epsilon_hat lower"] == ("" if hat is None else repr(hat["lower"]))
    assert float(rows[4]["6-author recovery"]) == s.recovery[1].baseline
    assert rows[4]["6-author recovery lower"] == ""


def test_report_without_epsilon_hat_has_no_epsilon_hat_columns(synth_result):
    files = report_files(synth_result)
    header = files["table3.csv"].decode().splitlines()[0].split(",")
    assert "6-author recovery" in header
    assert not any("epsilon_hat" in h for h in header)
    assert "ε̂" not in format_table3(synth_result)


def test_the_accuracy_plot_has_the_recovery(graded):
    from emprivacy.evaluation.report import accuracy_figure

    (ax,) = accuracy_figure(graded).axes
    line = next(c for c in ax.containers if c.get_label() == "word recovery")
    np.testing.assert_allclose(line.lines[0].get_ydata(),
                               [r.estimate for r in graded.sets[0].recovery])
    base = [x for x in ax.lines if x.get_label() == "prior only (recovery)"]
    assert base and base[0].get_ydata()[0] == graded.sets[0].recovery[1].baseline


def test_frontier_gains_a_row_per_privacy_axis(graded, synth_result):
    assert privacy_axes([graded]) == ("author", "recovery", "epsilon_hat")
    assert privacy_axes([graded, synth_result]) == ("author", "recovery")
    fig = frontier_figure([graded])
    assert len(fig.axes) == 3
    _, recovery, hat = fig.axes
    assert recovery.get_ylabel() == "word recovery (privacy lost) →"
    assert hat.get_ylabel().startswith("ε̂, lower bound")
    pts = frontier_points(graded)
    (bars,) = [c for c in recovery.containers if c.get_label() == "madlib"]
    np.testing.assert_allclose(bars.lines[0].get_ydata(), [p["recovery"] for p in pts])
    _, _, (_, ybars) = bars.lines
    seg = np.array(ybars.get_segments())
    np.testing.assert_allclose(seg[:, 0, 1], [p["recovery_lower"] for p in pts])
    np.testing.assert_allclose(seg[:, 1, 1], [p["recovery_upper"] for p in pts])
    (hb,) = [c for c in hat.containers if c.get_label() == "madlib"]
    assert len(hb.lines[0].get_ydata()) == 3  # "none" has no ε̂
    base = [x for x in recovery.lines if x.get_label() == "prior only (recovery)"]
    assert base[0].get_ydata()[0] == pytest.approx(pts[0]["recovery_baseline"])
    fig.canvas.draw()
    (legend,) = fig.legends
    assert not any(legend.get_window_extent().overlaps(a.get_window_extent())
                   for a in fig.axes)
    # an explicit choice of rows, and a bad one
    assert len(frontier_figure([graded], privacy=["recovery"]).axes) == 1
    with pytest.raises(ValueError, match="privacy must hold axes among 'author'"):
        frontier_figure([graded], privacy=["nope"])


def test_frontier_table_has_the_recovery_and_epsilon_hat(graded, synth_result):
    table = frontier_table([graded])
    head = table.splitlines()[0]
    assert "word recovery | optimum ≤ | ε̂ (lower bound) | ε·d |" in head
    r = graded.sets[0].recovery[3]
    assert "| madlib | 6 | 50 |" in table and f"{r.estimate:.3f} [{r.lower:.3f}, " in table
    assert "ε̂" not in frontier_table([synth_result])


def test_cli_epsilon_hat_goes_into_every_file(tmp_path, synth_embeddings, capsys):
    from emprivacy.evaluation.attacks import write_vec

    data = tmp_path / "corpus.csv"
    with open(data, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["author", "topic", "text"])
        w.writeheader()
        w.writerows(synthetic_records())
    vec = write_vec(synth_embeddings, tmp_path / "synthetic.vec")
    out = tmp_path / "out"
    code = main(["evaluate", "--dataset", str(data), "--embeddings", str(vec), "--authors",
                 "6", "--epsilons", "none,0.5", "--trials", "1", "--out", str(out), "--seed",
                 "3", "--quiet", "--mechanisms", "madlib,santext", "--epsilon-hat", "2",
                 "--epsilon-hat-draws", "300"])
    assert code == 0
    for name in ("madlib", "santext"):
        run = json.loads((out / name / "run.json").read_text(encoding="utf-8"))
        assert run["config"]["epsilon_hat"] == 2
        assert "--epsilon-hat 2 --epsilon-hat-draws 300" in run["command"]
        hat = run["sets"][0]["epsilon_hat"]["0.5"]
        assert len(hat["pairs"]) == 2 and hat["draws"] == 300
        assert hat["method"] == ("likelihood-ratio" if name == "santext" else "split-half")
        assert run["sets"][0]["recovery"]["0.5"]["kind"] == "estimate"
    table = (out / "frontier.md").read_text(encoding="utf-8")
    assert "ε̂ (lower bound)" in table and "word recovery" in table
    assert (out / "frontier.png").read_bytes().startswith(b"\x89PNG")
    capsys.readouterr()
    assert main(["evaluate", "--dataset", str(data), "--embeddings", str(vec), "--out",
                 str(tmp_path / "x"), "--epsilon-hat", "0", "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--epsilon-hat" in err
