"""Names of a package imported on first use (PEP 562), so that importing the package stays
fast and imports none of its heavy modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_exports(package: str, namespace: dict[str, Any], exports: Mapping[str, str]
                 ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package``, whose public name
    ``n`` lives in its submodule ``exports[n]`` (relative to ``package``).

    A name is imported on its first look-up and then stored in ``namespace`` (the package's
    ``globals()``), so later look-ups are plain attribute reads.

    >>> namespace = {}
    >>> getattr_, dir_ = lazy_exports("json", namespace, {"JSONEncoder": "encoder"})
    >>> getattr_("JSONEncoder").__module__, sorted(namespace), dir_()
    ('json.encoder', ['JSONEncoder'], ['JSONEncoder'])
    """

    def __getattr__(name: str) -> object:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    return __getattr__, __dir__
