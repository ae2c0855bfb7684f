"""How every measure of :mod:`emprivacy.protection` is written: figures with their intervals,
Markdown tables, CSV and strict JSON.

The word audit, the reconstruction attack, the distinguishability audit and the privacy scale
report figures that are either computed (exact) or estimated with a confidence interval; each
is an :class:`Estimate`.  The pieces here are what their reports share, so that a figure, an
empty cell or a table reads the same in every command:

* a figure in a table reads ``0.4123 (exact)`` or ``0.4123 estimate [0.401, 0.425]``
  (:meth:`Estimate.text`), a missing one ``–`` (:func:`estimate_text`, :func:`number_text`);
* in JSON a figure is ``{"estimate", "lower", "upper", "kind"}`` (:meth:`Estimate.to_dict`,
  :func:`estimate_dict`), and :func:`strict_json` writes an infinite figure as ``null``
  (RFC 8259 has no ``Infinity``);
* in CSV a figure takes three columns, ``name``, ``name_lower``, ``name_upper``
  (:func:`interval_columns`, :func:`interval_cells`), and a missing value an empty cell
  (:func:`blank`);
* a Markdown table is a header, an alignment rule and rows (:func:`markdown_table`).

This module is the bottom of the package: it imports nothing of it.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = [
    "MISSING",
    "Estimate",
    "blank",
    "check_results",
    "csv_text",
    "estimate_dict",
    "estimate_text",
    "finite_or_none",
    "interval_cells",
    "interval_columns",
    "markdown_row",
    "markdown_table",
    "number_text",
    "strict_json",
]

#: What a table shows where there is no figure (no word of the kind, no metric).
MISSING = "–"

_T = TypeVar("_T")


@dataclass(frozen=True)
class Estimate:
    """A figure with its interval; ``exact`` when it is computed, not estimated.

    An exact figure has ``lower == estimate == upper``.

    >>> Estimate.of(0.5).text(), Estimate(0.41234, 0.401, 0.425, False).text()
    ('0.5 (exact)', '0.4123 estimate [0.401, 0.425]')
    """

    estimate: float
    lower: float
    upper: float
    exact: bool

    @classmethod
    def of(cls, value: float) -> Estimate:
        """An exact figure."""
        return cls(float(value), float(value), float(value), True)

    def scaled(self, factor: float) -> Estimate:
        """The same figure times ``factor`` (> 0)."""
        return Estimate(self.estimate * factor, self.lower * factor, self.upper * factor,
                        self.exact)

    def to_dict(self) -> dict[str, Any]:
        """``{"estimate", "lower", "upper", "kind"}``; kind ``"exact"`` or ``"estimate"``."""
        return {"estimate": self.estimate, "lower": self.lower, "upper": self.upper,
                "kind": "exact" if self.exact else "estimate"}

    def text(self, digits: int = 4) -> str:
        """``0.4123 (exact)`` or ``0.4123 estimate [0.4010, 0.4250]``."""
        if self.exact:
            return f"{self.estimate:.{digits}g} (exact)"
        return (f"{self.estimate:.{digits}g} estimate [{self.lower:.{digits}g}, "
                f"{self.upper:.{digits}g}]")


# -- text ---------------------------------------------------------------------------------------
def estimate_text(value: Estimate | None) -> str:
    """A figure as a table shows it (:meth:`Estimate.text`); :data:`MISSING` for none.

    >>> estimate_text(None), estimate_text(Estimate.of(1.0))
    ('–', '1 (exact)')
    """
    return MISSING if value is None else value.text()


def number_text(value: float | None) -> str:
    """A plain number to four significant digits; :data:`MISSING` for none.

    >>> number_text(None), number_text(2.0 / 3.0)
    ('–', '0.6667')
    """
    return MISSING if value is None else f"{value:.4g}"


def markdown_row(cells: Sequence[str]) -> str:
    """One row of a Markdown table.

    >>> markdown_row(["a", "1"])
    '| a | 1 |'
    """
    return "| " + " | ".join(cells) + " |"


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]], *,
                   right: Collection[str] = ()) -> list[str]:
    """The lines of a Markdown table: the header, the alignment rule, the rows.

    Parameters
    ----------
    header : sequence of str
        The columns' names.
    rows : iterable of sequences of str
        The cells, already written, one per column.
    right : collection of str
        The columns aligned right (numbers); the others are aligned left.

    >>> markdown_table(["word", "prior"], [["cat", "0.5"]], right={"prior"})
    ['| word | prior |', '|---|---:|', '| cat | 0.5 |']
    """
    rule = "|" + "".join("---:|" if name in right else "---|" for name in header)
    return [markdown_row(header), rule, *(markdown_row(row) for row in rows)]


# -- CSV ------------------------------------------------------------------------------------------
def blank(value: Any) -> Any:
    """A CSV cell: an empty one for ``None``, else the value.

    >>> blank(None), blank(0.5)
    ('', 0.5)
    """
    return "" if value is None else value


def interval_columns(name: str) -> list[str]:
    """The three CSV columns of a figure.

    >>> interval_columns("capacity")
    ['capacity', 'capacity_lower', 'capacity_upper']
    """
    return [name, f"{name}_lower", f"{name}_upper"]


def interval_cells(value: Estimate | None) -> list[Any]:
    """The three CSV cells of a figure (:func:`interval_columns`); empty ones for none.

    >>> interval_cells(Estimate(0.5, 0.25, 0.75, False)), interval_cells(None)
    ([0.5, 0.25, 0.75], ['', '', ''])
    """
    return ["", "", ""] if value is None else [value.estimate, value.lower, value.upper]


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """CSV with a header, one line (``\\n``) per row, quoted where a cell needs it.

    >>> csv_text(["word", "count"], [["a, b", 2]])
    'word,count\\n"a, b",2\\n'
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


# -- JSON -----------------------------------------------------------------------------------------
def estimate_dict(value: Estimate | None) -> dict[str, Any] | None:
    """A figure in JSON (:meth:`Estimate.to_dict`); ``None`` for none."""
    return None if value is None else value.to_dict()


def finite_or_none(value: Any) -> Any:
    """``value`` with every non-finite float (an unbounded likelihood ratio, say) as ``None``,
    through dicts, lists and tuples: what strict JSON can hold.

    >>> finite_or_none({"loss": float("inf"), "d": [1.0, float("nan")]})
    {'loss': None, 'd': [1.0, None]}
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_or_none(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite_or_none(v) for v in value]
    return value


def strict_json(obj: Any, *, indent: int | None = None, ensure_ascii: bool = False) -> str:
    """``obj`` as strict JSON (RFC 8259: no ``Infinity`` or ``NaN``, which many parsers reject):
    a non-finite figure is written as ``null``.

    >>> strict_json({"exact_loss": float("inf"), "word": "café"})
    '{"exact_loss": null, "word": "café"}'
    """
    return json.dumps(finite_or_none(obj), indent=indent, ensure_ascii=ensure_ascii,
                      allow_nan=False)


# -- checks ---------------------------------------------------------------------------------------
def check_results(values: Iterable[Any], kind: type[_T], name: str) -> list[_T]:
    """The results a report writes: a non-empty sequence of ``kind``.

    >>> check_results([Estimate.of(1.0)], Estimate, "figures")[0].exact
    True
    >>> check_results([], Estimate, "figures")
    Traceback (most recent call last):
    ...
    TypeError: figures must be a non-empty sequence of Estimate
    """
    items = list(values)
    if not items or not all(isinstance(v, kind) for v in items):
        raise TypeError(f"{name} must be a non-empty sequence of {kind.__name__}")
    return items
