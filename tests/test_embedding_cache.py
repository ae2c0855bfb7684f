"""The memory-mapped cache of parsed embeddings files (issue 17).

Every test points ``$EMPRIVACY_CACHE_DIR`` at its own ``tmp_path``: nothing touches
the user's cache.
"""

from __future__ import annotations

import json
import mmap
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import emprivacy.embeddings.model as embeddings_module
from emprivacy import EmbeddingsFormatError, load_embeddings
from emprivacy.embeddings.cache import cache_directory, entry_paths, load_cached
from emprivacy.embeddings.files import ParsedFile, read_file
from emprivacy.text.tokens import is_word

MIB = 1 << 20


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache directory of the test (``$EMPRIVACY_CACHE_DIR``), not created yet."""
    root = tmp_path / "user-cache"
    monkeypatch.setenv("EMPRIVACY_CACHE_DIR", str(root))
    return root / "embeddings"


def _word(k: int) -> str:
    letters = []
    while True:
        letters.append(chr(ord("a") + k % 26))
        k //= 26
        if not k:
            return "".join(letters)


def write_glove(path: Path, n: int, dim: int, *, seed: int = 0, spaced: int = 0,
                repeat: bool = False) -> np.ndarray:
    """A GloVe text file of ``n`` real words (``%.5f``); one row in ``spaced`` holds a word
    with a space; with ``repeat`` the last row repeats the first word.  Returns the
    float32 vectors of the real words as written."""
    gen = np.random.default_rng(seed)
    values = np.round(gen.normal(0, 0.4, (n, dim)), 5)
    lines = []
    for i, row in enumerate(values):
        numbers = " ".join(f"{x:.5f}" for x in row)
        lines.append(f"{_word(i)} {numbers}")
        if spaced and i % spaced == 0:
            lines.append(f"{_word(i)} {_word(i + 1)} {numbers}")  # read, not a real word
    if repeat:
        lines.append(f"{_word(0)} " + " ".join(["9.00000"] * dim))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return values.astype(np.float32)


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


def _mapped(array: np.ndarray) -> bool:
    """Whether ``array``'s memory is a memory map (a view of one, however deep)."""
    base: object = array
    while base is not None:
        if isinstance(base, np.memmap | mmap.mmap):
            return True
        base = getattr(base, "base", None)
    return False


def _fail_if_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object) -> ParsedFile:
        raise AssertionError("the file was parsed again")

    monkeypatch.setattr(embeddings_module, "read_file", fail)


def _load_recording(path: Path, **options: object) -> tuple[object, list[str]]:
    """Load; the messages of the warnings, each checked to point at this caller."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        emb = load_embeddings(path, vocab_size=None, **options)  # type: ignore[arg-type]
    assert all(w.category is UserWarning for w in caught)
    assert [Path(w.filename).name for w in caught] == [Path(__file__).name] * len(caught)
    return emb, [str(w.message) for w in caught]


# -- hits ---------------------------------------------------------------------------------
def test_a_second_load_is_the_cache_mapped_and_identical(tmp_path, cache_dir, monkeypatch):
    path = tmp_path / "glove.txt"
    want = write_glove(path, 300, 7, spaced=10)
    first = load_embeddings(path, vocab_size=None)
    assert not _mapped(first.vectors)  # parsed
    files = entry_paths(path, "glove-text", None, "utf-8", cache_dir)
    stamps = {k: files[k].stat().st_mtime_ns for k in ("vectors", "words", "meta")}
    _fail_if_parsed(monkeypatch)
    second = load_embeddings(path, vocab_size=None)
    assert _mapped(second.vectors)  # Embeddings did not copy the map into memory
    assert not second.vectors.flags.writeable
    assert second.words == first.words == tuple(_word(i) for i in range(300))
    assert second.name == first.name == "glove.txt"
    np.testing.assert_array_equal(_bits(second.vectors), _bits(first.vectors))
    np.testing.assert_array_equal(_bits(second.vectors), _bits(want))
    assert second.fingerprint == first.fingerprint
    assert {k: files[k].stat().st_mtime_ns for k in stamps} == stamps  # nothing rewritten


def test_cache_false_neither_reads_nor_writes_it(tmp_path, cache_dir, monkeypatch):
    path = tmp_path / "glove.txt"
    write_glove(path, 20, 3)
    emb = load_embeddings(path, cache=False)
    assert not cache_dir.parent.exists()
    load_embeddings(path)  # now cached
    calls = []
    monkeypatch.setattr(embeddings_module, "read_file",
                        lambda *a: calls.append(a) or read_file(*a))
    again = load_embeddings(path, cache=False)
    assert len(calls) == 1  # parsed, not taken from the cache
    np.testing.assert_array_equal(_bits(again.vectors), _bits(emb.vectors))


@pytest.mark.parametrize("bad", ["yes", 1, None])
def test_cache_must_be_a_bool(tmp_path, bad):
    path = tmp_path / "glove.txt"
    write_glove(path, 3, 2)
    with pytest.raises(TypeError, match=rf"^cache must be a bool; got {bad!r} of type "
                                        rf"{type(bad).__name__}$"):
        load_embeddings(path, cache=bad)


def test_each_vocab_size_format_and_encoding_is_its_own_entry(tmp_path, cache_dir):
    path = tmp_path / "glove.txt"
    write_glove(path, 50, 3)
    small = load_embeddings(path, vocab_size=10)
    full = load_embeddings(path, vocab_size=None)
    latin = load_embeddings(path, vocab_size=10, encoding="latin-1")
    assert len(small) == len(latin) == 10 and len(full) == 50
    assert len(list(cache_dir.glob("*.npy"))) == 3
    assert load_embeddings(path, vocab_size=10).words == small.words
    assert entry_paths(path, "glove-text", 10, "UTF8", cache_dir) == \
        entry_paths(path, "glove-text", 10, "utf-8", cache_dir)  # one name per codec


def test_word2vec_binary_files_are_cached_too(tmp_path, monkeypatch):
    from gensim.models import KeyedVectors

    kv = KeyedVectors(vector_size=4)
    kv.add_vectors(["cat", "dog", ",", "cow"],
                   np.arange(16, dtype=np.float32).reshape(4, 4) / 7)
    path = tmp_path / "vectors.bin"
    kv.save_word2vec_format(str(path), binary=True)
    first = load_embeddings(path, vocab_size=None)
    _fail_if_parsed(monkeypatch)
    second = load_embeddings(path, vocab_size=None)
    assert second.words == first.words == ("cat", "dog", "cow")
    np.testing.assert_array_equal(_bits(second.vectors), _bits(first.vectors))


def test_repeated_words_are_warned_on_every_load_naming_the_path_given(tmp_path, monkeypatch):
    path = tmp_path / "glove.txt"
    write_glove(path, 5, 2, repeat=True)
    message = ("embeddings file {!r} repeats words: 1 row dropped (the first: 'a' on "
               "line 6); each word keeps its first vector")
    first, caught = _load_recording(path)
    assert caught == [message.format(str(path))]
    _fail_if_parsed(monkeypatch)
    monkeypatch.chdir(tmp_path)
    second, caught = _load_recording(Path("glove.txt"))  # another spelling: same entry
    assert caught == [message.format("glove.txt")]
    assert second.words == first.words


def test_files_that_are_not_cached(tmp_path, cache_dir):
    nan = tmp_path / "nan.txt"
    nan.write_text("cat 0.5 nan\ndog 1 2\n", encoding="utf-8")
    none = tmp_path / "none.txt"
    none.write_text(", 1 2\n. 3 4\n", encoding="utf-8")
    for path, match in [(nan, "holds NaN or infinity"), (none, "holds no real words")]:
        for _ in range(2):  # the same error each time: nothing was cached
            with pytest.raises(EmbeddingsFormatError, match=match):
                load_embeddings(path)
    assert list(cache_dir.glob("*.npy")) == []


# -- a changed file -----------------------------------------------------------------------
def _big_file(tmp_path: Path) -> tuple[Path, np.ndarray]:
    """A GloVe file of about 3.3 MiB: its middle is outside the first and last MiB."""
    path = tmp_path / "big.txt"
    vectors = write_glove(path, 4000, 100)
    assert path.stat().st_size > 3 * MIB
    return path, vectors


def _new_value(path: Path, row: int) -> str:
    """A value as long as the first value of ``row``, and different from it."""
    old = path.read_text(encoding="utf-8").splitlines()[row].split(" ")[1]
    return "-8.88888" if old.startswith("-") else "8.88888"


def _rewrite_row(path: Path, row: int, value: str, *, keep_mtime: bool) -> int:
    """Replace the first value of ``row`` (same length); return its byte offset."""
    st = path.stat()
    data = bytearray(path.read_bytes())
    start = 0
    for _ in range(row):
        start = data.index(b"\n", start) + 1
    at = data.index(b" ", start) + 1
    old = bytes(data[at:at + len(value)])
    assert old != value.encode() and len(data[at:data.index(b" ", at)]) == len(value)
    data[at:at + len(value)] = value.encode()
    path.write_bytes(bytes(data))
    if keep_mtime:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    else:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert path.stat().st_size == st.st_size
    return at


@pytest.mark.parametrize("where, keep_mtime", [
    ("middle", False),  # same size, new content, new modification time
    ("first MiB", True),  # modification time set back: the hash of the first MiB
    ("last MiB", True),  # ... or of the last MiB
])
def test_a_changed_file_is_read_again_with_one_warning(tmp_path, where, keep_mtime):
    path, _ = _big_file(tmp_path)
    load_embeddings(path, vocab_size=None)
    row = {"middle": 2000, "first MiB": 3, "last MiB": 3990}[where]
    value = _new_value(path, row)
    at = _rewrite_row(path, row, value, keep_mtime=keep_mtime)
    size = path.stat().st_size
    assert {"middle": MIB < at < size - MIB, "first MiB": at < MIB,
            "last MiB": at > size - MIB}[where]
    emb, caught = _load_recording(path)
    assert len(caught) == 1
    assert caught[0] == (f"the cached copy of embeddings file {str(path)!r} is stale (the "
                         "file changed since it was cached); reading the file again")
    assert emb.vector(_word(row))[0] == np.float32(float(value))
    again, caught = _load_recording(path)
    assert caught == []  # rebuilt
    np.testing.assert_array_equal(_bits(again.vectors), _bits(emb.vectors))


def test_a_same_size_change_in_the_middle_with_mtime_set_back_is_noticed(tmp_path):
    """The status change time (which ``os.utime`` cannot set back) gives it away."""
    path, _ = _big_file(tmp_path)
    load_embeddings(path, vocab_size=None)
    new = _new_value(path, 2000)
    _rewrite_row(path, 2000, new, keep_mtime=True)
    again, caught = _load_recording(path)
    assert len(caught) == 1 and "is stale" in caught[0]
    assert abs(again.vector(_word(2000))[0]) == np.float32(8.88888)


def test_a_copy_keeping_its_timestamps_is_noticed(tmp_path):
    """``cp -p`` of another version of the file over it: a new inode."""
    path, _ = _big_file(tmp_path)
    load_embeddings(path, vocab_size=None)
    other = tmp_path / "other.txt"
    shutil.copy2(path, other)
    _rewrite_row(other, 2000, _new_value(other, 2000), keep_mtime=True)
    st = path.stat()
    os.replace(other, path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    again, caught = _load_recording(path)
    assert len(caught) == 1 and "is stale" in caught[0]
    assert abs(again.vector(_word(2000))[0]) == np.float32(8.88888)


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0,
                    reason="making a directory of another user needs root")
def test_a_cache_directory_of_another_user_is_not_used(tmp_path, cache_dir):
    """An entry planted by someone else (vectors far apart: every word released unchanged)
    is never read; one warning, and the file is read as it is."""
    path = tmp_path / "glove.txt"
    vectors = write_glove(path, 10, 3)
    load_embeddings(path)
    os.chown(cache_dir, 65534, 65534)
    os.chmod(cache_dir, 0o777)
    files = entry_paths(path, "glove-text", 100_000, "utf-8", cache_dir)
    planted = np.load(files["vectors"]) * 1e6
    np.save(files["vectors"], planted)
    emb, caught = _load_any(path)
    assert len(caught) == 1 and "is not private" in caught[0] and "not to you" in caught[0]
    np.testing.assert_array_equal(emb.vectors, vectors)


def test_an_entry_file_that_is_a_link_is_not_used(tmp_path, cache_dir):
    path = tmp_path / "glove.txt"
    vectors = write_glove(path, 10, 3)
    load_embeddings(path)
    files = entry_paths(path, "glove-text", 100_000, "utf-8", cache_dir)
    elsewhere = tmp_path / "elsewhere.npy"
    np.save(elsewhere, np.load(files["vectors"]) * 1e6)
    files["vectors"].unlink()
    files["vectors"].symlink_to(elsewhere)
    emb, caught = _load_any(path)
    assert len(caught) == 1 and "is not private" in caught[0]
    assert "not a regular file of yours" in caught[0]
    np.testing.assert_array_equal(emb.vectors, vectors)


def _load_any(path: Path) -> tuple[object, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        emb = load_embeddings(path)
    return emb, [str(w.message) for w in caught]


# -- corrupt entries ----------------------------------------------------------------------
def _truncate(files: dict[str, Path]) -> None:
    with open(files["vectors"], "r+b") as fh:
        fh.truncate(files["vectors"].stat().st_size - 13)


def _garble_meta(files: dict[str, Path]) -> None:
    files["meta"].write_bytes(files["meta"].read_bytes()[:-5] + b"@@@@@")


def _flip_vector_byte(files: dict[str, Path]) -> None:
    data = bytearray(files["vectors"].read_bytes())
    data[-30] ^= 0x10  # in the last vector: the header and the shape are intact
    files["vectors"].write_bytes(bytes(data))


def _change_a_word(files: dict[str, Path]) -> None:
    data = files["words"].read_bytes()
    files["words"].write_bytes(data.replace(b'"c"', b'"x"', 1))  # still valid JSON


def _remove_vectors(files: dict[str, Path]) -> None:
    files["vectors"].unlink()


def _other_shape(files: dict[str, Path]) -> None:
    meta = json.loads(files["meta"].read_text())
    meta["shape"][1] += 1
    files["meta"].write_text(json.dumps(meta))


CORRUPTIONS = {
    "truncated vectors": (_truncate, "its vectors cannot be read"),
    "garbled metadata": (_garble_meta, "its metadata is garbled"),
    "a flipped bit in the vectors": (_flip_vector_byte, "its checksum does not match"),
    "a changed word": (_change_a_word, "its checksum does not match"),
    "no vectors": (_remove_vectors, "its vectors cannot be read"),
    "another shape": (_other_shape, "its vectors do not have the recorded shape or type"),
}


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_corrupt_entry_is_rebuilt_with_one_warning(tmp_path, cache_dir, corruption):
    path = tmp_path / "glove.txt"
    want = write_glove(path, 200, 6)
    load_embeddings(path, vocab_size=None)
    corrupt, why = CORRUPTIONS[corruption]
    corrupt(entry_paths(path, "glove-text", None, "utf-8", cache_dir))
    emb, caught = _load_recording(path)
    assert len(caught) == 1
    assert caught[0].startswith(f"the cached copy of embeddings file {str(path)!r} is corrupt "
                                f"({why}")
    assert caught[0].endswith("); reading the file again")
    assert emb.words == tuple(_word(i) for i in range(200))
    np.testing.assert_array_equal(_bits(emb.vectors), _bits(want))
    again, caught = _load_recording(path)
    assert caught == [] and _mapped(again.vectors)
    np.testing.assert_array_equal(_bits(again.vectors), _bits(want))


def test_a_cache_that_cannot_be_written_is_one_warning(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("EMPRIVACY_CACHE_DIR", str(blocker))
    path = tmp_path / "glove.txt"
    want = write_glove(path, 10, 3)
    emb, caught = _load_recording(path)
    assert len(caught) == 1 and caught[0].startswith("cannot create the embeddings cache ")
    np.testing.assert_array_equal(_bits(emb.vectors), _bits(want))


# -- privacy ------------------------------------------------------------------------------
def test_the_cache_is_private_to_the_user(tmp_path, cache_dir):
    path = tmp_path / "glove.txt"
    write_glove(path, 10, 3)
    old = os.umask(0o002)  # a permissive umask must not open the cache up
    try:
        load_embeddings(path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE(cache_dir.parent.stat().st_mode) == 0o700  # the user cache, created
    names = sorted(p.name for p in cache_dir.iterdir())
    assert [n.rsplit(".", 1)[-1] for n in names] == ["lock", "json", "npy", "json"]
    for p in cache_dir.iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p.name


# -- concurrency, and the Dask workers ----------------------------------------------------
CHILD = textwrap.dedent("""
    import os, sys, time, warnings
    warnings.simplefilter("error")
    go = sys.argv[2]
    while not os.path.exists(go):
        time.sleep(0.005)
    from emprivacy import load_embeddings
    print(load_embeddings(sys.argv[1], vocab_size=None).fingerprint)
""")


def test_processes_loading_at_once_all_get_the_right_vectors(tmp_path, cache_dir):
    path = tmp_path / "glove.txt"
    write_glove(path, 3000, 50)
    want = load_embeddings(path, vocab_size=None, cache=False).fingerprint
    go = tmp_path / "go"
    children = [subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(go)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(3)]
    time.sleep(1.0)  # let them import and wait at the gate
    go.touch()
    results = [child.communicate(timeout=120) for child in children]
    assert [c.returncode for c in children] == [0, 0, 0], [err for _, err in results]
    assert [out.strip() for out, _ in results] == [want] * 3
    assert [err for _, err in results] == ["", "", ""]  # no warning: never a partial entry
    assert len(list(cache_dir.glob("*.npy"))) == 1
    assert list(cache_dir.glob("*.tmp")) == []


TIMED_CHILD = textwrap.dedent("""
    import sys, time
    from emprivacy import load_embeddings
    print("imported", flush=True)
    fingerprint = load_embeddings(sys.argv[1], vocab_size=None).fingerprint
    print(time.time(), fingerprint, flush=True)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
@pytest.mark.parametrize("entry", [False, True], ids=["no entry yet", "an entry"])
def test_a_load_waits_while_another_process_writes_the_entry(tmp_path, cache_dir, entry):
    """The entry's lock is honoured: nobody reads (or writes) an entry being written."""
    import fcntl

    path = tmp_path / "glove.txt"
    write_glove(path, 100, 4)
    want = load_embeddings(path, vocab_size=None, cache=entry).fingerprint
    cache_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    lock = entry_paths(path, "glove-text", None, "utf-8", cache_dir)["lock"]
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as a process writing the entry does
        child = subprocess.Popen([sys.executable, "-c", TIMED_CHILD, str(path)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert child.stdout is not None
        assert child.stdout.readline() == "imported\n"
        time.sleep(1.0)
        released = time.time()
    finally:
        os.close(fd)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0 and err == "", err
    finished, fingerprint = out.split()
    assert float(finished) >= released  # it waited for the lock
    assert fingerprint == want


def test_a_worker_building_its_mechanism_loads_from_the_cache(tmp_path, cache_dir, monkeypatch):
    from emprivacy.distributed.task import MechanismSettings

    path = tmp_path / "glove.txt"
    write_glove(path, 200, 5)
    settings_ = MechanismSettings(epsilon=10.0, embeddings=str(path), vocab_size=150)
    first = settings_.build(n_threads=1)  # the first worker: parses and caches
    files = entry_paths(path, "glove-text", 150, "utf-8", cache_dir)
    stamp = files["vectors"].stat().st_mtime_ns
    _fail_if_parsed(monkeypatch)
    second = settings_.build(n_threads=1)  # another worker process, the same settings
    assert files["vectors"].stat().st_mtime_ns == stamp
    assert _mapped(second.embeddings.vectors)
    np.testing.assert_array_equal(_bits(second.embeddings.vectors),
                                  _bits(first.embeddings.vectors))


# -- round trips --------------------------------------------------------------------------
LETTERS = st.characters(categories=("Lu", "Ll", "Lo"))
REAL_WORD = st.text(LETTERS, min_size=1, max_size=8).filter(is_word)
#: parts that do not read as numbers ("x inf" and numbers is "x" and one more value)
PART = REAL_WORD.filter(lambda s: s.lower() not in ("nan", "inf", "infinity"))
SPACED = st.lists(PART, min_size=2, max_size=3).map(" ".join)


@st.composite
def vocabularies(draw: st.DrawFn) -> tuple[list[str], np.ndarray]:
    words = draw(st.lists(REAL_WORD | SPACED, min_size=1, max_size=10, unique=True))
    dim = draw(st.integers(1, 4))
    vectors = draw(hnp.arrays(np.float32, (len(words), dim), elements=st.floats(
        width=32, allow_nan=False, allow_infinity=False)))
    return words, vectors


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(vocabulary=vocabularies())
def test_glove_files_round_trip_through_the_cache_bit_for_bit(tmp_path_factory, monkeypatch,
                                                               vocabulary):
    words, vectors = vocabulary
    directory = tmp_path_factory.mktemp("round-trip")
    monkeypatch.setenv("EMPRIVACY_CACHE_DIR", str(directory / "cache"))
    path = directory / "glove.840B.txt"
    path.write_text("".join(w + " " + " ".join(f"{x:.9g}" for x in row) + "\n"
                            for w, row in zip(words, vectors.tolist(), strict=True)),
                    encoding="utf-8")
    real = [i for i, w in enumerate(words) if is_word(w)]
    if not real:
        return
    fresh = load_embeddings(path, vocab_size=None)
    cached = load_embeddings(path, vocab_size=None)
    assert _mapped(cached.vectors)
    assert list(cached.words) == list(fresh.words) == [words[i] for i in real]
    np.testing.assert_array_equal(_bits(cached.vectors), _bits(vectors[real]))
    np.testing.assert_array_equal(_bits(fresh.vectors), _bits(vectors[real]))


ANY_WORD = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(ANY_WORD, min_size=1, max_size=8, unique=True), data=st.data())
def test_any_words_and_vectors_round_trip_through_an_entry(tmp_path_factory, monkeypatch,
                                                            words, data):
    """Spaces, newlines, any Unicode: the entry keeps what the reader gave it."""
    vectors = data.draw(hnp.arrays(np.float32, (len(words), 3), elements=st.floats(
        width=32, allow_nan=False, allow_infinity=False)))
    directory = tmp_path_factory.mktemp("entry")
    monkeypatch.setenv("EMPRIVACY_CACHE_DIR", str(directory / "cache"))
    path = directory / "any.txt"
    path.write_bytes(b"stands for the file")
    given_ = ParsedFile(list(words), vectors, len(words), (2, words[0], 7))

    def read(*args: object) -> ParsedFile:
        return given_

    load_cached(path, "glove-text", vocab_size=None, encoding="utf-8", read=read)
    back = load_cached(path, "glove-text", vocab_size=None, encoding="utf-8",
                       read=lambda *a: pytest.fail("not cached"))
    assert back.words == list(words) and back.duplicates == (2, words[0], 7)
    assert back.rows == len(words)
    np.testing.assert_array_equal(_bits(back.vectors), _bits(vectors))
    assert cache_directory() == directory / "cache" / "embeddings"


# -- clean-up -----------------------------------------------------------------------------
def test_entries_of_files_that_are_gone_are_removed_when_an_entry_is_written(tmp_path,
                                                                            cache_dir):
    paths = {name: tmp_path / f"{name}.txt" for name in ("gone", "kept", "busy", "new")}
    for i, path in enumerate(paths.values()):
        write_glove(path, 10, 3, seed=i)
    for name in ("gone", "kept", "busy"):
        load_embeddings(paths[name])
    entries = {name: entry_paths(paths[name], "glove-text", 100_000, "utf-8", cache_dir)
               for name in paths}
    paths["gone"].unlink()
    paths["busy"].unlink()
    import fcntl

    fd = os.open(entries["busy"]["lock"], os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)  # a process reading that entry
        load_embeddings(paths["new"])
    finally:
        os.close(fd)
    present = {name: [f.exists() for f in files.values()] for name, files in entries.items()}
    assert present == {"gone": [False] * 4, "kept": [True] * 4, "busy": [True] * 4,
                       "new": [True] * 4}
    assert len(list(cache_dir.iterdir())) == 12
