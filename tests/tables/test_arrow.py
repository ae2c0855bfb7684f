"""emprivacy.tables.arrow: a column of an Arrow table or record-batch stream (issue 24, item 2)."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from emprivacy import Embeddings
from emprivacy.tables.arrow import privatize_batches, privatize_table
from emprivacy.tables.batch import privatize_texts

REVIEWS = ["The cat met a dog at the harbour.", None, "", "A bus and a car.", "sun sun sun",
           "Zebra!", "Dog.", "The car drifted past the quiet cat.", "cat dog car bus sun",
           "A cat.", None, "dog and bus", "The sun, the car and the dog."]


@pytest.fixture
def emb() -> Embeddings:
    return Embeddings(["cat", "dog", "car", "bus", "sun"],
                      [[0, 0], [1, 0], [10, 10], [11, 10], [-10, 5]], name="tiny")


@pytest.fixture
def table() -> pa.Table:
    return pa.table({"id": list(range(len(REVIEWS))), "review": REVIEWS,
                     "stars": [float(i % 5) for i in range(len(REVIEWS))]})


def test_the_release_replaces_the_column_in_place(emb, table):
    out = privatize_table(table, "review", epsilon=5, embeddings=emb, seed=1)
    assert out.column_names[:3] == ["id", "review", "stars"]
    assert out.column("review").to_pylist() == [
        r.release for r in privatize_texts(REVIEWS, epsilon=5, embeddings=emb, seed=1)]
    # the original column rides along nowhere
    assert not any(out.column(n).equals(table.column("review")) for n in out.column_names)
    assert "Zebra!" not in out.column("review").to_pylist()


def test_keep_original_keeps_it_under_its_name_with_the_release_beside(emb, table):
    out = privatize_table(table, "review", keep_original=True, epsilon=5, embeddings=emb,
                          seed=1)
    assert out.column_names[:4] == ["id", "review", "review_private", "stars"]
    assert out.column("review").to_pylist() == REVIEWS
    named = privatize_table(table, "review", keep_original=True, out_column="safe",
                            epsilon=5, embeddings=emb, seed=1)
    assert named.column("safe").equals(out.column("review_private"))


def test_out_column_without_keep_original_renames_the_release(emb, table):
    out = privatize_table(table, "review", out_column="safe", epsilon=5, embeddings=emb)
    assert out.column_names[:3] == ["id", "safe", "stars"] and "review" not in out.column_names


def test_metadata_columns_types_and_the_runs_shared_fields(emb, table):
    out = privatize_table(table, "review", epsilon=5, embeddings=emb, seed=1)
    meta = [n for n in out.column_names if n.startswith("emprivacy_")]
    assert meta == ["emprivacy_n_words", "emprivacy_epsilon_total",
                    "emprivacy_words_perturbed", "emprivacy_stopwords_kept",
                    "emprivacy_oov_placeholders", "emprivacy_oov_dropped", "emprivacy_oov_kept",
                    "emprivacy_numbers", "emprivacy_urls", "emprivacy_emails", "emprivacy_paths",
                    "emprivacy_symbols", "emprivacy_guarantee", "emprivacy_mechanism",
                    "emprivacy_skipped"]
    assert out.schema.field("emprivacy_n_words").type == pa.int64()
    assert out.schema.field("emprivacy_epsilon_total").type == pa.float64()
    assert out.schema.field("emprivacy_guarantee").type == pa.dictionary(pa.int32(),
                                                                         pa.string())
    assert out.column("emprivacy_skipped").to_pylist()[:3] == [None, None, "empty"]
    shared = json.loads(out.schema.metadata[b"emprivacy:review"])
    assert shared["epsilon"] == 5.0 and shared["seeded"] is True
    assert shared["embeddings"] == {"name": "tiny", "vocab_size": 5}
    bare = privatize_table(table, "review", epsilon=5, embeddings=emb, metadata=False)
    assert bare.column_names == ["id", "review", "stars"]
    other = privatize_table(table, "review", epsilon=5, embeddings=emb, prefix="p_")
    assert "p_n_words" in other.column_names


def test_nulls_and_their_metadata_stay_null(emb, table):
    out = privatize_table(table, "review", epsilon=5, embeddings=emb, seed=1).to_pylist()
    for row in (out[1], out[10]):
        assert all(v is None for k, v in row.items() if k not in ("id", "stars"))


def test_bag_mode_releases_lists_of_strings(emb, table):
    out = privatize_table(table, "review", mode="bag", epsilon=5, embeddings=emb, seed=1)
    assert out.schema.field("review").type == pa.list_(pa.string())
    bags = out.column("review").to_pylist()
    assert bags[1] is None and bags[2] == [] and bags[5] is None  # null, empty, no vocab word
    assert out.column("emprivacy_skipped").to_pylist()[5] == "out_of_vocabulary"
    assert "emprivacy_guarantee" not in out.column_names  # bag records carry none


def test_other_columns_are_passed_through_without_copying(emb, table):
    out = privatize_table(table, "review", epsilon=5, embeddings=emb, keep_original=True)
    for name in ("id", "review", "stars"):
        before = [b.address for c in table.column(name).chunks for b in c.buffers() if b]
        after = [b.address for c in out.column(name).chunks for b in c.buffers() if b]
        assert before == after
    batches = privatize_batches(table.to_reader(max_chunksize=4), "review", epsilon=5,
                                embeddings=emb, batch_rows=2, keep_original=True)
    first = table.to_batches(max_chunksize=4)[0]
    got = batches.read_next_batch()
    assert got.column(0).buffers()[1].address == first.column(0).buffers()[1].address


def test_a_table_with_no_rows(emb, table):
    empty = table.slice(0, 0)
    out = privatize_table(empty, "review", epsilon=5, embeddings=emb)
    assert out.num_rows == 0
    assert out.schema == privatize_table(table, "review", epsilon=5, embeddings=emb).schema
    reader = privatize_batches(iter([]), "review", schema=table.schema, epsilon=5,
                               embeddings=emb)
    assert reader.read_all().num_rows == 0


def test_a_missing_column_names_it_and_the_columns_there_are(emb, table):
    with pytest.raises(KeyError, match="column 'text' is not in the table; its columns are "
                       "'id', 'review', 'stars'"):
        privatize_table(table, "text", epsilon=5, embeddings=emb)
    with pytest.raises(KeyError, match="column 'text' is not in the table"):
        privatize_batches(table.to_reader(), "text", epsilon=5, embeddings=emb)


@pytest.mark.parametrize("name", ["id", "stars"])
def test_a_column_of_no_strings_is_a_type_error(emb, table, name):
    with pytest.raises(TypeError, match=f"column '{name}' must hold strings; its type is "):
        privatize_table(table, name, epsilon=5, embeddings=emb)


def test_columns_are_checked_before_the_embeddings_are_loaded(table, tmp_path):
    """No file at the embeddings path: the column's error comes first."""
    with pytest.raises(KeyError):
        privatize_table(table, "text", epsilon=5, embeddings=tmp_path / "none.txt")
    with pytest.raises(ValueError, match="out_column 'id' is already a column"):
        privatize_table(table, "review", out_column="id", epsilon=5,
                        embeddings=tmp_path / "none.txt")


@pytest.mark.parametrize("kwargs, match", [
    ({"keep_original": True, "out_column": "review"}, "out_column must differ from column"),
    ({"out_column": "stars"}, "out_column 'stars' is already a column of the table"),
    ({"prefix": "st"}, "metadata column 'stn_words'|give another prefix"),
])
def test_names_taken_twice_are_refused(emb, table, kwargs, match):
    table = table.append_column("stn_words", pa.array([0] * table.num_rows))
    with pytest.raises(ValueError, match=match):
        privatize_table(table, "review", epsilon=5, embeddings=emb, **kwargs)


def test_an_unknown_option_lists_the_options(emb, table):
    with pytest.raises(TypeError, match="unexpected keyword argument 'epsilonn'; the options"):
        privatize_table(table, "review", epsilonn=5, embeddings=emb)


@pytest.mark.parametrize("arrow_type", [pa.string(), pa.large_string(), pa.string_view(),
                                        pa.dictionary(pa.int32(), pa.string())])
def test_every_string_type_is_released_alike(emb, arrow_type):
    column = pa.array(REVIEWS, type=pa.string()).cast(arrow_type)
    out = privatize_table(pa.table({"review": column}), "review", epsilon=5, embeddings=emb,
                          seed=2)
    expected = [r.release for r in privatize_texts(REVIEWS, epsilon=5, embeddings=emb, seed=2)]
    assert out.column("review").to_pylist() == expected
    assert out.schema.field("review").type == (pa.large_string()
                                               if arrow_type == pa.large_string()
                                               else pa.string())


def test_a_column_of_nulls_only(emb):
    out = privatize_table(pa.table({"review": pa.nulls(3)}), "review", epsilon=5,
                          embeddings=emb)
    assert out.column("review").to_pylist() == [None, None, None]


@pytest.mark.parametrize("mode", ["text", "bag"])
def test_a_seeded_release_does_not_depend_on_chunks_batches_or_block_size(emb, table, mode):
    kwargs = {"epsilon": 0.5, "embeddings": emb, "seed": 9, "mode": mode}
    whole = privatize_table(table, "review", **kwargs).column("review").to_pylist()
    for size in (1, 7, table.num_rows):
        chunked = pa.Table.from_batches(table.to_batches(max_chunksize=size))
        assert chunked.column("review").num_chunks == -(-table.num_rows // size)
        got = privatize_table(chunked, "review", batch_rows=size, **kwargs)
        assert got.column("review").to_pylist() == whole
        stream = privatize_batches(table.to_reader(max_chunksize=size), "review", **kwargs)
        assert stream.read_all().column("review").to_pylist() == whole
        listed = privatize_batches(table.to_batches(max_chunksize=size), "review",
                                   batch_rows=3, **kwargs)
        assert listed.read_all().column("review").to_pylist() == whole


def test_batches_are_read_as_the_output_is(emb, table):
    """Bounded memory: one input batch at a time, pulled by the reader."""
    pulled = []

    def source():
        for batch in table.to_batches(max_chunksize=2):
            pulled.append(batch.num_rows)
            yield batch

    reader = privatize_batches(source(), "review", epsilon=5, embeddings=emb, batch_rows=1)
    assert len(pulled) == 1  # the first batch, for the schema
    reader.read_next_batch()
    reader.read_next_batch()
    assert len(pulled) == 1  # a batch of 2 rows comes out as 2 slices of 1
    reader.read_next_batch()
    assert len(pulled) == 2


def test_stream_errors(emb, table):
    with pytest.raises(ValueError, match="no record batches and no schema"):
        privatize_batches(iter([]), "review", epsilon=5, embeddings=emb)
    with pytest.raises(TypeError, match="use privatize_table"):
        privatize_batches(table, "review", epsilon=5, embeddings=emb)
    other = pa.table({"id": [1], "review": ["x"]}).to_batches()[0]
    reader = privatize_batches([*table.to_batches(), other], "review", epsilon=5,
                               embeddings=emb)
    with pytest.raises(ValueError, match="record batch 1 has another schema"):
        reader.read_all()


def test_a_record_batch_is_a_table_of_one_batch(emb, table):
    batch = table.to_batches()[0]
    out = privatize_table(batch, "review", epsilon=5, embeddings=emb, seed=1)
    assert out.column("review").equals(
        privatize_table(table, "review", epsilon=5, embeddings=emb, seed=1).column("review"))
    with pytest.raises(TypeError, match=r"table must be a pyarrow\.Table; got list"):
        privatize_table([1], "review", epsilon=5, embeddings=emb)


def test_a_repeated_column_name_is_refused(emb):
    table = pa.Table.from_arrays([pa.array(["a"]), pa.array(["b"])], names=["x", "x"])
    with pytest.raises(ValueError, match="column 'x' appears 2 times in the table"):
        privatize_table(table, "x", epsilon=5, embeddings=emb)
