"""One keying for every table path (issue 30, item 10).

Two seeded calls used to number their rows from 0 each: the obvious resume of an
interrupted Arrow stream (the remaining rows privatised with the same seed and appended)
perturbed row ``n + k`` with row ``k``'s noise stream.  And the paths keyed rows two ways
(the command line, Arrow, pandas and Polars by index; ``datasets`` and Spark by index or id
and text), so one seed gave two releases.  Now every path keys row ``i`` (or the row of id
``s``) of text ``t`` by ``f"{i}#{text_digest(t)}"``: a stream never serves two texts, a
resume with ``first_index`` (or an id column) releases what one run would have, and one
seed gives one release on every path.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from emprivacy.tables import privatize_parquet, privatize_texts
from emprivacy.tables.arrow import privatize_batches, privatize_table

from ..helpers import EMBEDDINGS_FILE, run_cli

WORDS = ["cat", "dog", "car", "bus", "sun", "harbour", "quiet", "drifted"]
REVIEWS = ["The cat met a dog at the harbour.", None, "", "A bus and a car.", "sun sun sun",
           "Zebra!", "The car drifted past the quiet cat.", "dog", "A cat."]


@pytest.fixture
def emb(tmp_path: Path) -> Path:
    path = tmp_path / "emb.txt"
    path.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    return path


def stream(table: pa.Table, rows: int = 3) -> pa.RecordBatchReader:
    return pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=rows))


def test_resuming_an_interrupted_stream_never_reuses_a_rows_noise(emb):
    """Rows ``n + k`` hold row ``k``'s four words and one more ("zebra"): if row ``n + k``
    drew row ``k``'s stream, their four first words would come out the same in every row;
    with independent streams, at ε = 0.3 on the tiny vocabulary, in under 1 row in 100
    (the datasets test measured 0 to 0.005).  Threshold 0.4: far from both."""
    gen = np.random.default_rng(0)
    first = [" ".join(gen.choice(WORDS, 4)) for _ in range(200)]
    whole = pa.table({"id": list(range(400)), "text": first + [t + " zebra" for t in first]})
    kwargs = {"epsilon": 0.3, "embeddings": emb, "seed": 4, "metadata": False}
    one_run = privatize_batches(stream(whole, 64), "text", **kwargs).read_all()
    done = privatize_batches(stream(whole.slice(0, 200), 64), "text", **kwargs).read_all()
    assert done.column("text").equals(one_run.slice(0, 200).column("text"))
    # the obvious resume: the rest, the same seed, numbered from 0 again
    rest = privatize_batches(stream(whole.slice(200), 64), "text", **kwargs).read_all()
    a, b = done.column("text").to_pylist(), rest.column("text").to_pylist()
    same = np.mean([x.split()[:4] == y.split()[:4] for x, y in zip(a, b, strict=True)])
    assert same < 0.4
    # the right resume: where the first run stopped (the rows written), or by an id column
    resumed = privatize_batches(stream(whole.slice(200), 64), "text", first_index=200,
                                **kwargs).read_all()
    assert resumed.column("text").equals(one_run.slice(200).column("text"))
    by_id = privatize_table(whole, "text", id_column="id", **kwargs)
    rest_by_id = privatize_table(whole.slice(200), "text", id_column="id", **kwargs)
    assert rest_by_id.column("text").equals(by_id.slice(200).column("text"))


def test_an_interrupted_parquet_writer_resumed_from_its_row_count(emb, tmp_path):
    """TABLES.md's recipe: the rows of the partial file are counted, the rest released from
    there (``first_index``) into a second file; the two files are the one run's table."""
    table = pa.table({"text": REVIEWS * 5})
    kwargs = {"epsilon": 0.5, "embeddings": emb, "seed": 2}
    expected = privatize_table(table, "text", **kwargs)
    (tmp_path / "out").mkdir()
    partial = tmp_path / "out" / "part-0.parquet"
    reader = privatize_batches(stream(table, 4), "text", **kwargs)
    with pq.ParquetWriter(partial, reader.schema) as writer:
        for k, batch in enumerate(reader):
            if k == 3:
                break  # interrupted: the writer closes a valid, shorter file
            writer.write_batch(batch)
    n = pq.ParquetFile(partial).metadata.num_rows
    assert n == 12
    rest = privatize_batches(stream(table.slice(n), 4), "text", first_index=n, **kwargs)
    pq.write_table(rest.read_all(), tmp_path / "out" / "part-1.parquet")
    both = pa.concat_tables([pq.read_table(tmp_path / "out" / f"part-{k}.parquet")
                             for k in (0, 1)])
    assert both.to_pylist() == expected.to_pylist()


def releases_of_every_path(emb: Path, tmp_path: Path, capsys, table: pa.Table,
                           **kwargs) -> dict[str, list]:
    """The release of ``table``'s ``text`` column on every path that runs in this process,
    with one seed (``kwargs``: ``id_column``, if any)."""
    from emprivacy.tables.pandas import privatize_frame

    options = {"epsilon": 0.5, "embeddings": emb, "seed": 9, **kwargs}
    out = {
        "arrow": privatize_table(table, "text", **options).column("text").to_pylist(),
        "stream": privatize_batches(stream(table), "text", batch_rows=2, **options)
        .read_all().column("text").to_pylist(),
        "pandas": [None if v is None or v != v else v for v in  # its missing value: NaN
                   privatize_frame(table.to_pandas(), "text", **options)["text"].tolist()],
    }
    if not kwargs:
        out["texts"] = [r.release for r in privatize_texts(table.column("text").to_pylist(),
                                                           batch_rows=4, **options)]
    if importlib.util.find_spec("polars"):
        import polars as pl

        from emprivacy.tables.polars import privatize, privatize_expr

        frame = pl.from_arrow(table)
        out["polars"] = privatize(frame, "text", **options)["text"].to_list()
        lazy = privatize(frame.lazy(), "text", **options)
        out["polars lazy"] = lazy.collect()["text"].to_list()
        out["polars lazy, collected again"] = lazy.collect()["text"].to_list()
        out["polars expr"] = frame.select(privatize_expr("text", **options))["text"].to_list()
    pq.write_table(table, tmp_path / "in.parquet")
    privatize_parquet(tmp_path / "in.parquet", tmp_path / "lib.parquet", **options)
    out["privatize_parquet"] = pq.read_table(tmp_path / "lib.parquet").column("text").to_pylist()
    code, _, err = run_cli(["obfuscate", str(tmp_path / "in.parquet"), "-e", "0.5", "--seed",
                            "9", "--embeddings", str(emb), "--readable", "-q", "-o",
                            str(tmp_path / "cli.parquet")]
                           + (["--id-column", kwargs["id_column"]] if kwargs else []), capsys)
    assert code == 0, err
    out["obfuscate"] = pq.read_table(tmp_path / "cli.parquet").column("text").to_pylist()
    if not kwargs and importlib.util.find_spec("datasets"):
        import datasets

        from emprivacy.tables.datasets import mapper

        ds = datasets.Dataset(table)
        out["datasets"] = ds.map(mapper(column="text", **options), batched=True,
                                 with_indices=True, batch_size=3)["text"][:]
    return out


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("kwargs", [{}, {"id_column": "id"}], ids=["by index", "by id"])
def test_one_seed_gives_one_release_on_every_path(emb, tmp_path, capsys, monkeypatch,
                                                 kwargs):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    table = pa.table({"id": pa.array([10 * k + 3 for k in range(len(REVIEWS))], pa.int64()),
                      "text": REVIEWS})
    out = releases_of_every_path(emb, tmp_path, capsys, table, **kwargs)
    reference = out.pop("arrow")
    assert reference[1] is None and reference[2] == ""
    for path, released in out.items():
        assert released == reference, path
    by_other_key = privatize_table(table, "text", epsilon=0.5, embeddings=emb, seed=9,
                                   **({} if kwargs else {"id_column": "id"}))
    assert by_other_key.column("text").to_pylist() != reference  # the key is in the release


@pytest.mark.parametrize("call, error, match", [
    (lambda t, o: privatize_table(t, "text", id_column="id", first_index=3, **o), ValueError,
     "give first_index or id_column, not both"),
    (lambda t, o: privatize_table(t, "text", first_index=-1, **o), ValueError,
     "first_index must be an integer >= 0; got -1"),
    (lambda t, o: privatize_table(t, "text", id_column="stars", **o), TypeError,
     "id_column 'stars' must hold integers or strings; its type is double"),
    (lambda t, o: privatize_table(t, "text", id_column="key", **o), KeyError,
     "id_column 'key' is not in the table; its columns are 'id', 'text', 'stars'"),
    (lambda t, o: privatize_table(t.set_column(0, "id", pa.array([1, None, 3])), "text",
                                  id_column="id", **o), ValueError,
     r"id_column 'id' is null in row 1 \(counted from 0\)"),
    (lambda t, o: privatize_table(t.set_column(0, "id", pa.array([1, 1, 3])), "text",
                                  id_column="id", **o), ValueError, "row id '1' is repeated"),
])
def test_the_keys_are_checked(emb, call, error, match):
    table = pa.table({"id": [1, 2, 3], "text": ["A cat.", None, "A dog."],
                      "stars": [1.0, 2.0, 3.0]})
    with pytest.raises(error, match=match):
        call(table, {"epsilon": 1, "embeddings": emb})
