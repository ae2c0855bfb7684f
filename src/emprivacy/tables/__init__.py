"""Privatising a column where the data lives: strings, Arrow, pandas, Polars, datasets.

:func:`privatize_texts` (:mod:`~emprivacy.tables.batch`) releases an iterable of strings,
each a document of one run, through the corpus path's
:class:`~emprivacy.obfuscation.obfuscator.Obfuscator`; the integrations build on it:
:mod:`~emprivacy.tables.arrow` (tables and streams of record batches, zero-copy for the
other columns), :mod:`~emprivacy.tables.pandas`, :mod:`~emprivacy.tables.polars` and
:mod:`~emprivacy.tables.datasets` (a function for Hugging Face ``Dataset.map``, in any
number of processes) (public as :mod:`emprivacy.tables.arrow`, :mod:`emprivacy.tables.pandas`,
:mod:`emprivacy.tables.polars`, :mod:`emprivacy.tables.datasets`).  Importing this package imports
neither pyarrow, pandas, Polars nor datasets.  docs/TABLES.md.
"""

from __future__ import annotations

from emprivacy.tables.batch import PrivateText, TextReleases, privatize_texts
from emprivacy.tables.privatizer import TextPrivatizer

__all__ = ["PrivateText", "TextPrivatizer", "TextReleases", "privatize_texts"]
