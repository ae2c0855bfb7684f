"""A memory-mapped cache of parsed embeddings files (issue 17).

Parsing a 400k × 300 text file takes tens of seconds; loading its vectors again
from a ``.npy`` file mapped into memory takes well under a second, and the pages
are shared by every process that maps them (the workers of one machine).
:func:`emprivacy.load_embeddings` goes through :func:`load_cached` for files
(``cache=True``, the default); the built-in embeddings are a ``.npy`` already.

Where
    ``embeddings/`` in :func:`emprivacy.io.cache_dir.user_cache_dir`
    (``$EMPRIVACY_CACHE_DIR``, else the platform's user cache directory).  The
    directory is created 0700 and every file in it is 0600: the cache is the user's.

What
    One entry per file *and* parse options, named by a hash of the resolved path,
    the format, the encoding (its canonical name) and ``vocab_size``:

    * ``<name>.npy`` — the kept vectors, float32, C order (``np.load(mmap_mode="r")``);
    * ``<name>.words.json`` — the kept words, a JSON list (any Unicode, even a newline);
    * ``<name>.meta.json`` — the key, the shape, the dtype, CRC-32 checksums of the
      two files' contents, and the repeated words the file holds, so that a cached
      load warns of them exactly as a fresh one does;
    * ``<name>.lock`` — the lock (``flock``) of the entry.

    ``vocab_size`` is part of the key, rather than caching the whole file and
    selecting afterwards, so that a cached load behaves *exactly* as a fresh one:
    a fresh read with ``vocab_size`` stops at the last word needed, so the repeated
    words it warns about, and the malformed rows or wrong header it reports, are
    those of the rows it read — not of the whole file — and the first load stays
    as fast as without the cache.  The price: one entry per ``vocab_size`` used.

The key: which file is this?
    The file's resolved path, size, modification time (``st_mtime_ns``), status
    change time (``st_ctime_ns``, which ``os.utime`` cannot set back: any write,
    ``chmod`` or rename moves it), inode (a file replaced by a copy, even one keeping
    its timestamps, ``cp -p``) and the SHA-256 of its first and of its last MiB (the
    whole file, below 2 MiB).  An entry whose key does not match is *stale*: the file
    is read again and the entry replaced, with one :class:`UserWarning` (also after
    a mere ``chmod``: a re-read, never a wrong vector).  **The documented limit**: a
    change that leaves all of these alone — only possible by resetting the system
    clock, or on a file system without status change times — is not noticed;
    remove the entry (or the directory) by hand, or pass ``cache=False``.  A file
    that changes while it is being read is read but not cached.

Only a private directory is trusted
    The cache is used only when its directory belongs to the user and no one else
    may write in it (made so if it is the user's; the entry files must be the user's
    regular files, not links).  Otherwise — ``$EMPRIVACY_CACHE_DIR`` pointing at a
    shared place, a directory made by someone else — one :class:`UserWarning` says
    so and the file is read without the cache: anyone who could write an entry
    could otherwise choose the vectors, and with them what the mechanism releases.

Verified on load
    The metadata must parse and match the key; the ``.npy`` must be float32,
    C-ordered, of the recorded shape and as long as its header says (a truncated
    file does not map); the words must be as many as the rows; and the CRC-32 of
    the vector bytes and of the words file must match.  CRC-32 catches every
    accidental corruption of a few bytes (a flipped bit, a truncation, a garbled
    block); it is not a defence against someone who can write in the user's own
    cache directory.  It costs 0.17–0.24 s for 480 MB (400k × 300) on the 2-core
    benchmark machine; the whole cached load of that file takes 0.56–0.71 s
    (``benchmarks/embeddings_load.py``).  An entry that fails any check is
    *corrupt*: rebuilt, with one :class:`UserWarning`, never used.

Writes and concurrent loads
    Each file is written to a temporary file in the same directory (``mkstemp``:
    0600) and renamed over its name (``os.replace``), the metadata last.  Loading
    holds a shared ``flock`` on the entry's lock file while checking it, and an
    exclusive one while parsing and writing; so two processes loading the same
    file at once parse it once, and a reader never sees a half-written entry.  A
    replaced entry never changes the files already mapped (a rename makes a new
    file; the old one lives on while mapped).  Without ``fcntl`` (Windows) there
    is no lock: the renames still keep every file whole, and a mismatch between
    the three files is taken for a corrupt entry.  A failure to write the cache
    (full disk, read-only directory) is one :class:`UserWarning`: the embeddings
    are used, and parsed again next time.  Files are not ``fsync``'ed: an entry
    cut short by a crash fails its checksum and is rebuilt.

Clean-up
    Whenever an entry is written, the entries of files that no longer exist are
    removed (those not in use: their lock is free).  Nothing else is ever removed:
    the entries of files that still exist stay until the directory is removed by
    hand (it is a cache: removing it at any time is safe).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
import warnings
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from emprivacy.embeddings.files import ParsedFile
from emprivacy.io.cache_dir import cache_dir_problem, user_cache_dir

__all__ = ["CACHE_FORMAT_VERSION", "cache_directory", "entry_paths", "file_key",
           "load_cached"]

#: Bumped whenever the layout of an entry changes: older entries are rebuilt.
CACHE_FORMAT_VERSION = 1

_MIB = 1 << 20
_DTYPE = "<f4"


def cache_directory() -> Path:
    """``embeddings/`` in :func:`emprivacy.io.cache_dir.user_cache_dir`.

    >>> cache_directory().name
    'embeddings'
    """
    return user_cache_dir() / "embeddings"


def file_key(path: Path) -> dict[str, Any]:
    """The identity of a file: resolved path, size, ``st_mtime_ns``, ``st_ctime_ns``,
    inode, SHA-256 of the first and last MiB."""
    resolved = path.resolve()
    with open(resolved, "rb") as fh:
        st = os.fstat(fh.fileno())
        head = hashlib.sha256(fh.read(_MIB)).hexdigest()
        if st.st_size > _MIB:
            fh.seek(max(_MIB, st.st_size - _MIB))
            tail = hashlib.sha256(fh.read(_MIB)).hexdigest()
        else:
            tail = head
    return {"path": str(resolved), "size": st.st_size, "mtime_ns": st.st_mtime_ns,
            "ctime_ns": st.st_ctime_ns, "inode": st.st_ino,
            "head_sha256": head, "tail_sha256": tail}


def entry_paths(path: Path, fmt: str, vocab_size: int | None, encoding: str,
                directory: Path | None = None) -> dict[str, Path]:
    """The files of the cache entry of ``path`` read with these options:
    ``{"vectors", "words", "meta", "lock"}``."""
    import codecs

    options = {"path": str(path.resolve()), "format": fmt, "vocab_size": vocab_size,
               "encoding": codecs.lookup(encoding).name, "version": CACHE_FORMAT_VERSION}
    name = hashlib.sha256(json.dumps(options, sort_keys=True).encode()).hexdigest()[:32]
    base = cache_directory() if directory is None else directory
    return {"vectors": base / f"{name}.npy", "words": base / f"{name}.words.json",
            "meta": base / f"{name}.meta.json", "lock": base / f"{name}.lock"}


def _crc32(data: Any) -> int:
    return zlib.crc32(memoryview(data).cast("B"))


# -- locking ------------------------------------------------------------------------------
def _lock_fd(lock: Path, exclusive: bool, *, wait: bool = True) -> int | None:
    """A descriptor of ``lock`` (created 0600) holding its ``flock``; ``None`` when there is
    no lock to be had (no ``fcntl``, a read-only directory; or busy, without ``wait``).

    The lock file of an entry is removed with the entry (:func:`_prune`, under the
    lock): a lock taken on a file that is no longer at ``lock`` is taken again.
    """
    try:
        import fcntl
    except ImportError:  # Windows: the atomic renames alone
        return None
    mode = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB)
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except OSError:  # e.g. a read-only cache directory: reading it is still safe
            return None
        try:
            fcntl.flock(fd, mode)
        except OSError:  # busy (without wait), or no locks on this file system
            os.close(fd)
            return None
        try:
            same = os.stat(lock).st_ino == os.fstat(fd).st_ino
        except OSError:
            same = False
        if same:
            return fd
        os.close(fd)  # removed meanwhile: lock the file now at ``lock``


@contextlib.contextmanager
def _locked(lock: Path, exclusive: bool) -> Iterator[None]:
    """Hold ``flock`` on ``lock`` (:func:`_lock_fd`) for the block."""
    fd = _lock_fd(lock, exclusive)
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


def _prune(directory: Path, keep: Path) -> None:
    """Remove the entries of files that no longer exist (never one in use); never fails."""
    try:
        metas = [m for m in directory.glob("*.meta.json") if m != keep]
    except OSError:
        return
    for meta in metas:
        try:
            source = json.loads(meta.read_bytes())["key"]["path"]
            if not isinstance(source, str):
                continue
            os.stat(source)
            continue  # still there (or unreachable just now: kept)
        except FileNotFoundError:
            pass  # gone for sure: its entry goes
        except (OSError, ValueError, KeyError, TypeError):
            continue  # unreadable or garbled: rebuilt, if its file is ever loaded again
        stem = meta.name.removesuffix(".meta.json")
        lock = directory / f"{stem}.lock"
        fd = _lock_fd(lock, exclusive=True, wait=False)
        if fd is None:
            continue  # being read or written: left alone
        try:
            for name in (meta.name, f"{stem}.npy", f"{stem}.words.json", lock.name):
                with contextlib.suppress(OSError):
                    os.unlink(directory / name)
        finally:
            os.close(fd)


# -- reading and checking an entry --------------------------------------------------------
class _Corrupt(Exception):
    """An entry that must not be used; the message says why (a few words)."""


class _Stale(_Corrupt):
    """An entry written for an earlier version of the file."""


def _read_entry(files: dict[str, Path], key: dict[str, Any]) -> ParsedFile | None:
    """The entry's contents, ``None`` if there is none; :class:`_Corrupt` if it fails a check."""
    try:
        raw = files["meta"].read_bytes()
    except FileNotFoundError:
        return None  # never written, or a write cut short before its last rename
    except OSError as exc:
        raise _Corrupt(f"its metadata cannot be read ({exc.strerror})") from None
    try:
        meta = json.loads(raw.decode("utf-8"))
        stored_key, shape = meta["key"], tuple(meta["shape"])
        crc_vectors, crc_words = int(meta["crc32_vectors"]), int(meta["crc32_words"])
        dtype, dups = meta["dtype"], meta["duplicates"]
        duplicates = None if dups is None else (int(dups[0]), str(dups[1]), int(dups[2]))
        rows = int(meta["rows"])
    except (ValueError, KeyError, TypeError, IndexError):
        raise _Corrupt("its metadata is garbled") from None
    if stored_key != key:
        raise _Stale("the file changed since it was cached")
    if dtype != _DTYPE or len(shape) != 2:
        raise _Corrupt("its metadata is garbled")
    try:
        vectors = np.load(files["vectors"], mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:  # missing, truncated, not a .npy
        raise _Corrupt(f"its vectors cannot be read ({exc})") from None
    if vectors.shape != shape or vectors.dtype != np.dtype(_DTYPE) \
            or not vectors.flags.c_contiguous:
        raise _Corrupt("its vectors do not have the recorded shape or type")
    try:
        data = files["words"].read_bytes()
        words = json.loads(data.decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise _Corrupt(f"its words cannot be read ({exc})") from None
    if not isinstance(words, list) or len(words) != shape[0] \
            or not all(isinstance(w, str) for w in words):
        raise _Corrupt("its words do not match its vectors")
    if _crc32(data) != crc_words or _crc32(vectors) != crc_vectors:
        raise _Corrupt("its checksum does not match")
    return ParsedFile(words, vectors, rows, duplicates)


# -- writing an entry ---------------------------------------------------------------------
def _private_directory(directory: Path) -> None:
    """Create ``directory`` with mode 0700 (its parent too, the user cache, if it is missing);
    make it 0700 if it is ours."""
    directory.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    directory.mkdir(mode=0o700, exist_ok=True)
    st = directory.stat()
    if st.st_mode & 0o077 and st.st_uid == os.getuid():
        os.chmod(directory, 0o700)


def _untrusted(directory: Path) -> str | None:
    """Why ``directory`` (which exists) may not hold the cache, or ``None`` if it may: it
    must be a directory of this user that no one else can write in."""
    st = directory.stat()
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a directory"
    if st.st_uid != os.getuid():
        return f"it belongs to user id {st.st_uid}, not to you"
    if st.st_mode & 0o022:
        return "others may write in it"
    return None


def _untrusted_files(files: dict[str, Path]) -> str | None:
    """Why an entry's existing files may not be read (not this user's regular files)."""
    for name in ("meta", "vectors", "words", "lock"):
        try:
            st = os.lstat(files[name])
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
            return f"{files[name].name} is not a regular file of yours"
    return None


def _write_atomic(target: Path, write: Callable[[Any], None]) -> None:
    """``write(fh)`` to a 0600 temporary file next to ``target``, renamed over it."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_entry(files: dict[str, Path], key: dict[str, Any], parsed: ParsedFile) -> None:
    vectors = np.ascontiguousarray(parsed.vectors, dtype=_DTYPE)
    words = json.dumps(parsed.words, ensure_ascii=False).encode("utf-8")
    meta = {"version": CACHE_FORMAT_VERSION, "key": key, "shape": list(vectors.shape),
            "dtype": _DTYPE, "rows": parsed.rows, "crc32_vectors": _crc32(vectors),
            "crc32_words": _crc32(words),
            "duplicates": None if parsed.duplicates is None else list(parsed.duplicates)}
    _write_atomic(files["vectors"], lambda fh: np.save(fh, vectors, allow_pickle=False))
    _write_atomic(files["words"], lambda fh: fh.write(words))
    _write_atomic(files["meta"], lambda fh: fh.write(json.dumps(meta).encode("utf-8")))


def load_cached(path: Path, fmt: str, *, vocab_size: int | None, encoding: str,
                read: Callable[[Path, str, int | None, str], ParsedFile],
                stacklevel: int = 1) -> ParsedFile:
    """``read(path, fmt, vocab_size, encoding)``, through the cache.

    Returns the cached entry when it is there and sound (its vectors a read-only
    memory map); else reads the file and caches what was read, unless it holds
    no real word or a value that is not finite (the caller reports those).
    Warnings (a stale or corrupt entry rebuilt, a cache that cannot be written)
    are one :class:`UserWarning` each, ``stacklevel`` counted from the caller.
    """
    directory = cache_directory()
    files = entry_paths(path, fmt, vocab_size, encoding, directory)
    try:
        key = file_key(path)
    except OSError:  # unreadable: the reader says so, in one line naming the file
        return read(path, fmt, vocab_size, encoding)
    level = stacklevel + 1
    try:
        _private_directory(directory)
        why_not = _untrusted(directory) or _untrusted_files(files)
    except OSError as exc:
        warnings.warn(f"cannot create the embeddings cache {str(directory)!r}: "
                      f"{cache_dir_problem(directory, exc)}; reading {str(path)!r} without "
                      "it", UserWarning, stacklevel=level)
        return read(path, fmt, vocab_size, encoding)
    if why_not is not None:
        warnings.warn(f"the embeddings cache {str(directory)!r} is not private ({why_not}); "
                      f"reading {str(path)!r} without it", UserWarning, stacklevel=level)
        return read(path, fmt, vocab_size, encoding)
    if files["meta"].exists():  # a first load takes the exclusive lock straight away
        try:
            with _locked(files["lock"], exclusive=False):
                found = _read_entry(files, key)
            if found is not None:
                return found
        except _Corrupt:
            pass  # checked again under the exclusive lock: another process may mend it
    with _locked(files["lock"], exclusive=True):
        why = None
        try:
            found = _read_entry(files, key)
            if found is not None:
                return found
        except _Corrupt as exc:
            why = str(exc)
        if why is not None:
            what = "stale" if why.startswith("the file changed") else "corrupt"
            warnings.warn(f"the cached copy of embeddings file {str(path)!r} is {what} "
                          f"({why}); reading the file again", UserWarning, stacklevel=level)
        parsed = read(path, fmt, vocab_size, encoding)
        if not parsed.words or not np.isfinite(parsed.vectors).all() \
                or file_key(path) != key:  # reported by the caller / changed while read
            return parsed
        try:
            _write_entry(files, key, parsed)
            _prune(directory, files["meta"])
        except OSError as exc:
            warnings.warn(f"cannot write the embeddings cache in {str(directory)!r} "
                          f"({exc.strerror or exc}); the embeddings are read from "
                          f"{str(path)!r} each time", UserWarning, stacklevel=level)
        return parsed
