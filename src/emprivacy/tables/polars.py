"""Privatising a column of a Polars DataFrame or LazyFrame (the ``polars`` extra).

:func:`privatize` returns the frame (eager or lazy, as given) with the column released
(replacing it by default) and the per-row metadata columns, as
:func:`emprivacy.tables.arrow.privatize_table` does for an Arrow table.  :func:`privatize_expr`
is the same release as an expression (through :meth:`polars.Expr.map_batches`), and
:class:`SeriesPrivatizer` the function it maps, for a ``map_batches`` of your own.

Rows are keyed as in every table path: row ``i`` of the frame (its position, from 0 or
``first_index``), or its value in ``id_column``, and its text.  :func:`privatize` and
:func:`privatize_expr` hand the function each row's key beside its text (a struct of the two
columns), so the release does not depend on how Polars calls it: collecting a lazy frame
twice releases it the same way twice (with a seed, or with the run key drawn when the
expression was made), never with fresh noise.  Polars gives ``map_batches`` the whole column:
a lazy frame is not streamed, even into ``sink_parquet``; for input larger than memory, use
the Arrow stream (:func:`emprivacy.tables.arrow.privatize_batches` over
``pyarrow.parquet.ParquetFile.iter_batches``) or :func:`emprivacy.tables.privatize_parquet`.
docs/TABLES.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyarrow as pa

from emprivacy._optional import import_optional
from emprivacy._validation import check_positive_int
from emprivacy.mechanisms import WordMechanism
from emprivacy.tables.arrow import (
    DEFAULT_PREFIX,
    block_arrays,
    check_id_column,
    check_text_column,
    id_strings,
    metadata_types,
    output_names,
    release_type,
)
from emprivacy.tables.options import RunOptions
from emprivacy.tables.privatizer import RowsReleased, TextPrivatizer, index_runs

if TYPE_CHECKING:  # pragma: no cover
    import polars as pl


def _polars() -> Any:
    """Polars, imported on first use (one message naming the extra when missing)."""
    return import_optional("polars", extra="polars",
                           purpose="privatising a column of a Polars frame")

__all__ = ["SeriesPrivatizer", "privatize", "privatize_expr"]


def _is_text(dtype: Any) -> bool:
    pl = _polars()
    return dtype in (pl.String, pl.Categorical, pl.Null) or isinstance(dtype, pl.Enum)


class SeriesPrivatizer:
    """A run, as a function of Polars series (for :meth:`polars.Expr.map_batches`).

    ``fn(series)`` releases the rows of a series of strings (``String``, ``Categorical``,
    ``Enum``): a series of the releases (``String``; bag mode ``List(String)``), or with
    ``metadata=True`` a struct series of the release (field ``name``) and the metadata
    fields (``prefix + field``).  :attr:`return_dtype` is its type, for
    ``map_batches(fn, return_dtype=fn.return_dtype)``.

    With ``key=None`` the rows of a series are the next rows of the run, numbered in the
    order Polars hands them over, continuing from one call to the next.  With ``key="index"``
    or ``key="id"`` the series is a struct of two fields, each row's key (its index, an
    integer; or its id, an integer or a string) then its text, and each row is keyed by
    those: the release does not depend on the calls.

    Parameters
    ----------
    run : RunOptions
        The options (:meth:`~emprivacy.tables.options.RunOptions.parse`).
    metadata : bool, default False
    name : str, default "release"
        The release's field in the struct (``metadata=True``).
    prefix : str, default "emprivacy_"
    key : {None, "index", "id"}, default None
    """

    def __init__(self, run: RunOptions, *, metadata: bool = False, name: str = "release",
                 prefix: str = DEFAULT_PREFIX, key: str | None = None) -> None:
        pl = _polars()
        if key not in (None, "index", "id"):
            raise ValueError(f"key must be one of None, 'index', 'id'; got {key!r}")
        self.run = run
        self.privatizer: TextPrivatizer = run.privatizer()
        self.fields = dict(run.fields) if metadata else {}
        self.name = name
        self.prefix = prefix
        self.key = key
        self._release = release_type(run.config.mode)
        arrow = [pa.field(name, self._release)] + [
            pa.field(prefix + f, t) for f, t in metadata_types(self.fields).items()]
        probe: Any = pl.from_arrow(pa.table([pa.array([], f.type) for f in arrow],
                                            schema=pa.schema(arrow)))  # a frame
        self.return_dtype: Any = (pl.Struct(probe.schema) if metadata
                                  else probe.schema[name])

    def _keyed_run(self) -> TextPrivatizer:
        """A run of this one's key for one call keyed by the rows' own keys (a run
        remembers the ids it released: a second call gives them again)."""
        base = self.privatizer
        return TextPrivatizer(base.mechanism, base.config, seed=base.seed,
                              run_key=None if base.seed is not None else base.run_key)

    def __call__(self, series: pl.Series) -> pl.Series:
        pl = _polars()
        if not isinstance(series, pl.Series):
            raise TypeError(f"expected a polars.Series; got {type(series).__name__}")
        keys: Any = None
        if self.key is not None:
            if not isinstance(series.dtype, pl.Struct) or len(series.dtype.fields) != 2:
                raise TypeError(f"with key={self.key!r}, expected a struct series of a key "
                                f"and a text; got {series.dtype}")
            first, second = (f.name for f in series.dtype.fields)
            keys, series = series.struct.field(first), series.struct.field(second)
        if not _is_text(series.dtype):
            raise TypeError(f"column {series.name!r} must hold strings; its type is "
                            f"{series.dtype}")
        step = self.run.batch_rows
        run = self.privatizer if keys is None else self._keyed_run()
        chunks: list[list[pa.Array]] = []
        for start in range(0, len(series), step):
            texts = series.slice(start, step).to_list()
            if keys is None:
                block = run.privatize(texts)
            elif self.key == "id":
                block = run.privatize(texts, ids=id_strings(
                    keys.slice(start, step).to_arrow(), keys.name, start))
            else:
                block = _by_index(run, texts, keys.slice(start, step).to_list())
            chunks.append(block_arrays(block, self.fields, self._release))
        names = [self.name] + [self.prefix + f for f in self.fields]
        types = [self._release, *metadata_types(self.fields).values()]
        table = pa.Table.from_batches(
            [pa.RecordBatch.from_arrays(arrays, names=names) for arrays in chunks],
            schema=pa.schema([pa.field(n, t) for n, t in zip(names, types, strict=True)]))
        frame: Any = pl.from_arrow(table)  # a table gives a frame
        if self.fields:
            return frame.to_struct(series.name)
        return frame.get_column(self.name).alias(series.name)


def _by_index(run: TextPrivatizer, texts: list[Any], indices: list[int]) -> RowsReleased:
    """The rows of ``texts`` keyed by their ``indices``: one block per run of consecutive
    indices."""
    released: list[Any] = []
    columns: dict[str, list[Any]] = {name: [] for name in run.fields}
    for at, n in index_runs(indices):
        block = run.privatize(texts[at:at + n], first_index=int(indices[at]))
        released += block.released
        for name, values in block.columns.items():
            columns[name] += values
    return RowsReleased(released, columns)


def _key(id_column: str | None, first_index: int | None) -> tuple[Any, str]:
    """The expression of each row's key (its id, or its index from ``first_index``) and
    the :class:`SeriesPrivatizer` key kind."""
    pl = _polars()
    if id_column is not None:
        if first_index is not None:
            raise ValueError("give first_index or id_column, not both: rows are keyed by "
                             "their ids or by their indices")
        return pl.col(id_column).alias(_KEY), "id"
    start = 0 if first_index is None else check_positive_int(first_index, "first_index",
                                                              minimum=0)
    return (pl.int_range(pl.len(), dtype=pl.Int64) + start).alias(_KEY), "index"


#: The key's field in the struct handed to a :class:`SeriesPrivatizer`.
_KEY = "__emprivacy_key"


def privatize_expr(column: str, *, out_column: str | None = None,
                   epsilon: float | None = None, mechanism: str | WordMechanism = "madlib",
                   mode: str = "text", seed: int | None = None, metadata: bool = False,
                   prefix: str = DEFAULT_PREFIX, id_column: str | None = None,
                   first_index: int | None = None, **options: Any) -> pl.Expr:
    """An expression releasing ``column`` (one run: see the module's notes).

    ``pl.struct(key, pl.col(column)).map_batches(SeriesPrivatizer(...))`` named
    ``out_column`` (default ``column``), the key each row's value in ``id_column`` or its
    position in the frame (``pl.int_range(pl.len())``, from ``first_index``: use the
    expression in a ``select`` or ``with_columns`` of the whole frame, not per group).
    With ``metadata=True`` it is a struct of the release (field ``out_column``) and the
    metadata fields: ``.struct.unnest()`` gives them as columns.  The options are those of
    :func:`emprivacy.privatize_texts`; the embeddings are loaded on the call.

    Examples
    --------
    >>> import polars as pl
    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog"], [[0.0, 0.0], [1.0, 0.0]], name="toy")
    >>> df = pl.DataFrame({"review": ["A cat.", None]})
    >>> expr = privatize_expr("review", epsilon=50.0, embeddings=emb, seed=1)
    >>> df.select(expr).to_series().to_list()
    ['A cat.', None]
    """
    pl = _polars()
    if not isinstance(column, str):
        raise TypeError(f"column must be a column's name (a str); got {type(column).__name__}")
    name = column if out_column is None else out_column
    if not isinstance(name, str) or not name:
        raise TypeError(f"out_column must be a non-empty str; got {out_column!r}")
    key, kind = _key(id_column, first_index)
    run = RunOptions.of(epsilon=epsilon, mechanism=mechanism, mode=mode, seed=seed,
                        options=options)
    fn = SeriesPrivatizer(run, metadata=metadata, name=name, prefix=prefix, key=kind)
    return pl.struct(key, pl.col(column)).map_batches(
        fn, return_dtype=fn.return_dtype).alias(name)


def privatize(frame: pl.DataFrame | pl.LazyFrame, column: str, *,
              out_column: str | None = None, keep_original: bool = False,
              epsilon: float | None = None, mechanism: str | WordMechanism = "madlib",
              mode: str = "text", seed: int | None = None, metadata: bool = True,
              prefix: str = DEFAULT_PREFIX, id_column: str | None = None,
              first_index: int | None = None, **options: Any) -> pl.DataFrame | pl.LazyFrame:
    """The frame with ``column`` privatised, each row a document; and its metadata.

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        A lazy frame gives a lazy frame: the rows are released when it is collected (once:
        see the module's notes).
    column : str
        A column of strings (``String``, ``Categorical``, ``Enum``); nulls stay null.
    out_column, keep_original, epsilon, mechanism, mode, seed, metadata, prefix
        As :func:`emprivacy.tables.arrow.privatize_table`.
    id_column, first_index, **options
        As :func:`emprivacy.tables.arrow.privatize_table` (``id_column``: ``Int*``,
        ``UInt*``, ``String`` or ``Categorical``).

    Returns
    -------
    polars.DataFrame or polars.LazyFrame
        The other columns (not copied), the release (``String``; bag mode
        ``List(String)``) and the metadata columns (``Int64``, ``epsilon_total``
        ``Float64``, ``guarantee`` and ``mechanism`` ``Categorical``, ``skipped``
        ``String``) after them.  Polars frames hold no metadata: the run's shared fields
        are those of :attr:`emprivacy.tables.privatizer.TextPrivatizer.metadata` (or of
        :func:`emprivacy.tables.arrow.privatize_table`'s schema).

    Raises
    ------
    KeyError
        ``column`` is not a column of the frame (the message lists them).
    TypeError
        The column does not hold strings.

    Examples
    --------
    >>> import polars as pl
    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog"], [[0.0, 0.0], [1.0, 0.0]], name="toy")
    >>> df = pl.DataFrame({"id": [1, 2], "review": ["A cat.", None]})
    >>> out = privatize(df, "review", epsilon=50.0, embeddings=emb, seed=1)
    >>> out["review"].to_list(), out["emprivacy_n_words"].to_list()
    (['A cat.', None], [1, None])
    """
    pl = _polars()
    if not isinstance(frame, pl.DataFrame | pl.LazyFrame):
        raise TypeError("frame must be a polars.DataFrame or LazyFrame; got "
                        f"{type(frame).__name__}")
    schema = frame.collect_schema() if isinstance(frame, pl.LazyFrame) else frame.schema
    names = list(schema.names())

    def type_of(name: str) -> object:
        return None if _is_text(schema[name]) else schema[name]

    check_text_column(names, column, type_of, what="frame")
    if id_column is not None:
        check_id_column(names, id_column, column, lambda name: None if (
            schema[name].is_integer() or _is_text(schema[name])) else schema[name],
            what="frame")
    key, kind = _key(id_column, first_index)
    run = RunOptions.of(epsilon=epsilon, mechanism=mechanism, mode=mode, seed=seed,
                        options=options)
    out_name, meta_names = output_names(names, column, out_column=out_column,
                                        keep_original=keep_original, metadata=metadata,
                                        prefix=prefix, fields=run.fields, what="frame")
    fn = SeriesPrivatizer(run, metadata=metadata, name=out_name, prefix=prefix, key=kind)
    kept = [n for n in names if n != column or keep_original]
    at = names.index(column) + (1 if keep_original else 0)
    keyed = pl.struct(key, pl.col(column))
    if isinstance(frame, pl.LazyFrame):
        released = keyed.map_batches(fn, return_dtype=fn.return_dtype)
        if not metadata:
            exprs = [pl.col(n) for n in kept]
            exprs.insert(at, released.alias(out_name))
            return frame.select(exprs)
        tmp = "__emprivacy_release"
        while tmp in names:
            tmp += "_"
        exprs = [pl.col(n) for n in kept]
        exprs.insert(at, pl.col(tmp).struct.field(out_name))
        exprs += [pl.col(tmp).struct.field(n) for n in meta_names]
        return frame.with_columns(released.alias(tmp)).select(exprs)
    out = fn(frame.select(keyed.alias(column)).to_series())
    new = out.struct.unnest() if metadata else out.alias(out_name).to_frame()
    columns = [frame.get_column(n) for n in kept]
    columns.insert(at, new.get_column(out_name))
    columns += [new.get_column(n) for n in meta_names]
    return pl.DataFrame(columns)
