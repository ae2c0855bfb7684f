"""Privatise a column of a Polars DataFrame or LazyFrame (``pip install 'emprivacy[polars]'``).

The public face of :mod:`emprivacy.tables.polars` (docs/TABLES.md)::

    from emprivacy.polars import privatize, privatize_expr
    out = privatize(df, "review", epsilon=10)
    df.with_columns(privatize_expr("review", epsilon=10))
"""

from __future__ import annotations

from .tables.polars import SeriesPrivatizer, privatize, privatize_expr

__all__ = ["SeriesPrivatizer", "privatize", "privatize_expr"]
