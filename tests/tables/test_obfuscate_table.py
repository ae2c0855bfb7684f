"""``emprivacy obfuscate table.parquet --output out.parquet``: a table in, the same table out
(issue 30, item 9).

It used to be the records' path: a null text stopped the run (advising ``--resume``, which
met the same row), the output's ``id`` became a string, every other column and the empty
rows were dropped.  Now one Parquet file in and a ``.parquet`` output release the text
column in place (:func:`emprivacy.tables.privatize_parquet`): the other columns, their types
and the nulls as they were, the release exactly ``privatize_table``'s, written atomically.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from emprivacy.exceptions import InputError, OutputError
from emprivacy.tables import privatize_parquet
from emprivacy.tables.arrow import privatize_table

from ..helpers import EMBEDDINGS_FILE, run_cli

TEXTS = ["The cat met a dog at the harbour.", None, "", "A bus and a car.", "sun sun sun",
         "Zebra!", "The car drifted past the quiet cat."]


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.chdir(tmp_path)
    emb = tmp_path / "emb.txt"
    emb.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    table = pa.table({
        "id": pa.array(range(100, 100 + len(TEXTS)), pa.int64()),
        "text": TEXTS,
        "stars": [float(k % 5) for k in range(len(TEXTS))],
        "tags": [["a"], None, [], ["b", "c"], None, ["d"], []],
        "review": [t.upper() if t else t for t in TEXTS],
    })
    pq.write_table(table, tmp_path / "t.parquet", row_group_size=3)
    return {"emb": emb, "table": tmp_path / "t.parquet", "root": tmp_path}


def obfuscate(files: dict[str, Path], capsys, *extra: str, out: str = "o.parquet"):
    return run_cli(["obfuscate", str(files["table"]), "-e", "0.8", "--embeddings",
                    str(files["emb"]), "--seed", "3", "-o", out, *extra], capsys)


@pytest.mark.parametrize("mode, flags", [("bag", []), ("text", ["--readable"])])
def test_a_parquet_table_comes_back_as_the_same_table(files, capsys, mode, flags):
    code, out, err = obfuscate(files, capsys, *flags)
    assert (code, out) == (0, ""), err
    skipped = ", 1 with no word in the vocabulary" if mode == "bag" else ""  # "Zebra!"
    line = err.splitlines()[-1]
    head = ("emprivacy: wrote 7 row(s) to o.parquet, column 'text' released in place (1 null, "
            f"1 empty{skipped})")
    assert line.startswith(head)
    assert re.fullmatch(r"(; \d of \d row\(s\) with privatised words released unchanged "
                        r"\(\d+%: .*\))?", line[len(head):])  # at ε = 0.8, some may be
    source = pq.read_table(files["table"])
    got = pq.read_table(files["root"] / "o.parquet")
    expected = privatize_table(source, "text", epsilon=0.8, mode=mode, seed=3,
                               embeddings=files["emb"])
    assert got.equals(expected)  # the release, the metadata columns, the schema's metadata
    assert got.schema.field("id").type == pa.int64()  # not turned into strings
    for name in ("id", "stars", "tags", "review"):
        assert got.column(name).equals(source.column(name))  # the other columns as they were
    assert got.column_names[:5] == ["id", "text", "stars", "tags", "review"]
    # the null row stays null (and in bag mode the row of no vocabulary word is null)
    assert got.column("text").null_count == (1 if mode == "text" else 2)
    assert got.num_rows == len(TEXTS)
    assert got.column("text")[2].as_py() == ("" if mode == "text" else [])  # empty row kept
    assert got.column("emprivacy_skipped").to_pylist()[1:3] == [None, "empty"]


def test_another_column_and_an_id_column(files, capsys):
    code, _, err = obfuscate(files, capsys, "--readable", "--text-column", "review",
                             "--id-column", "id", "-q")
    assert code == 0 and err == ""
    got = pq.read_table(files["root"] / "o.parquet")
    expected = privatize_table(pq.read_table(files["table"]), "review", epsilon=0.8, seed=3,
                               id_column="id", embeddings=files["emb"])
    assert got.equals(expected)
    assert got.column("text").equals(pq.read_table(files["table"]).column("text"))
    by_index = privatize_table(pq.read_table(files["table"]), "review", epsilon=0.8, seed=3,
                               embeddings=files["emb"])
    assert got.column("review") != by_index.column("review")  # keyed by the ids


def test_the_records_form_stays_for_other_inputs_and_with_format_parquet(files, capsys):
    code, _, err = obfuscate(files, capsys, "--format", "parquet", "-q", out="dir.parquet")
    assert code == 2  # records need a text: the null says so, before any work
    assert err.splitlines() == [
        f"emprivacy: error: input file {str(files['table'])!r} row 1: 'text' is null; a "
        "record needs a text: to keep the nulls, release the file as a table (one .parquet "
        "input, --output OUT.parquet)"]
    assert not (files["root"] / "dir.parquet").exists()
    pq.write_table(pa.table({"id": ["a", "b"], "text": ["A cat.", "A dog."]}),
                   files["root"] / "r.parquet")
    code, _, err = run_cli(["obfuscate", "r.parquet", "-e", "1", "--embeddings",
                            str(files["emb"]), "-q", "--format", "parquet", "-o",
                            "dir.parquet"], capsys)
    assert code == 0, err
    assert (files["root"] / "dir.parquet").is_dir()  # a directory of record files, as before


@pytest.mark.parametrize("extra, line", [
    (["--text-column", "body"],
     "input file 't.parquet' has no column 'body' (its columns are 'id', 'text', 'stars', "
     "'tags', 'review'); name the column to release with --text-column"),
    (["--text-column", "stars"],
     "input file 't.parquet': column 'stars' must hold strings; its type is double"),
    (["--id-column", "stars"],
     "input file 't.parquet': id_column 'stars' must hold integers or strings; its type is "
     "double"),
    (["--id-column", "key"],
     "input file 't.parquet': id_column 'key' is not in the file; its columns are 'id', "
     "'text', 'stars', 'tags', 'review'"),
    (["--id-column", "text"],
     "input file 't.parquet': id_column must differ from column 'text': the text is in "
     "every row's key already"),
    (["--id-from", "index"],
     "--id-from applies to records; a table keeps its own columns (key its rows by one of "
     "them with --id-column)"),
    (["--text-column", ""], "--text-column must name a column; got ''"),
])
def test_each_mistake_is_one_line_before_any_work(files, capsys, monkeypatch, extra, line):
    import emprivacy.embeddings.model as model

    monkeypatch.setattr(model, "load_embeddings", None)  # never reached
    code, out, err = run_cli(["obfuscate", "t.parquet", "-e", "1", "-o", "o.parquet",
                              *extra], capsys)
    assert (code, out, err.splitlines()) == (2, "", [f"emprivacy: error: {line}"])
    assert not (files["root"] / "o.parquet").exists()


@pytest.mark.parametrize("ids, shown", [
    (["a", "b", "c", "d", "b"], "'b' in id_column 'id': rows 1 and 4"),  # across row groups
    ([7, 8, 7], "'7' in id_column 'id': rows 0 and 2"),
])
def test_a_repeated_id_is_one_line_before_any_work(files, capsys, monkeypatch, ids, shown):
    """Issue 44, item 3: a repeated id in --id-column was a traceback from the run; it is
    told as the records' path tells a repeated id, before the embeddings are loaded."""
    import emprivacy.embeddings.model as model

    monkeypatch.setattr(model, "load_embeddings", None)  # never reached
    pq.write_table(pa.table({"id": ids, "text": ["A cat."] * len(ids)}), "r.parquet",
                   row_group_size=3)
    code, out, err = run_cli(["obfuscate", "r.parquet", "-e", "1", "-o", "o.parquet",
                              "--text-column", "text", "--id-column", "id"], capsys)
    assert (code, out, err.splitlines()) == (2, "", [
        f"emprivacy: error: input file 'r.parquet': duplicate row id {shown} (counted from "
        "0); ids must be unique, since each row's noise stream is keyed by its id"])
    assert sorted(p.name for p in files["root"].iterdir()) == ["emb.txt", "r.parquet",
                                                               "t.parquet"]


@pytest.mark.parametrize("argv", [
    ["obfuscate", "t.parquet", "-e", "1", "--text-column", "review"],  # to stdout: records
    ["obfuscate", "t.parquet", "-e", "1", "-o", "o.jsonl", "--id-column", "id"],
    ["obfuscate", "t.parquet", "-e", "1", "-o", "o.parquet", "--workers", "2",
     "--text-column", "review"],
])
def test_the_table_options_belong_to_the_table_path(files, capsys, argv):
    code, _, err = run_cli(argv, capsys)
    option = "--text-column" if "--text-column" in argv else "--id-column"
    assert (code, err.splitlines()) == (2, [
        f"emprivacy: error: {option} applies to a Parquet table released as a table: one "
        ".parquet input and --output OUT.parquet, without --format, --workers, --scheduler "
        "or --resume"])


def test_the_output_is_checked_as_every_output(files, capsys):
    code, _, err = run_cli(["obfuscate", "t.parquet", "-e", "1", "-o", "t.parquet"], capsys)
    assert (code, err.splitlines()) == (2, [
        "emprivacy: error: output 't.parquet' is also an input ('t.parquet'); write the "
        "output elsewhere"])
    (files["root"] / "d.parquet").mkdir()
    code, _, err = run_cli(["obfuscate", "t.parquet", "-e", "1", "-o", "d.parquet"], capsys)
    assert (code, err.splitlines()) == (2, [
        "emprivacy: error: cannot write output 'd.parquet': it is a directory"])
    code, _, err = run_cli(["obfuscate", "t.parquet", "-e", "1", "-o", "no/o.parquet"], capsys)
    assert (code, err.splitlines()) == (2, [
        "emprivacy: error: output directory 'no' does not exist"])


def test_a_full_disk_leaves_the_earlier_output_and_no_temporary_file(files):
    """Written through a temporary file renamed into place: a write that fails (a file size
    limit, as a full disk) leaves the earlier output as it was, and nothing else."""
    (files["root"] / "o.parquet").write_bytes(b"earlier")

    def limit() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    done = subprocess.run([sys.executable, "-m", "emprivacy", "obfuscate", "t.parquet", "-e",
                           "1", "--embeddings", str(files["emb"]), "-q", "-o", "o.parquet"],
                          cwd=files["root"], capture_output=True, text=True, preexec_fn=limit,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                          check=False)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [
        "emprivacy: error: cannot write output 'o.parquet': File too large"]
    assert (files["root"] / "o.parquet").read_bytes() == b"earlier"
    assert sorted(p.name for p in files["root"].iterdir()) == ["emb.txt", "o.parquet",
                                                               "t.parquet"]


def test_privatize_parquet_reads_and_writes_batch_by_batch(files):
    seen: list[tuple[int, int]] = []
    done = privatize_parquet(files["table"], files["root"] / "o.parquet", epsilon=0.8, seed=3,
                             embeddings=files["emb"], batch_rows=2,
                             progress=lambda rows, total: seen.append((rows, total)))
    assert seen == [(2, 7), (4, 7), (6, 7), (7, 7)]  # batches of 2 rows, over the row groups
    assert (done.rows, done.nulls, done.skipped_empty) == (7, 1, 1)
    assert done.metadata["seeded"] is True
    got = pq.read_table(files["root"] / "o.parquet")
    assert got.equals(privatize_table(pq.read_table(files["table"]), "text", epsilon=0.8,
                                      seed=3, embeddings=files["emb"]))
    pq.write_table(pa.table({"id": [1, None], "text": ["a", "b"]}), files["root"] / "n.parquet")
    with pytest.raises(InputError, match=r"^input file '.*n\.parquet': id_column 'id' is null "
                       r"in row 1 \(counted from 0\)"):
        privatize_parquet(files["root"] / "n.parquet", files["root"] / "x.parquet", epsilon=1,
                          embeddings=files["emb"], id_column="id")
    with pytest.raises(OutputError, match="is also an input"):
        privatize_parquet(files["table"], files["table"], epsilon=1, embeddings=files["emb"])
    (files["root"] / "bad.parquet").write_bytes(b"not parquet")
    with pytest.raises(InputError, match=r"^cannot read input file '.*bad\.parquet' as "
                       r"Parquet: "):
        privatize_parquet(files["root"] / "bad.parquet", files["root"] / "x.parquet",
                          epsilon=1, embeddings=files["emb"])
    assert not (files["root"] / "x.parquet").exists()
