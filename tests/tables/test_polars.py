"""emprivacy.tables.polars: a column of a Polars DataFrame or LazyFrame, and the expression helper
(issue 24, item 3)."""

from __future__ import annotations

import sys

import pyarrow as pa
import pytest

from emprivacy import Embeddings
from emprivacy.exceptions import MissingExtraError
from emprivacy.tables.arrow import privatize_table
from emprivacy.tables.options import RunOptions

pl = pytest.importorskip("polars")
from emprivacy.tables.polars import SeriesPrivatizer, privatize, privatize_expr  # noqa: E402

REVIEWS = ["The cat met a dog at the harbour.", None, "", "A bus and a car.", "sun sun sun",
           "Zebra!", "Dog.", "The car drifted past the quiet cat.", "A cat."]


@pytest.fixture
def emb() -> Embeddings:
    return Embeddings(["cat", "dog", "car", "bus", "sun"],
                      [[0, 0], [1, 0], [10, 10], [11, 10], [-10, 5]], name="tiny")


@pytest.fixture
def df() -> pl.DataFrame:
    return pl.DataFrame({"id": list(range(len(REVIEWS))), "review": REVIEWS,
                         "stars": [float(i) for i in range(len(REVIEWS))]})


def arrow_release(emb, **kwargs) -> pa.Table:
    return privatize_table(pa.table({"review": REVIEWS}), "review", embeddings=emb, **kwargs)


@pytest.mark.parametrize("lazy", [False, True])
def test_the_frame_gets_the_release_and_metadata_of_the_arrow_path(emb, df, lazy):
    out = privatize(df.lazy() if lazy else df, "review", epsilon=5, embeddings=emb, seed=1)
    if lazy:
        assert isinstance(out, pl.LazyFrame)
        out = out.collect()
    expected = arrow_release(emb, epsilon=5, seed=1)
    assert out.columns == ["id", "review", "stars",
                           *(n for n in expected.column_names if n != "review")]
    for name in expected.column_names:
        assert out[name].to_list() == expected.column(name).to_pylist(), name
    assert out["emprivacy_n_words"].dtype == pl.Int64
    assert out["id"].to_list() == df["id"].to_list()


@pytest.mark.parametrize("lazy", [False, True])
def test_keep_original_bag_mode_and_no_metadata(emb, df, lazy):
    frame = df.lazy() if lazy else df
    out = privatize(frame, "review", keep_original=True, mode="bag", metadata=False,
                    epsilon=5, embeddings=emb, seed=2)
    out = out.collect() if lazy else out
    assert out.columns == ["id", "review", "review_private", "stars"]
    assert out["review"].to_list() == REVIEWS
    assert out["review_private"].dtype == pl.List(pl.String)
    expected = arrow_release(emb, epsilon=5, seed=2, mode="bag")
    assert out["review_private"].to_list() == expected.column("review").to_pylist()


def test_the_expression_helper(emb, df):
    released = df.with_columns(privatize_expr("review", out_column="safe", epsilon=5,
                                              embeddings=emb, seed=1))
    assert released.columns == ["id", "review", "stars", "safe"]
    expected = arrow_release(emb, epsilon=5, seed=1)
    assert released["safe"].to_list() == expected.column("review").to_pylist()
    with_meta = df.select(privatize_expr("review", epsilon=5, embeddings=emb, seed=1,
                                         metadata=True)).unnest("review")
    assert with_meta["emprivacy_skipped"].to_list() == \
        expected.column("emprivacy_skipped").to_pylist()
    fn = SeriesPrivatizer(RunOptions.parse(epsilon=5, embeddings=emb, seed=1))
    mapped = df.select(pl.col("review").map_batches(fn, return_dtype=fn.return_dtype))
    assert mapped["review"].to_list() == expected.column("review").to_pylist()


def test_one_run_never_reuses_a_row_index(emb):
    """Called twice (a lazy frame collected twice), a run numbers the rows on: fresh
    noise streams, never the first call's again."""
    fn = SeriesPrivatizer(RunOptions.parse(epsilon=0.2, embeddings=emb, seed=1))
    column = pl.Series("review", ["cat dog car bus sun " * 4] * 20)
    first, second = fn(column).to_list(), fn(column).to_list()
    assert first != second
    assert fn.privatizer.next_index == 40


def test_seeds_across_batch_sizes(emb, df):
    runs = [privatize(df, "review", epsilon=0.5, embeddings=emb, seed=4,
                      batch_rows=b)["review"].to_list() for b in (1, 7, len(df))]
    chunked = pl.concat([df[:3], df[3:5], df[5:]], rechunk=False)
    assert chunked["review"].n_chunks() == 3
    runs.append(privatize(chunked, "review", epsilon=0.5, embeddings=emb, seed=4)["review"]
                .to_list())
    assert runs[0] == runs[1] == runs[2] == runs[3]


@pytest.mark.parametrize("kind", ["categorical", "enum"])
def test_categorical_enum_and_null_columns(emb, kind):
    dtype = (pl.Categorical if kind == "categorical"
             else pl.Enum(sorted({r for r in REVIEWS if r is not None})))
    cats = pl.DataFrame({"review": pl.Series(REVIEWS, dtype=dtype)})
    out = privatize(cats, "review", epsilon=5, embeddings=emb, seed=1)
    assert out["review"].to_list() == arrow_release(emb, epsilon=5, seed=1).column(
        "review").to_pylist()
    nulls = pl.DataFrame({"review": pl.Series([None, None], dtype=pl.Null)})
    assert privatize(nulls, "review", epsilon=5, embeddings=emb)["review"].to_list() == \
        [None, None]


@pytest.mark.parametrize("lazy", [False, True])
def test_a_missing_column_and_a_column_of_no_strings(emb, df, lazy):
    frame = df.lazy() if lazy else df
    with pytest.raises(KeyError, match="column 'text' is not in the frame; its columns are "
                       "'id', 'review', 'stars'"):
        privatize(frame, "text", epsilon=5, embeddings=emb)
    with pytest.raises(TypeError, match="column 'stars' must hold strings; its type is "
                       "Float64"):
        privatize(frame, "stars", epsilon=5, embeddings=emb)


@pytest.mark.parametrize("lazy", [False, True])
def test_a_frame_with_no_rows(emb, df, lazy):
    empty = df.clear()
    out = privatize(empty.lazy() if lazy else empty, "review", epsilon=5, embeddings=emb)
    out = out.collect() if lazy else out
    full = privatize(df, "review", epsilon=5, embeddings=emb)
    assert out.height == 0 and out.schema == full.schema


def test_a_missing_polars_names_the_extra(emb, monkeypatch):
    monkeypatch.setitem(sys.modules, "polars", None)
    with pytest.raises(MissingExtraError, match=r"privatising a column of a Polars frame "
                       r"needs the optional dependency 'polars'; install it with: pip install "
                       r"'emprivacy\[polars\]'"):
        privatize(object(), "review", epsilon=5, embeddings=emb)
