"""Where an output may be written, and by whom: checked before any work, locked for the run.

An output never replaces what is not a file of its own.  :func:`check_output_path`
refuses, before any work, a directory, a block device, a socket, a dangling
symbolic link or a missing parent directory
(:class:`~emprivacy.exceptions.OutputPathError`, exit code 2); a symbolic link is
followed (its target is written, the link stays a link), and a FIFO or a
character device (:func:`is_stream`) is written in place, never replaced.  With
``probe`` it also creates and removes a temporary file where the output will be
made, so that a place without write permission fails now, not after a long run;
the temporary files of :mod:`emprivacy.io.outputs` are named here
(``.<name>.<pid>-<host>.<random>.emprivacy.tmp``).  :func:`check_not_input`
refuses an output that is also an input (the same file, a hard link, or — for a
directory of Parquet files — one inside the other).

One run per output at a time: a run holds an advisory lock on its output for its
whole duration (:func:`output_lock`: ``flock`` on ``.<name>.emprivacy.lock`` next
to it), so that a second run into the same output refuses instead of both writing.

:func:`write_error` turns a failure to write into the one clear error the user
sees: :class:`~emprivacy.exceptions.OutputPathError` for the path itself,
:class:`~emprivacy.exceptions.OutputWriteError` for the environment.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import socket
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path

from emprivacy.exceptions import OutputError, OutputPathError, OutputWriteError

__all__ = ["LOCK_SUFFIX", "TEMP_SUFFIX", "check_not_input", "check_output_path", "is_stream",
           "output_lock", "write_error"]

#: How every temporary file of an atomic write ends.
TEMP_SUFFIX = ".emprivacy.tmp"
#: How the lock file of an output ends (:func:`output_lock`).
LOCK_SUFFIX = ".emprivacy.lock"

#: Errors of the path itself, which the user chose: exit code 2 (every other one: 1).
_PATH_ERRNOS = frozenset({errno.EISDIR, errno.ENOTDIR, errno.ENOENT, errno.ENAMETOOLONG,
                          errno.ELOOP})

#: At most this many bytes of the destination's name go into a temporary file's name.
_STEM_BYTES = 180


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


# -- what an output may be ----------------------------------------------------------------
def _kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "a special file"


def _path_error(message: str, code: int) -> OutputPathError:
    err = OutputPathError(message)
    err.errno = code
    return err


def _stat(path: Path, kind: str) -> os.stat_result | None:
    """``path``'s status, its symbolic links followed; ``None`` if nothing is there.

    A dangling symbolic link (or a loop of them) is an error of the path.
    """
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        if not path.is_symlink():  # the directory's check says what is missing
            return None
        target = os.readlink(path)
        raise _path_error(f"cannot write {kind} {str(path)!r}: it is a symbolic link to "
                          f"{target!r}, which does not exist", errno.ENOENT) from None
    except OSError as exc:  # ELOOP, ENOTDIR, EACCES, ENAMETOOLONG: the system's reason
        raise write_error(exc, path) from exc


def is_stream(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is (or links to) a FIFO or a character device: an output that is
    written in place, never replaced, and not locked.

    >>> is_stream("/dev/null"), is_stream("/")
    (True, False)
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def _real(dest: Path) -> Path:
    """Where ``dest`` is written: the target of a symbolic link, else ``dest`` itself."""
    return Path(os.path.realpath(dest)) if dest.is_symlink() else dest


def check_output_path(path: str | os.PathLike[str], *, probe: bool = False,
                      kind: str = "output", directory: bool = False) -> Path:
    """Check, before any work, that ``path`` can be written; return it as a Path.

    Raises :class:`~emprivacy.exceptions.OutputPathError` when ``path`` is a
    directory (with ``directory``: when it exists and is not one), a block device
    or a socket, a dangling symbolic link, or its directory is missing or not a
    directory (``kind`` names the file in the message: ``"output"``, ``"plot"``).
    A FIFO or a character device is fine: it is written in place.  With
    ``probe``, also creates and removes a temporary file where the output will be
    made (next to a symbolic link's target; in an existing ``directory``), so
    that a directory without write permission or on a read-only file system fails
    now, not after a long run (:class:`~emprivacy.exceptions.OutputWriteError`).

    >>> check_output_path("/")
    Traceback (most recent call last):
    ...
    emprivacy.exceptions.OutputPathError: cannot write output '/': it is a directory
    """
    dest = Path(path)
    st = _stat(dest, kind)
    if st is not None:
        is_dir = stat.S_ISDIR(st.st_mode)
        if directory and not is_dir:
            raise _path_error(f"cannot write {kind} {str(dest)!r}: it is "
                              f"{_kind_of(st.st_mode)}, not a directory", errno.ENOTDIR)
        if directory:
            if probe:
                fd, tmp = _mkstemp(dest / ".probe", dest)
                os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            return dest
        if is_dir:
            raise _path_error(f"cannot write {kind} {str(dest)!r}: it is a directory",
                              errno.EISDIR)
        if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
            return dest  # written in place: nothing is created next to it
        if not stat.S_ISREG(st.st_mode):
            raise _path_error(f"cannot write {kind} {str(dest)!r}: it is "
                              f"{_kind_of(st.st_mode)}", errno.EINVAL)
    real = _real(dest)
    directory_of = real.parent  # Path("out.txt").parent is Path(".")
    if not directory_of.is_dir():
        what = "is not a directory" if directory_of.exists() else "does not exist"
        raise _path_error(f"{kind} directory {str(directory_of)!r} {what}",
                          errno.ENOTDIR if directory_of.exists() else errno.ENOENT)
    if probe:
        fd, tmp = _mkstemp(real, directory_of, report=dest)
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return dest


def check_not_input(output: str | os.PathLike[str],
                    inputs: Iterable[str | os.PathLike[str]], *,
                    directory: bool = False, within: bool = False,
                    kind: str = "output") -> None:
    """Refuse, before any work, an output that is one of the inputs.

    ``inputs``: every input file — with the files found inside input directories,
    which the caller lists (:func:`emprivacy.io.corpus.expand_inputs`) — and the input
    directories; ``"-"`` is standard input (file descriptor 0).  The output is an
    input when both are the same file after resolving symbolic links, or the same
    inode (a hard link).  With ``directory`` (a Parquet output directory), an output
    inside an input directory, or an input inside the output, is refused too; with
    ``within`` (a directory of reports: ``audit --out``, ``evaluate --out``), an
    output that is or lies inside an input directory.

    Raises
    ------
    OutputError
        Naming the output and the input (exit code 2 on the command line).

    >>> check_not_input("/dev/null", ["/dev/null"])
    Traceback (most recent call last):
    ...
    emprivacy.exceptions.OutputError: output '/dev/null' is also an input ('/dev/null'); \
write the output elsewhere
    """
    out = Path(output)
    try:
        out_stat: os.stat_result | None = os.stat(out)
    except OSError:
        out_stat = None
    out_real = Path(os.path.realpath(out))

    def refuse(reason: str) -> OutputError:
        return OutputError(f"{kind} {str(out)!r} {reason}; write the {kind} elsewhere")

    for item in inputs:
        given = os.fspath(item)
        try:
            st = os.fstat(0) if given == "-" else os.stat(given)
        except OSError:
            continue  # not there (yet): the reader says so
        if given == "-":
            if out_stat is not None and stat.S_ISREG(st.st_mode) \
                    and (st.st_dev, st.st_ino) == (out_stat.st_dev, out_stat.st_ino):
                raise refuse("is also the input (standard input is read from it)")
            continue
        real = Path(os.path.realpath(given))
        if stat.S_ISDIR(st.st_mode):
            if (directory or within) and out_real == real:
                raise refuse(f"is also an input (directory {given!r})")
            if (directory or within) and out_real.is_relative_to(real):
                raise refuse(f"is inside input directory {given!r}")
            if directory and real.is_relative_to(out_real):
                raise refuse(f"holds input directory {given!r}")
            continue
        if real == out_real or (out_stat is not None and (st.st_dev, st.st_ino)
                                == (out_stat.st_dev, out_stat.st_ino)):
            raise refuse(f"is also an input ({given!r})")
        if directory and real.is_relative_to(out_real):
            raise refuse(f"holds input {given!r}")


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


def _mkstemp(dest: Path, directory: Path, *, report: Path | None = None) -> tuple[int, str]:
    """A new temporary file for ``dest``: ``.<name>.<pid>-<host>.<random>.emprivacy.tmp``
    (mode 0600); an error names ``report`` (default ``dest``)."""
    try:
        return tempfile.mkstemp(prefix=f".{_stem(dest.name)}.{os.getpid()}-{_host_token()}.",
                                suffix=TEMP_SUFFIX, dir=directory)
    except OSError as exc:
        raise write_error(exc, dest if report is None else report) from exc


# -- one run per output -------------------------------------------------------------------
#: Locks this process holds: (lock file, thread) -> how many times it was taken.
_HELD: dict[tuple[str, int], int] = {}
_HELD_GUARD = threading.Lock()


def _lock_path(dest: Path) -> Path:
    """``.<name>.emprivacy.lock`` next to ``dest`` (next to a symbolic link's target)."""
    real = Path(os.path.realpath(dest))
    return real.with_name(f".{_stem(real.name)}{LOCK_SUFFIX}")


def _open_lock(lock: Path, dest: Path, kind: str) -> int | None:
    """Open ``lock`` (empty, 0600) and take its ``flock``; the descriptor (``None``: no locks).

    The file may be removed by a holder that has just finished; a lock taken on a
    removed file is worthless, so it is taken again on the file now at that path.
    """
    import fcntl

    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    while True:
        try:
            fd = os.open(lock, flags, 0o600)
        except OSError as exc:
            raise write_error(exc, lock) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OutputError(f"{kind} {str(dest)!r} is being written by another emprivacy "
                              "run; wait for it to finish, or choose another output") from None
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                return None  # a file system without locks: run as before
            raise write_error(exc, lock) from exc
        try:
            here = os.stat(lock, follow_symlinks=False)
            mine = os.fstat(fd)
            if (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino):
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    return fd


@contextlib.contextmanager
def output_lock(path: str | os.PathLike[str], *, kind: str = "output") -> Iterator[None]:
    """Hold an advisory lock on the output ``path`` for the duration of the block.

    The lock is ``flock(LOCK_EX | LOCK_NB)`` on ``.<name>.emprivacy.lock`` (mode 0600)
    next to ``path`` — next to a symbolic link's target, beside a directory — removed
    at the end.  A second run into the same output (another process, or another
    thread) raises :class:`~emprivacy.exceptions.OutputError` naming it, instead of
    both writing.  The kernel releases the lock of a killed process, so a lock file
    left behind never blocks: only the lock counts.  Taking the lock again in the
    same thread (the command line, then the library) is allowed.  Nothing is locked
    for a FIFO or a character device (written in place), nor on a system without
    ``flock``.

    Raises
    ------
    OutputError
        Another run holds the lock.
    OutputWriteError
        The lock file cannot be created (read-only place, no permission).
    """
    dest = Path(path)
    if os.name != "posix" or is_stream(dest):
        yield
        return
    lock = _lock_path(dest)
    key = (str(lock), threading.get_ident())
    with _HELD_GUARD:
        if key in _HELD:
            _HELD[key] += 1
            fd = None
            nested = True
        else:
            nested = False
    if not nested:
        fd = _open_lock(lock, dest, kind)
        with _HELD_GUARD:
            _HELD[key] = 1
    try:
        yield
    finally:
        with _HELD_GUARD:
            _HELD[key] -= 1
            last = _HELD[key] == 0
            if last:
                del _HELD[key]
        if not nested and fd is not None:
            with contextlib.suppress(OSError):
                os.unlink(lock)  # while still holding it: the next run makes its own
            os.close(fd)
