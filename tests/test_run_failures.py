"""Runs that fail, are interrupted or meet a document with nothing to release (issue 22).

* A corpus run that fails before any partition is complete leaves nothing behind (no
  ``.parts`` directory that would block the next run); one that completed partitions
  keeps them and says so in its one line, with the command line's ``--resume`` (the
  library says ``resume=True``).
* A document with no word in the vocabulary is skipped with a warning and counted, as
  an empty document is, in every path: one process, partitions, Dask workers, every
  format.
* Ctrl-C (SIGINT) during a corpus run that kept partitions says ``--resume`` in its one
  line and exits 130; a worker's temporary file is never left in ``.parts/``.  Sent to the
  whole process group, as a terminal sends it, it is still that one line: the local
  cluster's workers do not see it (issue 44, item 4).  SIGTERM is the same, with
  ``terminated`` and exit 143; a plain run in one process, which keeps nothing, says how
  ``--resume`` would have kept its work.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from emprivacy.cli import main
from emprivacy.exceptions import CorpusRunInterrupted, InputError, InterruptedRunError
from emprivacy.io.output_paths import TEMP_SUFFIX

from .helpers import EMBEDDINGS_FILE

#: Words of the input documents: none may appear on stderr.
INPUT_WORDS = ("harbour", "zeppelin", "drifted", "qwxzzyq", "plorbington")
TEXT = "the zeppelin drifted over the quiet harbour factory"
#: Documents per partition when the command line plans them (the smallest it chooses).
CLI_PARTITION = 16


@pytest.fixture
def emb(tmp_path: Path) -> Path:
    path = tmp_path / "emb.txt"
    path.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    return path


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, list[str]]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err.splitlines()


def _no_text(lines: list[str]) -> None:
    for line in lines:
        assert not any(word in line.lower() for word in INPUT_WORDS), line
        assert "resume=True" not in line, line  # the library's spelling, not the command's


def _parquet(path: Path, texts: list[str | None], *, statistics: bool = True) -> Path:
    """``texts`` as a Parquet file of records; without ``statistics`` (which show a null
    text before any row is read) a null text is found only when its row is read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": [f"d{i}" for i in range(len(texts))], "text": texts}), path,
                   write_statistics=statistics)
    return path


#: What a null text in a Parquet input of records says (issue 30, item 9).
NULL_HINT = ("; a record needs a text: to keep the nulls, release the file as a table (one "
             ".parquet input, --output OUT.parquet)")


def _everything(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


# -- 12: a failed run leaves nothing that blocks the next --------------------------------
@pytest.mark.parametrize("extra", [["-o", "out.jsonl"], ["--format", "parquet", "-o", "x.parquet"],
                                   ["--workers", "2", "-o", "out.jsonl"]],
                         ids=["jsonl", "parquet", "workers"])
def test_a_run_failing_before_any_partition_is_complete_leaves_nothing(
        tmp_path: Path, emb: Path, extra: list[str], capsys, monkeypatch) -> None:
    """A null ``text`` in a Parquet input of records: one line, exit 2, no ``.parts`` (nor
    Parquet directory) left, and the same command with the input fixed is not blocked.
    (``-o x.parquet`` alone releases the file as a table, nulls kept: test_obfuscate_table.)"""
    if "--workers" in extra:
        pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in").mkdir()
    src = _parquet(tmp_path / "in" / "c.parquet", [TEXT, None, TEXT])
    argv = ["obfuscate", str(src), "-e", "10", "--embeddings", str(emb), "-q", *extra]
    code, out, lines = _run(argv, capsys)
    assert (code, out) == (2, "")
    assert lines == [f"emprivacy: error: input file {str(src)!r} row 1: 'text' is null"
                     + NULL_HINT]
    assert _everything(tmp_path) == ["emb.txt", "in", "in/c.parquet"]
    _parquet(src, [TEXT, "the quiet factory", TEXT])
    code, _, lines = _run(argv, capsys)
    assert (code, lines) == (0, [])
    assert (tmp_path / extra[-1]).exists()


def test_a_run_that_completed_partitions_keeps_them_and_says_so(tmp_path: Path, emb: Path,
                                                                capsys, monkeypatch) -> None:
    """The null ``text`` in the second partition (a file without statistics, so it is met
    only there): the first is kept, the line says where and how to continue
    (``--resume``), and a plain re-run says ``--resume`` too."""
    monkeypatch.chdir(tmp_path)
    texts: list[str | None] = [TEXT] * (CLI_PARTITION + 4)
    texts[CLI_PARTITION + 2] = None
    src = _parquet(tmp_path / "c.parquet", texts, statistics=False)
    argv = ["obfuscate", str(src), "-e", "10", "--embeddings", str(emb), "-o", "out.jsonl", "-q"]
    code, _, lines = _run(argv, capsys)
    assert code == 2
    assert lines == [f"emprivacy: error: input file {str(src)!r} row {CLI_PARTITION + 2}: "
                     "'text' is null" + NULL_HINT + "; completed partitions are kept in "
                     "'out.jsonl.parts' — re-run with --resume to continue"]
    assert _everything(tmp_path / "out.jsonl.parts") == [
        "_run.json", "_status", "_status/part-00000.json", "part-00000.jsonl"]
    code, _, lines = _run(argv, capsys)
    assert code == 2
    assert lines == ["emprivacy: error: 'out.jsonl.parts' already holds an interrupted run; "
                     "pass --resume to continue it, or remove it"]
    _no_text(lines)


def test_the_library_names_its_own_option(tmp_path: Path, tiny_embeddings) -> None:
    """The same failures through :func:`obfuscate_corpus`: ``resume=True`` in the message,
    the directory in ``partitions_kept``; without a complete partition, nothing is left."""
    from emprivacy.distributed import obfuscate_corpus
    from emprivacy.mechanisms import EarthMoversPrivacy

    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=1.0)
    src = _parquet(tmp_path / "c.parquet", ["cat dog", "car", None, "bus"], statistics=False)
    out = tmp_path / "out.jsonl"
    with pytest.raises(InputError) as failed:
        obfuscate_corpus([src], out, mechanism=mech, partition_documents=2)
    parts = tmp_path / "out.jsonl.parts"
    assert failed.value.partitions_kept == str(parts)
    assert str(failed.value).endswith(f"; completed partitions are kept in {str(parts)!r} — "
                                      "re-run with resume=True to continue")
    assert failed.value.message(resume="--resume").endswith("re-run with --resume to continue")
    with pytest.raises(InterruptedRunError, match=r"already holds an interrupted run; pass "
                       r"resume=True to continue it, or remove it$"):
        obfuscate_corpus([src], out, mechanism=mech, partition_documents=2)
    with pytest.raises(InputError) as failed:  # the first partition fails: nothing kept
        obfuscate_corpus([src], tmp_path / "x.parquet", mechanism=mech, partition_documents=4)
    assert failed.value.partitions_kept is None
    assert "resume" not in str(failed.value)
    assert not (tmp_path / "x.parquet").exists()


# -- 13: a document with no word in the vocabulary is skipped, as an empty one -----------
@pytest.mark.parametrize("extra", [
    ["-o", "out.jsonl"],
    ["-f", "bag", "-o", "out.txt"],
    ["-o", "out.parquet"],
    ["--resume", "-o", "out.jsonl"],
    ["--workers", "2", "-o", "out.jsonl"],
], ids=["jsonl", "bag", "parquet", "partitioned", "workers"])
def test_a_document_without_vocabulary_words_is_skipped_and_counted(
        tmp_path: Path, emb: Path, extra: list[str], capsys, monkeypatch) -> None:
    if "--workers" in extra:
        pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "c.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in [
        {"id": "a", "text": TEXT}, {"id": "oov", "text": "Qwxzzyq Plorbington"},
        {"id": "e", "text": " !! "}, {"id": "b", "text": "quiet harbour"}]), encoding="utf-8")
    code, out, lines = _run(["obfuscate", str(src), "-e", "10", "--embeddings", str(emb),
                             *extra], capsys)
    assert (code, out) == (0, "")
    assert lines[:2] == [
        "emprivacy: warning: document 'oov' has no word in the vocabulary of 'emb.txt'; "
        "skipped",
        "emprivacy: warning: document 'e' is empty after normalisation; skipped"]
    assert len(lines) == 3 and lines[2].startswith("emprivacy: wrote 2 document(s) to ")
    # then, since issue 30 (item 12), how many came back unchanged, if any did (ε = 10)
    _, skipped, said = lines[2].partition("; skipped 1 empty, 1 with no word in the "
                                          "vocabulary")
    assert skipped and re.fullmatch(r"(; [12] of 2 document\(s\) with privatised words "
                                    r"released unchanged \(\d+%: .*\))?", said)
    _no_text(lines)
    if extra[-1] == "out.parquet":
        manifest = json.loads((tmp_path / "out.parquet" / "_manifest.json").read_text())
        assert manifest["skipped"] == ["oov", "e"]
        assert manifest["skipped_out_of_vocabulary"] == ["oov"]
    elif extra[-1] == "out.txt":
        assert len((tmp_path / "out.txt").read_text().splitlines()) == 2
    else:
        ids = [json.loads(line)["id"] for line in (tmp_path / "out.jsonl").read_text()
               .splitlines()]
        assert ids == ["a", "b"]


def test_text_mode_releases_a_document_without_vocabulary_words(tmp_path: Path, emb: Path,
                                                                capsys) -> None:
    """Text mode has something to release (the layout, a placeholder per unknown word):
    only the empty document is skipped."""
    src = tmp_path / "c.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in [
        {"id": "oov", "text": "Qwxzzyq Plorbington"}, {"id": "e", "text": ""}]),
        encoding="utf-8")
    code, out, lines = _run(["obfuscate", str(src), "-e", "10", "--embeddings", str(emb),
                             "--readable"], capsys)
    assert code == 0
    assert [json.loads(line)["text"] for line in out.splitlines()] == ["[UNK] [UNK]"]
    assert lines == ["emprivacy: warning: document 'e' is empty after normalisation; skipped"]


def test_every_document_skipped_is_one_error(tmp_path: Path, emb: Path, capsys) -> None:
    src = tmp_path / "c.jsonl"
    src.write_text('{"id": "oov", "text": "Qwxzzyq"}\n{"id": "e", "text": "..."}\n',
                   encoding="utf-8")
    for extra in (["-o", str(tmp_path / "o.jsonl")], ["-o", str(tmp_path / "o.parquet")]):
        code, _, lines = _run(["obfuscate", str(src), "-e", "10", "--embeddings", str(emb),
                               *extra], capsys)
        assert code == 2
        assert lines == ["emprivacy: error: every input document is empty after normalisation "
                         "or has no word in the vocabulary of 'emb.txt' (2, first 'oov'); "
                         "nothing to release"]
    assert _everything(tmp_path) == ["c.jsonl", "emb.txt"]


# -- 17: Ctrl-C -------------------------------------------------------------------------
def test_an_interrupted_partitioned_run_says_resume(tmp_path: Path, emb: Path, capsys,
                                                    monkeypatch) -> None:
    """Ctrl-C (a KeyboardInterrupt) after the first partition: exit 130, one line with the
    ``--resume`` hint, the partition kept; ``--resume`` then finishes the run."""
    import emprivacy.distributed.run as run

    monkeypatch.chdir(tmp_path)
    src = tmp_path / "c.jsonl"
    src.write_text("".join(json.dumps({"id": i, "text": TEXT}) + "\n"
                           for i in range(3 * CLI_PARTITION)), encoding="utf-8")
    real = run.process_partition
    calls = []

    def interrupted(part, *args, **kwargs):
        calls.append(part.index)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(part, *args, **kwargs)

    monkeypatch.setattr(run, "process_partition", interrupted)
    argv = ["obfuscate", str(src), "-e", "10", "--embeddings", str(emb), "-q", "-o",
            "out.parquet"]
    code, _, lines = _run(argv, capsys)
    assert code == 130
    assert lines == ["emprivacy: interrupted; completed partitions are kept in 'out.parquet' "
                     "— re-run with --resume to continue"]
    assert _everything(tmp_path / "out.parquet") == [
        "_run.json", "_status", "_status/part-00000.json", "part-00000.parquet"]
    monkeypatch.setattr(run, "process_partition", real)
    code, _, lines = _run([*argv, "--resume"], capsys)
    assert (code, lines) == (0, [])
    manifest = json.loads((tmp_path / "out.parquet" / "_manifest.json").read_text())
    assert manifest["documents_written"] == 3 * CLI_PARTITION


def test_the_library_interruption_is_still_a_keyboard_interrupt(tmp_path: Path,
                                                                tiny_embeddings) -> None:
    from emprivacy.distributed import obfuscate_corpus
    from emprivacy.mechanisms import EarthMoversPrivacy

    mech = EarthMoversPrivacy(tiny_embeddings, epsilon=1.0)
    src = tmp_path / "c.jsonl"
    src.write_text("".join(json.dumps({"id": i, "text": "cat dog"}) + "\n" for i in range(6)))

    def stop_after(n: int):
        def progress(done: int, total: int) -> None:
            if done >= n:
                raise KeyboardInterrupt
        return progress

    with pytest.raises(KeyboardInterrupt) as stopped:
        obfuscate_corpus([src], tmp_path / "o.jsonl", mechanism=mech, partition_documents=2,
                         progress=stop_after(2))
    assert isinstance(stopped.value, CorpusRunInterrupted)
    assert str(stopped.value) == (f"completed partitions are kept in "
                                  f"{str(tmp_path / 'o.jsonl.parts')!r} — re-run with "
                                  "resume=True to continue")
    with pytest.raises(KeyboardInterrupt) as stopped:  # before any partition: nothing kept
        obfuscate_corpus([src], tmp_path / "p.jsonl", mechanism=mech, partition_documents=2,
                         progress=stop_after(0))
    assert type(stopped.value) is KeyboardInterrupt
    assert not (tmp_path / "p.jsonl.parts").exists()


#: How each stopping signal ends a command: exit code, first word of its one line.
STOPS = {signal.SIGINT: (130, "interrupted"), signal.SIGTERM: (143, "terminated")}
#: The longest any wait of these tests may last, in seconds.
PATIENCE = 240


def _big_corpus(tmp_path: Path) -> Path:
    """4 partitions of the command line's size, each a few seconds of work."""
    src = tmp_path / "big.jsonl"
    with open(src, "w", encoding="utf-8") as fh:
        for i in range(4 * CLI_PARTITION):
            fh.write(json.dumps({"id": i, "text": (TEXT + " ") * 2000}) + "\n")
    return src


def _live_in_group(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` still running (zombies not counted)."""
    psutil = pytest.importorskip("psutil")
    live = []
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error, OSError):
            if os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE:
                live.append(process.pid)
    return live


def _stop_in_a_terminal(argv: list[str], sig: int, ready: Callable[[], bool]
                        ) -> tuple[int, str]:
    """``emprivacy argv`` as a terminal runs it, stopped by ``sig`` once ``ready()``: its
    exit code and stderr; every process it started is gone by the end.

    The command leads a process group of its own (a terminal's foreground job), and the
    signal goes to the whole group, as Ctrl-C in a terminal (or a service manager's
    SIGTERM) does: the command's local Dask workers get it too.  SIGINT is restored to
    its default, as an interactive shell leaves it (a test run started in the background,
    ``cmd &`` without job control, ignores it, and so would the command).
    """
    proc = subprocess.Popen(
        [sys.executable, "-m", "emprivacy", *argv], stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + PATIENCE
        while not ready():
            assert proc.poll() is None, "the run ended before it was stopped"
            assert time.monotonic() < deadline, "the run did not start in time"
            time.sleep(0.02)
        os.killpg(proc.pid, sig)
        _, err = proc.communicate(timeout=PATIENCE)
        deadline = time.monotonic() + 30  # the workers are stopped by the command
        while _live_in_group(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _live_in_group(proc.pid)
    finally:  # nothing of a failed test outlives it
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        if proc.returncode is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, err


@pytest.mark.parametrize("sig", list(STOPS), ids=lambda sig: sig.name)
def test_stopping_a_run_with_workers_in_a_terminal_says_one_line(tmp_path: Path, emb: Path,
                                                                 sig: int) -> None:
    """Ctrl-C (SIGINT) or SIGTERM sent to the process group, while a worker writes a
    partition after another was completed (issue 44, item 4): the one line with the
    ``--resume`` hint and exit 130 (SIGTERM: ``terminated``, 143) — no worker's
    traceback, no "leaked semaphore" warning — and no worker's temporary file in
    ``.parts/``; only complete partitions and the run's bookkeeping are left."""
    pytest.importorskip("distributed")
    src = _big_corpus(tmp_path)
    parts = tmp_path / "out.jsonl.parts"

    def writing_after_one() -> bool:
        try:
            names = [p.name for p in parts.iterdir()]
            done = list((parts / "_status").iterdir())
        except FileNotFoundError:
            return False
        return bool(done) and any(n.startswith(".part-") and n.endswith(TEMP_SUFFIX)
                                  for n in names)

    code, err = _stop_in_a_terminal(
        ["obfuscate", str(src), "-e", "5", "--embeddings", str(emb), "-o",
         str(tmp_path / "out.jsonl"), "-q", "--workers", "2"], sig, writing_after_one)
    exit_code, word = STOPS[sig]
    assert (code, err.splitlines()) == (exit_code, [
        f"emprivacy: {word}; completed partitions are kept in {str(parts)!r} — re-run "
        "with --resume to continue"])
    left = _everything(parts)
    assert not [name for name in left if name.endswith(TEMP_SUFFIX)], left
    statuses = [n for n in left if n.startswith("_status/")]
    assert statuses and set(left) == {"_run.json", "_status", *statuses, *(
        n.removeprefix("_status/").replace(".json", ".jsonl") for n in statuses)}
    assert _everything(tmp_path) == ["big.jsonl", "emb.txt", "out.jsonl.parts",
                                     *[f"out.jsonl.parts/{n}" for n in left]]


@pytest.mark.parametrize("sig", list(STOPS), ids=lambda sig: sig.name)
def test_stopping_a_run_in_one_process_says_how_to_keep_its_work(tmp_path: Path, emb: Path,
                                                                 sig: int) -> None:
    """A plain run in one process keeps nothing when stopped (issue 44, item 4): its one
    line says so and that ``--resume`` keeps completed partitions next time; no output,
    no temporary file, no lock is left."""
    src = _big_corpus(tmp_path)

    def writing() -> bool:
        return any(p.name.endswith(TEMP_SUFFIX) for p in tmp_path.iterdir())

    code, err = _stop_in_a_terminal(["obfuscate", str(src), "-e", "5", "--embeddings",
                                     str(emb), "-o", str(tmp_path / "out.jsonl"), "-q"],
                                    sig, writing)
    exit_code, word = STOPS[sig]
    assert (code, err.splitlines()) == (exit_code, [
        f"emprivacy: {word}; nothing was kept — run with --resume to keep completed "
        "partitions next time"])
    assert _everything(tmp_path) == ["big.jsonl", "emb.txt"]


def test_an_error_that_ctrl_c_causes_while_a_run_closes_keeps_the_resume_hint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C reaches the workers too: closing the run may then raise another error (a
    cancelled task, a closed comm) with the interrupt as its context. The run still says
    that its completed partitions are kept (CI saw ``emprivacy: interrupted`` alone once),
    and the runner's cleanup hides no interruption behind an error of its own."""
    from emprivacy.distributed import run as runs
    from emprivacy.exceptions import CorpusRunInterrupted

    monkeypatch.setattr(runs, "any_complete", lambda *args: True)
    monkeypatch.setattr(runs, "_remove_temporaries", lambda *args: None)
    guard = runs._FailedRun([], tmp_path, "jsonl")
    guard.arm(("plan", "settings"), created=False)
    with pytest.raises(CorpusRunInterrupted) as info, guard:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("a task was cancelled as the workers stopped")  # noqa: B904
    assert info.value.partitions_kept == str(tmp_path)

    class _Closing:  # a client whose cluster goes down under Ctrl-C
        def cancel(self, futures: object) -> None:
            raise RuntimeError("the scheduler is gone")

    runner = runs._Runner(_Closing(), object(), object())  # type: ignore[arg-type]
    runner._pending = {1: object()}
    with pytest.raises(KeyboardInterrupt), runner:
        raise KeyboardInterrupt
    runner._pending = {1: object()}
    with pytest.raises(RuntimeError, match="scheduler"), runner:  # no Ctrl-C: a real error
        pass
