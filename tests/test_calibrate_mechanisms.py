"""``emprivacy calibrate --mechanism NAME``: the same statistics for every mechanism, plus
the rank histogram of released words (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emprivacy.cli import main


@pytest.fixture
def words(tmp_path: Path) -> Path:
    p = tmp_path / "words.txt"
    p.write_text("harbour ferry island bread qqqzzz", encoding="utf-8")
    return p


@pytest.mark.parametrize("name", ["madlib", "mahalanobis", "vickrey", "tem", "santext"])
def test_every_mechanism_reports_the_statistics_and_ranks(name, words, capsys) -> None:
    code = main(["calibrate", "--mechanism", name, "--epsilons", "1,1e6", "--words",
                 str(words), "--trials", "20", "--seed", "3", "--json", "-q"])
    assert code == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert [r["mechanism"] for r in results] == [name, name]
    low, high = results
    assert low["words"] == 4  # qqqzzz is not in the vocabulary
    # ε = 10⁶: every word comes back (Vickrey's default t = 0.75 releases w₂ with
    # probability t·d₁/(t·d₁+(1−t)·d₂) → 0 as d₁ → 0)
    assert high["median_unchanged"] == 1.0 and high["rank_histogram"]["0"] == 1.0
    # ε = 1 on 50-d GloVe: words are almost never kept, and mostly sent far (the curse)
    assert low["median_unchanged"] < 0.2
    assert low["rank_histogram"][">100"] > 0.5
    assert sum(low["rank_histogram"].values()) == pytest.approx(1.0)


def test_table_and_parameters(words, capsys) -> None:
    code = main(["calibrate", "--mechanism", "vickrey", "--param", "t=0.5", "--epsilons",
                 "10", "--words", str(words), "--trials", "10", "--seed", "1", "-q"])
    out = capsys.readouterr().out
    assert code == 0
    assert "mechanism vickrey" in out and "'t': 0.5" in out
    assert "| ε | median N_w | median S_w | distance | rank 0 | rank 1-100 | rank >100 |" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--mechanism", "nope", "--epsilons", "1"], "mechanism must be one of 'madlib'"),
    (["--mechanism", "tem"], "--mechanism needs --epsilons"),
    (["--param", "t=1", "--epsilons", "1"], "--param needs --mechanism"),
    (["--mechanism", "tem", "--param", "t=1", "--epsilons", "1"], "unknown parameter 't'"),
])
def test_bad_options_one_line(argv, message, capsys) -> None:
    assert main(["calibrate", *argv, "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
