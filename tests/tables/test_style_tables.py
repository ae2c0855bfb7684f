"""The style option (``style_epsilon``) through every table path (issue 41): pandas, Arrow
(table, stream, Parquet, ``obfuscate`` on a table), Polars and ``datasets`` release what
``privatize_texts(..., style_epsilon=...)`` releases for one seed, and their metadata carries
the style guarantee and the style slots."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from emprivacy.embeddings.model import load_embeddings
from emprivacy.mechanisms import make_mechanism
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.tables import privatize_parquet
from emprivacy.tables.arrow import privatize_batches, privatize_table
from emprivacy.tables.batch import privatize_texts
from emprivacy.tables.privatizer import TextPrivatizer

from ..helpers import run_cli

#: Content words far apart, function words of three classes near one another.
STYLE_EMBEDDINGS = "\n".join([
    "the 0 0", "a 0.2 0", "this 0.4 0", "on 3 0", "in 3.2 0", "under 3.4 0",
    "she 6 0", "he 6.2 0", "cat 20 0", "mat 20 1", "sat 30 0", "dog 40 0",
]) + "\n"
TEXTS = ["The cat  sat on the mat , she sat ...", None, "", "A dog sat under this mat!!",
         "He sat in the mat; the cat sat on a dog."]
STYLE = {"epsilon": 3.0, "style_epsilon": 0.5, "seed": 7}


@pytest.fixture
def emb_path(tmp_path: Path) -> Path:
    path = tmp_path / "style-emb.txt"
    path.write_text(STYLE_EMBEDDINGS, encoding="utf-8")
    return path


def expected(emb_path: Path, **kwargs) -> list:
    return [r.release for r in privatize_texts(TEXTS, embeddings=emb_path,
                                               **{**STYLE, **kwargs})]


def check_guarantee(guarantees: list, style_words: list) -> None:
    released = [g for g in guarantees if g is not None]
    assert released and all("Style option (style_epsilon=0.5)" in g for g in released)
    assert style_words[0] == 4 and style_words[3] == 3  # The on the she; A under this


def test_privatize_texts_with_the_style_option_is_a_different_release(emb_path):
    plain = [r.release for r in privatize_texts(TEXTS, embeddings=emb_path, epsilon=3.0,
                                                seed=7)]
    styled = expected(emb_path)
    assert styled != plain
    assert "  " not in styled[0] and "!!" not in styled[3]  # punctuation canonical
    run = privatize_texts(TEXTS, embeddings=emb_path, **STYLE)
    rows = list(run)
    assert run.metadata["style_epsilon"] == 0.5 and rows[0].metadata["style_words"] == 4
    assert rows[0].metadata["epsilon_total"] == pytest.approx(3.0 * 4 + 0.5 * 4)


def test_arrow_table_stream_and_parquet(emb_path, tmp_path):
    table = pa.table({"text": TEXTS})
    out = privatize_table(table, "text", embeddings=emb_path, **STYLE)
    assert out.column("text").to_pylist() == expected(emb_path)
    check_guarantee(out.column("emprivacy_guarantee").to_pylist(),
                    out.column("emprivacy_style_words").to_pylist())
    stream = pa.Table.from_batches(list(privatize_batches(
        table.to_batches(max_chunksize=2), "text", embeddings=emb_path, **STYLE)))
    assert stream.column("text").to_pylist() == expected(emb_path)
    pq.write_table(table, tmp_path / "in.parquet")
    privatize_parquet(tmp_path / "in.parquet", tmp_path / "out.parquet",
                      embeddings=emb_path, **STYLE)
    assert pq.read_table(tmp_path / "out.parquet").equals(out)


def test_obfuscate_on_a_parquet_table_passes_the_style_option(emb_path, tmp_path, capsys,
                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    pq.write_table(pa.table({"text": TEXTS}), tmp_path / "t.parquet")
    code, _, err = run_cli(["obfuscate", "t.parquet", "-e", "3", "--embeddings",
                            str(emb_path), "--seed", "7", "--readable", "--style-epsilon",
                            "0.5", "-o", "o.parquet"], capsys)
    assert code == 0, err
    got = pq.read_table(tmp_path / "o.parquet")
    assert got.equals(privatize_table(pa.table({"text": TEXTS}), "text",
                                      embeddings=emb_path, **STYLE))


def test_pandas(emb_path):
    pd = pytest.importorskip("pandas")
    from emprivacy.tables.pandas import privatize_frame

    out = privatize_frame(pd.DataFrame({"text": TEXTS}), "text", embeddings=emb_path, **STYLE)
    got = [None if v is None or v != v else v for v in out["text"].tolist()]
    assert got == expected(emb_path)
    check_guarantee([None if g != g else g for g in out["emprivacy_guarantee"].tolist()],
                    out["emprivacy_style_words"].tolist())


@pytest.mark.parametrize("lazy", [False, True])
def test_polars(emb_path, lazy):
    pl = pytest.importorskip("polars")
    from emprivacy.tables.polars import privatize

    frame = pl.DataFrame({"text": TEXTS})
    out = privatize(frame.lazy() if lazy else frame, "text", embeddings=emb_path, **STYLE)
    out = out.collect() if lazy else out
    assert out["text"].to_list() == expected(emb_path)
    check_guarantee(out["emprivacy_guarantee"].to_list(),
                    out["emprivacy_style_words"].to_list())


def test_datasets_mapper(emb_path, tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets")
    from emprivacy.tables.datasets import mapper

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf")
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)
    m = mapper(column="text", embeddings=emb_path, **STYLE)
    out = datasets.Dataset.from_dict({"text": TEXTS}).map(m, batched=True, with_indices=True,
                                                          batch_size=2)
    # the mapper keys each row by its index and text (its docstring): the same privatizer
    mech = make_mechanism("madlib", load_embeddings(emb_path), epsilon=3.0)
    keyed = TextPrivatizer(mech, ObfuscationConfig(mode="text", style_epsilon=0.5), seed=7,
                           key_by_text=True).privatize(TEXTS)
    assert out["text"] == keyed.released
    assert m.metadata["style_epsilon"] == 0.5
    check_guarantee(out["emprivacy_guarantee"], out["emprivacy_style_words"])
    assert json.dumps(m.metadata)  # the shared fields stay plain JSON
