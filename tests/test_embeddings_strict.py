"""Exact, strict reading of the text embedding formats (issue 17).

word2vec text and fastText ``.vec`` (a ``<count> <dim>`` header), GloVe (no header),
gzipped or not: each file below is tiny, so the right vectors or the one-line message
are known exactly.
"""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from emprivacy import EmbeddingsFormatError, load_embeddings
from emprivacy.embeddings.files import _read_text, detect_format
from emprivacy.text.tokens import is_word

# -- one small file per problem, written in every text format ---------------------------


@dataclass(frozen=True)
class Format:
    """How to write a tiny file: header or not, fastText's trailing space, gzip."""

    name: str
    filename: str
    header: bool
    detected: str
    trailing_space: bool = False
    gzipped: bool = False

    def write(self, directory: Path, rows: list[bytes], *, prefix: bytes = b"",
              newline: bytes = b"\n", count: int | None = None) -> tuple[Path, bytes]:
        """``rows`` are data lines; the header (if any) counts the non-blank ones."""
        if self.trailing_space:
            rows = [r + b" " if r.strip() else r for r in rows]
        lines = list(rows)
        if self.header:
            dim = next(len(r.split()) - 1 for r in rows if r.strip())
            n = sum(1 for r in rows if r.strip()) if count is None else count
            lines.insert(0, f"{n} {dim}".encode())
        data = prefix + b"".join(line + newline for line in lines)
        path = directory / self.filename
        path.write_bytes(gzip.compress(data) if self.gzipped else data)
        return path, data


FORMATS = [
    Format("word2vec-text", "vectors.txt", header=True, detected="word2vec-text"),
    Format("fasttext-vec", "wiki.vec", header=True, detected="word2vec-text",
           trailing_space=True),
    Format("glove", "glove.txt", header=False, detected="glove-text"),
    Format("word2vec-text-gz", "vectors.txt.gz", header=True, detected="word2vec-text",
           gzipped=True),
    Format("glove-gz", "glove.txt.gz", header=False, detected="glove-text", gzipped=True),
]


@dataclass(frozen=True)
class Case:
    """A file's data rows and what loading it gives: words and vectors, or the message.

    ``message`` is called with the file's path (as given), the line number of the
    first data row (1 without a header, 2 with one) and the file's (uncompressed) bytes.
    """

    name: str
    rows: list[bytes | str]
    words: tuple[str, ...] = ()
    vectors: tuple[tuple[float, ...], ...] = ()
    message: Callable[[str, int, bytes], str] | None = None
    warning: Callable[[str, int], str] | None = None
    prefix: bytes = b""
    newline: bytes = b"\n"
    encoding: str = "utf-8"


CAT_DOG = (("cat", "dog"), ((0.5, 0.25), (-1.5, 2.0)))

CASES = [
    Case("plain", [b"cat 0.5 0.25", b"dog -1.5 2"], *CAT_DOG),
    Case("too few values", [b"cat 0.5 0.25", b"dog 0.2", b"cow 1 2"],
         message=lambda p, f, d: f"line {f + 1} of {p!r} has 1 value; expected 2"),
    Case("one value too many", [b"cat 0.5 0.25", b"dog 0.1 0.2 0.3"],
         message=lambda p, f, d: f"line {f + 1} of {p!r} has 3 values; expected 2"),
    Case("a value that is not a number", [b"cat 0.5 0.25", b"dog 0.1 x"],
         message=lambda p, f, d: f"line {f + 1} of {p!r} has a value that is not a number: "
                              "'x'; expected a word and 2 numbers"),
    Case("no word", [b"cat 0.5 0.25", b" 0.1 0.2"],
         message=lambda p, f, d: f"line {f + 1} of {p!r} has no word before its 2 values; "
                              "expected a word and 2 numbers"),
    Case("byte-order mark", [b"cat 0.5 0.25", b"dog -1.5 2"], *CAT_DOG, prefix=b"\xef\xbb\xbf"),
    Case("CRLF line ends", [b"cat 0.5 0.25", b"dog -1.5 2"], *CAT_DOG, newline=b"\r\n"),
    Case("a blank line in the middle", [b"cat 0.5 0.25", b"", b"dog -1.5 2"], *CAT_DOG),
    Case("blank lines and CRLF", [b"cat 0.5 0.25", b"  ", b"dog -1.5 2", b""], *CAT_DOG,
         newline=b"\r\n"),
    Case("GloVe 840B words with spaces", [b"cat 0.5 0.25", b". . . 0.3 0.3", b"dog -1.5 2"],
         *CAT_DOG),  # ". . ." is read, then left out of the vocabulary: not a real word
    Case("a number-like word", [b"1.5 9 9", b"cat 0.5 0.25", b"dog -1.5 2"], *CAT_DOG),
    Case("the same word twice", [b"cat 0.5 0.25", b"dog -1.5 2", b"cat 7 7", b"dog 8 8"],
         *CAT_DOG, warning=lambda p, f: f"embeddings file {p!r} repeats words: 2 rows dropped "
                                        f"(the first: 'cat' on line {f + 2}); each word keeps "
                                        "its first vector"),
    Case("Latin-1 bytes in a word", [b"cat 0.5 0.25", b"caf\xe9 1 2"],
         message=lambda p, f, d: f"line {f + 1} of {p!r} is not valid utf-8: byte 0xe9 at offset "
                              f"{d.index(0xE9)} of the file; give the file's encoding "
                              "(encoding= in Python, --embeddings-encoding on the command "
                              "line)"),
    Case("Latin-1, named", [b"cat 0.5 0.25", b"caf\xe9 1 2"],
         ("cat", "café"), ((0.5, 0.25), (1.0, 2.0)), encoding="latin-1"),
    Case("non-ASCII words", ["chat 0.5 0.25", "čaj 1 2", "ǅemal 3 4"],
         ("chat", "čaj", "ǅemal"), ((0.5, 0.25), (1.0, 2.0), (3.0, 4.0))),
]


def _rows(case: Case) -> list[bytes]:
    return [r if isinstance(r, bytes) else r.encode("utf-8") for r in case.rows]


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_each_malformation_in_each_format(tmp_path, fmt, case):
    rows = _rows(case)
    path, data = fmt.write(tmp_path, rows, prefix=case.prefix, newline=case.newline)
    first = 2 if fmt.header else 1
    if not fmt.gzipped:
        assert detect_format(path) == fmt.detected
    if case.message is not None:
        with pytest.raises(EmbeddingsFormatError) as info:
            load_embeddings(path, encoding=case.encoding)
        assert str(info.value) == case.message(str(path), first, data)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        emb = load_embeddings(path, vocab_size=None, encoding=case.encoding)
    expected = [] if case.warning is None else [case.warning(str(path), first)]
    assert [str(w.message) for w in caught] == expected
    assert all(w.category is UserWarning for w in caught)
    assert emb.words == case.words
    np.testing.assert_array_equal(emb.vectors, np.array(case.vectors, dtype=np.float32))


def test_glove_840b_words_with_spaces_are_read_as_written(tmp_path):
    path = tmp_path / "glove.840B.txt"
    path.write_text(". . . 0.3 0.3\ncat 0.5 0.25\nat name@domain.com -1 1\n", encoding="utf-8")
    read = _read_text(path, "glove-text", keep=lambda w: True)
    assert read.words == [". . .", "cat", "at name@domain.com"]
    np.testing.assert_array_equal(read.vectors, np.float32([[0.3, 0.3], [0.5, 0.25], [-1, 1]]))
    assert list(load_embeddings(path).words) == ["cat"]  # the vocabulary keeps real words


# -- what only a header can get wrong ---------------------------------------------------
HEADER_CASES = [
    (b"2 3\ncat 0.5 0.25\ndog 1 2\n",
     "the header of {p!r} (line 1) announces dimension 3 but line 2 has 2 values"),
    (b"2 1\ncat 0.5 0.25\ndog 1 2\n",
     "the header of {p!r} (line 1) announces dimension 1 but line 2 has 2 values"),
    (b"3 2\ncat 0.5 0.25\ndog 1 2\n",
     "the header of {p!r} (line 1) announces 3 words but the file holds 2"),
    (b"1 2\ncat 0.5 0.25\ndog 1 2\n",
     "the header of {p!r} (line 1) announces 1 word but the file holds more (line 3 is row 2)"),
    (b"\xef\xbb\xbf1 2\ncat 0.5 0.25\ndog 1 2\n",
     "the header of {p!r} (line 1) announces 1 word but the file holds more (line 3 is row 2)"),
    (b"30 2\ncat 0.5 0.25\n",
     "embeddings file {p!r} is truncated or its header is wrong: the header announces 30 "
     "words of dimension 2, which need at least 150 bytes, but the file holds 13"),
    (b"2 0\ncat\ndog\n", "embeddings file {p!r} has a wrong header: it announces dimension 0; "
                         "expected word2vec binary"),
]


# (a gzip file may inflate to far more than 13 bytes: tests/test_faults.py has that case)
@pytest.mark.parametrize(("data", "message", "gzipped"),
                         [(*c, False) for c in HEADER_CASES]
                         + [(*c, True) for c in HEADER_CASES if b"30 2" not in c[0]])
def test_a_header_that_disagrees_with_the_rows(tmp_path, data, message, gzipped):
    path = tmp_path / ("vectors.txt.gz" if gzipped else "vectors.txt")
    path.write_bytes(gzip.compress(data) if gzipped else data)
    with pytest.raises(EmbeddingsFormatError) as info:
        load_embeddings(path, format="word2vec-text")
    assert str(info.value).startswith(message.format(p=str(path)))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("name", "data", "message"), [
    ("empty.txt", b"", "embeddings file {p!r} is empty; expected word2vec binary"),
    ("blank.txt", b"\n\r\n  \n", "embeddings file {p!r} is empty; expected word2vec binary"),
    ("truncated.txt.gz", gzip.compress(b"2 2\ncat 0.5 0.25\ndog 1 2\n", mtime=0)[:-12],
     "cannot read embeddings file {p!r} (corrupt or truncated?): "),
    ("header-only.vec", b"0 2\n", "embeddings file {p!r} holds no real words (only "
                                  "punctuation or number tokens among its 0 rows)"),
])
def test_empty_and_truncated_text_files(tmp_path, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(EmbeddingsFormatError) as info:
        load_embeddings(path, format="auto" if name.endswith(".txt") else "word2vec-text")
    assert str(info.value).startswith(message.format(p=str(path)))


def test_non_finite_values_are_one_line_naming_the_file(tmp_path, capsys):
    path = tmp_path / "nan.txt"
    path.write_text("cat 0.5 nan\ndog 1 2\n", encoding="utf-8")
    with pytest.raises(EmbeddingsFormatError, match=r"holds NaN or infinity"):
        load_embeddings(path)
    from emprivacy.cli import main

    assert main(["obfuscate", "-", "-e", "1", "--embeddings", str(path), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nan.txt" in err and "Traceback" not in err


def test_a_latin1_first_line_is_detected_as_text(tmp_path):
    path = tmp_path / "vectors.txt"
    path.write_bytes(b"2 2\ncaf\xe9 0.5 0.25\ndog 1 2\n")
    assert detect_format(path) == "word2vec-text"  # not taken for word2vec binary
    assert load_embeddings(path, encoding="latin-1").words == ("café", "dog")


def test_vocab_size_stops_reading_at_the_words_needed(tmp_path):
    path = tmp_path / "glove.txt"
    path.write_text("cat 0.5 0.25\n, 1 1\ndog 1 2\ncow 3 4\nthis row is broken\n",
                    encoding="utf-8")
    emb = load_embeddings(path, vocab_size=2)
    assert emb.words == ("cat", "dog")
    with pytest.raises(EmbeddingsFormatError, match=r"^line 5 of .* has a value that is not a "
                                                    r"number: 'broken'; expected a word and 2 "):
        load_embeddings(path, vocab_size=3 + 1)


def test_bad_encoding_option(tmp_path):
    path = tmp_path / "glove.txt"
    path.write_text("cat 0.5 0.25\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^encoding must be a text encoding Python knows; "
                                         r"got 'klingon'$"):
        load_embeddings(path, encoding="klingon")
    with pytest.raises(TypeError, match=r"^encoding must be a str; got 8 of type int$"):
        load_embeddings(path, encoding=8)


def test_the_command_line_reports_a_malformed_row_in_one_line(tmp_path):
    text = tmp_path / "a.txt"
    text.write_text("the cat sat\n", encoding="utf-8")
    emb = tmp_path / "ragged.txt"
    emb.write_text("cat 0.5 0.25\ndog 0.2\ncow 1 2\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "emprivacy", "obfuscate", str(text), "-e",
                           "10", "--embeddings", str(emb), "-q"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"emprivacy: error: line 2 of {str(emb)!r} has 1 value; expected 2\n"


# -- round trips -------------------------------------------------------------------------
LETTERS = st.characters(categories=("Lu", "Ll", "Lo"))
REAL_WORD = st.text(LETTERS, min_size=1, max_size=8).filter(is_word)
#: a GloVe 840B word: parts separated by single spaces, none of which looks like a number
#: (``"x inf"`` followed by numbers cannot be told from ``"x"`` and one more value)
SPACED_WORD = st.lists(st.text(LETTERS, min_size=1, max_size=5).filter(
    lambda s: not re.fullmatch(r"(?i)[+-]?(nan|inf|infinity)", s)), min_size=1, max_size=3
).map(" ".join)


def _vectors(n: int, dim: int) -> st.SearchStrategy[np.ndarray]:
    return hnp.arrays(np.float32, (n, dim),
                      elements=st.floats(width=32, allow_nan=False, allow_infinity=False))


@st.composite
def vocabularies(draw: st.DrawFn, word: st.SearchStrategy[str]) -> tuple[list[str], np.ndarray]:
    distinct = draw(st.lists(word, min_size=1, max_size=8, unique=True))
    words = distinct + draw(st.lists(st.sampled_from(distinct), max_size=3))  # repeats
    words = draw(st.permutations(words))
    dim = draw(st.integers(1, 4))
    return words, draw(_vectors(len(words), dim))


def _write(path: Path, words: list[str], vectors: np.ndarray, *, header: bool) -> None:
    lines = [f"{len(words)} {vectors.shape[1]}"] if header else []
    lines += [w + " " + " ".join(f"{x:.9g}" for x in row)
              for w, row in zip(words, vectors.tolist(), strict=True)]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)


def _first_occurrences(words: list[str], vectors: np.ndarray) -> tuple[list[str], np.ndarray]:
    first: dict[str, int] = {}
    for i, w in enumerate(words):
        first.setdefault(w, i)
    return list(first), vectors[list(first.values())]


def _load_quietly(path: Path, n_repeats: int, **options: object):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = load_embeddings(path, vocab_size=None, **options)  # type: ignore[arg-type]
    assert len(caught) == (1 if n_repeats else 0)
    if n_repeats:
        assert f"repeats words: {n_repeats} row" in str(caught[0].message)
    return result


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


@pytest.mark.parametrize("name", ["vectors.txt", "glove.txt", "vectors.txt.gz"])
@settings(max_examples=60, deadline=None)
@given(vocabulary=vocabularies(REAL_WORD))
def test_real_words_round_trip_bit_for_bit(tmp_path_factory, name, vocabulary):
    words, vectors = vocabulary
    path = tmp_path_factory.mktemp("round-trip") / name
    _write(path, words, vectors, header=not name.startswith("glove"))
    want_words, want = _first_occurrences(words, vectors)
    emb = _load_quietly(path, len(words) - len(want_words))
    assert list(emb.words) == want_words
    np.testing.assert_array_equal(_bits(emb.vectors), _bits(want))


@settings(max_examples=60, deadline=None)
@given(vocabulary=vocabularies(SPACED_WORD))
def test_glove_words_with_spaces_round_trip_bit_for_bit(tmp_path_factory, vocabulary):
    words, vectors = vocabulary
    path = tmp_path_factory.mktemp("round-trip") / "glove.840B.txt"
    _write(path, words, vectors, header=False)
    read = _read_text(path, "glove-text", keep=lambda w: True)
    want_words, want = _first_occurrences(words, vectors)
    assert read.words == want_words
    assert read.duplicates == len(words) - len(want_words)
    np.testing.assert_array_equal(_bits(read.vectors), _bits(want))
