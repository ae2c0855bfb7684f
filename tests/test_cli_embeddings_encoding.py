"""``--embeddings-encoding``: a text embeddings file in another encoding, on every command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emprivacy.distributed import MechanismSettings
from emprivacy.io.parquet_output import read_parquet_records

from .helpers import run_cli

#: "café" in Latin-1 (0xe9), not valid UTF-8.
LATIN1 = "cat 0.1 0.2\ncafé 0.3 0.4\ndog 5.0 6.0\n".encode("latin-1")


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    emb = tmp_path / "latin.txt"
    emb.write_bytes(LATIN1)
    doc = tmp_path / "in.txt"
    doc.write_text("the café cat", encoding="utf-8")
    other = tmp_path / "other.txt"
    other.write_text("dog cat", encoding="utf-8")
    return {"emb": emb, "doc": doc, "other": other, "dir": tmp_path}


def test_utf8_by_default_one_line_naming_line_and_offset(files: dict[str, Path],
                                                         capsys: pytest.CaptureFixture) -> None:
    code, out, err = run_cli(["obfuscate", str(files["doc"]), "-e", "1000",
                              "--embeddings", str(files["emb"]), "-q"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "line 2 of" in err and "byte 0xe9 at offset 15" in err
    assert "--embeddings-encoding" in err


def test_obfuscate_reads_latin1(files: dict[str, Path], capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run_cli(["obfuscate", str(files["doc"]), "-e", "1000", "--seed", "1",
                            "--embeddings", str(files["emb"]), "--embeddings-encoding",
                            "latin-1", "--format", "jsonl", "-q"], capsys)
    assert code == 0
    record = json.loads(out)
    assert record["embeddings"]["vocab_size"] == 3 and record["n_words"] == 2
    assert record["bag"] == ["café", "cat"]  # ε = 1000 on well-separated words: unchanged


def test_corpus_run_workers_load_with_the_encoding(files: dict[str, Path],
                                                   capsys: pytest.CaptureFixture) -> None:
    """Parquet output goes through MechanismSettings, as a Dask worker loads it."""
    out = files["dir"] / "o.parquet"
    code, _, err = run_cli(["obfuscate", str(files["doc"]), "-e", "1000", "--seed", "1",
                            "--embeddings", str(files["emb"]), "--embeddings-encoding",
                            "latin-1", "-o", str(out), "-q"], capsys)
    assert code == 0, err
    assert [r["bag"] for r in read_parquet_records(out)] == [["café", "cat"]]


def test_settings_carry_and_check_the_encoding(files: dict[str, Path]) -> None:
    settings = MechanismSettings(epsilon=1000.0, embeddings=str(files["emb"]),
                                 encoding="latin-1")
    assert "café" in settings.build().embeddings
    assert settings.cache_key != MechanismSettings(epsilon=1000.0,
                                                   embeddings=str(files["emb"])).cache_key
    with pytest.raises(ValueError, match="encoding must be a text encoding Python knows"):
        MechanismSettings(epsilon=1.0, encoding="no-such-codec")


def test_distance_and_calibrate_take_it(files: dict[str, Path],
                                        capsys: pytest.CaptureFixture) -> None:
    code, out, err = run_cli(["distance", str(files["doc"]), str(files["other"]),
                              "--embeddings", str(files["emb"]), "--embeddings-encoding",
                              "latin-1", "--json", "-q"], capsys)
    assert code == 0, err
    assert json.loads(out)["earth_movers_distance"] > 0
    code, _, err = run_cli(["calibrate", "--embeddings", str(files["emb"]),
                            "--embeddings-encoding", "latin-1", "--n-words", "2",
                            "--trials", "3", "--epsilons", "5", "--no-plot", "--json", "-q"],
                           capsys)
    assert code == 0, err


@pytest.mark.parametrize("command", [["obfuscate", "IN", "-e", "1"], ["distance", "IN", "IN"],
                                     ["calibrate", "--no-plot"]])
def test_unknown_encoding_is_one_line(command: list[str], files: dict[str, Path],
                                      capsys: pytest.CaptureFixture) -> None:
    argv = [str(files["doc"]) if a == "IN" else a for a in command]
    code, out, err = run_cli([*argv, "--embeddings", str(files["emb"]),
                              "--embeddings-encoding", "klingon", "-q"], capsys)
    assert code == 2 and out == ""
    assert err == ("emprivacy: error: --embeddings-encoding must be a text encoding Python "
                   "knows (e.g. utf-8, latin-1); got 'klingon'\n")
