"""Privatising a column where the data lives: strings, Arrow, pandas, Polars, datasets.

:func:`privatize_texts` (:mod:`~emprivacy.tables.batch`) releases an iterable of strings,
each a document of one run, through the corpus path's
:class:`~emprivacy.obfuscation.obfuscator.Obfuscator`; the integrations build on it:
:mod:`~emprivacy.tables.arrow` (tables and streams of record batches, zero-copy for the
other columns), :mod:`~emprivacy.tables.pandas`, :mod:`~emprivacy.tables.polars` and
:mod:`~emprivacy.tables.datasets` (a function for Hugging Face ``Dataset.map``, in any
number of processes) (public as :mod:`emprivacy.tables.arrow`, :mod:`emprivacy.tables.pandas`,
:mod:`emprivacy.tables.polars`, :mod:`emprivacy.tables.datasets`), and
:func:`privatize_parquet` (:mod:`~emprivacy.tables.parquet`: a Parquet file into a Parquet
file, what ``emprivacy obfuscate table.parquet -o out.parquet`` runs).  Importing this
package imports neither pyarrow, pandas, Polars nor datasets.  docs/TABLES.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports
from emprivacy.tables.batch import PrivateText, TextReleases, privatize_texts
from emprivacy.tables.privatizer import TextPrivatizer

if TYPE_CHECKING:  # pragma: no cover
    from emprivacy.tables.parquet import TableRelease, check_parquet_table, privatize_parquet

#: Names imported on first use (they import pyarrow).
_EXPORTS = {"TableRelease": "parquet", "check_parquet_table": "parquet",
            "privatize_parquet": "parquet"}

__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

__all__ = ["PrivateText", "TableRelease", "TextPrivatizer", "TextReleases",
           "check_parquet_table", "privatize_parquet", "privatize_texts"]
