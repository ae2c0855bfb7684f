"""The style option on the command line (``obfuscate --style-epsilon``, ``evaluate
--style-epsilon``) and in ``privatize_texts``."""

from __future__ import annotations

import json

import pytest

from emprivacy import Embeddings
from emprivacy.tables import privatize_texts

from .helpers import run_cli

EMB = "the 0 0\na 0.2 0\nthis 0.4 0\non 3 0\nin 3.2 0\ncat 7 0\nmat 7.1 0\nsat 8 0\n"
TEXT = "The cat  sat on the mat !!\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "emb.txt").write_text(EMB, encoding="utf-8")
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    return tmp_path


def test_obfuscate_text_with_style(files, capsys):
    out = files / "out.jsonl"
    code, _, err = run_cli(["obfuscate", str(files / "a.txt"), "--embeddings",
                            str(files / "emb.txt"), "--epsilon", "2", "--readable",
                            "--format", "jsonl", "--style-epsilon", "0.5", "--seed", "1",
                            "-o", str(out), "--quiet"], capsys)
    assert code == 0, err
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["style_epsilon"] == 0.5 and record["style_words"] == 3
    assert record["epsilon_total"] == pytest.approx(2 * record["words_perturbed"] + 1.5)
    words = record["text"].split()
    assert words[0] in ("The", "A", "This") and words[3] in ("on", "in")
    assert record["text"].endswith("!\n") and "  " not in record["text"]
    assert "Style option (style_epsilon=0.5)" in record["guarantee"]


@pytest.mark.parametrize(("extra", "message"), [
    (["--format", "jsonl"], "--style-epsilon applies to text mode"),
    (["--readable", "--format", "jsonl", "--perturb-stopwords"], "exclude each other"),
    (["--readable", "--format", "jsonl", "--style-epsilon", "-2"],
     "--style-epsilon must be a finite number > 0; got -2"),
    (["--readable", "--format", "jsonl", "--lang", "fr"], "--style-epsilon applies to English"),
])
def test_obfuscate_style_mistakes(files, capsys, extra, message):
    argv = ["obfuscate", str(files / "a.txt"), "--embeddings", str(files / "emb.txt"),
            "--epsilon", "2", "-o", str(files / "o.jsonl"), *extra]
    if "--style-epsilon" not in extra:
        argv += ["--style-epsilon", "1"]
    code, _, err = run_cli(argv, capsys)
    assert code != 0 and message in err and "Traceback" not in err
    assert err.startswith("emprivacy: error: ")


def test_evaluate_style_needs_the_text_channel(files, capsys):
    code, _, err = run_cli(["evaluate", "--style-epsilon", "1", "--out", str(files / "ev")],
                           capsys)
    assert code != 0 and "--style-epsilon applies to --format text" in err


def test_privatize_texts_with_style():
    emb = Embeddings(["the", "a", "this", "cat"], [[0.0], [0.1], [0.2], [5.0]], name="toy")
    out = privatize_texts(["The cat ,  the cat?!"], epsilon=3.0, embeddings=emb, seed=2,
                          style_epsilon=0.1)
    (row,) = list(out)
    assert row.metadata["style_words"] == 2 and out.metadata["style_epsilon"] == 0.1
    assert row.metadata["epsilon_total"] == pytest.approx(3.0 * 2 + 0.1 * 2)
    first, _, second, _ = row.release.replace(",", "").replace("?", "").split()
    assert first in ("The", "A", "This") and second in ("the", "a", "this")
    assert ", " in row.release and row.release.endswith("?")


def test_experiment_config_takes_style_on_the_text_channel_only():
    from emprivacy.evaluation.settings import ExperimentConfig

    config = ExperimentConfig(channel="text", style_epsilon=2)
    assert config.text_entities() == {"style_epsilon": 2.0}
    with pytest.raises(ValueError, match="channel of style_epsilon"):
        ExperimentConfig(channel="bag", style_epsilon=2)
