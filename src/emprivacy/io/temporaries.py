"""The temporary files that atomic writes leave behind when their process is killed:
recognised by their names, and removed once their process is known to be gone.

A temporary file is named ``.<name>.<pid>-<host>.<random>.emprivacy.tmp``
(:mod:`emprivacy.io.output_paths` makes it; ``<host>``: a short digest of the machine and
its process namespace), so it is never mistaken for an output.  Only this machine's
temporary files (same host, boot and process-id namespace) of processes that no longer
exist are removed: those of live processes, or of other machines sharing the directory,
are left alone.  :mod:`emprivacy.io.outputs` removes the stale temporary files of a
destination before each atomic write of it.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

from emprivacy.io.output_paths import TEMP_SUFFIX, _host_token, _stem

__all__ = ["remove_own_temporaries", "remove_stale_temporaries", "remove_stale_temporaries_in",
           "temporary_destination"]

#: A temporary file's name after ``.<name>.``: its process, its machine, its random part.
_TEMP_TAIL = re.compile(r"(?P<pid>[0-9]+)-(?P<host>[0-9a-f]{8})\.[a-z0-9_]{8}"
                        + re.escape(TEMP_SUFFIX))
#: A temporary file's name after its leading dot, whatever its destination.
_ANY_TEMP = re.compile(r"(?P<dest>.+)\." + _TEMP_TAIL.pattern)


def temporary_destination(name: str) -> str | None:
    """The name of the file that the temporary file ``name`` was made for (shortened to
    its first bytes for a long name), or ``None`` if ``name`` is not a temporary file's.

    >>> temporary_destination(".out.jsonl.812-0a1b2c3d.x_7k2m9q.emprivacy.tmp")
    'out.jsonl'
    >>> temporary_destination("out.jsonl") is None
    True
    """
    match = _ANY_TEMP.fullmatch(name, 1) if name.startswith(".") else None
    return None if match is None else match["dest"]


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

    Only files named as :func:`~emprivacy.io.outputs.atomic_file` names the temporary files *of this
    destination*, created on this machine (same host, boot and process-id
    namespace) by a process that no longer exists, are removed; anything else in
    the directory — other files, other targets' temporary files, those of live
    processes or of other machines sharing the directory — is left alone.  Never
    fails: a directory that cannot be read or a file that cannot be removed is
    skipped.
    """
    target = Path(dest)
    return _remove_stale(target.parent, f".{_stem(target.name)}.", any_name=False)


def remove_own_temporaries(dest: str | os.PathLike[str]) -> list[Path]:
    """Remove this process's temporary files of ``dest``; return their paths.

    For a write stopped (Ctrl-C, SIGTERM) after ``mkstemp`` created its file but before it
    returned the name: the name is known only by its pattern (``.<name>.<pid>-<host>.…``).
    One process writes one destination at a time (its lock), so every such file is the
    stopped write's.  Never fails.
    """
    target = Path(dest)
    prefix = f".{_stem(target.name)}.{os.getpid()}-{_host_token()}."
    removed: list[Path] = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        if entry.name.startswith(prefix) and entry.name.endswith(TEMP_SUFFIX):
            with contextlib.suppress(OSError):
                if entry.is_file(follow_symlinks=False):
                    os.unlink(entry.path)
                    removed.append(Path(entry.path))
    return removed


def remove_stale_temporaries_in(directory: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files of every destination in ``directory`` left by killed
    processes (as :func:`remove_stale_temporaries`, whatever file they were for).

    For a directory whose files are all written by emprivacy runs holding its lock
    (a corpus run's partition directory): what a worker killed mid-write left.
    """
    return _remove_stale(Path(directory), ".", any_name=True)


def _remove_stale(directory: Path, prefix: str, *, any_name: bool) -> list[Path]:
    """The stale temporary files in ``directory`` whose names start with ``prefix``:
    followed by the tail of a temporary name (``any_name``: after any destination's
    name, ``<name>.``, too), removed."""
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
        match = (_ANY_TEMP if any_name else _TEMP_TAIL).fullmatch(name, len(prefix))
        if match is None or match["host"] != _host_token() or _alive(int(match["pid"])):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed
