"""Optional dependencies: imported on first use, with one message naming the extra.

The core install (``pip install emprivacy``) holds what the mechanism needs; the
heavy parts are extras: ``approximate`` (faiss), ``distributed`` (Dask),
``evaluation`` (fastText, POT, matplotlib, scikit-learn), ``audit`` (libqif, the
cross-check of the word audit's measures), ``pandas`` and ``polars`` (a frame's column:
:mod:`emprivacy.tables.pandas`, :mod:`emprivacy.tables.polars`), ``datasets`` (a Hugging
Face dataset's column: :mod:`emprivacy.tables.datasets`), ``spark`` (a Spark DataFrame's column,
:mod:`emprivacy.tables.spark`; not in ``all``) and ``all``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from emprivacy.exceptions import MissingExtraError

__all__ = ["import_optional"]


def import_optional(module: str, *, extra: str, purpose: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtraError` naming the extra to install.

    >>> import_optional("math", extra="all", purpose="arithmetic").sqrt(4.0)
    2.0
    >>> import_optional("no_such_module_xyz", extra="evaluation", purpose="the experiment")
    Traceback (most recent call last):
    ...
    emprivacy.exceptions.MissingExtraError: the experiment needs the optional dependency \
'no_such_module_xyz'; install it with: pip install 'emprivacy[evaluation]'
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.split(".")[0]
        if exc.name is None or exc.name.split(".")[0] != top:
            raise  # the module is there but one of *its* imports is broken: a real bug
        raise MissingExtraError(
            f"{purpose} needs the optional dependency {top!r}; install it with: "
            f"pip install 'emprivacy[{extra}]'") from None
