"""Writing outputs: atomically, never half-written, and every failure one clear error.

An output file is written to a temporary file in the same directory and renamed
over the destination only when everything has been written (``os.replace`` is
atomic on POSIX); an interrupted or failed run removes the temporary file and
leaves any previous output untouched.

A temporary file is named ``.<name>.<pid>-<host>.<random>.emprivacy.tmp``
(``<host>``: a short digest of the machine and its process namespace), so it is
never mistaken for an output; one left behind by a killed process is removed by the
next atomic write of the same file, once its process is known to be gone
(:func:`remove_stale_temporaries`).

A failed write raises :class:`~emprivacy.exceptions.OutputPathError` when the path
the user gave cannot be used (a directory, a missing or non-directory parent: exit
code 2 on the command line) and :class:`~emprivacy.exceptions.OutputWriteError` when
the environment failed (full disk or quota, file size limit, permission, read-only
file system, I/O error, closed standard output: exit code 1).  Both are
:class:`OSError` too, and their messages name the file and the system's reason,
never the data.  A :class:`BrokenPipeError` on standard output (the reader went
away, as with ``| head``) is passed on unchanged.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import socket
import sys
import tempfile
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, TextIO, cast

from .exceptions import OutputPathError, OutputWriteError

__all__ = ["TEMP_SUFFIX", "atomic_file", "atomic_output", "check_output_path", "checked_stdout",
           "format_record",
           "remove_stale_temporaries", "user_cache_dir", "write_bytes_atomic", "write_error",
           "write_stdout"]

#: How every temporary file of an atomic write ends.
TEMP_SUFFIX = ".emprivacy.tmp"

#: Errors of the path itself, which the user chose: exit code 2 (every other one: 1).
_PATH_ERRNOS = frozenset({errno.EISDIR, errno.ENOTDIR, errno.ENOENT, errno.ENAMETOOLONG,
                          errno.ELOOP})

#: At most this many bytes of the destination's name go into a temporary file's name.
_STEM_BYTES = 180

def _read_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: Read once, at import: changing the umask to read it is not thread-safe.
_UMASK = _read_umask()


def user_cache_dir() -> Path:
    """The user cache directory of emprivacy (indexes, fetched corpora).

    ``$EMPRIVACY_CACHE_DIR`` if set, else the platform's user cache directory
    (``platformdirs.user_cache_dir("emprivacy")``: ``$XDG_CACHE_HOME/emprivacy``
    or ``~/.cache/emprivacy`` on Linux, ``~/Library/Caches/emprivacy`` on macOS,
    ``%LOCALAPPDATA%\\emprivacy\\Cache`` on Windows).

    >>> isinstance(user_cache_dir(), Path)
    True
    """
    env = os.environ.get("EMPRIVACY_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    import platformdirs  # only this function of the module needs it

    return Path(platformdirs.user_cache_dir("emprivacy", appauthor=False))


def write_error(exc: OSError, path: str | os.PathLike[str] | None
                ) -> OutputPathError | OutputWriteError:
    """The error to raise for ``exc``, a failure to write ``path`` (``None``: standard output).

    :class:`~emprivacy.exceptions.OutputPathError` for an error of the path itself
    (``EISDIR``, ``ENOTDIR``, ``ENOENT``, ``ENAMETOOLONG``, ``ELOOP``),
    :class:`~emprivacy.exceptions.OutputWriteError` for any other (``ENOSPC``,
    ``EDQUOT``, ``EFBIG``, ``EACCES``, ``EPERM``, ``EROFS``, ``EIO``, ``EBADF``, …).
    The message names the file and the system's reason; ``errno`` is kept.

    >>> str(write_error(OSError(errno.ENOSPC, "No space left on device"), "/x/out.txt"))
    "cannot write output '/x/out.txt': No space left on device"
    """
    reason = exc.strerror or str(exc) or type(exc).__name__
    err: OutputPathError | OutputWriteError
    if path is None:
        err = OutputWriteError(f"cannot write to standard output: {reason}")
    elif exc.errno in _PATH_ERRNOS:
        err = OutputPathError(f"cannot write output {os.fspath(path)!r}: {reason}")
    else:
        err = OutputWriteError(f"cannot write output {os.fspath(path)!r}: {reason}")
    err.errno = exc.errno  # not strerror: str(err) stays the message above
    return err


class _Checked:
    """A file whose failed writes raise :func:`write_error` for ``target``.

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


def check_output_path(path: str | os.PathLike[str], *, probe: bool = False,
                      kind: str = "output") -> Path:
    """Check, before any work, that ``path`` can be written as a file; return it as a Path.

    Raises :class:`~emprivacy.exceptions.OutputPathError` when ``path`` is a
    directory or its directory is missing or not a directory (``kind`` names the
    file in the message: ``"output"``, ``"plot"``).  With ``probe``, also creates
    and removes a temporary file next to it, so that a directory without write
    permission or on a read-only file system fails now, not after a long run
    (:class:`~emprivacy.exceptions.OutputWriteError`).

    >>> check_output_path("/")
    Traceback (most recent call last):
    ...
    emprivacy.exceptions.OutputPathError: cannot write output '/': it is a directory
    """
    dest = Path(path)
    directory = dest.parent  # Path("out.txt").parent is Path(".")
    if dest.is_dir():
        err = OutputPathError(f"cannot write {kind} {str(dest)!r}: it is a directory")
        err.errno = errno.EISDIR
        raise err
    if not directory.is_dir():
        what = "is not a directory" if directory.exists() else "does not exist"
        err = OutputPathError(f"{kind} directory {str(directory)!r} {what}")
        err.errno = errno.ENOTDIR if directory.exists() else errno.ENOENT
        raise err
    if probe:
        fd, tmp = _mkstemp(dest, directory)
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return dest


# -- temporary files ----------------------------------------------------------------------
@lru_cache(maxsize=1)
def _host_token() -> str:
    """8 hex digits naming this machine, its boot and its process-id namespace.

    Two processes see each other's process ids only when their tokens are equal:
    only then may one judge whether the other is still alive.
    """
    parts = [socket.gethostname()]
    with contextlib.suppress(OSError):
        parts.append(Path("/proc/sys/kernel/random/boot_id").read_text().strip())
    with contextlib.suppress(OSError):
        parts.append(str(os.stat("/proc/self/ns/pid").st_ino))
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:8]


def _stem(name: str) -> str:
    """The destination's name as it appears in its temporary files' names (shortened)."""
    return os.fsdecode(os.fsencode(name)[:_STEM_BYTES])


def _mkstemp(dest: Path, directory: Path) -> tuple[int, str]:
    """A new temporary file for ``dest``: ``.<name>.<pid>-<host>.<random>.emprivacy.tmp``."""
    try:
        return tempfile.mkstemp(prefix=f".{_stem(dest.name)}.{os.getpid()}-{_host_token()}.",
                                suffix=TEMP_SUFFIX, dir=directory)
    except OSError as exc:
        raise write_error(exc, dest) from exc


_TEMP_TAIL = re.compile(r"(?P<pid>[0-9]+)-(?P<host>[0-9a-f]{8})\.[a-z0-9_]{8}"
                        + re.escape(TEMP_SUFFIX))


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (in doubt: yes)."""
    if pid <= 0 or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. another user's process: it exists
        return True
    return True


def remove_stale_temporaries(dest: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files of ``dest`` left by killed processes; return their paths.

    Only files named as :func:`atomic_file` names the temporary files *of this
    destination*, created on this machine (same host, boot and process-id
    namespace) by a process that no longer exists, are removed; anything else in
    the directory — other files, other targets' temporary files, those of live
    processes or of other machines sharing the directory — is left alone.  Never
    fails: a directory that cannot be read or a file that cannot be removed is
    skipped.
    """
    target = Path(dest)
    directory = target.parent
    prefix = f".{_stem(target.name)}."
    removed: list[Path] = []
    if os.name != "posix":  # liveness is checked with kill(pid, 0)
        return removed
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
            continue
        match = _TEMP_TAIL.fullmatch(name, len(prefix))
        if match is None or match["host"] != _host_token() or _alive(int(match["pid"])):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


# -- atomic writes ------------------------------------------------------------------------
def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and an atomic rename.

    The file gets the usual permissions (``0666 & ~umask``), not ``mkstemp``'s 0600.
    Errors as :func:`atomic_file`.
    """
    with atomic_file(Path(path), "wb") as fh:
        fh.write(data)


@contextlib.contextmanager
def atomic_file(dest: Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Open ``dest`` for writing through a temporary file renamed into place at the end.

    On any error or interruption the temporary file is removed and ``dest`` is left
    as it was.  ``mode`` is ``"wb"`` or ``"w"`` (UTF-8, ``\\n`` line ends).  Stale
    temporary files of ``dest`` are removed first (:func:`remove_stale_temporaries`).

    Raises
    ------
    OutputPathError
        ``dest`` is a directory, or its directory is missing or not a directory
        (an :class:`~emprivacy.exceptions.OutputError`).
    OutputWriteError
        Creating, writing, syncing or renaming the file failed (full disk, file size
        limit, permission, read-only file system, I/O error).
    """
    dest = check_output_path(dest)
    remove_stale_temporaries(dest)
    fd, tmp = _mkstemp(dest, dest.parent)
    fh: IO[Any] | None = None
    try:
        try:
            os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual permissions
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
            os.replace(tmp, dest)
        except OSError as exc:
            raise write_error(exc, dest) from exc
    except BaseException:
        with contextlib.suppress(OSError):  # the buffer may not fit either: drop it
            if fh is not None:
                fh.close()
            else:
                os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
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
