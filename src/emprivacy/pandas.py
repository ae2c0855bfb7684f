"""Privatise a column of a pandas DataFrame (``pip install 'emprivacy[pandas]'``).

The public face of :mod:`emprivacy.tables.pandas` (docs/TABLES.md); importing it
registers the ``df.emprivacy.privatize(...)`` accessor::

    from emprivacy.pandas import privatize_frame
    out = privatize_frame(df, "review", epsilon=10)
"""

from __future__ import annotations

from .tables.pandas import EmprivacyAccessor, privatize_frame

__all__ = ["EmprivacyAccessor", "privatize_frame"]
