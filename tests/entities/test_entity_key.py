"""One person, one surrogate, across a whole corpus (issue 40, item 7): with an entity key each
distinct entity word draws its surrogate once for the release, keyed by the word and the key,
on every path — privatize_texts, pandas, the command line, a Dask cluster (and Spark:
tests/tables/test_spark.py) — and whatever the run's seed.  Without a key a name is drawn
afresh in every document, and every record says what that costs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from emprivacy.cli import main
from emprivacy.obfuscation import ObfuscationConfig
from emprivacy.obfuscation.entities import ACROSS_DOCUMENTS, ACROSS_KEYED
from emprivacy.tables import privatize_texts

KEY = b"a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6"
OTHER_KEY = b"ffffffffffffffffffffffffffffffff"
TEXT = "then Margaret met Thompson in the hall, and later Margaret left"
#: The positions of the two names (words 1 and 3, and the second Margaret at 9).
NAMES = (1, 3, 9)
OPTIONS = {"epsilon": 1e6, "vocab_size": 20_000, "entities": "capitalised",
           "entity_epsilon": 1.0}


def names_of(text: str) -> tuple[str, str]:
    words = re.findall(r"[\w'’]+", text)
    assert words[1] == words[9], text  # one surrogate per word within a document
    return words[1], words[3]


def releases(n: int, **options) -> list[str]:
    return [row.release for row in privatize_texts([TEXT] * n, **{**OPTIONS, **options})]


def test_one_name_in_100_documents_gets_one_surrogate():
    pytest.importorskip("names")
    keyed = {names_of(t) for t in releases(100, seed=1, entity_key=KEY)}
    assert len(keyed) == 1
    (margaret, thompson), = keyed
    assert "margaret" not in (margaret.lower(), thompson.lower())
    # the seed does not matter, the key does
    assert {names_of(t) for t in releases(3, seed=2, entity_key=KEY)} == keyed
    assert {names_of(t) for t in releases(3, seed=1, entity_key=OTHER_KEY)} != keyed
    # without a key, each document draws its own: 100 documents, many surrogates
    assert len({names_of(t) for t in releases(100, seed=1)}) > 50


def test_the_record_says_how_names_compose():
    pytest.importorskip("names")
    keyed_run = privatize_texts([TEXT], **OPTIONS, seed=1, entity_key=KEY)
    fresh_run = privatize_texts([TEXT], **OPTIONS, seed=1)
    (keyed,), (fresh,) = list(keyed_run), list(fresh_run)
    assert ACROSS_KEYED in keyed.metadata["guarantee"]
    assert ACROSS_DOCUMENTS not in keyed.metadata["guarantee"]
    assert ACROSS_DOCUMENTS in fresh.metadata["guarantee"]
    assert keyed_run.metadata["entity_keyed"] is True
    assert "entity_keyed" not in fresh_run.metadata
    # the key is never in a record, nor in the configuration's repr
    dumped = json.dumps({**keyed.metadata, **keyed_run.metadata})
    assert KEY.decode() not in dumped
    assert KEY.decode() not in repr(ObfuscationConfig(mode="text", entities="capitalised",
                                                      entity_key=KEY))


@pytest.mark.parametrize("key, message", [
    (b"short", "entity_key must hold at least 16 bytes"),
    ("a str of 32 characters, not bytes", "entity_key must be bytes"),
])
def test_a_bad_key_is_refused(key, message):
    with pytest.raises((TypeError, ValueError), match=message):
        ObfuscationConfig(mode="text", entities="capitalised", entity_key=key)


def test_a_key_needs_a_detector():
    with pytest.raises(ValueError, match="entity_key applies with entities"):
        ObfuscationConfig(mode="text", entity_key=KEY)


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path]:
    key = tmp_path / "names.key"
    key.write_bytes(KEY + b"\n")  # as openssl rand -hex 32 writes it
    jsonl = tmp_path / "docs.jsonl"
    jsonl.write_text("".join(json.dumps({"id": f"d{i}", "text": TEXT}) + "\n"
                             for i in range(6)), encoding="utf-8")
    return key, jsonl


def test_every_path_draws_the_same_surrogate(corpus, tmp_path, capsys):
    """privatize_texts, pandas, the command line and a Dask cluster of one worker process."""
    pytest.importorskip("names")
    pd = pytest.importorskip("pandas")
    pytest.importorskip("distributed")
    from emprivacy.distributed import MechanismSettings, dask_client, obfuscate_corpus
    from emprivacy.tables.pandas import privatize_frame

    key, jsonl = corpus
    expected = {names_of(t) for t in releases(2, seed=5, entity_key=KEY)}
    assert len(expected) == 1

    frame = privatize_frame(pd.DataFrame({"text": [TEXT] * 3}), "text", seed=7,
                            entity_key=KEY, **OPTIONS)
    assert {names_of(t) for t in frame["text"]} == expected

    argv = ["obfuscate", str(jsonl), "-e", "1e6", "--vocab-size", "20000", "--readable",
            "--entities", "capitalised", "--entity-key", str(key), "-q"]
    assert main([*argv, "--seed", "9"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 6 and {names_of(r["text"]) for r in records} == expected
    assert all(r["entity_keyed"] for r in records)

    config = ObfuscationConfig(mode="text", entities="capitalised", entity_epsilon=1.0,
                               entity_key=KEY)
    out = tmp_path / "out.jsonl"
    with dask_client(n_workers=1) as client:
        obfuscate_corpus([str(jsonl)], out, client=client, seed=11, config=config,
                         partition_documents=2,
                         mechanism=MechanismSettings(epsilon=1e6, vocab_size=20_000))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6
    assert {names_of(json.loads(line)["text"]) for line in lines} == expected


@pytest.mark.parametrize("setup, message", [
    ("missing", "entity key file '{key}' does not exist; make one once and keep it: "
                "openssl rand -hex 32 > {key}"),
    ("short", "entity key file '{key}' holds 5 bytes; a key needs at least 16"),
    ("no-entities", "--entity-key applies with --entities"),
    ("output", "is also an input"),
])
def test_cli_key_faults_are_one_line(corpus, tmp_path, capsys, setup, message):
    key, jsonl = corpus
    if setup == "missing":
        key = tmp_path / "nokey"
    elif setup == "short":
        key.write_bytes(b"short")
    argv = ["obfuscate", str(jsonl), "-e", "10", "--vocab-size", "20000", "--readable",
            "--entity-key", str(key), "-q"]
    if setup != "no-entities":
        argv += ["--entities", "capitalised"]
    if setup == "output":
        argv += ["-o", str(key)]
    before = key.read_bytes() if key.exists() else None
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("emprivacy: error: "), err
    assert message.format(key=key) in err[0]
    if before is not None:
        assert key.read_bytes() == before  # the key file is an input: never replaced


def test_a_resumed_run_refuses_another_key(tmp_path):
    """An interrupted partitioned run continues only under its own key (another key would
    give the same people other surrogates in the rest of the corpus); its _run.json holds a
    keyed digest of the key, never the key."""
    pytest.importorskip("names")
    from emprivacy.distributed import MechanismSettings, obfuscate_corpus

    jsonl = tmp_path / "docs.jsonl"
    jsonl.write_text("".join(json.dumps({"id": f"d{i}", "text": TEXT}) + "\n"
                             for i in range(6)), encoding="utf-8")
    out, parts = tmp_path / "out.jsonl", tmp_path / "out.jsonl.parts"
    mechanism = MechanismSettings(epsilon=1e6, vocab_size=20_000)

    class Stop(Exception):
        pass

    def stop_after_two(done: int, total: int) -> None:
        if done >= 2:
            raise Stop

    def config(key: bytes) -> ObfuscationConfig:
        return ObfuscationConfig(mode="text", entities="capitalised", entity_key=key)

    with pytest.raises(Stop):
        obfuscate_corpus([str(jsonl)], out, mechanism=mechanism, seed=1, config=config(KEY),
                         partition_documents=1, progress=stop_after_two)
    assert KEY.decode() not in (parts / "_run.json").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="written with other settings"):
        obfuscate_corpus([str(jsonl)], out, mechanism=mechanism, seed=1,
                         config=config(OTHER_KEY), partition_documents=1, resume=True)
    obfuscate_corpus([str(jsonl)], out, mechanism=mechanism, seed=1, config=config(KEY),
                     partition_documents=1, resume=True)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6 and len({names_of(json.loads(x)["text"]) for x in lines}) == 1
