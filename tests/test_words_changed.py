"""How many privatised words came back unchanged (issue 30, item 12).

At ε = 10 many rows came back unchanged and nothing said so.  Every run now counts, per
document (row), the privatised words the mechanism released as another word, and the
summary line says how many documents came back unchanged.  The per-record (per-row)
``words_changed`` is a function of the private text, outside the guarantee: it is written
only when asked (``count_changed`` / ``--count-changed``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest

from emprivacy import Embeddings, ObfuscationConfig, Obfuscator
from emprivacy.io.documents import Document
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.tables import privatize_texts
from emprivacy.tables.arrow import privatize_table

from .helpers import EMBEDDINGS_FILE, run_cli

WORDS = ["cat", "dog", "car", "bus", "sun"]
#: Texts of vocabulary words only, no stopword: every word is privatised, in order.
TEXTS = ["cat dog car bus sun", "sun sun cat", "dog", "car bus car bus car bus"]


@pytest.fixture
def emb() -> Embeddings:
    return Embeddings(WORDS, [[0, 0], [1, 0], [10, 10], [11, 10], [-10, 5]], name="tiny")


def changed_by_position(original: str, released: str) -> int:
    """The words a text-mode release changed, counted from the two texts (one word per
    position: no stopwords, no placeholders)."""
    a, b = original.lower().split(), released.lower().split()
    assert len(a) == len(b)
    return sum(x != y for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("block_words", [65536, 2])  # one block; the long-document path
def test_each_record_counts_the_words_the_mechanism_changed(emb, block_words):
    config = ObfuscationConfig(mode="text", count_changed=True, block_words=block_words)
    obf = Obfuscator(EarthMoversPrivacy(emb, epsilon=0.4), config, seed=3)
    records = list(obf.obfuscate(Document(str(k), t) for k, t in enumerate(TEXTS)))
    expected = [changed_by_position(t, r["text"]) for t, r in zip(TEXTS, records, strict=True)]
    assert [r["words_changed"] for r in records] == expected
    assert 0 < sum(expected) < sum(len(t.split()) for t in TEXTS)  # some kept, some changed
    assert list(records[0])[list(records[0]).index("words_perturbed") + 1] == "words_changed"
    assert obf.words_changed == sum(expected)
    assert obf.documents_with_words == len(TEXTS)
    assert obf.documents_unchanged == expected.count(0)


@pytest.mark.parametrize("block_words", [65536, 2])
def test_bags_count_them_too_and_only_when_asked(emb, block_words):
    mech = EarthMoversPrivacy(emb, epsilon=1e6)  # nothing moves: every word comes out as itself
    asked = Obfuscator(mech, ObfuscationConfig(count_changed=True, block_words=block_words),
                       seed=1)
    records = list(asked.obfuscate(Document(str(k), t) for k, t in enumerate(TEXTS)))
    assert [r["words_changed"] for r in records] == [0, 0, 0, 0]
    keys = list(records[0])
    assert keys[keys.index("oov_dropped") - 1] == "words_changed"  # after the shared fields
    assert asked.documents_unchanged == asked.documents_with_words == 4
    plain = Obfuscator(EarthMoversPrivacy(emb, epsilon=0.01), seed=1)
    records = list(plain.obfuscate(Document(str(k), t) for k, t in enumerate(TEXTS)))
    assert all("words_changed" not in r for r in records)  # not asked: not written
    assert plain.words_changed > 0 and plain.documents_unchanged < 4  # counted all the same
    with pytest.raises(TypeError, match="count_changed must be a bool; got int"):
        ObfuscationConfig(count_changed=1)  # type: ignore[arg-type]


def test_the_column_paths_carry_it_as_a_metadata_column(emb):
    out = privatize_texts([*TEXTS, None, ""], epsilon=0.4, embeddings=emb, seed=3,
                          count_changed=True)
    rows = list(out)
    expected = [changed_by_position(t, r.release) for t, r in zip(TEXTS, rows, strict=False)]
    assert [r.metadata["words_changed"] for r in rows[:4]] == expected
    assert rows[4].metadata is None and rows[5].metadata["words_changed"] == 0
    assert (out.with_words, out.unchanged, out.words_changed) == (
        4, expected.count(0), sum(expected))
    table = privatize_table(pa.table({"t": TEXTS}), "t", epsilon=0.4, embeddings=emb, seed=3,
                            count_changed=True)
    assert table.column("emprivacy_words_changed").to_pylist() == expected
    assert "emprivacy_words_changed" not in privatize_table(
        pa.table({"t": TEXTS}), "t", epsilon=0.4, embeddings=emb, seed=3).column_names
    bags = privatize_table(pa.table({"t": ["zebra yak", *TEXTS]}), "t", mode="bag",
                           epsilon=0.4, embeddings=emb, seed=3, count_changed=True)
    assert bags.column("emprivacy_words_changed")[0].as_py() == 0  # skipped: nothing moved


def test_datasets_counts_add_the_unchanged_rows(emb, tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    from emprivacy.tables.datasets import counts, mapper

    path = tmp_path / "emb.txt"
    path.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    ds = datasets.Dataset.from_dict({"t": [*TEXTS, None]})
    out = ds.map(mapper(column="t", epsilon=1e6, embeddings=path, count_changed=True),
                 batched=True, with_indices=True)
    assert counts(out)["unchanged"] == counts(out)["with_words"] == 4
    plain = ds.map(mapper(column="t", epsilon=1e6, embeddings=path), batched=True,
                   with_indices=True)
    assert "unchanged" not in counts(plain)


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "emb.txt").write_text(EMBEDDINGS_FILE, encoding="utf-8")
    docs = tmp_path / "d.jsonl"
    docs.write_text("".join(json.dumps({"id": f"d{k}", "text": t}) + "\n"
                            for k, t in enumerate(TEXTS)), encoding="utf-8")
    return {"emb": tmp_path / "emb.txt", "docs": docs, "root": tmp_path}


@pytest.mark.parametrize("output, extra", [
    ("o.jsonl", []),                    # one process
    ("o.parquet", []),                  # a corpus run (a directory of Parquet files)
])
def test_the_summary_line_says_how_many_came_back_unchanged(files, capsys, output, extra):
    code, _, err = run_cli(["obfuscate", "d.jsonl", "-e", "1000000", "--embeddings",
                            "emb.txt", "--readable", "-o", output, *extra], capsys)
    assert code == 0, err
    assert err.splitlines()[-1].endswith(
        "; 4 of 4 document(s) with privatised words released unchanged (100%: every "
        "privatised word came out as itself; a smaller epsilon changes more)")
    code, _, err = run_cli(["obfuscate", "d.jsonl", "-e", "0.01", "--embeddings", "emb.txt",
                            "--readable", "--seed", "2", "-o", "x" + output, *extra], capsys)
    assert code == 0 and "unchanged" not in err  # none came back unchanged: nothing to say


def test_count_changed_writes_the_field_into_records_and_tables(files, capsys):
    code, _, err = run_cli(["obfuscate", "d.jsonl", "-e", "0.4", "--seed", "3",
                            "--embeddings", "emb.txt", "--readable", "--count-changed",
                            "-q", "-o", "o.jsonl"], capsys)
    assert code == 0, err
    records = [json.loads(line) for line in (files["root"] / "o.jsonl").read_text().splitlines()]
    assert [r["words_changed"] for r in records] == [
        changed_by_position(t, r["text"]) for t, r in zip(TEXTS, records, strict=True)]
    code, _, err = run_cli(["obfuscate", "d.jsonl", "-e", "0.4", "--embeddings", "emb.txt",
                            "-q", "-o", "p.jsonl"], capsys)
    assert code == 0 and "words_changed" not in (files["root"] / "p.jsonl").read_text()
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": [1, 2, 3, 4], "text": TEXTS}), files["root"] / "t.parquet")
    code, _, err = run_cli(["obfuscate", "t.parquet", "-e", "1000000", "--embeddings",
                            "emb.txt", "--readable", "--count-changed", "-o", "o.parquet"],
                           capsys)
    assert code == 0, err
    assert err.splitlines()[-1] == (
        "emprivacy: wrote 4 row(s) to o.parquet, column 'text' released in place; 4 of 4 "
        "row(s) with privatised words released unchanged (100%: every privatised word came "
        "out as itself; a smaller epsilon changes more)")
    assert pq.read_table(files["root"] / "o.parquet").column(
        "emprivacy_words_changed").to_pylist() == [0, 0, 0, 0]
