"""Faults of the inputs are one line on stderr too (docs/FAULTS.md, *Inputs (issue 22)*).

As in ``tests/test_faults.py``: each test checks the exit code, that stderr is exactly one
``emprivacy: error:`` line without a traceback and without any word of the input, and
that nothing is left behind (no output, no partition directory, nothing on stdout).

Unreadable inputs are provoked in ways that also work as root (as CI may run), who reads
every file whatever its mode: in this process, ``os.scandir``/``os.open``/``os.stat`` are
patched to raise ``PermissionError`` for one path; in a subprocess, ``chmod`` as another
user, or, as root, ``setpriv`` dropping the capabilities that let root ignore permissions.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from emprivacy.io import CHUNK_CHARS

from .helpers import input_env
from .test_faults import INPUT_WORDS, TEXT, in_process, leftovers, one_line

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")

#: The output variants of a run: stdout, a file, Parquet, a partitioned JSONL run.
OUTPUTS = [[], ["-o", "{out}/out.jsonl"], ["-o", "{out}/out.parquet"],
           ["-o", "{out}/out.jsonl", "--resume"]]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Path]:
    """``in/a.txt`` and ``in/emb.txt``; a corpus ``corp/`` of ``a.txt``, ``b.txt`` and
    ``sub/c.txt``; an empty ``out/``."""
    env = input_env(tmp_path, TEXT)
    corp = tmp_path / "corp"
    (corp / "sub").mkdir(parents=True)
    for name in ("a.txt", "b.txt", "sub/c.txt"):
        (corp / name).write_text(TEXT, encoding="utf-8")
    env["corp"] = corp
    return env


def corpus_args(env: dict[str, Path], extra: list[str]) -> list[str]:
    return ["obfuscate", str(env["corp"]), "-e", "10", "--embeddings", str(env["emb"]), "-q",
            *(a.format(out=env["out"]) for a in extra)]


def nothing_written(env: dict[str, Path], stdout: str) -> None:
    assert stdout == ""
    assert leftovers(env["out"]) == []
    assert not [p for p in env["root"].iterdir() if p.name.endswith(".parts")]


def _denied(path: Path) -> PermissionError:
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def deny(monkeypatch: pytest.MonkeyPatch, name: str, path: Path) -> None:
    """Make ``os.<name>`` (``scandir``, ``open``, ``stat``) fail with EACCES for ``path``."""
    real: Callable[..., Any] = getattr(os, name)
    target = os.path.abspath(path)

    def fake(p: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(p, int) and os.path.abspath(os.fsdecode(p)) == target:
            raise _denied(path)
        return real(p, *args, **kwargs)

    monkeypatch.setattr(os, name, fake)


# -- an unreadable file or directory inside an input directory ----------------------------
@pytest.mark.parametrize("extra", OUTPUTS)
def test_an_unreadable_file_in_an_input_directory(env, extra, monkeypatch, capsys):
    """It used to be found mid-run: the records before it were on stdout already, and a
    partitioned run left its directory behind.  Now: before any work."""
    bad = env["corp"] / "b.txt"
    deny(monkeypatch, "open", bad)
    done = in_process(corpus_args(env, extra), capsys)
    one_line(done, 2)
    assert done.stderr.strip() == f"emprivacy: error: cannot read input file {str(bad)!r}: " \
        "Permission denied"
    nothing_written(env, done.stdout)


@pytest.mark.parametrize("extra", OUTPUTS)
def test_an_unreadable_sub_directory(env, extra, monkeypatch, capsys):
    """It used to be skipped silently: exit 0 and one document fewer in the release."""
    sub = env["corp"] / "sub"
    deny(monkeypatch, "scandir", sub)
    done = in_process(corpus_args(env, extra), capsys)
    assert done.stderr.strip() == (f"emprivacy: error: cannot read input directory "
                                   f"{str(sub)!r}: Permission denied")
    one_line(done, 2)
    nothing_written(env, done.stdout)


@pytest.mark.parametrize("extra", OUTPUTS[:2])
def test_a_sub_directory_listed_but_not_searchable(env, extra, monkeypatch, capsys):
    """Mode r-- without x: its names can be listed, its files not looked at (this was a
    ``PermissionError`` traceback from ``Path.is_file``)."""
    bad = env["corp"] / "sub" / "c.txt"
    deny(monkeypatch, "stat", bad)
    done = in_process(corpus_args(env, extra), capsys)
    one_line(done, 2, f"cannot read input file {str(bad)!r}: Permission denied")
    nothing_written(env, done.stdout)


def test_an_unreadable_input_directory(env, monkeypatch, capsys):
    """Not "holds no *.txt or *.parquet file": the directory cannot be listed."""
    deny(monkeypatch, "scandir", env["corp"])
    done = in_process(corpus_args(env, []), capsys)
    one_line(done, 2, f"cannot read input directory {str(env['corp'])!r}: Permission denied")
    nothing_written(env, done.stdout)


# -- links and special files inside an input directory -----------------------------------
@pytest.mark.parametrize("extra", OUTPUTS)
def test_a_linked_sub_directory_is_refused(env, extra, capsys):
    """It used to be skipped silently (exit 0, its documents missing from the release).
    Not followed, since it may lead out of the corpus or into a cycle: refused, named."""
    elsewhere = env["root"] / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "d.txt").write_text(TEXT, encoding="utf-8")
    link = env["corp"] / "sub" / "linked"
    link.symlink_to(Path("..") / ".." / "elsewhere", target_is_directory=True)
    done = in_process(corpus_args(env, extra), capsys)
    one_line(done, 2)
    assert done.stderr.strip() == (
        f"emprivacy: error: {str(link)!r} in an input directory is a symbolic link to a "
        "directory, which is not followed; give its target as an input of its own, or "
        "remove the link")
    nothing_written(env, done.stdout)


def test_a_link_to_itself_is_refused_not_followed(env, capsys):
    """A cycle (a link to its own directory) ends at once, with the same line."""
    link = env["corp"] / "sub" / "loop"
    link.symlink_to(".", target_is_directory=True)
    done = in_process(corpus_args(env, []), capsys)
    one_line(done, 2, f"{str(link)!r} in an input directory is a symbolic link to a directory")
    nothing_written(env, done.stdout)


@pytest.mark.parametrize("extra", OUTPUTS)
def test_a_broken_txt_link_is_refused(env, extra, capsys):
    """It used to be skipped silently, as if the document were not in the corpus."""
    link = env["corp"] / "sub" / "broken.txt"
    link.symlink_to(Path("..") / "gone.txt")
    done = in_process(corpus_args(env, extra), capsys)
    one_line(done, 2)
    assert done.stderr.strip() == (f"emprivacy: error: input file {str(link)!r} is a broken "
                                   "symbolic link")
    nothing_written(env, done.stdout)


def test_links_to_files_are_still_followed(env, capsys):
    """A link to a regular file is read like the file (as before)."""
    outside = env["root"] / "outside.txt"
    outside.write_text(TEXT, encoding="utf-8")
    (env["corp"] / "sub" / "link.txt").symlink_to(outside)
    (env["corp"] / "notes.md").symlink_to(env["root"] / "gone.md")  # not a *.txt: ignored
    done = in_process(corpus_args(env, ["-f", "jsonl"]), capsys)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 4


def test_a_fifo_named_txt_is_refused(env, capsys):
    """A ``*.txt`` that is not a regular file used to be skipped silently."""
    fifo = env["corp"] / "pipe.txt"
    os.mkfifo(fifo)
    done = in_process(corpus_args(env, []), capsys)
    one_line(done, 2)
    assert done.stderr.strip() == (f"emprivacy: error: input file {str(fifo)!r} in an input "
                                   "directory is not a regular file (a FIFO, device or socket)")
    assert done.stdout == ""


def _without_permission_bypass() -> list[str] | None:
    """A command prefix under which this process's user is refused by file modes: nothing
    for another user than root; for root, ``setpriv`` without ``CAP_DAC_OVERRIDE`` and
    ``CAP_DAC_READ_SEARCH`` (``None`` where that is not possible)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    caps = "-dac_override,-dac_read_search"
    prefix = [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}"]
    try:
        probe = subprocess.run([*prefix, sys.executable, "-c", "print(1)"],
                               capture_output=True, timeout=60)
    except OSError:
        return None
    return prefix if probe.returncode == 0 else None


@pytest.mark.parametrize(("what", "mode"), [("b.txt", 0o000), ("sub", 0o000), ("sub", 0o644)])
@pytest.mark.parametrize("extra", [[], ["-o", "{out}/out.parquet"]])
def test_real_permissions_in_a_subprocess(env, what, mode, extra):
    """The same with real file modes (as root: without the capabilities that ignore them)."""
    prefix = _without_permission_bypass()
    if prefix is None:
        pytest.skip("root, and no setpriv to drop CAP_DAC_OVERRIDE here")
    target = env["corp"] / what
    target.chmod(mode)
    try:
        done = subprocess.run([*prefix, sys.executable, "-m", "emprivacy",
                               *corpus_args(env, extra)], capture_output=True, text=True,
                              timeout=120)
    finally:
        target.chmod(0o755 if target.is_dir() else 0o644)
    if done.returncode == 0 and not prefix:
        pytest.skip("file modes are not enforced here")
    bad = {("b.txt", 0o000): f"cannot read input file {str(target)!r}",
           ("sub", 0o000): f"cannot read input directory {str(target)!r}",
           ("sub", 0o644): f"cannot read input file {str(target / 'c.txt')!r}"}[what, mode]
    one_line(done, 2, bad + ": Permission denied")
    nothing_written(env, done.stdout)
    for word in INPUT_WORDS:
        assert word not in done.stderr


# -- Parquet input to standard output ------------------------------------------------------
@pytest.fixture
def parquet_input(env: dict[str, Path]) -> tuple[Path, Path]:
    """The same five documents as ``docs.parquet`` (row groups of two rows) and
    ``docs.jsonl``."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import json

    ids = [f"d{i}" for i in range(5)]
    texts = [TEXT * (i + 1) for i in range(5)]
    parquet = env["root"] / "docs.parquet"
    pq.write_table(pa.table({"id": ids, "text": texts}), parquet, row_group_size=2)
    jsonl = env["root"] / "docs.jsonl"
    jsonl.write_text("".join(json.dumps({"id": i, "text": t}) + "\n"
                             for i, t in zip(ids, texts, strict=True)), encoding="utf-8")
    return parquet, jsonl


@pytest.mark.parametrize("fmt", ["jsonl", "bag", "text"])
def test_parquet_input_to_standard_output(env, parquet_input, fmt, capsys, monkeypatch):
    """It used to demand --output; now it is read here, a row group at a time, and the
    records are those of the same documents given as JSONL (and of a partitioned run)."""
    monkeypatch.chdir(env["out"])  # nothing may be left here (no partition directory)
    parquet, jsonl = parquet_input
    common = ["-e", "10", "--embeddings", str(env["emb"]), "--seed", "3", "-q", "-f", fmt]
    done = in_process(["obfuscate", str(parquet), *common], capsys)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert len(done.stdout.splitlines()) == 5 * (TEXT.count("\n") + 1 if fmt == "text" else 1)
    same = in_process(["obfuscate", str(jsonl), *common], capsys)
    assert same.returncode == 0 and done.stdout == same.stdout
    assert leftovers(env["out"]) == []
    if fmt != "text":  # into a file: the partitioned run, with the same records
        out = env["out"] / "out.txt"
        assert in_process(["obfuscate", str(parquet), *common, "-o", str(out)],
                          capsys).returncode == 0
        assert out.read_text(encoding="utf-8") == done.stdout


# -- smaller ones (issue 22, item 17) ------------------------------------------------------
def _obfuscate(env: dict[str, Path], source: Path, *extra: str) -> list[str]:
    return ["obfuscate", str(source), "-e", "10", "--embeddings", str(env["emb"]), "--seed",
            "3", "-q", *extra]


@pytest.mark.parametrize("extra", [[], ["-o", "{out}/out.jsonl", "--resume"]])
def test_a_jsonl_file_with_a_byte_order_mark(env, extra, capsys):
    """It was "not a valid JSON object" on line 1, while a text file's mark is dropped."""
    import json

    lines = [json.dumps({"id": f"d{i}", "text": TEXT}) for i in range(3)]
    plain = env["root"] / "plain.jsonl"
    plain.write_text("\n".join(lines) + "\n", encoding="utf-8")
    marked = env["root"] / "marked.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    outputs = []
    for source in (plain, marked):
        out = env["out"] / "out.jsonl"
        args = [a.format(out=env["out"]) for a in extra]
        done = in_process(_obfuscate(env, source, *args), capsys)
        assert done.returncode == 0, done.stderr
        outputs.append(out.read_text(encoding="utf-8") if extra else done.stdout)
        out.unlink(missing_ok=True)
    assert outputs[0] == outputs[1] and len(outputs[0].splitlines()) == 3
    # bytes are still counted from the start of the file, the mark included
    before = b"\xef\xbb\xbf" + b'{"id": "a", "text": "x '  # 26 bytes
    marked.write_bytes(before + b'\xff"}\n')
    done = in_process(_obfuscate(env, marked), capsys)
    assert one_line(done, 2) == (f"emprivacy: error: input file {str(marked)!r} is not valid "
                                 f"UTF-8 (byte {len(before)})")


@pytest.mark.parametrize(("name", "header"), [("emb.txt", ""), ("vectors.vec", "10 2\n"),
                                              ("glove.dat", "")])
def test_gzipped_text_embeddings_whatever_their_name(env, name, header, capsys):
    """A gzipped GloVe file named .txt was "unknown embeddings format": gzip is now
    recognised by the file's first bytes, not by a .gz in its name."""
    import gzip

    plain = env["root"] / ("plain-" + name)
    plain.write_text(header + env["emb"].read_text(encoding="utf-8"), encoding="utf-8")
    packed = env["root"] / name
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    results = []
    for emb in (plain, packed):
        done = in_process(["obfuscate", str(env["text"]), "-e", "10", "--embeddings", str(emb),
                           "--seed", "3", "-q"], capsys)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        results.append(done.stdout)
    assert results[0] == results[1] != ""


def test_a_gzipped_word2vec_binary_without_gz_in_its_name(env, capsys):
    """gensim decides on decompression by the name: one line saying so, not a garbled read."""
    import gzip

    import numpy as np
    from gensim.models import KeyedVectors

    kv = KeyedVectors(vector_size=2)
    kv.add_vectors(["cat", "dog", "harbour"], np.array([[0, 0], [1, 0], [0, 1]], np.float32))
    binary = env["root"] / "w.bin"
    kv.save_word2vec_format(str(binary), binary=True)
    binary.write_bytes(gzip.compress(binary.read_bytes()))
    done = in_process(["obfuscate", str(env["text"]), "-e", "10", "--embeddings", str(binary),
                       "-q"], capsys)
    assert one_line(done, 2) == (
        f"emprivacy: error: embeddings file {str(binary)!r} is gzip-compressed but its name "
        "does not end in .gz, which the word2vec binary reader needs: rename it to end in "
        ".gz, or decompress it")
    assert done.stdout == ""


def test_a_file_given_as_the_cache_directory(env, monkeypatch, capsys):
    """It said only "(File exists)"; now the warning names the file and the variable, and
    the run goes on without the cache."""
    cache = env["root"] / "cache-file"
    cache.write_text("not a directory\n", encoding="utf-8")
    monkeypatch.setenv("EMPRIVACY_CACHE_DIR", str(cache))
    done = in_process(["obfuscate", str(env["text"]), "-e", "10", "--embeddings",
                       str(env["emb"])], capsys)
    assert done.returncode == 0 and done.stdout
    assert done.stderr.splitlines() == [
        f"emprivacy: warning: cannot create the embeddings cache "
        f"{str(cache / 'embeddings')!r}: {str(cache)!r} (EMPRIVACY_CACHE_DIR) is a file, not "
        f"a directory; reading {str(env['emb'])!r} without it"]
    assert cache.read_text(encoding="utf-8") == "not a directory\n"


def test_distance_reads_standard_input_for_a_dash(env, monkeypatch, capsys):
    """``distance - b.txt`` said "'-' does not exist"."""
    import io

    other = env["root"] / "b.txt"
    other.write_text("The quiet factory drifted.", encoding="utf-8")
    common = ["--embeddings", str(env["emb"]), "--json", "-q"]
    by_files = in_process(["distance", str(env["text"]), str(other), *common], capsys)
    assert by_files.returncode == 0, by_files.stderr
    monkeypatch.setattr(sys, "stdin", io.StringIO(TEXT))
    by_stdin = in_process(["distance", "-", str(other), *common], capsys)
    assert by_stdin.returncode == 0 and by_stdin.stderr == ""
    assert by_stdin.stdout == by_files.stdout
    done = in_process(["distance", "-", "-", *common], capsys)
    assert one_line(done, 2) == ("emprivacy: error: distance compares two texts; only one of "
                                 "them can be '-' (standard input)")


# -- standard input is decoded as strictly as a file (issue 44, item 6) ---------------------
class _Bytes(io.BytesIO):
    """Standard input's bytes, remembering the largest read (it is read in chunks)."""

    largest = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        _Bytes.largest = max(_Bytes.largest, len(data))
        return data


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    """``sys.stdin`` as Python makes it in a C or POSIX locale: UTF-8 with undecodable bytes
    escaped (``surrogateescape``), the bytes beneath it as ``.buffer``."""
    _Bytes.largest = 0
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(_Bytes(data), encoding="utf-8",
                                                        errors="surrogateescape"))


@pytest.mark.parametrize("argv", [
    ["obfuscate", "-", "-e", "10"], ["obfuscate", "-", "-e", "10", "-f", "text"],
    ["obfuscate", "-", "-e", "10", "-o", "{out}/out.jsonl"],
    ["audit", "-", "-e", "10", "--secrets", "3", "--draws", "10"],
    ["distance", "-", "{text}"],
], ids=["obfuscate", "text", "output", "audit", "distance"])
@pytest.mark.parametrize("bad", [b"\xff\xfe", b"caf\xc3", b"\xe2\x82"],
                         ids=["invalid", "cut", "cut-at-end"])
def test_invalid_utf8_on_standard_input_is_one_line(env, argv, bad, monkeypatch, capsys):
    """It was replaced silently (``\\xff\\xfe`` released as ``[SYM]``, random bytes as "no
    word in the vocabulary"), where the same bytes in a file are refused: now the same
    line, naming standard input and the byte offset (counted over chunk boundaries)."""
    data = TEXT.encode() * 400 + bad + (b"" if bad == b"\xe2\x82" else TEXT.encode())
    assert len(data) > 2 * CHUNK_CHARS
    offset = len(TEXT.encode()) * 400 + (3 if bad == b"caf\xc3" else 0)
    bad_file = env["root"] / "bad.txt"
    bad_file.write_bytes(data)
    argv = [a.format(out=env["out"], text=env["text"]) for a in argv]
    common = ["--embeddings", str(env["emb"]), "-q"]
    by_file = in_process([a if a != "-" else str(bad_file) for a in argv] + common, capsys)
    assert one_line(by_file, 2) == (f"emprivacy: error: input file {str(bad_file)!r} is not "
                                    f"valid UTF-8 (byte {offset})")
    _stdin(monkeypatch, data)
    done = in_process(argv + common, capsys)
    assert one_line(done, 2) == (f"emprivacy: error: standard input is not valid UTF-8 (byte "
                                 f"{offset})")
    nothing_written(env, done.stdout)
    assert 0 < _Bytes.largest <= CHUNK_CHARS  # streamed, not read whole


def test_invalid_utf8_piped_in_is_one_line(env):
    """``printf '\\xff\\xfe hello' | emprivacy obfuscate - -e 10``, the real standard input of
    a process in a C.UTF-8 locale (where Python escapes undecodable bytes)."""
    bad = env["root"] / "bad.txt"
    bad.write_bytes(b"\xff\xfe hello")
    with open(bad, "rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "emprivacy", "obfuscate", "-", "-e", "10",
                               "--embeddings", str(env["emb"]), "-o", str(env["out"] / "o.txt")],
                              stdin=stdin, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert one_line(done, 2) == "emprivacy: error: standard input is not valid UTF-8 (byte 0)"
    nothing_written(env, done.stdout)


def test_valid_standard_input_reads_as_its_file(env, monkeypatch, capsys):
    """Decoded from its bytes, standard input is the file's text: UTF-8, universal newlines
    (``\\r\\n`` and ``\\r`` as ``\\n``, even across a chunk boundary)."""
    from emprivacy.io import read_text_file

    data = ("The quiet café\r\n" * 5000 + "zeppelin\rharbour\n").encode()
    (env["root"] / "ok.txt").write_bytes(data)
    argv = ["obfuscate", "-", "-e", "10", "--seed", "3", "-f", "text", "--embeddings",
            str(env["emb"]), "-q"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(read_text_file(env["root"] / "ok.txt")))
    as_file = in_process(argv, capsys)  # the file's text, as the file reader reads it
    _stdin(monkeypatch, data)
    by_stdin = in_process(argv, capsys)
    assert (by_stdin.returncode, by_stdin.stderr) == (0, "")
    assert by_stdin.stdout == as_file.stdout and "\r" not in by_stdin.stdout


def test_no_command_prints_the_help(capsys):
    """Plain ``emprivacy`` printed its help and ``emprivacy: error:  (see …)``, an empty
    message; now the help alone, with exit code 2 (click's, for a missing command)."""
    done = in_process([], capsys)
    assert done.returncode == 2
    assert "Usage: emprivacy" in done.stdout and "obfuscate" in done.stdout
    assert done.stderr == ""
