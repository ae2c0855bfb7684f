"""The column path releases what ``emprivacy obfuscate`` releases (issue 24, item 6).

Row ``i`` of text ``t`` of a column is the document of id ``f"{i}#{text_digest(t)}"``
(issue 30, item 10: every table path keys its rows by index or id *and* text, so that no
stream serves two texts; it used to be ``"i"``): with one seed, ``privatize_texts``
releases exactly the records of ``emprivacy obfuscate --seed`` on the JSONL file whose
line holds ``{"id": f"{i}#{text_digest(t)}", "text": t}`` — text, bag, the per-document
fields, the ``guarantee`` — for every mechanism and both modes; and its shared fields are
the records' own.  A two-sample test checks the laws too: the column path and the command
line, each under its own seed, release the same distribution of words.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from emprivacy.mechanisms.registry import MECHANISMS
from emprivacy.tables.batch import privatize_texts
from emprivacy.tables.privatizer import text_digest

from ..helpers import EMBEDDINGS_FILE, run_cli

TEXTS = ["The cat met a dog at the harbour.", "A bus and a car, quietly.", None,
         "sun sun sun", "Zeppelin factory!", "", "The car drifted past the quiet cat.",
         "zebra yak", "dog", "Dog and bus at 10:30, see https://example.org."]


def digest_id(i: int, text: str) -> str:
    """The identifier that keys row ``i`` of text ``text`` in every table path."""
    return f"{i}#{text_digest(text)}"


def cli_records(tmp_path: Path, capsys, texts, argv, *,
                id_of=digest_id) -> dict[str, dict]:
    """The records of ``emprivacy obfuscate`` on the JSONL of the non-null rows, by id
    (row ``i`` of text ``t`` has the id ``id_of(i, t)``: :func:`digest_id` by default)."""
    emb = tmp_path / "emb.txt"
    emb.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps({"id": id_of(i, t), "text": t}) + "\n"
                            for i, t in enumerate(texts) if t is not None), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, err = run_cli(["obfuscate", str(docs), "--embeddings", str(emb), "--format",
                            "jsonl", "--output", str(out), "--quiet", *argv], capsys)
    assert code == 0, err
    return {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}


@pytest.mark.parametrize("mode", ["text", "bag"])
@pytest.mark.parametrize("mechanism", sorted(MECHANISMS))
def test_the_column_releases_obfuscates_records(tmp_path, capsys, mechanism, mode):
    argv = ["--epsilon", "0.7", "--seed", "5", "--mechanism", mechanism,
            *(["--readable"] if mode == "text" else [])]
    records = cli_records(tmp_path, capsys, TEXTS, argv)
    out = privatize_texts(TEXTS, epsilon=0.7, mechanism=mechanism, mode=mode,
                          embeddings=tmp_path / "emb.txt", seed=5, batch_rows=3)
    rows = list(out)
    key = "text" if mode == "text" else "bag"
    released = 0
    for i, row in enumerate(rows):
        record = None if TEXTS[i] is None else records.get(digest_id(i, TEXTS[i]))
        if record is None:  # obfuscate skipped it (or it was null): no record
            assert TEXTS[i] is None or row.skipped in ("empty", "out_of_vocabulary")
            continue
        released += 1
        assert row.release == record[key]
        shared = {k: v for k, v in record.items() if k in out.metadata}
        assert shared == out.metadata  # the fields every record of the run shares
        fields = {k: v for k, v in record.items() if k not in out.metadata
                  and k not in ("id", key)}
        assert {k: row.metadata[k] for k in fields} == fields  # the guarantee too
        assert set(row.metadata) - set(fields) == {"mechanism", "skipped"}
        assert row.metadata["mechanism"] == mechanism and row.skipped is None
    assert released == len(records) >= 6


def test_text_records_carry_the_mechanisms_guarantee(tmp_path, capsys):
    records = cli_records(tmp_path, capsys, TEXTS, ["--epsilon", "1", "--seed", "1",
                                                    "--readable", "--mechanism",
                                                    "mahalanobis"])
    (row,) = privatize_texts(["A cat."], epsilon=1, mechanism="mahalanobis",
                             embeddings=tmp_path / "emb.txt", seed=1)
    assert row.metadata["guarantee"] == records[digest_id(0, TEXTS[0])]["guarantee"]
    assert "Mahalanobis" in row.metadata["guarantee"]


@pytest.mark.parametrize("oov", ["drop", "placeholder", "keep"])
def test_each_oov_policy_is_the_command_lines(tmp_path, capsys, oov, recwarn):
    records = cli_records(tmp_path, capsys, TEXTS, ["--epsilon", "2", "--seed", "3",
                                                    "--readable", "--oov", oov])
    rows = list(privatize_texts(TEXTS, epsilon=2, oov=oov, embeddings=tmp_path / "emb.txt",
                                seed=3))
    for label, record in records.items():
        i = int(label.partition("#")[0])
        assert label == digest_id(i, TEXTS[i])
        assert rows[i].release == record["text"]
        assert rows[i].metadata["oov_dropped"] == record["oov_dropped"]


def test_the_column_path_releases_the_command_lines_law(tmp_path, capsys):
    """Two-sample test on a tiny vocabulary: 1,500 rows of one sentence through the column
    path (seed 1) and through ``obfuscate`` (seed 2, its own noise): the released words'
    counts are homogeneous (chi-square, p > 0.001; seeded, so the test is deterministic)."""
    n, text = 1500, "cat dog harbour"
    texts = [text] * n
    records = cli_records(tmp_path, capsys, texts, ["--epsilon", "0.8", "--seed", "2"])
    column = Counter(w for row in privatize_texts(texts, epsilon=0.8, mode="bag",
                                                  embeddings=tmp_path / "emb.txt", seed=1)
                     for w in row.release)
    command = Counter(w for r in records.values() for w in r["bag"])
    assert sum(column.values()) == sum(command.values()) == 3 * n
    words = sorted(set(column) | set(command))
    table = np.array([[column[w] for w in words], [command[w] for w in words]])
    table = table[:, table.sum(axis=0) >= 10]  # the chi-square needs expected counts
    assert table.shape[1] >= 4  # several words released: a real comparison
    _, p, _, _ = chi2_contingency(table)
    assert p > 1e-3

