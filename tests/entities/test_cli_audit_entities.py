"""``emprivacy audit --entities``: the entity rows, files and settings, and the one-line errors
(a tiny embeddings file of real names and places, the ``capitalised`` detector)."""

import csv
import io
import json

import numpy as np
import pytest

from emprivacy.cli import main

NAMES = ["ann", "bob", "eve", "zoe", "max", "ida", "tom"]
PLACES = ["oslo", "tree", "saw"]  # on the place list only (the census lists take many words)
COMMON = ["cat", "dog", "met", "today", "road", "quiet"]


@pytest.fixture
def env(tmp_path):
    gen = np.random.default_rng(0)
    words = NAMES + PLACES + COMMON
    vectors = np.vstack([gen.normal(size=(len(NAMES), 3)), 9 + gen.normal(size=(3, 3)),
                         30 + 5 * gen.normal(size=(len(COMMON), 3))])
    emb = tmp_path / "emb.txt"
    emb.write_text("".join(f"{w} {' '.join(f'{x:.4f}' for x in v)}\n"
                           for w, v in zip(words, vectors, strict=True)), encoding="utf-8")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(8):
        a, b = NAMES[i % 7], NAMES[(i + 3) % 7]
        (corpus / f"{i}.txt").write_text(
            f"the cat met {a.title()} and {b.title()} in Oslo today. the dog was quiet.",
            encoding="utf-8")
    return {"emb": emb, "corpus": corpus, "out": tmp_path / "out"}


def audit(env, *args):
    return ["audit", str(env["corpus"]), "--embeddings", str(env["emb"]), "-q", "-e", "10",
            "--seed", "3", *args]


def test_json_has_the_entity_audit(env, capsys):
    code = main(audit(env, "--mechanism", "santext", "--entities", "capitalised",
                      "--entity-epsilon", "0.5", "--json"))
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    o = json.loads(out)
    e = o["entities"]
    assert e["detectors"] == "capitalised" and e["entity_epsilon"] == 0.5
    assert e["mentions"] == {"PERSON": 16, "LOCATION": 8}
    person = e["types"]["PERSON"]
    assert person["epsilon"] == 0.5 and person["channel"] == "exact"
    assert person["secrets"] == 7
    # the general audit is that of a run without --entities (its own streams)
    main(audit(env, "--mechanism", "santext", "--json"))
    plain = json.loads(capsys.readouterr()[0])
    assert "entities" not in plain
    assert plain["posterior_vulnerability"] == o["posterior_vulnerability"]


def test_out_files_and_settings(env, capsys):
    code = main(audit(env, "--mechanism", "madlib", "--draws", "40", "--entities",
                      "capitalised", "--entity-policy", "ORG=keep", "--reconstruct",
                      "--out", str(env["out"])))
    _, err = capsys.readouterr()
    assert code == 0 and err == ""  # -q: not even the warning about ORG=keep
    report = json.loads((env["out"] / "audit.json").read_text(encoding="utf-8"))
    settings = report["settings"]
    assert settings["entities"] == {"detectors": "capitalised", "entity_epsilon": 1.0,
                                    "entity_policy": {"ORG": "keep"}}
    assert "--entities capitalised --entity-epsilon 1.0 --entity-policy=ORG=keep" in (
        settings["command"])
    result = report["results"][0]
    assert result["entities"]["types"]["PERSON"]["channel"] == "sampled"
    assert "entity" in result["reconstruction"]["classes"]
    assert result["reconstruction"]["entities"]["slots"]["PERSON"] == 8  # 4 documents
    rows = list(csv.DictReader(io.StringIO(
        (env["out"] / "entities.csv").read_text(encoding="utf-8"))))
    assert [r["entity_type"] for r in rows] == ["PERSON", "LOCATION"]
    assert "## Entities" in (env["out"] / "audit.md").read_text(encoding="utf-8")
    # a later audit without --entities removes entities.csv
    assert main(audit(env, "--mechanism", "tem", "--out", str(env["out"]))) == 0
    assert not (env["out"] / "entities.csv").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--entities", "regex"], "entities must be 'auto', 'none' or a comma list"),
    (["--entities", "capitalised", "--entity-epsilon", "-1"],
     "--entity-epsilon must be a finite number > 0; got -1.0"),
    (["--entity-epsilon", "0.5"], "--entity-epsilon and --entity-policy apply with "
     "--entities"),
    (["--entities", "capitalised", "--entity-policy", "PHONE=keep"],
     "entity policy of PHONE must be one of 'placeholder'"),
    (["--entities", "capitalised", "--reconstruct", "--mode", "bag"],
     "apply to --mode text: bags do not detect entities yet"),
])
def test_bad_entity_options_are_one_line(env, capsys, args, message):
    assert main(audit(env, *args)) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("emprivacy: error: ") and message in err
