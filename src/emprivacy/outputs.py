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

What the destination already is decides how it is written:

* a regular file, or nothing yet: replaced atomically, as above;
* a symbolic link: followed; its target is replaced atomically (the temporary
  file is made in the target's directory) and the link stays a link.  A dangling
  link is an error of the path;
* a FIFO or a character device (``/dev/null``, ``>(gzip > out.gz)``, a
  terminal): opened and written in place, never replaced, as every Unix tool
  does.  A block device or a socket is refused.

An output that is also an input is refused before any work
(:func:`check_not_input`), and a run holds an advisory lock on its output for its
whole duration (:func:`output_lock`: ``flock`` on ``.<name>.emprivacy.lock`` next
to it), so that a second run into the same output refuses instead of both writing.

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
import hashlib
import json
import os
import re
import socket
import stat
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, TextIO, cast

from .exceptions import OutputError, OutputPathError, OutputWriteError

__all__ = ["LOCK_SUFFIX", "TEMP_SUFFIX", "atomic_file", "atomic_output", "check_not_input",
           "check_output_path", "checked_stdout", "format_record", "is_stream",
           "output_lock", "remove_stale_temporaries", "user_cache_dir", "write_bytes_atomic",
           "write_error", "write_stdout"]

#: How every temporary file of an atomic write ends.
TEMP_SUFFIX = ".emprivacy.tmp"
#: How the lock file of an output ends (:func:`output_lock`).
LOCK_SUFFIX = ".emprivacy.lock"

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
                    directory: bool = False, kind: str = "output") -> None:
    """Refuse, before any work, an output that is one of the inputs.

    ``inputs``: every input file — with the files found inside input directories,
    which the caller lists (:func:`emprivacy.corpus.expand_inputs`) — and the input
    directories; ``"-"`` is standard input (file descriptor 0).  The output is an
    input when both are the same file after resolving symbolic links, or the same
    inode (a hard link).  With ``directory`` (a Parquet output directory), an output
    inside an input directory, or an input inside the output, is refused too.

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
            if directory and out_real == real:
                raise refuse(f"is also an input (directory {given!r})")
            if directory and out_real.is_relative_to(real):
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
    temporary files of ``dest`` are removed first (:func:`remove_stale_temporaries`).
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
    fd, tmp = _mkstemp(real, real.parent, report=dest)
    fh: IO[Any] | None = None
    try:
        try:
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
        _drop(fh, fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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
