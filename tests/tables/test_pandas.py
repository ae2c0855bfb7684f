"""emprivacy.tables.pandas: a column of a pandas DataFrame, and df.emprivacy (issue 24, item 3)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

from emprivacy import Embeddings
from emprivacy.exceptions import MissingExtraError
from emprivacy.tables.arrow import privatize_table

pd = pytest.importorskip("pandas")
from emprivacy.tables.pandas import privatize_frame  # noqa: E402  (after the skip)

REVIEWS = ["The cat met a dog at the harbour.", None, "", "A bus and a car.", "sun sun sun",
           "Zebra!", "Dog.", "The car drifted past the quiet cat.", "A cat."]


@pytest.fixture
def emb() -> Embeddings:
    return Embeddings(["cat", "dog", "car", "bus", "sun"],
                      [[0, 0], [1, 0], [10, 10], [11, 10], [-10, 5]], name="tiny")


@pytest.fixture
def df() -> pd.DataFrame:
    return pd.DataFrame({"id": range(len(REVIEWS)), "review": np.array(REVIEWS, dtype=object),
                         "stars": np.arange(len(REVIEWS), dtype=float)},
                        index=[f"r{i}" for i in range(len(REVIEWS))])


def plain(series) -> list:
    """A column of strings as a list, every kind of missing value as None."""
    return [None if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA else v
            for v in series.tolist()]


def arrow_release(emb, texts, **kwargs):
    table = pa.table({"review": pa.array(texts, type=pa.string())})
    return privatize_table(table, "review", embeddings=emb, **kwargs)


def test_the_frame_gets_the_release_of_the_arrow_path_and_keeps_its_index(emb, df):
    out = privatize_frame(df, "review", epsilon=5, embeddings=emb, seed=1)
    expected = arrow_release(emb, REVIEWS, epsilon=5, seed=1)
    assert list(out.columns[:3]) == ["id", "review", "stars"]
    assert out.index.equals(df.index)
    assert plain(out["review"]) == expected.column("review").to_pylist()
    assert out["emprivacy_n_words"].tolist() == [
        pd.NA if v is None else v for v in expected.column("emprivacy_n_words").to_pylist()]
    assert out["emprivacy_n_words"].dtype == "Int64"
    assert out["emprivacy_epsilon_total"].dtype == "Float64"
    assert isinstance(out["emprivacy_guarantee"].dtype, pd.CategoricalDtype)
    assert out.attrs["emprivacy"]["review"]["seeded"] is True
    assert plain(df["review"]) == REVIEWS  # the input is untouched


def test_missing_values_of_every_kind_stay_missing(emb):
    df = pd.DataFrame({"review": pd.Series(["A cat.", None, np.nan, pd.NA, ""], dtype=object)})
    out = privatize_frame(df, "review", epsilon=5, embeddings=emb, seed=1)
    assert out["review"].isna().tolist() == [False, True, True, True, False]
    assert out["emprivacy_n_words"].isna().tolist() == [False, True, True, True, False]
    assert out["review"].iloc[4] == ""


@pytest.mark.parametrize("dtype", ["str", "string", "category"])
def test_string_dtypes(emb, dtype):
    df = pd.DataFrame({"review": pd.Series(REVIEWS, dtype=dtype)})
    out = privatize_frame(df, "review", epsilon=5, embeddings=emb, seed=3)
    expected = arrow_release(emb, REVIEWS, epsilon=5, seed=3)
    assert plain(out["review"]) == expected.column("review").to_pylist()
    if dtype != "category":
        assert out["review"].dtype == df["review"].dtype


def test_keep_original_and_the_accessor(emb, df):
    out = df.emprivacy.privatize("review", keep_original=True, epsilon=5, embeddings=emb,
                                 seed=1, mode="bag", metadata=False)
    assert list(out.columns) == ["id", "review", "review_private", "stars"]
    assert plain(out["review"]) == REVIEWS
    assert out["review_private"].iloc[2] == [] and out["review_private"].iloc[1] is None
    expected = arrow_release(emb, REVIEWS, epsilon=5, seed=1, mode="bag")
    assert out["review_private"].tolist() == expected.column("review").to_pylist()


def test_a_non_string_names_its_position_and_type(emb):
    df = pd.DataFrame({"review": pd.Series(["A cat.", "secret 42", 42], dtype=object,
                                           index=[10, 20, 30])})
    with pytest.raises(TypeError, match=r"^every row must be a str or None; row 2 is a int$"):
        privatize_frame(df, "review", epsilon=5, embeddings=emb)


def test_a_numeric_column_is_a_type_error(emb, df):
    with pytest.raises(TypeError, match="column 'stars' must hold strings; its type is float64"):
        privatize_frame(df, "stars", epsilon=5, embeddings=emb)


def test_a_missing_column_names_the_columns_there_are(emb, df):
    with pytest.raises(KeyError, match="column 'text' is not in the frame; its columns are "
                       "'id', 'review', 'stars'"):
        privatize_frame(df, "text", epsilon=5, embeddings=emb)


def test_a_frame_with_no_rows(emb, df):
    out = privatize_frame(df.iloc[:0], "review", epsilon=5, embeddings=emb)
    assert len(out) == 0
    assert list(out.columns) == list(privatize_frame(df, "review", epsilon=5,
                                                     embeddings=emb).columns)


def test_seeds_across_batch_sizes(emb, df):
    runs = [privatize_frame(df, "review", epsilon=0.5, embeddings=emb, seed=4,
                            batch_rows=b)["review"].tolist() for b in (1, 7, len(df))]
    assert runs[0] == runs[1] == runs[2]


def test_a_missing_pandas_names_the_extra(emb, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingExtraError, match=r"privatising a column of a pandas DataFrame "
                       r"needs the optional dependency 'pandas'; install it with: pip install "
                       r"'emprivacy\[pandas\]'"):
        privatize_frame(object(), "review", epsilon=5, embeddings=emb)


def test_importing_emprivacy_imports_no_table_library():
    code = ("import sys, emprivacy; emprivacy.privatize_texts; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'pandas', 'polars', 'pyarrow'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_modules_import_without_their_extras():
    """Without pandas or Polars the modules import (no accessor, no frame) and their
    functions name the extra."""
    code = ("import sys; sys.modules['pandas'] = None; sys.modules['polars'] = None; "
            "import emprivacy.tables.pandas, emprivacy.tables.polars; "
            "from emprivacy.exceptions import MissingExtraError\n"
            "try:\n    emprivacy.tables.polars.privatize(None, 'x', epsilon=1)\n"
            "except MissingExtraError as e:\n    print(e)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip().endswith("pip install 'emprivacy[polars]'")
