"""``emprivacy obfuscate TABLE.parquet --output OUT.parquet``: a table in, the same table out.

One Parquet file in and a ``.parquet`` output, without ``--format``, ``--workers``,
``--scheduler`` or ``--resume``, is the table path: the file's text column is released in
place (:func:`emprivacy.tables.privatize_parquet`: every other column, its type and its
nulls kept; null texts stay null; the per-row metadata columns after the table's own),
written atomically as one Parquet file.  Every other combination is the records' form
(JSON Lines, text, bags, or a directory of Parquet record files), as before.
docs/TABLES.md#the-command-line.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from emprivacy.cli._common import fail, progress_bar
from emprivacy.exceptions import PrivacyLeakWarning

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from emprivacy.mechanisms import WordMechanism
    from emprivacy.obfuscation import ObfuscationConfig

__all__ = [
    "COUNT_CHANGED_HELP",
    "ID_COLUMN_HELP",
    "TEXT_COLUMN_HELP",
    "check_table_options",
    "is_table_run",
    "table_run",
    "unchanged_note",
]

TEXT_COLUMN_HELP = ("The table path (one .parquet input, --output OUT.parquet): the column "
                    "to release, in place (default: text).")
ID_COLUMN_HELP = ("The table path: a column of integers or strings whose value keys each "
                  "row's noise, with its text (default: the row's position in the file).")


COUNT_CHANGED_HELP = ("Add words_changed to every record (a table: a column): how many of "
                      "its privatised words came out as another word. A function of the "
                      "private text, outside the guarantee: for you, not for publication. "
                      "The summary line says how many documents came back unchanged either "
                      "way.")


def unchanged_note(unchanged: int, with_words: int, what: str) -> str:
    """What the summary line says of the documents (rows) released unchanged: every
    privatised word came out as itself (nothing when none was)."""
    if not unchanged:
        return ""
    share = 100 * unchanged / with_words
    return (f"; {unchanged} of {with_words} {what}(s) with privatised words released "
            f"unchanged ({share:.0f}%: every privatised word came out as itself; a smaller "
            "epsilon changes more)")


def is_table_run(inputs: list[str] | None, output: Path | None, fmt: str | None, *,
                 distributed: bool) -> bool:
    """Whether ``obfuscate`` takes the table path: one Parquet file in, a ``.parquet``
    file out, no ``--format`` and no corpus-run option (``--workers``, ``--scheduler``,
    ``--resume``: ``distributed``)."""
    return (inputs is not None and len(inputs) == 1 and inputs[0].lower().endswith(".parquet")
            and not Path(inputs[0]).is_dir()  # a directory's *.txt files are a corpus
            and output is not None and output.suffix.lower() == ".parquet"
            and fmt is None and not distributed)


def check_table_options(table: bool, *, text_column: str | None, id_column: str | None,
                        id_from: str) -> None:
    """The options that belong to one path only, checked before any work (one line)."""
    if not table:
        given = "--text-column" if text_column is not None else (
            "--id-column" if id_column is not None else None)
        if given is not None:
            fail(f"{given} applies to a Parquet table released as a table: one .parquet "
                 "input and --output OUT.parquet, without --format, --workers, --scheduler "
                 "or --resume")
        return
    if id_from != "path":
        fail("--id-from applies to records; a table keeps its own columns (key its rows "
             "by one of them with --id-column)")
    for value, name in ((text_column, "--text-column"), (id_column, "--id-column")):
        if value is not None and not value:
            fail(f"{name} must name a column; got ''")


def _check_text_column(source: str, column: str) -> None:
    """A missing text column is told with the option that names another (the library's
    own message would not know the option)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        names = pq.read_schema(source).names
    except (OSError, pa.ArrowException):
        return  # the release says it, in its own line
    if column not in names:
        listed = ", ".join(repr(n) for n in names[:20]) + (
            f", … ({len(names)} in all)" if len(names) > 20 else "")
        fail(f"input file {source!r} has no column {column!r} (its columns are {listed}); "
             "name the column to release with --text-column")


def table_run(source: str, output: Path, *, mechanism: Callable[[], WordMechanism],
              config: ObfuscationConfig, seed: int | None, text_column: str | None,
              id_column: str | None, quiet: bool, console: Console) -> None:
    """Release the table ``source`` into ``output`` (see the module), with its summary
    line on ``console`` unless ``quiet``.  ``mechanism()`` loads the embeddings and builds
    the mechanism, once the output and the text column are checked."""
    from emprivacy.tables import check_parquet_table, privatize_parquet

    column = "text" if text_column is None else text_column
    _check_text_column(source, column)
    check_parquet_table(source, column, id_column=id_column)
    mech = mechanism()
    options: dict[str, Any] = {"oov": config.oov, "size": config.size,
                               "perturb_stopwords": config.perturb_stopwords,
                               "count_changed": config.count_changed, "lang": config.lang}
    if config.style_epsilon is not None:
        options["style_epsilon"] = config.style_epsilon
    with progress_bar(console, show=not quiet) as bar, warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyLeakWarning)  # said once, in one line
        task = bar.add_task("Obfuscating", total=None)
        done = privatize_parquet(
            source, output, column, mechanism=mech, mode=config.mode, seed=seed,
            id_column=id_column, progress=lambda rows, total: bar.update(
                task, completed=rows, total=total), **options)
    if not quiet:
        said = [f"{n} {what}" for n, what in (
            (done.nulls, "null"), (done.skipped_empty, "empty"),
            (done.skipped_out_of_vocabulary, "with no word in the vocabulary")) if n]
        console.print(f"emprivacy: wrote {done.rows} row(s) to {output}, column {column!r} "
                      "released in place" + (f" ({', '.join(said)})" if said else "")
                      + unchanged_note(done.unchanged, done.with_words, "row"), markup=False)


