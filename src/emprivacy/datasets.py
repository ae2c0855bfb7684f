"""Privatise a column of a Hugging Face dataset (``pip install 'emprivacy[datasets]'``).

The public face of :mod:`emprivacy.tables.datasets` (docs/TABLES.md)::

    from emprivacy.datasets import mapper
    out = ds.map(mapper(column="text", epsilon=10), batched=True, with_indices=True,
                 num_proc=4)
"""

from __future__ import annotations

from .tables.datasets import DatasetMapper, counts, mapper

__all__ = ["DatasetMapper", "counts", "mapper"]
