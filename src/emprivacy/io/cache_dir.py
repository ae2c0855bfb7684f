"""The user cache directory of emprivacy (parsed embeddings, decoding indexes, fetched
corpora), and why it cannot be used, in words.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir_problem", "user_cache_dir"]


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


def cache_dir_problem(directory: Path, exc: OSError) -> str:
    """Why the cache directory ``directory`` could not be made or written, in words.

    When a part of its path is a file (``$EMPRIVACY_CACHE_DIR`` set to a file, say),
    the system says only ``File exists`` or ``Not a directory``: this names the part
    instead.  Otherwise ``exc``'s own reason.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile() as f:
    ...     why = cache_dir_problem(Path(f.name) / "embeddings", FileExistsError(17, "x"))
    ...     why == repr(f.name) + " is a file, not a directory"
    True
    """
    env = os.environ.get("EMPRIVACY_CACHE_DIR")
    for part in (directory, *directory.parents):
        if os.path.lexists(part):
            if os.path.isdir(part):
                break
            what = "a file" if os.path.isfile(part) else "not a directory"
            named = (" (EMPRIVACY_CACHE_DIR)" if env and Path(env).expanduser() == part
                     else "")
            return f"{str(part)!r}{named} is {what}" + (", not a directory"
                                                        if what == "a file" else "")
    return exc.strerror or str(exc)
