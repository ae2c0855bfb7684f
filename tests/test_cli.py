"""The command line (issue: the main job): every command, format and bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from emprivacy.cli import main
from emprivacy.io import outputs

# Words that must never appear on stderr: distinctive, all in the GloVe vocabulary.
SECRET_WORDS = ["zeppelin", "marmalade", "saxophone", "glacier", "volcano", "tangerine"]
SECRET_TEXT = "The zeppelin carried marmalade, a saxophone and a glacier map past the volcano " \
              "at tangerine dusk."


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    (d / "sub").mkdir(parents=True)
    (d / "a.txt").write_text(SECRET_TEXT, encoding="utf-8")
    (d / "b.txt").write_text("Chief speaks to the media in Illinois.", encoding="utf-8")
    (d / "sub" / "c.txt").write_text("The President greets the press in Chicago.",
                                     encoding="utf-8")
    (d / "ignored.md").write_text("not a text input", encoding="utf-8")
    return d


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def assert_no_secret(err: str) -> None:
    for w in SECRET_WORDS:
        assert w not in err.lower(), f"input word {w!r} leaked to stderr"


# -- obfuscate ----------------------------------------------------------------------------------
def test_single_file_defaults_to_bag(corpus: Path, capsys) -> None:
    code, out, err = run(["obfuscate", str(corpus / "a.txt"), "-e", "1e4", "--seed", "1"], capsys)
    assert code == 0
    # huge ε: the noisy bag is the bag itself, released in sorted order (a bag, not a list)
    assert out.split() == sorted(["zeppelin", "carried", "marmalade", "saxophone", "glacier",
                                  "map", "past", "volcano", "tangerine", "dusk"])
    assert "do not use it for a real release" in err
    assert_no_secret(err)


def test_directory_defaults_to_jsonl_with_metadata(corpus: Path, capsys) -> None:
    code, out, err = run(["obfuscate", str(corpus), "-e", "10", "--seed", "3", "-q"], capsys)
    assert code == 0 and err == ""
    records = [json.loads(line) for line in out.splitlines()]
    assert [Path(r["id"]).name for r in records] == ["a.txt", "b.txt", "c.txt"]
    for r in records:
        assert r["n_words"] == len(r["bag"]) > 0
        assert r["epsilon"] == 10.0
        assert r["epsilon_total"] == pytest.approx(10.0 * r["n_words"])
        assert r["dim"] == 50
        assert r["embeddings"] == {"name": "glove-6b-50d", "vocab_size": 100_000}
        assert r["decoder"] == "exact" and r["seeded"] is True and r["oov_dropped"] == 0


def test_size_truncates_every_bag(corpus: Path, capsys) -> None:
    code, out, _ = run(["obfuscate", str(corpus), "-e", "1e4", "-N", "2", "--seed", "0", "-q"],
                       capsys)
    assert code == 0
    bags = [json.loads(line)["bag"] for line in out.splitlines()]
    # truncation keeps the first N words of the text; the release is sorted
    assert bags == [["carried", "zeppelin"], ["chief", "speaks"], ["greets", "president"]]


def test_format_bag_for_directory(corpus: Path, capsys) -> None:
    code, out, _ = run(["obfuscate", str(corpus), "-e", "1e4", "-f", "bag", "-q", "--seed", "0"],
                       capsys)
    assert code == 0
    assert out.splitlines()[1].split() == ["chief", "illinois", "media", "speaks"]


def test_stdin(capsys, monkeypatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("The President greets the press in Chicago."))
    code, out, _ = run(["obfuscate", "-", "-e", "1e4", "-q"], capsys)
    assert code == 0 and out.split() == ["chicago", "greets", "president", "press"]


def test_jsonl_input_keeps_ids(tmp_path: Path, capsys) -> None:
    src = tmp_path / "docs.jsonl"
    src.write_text(json.dumps({"id": "x1", "text": "Chef breaks cooking record"}) + "\n\n"
                   + json.dumps({"id": 7, "text": "Chief speaks media Illinois"}) + "\n",
                   encoding="utf-8")
    code, out, _ = run(["obfuscate", str(src), "-e", "1e4", "-q"], capsys)
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in records] == ["x1", "7"]
    assert records[0]["bag"] == ["breaks", "chef", "cooking", "record"]


def test_oov_words_are_dropped_and_counted(tmp_path: Path, capsys) -> None:
    src = tmp_path / "names.txt"
    src.write_text("Qwxzzyq met Plorbington beside the harbour.", encoding="utf-8")
    code, out, _ = run(["obfuscate", str(src), "-e", "1e4", "-f", "jsonl", "-q"], capsys)
    assert code == 0
    record = json.loads(out)
    assert record["oov_dropped"] == 2 and record["bag"] == ["harbour", "met"]
    assert "qwxzzyq" not in out.lower() and "plorbington" not in out.lower()


def test_same_seed_same_output_and_default_is_random(corpus: Path, capsys) -> None:
    args = ["obfuscate", str(corpus), "-e", "5", "-q", "-f", "bag"]
    outs = [run([*args, "--seed", "11"], capsys)[1] for _ in range(2)]
    assert outs[0] == outs[1]
    assert run([*args, "--seed", "12"], capsys)[1] != outs[0]
    assert run(args, capsys)[1] != run(args, capsys)[1]


def test_output_file_is_written_atomically(corpus: Path, tmp_path: Path, capsys) -> None:
    old_mask = os.umask(0o022)
    dest = tmp_path / "out.jsonl"
    code, out, err = run(["obfuscate", str(corpus), "-e", "10", "-o", str(dest), "--seed", "1"],
                         capsys)
    assert code == 0 and out == ""
    assert len(dest.read_text(encoding="utf-8").splitlines()) == 3
    assert "wrote 3 document(s)" in err
    assert_no_secret(err)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    os.umask(old_mask)
    assert dest.stat().st_mode & 0o777 == 0o644  # usual permissions, not mkstemp's 0600


def test_interrupted_run_leaves_no_partial_file(corpus: Path, tmp_path: Path, capsys,
                                                monkeypatch) -> None:
    dest = tmp_path / "out.jsonl"
    dest.write_text("previous output\n", encoding="utf-8")
    calls = {"n": 0}
    real = outputs.format_record

    def interrupt_after_first(record, fmt):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(record, fmt)

    monkeypatch.setattr(outputs, "format_record", interrupt_after_first)
    code, _, err = run(["obfuscate", str(corpus), "-e", "10", "-o", str(dest), "-q"], capsys)
    assert code == 130 and "interrupted" in err
    assert dest.read_text(encoding="utf-8") == "previous output\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus", "out.jsonl"]


def test_progress_bar_only_on_larger_inputs(tmp_path: Path, capsys) -> None:
    d = tmp_path / "many"
    d.mkdir()
    for i in range(8):
        (d / f"{i}.txt").write_text(SECRET_TEXT, encoding="utf-8")
    code, _, err = run(["obfuscate", str(d), "-e", "10", "--seed", "0"], capsys)
    assert code == 0
    assert_no_secret(err)
    assert "" not in err.splitlines()  # no stray blank line from a bar on a non-terminal
    code, _, err = run(["obfuscate", str(d), "-e", "10", "--seed", "0", "--quiet"], capsys)
    assert code == 0 and err == ""


# -- bad input: exit code 2, one line on stderr -----------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["obfuscate", "{a}", "-e", "-1"], "epsilon must be a finite number > 0; got -1.0"),
        (["obfuscate", "{a}", "-e", "nan"], "epsilon must be a finite number > 0; got nan"),
        (["obfuscate", "{a}", "-e", "inf"], "epsilon must be a finite number > 0; got inf"),
        (["obfuscate", "{a}"], "missing option '--epsilon'"),
        (["obfuscate", "{missing}", "-e", "1"], "missing.txt' does not exist"),
        (["obfuscate", "{latin1}", "-e", "1"], "latin1.txt' is not valid UTF-8"),
        (["obfuscate", "{a}", "-e", "1", "--embeddings", "{missing}"], "does not exist"),
        (["obfuscate", "{a}", "-e", "1", "--embeddings", "{garbage}"],
         "unknown embeddings format for"),
        (["obfuscate", "{oov}", "-e", "1"], "every input document has no word in the "
         "vocabulary of 'glove-6b-50d' (1, first '"),
        (["obfuscate", "{empty}", "-e", "1"], "every input document is empty"),
        (["obfuscate", "{a}", "-e", "1", "-f", "xml"], "format must be one of"),
        (["obfuscate", "{a}", "-e", "1", "--bogus"], "No such option"),
        (["obfuscate", "{badjsonl}", "-e", "1"], "badjsonl.jsonl:1: not a valid JSON object"),
        (["distance", "{a}", "{missing}"], "missing.txt' does not exist"),
        (["guarantee", "-e", "0", "-N", "4", "-d", "1"], "epsilon must be a finite number > 0"),
        (["guarantee", "-e", "1", "-N", "4", "-d", "-2"], "delta must be a finite number >= 0"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv, message, tmp_path: Path, capsys) -> None:
    files = {
        "a": tmp_path / "a.txt", "missing": tmp_path / "missing.txt",
        "latin1": tmp_path / "latin1.txt", "garbage": tmp_path / "garbage.emb",
        "oov": tmp_path / "oov.txt", "empty": tmp_path / "empty.txt",
        "badjsonl": tmp_path / "badjsonl.jsonl",
    }
    files["a"].write_text(SECRET_TEXT, encoding="utf-8")
    files["latin1"].write_bytes("café zeppelin".encode("latin-1"))
    files["garbage"].write_bytes(b"\x00\x01 not embeddings \xff\n")
    files["oov"].write_text("Qwxzzyq Plorbington Zzvrax", encoding="utf-8")
    files["empty"].write_text("  \n\t ", encoding="utf-8")
    files["badjsonl"].write_text("{zeppelin marmalade\n", encoding="utf-8")
    argv = [a.format(**{k: str(v) for k, v in files.items()}) for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("emprivacy: error: ")
    assert message in lines[0]
    assert_no_secret(err)


def test_empty_document_is_skipped_with_warning(corpus: Path, capsys) -> None:
    (corpus / "empty.txt").write_text("\n\n", encoding="utf-8")
    code, out, err = run(["obfuscate", str(corpus), "-e", "10", "--seed", "0"], capsys)
    assert code == 0
    assert len(out.splitlines()) == 3
    assert "empty.txt' is empty after normalisation; skipped" in err


def test_duplicate_ids_are_rejected(tmp_path: Path, capsys) -> None:
    src = tmp_path / "dup.jsonl"
    src.write_text('{"id": "d", "text": "cat"}\n{"id": "d", "text": "dog"}\n', encoding="utf-8")
    code, _, err = run(["obfuscate", str(src), "-e", "1", "-q"], capsys)
    assert code == 2 and "duplicate document id 'd'" in err


# -- distance and guarantee ---------------------------------------------------------------------
def test_distance_prints_emd_and_multiplier(tmp_path: Path, capsys) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("The President greets the press in Chicago.", encoding="utf-8")
    b.write_text("Chief speaks to the media in Illinois.", encoding="utf-8")
    code, out, _ = run(["distance", str(a), str(b), "-e", "0.0625", "--json", "-q"], capsys)
    assert code == 0
    result = json.loads(out)
    from emprivacy import earth_movers_distance, load_embeddings, privacy_multiplier

    emb = load_embeddings()
    expected = earth_movers_distance(["president", "greets", "press", "chicago"],
                                     ["chief", "speaks", "media", "illinois"], emb)
    assert result["earth_movers_distance"] == pytest.approx(expected)
    assert result["privacy_multiplier"] == pytest.approx(privacy_multiplier(0.0625, 4, expected))
    code, out, _ = run(["distance", str(a), str(b), "-q"], capsys)
    assert code == 0 and f"{expected:.6g}" in out


def test_distance_unequal_sizes_has_no_multiplier(tmp_path: Path, capsys) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("President greets press Chicago", encoding="utf-8")
    b.write_text("Chief speaks media", encoding="utf-8")
    code, out, _ = run(["distance", str(a), str(b), "-e", "1", "-q"], capsys)
    assert code == 0 and "same size N" in out


def test_guarantee_prints_all_three_expressions(capsys) -> None:
    from emprivacy import appendix_utility_bound, paper_utility_bound, utility_bound

    code, out, _ = run(["guarantee", "-e", "1", "-N", "2", "-d", "0.35", "-n", "2",
                        "--distance", "1", "--json"], capsys)
    assert code == 0
    r = json.loads(out)
    assert r["utility_bound"] == pytest.approx(utility_bound(1, 2, 0.35, 2))
    assert r["paper_thm3_expression"] == pytest.approx(paper_utility_bound(1, 2, 0.35, 2))
    assert r["appendix_expression"] == pytest.approx(appendix_utility_bound(1, 2, 0.35, 2))
    assert r["privacy_multiplier"] == pytest.approx(2.718281828459045 ** 2)
    code, out, _ = run(["guarantee", "-e", "1", "-N", "2", "-d", "0.35", "-n", "2"], capsys)
    assert "NOT a valid bound" in out and "valid: P(N·n, ε·N·Δ)" in out


def test_version_and_help(capsys) -> None:
    from emprivacy import __version__

    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.strip() == f"emprivacy {__version__}"
    code, out, _ = run(["obfuscate", "--help"], capsys)
    assert code == 0 and "--epsilon" in out and "--size" in out


# -- through a real subprocess -------------------------------------------------------------------
def _subprocess(args: list[str], **kw) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120"}
    return subprocess.run([sys.executable, "-m", "emprivacy", *args], capture_output=True,
                          text=True, env=env, timeout=300, **kw)


def test_subprocess_obfuscate_stdin_and_errors(corpus: Path) -> None:
    done = _subprocess(["obfuscate", "-", "-e", "1e4", "--seed", "0"], input=SECRET_TEXT)
    assert done.returncode == 0
    assert {"zeppelin", "carried", "marmalade"} <= set(done.stdout.split())
    assert_no_secret(done.stderr)
    bad = _subprocess(["obfuscate", str(corpus), "-e", "0"])
    assert bad.returncode == 2
    assert bad.stderr.strip() == "emprivacy: error: epsilon must be a finite number > 0; got 0.0"


def test_subprocess_sigint_leaves_no_partial_output(tmp_path: Path) -> None:
    """A real interruption (SIGINT) while writing: no output file, no temp file."""
    import signal
    import time

    src = tmp_path / "big.jsonl"
    with open(src, "w", encoding="utf-8") as fh:
        for i in range(3000):
            fh.write(json.dumps({"id": i, "text": SECRET_TEXT * 20}) + "\n")
    dest = tmp_path / "out.jsonl"
    # SIGINT as an interactive shell leaves it: a test run started in the background
    # (``cmd &`` without job control) ignores SIGINT, and so would its children
    proc = subprocess.Popen([sys.executable, "-m", "emprivacy", "obfuscate", str(src), "-e", "5",
                             "-o", str(dest), "-q"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 120
    while time.time() < deadline and not any(p.name.endswith(".tmp")
                                             for p in tmp_path.iterdir()):
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert not dest.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["big.jsonl"]


def test_subprocess_distance_and_guarantee(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("President greets press Chicago", encoding="utf-8")
    b.write_text("Chief speaks media Illinois", encoding="utf-8")
    done = _subprocess(["distance", str(a), str(b), "-e", "0.0625", "--json", "-q"])
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["n_words"] == [4, 4]
    done = _subprocess(["guarantee", "-e", "1", "-N", "2", "-d", "0.35", "-n", "2", "--json"])
    assert done.returncode == 0
    assert json.loads(done.stdout)["paper_thm3_expression"] > json.loads(done.stdout)[
        "utility_bound"]
    bad = _subprocess(["guarantee", "-e", "1", "-N", "2"])
    assert bad.returncode == 2
    assert bad.stderr.strip() == "emprivacy: error: missing option '--delta'"


def test_console_script_is_installed() -> None:
    import shutil

    from emprivacy import __version__

    script = shutil.which("emprivacy", path=os.pathsep.join(
        [str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    assert script is not None, "the 'emprivacy' console script is not installed"
    done = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == f"emprivacy {__version__}"
