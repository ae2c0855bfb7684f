"""The on-disk cache of the approximate decoder's indexes.

An index and its calibrated search parameters are cached, keyed by the
embeddings' :attr:`~emprivacy.Embeddings.fingerprint` and the index parameters,
in ``cache_dir`` (default: ``$EMPRIVACY_CACHE_DIR``, else
``$XDG_CACHE_HOME/emprivacy``, else ``~/.cache/emprivacy``).  Cache files are
written atomically and verified (fingerprint, parameters, SHA-256 of the index
bytes and the search parameters) on load; a corrupt or mismatching file is
rebuilt with an :class:`~emprivacy.exceptions.IndexCacheWarning`, never used.

A cache file is an ``.npz`` archive of two uint8 arrays: ``index``, the
serialised index, and ``meta``, UTF-8 JSON ``{"fingerprint", "params", "sha256",
"search"}``.  This module handles bytes and JSON only; what the index and the
search parameters are is the decoder's business.
"""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from emprivacy.exceptions import IndexCacheWarning
from emprivacy.io.cache_dir import cache_dir_problem, user_cache_dir
from emprivacy.io.outputs import atomic_file

__all__ = [
    "INDEX_FORMAT_VERSION",
    "cache_file",
    "checksum",
    "default_cache_dir",
    "load_or_build",
    "read_index",
    "write_index",
]

#: Bumped whenever the index layout or the calibration changes: old cache files are ignored.
INDEX_FORMAT_VERSION = 8


def default_cache_dir() -> Path:
    """Where indexes are cached: :func:`emprivacy.io.cache_dir.user_cache_dir`.

    >>> isinstance(default_cache_dir(), Path)
    True
    """
    return user_cache_dir()


def cache_file(cache_dir: Path | None, fingerprint: str, params: dict[str, Any]) -> Path:
    """``ivf-<fingerprint>-<hash of the parameters>.npz`` in ``cache_dir`` (default
    :func:`default_cache_dir`).

    >>> cache_file(Path("/c"), "ab" * 32, {"nlist": 8}).as_posix()
    '/c/ivf-abababababababababababab-0958cb1f24e3.npz'
    """
    key = hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:12]
    base = cache_dir if cache_dir is not None else default_cache_dir()
    return base / f"ivf-{fingerprint[:24]}-{key}.npz"


def checksum(blob: np.ndarray, search: dict[str, Any]) -> str:
    """SHA-256 of the index bytes and the calibrated search parameters together."""
    digest = hashlib.sha256(blob.tobytes())
    digest.update(json.dumps(search, sort_keys=True).encode())
    return digest.hexdigest()


def write_index(path: Path, blob: np.ndarray, *, fingerprint: str, params: dict[str, Any],
                search: dict[str, Any]) -> None:
    """Write a serialised index ``blob`` and its search parameters to ``path``, atomically."""
    meta = {"fingerprint": fingerprint, "params": params,
            "sha256": checksum(blob, search), "search": search}
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(path, "wb") as fh:
        np.savez(fh, index=blob, meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))


def read_index(path: Path, *, fingerprint: str,
               params: dict[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
    """The serialised index and the search parameters stored in ``path``.

    Raises
    ------
    ValueError
        If the file was written for other embeddings or other parameters, or its
        checksum does not match (any other error reading it propagates too).
    """
    with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as data:
        meta = json.loads(data["meta"].tobytes().decode())
        blob = data["index"]
    if meta.get("fingerprint") != fingerprint:
        raise ValueError("it was built for other embeddings")
    if meta.get("params") != params:
        raise ValueError("it was built with other parameters")
    search = meta.get("search")
    if not isinstance(search, dict) or checksum(blob, search) != meta.get("sha256"):
        raise ValueError("checksum mismatch")
    return blob, search


def load_or_build(path: Path, *, load: Callable[[Path], None], build: Callable[[], None],
                  save: Callable[[Path], None], stacklevel: int) -> tuple[bool, float]:
    """``load(path)`` if the file exists and loads; else ``build()``, then ``save(path)``.

    Any failure to load means the file is not trusted: an :class:`IndexCacheWarning`
    and a rebuild.  A failure to write (:class:`OSError`) is a warning too: the index
    is used, and rebuilt next time.  ``stacklevel`` is that of the warnings, counted
    from this function.  Returns whether the index was loaded, and the seconds spent
    loading it or building it (saving not included).
    """
    if path.exists():
        t0 = time.perf_counter()
        try:
            load(path)
        except Exception as exc:  # any failure to read means: do not trust it
            warnings.warn(f"the cached decoding index {str(path)!r} is unusable ({exc}); "
                          "rebuilding it", IndexCacheWarning, stacklevel=stacklevel)
        else:
            return True, time.perf_counter() - t0
    t0 = time.perf_counter()
    build()
    build_seconds = time.perf_counter() - t0
    try:
        save(path)
    except OSError as exc:
        warnings.warn(f"could not write the decoding index cache {str(path)!r}: "
                      f"{cache_dir_problem(path.parent, exc)}; the index will be rebuilt "
                      "next time", IndexCacheWarning,
                      stacklevel=stacklevel)
    return False, build_seconds
