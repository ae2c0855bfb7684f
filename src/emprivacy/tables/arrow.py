"""Privatising a column of an Arrow table, or of a stream of record batches.

:func:`privatize_table` returns the table with the column released — replacing it by
default, so that the original does not ride along by accident (``keep_original=True``
keeps it, and puts the release in ``out_column``) — and one metadata column per field of
the rows' records (``emprivacy_n_words``, ``emprivacy_epsilon_total``, …;
:func:`~emprivacy.tables.privatizer.row_fields`).  :func:`privatize_batches` does the same
to a stream of record batches (a :class:`pyarrow.RecordBatchReader` in, one out), in
memory bounded by a batch, whatever the number of rows.  The other columns are passed
through as they are: their buffers are not copied.  The rows are released by
:class:`~emprivacy.tables.privatizer.TextPrivatizer` (the corpus path's obfuscator), row ``i``
of text ``t`` keyed by ``f"{i}#{text_digest(t)}"`` (``i`` from ``first_index``), or by its
``id_column`` value and its text, as on every table path: with a seed, the release does not
depend on how the rows are cut into chunks or batches, and a stream never serves two
texts, whatever the calls (docs/TABLES.md, *Resuming a stream*).

The fields every row of the run shares (ε, the embeddings, the mechanism's parameters,
mode, ``seeded``) are in the schema's metadata, under ``emprivacy:<out_column>`` (JSON).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

import pyarrow as pa

from emprivacy._validation import check_positive_int
from emprivacy.mechanisms import WordMechanism
from emprivacy.tables.options import RunOptions
from emprivacy.tables.privatizer import RowsReleased, TextPrivatizer

__all__ = ["DEFAULT_PREFIX", "Layout", "block_arrays", "check_id_column", "check_text_column",
           "id_strings", "is_id_type", "is_text_type", "metadata_types", "output_names",
           "plan_run", "privatize_batches", "privatize_table", "release_type"]

#: The prefix of the metadata columns' names.
DEFAULT_PREFIX = "emprivacy_"

#: Metadata that holds one value for every row of a run: dictionary-encoded.
_SHARED = ("guarantee", "mechanism")

_KINDS = {"int": pa.int64(), "float": pa.float64(), "str": pa.string()}


def _names(names: list[str]) -> str:
    shown = ", ".join(repr(n) for n in names[:20])
    return (shown + f", … ({len(names)} in all)" if len(names) > 20 else shown) or "none"


def is_text_type(arrow_type: pa.DataType) -> bool:
    """Whether a column of this type holds strings (or only nulls)."""
    t = pa.types
    if t.is_dictionary(arrow_type):
        return is_text_type(arrow_type.value_type)
    return (t.is_string(arrow_type) or t.is_large_string(arrow_type)
            or t.is_null(arrow_type) or getattr(t, "is_string_view", lambda _: False)(arrow_type))


def check_text_column(names: list[str], column: object, type_of: Any, *,
                      what: str = "table") -> None:
    """``column`` is one column of ``names``, holding strings: else one clear error.

    ``type_of(column)`` gives the column's type (only asked after it is found) and
    must answer ``None`` when the type holds strings.

    Raises
    ------
    KeyError
        No such column (the message lists the columns there are).
    ValueError
        The name is there more than once.
    TypeError
        ``column`` is not a str, or the column does not hold strings.
    """
    if not isinstance(column, str):
        raise TypeError(f"column must be a column's name (a str); got {type(column).__name__}")
    if column not in names:
        raise KeyError(f"column {column!r} is not in the {what}; its columns are "
                       f"{_names(names)}")
    if names.count(column) > 1:
        raise ValueError(f"column {column!r} appears {names.count(column)} times in the "
                         f"{what}; give it unique column names")
    wrong = type_of(column)
    if wrong is not None:
        raise TypeError(f"column {column!r} must hold strings; its type is {wrong}")


def output_names(names: list[Any], column: str, *, out_column: str | None,
                 keep_original: bool, metadata: bool, prefix: str, fields: Mapping[str, str],
                 what: str = "table") -> tuple[str, list[str]]:
    """The release's name and the metadata columns' names, or one error for a name taken
    twice (checked before any work).

    The release goes to ``out_column``; by default ``column`` itself, or
    ``f"{column}_private"`` with ``keep_original``.  The metadata columns are
    ``prefix + field`` (none unless ``metadata``).
    """
    for value, name in ((keep_original, "keep_original"), (metadata, "metadata")):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be a bool; got {type(value).__name__}")
    if not isinstance(prefix, str):
        raise TypeError(f"prefix must be a str; got {type(prefix).__name__}")
    out = out_column if out_column is not None else (
        f"{column}_private" if keep_original else column)
    if not isinstance(out, str) or not out:
        raise TypeError(f"out_column must be a non-empty str; got {out_column!r}")
    if keep_original and out == column:
        raise ValueError(f"out_column must differ from column {column!r} when "
                         "keep_original=True (the original keeps its name)")
    kept = [n for n in names if keep_original or n != column]
    if out in kept:
        raise ValueError(f"out_column {out!r} is already a column of the {what}; give "
                         "another out_column")
    meta = [prefix + name for name in fields] if metadata else []
    for name in meta:
        if name in kept or name == out:
            raise ValueError(f"metadata column {name!r} is already a column of the {what}; "
                             "give another prefix")
    return out, meta


@dataclass(frozen=True)
class Layout:
    """Where the released column and the metadata columns go.

    Attributes
    ----------
    schema : pyarrow.Schema
        The output's schema.
    sources : list of int
        For each output column, the input column it is (``i >= 0``) or the new array it is
        (``-1 - k``: the release is ``k = 0``, then the metadata columns).
    fields : dict
        The metadata fields (:func:`~emprivacy.tables.privatizer.row_fields`), or empty.
    """

    schema: pa.Schema
    sources: list[int]
    fields: dict[str, str]
    id_column: str | None = None

    @classmethod
    def plan(cls, schema: pa.Schema, column: str, *, out_column: str | None,
             keep_original: bool, metadata: bool, prefix: str, run: RunOptions,
             id_column: str | None = None) -> Layout:
        """The output's columns, or one error for a name taken twice (before any work)."""
        out, _ = output_names(list(schema.names), column, out_column=out_column,
                              keep_original=keep_original, metadata=metadata, prefix=prefix,
                              fields=run.fields)
        fields = run.fields if metadata else {}
        names = list(schema.names)
        index = names.index(column)
        large = pa.types.is_large_string(schema.field(column).type)
        new_fields = [pa.field(out, release_type(run.config.mode, large=large))] + [
            pa.field(prefix + name, kind) for name, kind in metadata_types(fields).items()]
        sources = [i for i in range(len(names)) if keep_original or i != index]
        at = sources.index(index) + 1 if keep_original else index
        sources[at:at] = [-1]
        sources += [-2 - k for k in range(len(fields))]
        out_fields = [schema.field(i) if i >= 0 else new_fields[-1 - i] for i in sources]
        return cls(pa.schema(out_fields, metadata=schema.metadata), sources, fields, id_column)

    def with_run(self, out_column_metadata: Mapping[str, Any]) -> Layout:
        """The layout with the run's shared fields in the schema's metadata."""
        name = self.schema.field(self.sources.index(-1)).name
        metadata = {**(self.schema.metadata or {}),
                    f"emprivacy:{name}".encode(): json.dumps(out_column_metadata).encode()}
        return Layout(self.schema.with_metadata(metadata), self.sources, self.fields,
                      self.id_column)

    def arrays(self, privatizer: TextPrivatizer, part: pa.Array,
               ids: pa.Array | None = None, *, first_row: int = 0) -> list[pa.Array]:
        """Privatise one slice of the column (its rows keyed by ``ids``, the same slice of
        the id column, or else by their indices): the release and metadata arrays.
        ``first_row`` is the slice's first row in the input, for a null id's message."""
        texts = part.to_pylist()
        block = (privatizer.privatize(texts) if ids is None
                 else privatizer.privatize(texts, ids=id_strings(ids, self.id_column,
                                                                 first_row)))
        return self.to_arrays(block)

    def to_arrays(self, block: RowsReleased) -> list[pa.Array]:
        """A released block as Arrow arrays, in the order of the new columns."""
        return block_arrays(block, self.fields,
                            self.schema.field(self.sources.index(-1)).type)


def release_type(mode: str, *, large: bool = False) -> pa.DataType:
    """The type of a released column: ``string`` (``large_string`` for a large column) in
    text mode, ``list<string>`` for bags."""
    return (pa.list_(pa.string()) if mode == "bag" else pa.large_string() if large
            else pa.string())


def metadata_types(fields: Mapping[str, str]) -> dict[str, pa.DataType]:
    """The Arrow type of each metadata field: ``int64``, ``float64``, ``string``, and
    dictionary-encoded strings for ``guarantee`` and ``mechanism`` (one value a run)."""
    return {name: pa.dictionary(pa.int32(), pa.string()) if name in _SHARED else _KINDS[kind]
            for name, kind in fields.items()}


def block_arrays(block: RowsReleased, fields: Mapping[str, str],
                 release: pa.DataType) -> list[pa.Array]:
    """A released block (:class:`~emprivacy.tables.privatizer.RowsReleased`) as Arrow arrays:
    the release (of type ``release``), then the metadata ``fields`` in order."""
    arrays = [pa.array(block.released, type=release)]
    for name, kind in fields.items():
        values = block.columns[name]
        arrays.append(_dictionary(values) if name in _SHARED
                      else pa.array(values, type=_KINDS[kind]))
    return arrays


def _dictionary(values: list[str | None]) -> pa.DictionaryArray:
    """A column of few distinct strings (one per run): each stored once."""
    codes: dict[str, int] = {}
    indices = [None if v is None else codes.setdefault(v, len(codes)) for v in values]
    return pa.DictionaryArray.from_arrays(pa.array(indices, type=pa.int32()),
                                          pa.array(list(codes), type=pa.string()))


def check_id_column(names: list[str], id_column: object, column: str, type_of: Any, *,
                    what: str = "table") -> None:
    """``id_column`` names one column of ``names`` other than ``column``, holding integers
    or strings (``type_of(id_column)``: ``None`` when it does): else one clear error."""
    if not isinstance(id_column, str):
        raise TypeError(f"id_column must be a column's name (a str) or None; got "
                        f"{type(id_column).__name__}")
    if id_column not in names:
        raise KeyError(f"id_column {id_column!r} is not in the {what}; its columns are "
                       f"{_names(names)}")
    if id_column == column:
        raise ValueError(f"id_column must differ from column {column!r}: the text is in "
                         "every row's key already")
    wrong = type_of(id_column)
    if wrong is not None:
        raise TypeError(f"id_column {id_column!r} must hold integers or strings; its type "
                        f"is {wrong}")


def is_id_type(arrow_type: pa.DataType) -> bool:
    """Whether a column of this type can key rows: integers or strings."""
    if pa.types.is_dictionary(arrow_type):
        return is_id_type(arrow_type.value_type)
    return pa.types.is_integer(arrow_type) or (is_text_type(arrow_type)
                                               and not pa.types.is_null(arrow_type))


def id_strings(values: pa.Array | pa.ChunkedArray, id_column: object, first_row: int
               ) -> list[str]:
    """The ids of a slice of rows as strings (``str`` of an integer, or the string), or
    :class:`ValueError` naming the first null one (``first_row``: the slice's first row)."""
    if values.null_count:
        import pyarrow.compute as pc

        k = pc.index(pc.is_null(values), True).as_py()
        raise ValueError(f"id_column {id_column!r} is null in row {first_row + k} (counted "
                         "from 0); every row needs an id (it keys the row's noise stream)")
    if pa.types.is_dictionary(values.type):
        values = values.cast(values.type.value_type)
    return [str(v) for v in values.to_pylist()]


def _type_error(schema: pa.Schema) -> Any:
    def type_of(column: str) -> pa.DataType | None:
        arrow_type = schema.field(column).type
        return None if is_text_type(arrow_type) else arrow_type
    return type_of


def plan_run(schema: pa.Schema, column: object, *, out_column: str | None,
             keep_original: bool, metadata: bool, prefix: str, epsilon: float | None,
             mechanism: str | WordMechanism, mode: str, seed: int | None,
             id_column: str | None, first_index: int | None, options: Mapping[str, Any]
             ) -> tuple[Layout, TextPrivatizer, int]:
    """Everything checked (the column, the id column, the names, the options), then the
    embeddings loaded: the layout, the run (numbering its rows from ``first_index``), and
    its rows per block."""
    check_text_column(list(schema.names), column, _type_error(schema))
    column = cast(str, column)  # checked just above
    if id_column is not None:
        check_id_column(list(schema.names), id_column, column, lambda name: (
            None if is_id_type(schema.field(name).type) else schema.field(name).type))
        if first_index is not None:
            raise ValueError("give first_index or id_column, not both: rows are keyed by "
                             "their ids or by their indices")
    start = 0 if first_index is None else check_positive_int(first_index, "first_index",
                                                              minimum=0)
    run = RunOptions.of(epsilon=epsilon, mechanism=mechanism, mode=mode, seed=seed,
                        options=options)
    layout = Layout.plan(schema, column, out_column=out_column, keep_original=keep_original,
                         metadata=metadata, prefix=prefix, run=run, id_column=id_column)
    privatizer = run.privatizer()
    privatizer.next_index = start
    return layout.with_run(privatizer.metadata), privatizer, run.batch_rows


def privatize_table(table: pa.Table, column: str, *, out_column: str | None = None,
                    keep_original: bool = False, epsilon: float | None = None,
                    mechanism: str | WordMechanism = "madlib", mode: str = "text",
                    seed: int | None = None, metadata: bool = True,
                    prefix: str = DEFAULT_PREFIX, id_column: str | None = None,
                    first_index: int | None = None, **options: Any) -> pa.Table:
    """The table with ``column`` privatised, each row a document; and its metadata.

    Parameters
    ----------
    table : pyarrow.Table or pyarrow.RecordBatch
    column : str
        A column of strings (``string``, ``large_string``, ``string_view``, or a
        dictionary of strings).  Nulls stay null.
    out_column : str, optional
        Where the release goes.  Default: ``column`` itself (the release replaces it, at its
        place), or ``f"{column}_private"`` with ``keep_original`` (just after it).
    keep_original : bool, default False
        Keep the original column (under its name) beside the release.
    epsilon, mechanism, mode, seed
        As :func:`emprivacy.privatize_texts`.
    metadata : bool, default True
        Add the per-row metadata columns (:func:`~emprivacy.tables.privatizer.row_fields`),
        each named ``prefix + field``, after the table's columns.
    prefix : str, default "emprivacy_"
        The metadata columns' prefix (another one to privatise a second column).
    id_column : str, optional
        A column of integers or strings whose value keys each row's noise stream (with
        the row's text): the release then does not depend on the rows' order or on where
        a stream was cut.  Null ids raise :class:`ValueError`.
    first_index : int, optional
        Without ``id_column``: the index of the table's first row (default 0), for a
        table that continues another (the rest of an interrupted stream).
    **options
        ``params``, ``oov``, ``size``, ``perturb_stopwords``, ``embeddings``,
        ``vocab_size``, ``batch_rows``: as :func:`emprivacy.privatize_texts`.

    Returns
    -------
    pyarrow.Table
        The other columns as they were (the same buffers, not copied), the release
        (``string``, ``large_string`` for a ``large_string`` column; bag mode:
        ``list<string>``), the metadata columns (``int64``, ``epsilon_total``
        ``float64``, ``guarantee`` and ``mechanism`` dictionary-encoded, ``skipped``
        ``string``), and the run's shared fields in the schema's metadata
        (``emprivacy:<out_column>``, JSON).

    Raises
    ------
    KeyError
        ``column`` is not a column of the table (the message lists them).
    TypeError
        The column does not hold strings; a row of a dictionary column is not a string.
    ValueError
        A name taken twice (``out_column``, a metadata column), a bad option.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog"], [[0.0, 0.0], [1.0, 0.0]], name="toy")
    >>> t = pa.table({"id": [1, 2], "review": ["A cat.", None]})
    >>> out = privatize_table(t, "review", epsilon=50.0, embeddings=emb, seed=1)
    >>> out.column("review").to_pylist(), out.column("emprivacy_n_words").to_pylist()
    (['A cat.', None], [1, None])
    """
    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    if not isinstance(table, pa.Table):
        raise TypeError(f"table must be a pyarrow.Table; got {type(table).__name__}")
    layout, privatizer, batch_rows = plan_run(
        table.schema, column, out_column=out_column, keep_original=keep_original,
        metadata=metadata, prefix=prefix, epsilon=epsilon, mechanism=mechanism, mode=mode,
        seed=seed, id_column=id_column, first_index=first_index, options=options)
    new: list[list[pa.Array]] = [[] for _ in range(len(layout.fields) + 1)]
    keys = [column] if id_column is None else [column, id_column]
    row = 0
    for part in table.select(keys).to_batches(max_chunksize=batch_rows):
        ids = None if id_column is None else part.column(1)
        for k, array in enumerate(layout.arrays(privatizer, part.column(0), ids,
                                                first_row=row)):
            new[k].append(array)
        row += part.num_rows
    columns = [table.column(i) if i >= 0
               else pa.chunked_array(new[-1 - i], type=layout.schema.field(j).type)
               for j, i in enumerate(layout.sources)]
    return pa.Table.from_arrays(columns, schema=layout.schema)


def privatize_batches(batches: pa.RecordBatchReader | Iterable[pa.RecordBatch], column: str,
                      *, schema: pa.Schema | None = None, out_column: str | None = None,
                      keep_original: bool = False, epsilon: float | None = None,
                      mechanism: str | WordMechanism = "madlib", mode: str = "text",
                      seed: int | None = None, metadata: bool = True,
                      prefix: str = DEFAULT_PREFIX, id_column: str | None = None,
                      first_index: int | None = None, **options: Any
                      ) -> pa.RecordBatchReader:
    """:func:`privatize_table` over a stream of record batches, in bounded memory.

    The batches are read as the returned reader is: each is privatised ``batch_rows``
    rows at a time (a larger batch comes out in slices of ``batch_rows`` rows, its other
    columns sliced without copying), so memory holds one input batch and one block of
    output, whatever the number of rows.  Rows are numbered over the whole stream (from
    ``first_index``): with a seed, the release is the same whatever the batches'
    boundaries (and the same as :func:`privatize_table` of their table).  To continue an
    interrupted stream, release the rest with ``first_index`` = the rows written (or key
    the rows by ``id_column``).

    Parameters
    ----------
    batches : pyarrow.RecordBatchReader or iterable of pyarrow.RecordBatch
        The input.  Batches of an iterable must share one schema (that of the first, or
        ``schema``).
    column : str
    schema : pyarrow.Schema, optional
        The schema of an iterable's batches (needed when it may be empty).
    out_column, keep_original, epsilon, mechanism, mode, seed, metadata, prefix
        As :func:`privatize_table`.
    id_column, first_index, **options
        As :func:`privatize_table`.

    Returns
    -------
    pyarrow.RecordBatchReader
        The released batches, with :func:`privatize_table`'s schema.  The column, the names
        and the options are checked, and the embeddings loaded, on the call; a row that is
        not a string raises when its batch is read.
    """
    source: Iterator[pa.RecordBatch]
    if isinstance(batches, pa.RecordBatchReader):
        if schema is not None and not schema.equals(batches.schema):
            raise ValueError("schema differs from the reader's own schema; leave it out")
        schema, source = batches.schema, iter(batches)
    elif isinstance(batches, pa.Table | pa.RecordBatch):
        raise TypeError(f"batches must be a RecordBatchReader or an iterable of record "
                        f"batches; for a {type(batches).__name__}, use privatize_table")
    elif isinstance(batches, Iterable):
        source = iter(batches)
        if schema is None:
            first = next(source, None)
            if first is None:
                raise ValueError("no record batches and no schema: give schema= for an "
                                 "input that may be empty")
            _check_batch(first, None, 0)
            schema = first.schema
            source = _chain(first, source)
    else:
        raise TypeError("batches must be a RecordBatchReader or an iterable of record "
                        f"batches; got {type(batches).__name__}")
    if not isinstance(schema, pa.Schema):
        raise TypeError(f"schema must be a pyarrow.Schema; got {type(schema).__name__}")
    layout, privatizer, batch_rows = plan_run(
        schema, column, out_column=out_column, keep_original=keep_original,
        metadata=metadata, prefix=prefix, epsilon=epsilon, mechanism=mechanism, mode=mode,
        seed=seed, id_column=id_column, first_index=first_index, options=options)
    return pa.RecordBatchReader.from_batches(
        layout.schema, released_batches(source, schema, layout, privatizer, column,
                                        batch_rows))


def _chain(first: pa.RecordBatch, rest: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    yield first
    yield from rest


def _check_batch(batch: object, schema: pa.Schema | None, n: int) -> None:
    if not isinstance(batch, pa.RecordBatch):
        raise TypeError(f"record batch {n} is a {type(batch).__name__}, not a "
                        "pyarrow.RecordBatch")
    if schema is not None and not batch.schema.equals(schema):
        raise ValueError(f"record batch {n} has another schema than the stream's")


def released_batches(source: Iterator[pa.RecordBatch], schema: pa.Schema, layout: Layout,
                     privatizer: TextPrivatizer, column: str, batch_rows: int
                     ) -> Iterator[pa.RecordBatch]:
    """The record batches of ``source`` (of ``schema``) with ``column`` released by
    ``privatizer`` as ``layout`` says, ``batch_rows`` rows at a time."""
    index = list(schema.names).index(column)
    id_at = None if layout.id_column is None else list(schema.names).index(layout.id_column)
    row = 0
    for n, batch in enumerate(source):
        _check_batch(batch, schema, n)
        for start in range(0, batch.num_rows, batch_rows):
            part = batch if batch.num_rows <= batch_rows else batch.slice(start, batch_rows)
            new = layout.arrays(privatizer, part.column(index),
                                None if id_at is None else part.column(id_at), first_row=row)
            row += part.num_rows
            yield pa.RecordBatch.from_arrays(
                [part.column(i) if i >= 0 else new[-1 - i] for i in layout.sources],
                schema=layout.schema)
