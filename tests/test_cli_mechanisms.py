"""``emprivacy obfuscate --mechanism NAME --param K=V``: every mechanism in bags, text mode,
records and corpus runs (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emprivacy.distributed import MechanismSettings

from .helpers import run_cli

TEXT = "The harbour was quiet when the ferry arrived from the island with bread and apples."
NAMES = ["madlib", "mahalanobis", "vickrey", "tem", "santext"]


@pytest.fixture
def doc(tmp_path: Path) -> Path:
    p = tmp_path / "doc.txt"
    p.write_text(TEXT, encoding="utf-8")
    return p


@pytest.mark.parametrize("name", NAMES)
def test_huge_epsilon_gives_the_text_back_with_every_mechanism(name, doc, capsys) -> None:
    # TEM's ⊥ wins with probability β whatever ε (its threshold γ is set from β): at the
    # default β = 0.001 one word in a thousand is drawn uniformly even at ε = 10⁷, which
    # failed this test once in a fresh-clone run; a tiny β makes ⊥ as unlikely as the rest
    extra = ["--param", "beta=1e-12"] if name == "tem" else []
    code, out, err = run_cli(["obfuscate", str(doc), "-e", "1e7", "--mechanism", name, "-f", "text",
                              "--seed", "1", "-q", *extra], capsys)
    assert (code, err) == (0, "")
    assert out.rstrip("\n") == TEXT


@pytest.mark.parametrize("name", NAMES)
def test_records_name_the_mechanism_and_a_seed_reproduces(name, doc, capsys) -> None:
    argv = ["obfuscate", str(doc), "-e", "3", "--mechanism", name, "-f", "jsonl", "--seed", "5",
            "-q"]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0
    record = json.loads(out)
    assert record.get("mechanism", "madlib") == name and record["n_words"] == 7
    assert run_cli(argv, capsys)[1] == out  # the same seed, the same release


def test_parameters_reach_the_mechanism(doc, capsys) -> None:
    code, out, _ = run_cli(["obfuscate", str(doc), "-e", "5", "--mechanism", "tem", "--param",
                        "beta=0.25", "-f", "jsonl", "--seed", "2", "-q"], capsys)
    assert code == 0 and json.loads(out)["beta"] == 0.25


def test_corpus_run_equals_the_single_process_run(tmp_path: Path, capsys) -> None:
    src = tmp_path / "docs.jsonl"
    src.write_text("".join(json.dumps({"id": f"d{i}", "text": TEXT}) + "\n" for i in range(3)),
                   encoding="utf-8")
    common = [str(src), "-e", "4", "--mechanism", "vickrey", "--param", "t=0.5", "--seed", "9",
              "-q", "-f", "jsonl"]
    code, single, _ = run_cli(["obfuscate", *common], capsys)
    assert code == 0
    out = tmp_path / "out.jsonl"
    partitioned = ["obfuscate", *common, "--resume", "-o", str(out)]
    assert run_cli(partitioned, capsys)[0] == 0
    assert out.read_text(encoding="utf-8") == single
    assert all(json.loads(line)["t"] == 0.5 for line in single.splitlines())


@pytest.mark.parametrize(("argv", "message"), [
    (["--mechanism", "nope"], "mechanism must be one of 'madlib', 'mahalanobis'"),
    (["--mechanism", "tem", "--param", "t=0.5"], "unknown parameter 't' for mechanism 'tem'"),
    (["--mechanism", "tem", "--decoder", "approximate"],
     "--decoder applies to the nearest-word mechanisms"),
    (["--mechanism", "vickrey", "--param", "t"], "NAME=VALUE"),
    (["--mechanism", "madlib", "--param", "decoder=exact"], "give the decoder with --decoder"),
])
def test_bad_mechanism_options_one_line(argv, message, doc, capsys) -> None:
    code, out, err = run_cli(["obfuscate", str(doc), "-e", "1", "-q", *argv], capsys)
    assert (code, out) == (2, "")
    assert message in err and err.count("\n") == 1


def test_worker_settings_build_the_mechanism() -> None:
    s = MechanismSettings(epsilon=2.0, mechanism="tem", params=(("beta", 0.01),),
                          vocab_size=1000)
    mech = s.build()
    assert mech.name == "tem" and mech.record_fields()["beta"] == 0.01
    plain = MechanismSettings(epsilon=2.0, vocab_size=1000)
    assert plain.cache_key != s.cache_key
    with pytest.raises(ValueError, match="unknown parameter 'gamma' for mechanism 'tem'"):
        MechanismSettings(epsilon=2.0, mechanism="tem", params=(("gamma", 1.0),))
    with pytest.raises(ValueError, match="decoder applies to the nearest-word mechanisms"):
        MechanismSettings(epsilon=2.0, mechanism="santext", decoder="approximate")
