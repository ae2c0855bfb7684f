"""The whole command line with bad values, bad files and bad outputs (issue 44).

Every subcommand (``obfuscate``, ``distance``, ``guarantee``, ``calibrate``, ``audit``,
``evaluate``) is run, one case at a time, each in a subprocess of its own (``python -m
emprivacy …``, a 6 GiB address-space limit and a time limit), in a directory holding good
inputs and bad ones: every numeric option with ``0 -1 nan inf 1e-300 1e300
99999999999999999999 '' abc``; empty, random, non-UTF-8, NUL-holding, 1 MB-one-line, directory
and missing files as every input; 12 broken embeddings files; broken Parquet tables through
each table path; and outputs that are empty, a directory, under a missing directory, in a
read-only directory, the input itself, the embeddings file, a link to either, or a full
device.  Every file of the directory is hashed before and after each case.  The audit and
calibrate cases of ``benchmarks/fault_sweep.py`` (issue 30) run too, with ``--with-sweep``.

A case **fails** when it prints a traceback or a Python warning, ends in more than one
line on stderr with an error exit (a warning line before it allowed), exits with another
code than 0, 1 or 2, is killed (time or memory limit), changes an input, or exits 0 with an
output that is not what the command documents (``--json`` and JSONL output not JSON).

Usage::

    python benchmarks/cli_fuzz.py [--jobs 2] [--timeout 60] [--with-sweep] [--report r.md]

``tests/test_cli_fuzz.py`` runs a sample of these cases in the test suite.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("fault_sweep", HERE / "fault_sweep.py")
assert _spec is not None and _spec.loader is not None
sweep = importlib.util.module_from_spec(_spec)
sys.modules["fault_sweep"] = sweep
_spec.loader.exec_module(sweep)
Case = sweep.Case

#: Values every numeric option is given (the issue's list).
NUMBERS = ("0", "-1", "nan", "inf", "1e-300", "1e300", "99999999999999999999", "", "abc")
#: Bad input files, by name (made by :func:`setup`); ``dir`` is a directory, ``missing.txt``
#: does not exist.
BAD_INPUTS = ("empty.txt", "random.bin", "latin1.txt", "nul.txt", "oneline.txt", "dir",
              "missing.txt")
#: Broken embeddings files.
BAD_EMBEDDINGS = ("emb-empty.txt", "emb-ragged.txt", "emb-nan.txt", "emb-inf.txt",
                  "emb-letters.txt", "emb-header-lies.txt", "emb-huge-header.txt",
                  "emb-one-column.txt", "emb-duplicates.txt", "emb-garbage.bin",
                  "emb-latin1.txt", "emb-nul.txt")
#: Broken Parquet tables.
BAD_TABLES = ("t-garbage.parquet", "t-no-text.parquet", "t-int-text.parquet",
              "t-empty.parquet", "t-null-text.parquet", "t-dup-ids.parquet")


def setup(root: Path) -> None:
    """The good and bad files of the sweep."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sweep.setup(root)  # emb.txt, a.txt, corpus/, pairs.txt, doc_a.txt, doc_b.txt
    (root / "b.txt").write_text("The dog and the bus by the factory.", encoding="utf-8")
    (root / "docs.jsonl").write_text("".join(
        json.dumps({"id": f"d{i}", "text": sweep.TEXT}) + "\n" for i in range(3)),
        encoding="utf-8")
    (root / "words.txt").write_text("cat dog bus\n", encoding="utf-8")
    rows = [{"author": f"a{i % 4}", "topic": f"t{i % 2}", "text": sweep.TEXT} for i in range(16)]
    (root / "ds.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows),
                                   encoding="utf-8")
    pq.write_table(pa.table({"id": ["r0", "r1"], "text": [sweep.TEXT, "A dog."]}),
                   root / "t.parquet")
    # bad inputs
    (root / "empty.txt").write_bytes(b"")
    (root / "random.bin").write_bytes(os.urandom(20_000))
    (root / "latin1.txt").write_bytes("The caf\xe9 cat.".encode("latin-1"))
    (root / "nul.txt").write_bytes(b"The cat\x00 sat.")
    (root / "oneline.txt").write_text(("cat dog " * 130_000).strip(), encoding="utf-8")
    (root / "dir").mkdir()
    # broken embeddings
    bad = {
        "emb-empty.txt": b"",
        "emb-ragged.txt": b"cat 0 0\ndog 1\nbus 2 2 2\n",
        "emb-nan.txt": b"cat 0 0\ndog nan 1\n",
        "emb-inf.txt": b"cat 0 0\ndog inf 1\n",
        "emb-letters.txt": b"cat a b\ndog c d\n",
        "emb-header-lies.txt": b"5 2\ncat 0 0\n",
        "emb-huge-header.txt": b"99999999999 99999999999\ncat 0 0\n",
        "emb-one-column.txt": b"cat\ndog\n",
        "emb-duplicates.txt": b"cat 0 0\ncat 1 1\n",
        "emb-garbage.bin": os.urandom(4096),
        "emb-latin1.txt": "caf\xe9 0 0\ndog 1 1\n".encode("latin-1"),
        "emb-nul.txt": b"cat 0 0\x00\ndog 1 1\n",
    }
    for name, data in bad.items():
        (root / "embs").mkdir(exist_ok=True)
        (root / "embs" / name).write_bytes(data)
    # broken tables
    (root / "tables").mkdir()
    (root / "tables" / "t-garbage.parquet").write_bytes(os.urandom(2048))
    pq.write_table(pa.table({"id": ["r0"], "body": ["x"]}), root / "tables" / "t-no-text.parquet")
    pq.write_table(pa.table({"id": ["r0"], "text": [3]}), root / "tables" / "t-int-text.parquet")
    pq.write_table(pa.table({"id": pa.array([], pa.string()), "text": pa.array([], pa.string())}),
                   root / "tables" / "t-empty.parquet")
    pq.write_table(pa.table({"id": ["r0"], "text": pa.array([None], pa.string())}),
                   root / "tables" / "t-null-text.parquet")
    pq.write_table(pa.table({"id": ["r0", "r0"], "text": ["a cat", "a dog"]}),
                   root / "tables" / "t-dup-ids.parquet")
    # outputs: a read-only directory, links to an input and to the embeddings
    (root / "ro").mkdir()
    (root / "ro").chmod(stat.S_IRUSR | stat.S_IXUSR)
    (root / "link-to-a.txt").symlink_to("a.txt")
    (root / "link-to-emb.txt").symlink_to("emb.txt")
    (root / "out").mkdir()


def _numeric(base: list[str], option: str, label: str | None = None) -> Iterator[Case]:
    for value in NUMBERS:
        yield Case([*base, f"{option}={value}"], label or option, value)


def numeric_cases() -> Iterator[Case]:
    """Every numeric option of the commands fault_sweep does not cover."""
    ob = ["obfuscate", "a.txt", "--embeddings", "emb.txt", "-q"]
    for option in ("--vocab-size", "--size", "--seed", "--workers"):
        yield from _numeric([*ob, "-e", "10", "-o", "out/o.jsonl"], option,
                            f"obfuscate {option}")
    yield from _numeric(ob, "--epsilon", "obfuscate --epsilon")
    yield from _numeric([*ob, "-e", "10", "--format", "text", "--entities", "capitalised"],
                        "--entity-epsilon", "obfuscate --entity-epsilon")
    yield from _numeric([*ob, "-e", "10", "--mechanism", "tem"], "--param=beta",
                        "obfuscate --param beta")
    di = ["distance", "a.txt", "b.txt", "--embeddings", "emb.txt", "-q"]
    for option in ("--vocab-size", "--size"):
        yield from _numeric(di, option, f"distance {option}")
    yield from _numeric([*di, "--metric", "epsilon"], "--epsilon", "distance --epsilon")
    gu = ["guarantee", "--json"]
    full = {"-e": "1", "-N": "3", "-d": "1"}
    for option in ("-e", "-N", "-d", "--dim", "--distance"):
        rest = [x for k, v in full.items() if k != option for x in (k, v)]
        yield from _numeric([*gu, *rest], option, f"guarantee {option}")
    ev = ["evaluate", "--dataset", "ds.jsonl", "--embeddings", "emb.txt", "-q", "--out",
          "out/ev", "--authors", "2", "--epsilons", "1", "--trials", "1"]
    for option in ("--trials", "--seed", "--selection-seed", "--vocab-size", "--jobs",
                   "--epsilon-hat", "--epsilon-hat-draws", "--authors", "--epsilons",
                   "--entity-epsilon"):
        yield from _numeric(ev, option, f"evaluate {option}")
    ca = ["calibrate", "--embeddings", "emb.txt", "-q", "--json", "--no-plot", "--trials", "5"]
    yield from _numeric(ca, "--size", "calibrate --size (study)")


def file_cases() -> Iterator[Case]:
    """Every bad file as every input; every broken embeddings file to every command."""
    for bad in BAD_INPUTS:
        for fmt in ("bag", "jsonl", "text"):
            yield Case(["obfuscate", bad, "-e", "10", "--embeddings", "emb.txt", "-q",
                        "--format", fmt], f"obfuscate input ({fmt})", bad)
        yield Case(["obfuscate", bad, "-e", "10", "--embeddings", "emb.txt", "-q", "-o",
                    "out/f.jsonl", "--workers", "1"], "obfuscate input (--workers)", bad)
        yield Case(["distance", bad, "a.txt", "--embeddings", "emb.txt", "-q"],
                   "distance first", bad)
        yield Case(["distance", "a.txt", bad, "--embeddings", "emb.txt", "-q"],
                   "distance second", bad)
        yield Case(["audit", bad, "-e", "1", "--embeddings", "emb.txt", "-q", "--json",
                    "--draws", "20"], "audit corpus", bad)
        yield Case(["calibrate", "--words", bad, "--embeddings", "emb.txt", "-q", "--json",
                    "--no-plot", "--trials", "5", "--epsilons", "1"], "calibrate --words", bad)
        yield Case(["evaluate", "--dataset", bad, "--embeddings", "emb.txt", "-q", "--out",
                    "out/ev", "--trials", "1"], "evaluate --dataset", bad)
        yield Case(["audit", "corpus", "-e", "1", "--embeddings", "emb.txt", "-q", "--json",
                    "--draws", "20", "--reconstruct", "--reference", bad],
                   "audit --reference", bad)
    for bad in BAD_EMBEDDINGS:
        emb = f"embs/{bad}"
        for argv in (["obfuscate", "a.txt", "-e", "10", "-q"],
                     ["obfuscate", "a.txt", "-e", "10", "-q", "--format", "text"],
                     ["distance", "a.txt", "b.txt", "-q"],
                     ["audit", "a.txt", "-e", "1", "-q", "--json", "--draws", "20"],
                     ["calibrate", "-q", "--json", "--no-plot", "--trials", "5",
                      "--epsilons", "1"]):
            yield Case([*argv, "--embeddings", emb], f"{argv[0]} --embeddings", bad)
    for bad in BAD_TABLES:
        table = f"tables/{bad}"
        for extra in ([], ["--readable"], ["--id-column", "id"], ["--text-column", "text"],
                      ["--workers", "1"]):
            yield Case(["obfuscate", table, "-e", "10", "--embeddings", "emb.txt", "-q",
                        "-o", "out/t.parquet", *extra], f"table {' '.join(extra) or 'plain'}",
                       bad)


def output_cases() -> Iterator[Case]:
    """Every bad output for every command that writes one."""
    outputs = ("", "dir", "nodir/x", "ro/x", "a.txt", "emb.txt", "link-to-a.txt",
               "link-to-emb.txt", "/dev/full", "corpus/x")
    for out in outputs:
        for fmt in ("bag", "jsonl", "text", "parquet"):
            yield Case(["obfuscate", "a.txt", "-e", "10", "--embeddings", "emb.txt", "-q",
                        "-f", fmt, "-o", out], f"obfuscate -o (-f {fmt})", repr(out))
        yield Case(["obfuscate", "corpus", "-e", "10", "--embeddings", "emb.txt", "-q",
                    "--workers", "1", "-o", out], "obfuscate -o (--workers)", repr(out))
        yield Case(["calibrate", "--embeddings", "emb.txt", "-q", "--trials", "5",
                    "--epsilons", "1", "--plot", out], "calibrate --plot", repr(out))
        yield Case(["audit", "corpus", "-e", "1", "--embeddings", "emb.txt", "-q", "--draws",
                    "20", "--out", out], "audit --out", repr(out))
        yield Case(["evaluate", "--dataset", "ds.jsonl", "--embeddings", "emb.txt", "-q",
                    "--trials", "1", "--authors", "2", "--epsilons", "1", "--out", out],
                   "evaluate --out", repr(out))


def all_cases(with_sweep: bool) -> list[Case]:
    cases = [*numeric_cases(), *file_cases(), *output_cases()]
    if with_sweep:
        cases += [*sweep.audit_cases(), *sweep.calibrate_cases()]
    return cases


#: The options whose value is an output (not an input).
OUTPUT_OPTIONS = ("-o", "--output", "--plot", "--out", "-f")


def outputs_of(args: list[str]) -> set[str]:
    """The paths a case names as its outputs."""
    named = set()
    for i, arg in enumerate(args):
        for option in OUTPUT_OPTIONS[:4]:
            if arg == option and i + 1 < len(args):
                named.add(args[i + 1])
            elif arg.startswith(option + "="):
                named.add(arg.split("=", 1)[1])
    return named


def snapshot(root: Path, skip: set[str]) -> dict[str, str]:
    """Every file's digest under ``root`` but the case's outputs (and what is under them,
    a Parquet directory's files), links as their target."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if any(rel == o or rel.startswith(o.rstrip("/") + "/") for o in skip) or (
                path.is_dir() and not path.is_symlink()):
            continue
        if path.is_symlink():
            found[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _listing(directory: Path) -> str:
    """The names in an input directory: an output written into it changes them."""
    return " ".join(sorted(p.name for p in directory.iterdir()))


def judge(case: Case, before: dict[str, str], after: dict[str, str]) -> None:
    """fault_sweep's rules, the inputs unchanged, and the documented output of a success."""
    err = [line for line in case.err.splitlines() if line.strip()]
    errors = [line for line in err if not line.startswith("emprivacy: warning:")]
    code = case.code
    sweep.judge(case)
    # a warning line before the error is allowed: count the error's lines only
    case.problems = [p for p in case.problems if not p.endswith("lines on stderr")]
    if code not in (None, 0) and len(errors) != 1:
        case.problems.append(f"{len(errors)} lines on stderr")
    if code not in (None, 0) and errors and not errors[0].startswith("emprivacy: error: "):
        case.problems.append("the error line is not 'emprivacy: error: …'")
    changed = sorted(k for k in before if before[k] != after.get(k))
    if changed:
        case.problems.append(f"inputs changed: {', '.join(changed)}")
    if code == 0 and case.args[0] in ("obfuscate", "guarantee") and (
            "--json" in case.args or "jsonl" in case.args):
        for line in case.out.splitlines():
            try:
                json.loads(line, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
            except ValueError:
                case.problems.append("stdout is not strict JSON")
                break


def run(case: Case, template: Path, timeout: float) -> Case:
    """``case`` in a copy of the directory of its own (cases run in parallel); every file
    but the outputs it names hashed before and after (an output that is a link to an input,
    or the input itself, must not change it: the link's target is hashed)."""
    with tempfile.TemporaryDirectory(dir=template.parent) as tmp:
        root = Path(tmp) / "case"
        shutil.copytree(template, root, symlinks=True)
        named_outputs = outputs_of(case.args)
        inputs = [(root / a).resolve() for a in case.args
                  if a not in named_outputs and a and (root / a).exists()]
        input_dirs = [p for p in inputs if p.is_dir()]

        def an_input(out: str) -> bool:  # the output is (a link to) an input, or inside one
            target = (root / out).resolve()
            return target in inputs or any(d in target.parents for d in input_dirs)

        skip = set()
        for o in named_outputs:
            if not an_input(o):  # the output, and what a link to write through points to
                skip.add(o)
                target = (root / o).resolve()
                if target.is_relative_to(root.resolve()):
                    skip.add(target.relative_to(root.resolve()).as_posix())
        before = snapshot(root, skip)
        before.update({f"{d.relative_to(root.resolve())}/ (its files)": _listing(d)
                       for d in input_dirs})
        try:
            sweep.run(case, root, timeout)
        finally:
            after = snapshot(root, skip)
            after.update({f"{d.relative_to(root.resolve())}/ (its files)": _listing(d)
                          for d in input_dirs})
            for path in (root / "ro", ):
                path.chmod(stat.S_IRWXU)
        judge(case, before, after)
    return case


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--with-sweep", action="store_true",
                        help="also the audit and calibrate cases of fault_sweep.py")
    parser.add_argument("--report", type=Path)
    args = parser.parse_args(argv)
    cases = all_cases(args.with_sweep)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "template"
        template.mkdir()
        setup(template)
        with ThreadPoolExecutor(args.jobs) as pool:
            done = list(pool.map(lambda c: run(c, template, args.timeout), cases))
    text = sweep.report(done)
    if args.report is not None:
        args.report.write_text(text, encoding="utf-8")
    failed = [c for c in done if c.problems]
    commands = sorted({c.args[0] for c in done})
    print(f"{len(done)} cases ({', '.join(commands)}) in {time.perf_counter() - start:.0f} s; "
          f"{len(failed)} failed")
    for c in failed:
        print(f"  {' '.join(c.args)}: {'; '.join(c.problems)} "
              f"(exit {c.code}; {c.err.strip().splitlines()[-1:] or ''})")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
