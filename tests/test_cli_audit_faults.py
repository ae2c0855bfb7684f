"""``emprivacy audit`` and ``calibrate`` hold on the command line (issue 30, items 4, 6, 13,
14, 15): sizes refused before any work, ``--out`` reused or empty, progress in logs and on a
terminal, a help readable at 80 columns, ``calibrate --param MECHANISM.NAME=VALUE``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from emprivacy import _validation as validation
from emprivacy.cli import _common

from .helpers import input_env, run_cli

TEXT = ("The cat saw the dog by the harbour. The cat was quiet; a bus drifted past the "
        "factory. Cat and dog!")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Path]:
    return input_env(tmp_path, TEXT)


def _audit(env: dict[str, Path], *args: str) -> list[str]:
    return ["audit", str(env["text"]), "--embeddings", str(env["emb"]), *args]


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# -- item 4: sizes, before any work ---------------------------------------------------------
# (counts above the options' own bounds, 10,000,000 draws, are refused before this check:
# tests/test_cli_limits.py; within them, the machine's memory decides, here 1 MiB)
@pytest.mark.parametrize(("args", "start"), [
    (["--draws", "5000000"],
     "emprivacy: error: the sampled channel (7 secrets x 5000000 draws) needs about "),
    (["--draws", "10000000"],
     "emprivacy: error: the sampled channel (7 secrets x 10000000 draws) needs about "),
    (["--distinguish", "2", "--distinguish-draws", "5000000"],
     "emprivacy: error: the releases of the pairs (4 words x 5000000 draws) needs about "),
])
def test_sizes_beyond_the_machine_are_one_line_before_any_audit(env, capsys, monkeypatch,
                                                                args, start):
    audited = []
    import emprivacy.protection as protection

    monkeypatch.setattr(validation, "available_memory", lambda: 2**20)  # 1 MiB
    monkeypatch.setattr(protection, "audit_mechanism",
                        lambda *a, **k: audited.append(a))  # never reached
    code, out, err = run_cli(_audit(env, "-q", "-e", "1", *args), capsys)
    line = _one_line(err)
    assert code == 2 and out == "" and audited == []
    assert line.startswith(start) and "available here; use fewer" in line


def test_calibrate_checks_its_draws_before_any_measurement(env, capsys, monkeypatch):
    monkeypatch.setattr(validation, "available_memory", lambda: 2**20)  # 1 MiB
    code, _, err = run_cli(["calibrate", str(env["text"]), "--embeddings", str(env["emb"]),
                            "-q", "--target-recovery", "0.5", "--draws", "5000000"], capsys)
    assert code == 2
    assert _one_line(err).startswith("emprivacy: error: the sampled channel (7 secrets x "
                                     "5000000 draws) needs about ")


def test_the_check_is_against_what_the_machine_has(env, capsys, monkeypatch):
    monkeypatch.setattr(validation, "available_memory", lambda: 2**20)  # 1 MiB
    code, _, err = run_cli(_audit(env, "-q", "-e", "1", "--draws", "20000"), capsys)
    assert code == 2
    assert _one_line(err) == ("emprivacy: error: the sampled channel (7 secrets x 20000 "
                              "draws) needs about 6.41 MiB of memory, more than the 1 MiB "
                              "available here; use fewer draws or fewer secrets")


def test_fewer_secrets_than_asked_is_said(env, capsys):
    code, _, err = run_cli(_audit(env, "-e", "1", "--mechanism", "santext", "--secrets",
                                  "1000000"), capsys)
    assert code == 0
    assert ("emprivacy: note: --secrets 1000000: the corpus holds 7 content words of the "
            "vocabulary; auditing those") in err


# -- item 6: --out ----------------------------------------------------------------------------
def test_a_reused_out_keeps_no_file_of_the_earlier_audit(env, capsys, tmp_path):
    where = env["out"] / "audit"
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("cat dog\n", encoding="utf-8")
    code, _, _ = run_cli(_audit(env, "-q", "-e", "1", "--mechanism", "santext",
                                "--distinguish", str(pairs), "--distinguish-draws", "20",
                                "--out", str(where)), capsys)
    assert code == 0 and (where / "distinguish.csv").is_file()
    code, _, err = run_cli(_audit(env, "-e", "1", "--mechanism", "santext", "--out",
                                  str(where)), capsys)
    assert code == 0
    assert sorted(p.name for p in where.iterdir()) == ["audit.csv", "audit.json", "audit.md",
                                                       "audit.png"]
    assert (f"emprivacy: wrote audit.md, audit.csv, audit.json, audit.png to {where}"
            in err)
    assert "; removed distinguish.csv, left there by an earlier audit" in err


def test_an_empty_out_is_refused(env, capsys, monkeypatch):
    monkeypatch.chdir(env["out"])
    code, _, err = run_cli(_audit(env, "-q", "-e", "1", "--out", ""), capsys)
    assert code == 2 and _one_line(err) == "emprivacy: error: --out must name a directory; got ''"
    assert list(env["out"].iterdir()) == []  # nothing written into the current directory


# -- item 13: progress --------------------------------------------------------------------
def test_logs_get_a_progress_line(env, capsys, monkeypatch):
    """Where stderr is not a terminal, a line every LOG_EVERY seconds (0 here: every update)
    with the share done and the time left; nothing with -q."""
    import emprivacy.cli.audit_run as audit_run

    monkeypatch.setattr(audit_run, "LOG_EVERY", 0.0)
    code, _, err = run_cli(_audit(env, "-e", "1,2", "--draws", "20", "--mechanism",
                                  "madlib,santext"), capsys)
    assert code == 0
    lines = [line for line in err.splitlines() if line.startswith("emprivacy: ") and
             "done" in line]
    assert lines, err
    assert any(re.fullmatch(r"emprivacy: madlib, ε = 2: sampling the channel \(140/140\): "
                            r"\d+% done, about .+ left \(.+ elapsed\)", line)
               for line in lines), lines
    assert any(line.startswith("emprivacy: santext, ε = 1: ") for line in lines)
    code, _, err = run_cli(_audit(env, "-q", "-e", "1", "--draws", "20"), capsys)
    assert err == ""


def test_a_terminal_gets_one_bar_with_a_total(env, capsys, monkeypatch):
    """The bar is one task over the whole audit (its total known from the start, so the time
    left can be shown), not a task per ε reading '0/?'."""
    import emprivacy.cli.audit_run as audit_run

    seen: list[tuple[str, object]] = []

    class Recorder(_common.LogProgress):
        def add_task(self, description, total=None, **kw):
            seen.append(("add", total))
            return super().add_task(description, total=total)

        def update(self, task, **kw):
            seen.append(("update", kw.get("completed")))
            super().update(task, **kw)

    monkeypatch.setattr(audit_run, "progress_bar",
                        lambda console, **kw: Recorder(console, 1e9))
    code, _, _ = run_cli(_audit(env, "-e", "1,2", "--draws", "20", "--mechanism",
                                "madlib,santext", "--distinguish", "1",
                                "--distinguish-draws", "20"), capsys)
    assert code == 0
    assert [s for s in seen if s[0] == "add"] == [("add", 8)]  # 2 mechanisms x 2 ε x 2 steps
    done = [c for kind, c in seen if kind == "update" and c is not None]
    assert done == sorted(done) and done[-1] == 8  # only forward, to the end


def test_log_progress_says_nothing_in_a_short_run(capsys):
    from rich.console import Console

    bar = _common.LogProgress(Console(stderr=True), every=60.0)
    task = bar.add_task("x", total=10)
    for _ in range(10):
        bar.advance(task)
    assert capsys.readouterr().err == ""


# -- item 14: --help at 80 columns -----------------------------------------------------------
@pytest.mark.parametrize("command", ["audit", "calibrate"])
def test_help_is_readable_at_80_columns(command, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run_cli([command, "--help"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert len(lines) <= 120  # was 184 for audit
    for token in ("<list[str]>", "<bool>", "<int range>", "<str>", "…", "╭"):
        assert token not in out
    assert re.search(rf"^\s+emprivacy {command} .+", out, flags=re.MULTILINE)  # an example
    # every option named in full
    for name in ("--distinguish-documents", "--embeddings-encoding", "--vocab-size"):
        assert name in out or command == "calibrate"
    # prose wrapped as paragraphs: no line of a single word followed by more prose
    prose = out.split("Arguments:")[0].split("Examples:")[0]
    assert not [line for line in prose.splitlines()[1:] if len(line.split()) == 1
                and not line.strip().endswith(".")]


# -- item 15: calibrate --param MECHANISM.NAME=VALUE -----------------------------------------
def test_calibrate_takes_the_param_as_audit_does(env, capsys):
    args = ["calibrate", str(env["text"]), "--embeddings", str(env["emb"]), "-q", "--json",
            "--target-recovery", "0.95", "--mechanism", "tem", "--param"]
    code, out, err = run_cli([*args, "tem.beta=0.01"], capsys)
    assert code == 0, err
    assert json.loads(out)["parameters"]["beta"] == 0.01
    code, out, _ = run_cli([*args, "beta=0.01"], capsys)
    assert code == 0 and json.loads(out)["parameters"]["beta"] == 0.01
    code, _, err = run_cli([*args, "santext.beta=0.01"], capsys)
    assert code == 2
    assert _one_line(err) == ("emprivacy: error: --param 'santext.beta=0.01' names mechanism "
                              "'santext', which is not calibrated (--mechanism tem)")
