"""Writing outputs: atomically, never half-written, and every failure one clear error.

An output file is written to a temporary file in the same directory and renamed
over the destination only when everything has been written (``os.replace`` is
atomic on POSIX); an interrupted or failed run removes the temporary file and
leaves any previous output untouched.

A temporary file is named ``.<name>.<pid>-<host>.<random>.emprivacy.tmp``
(``<host>``: a short digest of the machine and its process namespace), so it is
never mistaken for an output; one left behind by a killed process is removed by the
next atomic write of the same file, once its process is known to be gone
(:func:`~emprivacy.io.temporaries.remove_stale_temporaries`).

What the destination already is decides how it is written:

* a regular file, or nothing yet: replaced atomically, as above;
* a symbolic link: followed; its target is replaced atomically (the temporary
  file is made in the target's directory) and the link stays a link.  A dangling
  link is an error of the path;
* a FIFO or a character device (``/dev/null``, ``>(gzip > out.gz)``, a
  terminal): opened and written in place, never replaced, as every Unix tool
  does.  A block device or a socket is refused.

Where an output may be written is :mod:`emprivacy.io.output_paths`: the path checked
before any work (:func:`~emprivacy.io.output_paths.check_output_path`), an output that is
also an input refused (:func:`~emprivacy.io.output_paths.check_not_input`), and one run per
output at a time (:func:`~emprivacy.io.output_paths.output_lock`: ``flock`` on
``.<name>.emprivacy.lock`` next to it).  The temporary files left by killed processes:
:mod:`emprivacy.io.temporaries`; the user cache directory: :mod:`emprivacy.io.cache_dir`.

A failed write raises :class:`~emprivacy.exceptions.OutputPathError` when the path
the user gave cannot be used (a directory, a missing or non-directory parent, a
dangling symbolic link, a block device or a socket: exit code 2 on the command
line) and :class:`~emprivacy.exceptions.OutputWriteError` when the environment
failed (full disk or quota, file size limit, permission, read-only file system, I/O
error, closed standard output: exit code 1).  Both are :class:`OSError` too, and
their messages name the file and the system's reason, never the data.  A
:class:`BrokenPipeError` on standard output or a FIFO (the reader went away, as
with ``| head``) is passed on unchanged.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any, TextIO, cast

from emprivacy.exceptions import OutputPathError, OutputWriteError
from emprivacy.io.output_paths import (
    _mkstemp,
    _real,
    check_output_path,
    is_stream,
    write_error,
)
from emprivacy.io.temporaries import remove_own_temporaries, remove_stale_temporaries

__all__ = ["atomic_file", "atomic_output", "checked_stdout", "format_record",
           "write_bytes_atomic", "write_files_atomic", "write_stdout"]


def _read_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: Read once, at import: changing the umask to read it is not thread-safe.
_UMASK = _read_umask()


class _Checked:
    """A file whose failed writes raise :func:`~emprivacy.io.output_paths.write_error` for
    ``target``.

    Everything else (``tell``, ``seek``, ``name``, …) is the file's own.
    """

    def __init__(self, fh: IO[Any], target: str | os.PathLike[str] | None) -> None:
        self._fh = fh
        self._target = target

    def write(self, data: Any) -> int:
        try:
            return self._fh.write(data)
        except (BrokenPipeError, OutputPathError, OutputWriteError):
            raise  # a reader that went away is not a fault; ours are already one line
        except OSError as exc:
            raise write_error(exc, self._target) from exc

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._fh.flush()
        except (BrokenPipeError, OutputPathError, OutputWriteError):
            raise
        except OSError as exc:
            raise write_error(exc, self._target) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fh, name)


# -- atomic writes ------------------------------------------------------------------------
def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and an atomic rename.

    The file gets the usual permissions (``0666 & ~umask``), not ``mkstemp``'s 0600.
    Errors as :func:`atomic_file`.
    """
    with atomic_file(Path(path), "wb") as fh:
        fh.write(data)


def _file_mode(real: Path) -> int:
    """The permissions of a new output: ``0666 & ~umask``, and never wider than those of
    the file it replaces (a file the user made private stays private)."""
    mode = 0o666 & ~_UMASK
    with contextlib.suppress(OSError):
        st = os.stat(real)
        if stat.S_ISREG(st.st_mode):
            mode &= stat.S_IMODE(st.st_mode)
    return mode


@contextlib.contextmanager
def _in_place(dest: Path, mode: str) -> Iterator[IO[Any]]:
    """Write a FIFO or a character device where it is: opened, written, closed."""
    try:
        fd = os.open(dest, os.O_WRONLY | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise write_error(exc, dest) from exc
    fh: IO[Any] | None = None
    try:
        try:
            kwargs: dict[str, Any] = ({} if "b" in mode
                                      else {"encoding": "utf-8", "newline": "\n"})
            fh = os.fdopen(fd, mode, **kwargs)
        except OSError as exc:
            raise write_error(exc, dest) from exc
        checked = _Checked(fh, dest)
        yield cast(IO[Any], checked)
        checked.flush()
        try:
            fh.close()
        except OSError as exc:
            raise write_error(exc, dest) from exc
    except BaseException:
        _drop(fh, fd)
        raise


def _drop(fh: IO[Any] | None, fd: int) -> None:
    """Close a file being abandoned after a failure; its buffer may not fit either: drop it."""
    with contextlib.suppress(OSError):
        if fh is not None:
            fh.close()
        else:
            os.close(fd)


@contextlib.contextmanager
def atomic_file(dest: Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Open ``dest`` for writing through a temporary file renamed into place at the end.

    On any error or interruption the temporary file is removed and ``dest`` is left
    as it was.  ``mode`` is ``"wb"`` or ``"w"`` (UTF-8, ``\\n`` line ends).  Stale
    temporary files of ``dest`` are removed first
    (:func:`~emprivacy.io.temporaries.remove_stale_temporaries`).
    A symbolic link is followed (its target is replaced; the link stays); a FIFO or
    a character device is written in place (see the module's notes).  The new file
    gets ``0666 & ~umask``, never more than the file it replaces.

    Raises
    ------
    OutputPathError
        ``dest`` is a directory, a block device, a socket or a dangling symbolic
        link, or its directory is missing or not a directory (an
        :class:`~emprivacy.exceptions.OutputError`).
    OutputWriteError
        Creating, writing, syncing or renaming the file failed (full disk, file size
        limit, permission, read-only file system, I/O error).
    """
    dest = check_output_path(dest)
    if is_stream(dest):
        with _in_place(dest, mode) as stream:
            yield stream
        return
    real = _real(dest)
    remove_stale_temporaries(real)
    fd, tmp, fh = -1, "", None
    try:
        try:
            fd, tmp = _mkstemp(real, real.parent, report=dest)
            os.fchmod(fd, _file_mode(real))  # mkstemp makes 0600; give the usual permissions
            kwargs: dict[str, Any] = ({} if "b" in mode
                                      else {"encoding": "utf-8", "newline": "\n"})
            fh = os.fdopen(fd, mode, **kwargs)
        except OSError as exc:
            raise write_error(exc, dest) from exc
        yield cast(IO[Any], _Checked(fh, dest))
        try:
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()
            os.replace(tmp, real)
        except OSError as exc:
            raise write_error(exc, dest) from exc
    except BaseException:
        if tmp:
            _drop(fh, fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        else:  # stopped (Ctrl-C) after mkstemp made the file, before it said its name
            remove_own_temporaries(real)
        raise


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str] | None, *, stdout: TextIO | None = None
                  ) -> Iterator[TextIO]:
    """Open ``path`` for writing text atomically (``None`` or ``"-"``: standard output).

    Errors as :func:`atomic_file`; on standard output, a failed write or flush (or a
    closed standard output) raises :class:`~emprivacy.exceptions.OutputWriteError`
    and a :class:`BrokenPipeError` is passed on.
    """
    if path is None or str(path) == "-":
        out = _Checked(_stdout(stdout), None)
        yield cast(TextIO, out)
        out.flush()
        return
    with atomic_file(Path(path), "w") as fh:
        yield cast(TextIO, fh)


def _stdout(stdout: TextIO | None = None) -> TextIO:
    """``stdout``, else :data:`sys.stdout`; an error if standard output is closed."""
    stream = stdout if stdout is not None else sys.stdout
    if stream is None:  # Python found file descriptor 1 closed at start-up
        err = OutputWriteError("cannot write to standard output: it is closed")
        err.errno = errno.EBADF
        raise err
    return stream


@contextlib.contextmanager
def checked_stdout() -> Iterator[None]:
    """Within the block, a failed write to :data:`sys.stdout` by anyone (help text too)
    raises :class:`~emprivacy.exceptions.OutputWriteError`; a broken pipe is passed on.

    Nothing changes when standard output is closed (``sys.stdout is None``).
    """
    original = sys.stdout
    if original is None or isinstance(original, _Checked):
        yield
        return
    guarded = cast(TextIO, _Checked(original, None))
    sys.stdout = guarded
    try:
        yield
    finally:
        if sys.stdout is guarded:
            sys.stdout = original


def write_stdout(text: str, *, stdout: TextIO | None = None) -> None:
    """Write ``text`` to standard output and flush it; errors as :func:`atomic_output`."""
    out = _Checked(_stdout(stdout), None)
    out.write(text)
    out.flush()


def format_record(record: dict[str, Any], fmt: str) -> str:
    """One output line: a JSON object (``jsonl``), the noisy words (``bag``) or the text."""
    if fmt == "jsonl":
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if fmt == "bag":
        return " ".join(record["bag"])
    if fmt == "text":
        return record["text"]
    raise ValueError(f"format must be one of 'bag', 'jsonl', 'text'; got {fmt!r}")


# -- several files at once ----------------------------------------------------------------
#: ``os.link`` errors meaning "this file system has no hard links": go on without a backup.
_NO_LINKS = frozenset({errno.EPERM, errno.EXDEV, errno.EMLINK,
                       getattr(errno, "ENOTSUP", errno.EOPNOTSUPP), errno.EOPNOTSUPP})


def write_files_atomic(files: Mapping[Path, bytes] | Mapping[str, bytes], *,
                       parents: bool = False) -> list[Path]:
    """Write several files: all of them, or — on any error or interruption — none.

    Every file is first written in full to a temporary file in its own directory and
    synced; only then are they renamed into place, one after the other.  If a write
    fails (a full disk, a file size limit) nothing has been renamed and the temporary
    files are removed.  If a rename fails, the files already renamed are taken back:
    a file that did not exist before is removed, one that did is restored from a hard
    link made to it before the first rename (on a file system without hard links a
    replaced file cannot be restored; the new one then stays).  A FIFO or a character
    device is written in place after the others are in place (it cannot be taken
    back).  Errors as :func:`atomic_file`.

    Parameters
    ----------
    files : mapping of Path or str to bytes
        Each destination and its contents.
    parents : bool, default False
        Create missing parent directories first; on failure the directories created
        are removed again.

    Returns
    -------
    list of Path
        The destinations, in the order given.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     out = write_files_atomic({Path(d, "r", "a.txt"): b"a", Path(d, "r", "b.txt"): b"b"},
    ...                              parents=True)
    ...     sorted(p.name for p in Path(d, "r").iterdir())
    ['a.txt', 'b.txt']
    """
    made: list[Path] = []
    try:
        if parents:
            for path in files:
                missing = [p for p in reversed(Path(path).parents) if not p.exists()]
                for directory in missing:
                    try:
                        directory.mkdir()
                    except FileExistsError:
                        continue
                    except OSError as exc:
                        raise write_error(exc, directory) from exc
                    made.append(directory)
        items = [(check_output_path(path), data) for path, data in files.items()]
        streams = [(dest, data) for dest, data in items if is_stream(dest)]
        _replace_all([(dest, data) for dest, data in items if not is_stream(dest)])
    except BaseException:
        for directory in reversed(made):
            with contextlib.suppress(OSError):
                directory.rmdir()
        raise
    for dest, data in streams:
        write_bytes_atomic(dest, data)
    return [Path(p) for p in files]


def _replace_all(items: list[tuple[Path, bytes]]) -> None:
    """Regular files: every temporary written and synced, then every rename (see
    :func:`write_files_atomic`)."""
    temps: list[tuple[str, Path, Path]] = []  # (temporary, where it goes, as named)
    backups: dict[Path, str] = {}  # an existing file: a hard link to it
    placed: list[Path] = []
    try:
        for dest, data in items:
            real = _real(dest)
            remove_stale_temporaries(real)
            fd, tmp = _mkstemp(real, real.parent, report=dest)
            temps.append((tmp, real, dest))
            try:
                os.fchmod(fd, _file_mode(real))
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except OSError as exc:
                raise write_error(exc, dest) from exc
            finally:
                os.close(fd)
        for _, real, dest in temps:
            if not os.path.lexists(real):
                continue
            fd, backup = _mkstemp(real, real.parent, report=dest)
            os.close(fd)
            try:
                os.unlink(backup)
                os.link(real, backup)
            except OSError as exc:
                if exc.errno not in _NO_LINKS:
                    raise write_error(exc, dest) from exc
                continue  # no hard links here: this one cannot be restored
            backups[real] = backup
        for tmp, real, dest in temps:
            try:
                os.replace(tmp, real)
            except OSError as exc:
                raise write_error(exc, dest) from exc
            placed.append(real)
    except BaseException:
        for real in reversed(placed):  # take back what was renamed
            with contextlib.suppress(OSError):
                if real in backups:
                    os.replace(backups.pop(real), real)
                else:
                    os.unlink(real)
        for tmp, _, _ in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    finally:
        for backup in backups.values():
            with contextlib.suppress(OSError):
                os.unlink(backup)
