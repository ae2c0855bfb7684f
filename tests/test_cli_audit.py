"""``emprivacy audit``: its JSON, its files, its one-line errors (tiny embeddings file)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from .helpers import input_env, run_cli

TEXT = ("The cat saw the dog by the harbour. The cat was quiet; a bus drifted past the "
        "factory. Cat and dog!")

FIGURES = ("posterior_vulnerability", "attack_recovery", "multiplicative_leakage", "capacity")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Path]:
    return input_env(tmp_path, TEXT)


def _audit(env: dict[str, Path], *args: str) -> list[str]:
    return ["audit", str(env["text"]), "--embeddings", str(env["emb"]), "-q", *args]


def test_json_is_one_object_per_epsilon(env, capsys):
    code, out, err = run_cli(_audit(env, "-e", "0.5,2", "--draws", "40", "--seed", "3",
                                    "--json", "--top", "3"), capsys)
    assert code == 0 and err == ""
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["epsilon"] for o in objects] == [0.5, 2.0]
    for o in objects:
        # the weighted audit draws as many again while V(π▷C)'s interval is over 0.05 wide
        assert o["mechanism"] == "madlib" and o["channel"] == "sampled" and o["draws"] in (40, 80)
        assert o["prior"] == "corpus" and o["secrets"] == 7
        assert 0 < o["prior_vulnerability"] <= 1
        for key in FIGURES:
            assert set(o[key]) == {"estimate", "lower", "upper", "kind"}
            assert o[key]["kind"] == "estimate"
        assert len(o["most_exposed"]) == 3
        assert set(o["most_exposed"][0]) == {"word", "prior", "recovery"}
    # the prior: corpus frequencies of the content words ("cat" 3 times of 10 in the vocabulary)
    assert objects[0]["prior_vulnerability"] == pytest.approx(3 / 10)


def test_exact_mechanisms_say_exact(env, capsys):
    code, out, _ = run_cli(_audit(env, "-e", "1", "--mechanism", "tem", "--param", "beta=0.1",
                                  "--json", "--prior", "uniform"), capsys)
    assert code == 0
    o = json.loads(out)
    assert o["channel"] == "exact" and o["draws"] is None and o["prior"] == "uniform"
    assert o["parameters"]["beta"] == 0.1
    for key in FIGURES:
        assert o[key]["kind"] == "exact"
        assert o[key]["lower"] == o[key]["estimate"] == o[key]["upper"]


def test_text_output_labels_estimates(env, capsys):
    code, out, _ = run_cli(_audit(env, "-e", "1", "--draws", "20", "--seed", "1"), capsys)
    assert code == 0
    assert ("| madlib | 1 | sampled (20 draws) |" in out
            or "| madlib | 1 | sampled (40 draws) |" in out) and " estimate [" in out
    assert "(exact)" not in out.split("Most exposed")[0]


def test_same_seed_same_audit(env, capsys):
    args = _audit(env, "-e", "1", "--draws", "30", "--seed", "9", "--json")
    first = run_cli(args, capsys)[1]
    second = run_cli(args, capsys)[1]
    drop = lambda s: {k: v for k, v in json.loads(s).items() if k != "seconds"}  # noqa: E731
    assert drop(first) == drop(second)


def test_out_writes_the_four_files(env, capsys):
    where = env["out"] / "audit"
    code, out, _ = run_cli(_audit(env, "-e", "1,4", "--draws", "20", "--seed", "5",
                                  "--out", str(where)), capsys)
    assert code == 0 and out.startswith("emb.txt (10 words")
    assert sorted(p.name for p in where.iterdir()) == ["audit.csv", "audit.json", "audit.md",
                                                       "audit.png"]
    png = (where / "audit.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    # the plot is that of audit.json: a saved run re-plots to the same bytes
    from emprivacy.protection import plot_audit

    assert plot_audit(where / "audit.json") == png
    report = json.loads((where / "audit.json").read_text(encoding="utf-8"))
    assert report["settings"]["seed"] == 5 and report["settings"]["draws"] == 20
    assert report["settings"]["command"].startswith("emprivacy audit ")
    assert {"python", "numpy", "scipy", "emprivacy"} <= set(report["versions"])
    assert [r["epsilon"] for r in report["results"]] == [1.0, 4.0]
    assert len(report["results"][0]["per_secret"]) == 7
    rows = list(csv.DictReader(io.StringIO((where / "audit.csv").read_text(encoding="utf-8"))))
    assert [r["kind"] for r in rows] == ["estimate", "estimate"]
    assert float(rows[0]["posterior_vulnerability_lower"]) <= float(
        rows[0]["posterior_vulnerability"]) <= float(rows[0]["posterior_vulnerability_upper"])
    md = (where / "audit.md").read_text(encoding="utf-8")
    assert md.startswith("# Word audit") and "estimate [" in md and "Made by:" in md


def test_without_a_corpus_the_vocabulary_and_zipf(env, capsys):
    code, out, _ = run_cli(["audit", "--embeddings", str(env["emb"]), "-q", "-e", "1",
                            "--mechanism", "santext", "--secrets", "4", "--json"], capsys)
    assert code == 0
    o = json.loads(out)
    assert o["prior"] == "zipf" and o["secrets"] == 4
    assert o["prior_vulnerability"] == pytest.approx(1 / (1 + 1 / 2 + 1 / 3 + 1 / 4))


@pytest.mark.parametrize(("args", "message"), [
    (["-e", "0"], "epsilon must be a finite number > 0; got 0.0"),
    (["-e", "1,x"], "epsilons must be numbers separated by commas or spaces; got 'x'"),
    (["-e", "1", "--mechanism", "laplace"],
     "mechanism must be one of 'madlib', 'mahalanobis', 'vickrey', 'tem', 'santext'; got "
     "'laplace'"),
    (["-e", "1", "--param", "beta=0.1"],
     "unknown parameter 'beta' for mechanism 'madlib'; its parameters are 'decoder', "
     "'rank_resample'"),
    (["-e", "1", "--mechanism", "tem", "--param", "beta=2"],
     "beta must be a number in (0, 1); got 2.0"),
    (["-e", "1", "--draws", "1"], "Invalid value for '--draws': Input should be greater than "
     "or equal to 2 (see 'emprivacy audit --help')"),
    (["-e", "1", "--prior", "flat"],
     "prior must be one of 'corpus', 'zipf', 'uniform'; got 'flat'"),
    (["-e", "1", "--out", "{text}"],
     "cannot write output '{text}': it is a regular file, not a directory"),
    (["-e", "1", "--out", "{root}/missing/audit"],
     "output directory '{root}/missing' does not exist"),
])
def test_errors_are_one_line_exit_2(env, capsys, args, message):
    args = [a.format(text=env["text"], root=env["root"]) for a in args]
    code, out, err = run_cli(_audit(env, *args), capsys)
    lines = err.strip().splitlines()
    assert code == 2 and out == ""
    assert lines == [f"emprivacy: error: {message.format(text=env['text'], root=env['root'])}"]
    assert list(env["out"].iterdir()) == []


def test_corpus_errors_are_one_line_exit_2(env, capsys):
    code, _, err = run_cli(["audit", "--embeddings", str(env["emb"]), "-e", "1", "--prior",
                            "corpus"], capsys)
    assert code == 2 and err.strip() == (
        "emprivacy: error: --prior corpus needs a CORPUS to count words in; give one, or use "
        "--prior zipf or uniform")
    missing = env["root"] / "nope.txt"
    code, _, err = run_cli(["audit", str(missing), "--embeddings", str(env["emb"]), "-e",
                            "1"], capsys)
    assert code == 2 and err.strip() == f"emprivacy: error: input file {str(missing)!r} does " \
                                        "not exist"
    numbers = env["root"] / "numbers.txt"
    numbers.write_text("The 12 and the seven.", encoding="utf-8")
    code, _, err = run_cli(["audit", str(numbers), "--embeddings", str(env["emb"]), "-e",
                            "1", "-q"], capsys)
    assert code == 2 and err.strip() == ("emprivacy: error: the corpus holds no content word "
                                         "of the vocabulary: nothing to audit")


def test_out_is_all_four_files_or_none(env, capsys, monkeypatch):
    """A full disk at the fourth file (the plot) leaves no file of the audit, nor the
    directory it made."""
    import errno
    import os

    from emprivacy.io import outputs

    real_replace, calls = os.replace, []
    where = env["out"] / "audit"

    def failing_replace(src, dst, *args, **kwargs):
        if Path(dst).parent == where:  # (the embeddings cache is written through it too)
            calls.append(dst)
            if len(calls) == 4:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(outputs.os, "replace", failing_replace)
    code, _, err = run_cli(_audit(env, "-e", "1", "--draws", "20", "--seed", "5",
                                  "--out", str(where)), capsys)
    assert code == 1 and err.count("\n") == 1 and "No space left on device" in err
    assert len(calls) == 4 and Path(calls[-1]).name == "audit.png"
    assert not where.exists()


# -- several mechanisms in one audit -------------------------------------------------------
def test_several_mechanisms_one_object_per_mechanism_and_epsilon(env, capsys):
    """``--mechanism madlib,tem,vickrey``: one JSON object per mechanism and ε, in that
    order; each mechanism's --param is MECHANISM.NAME=VALUE; every mechanism runs on the
    same seed, so its figures are those of an audit of it alone (vickrey, sampled after
    madlib, included)."""
    code, out, err = run_cli(_audit(env, "-e", "0.5,3", "--mechanism", "madlib,tem,vickrey",
                                    "--param", "tem.beta=0.2", "--param",
                                    "madlib.rank_resample=0.5", "--param", "vickrey.t=0.5",
                                    "--draws", "40", "--seed", "6", "--json"), capsys)
    assert code == 0 and err == ""
    objects = [json.loads(line) for line in out.splitlines()]
    assert [(o["mechanism"], o["epsilon"]) for o in objects] == [
        ("madlib", 0.5), ("madlib", 3.0), ("tem", 0.5), ("tem", 3.0), ("vickrey", 0.5),
        ("vickrey", 3.0)]
    assert [o["channel"] for o in objects] == ["sampled"] * 2 + ["exact"] * 2 + ["sampled"] * 2
    assert all(o["parameters"]["rank_resample"] == 0.5 for o in objects[:2])
    assert all(o["parameters"]["beta"] == 0.2 for o in objects[2:4])
    assert all(o["parameters"]["t"] == 0.5 for o in objects[4:])
    assert len({o["prior_vulnerability"] for o in objects}) == 1  # the same secrets
    for name, params, mine in (("madlib", "rank_resample=0.5", objects[:2]),
                               ("tem", "beta=0.2", objects[2:4]),
                               ("vickrey", "t=0.5", objects[4:])):
        _, alone, _ = run_cli(_audit(env, "-e", "0.5,3", "--mechanism", name, "--param",
                                     params, "--draws", "40", "--seed", "6", "--json"), capsys)
        drop = lambda o: {k: v for k, v in o.items() if k != "seconds"}  # noqa: E731
        assert [drop(json.loads(line)) for line in alone.splitlines()] == [
            drop(o) for o in mine]


def test_several_mechanisms_in_every_file(env, capsys):
    where = env["out"] / "audit"
    code, out, _ = run_cli(_audit(env, "-e", "1,4", "--mechanism", "madlib,santext",
                                  "--draws", "20", "--seed", "5", "--out", str(where)), capsys)
    assert code == 0
    # the weighted audit draws as many again while V(π▷C)'s interval is over 0.05 wide
    assert any(out.splitlines()[0].endswith(f"mechanisms madlib ({d} releases per word), "
                                            "santext (exact channel)") for d in (20, 40))
    report = json.loads((where / "audit.json").read_text(encoding="utf-8"))
    assert report["settings"]["mechanisms"] == ["madlib", "santext"]
    assert report["settings"]["parameters"] == {"madlib": {}, "santext": {}}
    assert "--mechanism madlib,santext" in report["settings"]["command"]
    assert [(r["mechanism"], r["epsilon"]) for r in report["results"]] == [
        ("madlib", 1.0), ("madlib", 4.0), ("santext", 1.0), ("santext", 4.0)]
    rows = list(csv.DictReader(io.StringIO((where / "audit.csv").read_text(encoding="utf-8"))))
    assert [(r["mechanism"], r["kind"]) for r in rows] == [
        ("madlib", "estimate"), ("madlib", "estimate"), ("santext", "exact"),
        ("santext", "exact")]
    md = (where / "audit.md").read_text(encoding="utf-8")
    assert any(f"| madlib | 4 | sampled ({d} draws) |" in md for d in (20, 40))
    assert "| santext | 1 | exact |" in md
    assert "Most exposed words, santext at ε = 4" in md


def test_the_command_of_several_mechanisms_reruns_the_audit(env, capsys):
    """audit.json's command, run again, gives the same results (MECHANISM.NAME=VALUE)."""
    import shlex

    first = env["out"] / "first"
    code, _, _ = run_cli(_audit(env, "-e", "2", "--mechanism", "tem,madlib", "--param",
                                "tem.beta=0.3", "--draws", "20", "--seed", "8", "--out",
                                str(first)), capsys)
    assert code == 0
    report = json.loads((first / "audit.json").read_text(encoding="utf-8"))
    command = shlex.split(report["settings"]["command"])
    assert "--param=tem.beta=0.3" in command
    again = env["out"] / "again"
    code, _, _ = run_cli([*command[1:], "-q", "--out", str(again)], capsys)
    assert code == 0
    rerun = json.loads((again / "audit.json").read_text(encoding="utf-8"))
    for a, b in zip(report["results"], rerun["results"], strict=True):
        del a["seconds"], b["seconds"]
        assert a == b


@pytest.mark.parametrize(("args", "message"), [
    (["--mechanism", "madlib,laplace"],
     "mechanism must be one of 'madlib', 'mahalanobis', 'vickrey', 'tem', 'santext'; got "
     "'laplace'"),
    (["--mechanism", "tem,madlib,tem"],
     "mechanism must name each mechanism once; got 'tem,madlib,tem'"),
    (["--mechanism", " , "], "mechanism must name at least one mechanism; got ' , '"),
    (["--mechanism", "madlib,tem", "--param", "beta=0.1"],
     "--param must be MECHANISM.NAME=VALUE when several mechanisms are audited (MECHANISM "
     "one of 'madlib', 'tem'); got 'beta=0.1'"),
    (["--mechanism", "madlib,tem", "--param", "santext.beta=0.1"],
     "--param 'santext.beta=0.1' names mechanism 'santext', which is not audited "
     "(--mechanism madlib,tem)"),
    (["--param", "tem.beta=0.1"],
     "--param 'tem.beta=0.1' names mechanism 'tem', which is not audited (--mechanism "
     "madlib)"),
    (["--mechanism", "madlib,tem", "--param", "tem.lam=0.1"],
     "unknown parameter 'lam' for mechanism 'tem'; its parameters are 'beta', 'block_cols', "
     "'n_threads'"),
    (["--mechanism", "madlib,tem", "--param", "tem.beta=2"],
     "beta must be a number in (0, 1); got 2.0"),
])
def test_several_mechanisms_errors_are_one_line_exit_2(env, capsys, args, message):
    code, out, err = run_cli(_audit(env, "-e", "1", *args, "--out", str(env["out"] / "a")),
                             capsys)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"emprivacy: error: {message}"]
    assert list(env["out"].iterdir()) == []


def test_one_mechanism_takes_its_own_prefix(env, capsys):
    plain = run_cli(_audit(env, "-e", "1", "--mechanism", "tem", "--param", "beta=0.2",
                           "--json"), capsys)[1]
    prefixed = run_cli(_audit(env, "-e", "1", "--mechanism", "tem", "--param",
                              "tem.beta=0.2", "--json"), capsys)[1]
    assert json.loads(plain)["parameters"] == json.loads(prefixed)["parameters"]
    assert json.loads(prefixed)["parameters"]["beta"] == 0.2


# -- the plot ------------------------------------------------------------------------------
def test_without_matplotlib_everything_but_the_plot(env, capsys, monkeypatch):
    """Without the evaluation extra's matplotlib, --out writes the other files and says
    once on stderr that the plot was skipped; the exit code is 0."""
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    where = env["out"] / "audit"
    code, out, err = run_cli(["audit", str(env["text"]), "--embeddings", str(env["emb"]),
                              "-e", "1", "--mechanism", "madlib,tem", "--draws", "20",
                              "--seed", "2", "--out", str(where)], capsys)
    assert code == 0 and out.startswith("emb.txt")
    assert sorted(p.name for p in where.iterdir()) == ["audit.csv", "audit.json", "audit.md"]
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert warnings == ["emprivacy: warning: no plot written: the audit plot needs the "
                        "optional dependency 'matplotlib'; install it with: pip install "
                        "'emprivacy[evaluation]'"]
    assert f"wrote audit.md, audit.csv, audit.json to {where}" in err


def _strict(text: str) -> object:
    """Parse as strict JSON: ``Infinity`` and ``NaN`` (Python's extension) are refused."""
    def refuse(constant: str) -> None:
        raise ValueError(f"not strict JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def test_json_is_strict_where_a_likelihood_ratio_is_unbounded(env, capsys, tmp_path):
    # SanText at ε = 1.7e308: bus's weight of "drifted", e^{-(ε/2)·20.6}, is 0 even as a
    # float64 logarithm (-inf), so the pair's likelihood ratio, the test's closed-form value
    # and its exact loss are infinite; strict JSON writes them as null.  (At ε = 8 they are
    # finite, computed in log space: they used to round to infinity.)
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("bus drifted\n")
    where = tmp_path / "report"
    code, out, _ = run_cli(_audit(env, "-e", "1.7e308", "--mechanism", "santext",
                                  "--distinguish",
                                  str(pairs), "--distinguish-draws", "2000", "--seed", "1",
                                  "--json", "--out", str(where)), capsys)
    assert code == 0
    pair = _strict(out)["epsilon_hat"]["pairs"][0]  # type: ignore[index]
    assert pair["test_value"] is None and pair["exact_loss"] is None
    saved = _strict((where / "audit.json").read_text())
    assert saved["results"][0]["epsilon_hat"]["pairs"][0]["test_value"] is None  # type: ignore[index]
