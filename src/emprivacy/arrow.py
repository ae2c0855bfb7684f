"""Privatise a column of an Arrow table, or of a stream of record batches.

The public face of :mod:`emprivacy.tables.arrow` (docs/TABLES.md)::

    from emprivacy.arrow import privatize_table
    out = privatize_table(table, "review", epsilon=10)
"""

from __future__ import annotations

from .tables.arrow import privatize_batches, privatize_table

__all__ = ["privatize_batches", "privatize_table"]
