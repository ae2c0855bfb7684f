"""Every column path with bad cells and bad columns (issue 30's table half of the sweep).

In-process, the cases of ``benchmarks/column_sweep.py`` (which prints a table of every
outcome): ``privatize_texts``, Arrow (table and stream), pandas, Polars (eager, lazy, the
expression), a ``datasets.Dataset`` through ``mapper`` and ``privatize_parquet`` — each given
a column with a null, a NaN, an int, bytes, a list, a dict, a bool, an empty or blank string,
a cell that is only an unknown word, only nulls, one row or no rows; a missing column, a
column of ints and a column name that is not a string.  Each case is refused with a
``TypeError``/``ValueError``/``KeyError`` of one line that does not quote the text, or
released with as many rows, nulls kept null, and the unknown word never verbatim.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SWEEP = Path(__file__).resolve().parents[2] / "benchmarks" / "column_sweep.py"


def _sweep():
    spec = importlib.util.spec_from_file_location("column_sweep", SWEEP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["column_sweep"] = module
    spec.loader.exec_module(module)
    return module


column_sweep = _sweep()
PATHS = ["privatize_texts", "arrow table", "arrow stream", "pandas", "polars", "polars lazy",
         "polars expr", "datasets", "parquet"]


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    pytest.importorskip("pandas")
    pytest.importorskip("polars")
    pytest.importorskip("datasets")
    root = tmp_path_factory.mktemp("columns")
    (root / "emb.txt").write_text(column_sweep.EMBEDDINGS, encoding="utf-8")
    return column_sweep.cases(column_sweep.Paths(str(root / "emb.txt"), root, False))


def test_every_path_and_input_is_swept(cases):
    seen = {c.path for c in cases}
    assert seen == set(PATHS)
    for path in PATHS:
        inputs = {c.what for c in cases if c.path == path}
        assert {f"a {label} cell" for label in column_sweep.CELLS} <= inputs
        assert {"only nulls", "one row", "zero rows"} <= inputs


@pytest.mark.parametrize("path", PATHS)
def test_no_case_crashes_or_leaks(cases, path):
    failed = [f"{c.what}: {'; '.join(c.problems)}" for c in cases
              if c.path == path and c.problems]
    assert failed == []


def test_the_sweep_sees_a_crash_and_a_leak(tmp_path):
    """The judge is not blind: an AttributeError and a verbatim unknown word are findings."""

    def crash():
        raise AttributeError("boom")

    case = column_sweep._run(column_sweep.Case("x", "crash"), crash)
    assert case.problems and case.outcome.startswith("crashed")
    rows = [column_sweep.GOOD, None]
    leak = column_sweep._run(column_sweep.Case("x", "leak"),
                             lambda: (rows, [column_sweep.GOOD, "cat"]))
    assert any("verbatim" in p for p in leak.problems)
    assert any("null came back" in p for p in leak.problems)
    two_lines = column_sweep._run(column_sweep.Case("x", "msg"),
                                  lambda: (_ for _ in ()).throw(ValueError("a\nb")))
    assert any("not one line" in p for p in two_lines.problems)


def test_nulls_and_empty_rows_are_kept(cases):
    for c in cases:
        if c.what in ("a None cell", "only nulls", "a empty cell", "zero rows"):
            assert c.outcome == "released", (c.path, c.what, c.outcome, c.message)
