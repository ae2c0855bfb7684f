"""Every fault of the environment or of an output path is one line on stderr (docs/FAULTS.md).

The command line runs in a subprocess wherever file descriptors, resource limits or
signals matter, in this process otherwise.  Each test checks the exit code (2: bad
input or path, 1: the environment), that stderr is exactly one ``emprivacy: error:``
line without a traceback and without any word of the input, and that nothing is left
behind: no output, no temporary file.

Faults are provoked in ways that also work as root (as CI may run): a full disk is
``RLIMIT_FSIZE`` (writes fail with ``EFBIG``; ``SIGXFSZ`` ignored), a full device is
``/dev/full``, a read-only place is a ``chmod 0555`` directory or, for root (who
ignores permissions), ``/sys`` (``EACCES`` or ``EROFS`` even for root).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from emprivacy.exceptions import OutputPathError, OutputWriteError
from emprivacy.io.output_paths import LOCK_SUFFIX, TEMP_SUFFIX, write_error

from .helpers import input_env

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX descriptors and limits")

#: The words of the input: none may appear on stderr (no input text in logs).
INPUT_WORDS = ("harbour", "zeppelin", "marmalade")
TEXT = "The harbour was quiet; a zeppelin drifted over the marmalade factory. " * 20


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Path]:
    """An input text, a tiny embeddings file and an empty output directory."""
    return input_env(tmp_path, TEXT)


def cli(args: list[str], *, preexec: Callable[[], None] | None = None,
        stdin: object = subprocess.DEVNULL, stdout: object = subprocess.PIPE,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m emprivacy ARGS`` in a subprocess."""
    return subprocess.run([sys.executable, "-m", "emprivacy", *args], preexec_fn=preexec,
                          stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, text=True,
                          timeout=timeout)


def in_process(args: list[str], capsys: pytest.CaptureFixture[str]
               ) -> subprocess.CompletedProcess[str]:
    """The command line in this process (faults of paths, not of descriptors or limits)."""
    from emprivacy.cli import main

    code = main(args)
    captured = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, captured.out, captured.err)


def obfuscate(env: dict[str, Path], *extra: str) -> list[str]:
    return ["obfuscate", str(env["text"]), "-e", "10", "--embeddings", str(env["emb"]),
            "-q", *extra]


def one_line(done: subprocess.CompletedProcess[str], code: int, *expected: str) -> str:
    """The single error line of ``done``, after checking the exit code and stderr."""
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.splitlines()
    assert done.returncode == code, done.stderr
    assert len(lines) == 1 and lines[0].startswith("emprivacy: error: "), done.stderr
    for part in expected:
        assert part in lines[0], lines[0]
    for word in INPUT_WORDS:
        assert word not in lines[0].lower()
    return lines[0]


def leftovers(directory: Path) -> list[str]:
    """Every file and directory below ``directory``, relative (temporary files included)."""
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


def no_temporaries(directory: Path) -> None:
    assert not [p for p in directory.rglob("*") if p.name.endswith((TEMP_SUFFIX, ".tmp"))]


# -- how the faults are provoked ---------------------------------------------------------
def close_fd(fd: int) -> Callable[[], None]:
    def preexec() -> None:
        os.close(fd)
    return preexec


def file_size_limit(nbytes: int) -> Callable[[], None]:
    """The child can write no file beyond ``nbytes``: a full disk, even for root."""
    def preexec() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))
    return preexec


def _refuses_new_files(directory: Path) -> str | None:
    """The reason ``directory`` refuses a new file (EACCES, EPERM, EROFS), else ``None``."""
    try:
        fd, name = tempfile.mkstemp(dir=directory)
    except OSError as exc:
        return exc.strerror if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else None
    os.close(fd)
    os.unlink(name)
    return None


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """A directory in which no file can be created: chmod 0555, or /sys for root."""
    if os.geteuid() != 0:
        place = tmp_path / "read-only"
        place.mkdir()
        place.chmod(0o555)
    else:  # root ignores permissions; sysfs refuses new files even to root (EACCES or EROFS)
        place = Path("/sys")
    try:
        if _refuses_new_files(place) is None:
            pytest.skip(f"{place} accepts new files here: no read-only place to test with")
        yield place
    finally:
        if place != Path("/sys"):
            place.chmod(0o755)


# -- standard input and output -----------------------------------------------------------
def test_closed_stdin_is_bad_input(env):
    done = cli(["obfuscate", "-", "-e", "10", "--embeddings", str(env["emb"]), "-q"],
               preexec=close_fd(0), stdin=None)
    assert one_line(done, 2) == ("emprivacy: error: standard input is closed; pipe text in, "
                                 "or give input files")


@pytest.mark.parametrize("extra", [["-f", "bag"], ["-f", "jsonl"], ["-f", "text"]])
def test_closed_stdout_is_an_environment_error(env, extra):
    done = cli(obfuscate(env, *extra), preexec=close_fd(1), stdout=None)
    assert one_line(done, 1) == "emprivacy: error: cannot write to standard output: it is closed"


def test_closed_stdout_for_a_printed_result(env):
    done = cli(["guarantee", "-e", "1", "-N", "4", "-d", "1"], preexec=close_fd(1), stdout=None)
    assert one_line(done, 1) == "emprivacy: error: cannot write to standard output: it is closed"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("command", ["bag", "jsonl", "text", "guarantee", "help"])
def test_stdout_on_a_full_device(env, command):
    args = {"guarantee": ["guarantee", "-e", "1", "-N", "4", "-d", "1", "--json"],
            "help": ["obfuscate", "--help"]}.get(command) or obfuscate(env, "-f", command)
    with open("/dev/full", "w") as full:
        done = cli(args, stdout=full)
    assert one_line(done, 1) == ("emprivacy: error: cannot write to standard output: "
                                 "No space left on device")


def test_a_reader_that_goes_away_ends_the_run_quietly(env):
    """``emprivacy … | head -1``: exit code 1, nothing on stderr (click's convention)."""
    corpus = env["root"] / "in" / "many.jsonl"
    corpus.write_text("".join(json.dumps({"id": str(i), "text": TEXT}) + "\n"
                              for i in range(1000)), encoding="utf-8")
    with subprocess.Popen([sys.executable, "-m", "emprivacy", "obfuscate", str(corpus), "-e",
                           "10", "--embeddings", str(env["emb"]), "-q"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 1
    assert json.loads(first)["id"] == "0"
    assert err == b""


# -- a full disk -------------------------------------------------------------------------
@pytest.mark.parametrize(("extra", "name"), [
    (["-f", "bag"], "out.txt"),
    (["-f", "jsonl"], "out.jsonl"),
    (["-f", "text"], "out.txt"),
])
def test_full_disk_while_writing_a_file(env, extra, name):
    dest = env["out"] / name
    dest.write_text("previous output\n", encoding="utf-8")
    done = cli(obfuscate(env, *extra, "-o", str(dest)), preexec=file_size_limit(300))
    one_line(done, 1, f"cannot write output {str(dest)!r}: File too large")
    assert dest.read_text(encoding="utf-8") == "previous output\n"  # unchanged
    assert leftovers(env["out"]) == [name]


@pytest.mark.parametrize("workers", [[], ["--workers", "2"]], ids=["in-process", "dask"])
def test_full_disk_while_writing_parquet(env, workers):
    dest = env["out"] / "out.parquet"
    done = cli(obfuscate(env, "-f", "parquet", *workers, "-o", str(dest)),
               preexec=file_size_limit(2000))
    line = one_line(done, 1, "File too large")
    assert str(dest / "part-00000.parquet") in line
    # no partition was complete: nothing to resume, so no hint, and the directory the run
    # made is removed with its bookkeeping (it would block the next run; issue 22, 12)
    assert "resume" not in line
    assert leftovers(env["out"]) == []


def test_full_disk_while_writing_the_calibration_plot(env):
    pytest.importorskip("matplotlib.font_manager")  # its font cache exists before the limit
    plot = env["out"] / "calibration.png"
    done = cli(["calibrate", "--embeddings", str(env["emb"]), "--n-words", "5", "--trials",
                "5", "--epsilons", "1,10", "--plot", str(plot), "-q", "--json"],
               preexec=file_size_limit(1000))
    one_line(done, 1, f"cannot write output {str(plot)!r}: File too large")
    assert leftovers(env["out"]) == []


# -- output paths that cannot be used -----------------------------------------------------
@pytest.mark.parametrize("extra", [["-f", "bag"], ["-f", "jsonl"], ["-f", "text"],
                                   ["-f", "jsonl", "--workers", "2"]],
                         ids=["bag", "jsonl", "text", "workers"])
def test_output_is_a_directory(env, extra, capsys):
    done = in_process(obfuscate(env, *extra, "-o", str(env["out"])), capsys)
    one_line(done, 2, f"cannot write output {str(env['out'])!r}: it is a directory")
    assert leftovers(env["root"] / "out") == []
    no_temporaries(env["root"])


def test_plot_is_a_directory(env, capsys):
    done = in_process(["calibrate", "--embeddings", str(env["emb"]), "--plot", str(env["out"]),
                       "-q"], capsys)
    one_line(done, 2, f"cannot write plot {str(env['out'])!r}: it is a directory")


@pytest.mark.parametrize("extra", [["-f", "jsonl"], ["-f", "parquet"]])
def test_output_under_a_regular_file(env, extra, capsys):
    dest = env["text"] / "out"
    done = in_process(obfuscate(env, *extra, "-o", str(dest)), capsys)
    one_line(done, 2, f"output directory {str(env['text'])!r} is not a directory")


@pytest.mark.parametrize("extra", [["-f", "bag"], ["-f", "jsonl"], ["-f", "text"],
                                   ["-f", "parquet"], ["-f", "jsonl", "--workers", "2"]],
                         ids=["bag", "jsonl", "text", "parquet", "workers"])
def test_output_in_a_read_only_directory(env, read_only_dir, extra, capsys):
    dest = read_only_dir / f"emprivacy-test-{os.getpid()}.out"
    done = in_process(obfuscate(env, *extra, "-o", str(dest)), capsys)
    line = one_line(done, 1, f"cannot write output {str(dest)!r}: ")
    assert line.endswith(("Permission denied", "Read-only file system",
                          "Operation not permitted"))
    assert not dest.exists()
    assert not [p for p in read_only_dir.iterdir() if p.name.endswith(TEMP_SUFFIX)]


def test_plot_in_a_read_only_directory(env, read_only_dir, capsys):
    plot = read_only_dir / f"emprivacy-test-{os.getpid()}.png"
    done = in_process(["calibrate", "--embeddings", str(env["emb"]), "--plot", str(plot), "-q"],
                      capsys)
    one_line(done, 1, f"cannot write output {str(plot)!r}: ")
    assert not plot.exists()


# -- inputs that announce more than they hold ----------------------------------------------
@pytest.mark.parametrize(("name", "header", "claim"), [
    ("huge-vocab.bin", b"3000000000 300\n", "announces 3000000000 words of dimension 300"),
    ("huge-dim.bin", b"10 3000000000\n", "announces 10 words of dimension 3000000000"),
    ("huge-vocab.vec", b"3000000000 300\ncat 0.1 0.2\n", "announces 3000000000 words"),
])
def test_an_embeddings_header_larger_than_its_file(env, name, header, claim, capsys):
    emb = env["root"] / "in" / name
    emb.write_bytes(header)
    started = time.perf_counter()
    done = in_process(["obfuscate", str(env["text"]), "-e", "10", "--embeddings", str(emb),
                       "-q"], capsys)
    one_line(done, 2, f"embeddings file {str(emb)!r} is truncated or its header is wrong",
             claim)
    assert time.perf_counter() - started < 60  # nothing of the announced size was allocated


@pytest.mark.parametrize(("option", "message"), [
    ("-N", "Invalid value for '--size' / '-N': at most 10,000,000 words (far beyond any "
           "document: the whole Brown corpus is about a million words); got 1000000000 (see "
           "'emprivacy guarantee --help')"),
    ("-n", "Invalid value for '--dim' / '-n': at most 100,000 dimensions (embeddings have "
           "hundreds to a few thousand); got 1000000000 (see 'emprivacy guarantee --help')"),
])
def test_absurd_guarantee_sizes(option, message, capsys):
    args = ["guarantee", "-e", "1", "-N", "4", "-d", "1", option, "1000000000"]
    assert one_line(in_process(args, capsys), 2) == f"emprivacy: error: {message}"


def test_the_appendix_bound_of_a_huge_bag_is_computed_at_once():
    from emprivacy.math.guarantees import appendix_utility_bound

    started = time.perf_counter()
    assert appendix_utility_bound(1e-9, 10**12, 1.0, 50) <= 1.0  # no array of N terms
    assert time.perf_counter() - started < 1.0


# -- temporary files of killed runs --------------------------------------------------------
def test_a_killed_run_leaves_a_recognisable_temporary_file_removed_by_the_next(env):
    corpus = env["root"] / "in" / "many.jsonl"
    corpus.write_text("".join(json.dumps({"id": str(i), "text": TEXT}) + "\n"
                              for i in range(3000)), encoding="utf-8")
    dest = env["out"] / "out.jsonl"
    with subprocess.Popen([sys.executable, "-m", "emprivacy", "obfuscate", str(corpus), "-e",
                           "10", "--embeddings", str(env["emb"]), "-q", "-o", str(dest)],
                          stderr=subprocess.DEVNULL) as proc:
        deadline = time.monotonic() + 60
        while not [p for p in env["out"].iterdir() if p.stat().st_size > 0]:
            assert proc.poll() is None and time.monotonic() < deadline, "the run ended too soon"
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    (stale,) = [p for p in env["out"].iterdir() if not p.name.endswith(LOCK_SUFFIX)]
    assert (env["out"] / f".out.jsonl{LOCK_SUFFIX}").exists()  # the killed run's lock: no block
    assert stale.name.startswith(f".out.jsonl.{proc.pid}-") and stale.name.endswith(TEMP_SUFFIX)
    assert not dest.exists()
    # files that are not ours, or not stale, are never touched
    others = [env["out"] / ".out.jsonl.abcdefgh.tmp",  # no owner: not ours to judge
              env["out"] / f".out.jsonl.{os.getpid()}-{stale.name.split('-')[1][:8]}"
                           f".abcdefgh{TEMP_SUFFIX}",  # a live process (this one)
              env["out"] / f".other.jsonl.{proc.pid}-{stale.name.split('-')[1][:8]}"
                           f".abcdefgh{TEMP_SUFFIX}"]  # another target
    for other in others:
        other.write_text("not emprivacy's to remove\n", encoding="utf-8")
    done = cli(obfuscate(env, "-f", "jsonl", "-o", str(dest)))
    assert done.returncode == 0, done.stderr
    assert not stale.exists()
    assert sorted(p.name for p in env["out"].iterdir()) == sorted(
        ["out.jsonl", *(p.name for p in others)])


# -- the mapping itself ----------------------------------------------------------------------
@pytest.mark.parametrize(("code", "kind"), [
    (errno.ENOSPC, OutputWriteError), (errno.EDQUOT, OutputWriteError),
    (errno.EFBIG, OutputWriteError), (errno.EACCES, OutputWriteError),
    (errno.EPERM, OutputWriteError), (errno.EROFS, OutputWriteError),
    (errno.EIO, OutputWriteError), (errno.EISDIR, OutputPathError),
    (errno.ENOTDIR, OutputPathError), (errno.ENOENT, OutputPathError),
])
def test_write_errors_by_errno(code, kind):
    from emprivacy.cli import ENVIRONMENT_ERRORS

    err = write_error(OSError(code, os.strerror(code)), "/x/out.txt")
    assert type(err) is kind and err.errno == code and isinstance(err, OSError)
    assert str(err) == f"cannot write output '/x/out.txt': {os.strerror(code)}"
    assert isinstance(err, ENVIRONMENT_ERRORS) == (kind is OutputWriteError)
