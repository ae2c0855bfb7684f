"""Seeded CLI runs whose outputs are pinned byte for byte (``tests/golden/*.out``).

Run ``python tests/golden/cases.py`` to regenerate them after a deliberate change of
behaviour (and say so in the commit); :mod:`tests.test_golden` checks every case.
Each case is a list of CLI arguments; ``{in}``/``{out}``/``{data}`` are filled in.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).parent
DATA = HERE / "data"

#: name -> (arguments, what the output is: "stdout" or a file/directory under {out})
CASES: dict[str, tuple[list[str], str]] = {
    "obfuscate-bag": (["obfuscate", "{data}/sample.txt", "-e", "10", "--seed", "1",
                       "--vocab-size", "20000", "-q"], "stdout"),
    "obfuscate-bag-size": (["obfuscate", "{data}/sample.txt", "-e", "5", "--seed", "2",
                            "--vocab-size", "20000", "--size", "12", "--oov", "placeholder",
                            "-q"], "stdout"),
    "obfuscate-jsonl": (["obfuscate", "{data}/docs.jsonl", "-e", "10", "--seed", "3",
                         "--vocab-size", "20000", "-q"], "stdout"),
    "obfuscate-text": (["obfuscate", "{data}/sample.txt", "-e", "10", "--seed", "4",
                        "--vocab-size", "20000", "--format", "text", "-q"], "stdout"),
    "obfuscate-text-low-eps": (["obfuscate", "{data}/mixed.txt", "-e", "0.5", "--seed", "5",
                                "--vocab-size", "20000", "--format", "text", "-q"], "stdout"),
    "obfuscate-readable-jsonl": (["obfuscate", "{data}/docs.jsonl", "-e", "10", "--seed", "6",
                                  "--vocab-size", "20000", "--readable", "--format", "jsonl",
                                  "-q"], "stdout"),
    "obfuscate-approximate": (["obfuscate", "{data}/sample.txt", "-e", "20", "--seed", "7",
                               "--vocab-size", "20000", "--decoder", "approximate", "-q"],
                              "stdout"),
    "obfuscate-parquet": (["obfuscate", "{data}/docs.jsonl", "-e", "10", "--seed", "8",
                           "--vocab-size", "20000", "--output", "{out}/o.parquet", "-q"],
                          "o.parquet"),
    "distance": (["distance", "{data}/sample.txt", "{data}/mixed.txt", "--vocab-size", "20000",
                  "--size", "10", "-e", "1", "--json", "-q"], "stdout"),
    "guarantee": (["guarantee", "-e", "0.7", "-N", "4", "-d", "0.25", "-n", "50", "--json"],
                  "stdout"),
    "calibrate": (["calibrate", "--vocab-size", "5000", "--n-words", "30", "--trials", "10",
                   "--epsilons", "5,20", "--seed", "9", "--no-plot", "--json", "-q"], "stdout"),
    "evaluate": (["evaluate", "--dataset", "{data}/corpus.csv", "--embeddings",
                  "{data}/synthetic.vec", "--authors", "6", "--epsilons", "none,0.005",
                  "--trials", "1", "--out", "{out}/ev", "--seed", "3", "--quiet"],
                 "ev/trials.csv,ev/table3.csv,ev/appendix_b.md"),
}


def render(name: str, out_dir: Path) -> bytes:
    """Run one case with the CLI in this process; its output as bytes."""
    from emprivacy.cli import main

    args, target = CASES[name]
    # inputs by a relative path: a document's id (its path) keys its noise stream
    args = [a.replace("{data}", "data").replace("{out}", str(out_dir)) for a in args]
    buf = io.StringIO()
    cwd = os.getcwd()
    os.chdir(HERE)
    try:
        with contextlib.redirect_stdout(buf):
            code = main(args)
    finally:
        os.chdir(cwd)
    if code != 0:
        raise RuntimeError(f"golden case {name} exited {code}")
    if target == "stdout":
        return buf.getvalue().encode("utf-8")
    if target.endswith(".parquet"):
        return _table_bytes(out_dir / target)
    return b"".join(b"== " + f.encode() + b"\n" + (out_dir / f).read_bytes()
                    for f in target.split(","))


def _table_bytes(directory: Path) -> bytes:
    """A Parquet output directory as canonical JSON lines (file names and records, read
    back with :func:`~emprivacy.io.parquet_output.read_parquet_records`)."""
    from emprivacy.io.parquet_output import read_parquet_records

    lines = []
    for f in sorted(directory.glob("*.parquet")):
        for row in read_parquet_records(f):
            lines.append(json.dumps({"file": f.name, **row}, ensure_ascii=False, sort_keys=True))
    return ("\n".join(lines) + "\n").encode("utf-8")


def main() -> None:  # pragma: no cover - a maintenance script
    import tempfile

    for name in sys.argv[1:] or CASES:
        with tempfile.TemporaryDirectory() as tmp:
            (HERE / f"{name}.out").write_bytes(render(name, Path(tmp)))
        print(f"wrote {name}.out")


if __name__ == "__main__":  # pragma: no cover
    main()
