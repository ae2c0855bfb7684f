"""Every column path with bad cells and bad columns (issue 30, the tables' half of the sweep).

``benchmarks/fault_sweep.py`` gives every flag of ``audit`` and ``calibrate`` extreme values;
this script does the same for the column paths: ``privatize_texts``, Arrow (a table and a
stream of record batches), pandas, Polars (eager, lazy, the expression), a Hugging Face
``Dataset`` through ``mapper``, ``privatize_parquet`` and, with ``--spark``, Spark.  Each path
is given, one at a time, a column holding:

* nulls: ``None``, a float NaN (pandas' null), a column of nulls only;
* non-strings: an int, a float, bytes, a list, a dict (a *cell* that is a mapping), a bool;
* an empty string, whitespace only, a one-row and a zero-row table;
* a missing column, a column name that is not a string, and (for ``privatize_texts``) a
  mapping, a set and a bare string in place of the rows.

A case **fails** when:

* it raises anything but ``TypeError``/``ValueError``, ``KeyError`` for a missing column (as
  pandas and pyarrow do), the extra's ``ImportError`` or, for the Polars expression (which
  cannot see the frame's schema before Polars evaluates it), Polars' own errors for a
  missing column (``ColumnNotFoundError``) and an ``Object`` column (``nested objects are
  not allowed``: Polars refuses to put it beside the row keys before our code runs); or
  its message is empty or more than one line (a fault is one line);
* it succeeds but the release has another number of rows than the input, a null row is not
  null in the release, or a word the embeddings do not know (the marker ``Qzxvbnm``, present
  in every text cell) comes out verbatim: an unknown word is never released unchanged by
  default.

Cells of the wrong type may be *refused* (one line) or *released as null*; both are
accepted, and the script prints which each path does, so that the docs can say it.  Not a
test (about a minute; Spark adds a JVM): ``tests/tables`` hold the cases that were once
wrong.  Usage::

    python benchmarks/column_sweep.py [--spark] [--report sweep.md]
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: A 2-D embeddings file holding the texts' words (not the marker).
EMBEDDINGS = "\n".join([
    "cat 0 0", "dog 1 0", "car 10 10", "bus 11 10", "sun -10 5",
    "harbour 0 1", "zeppelin 9 9", "quiet 1 1", "factory 10 9", "drifted -9 5",
]) + "\n"
#: An unknown word, in every text cell: it must never come back verbatim.
MARKER = "Qzxvbnm"
GOOD = f"The cat saw the dog by the harbour, {MARKER} said."
#: Bad cells, each put into a column beside good rows.
CELLS: dict[str, Any] = {
    "None": None, "nan": math.nan, "int": 7, "float": 2.5, "bytes": b"cat dog",
    "list": ["cat", "dog"], "dict": {"cat": "dog"}, "bool": True, "empty": "",
    "whitespace": "  \n\t ", "marker only": MARKER,
}
EPSILON = 1.0


@dataclass
class Case:
    path: str
    what: str
    outcome: str = ""
    message: str = ""
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _rows(cell: Any) -> list[Any]:
    return [GOOD, cell, GOOD]


def _check_release(case: Case, rows: list[Any], released: list[Any]) -> None:
    if len(released) != len(rows):
        case.problems.append(f"{len(rows)} rows in, {len(released)} out")
        return
    for i, (before, after) in enumerate(zip(rows, released, strict=True)):
        null_in = before is None or (isinstance(before, float) and math.isnan(before))
        if null_in and after is not None and not (isinstance(after, float) and math.isnan(after)):
            case.problems.append(f"row {i}: a null came back as {after!r}")
        if after is not None and not isinstance(after, (str, list, float)):
            case.problems.append(f"row {i}: released a {type(after).__name__}")
        if after is not None and MARKER.lower() in str(after).lower():
            case.problems.append(f"row {i}: the unknown word came back verbatim")


def _run(case: Case, work: Callable[[], tuple[list[Any], list[Any]] | None]) -> Case:
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = work()
    except (TypeError, ValueError, KeyError, ImportError) as exc:
        case.outcome = f"refused ({type(exc).__name__})"
        case.message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        if not case.message.strip() or "\n" in case.message.strip():
            case.problems.append(f"message not one line: {case.message!r}")
        if MARKER.lower() in case.message.lower():
            case.problems.append("the message holds the text")
    except Exception as exc:  # the sweep's point: anything else is a finding
        polars_own = (type(exc).__name__ == "ColumnNotFoundError"
                      or "nested objects are not allowed" in str(exc))
        if case.path == "polars expr" and polars_own:
            case.outcome = f"refused by Polars ({type(exc).__name__})"
            case.message = str(exc).splitlines()[0]
            case.seconds = time.perf_counter() - start
            return case
        case.outcome = f"crashed ({type(exc).__name__})"
        case.message = "".join(traceback.format_exception_only(exc)).strip()
        case.problems.append("not a TypeError/ValueError: " + case.message.splitlines()[-1])
    else:
        if result is None:
            case.outcome = "released"
        else:
            rows, released = result
            case.outcome = "released"
            if any(r is not None and not isinstance(r, str) and not
                   (isinstance(r, float) and math.isnan(r)) for r in rows):
                case.outcome = "released (non-string cell accepted)"
            _check_release(case, rows, released)
    case.seconds = time.perf_counter() - start
    return case


class Paths:
    """Each column path as ``release(rows) -> released``, and its missing-column call."""

    def __init__(self, emb: str, root: Path, spark: bool) -> None:
        self.emb = emb
        self.root = root
        self.options = {"epsilon": EPSILON, "embeddings": emb, "seed": 1, "vocab_size": None}
        self.spark = spark
        self._session: Any = None

    def texts(self, rows: list[Any]) -> list[Any]:
        from emprivacy.tables import privatize_texts
        return [r.release for r in privatize_texts(rows, **self.options)]

    def arrow_table(self, rows: list[Any], column: Any = "text") -> list[Any]:
        import pyarrow as pa

        from emprivacy.tables.arrow import privatize_table
        table = pa.table({"text": pa.array(rows), "n": list(range(len(rows)))})
        return privatize_table(table, column, **self.options).column("text").to_pylist()

    def arrow_stream(self, rows: list[Any], column: Any = "text") -> list[Any]:
        import pyarrow as pa

        from emprivacy.tables.arrow import privatize_batches
        batch = pa.record_batch({"text": pa.array(rows), "n": list(range(len(rows)))})
        reader = privatize_batches([batch], column, **self.options)
        return reader.read_all().column("text").to_pylist()

    def pandas(self, rows: list[Any], column: Any = "text") -> list[Any]:
        import pandas as pd

        from emprivacy.tables.pandas import privatize_frame
        df = pd.DataFrame({"text": pd.Series(rows, dtype=object), "n": range(len(rows))})
        out = privatize_frame(df, column, **self.options)["text"].tolist()
        return [None if isinstance(v, float) and math.isnan(v) else v for v in out]

    def polars(self, rows: list[Any], column: Any = "text", lazy: bool = False) -> list[Any]:
        import polars as pl

        from emprivacy.tables.polars import privatize
        rows = _polars_cells(rows)
        frame = pl.DataFrame({"text": pl.Series(rows, dtype=pl.Object if _odd(rows) else None,
                                                strict=False),
                              "n": list(range(len(rows)))})
        if lazy:
            out = privatize(frame.lazy(), column, **self.options).collect()  # type: ignore[union-attr]
        else:
            out = privatize(frame, column, **self.options)
        return out["text"].to_list()

    def polars_lazy(self, rows: list[Any], column: Any = "text") -> list[Any]:
        return self.polars(rows, column, lazy=True)

    def polars_expr(self, rows: list[Any], column: Any = "text") -> list[Any]:
        import polars as pl

        from emprivacy.tables.polars import privatize_expr
        rows = _polars_cells(rows)
        frame = pl.DataFrame({"text": pl.Series(rows, dtype=pl.Object if _odd(rows) else None,
                                                strict=False)})
        return frame.select(privatize_expr(column, **self.options))[:, 0].to_list()

    def datasets(self, rows: list[Any], column: Any = "text") -> list[Any]:
        import datasets

        from emprivacy.tables.datasets import mapper
        datasets.disable_progress_bars()
        ds = datasets.Dataset.from_dict({"text": rows, "n": list(range(len(rows)))})
        out = ds.map(mapper(column=column, **self.options), batched=True, with_indices=True)
        return list(out["text"])

    def parquet(self, rows: list[Any], column: Any = "text") -> list[Any]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        from emprivacy.tables import privatize_parquet
        source, dest = self.root / "in.parquet", self.root / "out.parquet"
        dest.unlink(missing_ok=True)
        pq.write_table(pa.table({"text": pa.array(rows), "n": list(range(len(rows)))}), source)
        privatize_parquet(source, dest, column, **self.options)
        return pq.read_table(dest).column("text").to_pylist()

    def spark_frame(self, rows: list[Any], column: Any = "text") -> list[Any]:
        from emprivacy.tables import spark

        if self._session is None:
            self._session = spark.local_session(2)
        rows = _polars_cells(rows)  # a NaN is a float value in Spark too, not a null
        df = self._session.createDataFrame([(i, r, i) for i, r in enumerate(rows)],
                                           "id long, text string, n long")
        out = spark.privatize(df, column, id_column="id", **self.options).orderBy("id")
        return [row["text"] for row in out.collect()]

    def all(self) -> dict[str, Callable[..., list[Any]]]:
        paths = {"privatize_texts": self.texts, "arrow table": self.arrow_table,
                 "arrow stream": self.arrow_stream, "pandas": self.pandas,
                 "polars": self.polars, "polars lazy": self.polars_lazy,
                 "polars expr": self.polars_expr, "datasets": self.datasets,
                 "parquet": self.parquet}
        if self.spark:
            paths["spark"] = self.spark_frame
        return paths


def _polars_cells(rows: list[Any]) -> list[Any]:
    """A NaN is not a null in Polars or Spark (it is a float value): given as a null there."""
    return [None if isinstance(r, float) and math.isnan(r) else r for r in rows]


def _odd(rows: list[Any]) -> bool:
    """Whether Polars needs an Object column for these cells."""
    return any(isinstance(r, (list, dict, bytes)) for r in rows)


def cases(paths: Paths) -> list[Case]:
    out: list[Case] = []
    for name, release in paths.all().items():
        for label, cell in CELLS.items():
            rows = _rows(cell)
            out.append(_run(Case(name, f"a {label} cell"),
                            lambda r=rows, f=release: (r, f(r))))
        for label, rows in (("only nulls", [None, None]), ("one row", [GOOD]),
                            ("zero rows", [])):
            out.append(_run(Case(name, label), lambda r=rows, f=release: (r, f(r))))
        if name != "privatize_texts":
            for label, column in (("a missing column", "review"), ("a column of ints", "n"),
                                  ("a column name that is an int", 3)):
                out.append(_run(Case(name, label),
                                lambda c=column, f=release: (None, f([GOOD], c)) and None))
    texts = paths.texts
    for label, rows in (("a mapping of rows", {"a": GOOD}), ("a set of rows", {GOOD}),
                        ("one bare string", GOOD), ("an int", 3)):
        out.append(_run(Case("privatize_texts", label), lambda r=rows: (None, texts(r)) and None))
    return out


def report(all_cases: list[Case]) -> str:
    lines = ["| path | input | outcome | problems / the line the user sees |", "|---|---|---|---|"]
    for c in all_cases:
        said = "; ".join(c.problems) if c.problems else c.message.replace("|", "\\|")
        lines.append(f"| {c.path} | {c.what} | {c.outcome} | {said[:200]} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spark", action="store_true", help="include Spark (starts a JVM)")
    parser.add_argument("--report", type=Path, help="write the table of every case here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "emb.txt").write_text(EMBEDDINGS, encoding="utf-8")
        start = time.perf_counter()
        all_cases = cases(Paths(str(root / "emb.txt"), root, args.spark))
        seconds = time.perf_counter() - start
    failed = [c for c in all_cases if c.problems]
    outcomes = Counter(c.outcome.split(" (")[0] for c in all_cases)
    print(f"{len(all_cases)} cases in {seconds:.1f} s: "
          + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
          + f"; {len(failed)} failed")
    for c in failed:
        print(f"FAILED {c.path}: {c.what}: {'; '.join(c.problems)}")
    if args.report:
        args.report.write_text(report(all_cases), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
