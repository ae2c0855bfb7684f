"""The command line's error handler: our errors are one line, bugs are not disguised."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from emprivacy.cli import main


@pytest.fixture
def one_line(tmp_path: Path) -> Path:
    p = tmp_path / "a.txt"
    p.write_text("The harbour was quiet.", encoding="utf-8")
    return p


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("emprivacy: error: ")
    return err[0]


def test_a_bug_is_not_reported_as_bad_input(one_line, monkeypatch, capsys):
    import emprivacy.embeddings

    def broken(*args, **kwargs):
        raise ValueError("an internal invariant failed")

    # the command loads them through the package's face
    monkeypatch.setattr(emprivacy.embeddings, "load_embeddings", broken)
    with pytest.raises(ValueError, match="internal invariant"):
        main(["obfuscate", str(one_line), "-e", "1", "-q"])
    assert "emprivacy: error" not in capsys.readouterr().err


def test_a_missing_extra_is_one_line_naming_it(one_line):
    import subprocess

    # a fresh interpreter in which faiss cannot be imported, as if faiss-cpu were missing
    code = ("import sys; sys.modules['faiss'] = None; from emprivacy.cli import main; "
            f"sys.exit(main(['obfuscate', {str(one_line)!r}, '-e', '1', '--decoder', "
            "'approximate', '--vocab-size', '2000', '-q']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("emprivacy: error: ")
    assert "pip install 'emprivacy[approximate]'" in lines[0] and "faiss" in lines[0]


@pytest.mark.parametrize(("argv", "message"), [
    (["obfuscate", "{a}", "-e", "1", "-f", "xml"],
     "format must be one of 'bag', 'jsonl', 'text', 'parquet'; got 'xml'"),
    (["obfuscate", "{a}", "-e", "1", "--oov", "skip"],
     "oov must be one of 'drop', 'placeholder', 'keep', 'subword'; got 'skip'"),
    (["obfuscate", "{a}", "-e", "1", "--decoder", "fast"],
     "decoder must be one of 'exact', 'approximate'; got 'fast'"),
    (["distance", "{a}", "{a}", "--metric", "cosine"],
     "metric must be one of 'euclidean', 'manhattan'; got 'cosine'"),
    (["guarantee", "-N", "3", "-d", "1"], "missing option '--epsilon'"),
    (["obfuscate", "{a}"], "missing option '--epsilon'"),
])
def test_choices_and_required_options_read_like_the_library(argv, message, one_line, capsys):
    argv = [a.replace("{a}", str(one_line)) for a in argv]
    assert main(argv) == 2
    assert _one_error_line(capsys) == f"emprivacy: error: {message}"


def test_help_does_not_import_the_numerical_stack():
    import subprocess

    code = ("import sys; from emprivacy.cli import main; main(['--help']); "
            "heavy = {'numpy', 'scipy', 'faiss', 'dask', 'sklearn', 'matplotlib', 'gensim'}; "
            "print(sorted(heavy & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
