"""Reading embeddings files: word2vec text and binary, fastText .vec, GloVe;
strict, one-line errors.

The readers return plain ``(words, vectors)``;
:func:`emprivacy.embeddings.model.load_embeddings` dispatches to them and builds the
:class:`~emprivacy.embeddings.model.Embeddings`.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np

from emprivacy.exceptions import EmbeddingsFormatError
from emprivacy.text.tokens import is_word

_EXPECTED = (
    "expected word2vec binary (.bin), word2vec or fastText text ('<count> <dim>' header line, "
    "then '<word> <v1> ... <vn>' lines) or GloVe text ('<word> <v1> ... <vn>' lines, no header)"
)


def _select_real_words(words: Sequence[str], vocab_size: int | None) -> np.ndarray:
    """Rows of the first ``vocab_size`` real words (:func:`is_word`); the rest is not
    examined (the default embeddings hold 400k words, the default vocabulary 100k)."""
    real = (i for i, w in enumerate(words) if is_word(w))
    return np.fromiter(real if vocab_size is None else islice(real, vocab_size),
                       dtype=np.int64)


def _compact_rows(vectors: np.ndarray, keep: np.ndarray, chunk: int = 65536) -> np.ndarray:
    """Move rows ``keep`` (sorted) to the front of ``vectors`` in place; no second full copy."""
    if len(keep) == vectors.shape[0]:
        return vectors
    for start in range(0, len(keep), chunk):
        rows = keep[start:start + chunk]
        vectors[start:start + len(rows)] = vectors[rows]  # rows[i] >= start + i: safe
    k = len(keep)
    try:
        vectors.resize((k, vectors.shape[1]), refcheck=False)
        return vectors
    except ValueError:  # not the owner of its memory: fall back to a copy of the kept part
        return np.array(vectors[:k])


def _looks_like_a_text_row(rest: bytes, dim: int) -> bool:
    """Whether the line after a ``<count> <dim>`` header is a word and ``dim`` numbers."""
    line, newline, _ = rest.partition(b"\n")
    if not newline or dim < 1:
        return False
    fields = line.rstrip().split(b" ")
    if len(fields) <= dim:
        return False
    try:
        np.array([f.decode("ascii") for f in fields[-dim:]], dtype=np.float64)
    except (UnicodeDecodeError, ValueError):
        return False
    return True


#: The first two bytes of every gzip file (RFC 1952).
_GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: Path) -> bool:
    """Whether ``path`` is gzip-compressed, by its first two bytes (its name does not
    matter: a gzipped GloVe file named ``.txt`` is read as one); an unreadable file is
    judged by its name (``.gz``), and reading it then says what is wrong."""
    try:
        with open(path, "rb") as fh:
            return fh.read(2) == _GZIP_MAGIC
    except OSError:
        return path.name.lower().endswith(".gz")


def detect_format(path: str | os.PathLike[str]) -> str:
    """Guess the format of an embeddings file from its name and first bytes.

    Returns one of ``"fasttext-binary"`` (a fastText ``.bin`` model, by its magic
    number), ``"word2vec-binary"``, ``"word2vec-text"`` (also fastText
    ``.vec``) or ``"glove-text"``; a gzipped file is recognised by its content
    (:func:`is_gzip`), whatever its name; raises :class:`EmbeddingsFormatError` naming
    the file and the formats expected otherwise.
    """
    p = Path(path)
    if not p.exists():
        raise EmbeddingsFormatError(f"embeddings file {str(p)!r} does not exist")
    if not p.is_file():
        raise EmbeddingsFormatError(f"embeddings path {str(p)!r} is not a file")
    name = p.name.lower()
    try:  # a fastText model (its vocabulary, vectors and subword n-grams) by its magic number
        with open(p, "rb") as fh:
            if fh.read(4) == (0x2F4F16BA).to_bytes(4, "little"):
                return "fasttext-binary"
    except OSError:
        pass  # unreadable: said below, naming the file
    if name.endswith((".bin", ".bin.gz")):
        return "word2vec-binary"
    try:
        if is_gzip(p):
            import gzip

            with gzip.open(p, "rb") as fh:
                head = fh.read(1 << 16)
        else:
            with open(p, "rb") as fh:
                head = fh.read(1 << 16)
    except (OSError, EOFError) as exc:
        raise EmbeddingsFormatError(f"cannot read embeddings file {str(p)!r}: {exc}") from None
    head = head.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark
    if not head.strip():
        raise EmbeddingsFormatError(f"embeddings file {str(p)!r} is empty; {_EXPECTED}")
    first, _, rest = head.lstrip(b"\r\n").partition(b"\n")
    parts = first.split()
    if len(parts) == 2 and all(x.isdigit() for x in parts):
        if _looks_like_a_text_row(rest, int(parts[1])):
            return "word2vec-text"
        if b"\x00" in rest:  # text never holds NUL bytes; float32 rows often do
            return "word2vec-binary"
        try:
            rest[: max(0, len(rest) - 4)].decode("utf-8")
        except UnicodeDecodeError:
            return "word2vec-binary"
        return "word2vec-text"
    # the word may be in another encoding (the reader says so) or hold spaces (GloVe 840B)
    if _trailing_numbers(first.decode("utf-8", errors="replace").rstrip().split(" ")) >= 1:
        return "glove-text"
    raise EmbeddingsFormatError(f"unknown embeddings format for {str(p)!r}; {_EXPECTED}")


#: No gzip stream inflates more than about 1032 times (deflate's limit): an upper bound on
#: the uncompressed size of a ``.gz`` file.
_GZIP_MAX_RATIO = 1100


def _check_header(path: Path, fmt: str, limit: int | None) -> None:
    """Check a word2vec header (``<count> <dim>``) against the size of the file.

    gensim allocates the whole ``count × dim`` matrix (at most ``limit`` rows) before
    reading a row: a corrupt or hostile header would exhaust the memory.  Each row
    takes at least ``4·dim + 2`` bytes in the binary format (a one-letter word, a space,
    the float32 vector) and ``2·dim + 1`` in the text format; a file too small for the
    rows to be read is truncated or has a wrong header (:class:`EmbeddingsFormatError`).
    A header that is not two integers is left to gensim to report.
    """
    if fmt not in ("word2vec-binary", "word2vec-text"):
        return
    compressed = is_gzip(path)
    try:
        size = path.stat().st_size
        if compressed:
            import gzip

            with gzip.open(path, "rb") as fh:
                first = fh.readline(1024)
        else:
            with open(path, "rb") as fh:
                first = fh.readline(1024)
    except (OSError, EOFError):
        return  # unreadable: the reader says so, naming the file
    first = first.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark
    parts = first.split()
    if len(parts) != 2 or not all(x.isdigit() for x in parts):
        return
    count, dim = int(parts[0]), int(parts[1])
    if dim < 1:
        raise EmbeddingsFormatError(f"embeddings file {str(path)!r} has a wrong header: it "
                                    f"announces dimension {dim}; {_EXPECTED}")
    rows = count if limit is None else min(count, limit)
    need = rows * ((4 * dim + 2) if fmt == "word2vec-binary" else (2 * dim + 1))
    have = size * _GZIP_MAX_RATIO if compressed else size - len(first)
    if need > have:
        which = ", which need" if rows == count else f"; the first {rows} need"
        holds = "can hold at most" if compressed else "holds"
        raise EmbeddingsFormatError(
            f"embeddings file {str(path)!r} is truncated or its header is wrong: the header "
            f"announces {count} words of dimension {dim}{which} at least {need} bytes, but "
            f"the file {holds} {have}")


def _load_gensim(path: Path, fmt: str, vocab_size: int | None) -> tuple[list[str], np.ndarray]:
    """Read a word2vec binary file with gensim (the text formats: :func:`_read_text`)."""
    from gensim.models import KeyedVectors

    limit = None if vocab_size is None else max(2 * vocab_size, vocab_size + 1000)
    if is_gzip(path) and not path.name.lower().endswith(".gz"):
        # gensim decides on decompression by the name alone
        raise EmbeddingsFormatError(f"embeddings file {str(path)!r} is gzip-compressed but its "
                                    "name does not end in .gz, which the word2vec binary "
                                    "reader needs: rename it to end in .gz, or decompress it")
    while True:
        error = None
        _check_header(path, fmt, limit)  # before gensim allocates what the header announces
        # gensim (4.4) re-opens a header-less (GloVe) file without closing it; the handle
        # is closed when gensim's frame is freed, inside this block, with a
        # ResourceWarning that is silenced here.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            try:
                kv = KeyedVectors.load_word2vec_format(
                    str(path), binary=(fmt == "word2vec-binary"),
                    no_header=(fmt == "glove-text"), limit=limit, datatype=np.float32)
            except (ValueError, EOFError, UnicodeDecodeError, OSError, IndexError) as exc:
                error = str(exc)  # raised below, once gensim's frames (and file) are freed
        if error is not None:
            raise EmbeddingsFormatError(
                f"could not read embeddings file {str(path)!r} as {fmt} (corrupt or truncated?): "
                f"{error}; {_EXPECTED}")
        words = list(kv.index_to_key)
        keep = _select_real_words(words, vocab_size)
        if limit is None or vocab_size is None or len(keep) >= vocab_size \
                or len(words) < limit:  # enough words, or the file is exhausted
            break
        limit *= 2  # too many non-words among the first rows: read further
        del kv
    if len(keep) == 0:
        raise EmbeddingsFormatError(
            f"embeddings file {str(path)!r} holds no real words (only punctuation or number "
            f"tokens among its {len(words)} rows); {_EXPECTED}")
    vectors = kv.vectors
    del kv
    vectors = _compact_rows(vectors, keep)
    return [words[i] for i in keep], vectors


# -- the text formats: word2vec / fastText text (with a header) and GloVe (without) ---------
_BOM = "\ufeff"


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _is_number(field: str) -> bool:
    try:
        float(field)
    except ValueError:
        return False
    return True


def _trailing_numbers(fields: Sequence[str]) -> int:
    """How many of the last fields parse as numbers, leaving at least one for the word."""
    n = 0
    while n < len(fields) - 1 and _is_number(fields[-1 - n]):
        n += 1
    return n


@dataclass
class _TextRows:
    """What :func:`_read_text` read: the kept rows, and what it dropped as duplicates."""

    words: list[str]
    vectors: np.ndarray
    rows: int  # rows read (every row, kept or not)
    duplicates: int
    first_duplicate: tuple[str, int] | None  # (word, line number)


def check_text_encoding(encoding: object) -> None:
    """``encoding`` names a text encoding in which a newline is the byte ``\\n``
    (``TypeError``/``ValueError`` otherwise)."""
    import codecs

    if not isinstance(encoding, str):
        raise TypeError(f"encoding must be a str; got {encoding!r} of type "
                        f"{type(encoding).__name__}")
    try:
        codecs.lookup(encoding).decode(b"\n")
    except (LookupError, UnicodeDecodeError):
        raise ValueError(f"encoding must be a text encoding Python knows; got {encoding!r}") \
            from None


def _text_lines(path: Path, encoding: str) -> Iterable[tuple[int, str]]:
    """``(line number, line)`` of a text file (``.gz`` too), decoded strictly.

    The byte-order mark is dropped and the line end (``\\n`` or ``\\r\\n``) removed;
    bytes that are not valid in ``encoding`` raise :class:`EmbeddingsFormatError`
    naming the line and the byte offset in the file.
    """
    import gzip

    opener = gzip.open if is_gzip(path) else open
    offset = 0
    try:
        with opener(path, "rb") as fh:
            for number, raw in enumerate(fh, start=1):
                try:
                    line = raw.decode(encoding)
                except UnicodeDecodeError as exc:
                    raise EmbeddingsFormatError(
                        f"line {number} of {str(path)!r} is not valid {encoding}: byte "
                        f"0x{raw[exc.start]:02x} at offset {offset + exc.start} of the file; give "
                        f"the file's encoding (encoding= in Python, --embeddings-encoding on the "
                        "command line)") from None
                offset += len(raw)
                if number == 1 and line.startswith(_BOM):
                    line = line[1:]
                yield number, line.rstrip("\r\n")
    except (OSError, EOFError) as exc:
        raise EmbeddingsFormatError(
            f"cannot read embeddings file {str(path)!r} (corrupt or truncated?): {exc}") \
            from None


def _bad_line(path: Path, number: int, fields: list[str], dim: int) -> EmbeddingsFormatError:
    """The one-line error for a row that is not a word and exactly ``dim`` numbers."""
    where = f"line {number} of {str(path)!r}"
    if len(fields) > dim and not all(_is_number(f) for f in fields[-dim:]):
        bad = next(f for f in reversed(fields[-dim:]) if not _is_number(f))
        return EmbeddingsFormatError(f"{where} has a value that is not a number: {bad!r}; "
                                     f"expected a word and {_plural(dim, 'number')}")
    if len(fields) > dim and not " ".join(fields[:-dim]).strip():
        return EmbeddingsFormatError(f"{where} has no word before its {_plural(dim, 'value')}; "
                                     f"expected a word and {_plural(dim, 'number')}")
    found = _trailing_numbers(fields)
    return EmbeddingsFormatError(f"{where} has {_plural(found, 'value')}; expected {dim}")


def _read_text(path: Path, fmt: str, *, encoding: str = "utf-8",
               keep: Callable[[str], bool] = is_word,
               max_words: int | None = None) -> _TextRows:
    """Read a word2vec / fastText text file (``fmt="word2vec-text"``) or GloVe text exactly.

    A row is a word and ``dim`` numbers separated by single spaces; the word is
    everything before the last ``dim`` fields, so it may hold spaces (GloVe 840B).
    ``dim`` comes from the header ``<count> <dim>``, or for GloVe from the first
    row: every field but the first if they all are numbers, else the numbers at its
    end.  Blank lines are skipped; any other row that is not a non-empty word and
    exactly ``dim`` numbers raises :class:`EmbeddingsFormatError` in one line.
    The first occurrence of a repeated word is kept.  Rows whose word fails
    ``keep`` are skipped; reading stops once ``max_words`` words are kept.
    """
    lines = iter(_text_lines(path, encoding))
    count: int | None = None
    dim = 0
    header_line = 0
    pending: tuple[int, str] | None = None
    for number, line in lines:
        if not line.strip():
            continue
        if fmt == "word2vec-text":
            parts = line.split()
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise EmbeddingsFormatError(
                    f"line {number} of {str(path)!r} should be the header '<count> <dim>'; "
                    f"found {line[:40]!r}")
            count, dim, header_line = int(parts[0]), int(parts[1]), number
            if dim < 1:
                raise EmbeddingsFormatError(f"embeddings file {str(path)!r} has a wrong "
                                            f"header: it announces dimension {dim}")
        else:
            fields = line.rstrip().split(" ")
            dim = len(fields) - 1 if all(_is_number(f) for f in fields[1:]) \
                else _trailing_numbers(fields)
            if dim < 1 or not fields[0]:
                raise EmbeddingsFormatError(
                    f"line {number} of {str(path)!r} is not a word followed by numbers; "
                    f"found {line[:40]!r}; {_EXPECTED}")
            pending = (number, line)
        break
    if dim == 0:
        raise EmbeddingsFormatError(f"embeddings file {str(path)!r} holds no rows; {_EXPECTED}")

    capacity = 1024 if count is None else max(1, min(count, max_words or count, 1 << 16))
    vectors = np.empty((capacity, dim), dtype=np.float32)
    words: list[str] = []
    seen: set[str] = set()
    rows = duplicates = 0
    first_duplicate: tuple[str, int] | None = None
    first_row = True

    def rows_of() -> Iterable[tuple[int, str]]:
        if pending is not None:
            yield pending
        yield from lines

    for number, line in rows_of():
        if not line.strip():
            continue
        fields = line.rstrip().split(" ")
        vector = None
        word = ""
        if len(fields) > dim:
            try:
                vector = np.array(fields[-dim:], dtype=np.float32)
            except ValueError:
                vector = None
        if len(fields) == dim + 1:
            word = fields[0]
        elif vector is not None and not _is_number(fields[-dim - 1]):
            word = " ".join(fields[:-dim])
        else:
            vector = None
        if vector is None or not word.strip():
            if first_row and count is not None and len(fields) > 1 and \
                    _trailing_numbers(fields) not in (dim, 0):
                raise EmbeddingsFormatError(
                    f"the header of {str(path)!r} (line {header_line}) announces dimension "
                    f"{dim} but line {number} has {_plural(_trailing_numbers(fields), 'value')}")
            raise _bad_line(path, number, fields, dim)
        first_row = False
        rows += 1
        if count is not None and rows > count:
            raise EmbeddingsFormatError(
                f"the header of {str(path)!r} (line {header_line}) announces "
                f"{_plural(count, 'word')} but the file holds more (line {number} is row {rows})")
        if word in seen:
            duplicates += 1
            if first_duplicate is None:
                first_duplicate = (word, number)
            continue
        seen.add(word)
        if not keep(word):
            continue
        if len(words) == vectors.shape[0]:
            vectors.resize((2 * vectors.shape[0], dim), refcheck=False)  # in place
        vectors[len(words)] = vector
        words.append(word)
        if max_words is not None and len(words) >= max_words:
            break
    else:
        if count is not None and rows != count:
            raise EmbeddingsFormatError(
                f"the header of {str(path)!r} (line {header_line}) announces "
                f"{_plural(count, 'word')} but the file holds {rows}")
    vectors.resize((len(words), dim), refcheck=False)
    return _TextRows(words, vectors, rows, duplicates, first_duplicate)


@dataclass(frozen=True)
class ParsedFile:
    """What :func:`read_file` read: the kept words and vectors, and the repeats dropped.

    ``duplicates`` is ``(rows dropped, the first repeated word, its line)``, or ``None``
    when no word repeats (the word2vec binary format is read by gensim: always ``None``).
    """

    words: list[str]
    vectors: np.ndarray
    rows: int
    duplicates: tuple[int, str, int] | None = None


def read_file(path: Path, fmt: str, vocab_size: int | None, encoding: str) -> ParsedFile:
    """Read an embeddings file in format ``fmt``: the first ``vocab_size`` real words.

    Nothing is warned here: :func:`report` warns of repeated words and raises when no
    real word was read (so that a cached read, :mod:`emprivacy.embeddings.cache`,
    reports exactly as a fresh one).
    """
    if fmt == "word2vec-binary":
        words, vectors = _load_gensim(path, fmt, vocab_size)
        return ParsedFile(words, vectors, len(words))
    limit = None if vocab_size is None else max(2 * vocab_size, vocab_size + 1000)
    _check_header(path, fmt, limit)  # a header announcing more than the file can hold
    read = _read_text(path, fmt, encoding=encoding, max_words=vocab_size)
    duplicates = None if read.first_duplicate is None else (read.duplicates, *read.first_duplicate)
    return ParsedFile(read.words, read.vectors, read.rows, duplicates)


def repeats_message(path: Path, duplicates: tuple[int, str, int]) -> str:
    """The warning for a file that repeats words (``duplicates`` as in :class:`ParsedFile`)."""
    count, word, line = duplicates
    return (f"embeddings file {str(path)!r} repeats words: {_plural(count, 'row')} "
            f"dropped (the first: {word!r} on line {line}); each word keeps its first vector")


def report(path: Path, parsed: ParsedFile, *, stacklevel: int) -> None:
    """Warn that ``path`` repeats words (``stacklevel`` counted from the caller of this
    function); raise :class:`EmbeddingsFormatError` if it holds no real word."""
    if parsed.duplicates is not None:
        warnings.warn(repeats_message(path, parsed.duplicates), UserWarning,
                      stacklevel=stacklevel + 1)
    if not parsed.words:
        raise EmbeddingsFormatError(
            f"embeddings file {str(path)!r} holds no real words (only punctuation or number "
            f"tokens among its {parsed.rows} rows); {_EXPECTED}")
