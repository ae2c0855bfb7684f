"""Privatising a column of a Polars DataFrame or LazyFrame (the ``polars`` extra).

:func:`privatize` returns the frame (eager or lazy, as given) with the column released
(replacing it by default) and the per-row metadata columns, as
:func:`emprivacy.tables.arrow.privatize_table` does for an Arrow table.  :func:`privatize_expr`
is the same release as an expression (through :meth:`polars.Expr.map_batches`), and
:class:`SeriesPrivatizer` the function it maps, for a ``map_batches`` of your own.

A run numbers the rows in the order Polars hands them to it, continuing from one call to
the next, so that no two rows share a noise stream: a lazy frame (or an expression)
privatised once is one run, and collecting it twice releases the rows twice, with fresh
noise (with a seed, the second release differs from the first).  Polars gives
``map_batches`` the whole column (unless the streaming engine cuts it), so a seeded
release does not depend on how the frame is chunked.  docs/TABLES.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pyarrow as pa

from emprivacy._optional import import_optional
from emprivacy.mechanisms import WordMechanism
from emprivacy.tables.arrow import (
    DEFAULT_PREFIX,
    block_arrays,
    check_text_column,
    metadata_types,
    output_names,
    release_type,
)
from emprivacy.tables.options import RunOptions
from emprivacy.tables.privatizer import TextPrivatizer

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
    ``Enum``) as the next rows of the run: a series of the releases (``String``; bag mode
    ``List(String)``), or with ``metadata=True`` a struct series of the release (field
    ``name``) and the metadata fields (``prefix + field``).  :attr:`return_dtype` is its
    type, for ``map_batches(fn, return_dtype=fn.return_dtype)``.

    Parameters
    ----------
    run : RunOptions
        The options (:meth:`~emprivacy.tables.options.RunOptions.parse`).
    metadata : bool, default False
    name : str, default "release"
        The release's field in the struct (``metadata=True``).
    prefix : str, default "emprivacy_"
    """

    def __init__(self, run: RunOptions, *, metadata: bool = False, name: str = "release",
                 prefix: str = DEFAULT_PREFIX) -> None:
        pl = _polars()
        self.run = run
        self.privatizer: TextPrivatizer = run.privatizer()
        self.fields = dict(run.fields) if metadata else {}
        self.name = name
        self.prefix = prefix
        self._release = release_type(run.config.mode)
        arrow = [pa.field(name, self._release)] + [
            pa.field(prefix + f, t) for f, t in metadata_types(self.fields).items()]
        probe: Any = pl.from_arrow(pa.table([pa.array([], f.type) for f in arrow],
                                            schema=pa.schema(arrow)))  # a frame
        self.return_dtype: Any = (pl.Struct(probe.schema) if metadata
                                  else probe.schema[name])

    def __call__(self, series: pl.Series) -> pl.Series:
        pl = _polars()
        if not isinstance(series, pl.Series):
            raise TypeError(f"expected a polars.Series; got {type(series).__name__}")
        if not _is_text(series.dtype):
            raise TypeError(f"column {series.name!r} must hold strings; its type is "
                            f"{series.dtype}")
        step = self.run.batch_rows
        chunks: list[list[pa.Array]] = []
        for start in range(0, len(series), step):
            block = self.privatizer.privatize(series.slice(start, step).to_list())
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


def privatize_expr(column: str, *, out_column: str | None = None,
                   epsilon: float | None = None, mechanism: str | WordMechanism = "madlib",
                   mode: str = "text", seed: int | None = None, metadata: bool = False,
                   prefix: str = DEFAULT_PREFIX, **options: Any) -> pl.Expr:
    """An expression releasing ``column`` (one run: see the module's notes).

    ``pl.col(column).map_batches(SeriesPrivatizer(...))`` named ``out_column`` (default
    ``column``).  With ``metadata=True`` it is a struct of the release (field
    ``out_column``) and the metadata fields: ``.struct.unnest()`` gives them as columns.
    The options are those of :func:`emprivacy.privatize_texts`; the embeddings are loaded
    on the call.

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
    run = RunOptions.of(epsilon=epsilon, mechanism=mechanism, mode=mode, seed=seed,
                        options=options)
    fn = SeriesPrivatizer(run, metadata=metadata, name=name, prefix=prefix)
    return pl.col(column).map_batches(fn, return_dtype=fn.return_dtype).alias(name)


def privatize(frame: pl.DataFrame | pl.LazyFrame, column: str, *,
              out_column: str | None = None, keep_original: bool = False,
              epsilon: float | None = None, mechanism: str | WordMechanism = "madlib",
              mode: str = "text", seed: int | None = None, metadata: bool = True,
              prefix: str = DEFAULT_PREFIX, **options: Any) -> pl.DataFrame | pl.LazyFrame:
    """The frame with ``column`` privatised, each row a document; and its metadata.

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        A lazy frame gives a lazy frame: the rows are released when it is collected (once:
        see the module's notes).
    column : str
        A column of strings (``String``, ``Categorical``, ``Enum``); nulls stay null.
    out_column, keep_original, epsilon, mechanism, mode, seed, metadata, prefix, **options
        As :func:`emprivacy.tables.arrow.privatize_table`.

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
    run = RunOptions.of(epsilon=epsilon, mechanism=mechanism, mode=mode, seed=seed,
                        options=options)
    out_name, meta_names = output_names(names, column, out_column=out_column,
                                        keep_original=keep_original, metadata=metadata,
                                        prefix=prefix, fields=run.fields, what="frame")
    fn = SeriesPrivatizer(run, metadata=metadata, name=out_name, prefix=prefix)
    kept = [n for n in names if n != column or keep_original]
    at = names.index(column) + (1 if keep_original else 0)
    if isinstance(frame, pl.LazyFrame):
        released = pl.col(column).map_batches(fn, return_dtype=fn.return_dtype)
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
    out = fn(frame.get_column(column))
    new = out.struct.unnest() if metadata else out.alias(out_name).to_frame()
    columns = [frame.get_column(n) for n in kept]
    columns.insert(at, new.get_column(out_name))
    columns += [new.get_column(n) for n in meta_names]
    return pl.DataFrame(columns)
