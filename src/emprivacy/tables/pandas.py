"""Privatising a column of a pandas DataFrame (the ``pandas`` extra).

:func:`privatize_frame` returns a new frame with the column released (replacing it by
default) and the per-row metadata columns, as :func:`emprivacy.tables.arrow.privatize_table`
does for an Arrow table; importing this module also registers ``df.emprivacy.privatize``
(:class:`EmprivacyAccessor`), the same function.  Row ``i`` is the frame's ``i``-th row
(its position, not its index label).  Missing values (``None``, ``NaN``, ``pd.NA``) stay
missing.  pandas is imported with this module where it is installed (for the accessor);
without it, :func:`privatize_frame` names the extra to install.  docs/TABLES.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import numpy as np

from emprivacy._optional import import_optional
from emprivacy._validation import check_positive_int
from emprivacy.mechanisms import WordMechanism
from emprivacy.tables.arrow import DEFAULT_PREFIX, check_id_column, check_text_column, output_names
from emprivacy.tables.options import RunOptions

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def _pandas() -> Any:
    """pandas, imported on first use (one message naming the extra when missing)."""
    return import_optional("pandas", extra="pandas",
                           purpose="privatising a column of a pandas DataFrame")

__all__ = ["EmprivacyAccessor", "privatize_frame"]


def _type_error(df: pd.DataFrame) -> Any:
    pd = _pandas()

    def type_of(column: str) -> object:
        dtype = df[column].dtype
        if isinstance(dtype, pd.CategoricalDtype):
            inner = dtype.categories.dtype
            ok = pd.api.types.is_string_dtype(inner) or pd.api.types.is_object_dtype(inner)
        else:
            ok = pd.api.types.is_string_dtype(dtype) or pd.api.types.is_object_dtype(dtype)
        return None if ok else dtype
    return type_of


def privatize_frame(df: pd.DataFrame, column: str, *, out_column: str | None = None,
                    keep_original: bool = False, epsilon: float | None = None,
                    mechanism: str | WordMechanism = "madlib", mode: str = "text",
                    seed: int | None = None, metadata: bool = True,
                    prefix: str = DEFAULT_PREFIX, id_column: str | None = None,
                    first_index: int | None = None, **options: Any) -> pd.DataFrame:
    """A new frame with ``column`` privatised, each row a document; and its metadata.

    Parameters
    ----------
    df : pandas.DataFrame
    column : str
        A column of strings (``object``, ``str``/``string`` or a categorical of strings);
        missing values stay missing.
    out_column, keep_original, epsilon, mechanism, mode, seed, metadata, prefix
        As :func:`emprivacy.tables.arrow.privatize_table`.
    id_column, first_index, **options
        As :func:`emprivacy.tables.arrow.privatize_table` (``id_column``: integers or
        strings, no missing value; the row's position keys it otherwise, not its index
        label).

    Returns
    -------
    pandas.DataFrame
        The frame's other columns (not copied), the release (the column's string dtype
        for a ``str``/``string`` column, else ``object``; bag mode: ``object`` holding
        lists), the metadata columns (``Int64``, ``epsilon_total`` ``Float64``,
        ``guarantee``, ``mechanism`` and ``skipped`` categorical) after the others, and the
        run's shared fields in ``attrs["emprivacy"][out_column]``.  The index is kept.

    Raises
    ------
    KeyError
        ``column`` is not a column of the frame (the message lists them).
    TypeError
        The column does not hold strings, or a row is not a string (named by its position
        and type).

    Examples
    --------
    >>> import pandas as pd
    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog"], [[0.0, 0.0], [1.0, 0.0]], name="toy")
    >>> df = pd.DataFrame({"id": [1, 2], "review": ["A cat.", None]})
    >>> out = privatize_frame(df, "review", epsilon=50.0, embeddings=emb, seed=1)
    >>> out.loc[0, "review"], int(out.loc[0, "emprivacy_n_words"])
    ('A cat.', 1)
    >>> out["review"].isna().tolist(), out["emprivacy_n_words"].isna().tolist()
    ([False, True], [False, True])
    """
    pd = _pandas()
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a pandas.DataFrame; got {type(df).__name__}")
    check_text_column([c for c in df.columns], column, _type_error(df), what="frame")
    ids = _ids(df, column, id_column, first_index)
    run = RunOptions.of(epsilon=epsilon, mechanism=mechanism, mode=mode, seed=seed,
                        options=options)
    out_name, meta_names = output_names(list(df.columns), column, out_column=out_column,
                                        keep_original=keep_original, metadata=metadata,
                                        prefix=prefix, fields=run.fields, what="frame")
    privatizer = run.privatizer()
    privatizer.next_index = first_index or 0
    series = df[column]
    texts = series.to_numpy(dtype=object, na_value=None)
    released: list[Any] = []
    columns: dict[str, list[Any]] = {name: [] for name in privatizer.fields}
    for start in range(0, len(texts), run.batch_rows):
        block = privatizer.privatize(
            texts[start:start + run.batch_rows].tolist(),
            ids=None if ids is None else ids[start:start + run.batch_rows])
        released += block.released
        for name, values in block.columns.items():
            columns[name] += values
    text_dtype = (series.dtype if isinstance(series.dtype, pd.StringDtype)
                  and run.config.mode == "text" else object)
    release = pd.Series(_object_array(released) if text_dtype is object
                        else pd.array(released, dtype=text_dtype), index=df.index,
                        name=out_name, copy=False)
    at = list(df.columns).index(column)
    out = df.copy(deep=False) if keep_original else df.drop(columns=[column])
    out.insert(at + 1 if keep_original else at, out_name, release)
    if meta_names:
        kinds = {"int": "Int64", "float": "Float64"}
        meta = pd.DataFrame({
            prefix + name: (pd.Categorical(values) if kind == "str"
                            else pd.array(values, dtype=kinds[kind]))
            for name, kind in privatizer.fields.items() for values in (columns[name],)},
            index=df.index)
        out = pd.concat([out, meta], axis=1)
    out.attrs = {**df.attrs, "emprivacy": {**df.attrs.get("emprivacy", {}),
                                           out_name: privatizer.metadata}}
    return out


def _ids(df: pd.DataFrame, column: str, id_column: str | None,
         first_index: int | None) -> list[str] | None:
    """Each row's id as a string (``None``: rows keyed by position, from ``first_index``),
    checked before any work."""
    pd = _pandas()
    if id_column is None:
        if first_index is not None:
            check_positive_int(first_index, "first_index", minimum=0)
        return None
    if first_index is not None:
        raise ValueError("give first_index or id_column, not both: rows are keyed by their "
                         "ids or by their indices")

    def type_of(name: str) -> object:
        dtype = df[name].dtype
        ok = (pd.api.types.is_integer_dtype(dtype) or pd.api.types.is_string_dtype(dtype)
              or pd.api.types.is_object_dtype(dtype))
        return None if ok else dtype

    check_id_column(list(df.columns), id_column, column, type_of, what="frame")
    values = df[id_column].to_numpy(dtype=object, na_value=None)
    ids: list[str] = []
    for k, value in enumerate(values.tolist()):
        if value is None or (isinstance(value, float) and value != value):
            raise ValueError(f"id_column {id_column!r} is null in row {k} (counted from 0); "
                             "every row needs an id (it keys the row's noise stream)")
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise TypeError(f"id_column {id_column!r} must hold integers or strings; row {k} "
                            f"is a {type(value).__name__}")
        ids.append(str(value))
    return ids


def _object_array(values: list[Any]) -> np.ndarray:
    """``values`` as a 1-D object array, lists (bag mode) kept as its elements."""
    return np.fromiter(values, dtype=object, count=len(values))


class EmprivacyAccessor:
    """``df.emprivacy.privatize(column, ...)``: :func:`privatize_frame` of ``df``.

    Registered when :mod:`emprivacy.tables.pandas` is imported.
    """

    def __init__(self, df: pd.DataFrame) -> None:
        self._df = df

    def privatize(self, column: str, **kwargs: Any) -> pd.DataFrame:
        """:func:`privatize_frame` of this frame (the same keywords)."""
        return privatize_frame(self._df, column, **kwargs)


def _register() -> None:
    """``df.emprivacy``, where pandas is installed (without it there is no frame)."""
    try:
        pandas = importlib.import_module("pandas")
    except ModuleNotFoundError as exc:
        if exc.name != "pandas":
            raise  # pandas is there but one of its imports is broken: a real bug
        return
    pandas.api.extensions.register_dataframe_accessor("emprivacy")(EmprivacyAccessor)


_register()
