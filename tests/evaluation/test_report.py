"""The report files exist and hold exactly the numbers the runner computed."""

from __future__ import annotations

import csv
import json
import math
import os

import numpy as np
import pytest

from emprivacy.evaluation.report import REPORT_FILES, format_table3, write_report
from emprivacy.evaluation.results import ATTACKS


@pytest.fixture(scope="module")
def report(synth_result, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "results"
    paths = write_report(synth_result, out, command="emprivacy evaluate --seed 7")
    return out, paths


def test_all_files_written_and_nothing_else(report):
    out, paths = report
    assert sorted(paths) == sorted(REPORT_FILES)
    assert sorted(p.name for p in out.iterdir()) == sorted(REPORT_FILES)  # no temp leftovers
    assert all(p.stat().st_size > 0 for p in paths.values())
    umask = os.umask(0o022)
    os.umask(umask)
    assert {p.stat().st_mode & 0o777 for p in paths.values()} == {0o666 & ~umask}


def test_table3_csv_holds_the_runner_means_and_sds(report, synth_result):
    out, _ = report
    (s,) = synth_result.sets
    with open(out / "table3.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["epsilon"] for r in rows] == ["none", "0.005", "chance"]
    mean, sd = s.mean(), s.sd()
    for i in range(2):
        for a, name in enumerate(ATTACKS):
            assert float(rows[i][f"6-author {name} mean"]) == mean[i, a]
            assert float(rows[i][f"6-author {name} sd"]) == pytest.approx(sd[i, a], abs=0)
    assert float(rows[2]["6-author SRauth mean"]) == 1.0
    assert float(rows[2]["6-author DRtopic mean"]) == 3.0


def test_trials_csv_holds_every_count(report, synth_result):
    out, _ = report
    (s,) = synth_result.sets
    with open(out / "trials.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == s.correct.size
    labels = {"none": 0, "0.005": 1}
    for r in rows:
        e, t, a = labels[r["epsilon"]], int(r["trial"]) - 1, ATTACKS.index(r["attack"])
        assert int(r["correct"]) == s.correct[e, t, a] and r["out_of"] == "6"


def test_table3_markdown_shows_mean_sd_chance_and_command(report, synth_result):
    out, _ = report
    (s,) = synth_result.sets
    text = (out / "table3.md").read_text()
    assert "| ε | SRauth | SRtopic | DRauth | DRtopic |" in text
    row = f"| none | {s.mean()[0, 0]:.1f} ± {s.sd()[0, 0]:.1f} | "
    assert row in text
    noisy = " | ".join(f"{m:.1f} ± {d:.1f}" for m, d in zip(s.mean()[1], s.sd()[1], strict=True))
    assert f"| 0.005 | {noisy} |" in text
    assert "| chance | 1 | 3 | 1 | 3 |" in text
    assert f"N = {s.N} words" in text
    assert "Made by: `emprivacy evaluate --seed 7`" in text
    assert format_table3(synth_result) in text
    assert "Known texts: **whole**" in text
    assert "| ε | SRauth | koppel/all | delta/all | char/all | koppel/unchanged | " in text
    section = text.split("author identification, every attack")[1].split("###")[0]
    (row,) = [r for r in section.splitlines() if r.startswith("| 0.005 |")]
    adversary = {c: m for c, m in s.author_means(1).items() if not c.endswith("/unchanged")}
    best = max(adversary.values())
    assert row.endswith(f" | {best:.1f} ({best / 6:.3f}, "
                        f"{max(adversary, key=adversary.get)}) |")
    whole = np.asarray(s.clean_drauth["whole"], dtype=float)
    assert (f"Clean DRauth (Koppel) out of 6: known texts whole ({min(s.known_words)}–"
            f"{max(s.known_words)} words): {whole.mean():.1f} ± {whole.std(ddof=1):.1f} "
            f"({whole.mean() / 6:.3f}) — this run; known texts truncated to N = {s.N}: ") in text


def test_run_json_is_the_result(report, synth_result):
    out, _ = report
    data = json.loads((out / "run.json").read_text())
    expected = json.loads(json.dumps(synth_result.to_dict()))
    assert data["command"] == "emprivacy evaluate --seed 7"
    del data["command"]
    assert data == expected
    s = synth_result.sets[0]
    assert data["sets"][0]["correct"]["0.005"]["DRauth"] == s.correct[1, :, 2].tolist()


def test_appendix_b_tables(report, synth_result):
    out, _ = report
    (s,) = synth_result.sets
    text = (out / "appendix_b.md").read_text()
    first = s.nearest[0]
    nb = first["neighbours"][0]
    assert f"| {first['doc_id']} ({first['author']}) | 1 | {nb['distance']:.3f} | " in text
    assert len(first["neighbours"]) == 3
    assert [n["distance"] for n in first["neighbours"]] == sorted(
        n["distance"] for n in first["neighbours"])
    for row in s.sample["rows"]:
        assert f"| {row['epsilon']} | " + " | ".join(w for w, _ in row["words"]) in text


def test_plot_is_a_png_with_one_panel_per_set(report):
    import matplotlib.image

    out, _ = report
    assert (out / "accuracy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = matplotlib.image.imread(out / "accuracy.png")
    assert img.ndim == 3 and img.shape[1] > img.shape[0] > 100


def test_sd_is_blank_for_a_single_trial(synth_result, tmp_path):
    import copy

    one = copy.deepcopy(synth_result)
    one.sets[0].correct = one.sets[0].correct[:, :1]
    assert np.isnan(one.sets[0].sd()).all()
    write_report(one, tmp_path)
    with open(tmp_path / "table3.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0]["6-author SRauth sd"] == ""
    assert "± nan" not in (tmp_path / "table3.md").read_text()
    assert json.loads((tmp_path / "run.json").read_text())["sets"][0]["sd"]["none"][
        "SRauth"] is None
    assert not math.isnan(float(rows[0]["6-author SRauth mean"]))


def test_write_report_errors(synth_result, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(ValueError, match="exists and is not a directory"):
        write_report(synth_result, f)
    with pytest.raises(TypeError, match="result must be an ExperimentResult"):
        write_report({}, tmp_path)


# -- issue 22 item 15: the report is written whole or not at all ------------------------------
def _failing_nth(real, n, error):
    """``real`` that raises ``error`` on its ``n``-th call (1-based) only."""
    calls = {"n": 0}

    def wrapper(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == n:
            raise error
        return real(*args, **kwargs)
    return wrapper


def _snapshot(directory):
    return {p.name: p.read_bytes() for p in directory.iterdir()}


@pytest.mark.parametrize("fails", ["write", "rename"])
def test_a_failure_midway_leaves_no_report_file_and_no_new_directory(synth_result, tmp_path,
                                                                       monkeypatch, fails):
    """A full disk at the third file (or a rename that fails after two are in place):
    nothing of the report is left, not even the directory it created."""
    import errno as errno_

    from emprivacy.exceptions import OutputWriteError
    from emprivacy.io import outputs

    error = OSError(errno_.ENOSPC, "No space left on device")
    if fails == "write":
        monkeypatch.setattr(outputs.os, "write", _failing_nth(os.write, 3, error))
    else:
        monkeypatch.setattr(outputs.os, "replace", _failing_nth(os.replace, 3, error))
    out = tmp_path / "new" / "results"
    with pytest.raises(OutputWriteError, match="No space left on device"):
        write_report(synth_result, out)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fails", ["write", "rename"])
def test_a_failure_midway_leaves_an_earlier_report_as_it_was(synth_result, tmp_path,
                                                             monkeypatch, fails):
    import errno as errno_

    from emprivacy.exceptions import OutputWriteError
    from emprivacy.io import outputs

    out = tmp_path / "results"
    out.mkdir()
    for name in REPORT_FILES:
        (out / name).write_bytes(b"the earlier run's " + name.encode())
    (out / "notes.txt").write_text("mine")
    before = _snapshot(out)
    error = OSError(errno_.EFBIG, "File too large")
    if fails == "write":
        monkeypatch.setattr(outputs.os, "write", _failing_nth(os.write, 4, error))
    else:
        monkeypatch.setattr(outputs.os, "replace", _failing_nth(os.replace, 5, error))
    with pytest.raises(OutputWriteError, match="File too large"):
        write_report(synth_result, out, command="emprivacy evaluate --seed 7")
    assert _snapshot(out) == before


# -- issue 22 item 20: a topic classifier no better than guessing is said ----------------------
def _with_validation(synth_result, accuracies, chunks, majority):
    import dataclasses

    s = dataclasses.replace(synth_result.sets[0], fasttext_validation=list(accuracies),
                            fasttext_validation_chunks=list(chunks),
                            fasttext_validation_majority=list(majority))
    return dataclasses.replace(synth_result, sets=[s])


@pytest.mark.parametrize(("accuracies", "chunks", "majority", "above", "lower"), [
    # the case: 0.44 ± 0.24 over 5 trials, balanced topics
    ([0.1, 0.3, 0.5, 0.6, 0.7], [50] * 5, [0.5] * 5, False, 0.44 - 0.2408),
    # good on average but not in a typical trial: mean − sd 0.48 ≤ 0.5
    ([0.3, 0.7, 0.9], [200] * 3, [0.5] * 3, False, 0.6333 - 0.3055),
    # steady; enough chunks to tell? Clopper–Pearson of 26/40 is 0.508 (yes),
    # of 25/40 0.483 (no)
    ([0.65, 0.65], [20, 20], [0.5, 0.5], True, 0.5081),
    ([0.6, 0.65], [20, 20], [0.5, 0.5], False, 0.4828),
    # unbalanced held-out chunks: always guessing the larger topic scores 0.8
    ([0.78, 0.79, 0.8], [500] * 3, [0.8] * 3, False, 0.7720),
    ([0.95, 0.97], [40, 40], [0.5, 0.5], True, 0.9059),
])
def test_topic_classifier_is_clearly_above_chance_only_when_both_bounds_are(
        synth_result, accuracies, chunks, majority, above, lower):
    check = _with_validation(synth_result, accuracies, chunks, majority).sets[0] \
        .topic_classifier()
    assert check.clearly_above_chance is above
    assert check.lower == pytest.approx(lower, abs=2e-3)
    assert check.chance == pytest.approx(majority[0])
    assert check.chunks == sum(chunks)


def test_a_weak_topic_classifier_is_a_warning_in_table3_and_one_line(synth_result):
    from emprivacy.evaluation.report import topic_classifier_warning

    weak = _with_validation(synth_result, [0.1, 0.3, 0.5, 0.6, 0.7], [50] * 5, [0.5] * 5)
    table = format_table3(weak)
    assert ("**Warning: the topic classifier (fastText) validation accuracy 0.44 ± 0.24 is "
            "not clearly above chance (0.50; lower end 0.20") in table
    assert "so DRtopic on this set measures nothing**" in table
    line = topic_classifier_warning([weak, weak])  # two mechanisms, one set: named once
    assert line == ("the topic classifier (fastText) is not clearly above chance (6-author "
                    "set: validation accuracy 0.44 ± 0.24, chance 0.50), so DRtopic measures "
                    "nothing there; see table3.md")
    assert "\n" not in line
    assert "Warning" not in format_table3(synth_result)
    assert topic_classifier_warning([synth_result]) is None
    run = weak.sets[0].to_dict()["topic_classifier"]
    assert run["clearly_above_chance"] is False and run["chunks"] == 250
