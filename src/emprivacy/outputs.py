"""Writing outputs: atomically, and never half-written.

An output file is written to a temporary file in the same directory and renamed
over the destination only when everything has been written (``os.replace`` is
atomic on POSIX); an interrupted or failed run removes the temporary file and
leaves any previous output untouched.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, TextIO

from .exceptions import OutputError

__all__ = ["atomic_file", "atomic_output", "format_record", "user_cache_dir",
           "write_bytes_atomic"]


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


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and an atomic rename.

    The file gets the usual permissions (``0666 & ~umask``), not ``mkstemp``'s 0600.
    """
    with atomic_file(Path(path), "wb") as fh:
        fh.write(data)


@contextlib.contextmanager
def atomic_file(dest: Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """Open ``dest`` for writing through a temporary file renamed into place at the end.

    On any error or interruption the temporary file is removed and ``dest`` is left
    as it was.  ``mode`` is ``"wb"`` or ``"w"`` (UTF-8, ``\\n`` line ends).
    """
    directory = dest.parent if str(dest.parent) else Path(".")
    if not directory.is_dir():
        raise OutputError(f"output directory {str(directory)!r} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=directory)
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual permissions
        kwargs: dict[str, Any] = {} if "b" in mode else {"encoding": "utf-8", "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str] | None, *, stdout: TextIO | None = None
                  ) -> Iterator[TextIO]:
    """Open ``path`` for writing text atomically (``None`` or ``"-"``: standard output)."""
    if path is None or str(path) == "-":
        yield stdout if stdout is not None else sys.stdout
        return
    with atomic_file(Path(path), "w") as fh:
        yield fh  # type: ignore[misc]


def format_record(record: dict[str, Any], fmt: str) -> str:
    """One output line: a JSON object (``jsonl``), the noisy words (``bag``) or the text."""
    if fmt == "jsonl":
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if fmt == "bag":
        return " ".join(record["bag"])
    if fmt == "text":
        return record["text"]
    raise ValueError(f"format must be one of 'bag', 'jsonl', 'text'; got {fmt!r}")
