"""Privatising a column of a Parquet file into a Parquet file: a table in, the same table out.

:func:`privatize_parquet` reads a Parquet file one record batch at a time, releases one
of its columns as :func:`~emprivacy.tables.arrow.privatize_batches` releases a stream's
(the release in the column's place, the other columns — their types, their nulls — as
they were, the per-row metadata columns after them, the run's shared fields in the
schema's metadata), and writes the result through a temporary file that is renamed into
place only once it is complete (:func:`emprivacy.io.outputs.atomic_file`): a run that
fails or is interrupted leaves no output under the destination's name, never a partial
file that reads like a whole one.  Memory holds one batch, whatever the number of rows.
It is what ``emprivacy obfuscate table.parquet --output out.parquet`` runs.
docs/TABLES.md.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from emprivacy.exceptions import InputError
from emprivacy.io.output_paths import check_not_input
from emprivacy.io.outputs import atomic_file
from emprivacy.mechanisms import WordMechanism
from emprivacy.tables.arrow import (
    DEFAULT_PREFIX,
    check_id_column,
    check_text_column,
    id_strings,
    is_id_type,
    is_text_type,
    plan_run,
    released_batches,
)

__all__ = ["TableRelease", "check_parquet_table", "privatize_parquet"]


@dataclass(frozen=True)
class TableRelease:
    """What :func:`privatize_parquet` released.

    Attributes
    ----------
    rows : int
        Rows written.
    nulls : int
        Null rows (released null).
    skipped_empty : int
        Rows with nothing left after normalisation (released empty).
    skipped_out_of_vocabulary : int
        Bag mode: rows with no word in the vocabulary (released null).
    words : int
        Words privatised (the sum of ``n_words``).
    with_words : int
        Rows with at least one privatised word.
    unchanged : int
        Of ``with_words``, rows whose every privatised word came out as itself (released
        unchanged, placeholders apart): a function of the private texts, for the person
        running the release.
    metadata : dict
        The fields every row of the run shares (those of every ``obfuscate`` record).
    """

    rows: int
    nulls: int
    skipped_empty: int
    skipped_out_of_vocabulary: int
    words: int
    with_words: int
    unchanged: int
    metadata: dict[str, Any]


def _open(source: Path) -> pq.ParquetFile:
    try:
        return pq.ParquetFile(source)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"cannot read input file {str(source)!r} as Parquet: {exc}") from None


def check_parquet_table(source: str | os.PathLike[str], column: str = "text", *,
                        id_column: str | None = None) -> None:
    """Check what :func:`privatize_parquet` needs of ``source`` without loading anything
    else: a Parquet file, with a column ``column`` of strings and, if given, a column
    ``id_column`` of integers or strings with no null and none repeated.

    Raises
    ------
    InputError
        The first thing that is wrong, naming the file (the columns it has, when one is
        missing).
    """
    source = Path(source)
    _check_columns(_open(source), source, column, id_column)


def _check_columns(pf: pq.ParquetFile, source: Path, column: object,
                   id_column: object) -> None:
    """The columns a run needs are in the file, of the right types, and no id is null or
    repeated: else one :class:`InputError` naming the file (before the embeddings are
    loaded)."""
    schema = pf.schema_arrow
    names = list(schema.names)
    what = f"input file {str(source)!r}"

    def type_of(check: Callable[[pa.DataType], bool]) -> Callable[[str], Any]:
        return lambda name: None if check(schema.field(name).type) else schema.field(name).type

    try:
        check_text_column(names, column, type_of(is_text_type), what="file")
        if id_column is not None:
            check_id_column(names, id_column, str(column), type_of(is_id_type), what="file")
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(column, str) and (id_column is None or isinstance(id_column, str)):
            raise InputError(f"{what}: {exc.args[0]}") from None
        raise  # a name that is not a str: the caller's mistake, not the file's
    if id_column is not None:
        row = 0
        first: dict[str, int] = {}  # each id's row, to name both rows of a repeated one
        for batch in _batches(pf, source, columns=[str(id_column)]):
            if batch.column(0).null_count:
                k = batch.column(0).is_null().to_pylist().index(True)
                raise InputError(f"{what}: id_column {id_column!r} is null in row {row + k} "
                                 "(counted from 0); every row needs an id (it keys the "
                                 "row's noise stream)")
            for k, label in enumerate(id_strings(batch.column(0), id_column, row)):
                seen = first.setdefault(label, row + k)
                if seen != row + k:
                    raise InputError(f"{what}: duplicate row id {label!r} in id_column "
                                     f"{id_column!r}: rows {seen} and {row + k} (counted "
                                     "from 0); ids must be unique, since each row's noise "
                                     "stream is keyed by its id")
            row += batch.num_rows


def _batches(pf: pq.ParquetFile, source: Path, **kwargs: Any) -> Any:
    """The file's record batches; a read error is one :class:`InputError`."""
    try:
        yield from pf.iter_batches(**kwargs)
    except (OSError, pa.ArrowException) as exc:
        raise InputError(f"cannot read input file {str(source)!r} as Parquet: {exc}") from None


def privatize_parquet(source: str | os.PathLike[str], destination: str | os.PathLike[str],
                      column: str = "text", *, out_column: str | None = None,
                      keep_original: bool = False, epsilon: float | None = None,
                      mechanism: str | WordMechanism = "madlib", mode: str = "text",
                      seed: int | None = None, metadata: bool = True,
                      prefix: str = DEFAULT_PREFIX, id_column: str | None = None,
                      first_index: int | None = None,
                      progress: Callable[[int, int], None] | None = None,
                      **options: Any) -> TableRelease:
    """Write the Parquet file ``source`` to ``destination`` with ``column`` privatised,
    each row a document; and its metadata.

    Parameters
    ----------
    source : path
        A Parquet file.
    destination : path
        Where the released table goes (one Parquet file), written atomically: through a
        temporary file in the same directory, renamed into place when complete.  It must
        not be ``source``.
    column : str, default "text"
        A column of strings; nulls stay null.
    out_column, keep_original, epsilon, mechanism, mode, seed, metadata, prefix
        As :func:`emprivacy.tables.arrow.privatize_table`.
    id_column, first_index, **options
        As :func:`emprivacy.tables.arrow.privatize_table`.
    progress : callable, optional
        Called as ``progress(rows_written, rows_in_all)`` after each batch.

    Returns
    -------
    TableRelease
        The counts of the rows written, and the run's shared fields.

    Raises
    ------
    InputError
        ``source`` cannot be read as Parquet, has no column ``column`` or ``id_column``
        (the message lists its columns), or they hold the wrong types, or an id is null
        or repeated (each checked before the embeddings are loaded).
    OutputError
        ``destination`` cannot be written (a directory, a missing directory …) or is
        ``source``.
    OutputWriteError
        Writing failed (a full disk …): nothing is left under ``destination``'s name.
    TypeError, ValueError
        A bad option, as :func:`~emprivacy.tables.arrow.privatize_table`.
    """
    source, destination = Path(source), Path(destination)
    check_not_input(destination, [source])
    pf = _open(source)
    _check_columns(pf, source, column, id_column)
    layout, privatizer, batch_rows = plan_run(
        pf.schema_arrow, column, out_column=out_column, keep_original=keep_original,
        metadata=metadata, prefix=prefix, epsilon=epsilon, mechanism=mechanism, mode=mode,
        seed=seed, id_column=id_column, first_index=first_index, options=options)
    total = pf.metadata.num_rows
    written = 0
    with atomic_file(destination) as out:
        writer = pq.ParquetWriter(out, layout.schema)
        try:
            for batch in released_batches(_batches(pf, source, batch_size=batch_rows),
                                          pf.schema_arrow, layout, privatizer, column,
                                          batch_rows):
                writer.write_batch(batch)
                written += batch.num_rows
                if progress is not None:
                    progress(written, total)
        except BaseException:
            with contextlib.suppress(Exception):  # the temporary file is removed anyway
                writer.close()
            raise
        writer.close()
    return TableRelease(rows=privatizer.rows, nulls=privatizer.nulls,
                        skipped_empty=privatizer.skipped_empty,
                        skipped_out_of_vocabulary=privatizer.skipped_out_of_vocabulary,
                        words=privatizer.words, with_words=privatizer.with_words,
                        unchanged=privatizer.unchanged, metadata=privatizer.metadata)
