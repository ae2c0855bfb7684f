"""Outputs on a shared machine (docs/SHARED_MACHINE.md): what an output path already is.

A FIFO or a character device is written in place, never replaced; a symbolic link
is followed (its target replaced atomically, the link kept); an output that is an
input is refused before any work; a second run into an output another run is
writing refuses.  Each test checks what the user sees (exit code, one line on
stderr), the file type afterwards, what a reader got, and that nothing else in the
directory changed: no temporary file, no lock file.

The command line runs in this process where it can, in a subprocess where
descriptors or signals matter.  The embeddings are a 10-word file.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from emprivacy.exceptions import OutputError, OutputPathError
from emprivacy.io.output_paths import LOCK_SUFFIX, check_not_input, check_output_path, output_lock
from emprivacy.io.outputs import atomic_file

from .helpers import input_env

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, devices and flock")

TEXT = "The harbour was quiet; a zeppelin drifted over the factory.\n"
FORMATS = ["bag", "jsonl", "text"]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Path]:
    """An input text and a tiny embeddings file in ``in/``; an empty ``out/``."""
    return input_env(tmp_path, TEXT)


def args(env: dict[str, Path], *extra: str, inputs: list[str] | None = None) -> list[str]:
    return ["obfuscate", *(inputs or [str(env["text"])]), "-e", "10", "--seed", "7",
            "--embeddings", str(env["emb"]), "-q", *extra]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command line in this process: (exit code, stdout, stderr)."""
    from emprivacy.cli import main

    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_error_line(err: str, *needles: str) -> str:
    """``err`` is exactly one ``emprivacy: error:`` line holding every needle."""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("emprivacy: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def listing(directory: Path) -> dict[str, str]:
    """Every entry below ``directory`` and its type (links not followed)."""
    kinds = {}
    for path in sorted(directory.rglob("*")):
        mode = path.lstat().st_mode
        kinds[str(path.relative_to(directory))] = (
            "link" if stat.S_ISLNK(mode) else "fifo" if stat.S_ISFIFO(mode)
            else "chr" if stat.S_ISCHR(mode) else "dir" if stat.S_ISDIR(mode) else "file")
    return kinds


def expected_output(env: dict[str, Path], fmt: str, capsys: pytest.CaptureFixture[str],
                    *extra: str) -> str:
    """What the same seeded run writes to standard output."""
    code, out, err = run(args(env, "-f", fmt, *extra), capsys)
    assert code == 0, err
    return out


class FifoReader:
    """A thread reading everything written to a FIFO, until the writer closes it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = b""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        with open(self.path, "rb") as fh:  # blocks until the writer opens it
            self.data = fh.read()

    def join(self) -> bytes:
        self._thread.join(timeout=120)
        assert not self._thread.is_alive(), "the reader never saw the end of the output"
        return self.data

    def release(self) -> None:
        """Unblock the reader if nothing ever opened the FIFO for writing.

        Non-blocking: a reader that has just read everything may still be alive
        without the FIFO open, and a blocking open would then wait for ever.
        """
        if self._thread.is_alive():
            try:
                os.close(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # ENXIO: no reader has the FIFO open (it is done)
                pass
            self._thread.join(timeout=10)


@pytest.fixture
def fifo(env: dict[str, Path]) -> Iterator[Path]:
    path = env["out"] / "fifo"
    os.mkfifo(path)
    yield path


@pytest.fixture
def device(env: dict[str, Path]) -> Path:
    """A character device node 1:3 (the null device), as root only."""
    path = env["out"] / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root (CAP_MKNOD)")
    return path


# -- character devices -----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_character_device_is_written_in_place(env, device, fmt, capsys):
    before = listing(env["out"])
    code, out, err = run(args(env, "-f", fmt, "-o", str(device)), capsys)
    assert (code, out, err) == (0, "", "")
    assert stat.S_ISCHR(device.lstat().st_mode) and device.lstat().st_rdev == os.makedev(1, 3)
    assert listing(env["out"]) == before == {"null": "chr"}


def test_dev_null_is_written_in_place(env, capsys):
    before = os.stat("/dev/null")
    code, out, err = run(args(env, "-f", "text", "-o", "/dev/null"), capsys)
    assert (code, out, err) == (0, "", "")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino,
                                                                             before.st_rdev)
    assert not [n for n in os.listdir("/dev") if n.startswith(".null.")]


def test_a_character_device_as_parquet_output_is_one_line(env, device, capsys):
    code, _, err = run(args(env, "-f", "parquet", "-o", str(device)), capsys)
    assert code == 2
    one_error_line(err, repr(str(device)), "character device", "not a directory")
    assert listing(env["out"]) == {"null": "chr"}


def test_corpus_run_into_a_character_device(env, device, capsys, monkeypatch):
    monkeypatch.chdir(env["root"])  # the partitions of a device go to the current directory
    before = listing(env["root"])
    code, _, err = run(args(env, "-f", "jsonl", "--resume", "-o", str(device)), capsys)
    assert (code, err) == (0, "")
    assert listing(env["root"]) == before  # no partition directory left, no lock


def test_corpus_run_into_dev_null(env, capsys, monkeypatch):
    monkeypatch.chdir(env["root"])
    before = listing(env["root"])
    code, _, err = run(args(env, "-f", "jsonl", "--resume", "-o", "/dev/null"), capsys)
    assert (code, err) == (0, "")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not [n for n in os.listdir("/dev") if n.startswith(("null.", ".null."))]
    assert listing(env["root"]) == before


# -- FIFOs -----------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_fifo_is_written_in_place_and_its_reader_gets_everything(env, fifo, fmt, capsys):
    expected = expected_output(env, fmt, capsys)
    reader = FifoReader(fifo)
    try:
        code, out, err = run(args(env, "-f", fmt, "-o", str(fifo)), capsys)
    finally:
        reader.release()
    assert (code, out, err) == (0, "", "")
    assert reader.join().decode("utf-8") == expected and expected
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert listing(env["out"]) == {"fifo": "fifo"}


def test_a_corpus_run_writes_its_fifo_in_place(env, fifo, capsys, monkeypatch):
    monkeypatch.chdir(env["root"])
    corpus = env["in"] / "many.jsonl"
    corpus.write_text("".join(json.dumps({"id": str(i), "text": TEXT}) + "\n"
                              for i in range(40)), encoding="utf-8")
    code, expected, err = run(args(env, "-f", "jsonl", inputs=[str(corpus)]), capsys)
    assert code == 0, err
    reader = FifoReader(fifo)
    try:  # --resume: the partitioned path, in this process
        code, out, err = run(args(env, "-f", "jsonl", "--resume", "-o", str(fifo),
                                  inputs=[str(corpus)]), capsys)
    finally:
        reader.release()
    assert (code, out, err) == (0, "", "")
    assert reader.join().decode("utf-8") == expected
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert listing(env["out"]) == {"fifo": "fifo"}
    assert not [n for n in os.listdir(env["root"]) if n.endswith(".parts")]  # removed


def test_a_dask_run_writes_its_fifo_in_place(env, fifo, capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.chdir(env["root"])
    expected = expected_output(env, "jsonl", capsys)
    reader = FifoReader(fifo)
    try:
        code, out, err = run(args(env, "-f", "jsonl", "--workers", "1", "-o", str(fifo)),
                             capsys)
    finally:
        reader.release()
    assert (code, out) == (0, ""), err
    assert reader.join().decode("utf-8") == expected
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert listing(env["out"]) == {"fifo": "fifo"}
    assert not [n for n in os.listdir(env["root"]) if n.endswith(".parts")]


def test_a_fifo_as_parquet_output_is_one_line(env, fifo, capsys):
    code, _, err = run(args(env, "-f", "parquet", "-o", str(fifo)), capsys)
    assert code == 2
    one_error_line(err, repr(str(fifo)), "FIFO")
    assert listing(env["out"]) == {"fifo": "fifo"}


def test_a_process_substitution_works(env):
    """``--output >(gzip > out.gz)``: the shell's /dev/fd/N, a pipe, written in place."""
    out = env["out"] / "out.txt"
    script = (f"{sys.executable} -m emprivacy obfuscate {env['text']} -e 10 --embeddings "
              f"{env['emb']} -q -f text -o >(cat > {out}); rc=$?; wait; exit $rc")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    deadline = time.monotonic() + 10
    while not (out.exists() and out.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert out.read_text(encoding="utf-8").strip()


# -- symbolic links --------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_symlink_is_followed_and_stays_a_link(env, fmt, capsys):
    expected = expected_output(env, fmt, capsys)
    (env["root"] / "data").mkdir()
    target = env["root"] / "data" / "release.txt"
    target.write_text("the previous release\n", encoding="utf-8")
    target.chmod(0o600)
    link = env["out"] / "latest.txt"
    link.symlink_to(Path("..") / "data" / "release.txt")
    code, out, err = run(args(env, "-f", fmt, "-o", str(link)), capsys)
    assert (code, out, err) == (0, "", "")
    assert link.is_symlink() and os.readlink(link) == os.path.join("..", "data", "release.txt")
    assert target.read_text(encoding="utf-8") == expected
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # a private file stays private
    assert listing(env["out"]) == {"latest.txt": "link"}
    assert listing(env["root"] / "data") == {"release.txt": "file"}


def test_a_symlinked_parquet_directory_is_written_through(env, capsys):
    pytest.importorskip("pyarrow")
    (env["root"] / "data" / "ds").mkdir(parents=True)
    link = env["out"] / "ds.parquet"
    link.symlink_to(env["root"] / "data" / "ds", target_is_directory=True)
    code, _, err = run(args(env, "-f", "parquet", "-o", str(link)), capsys)
    assert (code, err) == (0, "")
    assert link.is_symlink()
    assert sorted(listing(env["root"] / "data" / "ds")) == ["_manifest.json",
                                                            "part-00000.parquet"]
    assert listing(env["out"]) == {"ds.parquet": "link"}


@pytest.mark.parametrize("target", ["missing.txt", "missing-dir/out.txt"],
                         ids=["dangling", "into-a-missing-directory"])
@pytest.mark.parametrize("fmt", [*FORMATS, "parquet"])
def test_a_dangling_symlink_is_one_line(env, target, fmt, capsys):
    link = env["out"] / "out"
    link.symlink_to(target)
    code, out, err = run(args(env, "-f", fmt, "-o", str(link)), capsys)
    assert (code, out) == (2, "")
    one_error_line(err, repr(str(link)), "symbolic link", repr(target), "does not exist")
    assert link.is_symlink() and os.readlink(link) == target
    assert listing(env["out"]) == {"out": "link"}


def test_a_symlink_loop_is_one_line(env, capsys):
    link = env["out"] / "out.txt"
    link.symlink_to("out.txt")
    code, _, err = run(args(env, "-o", str(link)), capsys)
    assert code == 2
    one_error_line(err, repr(str(link)), "symbolic links")
    assert listing(env["out"]) == {"out.txt": "link"}


# -- an output that is an input --------------------------------------------------------------
def _same(env: dict[str, Path], capsys, argv: list[str], protected: Path, *needles: str
          ) -> None:
    original = protected.read_bytes()
    before = listing(env["root"])
    code, out, err = run(argv, capsys)
    assert (code, out) == (2, "")
    one_error_line(err, *needles)
    assert protected.read_bytes() == original
    assert listing(env["root"]) == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_output_is_the_input(env, fmt, capsys):
    _same(env, capsys, args(env, "-f", fmt, "-o", str(env["text"])), env["text"],
          repr(str(env["text"])), "is also an input")


#: What a link given as the output may point to: an input document, or the embeddings file
#: the command reads (issue 44, item 1: -o naming it replaced it), and the format tried.
LINKED = pytest.mark.parametrize("target, fmt", [("text", "text"), ("emb", "jsonl")],
                                 ids=["input", "embeddings"])


@LINKED
def test_the_output_is_a_symlink_to_a_file_it_reads(env, capsys, target, fmt):
    link = env["out"] / "link.txt"
    link.symlink_to(env[target])
    _same(env, capsys, args(env, "-f", fmt, "-o", str(link)), env[target],
          repr(str(link)), "is also an input")
    assert link.is_symlink()


def test_the_input_is_a_symlink_to_the_output(env, capsys):
    link = env["out"] / "link.txt"
    link.symlink_to(env["text"])
    _same(env, capsys, args(env, "-f", "text", "-o", str(env["text"]),
                            inputs=[str(link)]), env["text"], "is also an input")


@LINKED
def test_the_output_is_a_hard_link_to_a_file_it_reads(env, capsys, target, fmt):
    hard = env["out"] / "hard.txt"
    os.link(env[target], hard)
    _same(env, capsys, args(env, "-f", fmt, "-o", str(hard)), env[target],
          repr(str(hard)), "is also an input")
    assert hard.stat().st_ino == env[target].stat().st_ino


@pytest.mark.parametrize("extra", [[], ["--resume"]], ids=["single", "partitioned"])
def test_the_output_is_a_file_inside_an_input_directory(env, extra, capsys):
    corpus = env["root"] / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "b.txt").write_text(TEXT, encoding="utf-8")
    (corpus / "sub" / "c.txt").write_text(TEXT, encoding="utf-8")
    dest = corpus / "sub" / "c.txt"
    _same(env, capsys, args(env, "-f", "jsonl", *extra, "-o", str(dest),
                            inputs=[str(corpus)]), dest, repr(str(dest)), "is also an input")


@pytest.mark.parametrize("extra", [[], ["--resume"]], ids=["single", "partitioned"])
def test_the_output_is_a_jsonl_input(env, extra, capsys):
    corpus = env["in"] / "many.jsonl"
    corpus.write_text("".join(json.dumps({"id": str(i), "text": TEXT}) + "\n"
                              for i in range(5)), encoding="utf-8")
    _same(env, capsys, args(env, "-f", "jsonl", *extra, "-o", str(corpus),
                            inputs=[str(corpus)]), corpus, "is also an input")


def test_the_output_is_a_parquet_input(env, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    src = env["in"] / "docs.parquet"
    pq.write_table(pa.table({"id": ["a", "b"], "text": [TEXT, TEXT]}), src)
    _same(env, capsys, args(env, "-f", "jsonl", "-o", str(src), inputs=[str(src)]), src,
          "is also an input")


def test_a_parquet_output_inside_an_input_directory(env, capsys):
    pytest.importorskip("pyarrow")
    dest = env["in"] / "out.parquet"
    _same(env, capsys, args(env, "-f", "parquet", "-o", str(dest), inputs=[str(env["in"])]),
          env["text"], repr(str(dest)), "inside input directory")


def test_the_calibration_plot_is_the_embeddings(env, capsys):
    _same(env, capsys, ["calibrate", "--embeddings", str(env["emb"]), "--plot",
                        str(env["emb"]), "--trials", "2", "--n-words", "3", "-q"],
          env["emb"], "plot", repr(str(env["emb"])), "is also an input")


def test_standard_output_as_dash_takes_no_lock(env, capsys, monkeypatch):
    monkeypatch.chdir(env["out"])
    code, out, err = run(args(env, "-f", "text", "-o", "-"), capsys)
    assert (code, err) == (0, "") and out.strip()
    assert listing(env["out"]) == {}


def test_standard_input_read_from_the_output(env):
    with open(env["text"], "rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "emprivacy",
                               *args(env, "-f", "text", "-o", str(env["text"]),
                                     inputs=["-"])],
                              stdin=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    one_error_line(done.stderr, repr(str(env["text"])), "standard input")
    assert env["text"].read_text(encoding="utf-8") == TEXT


# -- one run per output ----------------------------------------------------------------------
def _hold_lock(lock: Path) -> subprocess.Popen[str]:
    """Another process holding the ``flock`` of ``lock`` until it is killed."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         f"fd = os.open({str(lock)!r}, os.O_RDWR | os.O_CREAT, 0o600)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(600)\n"],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


@pytest.mark.parametrize("fmt", [*FORMATS, "parquet"])
def test_a_second_run_refuses_and_a_killed_holder_does_not_block(env, fmt, capsys):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    dest = env["out"] / ("out.parquet" if fmt == "parquet" else "out.txt")
    lock = env["out"] / f".{dest.name}{LOCK_SUFFIX}"
    holder = _hold_lock(lock)
    try:
        code, out, err = run(args(env, "-f", fmt, "-o", str(dest)), capsys)
        assert (code, out) == (2, "")
        one_error_line(err, repr(str(dest)), "another emprivacy run")
        assert listing(env["out"]) == {lock.name: "file"}  # nothing written
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate()
    assert lock.exists()  # left by the killed holder: it must not block
    code, _, err = run(args(env, "-f", fmt, "-o", str(dest)), capsys)
    assert (code, err) == (0, "")
    assert lock.name not in listing(env["out"])
    assert [n for n in listing(env["out"]) if "/" not in n] == [dest.name]


def test_a_second_run_during_a_real_run_refuses(env, fifo):
    """A run writing into a FIFO nobody reads blocks, holding its lock; the second
    run into the same output refuses; once the first ends, nothing is left."""
    dest = env["out"] / "out.txt"
    first = subprocess.Popen([sys.executable, "-m", "emprivacy",
                              *args(env, "-f", "text", "-o", str(dest),
                                    inputs=[str(fifo)])],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lock = env["out"] / f".out.txt{LOCK_SUFFIX}"
        deadline = time.monotonic() + 60
        while not lock.exists():
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        second = subprocess.run([sys.executable, "-m", "emprivacy",
                                 *args(env, "-f", "text", "-o", str(dest))],
                                capture_output=True, text=True, timeout=120)
        assert second.returncode == 2
        one_error_line(second.stderr, repr(str(dest)), "another emprivacy run")
        assert not dest.exists()
    finally:
        with open(fifo, "w", encoding="utf-8") as fh:  # let the first run read its input
            fh.write(TEXT)
        _, first_err = first.communicate(timeout=120)
    assert first.returncode == 0, first_err
    assert listing(env["out"]) == {"fifo": "fifo", "out.txt": "file"}


def test_the_lock_is_private_reentrant_in_a_thread_exclusive_across_threads(env):
    dest = env["out"] / "out.jsonl"
    lock = env["out"] / f".out.jsonl{LOCK_SUFFIX}"
    with output_lock(dest):
        assert stat.S_IMODE(lock.stat().st_mode) & 0o077 == 0
        with output_lock(dest):  # the command line, then the library
            pass
        assert lock.exists()
        errors: list[BaseException] = []

        def other() -> None:
            try:
                with output_lock(dest):
                    pass
            except OutputError as exc:
                errors.append(exc)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
        assert len(errors) == 1 and repr(str(dest)) in str(errors[0])
    assert listing(env["out"]) == {}  # the lock file is removed at the end


def test_no_lock_for_a_fifo_or_a_device(env, fifo):
    with output_lock(fifo), output_lock("/dev/null"):
        assert listing(env["out"]) == {"fifo": "fifo"}


def test_a_lock_file_that_is_a_symlink_is_not_followed(env):
    dest = env["out"] / "out.txt"
    victim = env["root"] / "victim"
    victim.write_text("precious\n", encoding="utf-8")
    (env["out"] / f".out.txt{LOCK_SUFFIX}").symlink_to(victim)
    with pytest.raises(OSError):
        with output_lock(dest):
            pass
    assert victim.read_text(encoding="utf-8") == "precious\n"


# -- the library's writers ----------------------------------------------------------------------
def test_atomic_file_into_a_fifo_a_symlink_and_a_device(env, fifo, tmp_path):
    reader = FifoReader(fifo)
    try:
        with atomic_file(fifo, "w") as fh:
            fh.write("through the fifo\n")
    finally:
        reader.release()
    assert reader.join() == b"through the fifo\n" and stat.S_ISFIFO(fifo.lstat().st_mode)
    target = env["root"] / "target.bin"
    target.write_bytes(b"old")
    link = env["out"] / "link.bin"
    link.symlink_to(target)
    with atomic_file(link, "wb") as fh:
        fh.write(b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    with atomic_file(Path("/dev/null"), "wb") as fh:
        fh.write(b"discarded")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert listing(env["out"]) == {"fifo": "fifo", "link.bin": "link"}


def test_a_block_device_or_socket_is_refused(env):
    import socket

    sock_path = env["out"] / "sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(sock_path))
        with pytest.raises(OutputPathError, match="it is a socket"):
            check_output_path(sock_path)


def test_check_not_input_cases(env):
    check_not_input(env["out"] / "new.txt", [str(env["text"]), str(env["in"])])
    with pytest.raises(OutputError, match="is also an input"):
        check_not_input(env["text"], [str(env["text"])])
    with pytest.raises(OutputError, match="inside input directory"):
        check_not_input(env["in"] / "x.parquet", [str(env["in"])], directory=True)
    with pytest.raises(OutputError, match="holds input"):
        check_not_input(env["root"], [str(env["text"])], directory=True)
    check_not_input(env["in"] / "new.txt", [str(env["in"])])  # a new file: not read


def test_obfuscate_corpus_library_into_a_fifo(env, fifo, tiny_embeddings):
    from emprivacy.distributed import obfuscate_corpus
    from emprivacy.distributed.publish import claim_output
    from emprivacy.mechanisms import EarthMoversPrivacy

    corpus = env["in"] / "docs.jsonl"
    corpus.write_text("".join(json.dumps({"id": str(i), "text": "cat dog car"}) + "\n"
                              for i in range(6)), encoding="utf-8")
    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=5.0)
    reader = FifoReader(fifo)
    try:
        with claim_output([corpus], fifo, "jsonl"):
            summary = obfuscate_corpus([corpus], fifo, mechanism=mech, format="jsonl",
                                       seed=3)
    finally:
        reader.release()
    records = [json.loads(line) for line in reader.join().decode().splitlines()]
    assert [r["id"] for r in records] == [str(i) for i in range(6)]
    assert summary.documents_written == 6
    assert listing(env["out"]) == {"fifo": "fifo"}
    with pytest.raises(OutputError, match="is also an input"):
        claim_output([corpus], corpus, "jsonl")


def test_the_library_corpus_run_checks_and_locks_its_output(env):
    """obfuscate_corpus (the API, not only the CLI) refuses an input as output and an
    output another run is writing, before any work and without touching anything."""
    from emprivacy import EarthMoversPrivacy, load_embeddings
    from emprivacy.distributed import obfuscate_corpus

    mech = EarthMoversPrivacy(load_embeddings(env["emb"]), epsilon=10)
    src = env["in"] / "docs.jsonl"
    src.write_text(json.dumps({"id": "a", "text": TEXT}) + "\n", encoding="utf-8")
    before = src.read_bytes()
    with pytest.raises(OutputError, match="is also an input"):
        obfuscate_corpus([src], src, mechanism=mech, seed=1)
    assert src.read_bytes() == before
    dest = env["out"] / "out.jsonl"
    holder = _hold_lock(env["out"] / f".out.jsonl{LOCK_SUFFIX}")
    try:
        with pytest.raises(OutputError, match="another emprivacy run"):
            obfuscate_corpus([src], dest, mechanism=mech, seed=1)
        assert not dest.exists()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate()
    obfuscate_corpus([src], dest, mechanism=mech, seed=1)
    assert json.loads(dest.read_text(encoding="utf-8"))["id"] == "a"


# -- every file a command reads is an input (issue 44, item 1) ------------------------------
@pytest.mark.parametrize("extra", [["-f", "bag"], ["-f", "jsonl"], ["-f", "text"], [],
                                   ["-f", "jsonl", "--resume"], ["-f", "parquet"]],
                         ids=["bag", "jsonl", "text", "no-format", "partitioned", "parquet"])
def test_the_output_is_the_embeddings_file(env, extra, capsys):
    _same(env, capsys, args(env, *extra, "-o", str(env["emb"])), env["emb"],
          repr(str(env["emb"])), "is also an input")


def test_a_table_output_is_the_embeddings_file(env, capsys):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    src = env["in"] / "docs.parquet"
    pq.write_table(pa.table({"id": ["a", "b"], "text": [TEXT, TEXT]}), src)
    link = env["out"] / "released.parquet"  # a table output names a .parquet file
    link.symlink_to(env["emb"])
    _same(env, capsys, args(env, "--text-column", "text", "-o", str(link),
                            inputs=[str(src)]), env["emb"], "is also an input")


def test_the_library_corpus_run_refuses_its_embeddings_as_output(env):
    from emprivacy.distributed import MechanismSettings, obfuscate_corpus

    before = env["emb"].read_bytes()
    settings = MechanismSettings(epsilon=10.0, embeddings=str(env["emb"]), vocab_size=None)
    with pytest.raises(OutputError, match="is also an input"):
        obfuscate_corpus([env["text"]], env["emb"], mechanism=settings, format="jsonl")
    assert env["emb"].read_bytes() == before


def test_audit_out_inside_the_corpus_directory_is_refused(env, capsys):
    inside = env["in"] / "report"
    _same(env, capsys, ["audit", str(env["in"]), "--embeddings", str(env["emb"]),
                        "--epsilon", "10", "--secrets", "3", "--draws", "10", "-q",
                        "--out", str(inside)], env["text"], "inside input directory")
    assert not inside.exists()


def test_evaluate_out_inside_the_dataset_directory_is_refused(env, capsys):
    inside = env["in"] / "results"
    _same(env, capsys, ["evaluate", "--dataset", str(env["in"]), "--embeddings",
                        str(env["emb"]), "--epsilons", "10", "-q", "--out", str(inside)],
          env["text"], "inside input directory")
    assert not inside.exists()


# -- an empty output path (issue 44, item 5) -----------------------------------------------
@pytest.mark.parametrize("argv, line", [
    (["obfuscate", "{text}", "-e", "10", "-f", "parquet", "-o", ""],
     "--output must name a directory; got ''"),
    (["obfuscate", "{text}", "-e", "10", "-f", "text", "-o", ""],
     "--output must name a file; got ''"),
    (["obfuscate", "{text}", "-e", "10", "--output", " "], "--output must name a file; got ' '"),
    (["evaluate", "--dataset", "{text}", "--epsilons", "10", "--out", ""],
     "--out must name a directory; got ''"),
    (["audit", "{text}", "-e", "10", "--out", ""], "--out must name a directory; got ''"),
    (["calibrate", "--epsilons", "10", "--plot", ""], "--plot must name a file; got ''"),
], ids=["obfuscate-parquet", "obfuscate-text", "obfuscate-blank", "evaluate", "audit",
        "calibrate"])
def test_an_empty_output_path_is_refused_by_every_command(env, argv, line, capsys,
                                                          monkeypatch):
    """``-o ''`` (an unset shell variable) is not the current directory: every command
    refuses it in the same line, before any work (``obfuscate -f parquet`` and
    ``evaluate`` used to write their files into the current directory, exit 0)."""
    monkeypatch.chdir(env["out"])
    before = listing(env["root"])
    argv = [a.replace("{text}", str(env["text"])) for a in argv]
    code, out, err = run([*argv, "--embeddings", str(env["emb"]), "-q"], capsys)
    assert (code, out, one_error_line(err)) == (2, "", f"emprivacy: error: {line}")
    assert listing(env["root"]) == before


@pytest.mark.parametrize("extra", [[], ["--workers", "1"]], ids=["one-process", "workers"])
def test_an_output_inside_an_input_directory_is_refused(tmp_path, capsys, extra):
    """Found by benchmarks/cli_fuzz.py (issue 44): ``obfuscate corpus -o corpus/x`` wrote
    into its input directory (exit 0), where a second run would read it as a document."""
    from emprivacy.cli import main

    if extra:
        pytest.importorskip("distributed")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "one.txt").write_text("The cat sat on the mat.", encoding="utf-8")
    out = corpus / "x.jsonl"
    assert main(["obfuscate", str(corpus), "-e", "10", "--vocab-size", "20000", "-q", "-o",
                 str(out), *extra]) == 2
    assert capsys.readouterr().err == (f"emprivacy: error: output {str(out)!r} is inside "
                                       f"input directory {str(corpus)!r}; write the output "
                                       "elsewhere\n")
    assert sorted(p.name for p in corpus.iterdir()) == ["one.txt"]


def test_a_stop_inside_mkstemp_leaves_no_temporary_file(tmp_path, monkeypatch):
    """Ctrl-C delivered after ``mkstemp`` created the file but before it returned its name
    (a test that signals as soon as the file appears hit this under load): the stopped
    write removes it by its pattern, and a temporary of another destination stays."""
    import emprivacy.io.outputs as outputs

    real_mkstemp = outputs._mkstemp

    def interrupted(*args, **kwargs):
        fd, _ = real_mkstemp(*args, **kwargs)
        os.close(fd)
        raise KeyboardInterrupt

    other = tmp_path / f".other.{os.getpid()}-deadbeef.abcdefgh.emprivacy.tmp"
    other.write_text("x")
    monkeypatch.setattr(outputs, "_mkstemp", interrupted)
    with pytest.raises(KeyboardInterrupt), outputs.atomic_file(tmp_path / "out.jsonl", "w"):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name]
