"""``emprivacy evaluate``: a run on a user CSV, exit codes, and stderr hygiene."""

from __future__ import annotations

import csv
import json

import pytest

from emprivacy import evaluation
from emprivacy.cli import main
from emprivacy.evaluation.attacks import write_vec
from emprivacy.exceptions import DatasetUnavailableError

from .conftest import synthetic_records


@pytest.fixture(scope="module")
def inputs(tmp_path_factory, synth_embeddings):
    d = tmp_path_factory.mktemp("cli")
    data = d / "corpus.csv"
    with open(data, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["author", "topic", "text"])
        w.writeheader()
        w.writerows(synthetic_records())
    vec = write_vec(synth_embeddings, d / "synthetic.vec")
    return data, vec


def _args(inputs, out, *extra):
    data, vec = inputs
    return ["evaluate", "--dataset", str(data), "--embeddings", str(vec), "--authors", "6",
            "--epsilons", "none,0.005", "--trials", "1", "--out", str(out), "--seed", "3",
            "--meaning", "word-vector",
            *extra]


def test_evaluate_on_a_csv_writes_the_report(inputs, tmp_path, capsys):
    out = tmp_path / "results"
    assert main(_args(inputs, out, "--quiet", "--similarity", "minmax")) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""
    run = json.loads((out / "run.json").read_text())
    assert run["seed"] == 3 and run["config"]["similarity"] == "minmax"
    assert run["config"]["authors"] == [6] and run["config"]["epsilons"] == ["none", "0.005"]
    assert run["dataset"] == "corpus.csv"
    assert "--seed 3" in run["command"] and "--oov drop" in run["command"]
    assert run["sets"][0]["correct"]["none"]["SRauth"] == [6]
    assert (out / "table3.md").is_file() and (out / "accuracy.png").is_file()
    assert run["config"]["known"] == "whole" and "--known whole" in run["command"]
    assert "Known texts: **whole**" in (out / "table3.md").read_text()


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_evaluate_format_text_on_a_user_corpus(inputs, tmp_path, suffix):
    """The readable release put to the test on a user CSV or JSONL: every attack, every
    view, the channel named in the report and the command."""
    data, vec = inputs
    if suffix == ".jsonl":
        data = tmp_path / "corpus.jsonl"
        data.write_text("".join(json.dumps(r) + "\n" for r in synthetic_records()))
    out = tmp_path / "text"
    assert main(["evaluate", "--dataset", str(data), "--embeddings", str(vec), "--authors",
                 "6", "--epsilons", "none,0.005", "--trials", "1", "--out", str(out),
                 "--seed", "3", "--quiet", "--format", "text"]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["channel"] == "text" and "--format text" in run["command"]
    (s,) = run["sets"]
    assert {"koppel/function", "delta/punctuation", "char/unchanged"} <= set(s["authorship"])
    assert s["correct"]["none"]["SRauth"] == [6]
    assert "Channel: **text**" in (out / "table3.md").read_text()


def test_evaluate_known_truncated_is_the_papers_cut(inputs, tmp_path):
    out = tmp_path / "cut"
    assert main(_args(inputs, out, "--quiet", "--known", "truncated")) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["known"] == "truncated" and "--known truncated" in run["command"]
    (s,) = run["sets"]
    assert s["known_words"] == [s["N"]] * 6
    assert set(s["clean_drauth"]) == {"whole", "truncated"}
    assert "Known texts: **truncated** to N words" in (out / "table3.md").read_text()


def test_evaluate_keep_policy_notes_the_leak_without_any_text(inputs, tmp_path, capsys):
    out = tmp_path / "keep"
    assert main(_args(inputs, out, "--oov", "keep")) == 0
    err = capsys.readouterr().err
    assert "warning: oov='keep'" in err and "not cover" in err
    assert "seed 3; wrote" in err
    words = {w.strip(".").lower() for r in synthetic_records() for w in r["text"].split()}
    assert not any(w in err.lower().split() for w in words if len(w) > 3)
    assert json.loads((out / "run.json").read_text())["metadata"]["oov_policy"]["policy"] \
        == "keep"


@pytest.mark.parametrize(("extra", "message"), [
    (["--epsilons", "none,-1"], "epsilons must be 'none' or finite numbers > 0"),
    (["--authors", "five"], "authors must be comma-separated integers >= 2"),
    (["--authors", "5"], "authors must be a multiple of the number of topics (2)"),
    (["--authors", "20"], "topic 'love' has 4 authors; 10 per topic needed"),
    (["--oov", "maybe"], "oov must be one of 'drop', 'keep'; got 'maybe'"),
    (["--similarity", "l1"], "similarity must be one of 'cosine', 'minmax'"),
    (["--format", "html"], "format"),
    (["--known", "half"], "known must be one of 'whole', 'truncated'; got 'half'"),
    (["--trials", "0"], "--trials"),
    (["--dataset", "missing.csv"], "dataset must be 'brown' or an existing .csv/.jsonl file"),
])
def test_evaluate_bad_input_exits_2_with_one_line(inputs, tmp_path, capsys, extra, message):
    assert main(_args(inputs, tmp_path / "out", "--quiet", *extra)) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_evaluate_out_must_be_a_directory(inputs, tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(_args(inputs, f, "--quiet")) == 2
    assert "exists and is not a directory" in capsys.readouterr().err


def test_evaluate_unavailable_dataset_exits_1(tmp_path, capsys, monkeypatch):
    def unavailable(**kwargs):
        raise DatasetUnavailableError("cannot download the Brown corpus: offline")

    monkeypatch.setattr(evaluation, "brown", unavailable)  # the command reads its face
    assert main(["evaluate", "--out", str(tmp_path / "o"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "emprivacy: error: cannot download the Brown corpus: offline"


def test_evaluate_help_lists_the_options(capsys):
    assert main(["evaluate", "--help"]) == 0
    out = capsys.readouterr().out
    for opt in ("--dataset", "--authors", "--epsilons", "--trials", "--out", "--oov",
                "--similarity", "--known", "--format", "--seed", "--quiet"):
        assert opt in out


def test_evaluate_several_mechanisms_writes_each_run_and_the_frontier(inputs, tmp_path, capsys):
    out = tmp_path / "family"
    code = main(_args(inputs, out, "--quiet", "--mechanisms", "madlib,tem",
                      "--param", "tem.beta=0.01"))
    assert code == 0
    for name in ("madlib", "tem"):
        run = json.loads((out / name / "run.json").read_text(encoding="utf-8"))
        assert run["config"]["mechanism"] == name
    assert json.loads((out / "tem" / "run.json").read_text())["config"]["mechanism_params"] == {
        "beta": 0.01}
    assert (out / "frontier.png").read_bytes().startswith(b"\x89PNG")
    table = (out / "frontier.md").read_text(encoding="utf-8")
    assert "| tem | 6 | 0.005 |" in table and "--param=tem.beta=0.01" in table


@pytest.mark.parametrize(("extra", "message"), [
    (["--mechanisms", "madlib,nope"], "mechanisms must be one of 'madlib', 'mahalanobis'"),
    (["--mechanisms", "tem", "--param", "madlib.decoder=exact"],
     "--param 'madlib.decoder=exact' names mechanism 'madlib', which is not evaluated "
     "(--mechanisms tem)"),
    (["--mechanisms", "madlib,tem", "--param", "beta=0.1"],
     "--param must be MECHANISM.NAME=VALUE when several mechanisms are evaluated "
     "(MECHANISM one of 'madlib', 'tem'); got 'beta=0.1'"),
    (["--mechanisms", "tem", "--param", "tem.gamma=3"], "unknown parameter 'gamma'"),
    (["--mechanisms", "tem,tem"], "mechanisms must name each mechanism once; got 'tem,tem'"),
])
def test_evaluate_bad_mechanisms_one_line(inputs, tmp_path, capsys, extra, message):
    assert main(_args(inputs, tmp_path / "x", "--quiet", *extra)) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


# -- issue 22 ---------------------------------------------------------------------------------
_TOO_FEW = ("emprivacy: error: authors must be >= 6: SRtopic votes among the 5 nearest "
            "known-author texts of the set, and a set is split evenly between the 2 topics; "
            "got 4")


def test_evaluate_too_few_authors_on_brown_is_one_line_before_any_work(tmp_path, capsys,
                                                                      monkeypatch):
    """``--authors 4``: SRtopic's 5 neighbours need 5 texts; Brown's 2 topics make it 6."""
    def no_brown(**kwargs):
        raise AssertionError("read the corpus before checking --authors")

    monkeypatch.setattr(evaluation, "brown", no_brown)
    out = tmp_path / "out"
    assert main(["evaluate", "--authors", "4", "--out", str(out), "--quiet"]) == 2
    assert capsys.readouterr().err.splitlines() == [_TOO_FEW]
    assert not out.exists()


def test_evaluate_too_few_authors_in_a_csv_is_one_line(inputs, tmp_path, capsys, monkeypatch):
    from emprivacy import embeddings  # the face the command loads them through

    def no_embeddings(*args, **kwargs):
        raise AssertionError("loaded the embeddings before checking --authors")

    monkeypatch.setattr(embeddings, "load_embeddings", no_embeddings)
    out = tmp_path / "out"
    assert main(_args(inputs, out, "--quiet", "--authors", "4,6")) == 2
    assert capsys.readouterr().err.splitlines() == [_TOO_FEW]
    assert not out.exists()


def test_evaluate_on_a_full_disk_leaves_nothing(inputs, tmp_path):
    """A file size limit (a full disk, even for root) that the small tables pass and the
    plot does not: one line, exit code 1, and not one report file (issue 22 item 15)."""
    import os
    import signal
    import subprocess
    import sys

    if os.name != "posix":
        pytest.skip("RLIMIT_FSIZE is POSIX")

    def limit() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (8000, 8000))

    out = tmp_path / "results"
    done = subprocess.run([sys.executable, "-m", "emprivacy", *_args(inputs, out, "--quiet",
                                                                      "--mechanisms",
                                                                      "madlib,santext")],
                          preexec_fn=limit, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("emprivacy: error: cannot write output "), \
        done.stderr
    assert "File too large" in lines[0]
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_evaluate_warns_once_when_the_topic_classifier_is_not_above_chance(inputs, tmp_path,
                                                                          capsys, monkeypatch):
    """A classifier at chance on the validation chunks: one warning line on stderr (two
    mechanisms, one set) and a warning in each table3.md (issue 22 item 20)."""
    from emprivacy.evaluation.attacks import FastTextTopicClassifier

    monkeypatch.setattr(FastTextTopicClassifier, "score", lambda self, docs, labels: 0.5)
    out = tmp_path / "weak"
    assert main(_args(inputs, out, "--mechanisms", "madlib,santext")) == 0
    err = capsys.readouterr().err
    warnings_ = [line for line in err.splitlines() if "warning" in line]
    assert warnings_ == [
        "emprivacy: warning: the topic classifier (fastText) is not clearly above chance "
        "(6-author set: validation accuracy 0.50, chance 0.50), so DRtopic measures nothing "
        "there; see table3.md"]
    for name in ("madlib", "santext"):
        assert "so DRtopic on this set measures nothing" in (out / name / "table3.md") \
            .read_text(encoding="utf-8")


def test_evaluate_brown_genres_reach_the_corpus_and_the_set_check(tmp_path, capsys,
                                                                  monkeypatch):
    """``--brown-genres``: the genres are the topics (the set is split between all four),
    checked before the corpus is read."""
    asked = []

    def fake_brown(**kwargs):
        asked.append(kwargs)
        raise DatasetUnavailableError("offline")

    monkeypatch.setattr(evaluation, "brown", fake_brown)
    genres = ["--brown-genres", "adventure,hobbies,religion,romance"]
    assert main(["evaluate", "--out", str(tmp_path / "o"), "--quiet", *genres]) == 1
    assert asked == [{"topics": ("adventure", "hobbies", "religion", "romance")}]
    assert main(["evaluate", "--out", str(tmp_path / "o"), "--quiet", "--authors", "4",
                 *genres]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("emprivacy: error: authors must be >= 8: ")
    assert err[-1].endswith("split evenly between the 4 topics; got 4")
    assert len(asked) == 1


@pytest.mark.parametrize(("genres", "message"), [
    ("adventure", "--brown-genres must be at least 2 distinct comma-separated Brown genres; "
                  "got 'adventure'"),
    ("romance,romance", "--brown-genres must be at least 2 distinct"),
])
def test_evaluate_bad_brown_genres_one_line(tmp_path, capsys, genres, message):
    assert main(["evaluate", "--out", str(tmp_path / "o"), "--quiet", "--brown-genres",
                 genres]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err


def test_evaluate_brown_genres_need_brown(inputs, tmp_path, capsys):
    assert main(_args(inputs, tmp_path / "o", "--quiet", "--brown-genres", "news,lore")) == 2
    assert capsys.readouterr().err.strip() == ("emprivacy: error: --brown-genres applies to "
                                               "--dataset brown")
