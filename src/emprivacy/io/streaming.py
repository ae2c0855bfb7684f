"""Records of long documents: the released text or bag held outside memory, written in pieces.

A record is a dict whose last field is what it releases: ``text`` (text mode) or
``bag``.  For a document of at most one block
(:attr:`~emprivacy.obfuscation.config.ObfuscationConfig.block_words`) that field is a
``str`` or a ``list`` as always.  For a longer one, :meth:`Obfuscator.stream
<emprivacy.obfuscation.obfuscator.Obfuscator.stream>` gives a *body* instead:

* :class:`TextBody` — the released text, written block by block to an anonymous
  temporary file (in ``$TMPDIR``: removed when closed, or when the process ends);
* :class:`BagBody` — the released bag as counts: how many times each vocabulary word
  was released (one integer per vocabulary word) and how many times each word
  released without the mechanism (``[UNK]``, or an out-of-vocabulary word under
  ``oov="keep"``).  A bag is a multiset released in sorted order, so the counts
  give it whatever the document's length.

:func:`write_record` writes a record in any of the command line's formats, a body
in pieces, byte for byte as :func:`emprivacy.io.outputs.format_record` writes the
same record held whole; :func:`materialise` turns a body into the ``str`` or
``list`` (in memory).  :func:`read_jsonl_records` reads the records of a JSONL file
back with their bodies in pieces, :func:`copy_jsonl_record` writes one in any
format the same way, and :func:`copy_jsonl_file` copies a whole file (hashing its
bytes as it reads them), so that a JSONL file of long records can be merged
or converted in bounded memory.
"""

from __future__ import annotations

import codecs
import hashlib
import heapq
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any

import numpy as np

from emprivacy.io import outputs  # outputs.format_record, looked up at each call

__all__ = [
    "BODY_FIELDS",
    "BagBody",
    "TextBody",
    "copy_jsonl_file",
    "copy_jsonl_record",
    "is_streamed",
    "materialise",
    "read_jsonl_records",
    "write_record",
]

#: The fields that hold what a record releases (always its last field).
BODY_FIELDS = ("text", "bag")

#: Characters (or words) per piece written.
_PIECE = 1 << 16


class TextBody:
    """The released text of a long document, kept in an anonymous temporary file.

    >>> body = TextBody()
    >>> body.write("Noisy text, "); body.write("block by block.\\n")
    >>> "".join(body.chunks()), body.ends_with_newline
    ('Noisy text, block by block.\\n', True)
    >>> body.close()
    """

    def __init__(self) -> None:
        # surrogatepass: a lone surrogate of a JSON input survives the round trip
        self._fh: IO[str] = tempfile.TemporaryFile(
            "w+", encoding="utf-8", errors="surrogatepass", newline="")
        self._last = ""
        self.chars = 0

    def write(self, text: str) -> None:
        """Append ``text``."""
        if text:
            self._fh.write(text)
            self._last = text[-1]
            self.chars += len(text)

    @property
    def ends_with_newline(self) -> bool:
        return self._last == "\n"

    def chunks(self, size: int | None = None) -> Iterator[str]:
        """The text from its start, ``size`` characters at a time (default 65,536)."""
        self._fh.flush()
        self._fh.seek(0)
        while chunk := self._fh.read(size or _PIECE):
            yield chunk
        self._fh.seek(0, 2)

    def value(self) -> str:
        """The whole text (in memory)."""
        return "".join(self.chunks())

    def close(self) -> None:
        self._fh.close()

    def __repr__(self) -> str:
        return f"TextBody(chars={self.chars})"


class BagBody:
    """The released bag of a long document, as counts.

    Parameters
    ----------
    counts : (V,) int array
        ``counts[i]``: how many times vocabulary word ``i`` was released.
    vocabulary : sequence of str, length V
    order : (V,) int array
        The vocabulary's rows sorted by their words (``sorted`` order of ``str``).
    fixed : mapping of str to int
        Words released without the mechanism (placeholders, kept words) and their
        counts; none of them is a vocabulary word.

    >>> body = BagBody(np.array([2, 0, 1]), ["cat", "dog", "ant"], np.array([2, 0, 1]),
    ...                {"[UNK]": 2})
    >>> list(body.words()), len(body)
    (['[UNK]', '[UNK]', 'ant', 'cat', 'cat'], 5)
    """

    def __init__(self, counts: np.ndarray, vocabulary: Sequence[str], order: np.ndarray,
                 fixed: Mapping[str, int]) -> None:
        self.counts = counts
        self.vocabulary = vocabulary
        self.order = order
        self.fixed = {w: int(k) for w, k in fixed.items() if k}

    def __len__(self) -> int:
        return int(self.counts.sum()) + sum(self.fixed.values())

    def items(self) -> Iterator[tuple[str, int]]:
        """``(word, count)`` of every word released, in sorted order of the words."""
        rows = self.order[self.counts[self.order] > 0]
        vocab, counts = self.vocabulary, self.counts
        released = ((vocab[i], int(counts[i])) for i in rows.tolist())
        return heapq.merge(released, sorted(self.fixed.items()), key=lambda item: item[0])

    def words(self) -> Iterator[str]:
        """The bag's words in sorted order, repeats included (``sorted`` of the list)."""
        for word, count in self.items():
            for _ in range(count):
                yield word

    def value(self) -> list[str]:
        """The sorted list of words (in memory)."""
        return list(self.words())

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"BagBody(words={len(self)})"


Body = TextBody | BagBody


def is_streamed(record: Mapping[str, Any]) -> bool:
    """Whether ``record`` holds a body (:class:`TextBody`, :class:`BagBody`)."""
    return any(isinstance(record.get(k), TextBody | BagBody) for k in BODY_FIELDS)


def materialise(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its body, if it has one, read into a ``str`` or a ``list``."""
    for key in BODY_FIELDS:
        body = record.get(key)
        if isinstance(body, TextBody | BagBody):
            return {**record, key: body.value()}
    return record


def _body_key(record: dict[str, Any]) -> str:
    key: str = next(reversed(record))
    if key not in BODY_FIELDS or not isinstance(record[key], TextBody | BagBody):
        raise ValueError("a streamed record's body must be its last field")
    return key


def write_record(record: dict[str, Any], fmt: str, write: Callable[[str], Any]) -> None:
    """Write one record in ``fmt`` (``jsonl``, ``bag``, ``text``), then its line end.

    Exactly ``format_record(materialise(record), fmt)`` followed by ``"\\n"`` (in the
    text format, only if the text does not end with one), written in pieces of
    bounded size when the record holds a body.

    >>> out = []
    >>> write_record({"id": "a", "bag": ["cat", "dog"]}, "jsonl", out.append)
    >>> "".join(out)
    '{"id":"a","bag":["cat","dog"]}\\n'
    """
    if not is_streamed(record):
        line = outputs.format_record(record, fmt)
        write(line)
        if not (fmt == "text" and line.endswith("\n")):
            write("\n")
        return
    key = _body_key(record)
    body = record[key]
    if fmt not in ("jsonl", "bag", "text"):
        raise ValueError(f"format must be one of 'bag', 'jsonl', 'text'; got {fmt!r}")
    if fmt != "jsonl" and (fmt == "text") != (key == "text"):
        outputs.format_record({k: v for k, v in record.items() if k != key}, fmt)  # its KeyError
    if fmt == "jsonl":
        head = json.dumps({k: v for k, v in record.items() if k != key}, ensure_ascii=False,
                          separators=(",", ":"))
        write(head[:-1] + ("," if len(head) > 2 else "") + json.dumps(key) + ":")
        if isinstance(body, TextBody):
            write('"')
            for chunk in body.chunks():
                write(json.dumps(chunk, ensure_ascii=False)[1:-1])  # escapes char by char
            write('"}\n')
        else:
            write("[")
            _write_words(body, write, ",", lambda w: json.dumps(w, ensure_ascii=False))
            write("]}\n")
    elif isinstance(body, TextBody):
        for chunk in body.chunks():
            write(chunk)
        if not body.ends_with_newline:
            write("\n")
    else:
        _write_words(body, write, " ", str)
        write("\n")


def _write_words(body: BagBody, write: Callable[[str], Any], sep: str,
                 encode: Callable[[str], str]) -> None:
    """The bag's words, encoded, joined by ``sep``, in pieces of about ``_PIECE`` words."""
    first = True
    for word, count in body.items():
        enc = encode(word)
        while count:
            k = min(count, _PIECE)
            write(("" if first else sep) + sep.join([enc] * k))
            first = False
            count -= k


# -- reading a JSONL record back in pieces --------------------------------------------------
class _Reader:
    """UTF-8 text read from a binary file ahead of a cursor, a piece at a time."""

    def __init__(self, fh: IO[bytes]) -> None:
        self._fh = fh
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self.buf = ""
        self.pos = 0
        self.eof = False

    def more(self) -> bool:
        """Read on (dropping what the cursor has passed); ``False`` at the end of the file."""
        if self.eof:
            return False
        data = self._fh.read(_PIECE)
        self.eof = not data
        text = self._decoder.decode(data, final=self.eof)
        self.buf = self.buf[self.pos:] + text
        self.pos = 0
        return bool(text) or not self.eof

    def peek(self) -> str:
        """The next character that is not JSON whitespace (``""`` at the end)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise ValueError(f"expected {char!r} in a JSONL record")
        self.pos += 1

    def value(self) -> Any:
        """One JSON value (a field of a record's head, which is small)."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError:
                if self.more():
                    continue
                raise
            if isinstance(value, int | float) and not isinstance(value, bool) and (
                    end == len(self.buf) or self.buf[end] in "0123456789.eE+-") \
                    and self.more():  # a number may go on in the next piece
                continue
            self.pos = end
            return value

    def string_pieces(self) -> Iterator[str]:
        """The contents of a JSON string whose opening quote was read, unescaped, in pieces."""
        while True:
            buf, start = self.buf, self.pos
            end = buf.find('"', start)
            while end >= 0 and _escaped(buf, start, end):
                end = buf.find('"', end + 1)
            cut = end if end >= 0 else _escape_cut(buf, start, len(buf))
            if cut > start:
                yield json.loads('"' + buf[start:cut] + '"')
            self.pos = cut
            if end >= 0:
                self.pos += 1
                return
            if not self.more():
                raise ValueError("unterminated string in a JSONL record")


_DECODER = json.JSONDecoder()


def _escaped(buf: str, start: int, quote: int) -> bool:
    """Whether the quote at ``quote`` is escaped: an odd run of backslashes before it
    (``start`` never lies inside an escape)."""
    k = quote
    while k > start and buf[k - 1] == "\\":
        k -= 1
    return (quote - k) % 2 == 1


def _escape_cut(buf: str, start: int, stop: int) -> int:
    """The last position ≤ ``stop`` that cuts no escape sequence (nor a surrogate pair's)."""
    cut = stop
    b = buf.rfind("\\", max(start, stop - 6), stop)
    if b >= 0:
        k = b
        while k > start and buf[k - 1] == "\\":
            k -= 1
        if (b - k) % 2 == 0:  # b starts an escape: \X or \uXXXX
            length = 6 if b + 1 < stop and buf[b + 1] == "u" else 2
            if b + length > stop:
                cut = b
    tail = buf[max(start, cut - 6):cut]
    if len(tail) == 6 and tail[:2] == "\\u" and tail[2:4].lower() in ("d8", "d9", "da", "db") \
            and not _escaped(buf, start, cut - 6):
        cut -= 6  # a high surrogate waits for its low half
    return cut


def _next_record(reader: _Reader) -> tuple[dict[str, Any], str | None, Iterator[Any]] | None:
    if reader.peek() == "":
        return None
    reader.expect("{")
    head: dict[str, Any] = {}
    if reader.peek() == "}":
        reader.pos += 1
        return head, None, iter(())
    while True:
        key = reader.value()
        reader.expect(":")
        if key in BODY_FIELDS and reader.peek() in ('"', "["):
            return head, key, _body_pieces(reader, reader.peek())
        head[key] = reader.value()
        ch = reader.peek()
        reader.pos += 1
        if ch == "}":
            return head, None, iter(())
        if ch != ",":
            raise ValueError("expected ',' or '}' in a JSONL record")


def _body_pieces(reader: _Reader, opening: str) -> Iterator[Any]:
    reader.pos += 1
    if opening == '"':
        yield from reader.string_pieces()
    else:
        yield from _bag_pieces(reader)
    if reader.peek() != "}":
        raise ValueError("a JSONL record's body must be its last field")
    reader.pos += 1


def _bag_pieces(reader: _Reader) -> Iterator[list[str]]:
    """The words of a JSON list of strings whose ``[`` was read, in lists of ≤ ``_PIECE``.

    Each word is decoded by the json module's string scanner; a word cut by the end of
    what was read is read again from its start once more is.
    """
    words: list[str] = []
    first = True
    while True:
        buf = reader.buf
        pos = item = reader.pos  # item: just after the last complete word
        done = False
        try:
            while len(words) < _PIECE:
                while buf[pos] in _SPACE:
                    pos += 1
                if first and buf[pos] == "]":
                    pos += 1
                    done = True
                    break
                if buf[pos] != '"':
                    raise ValueError("expected a string in a JSONL record's bag")
                word, pos = _scanstring(buf, pos + 1)
                while buf[pos] in _SPACE:
                    pos += 1
                sep = buf[pos]
                if sep not in ",]":
                    raise ValueError("expected ',' or ']' in a JSONL record's bag")
                pos += 1
                words.append(word)
                first = False
                item = pos
                if sep == "]":
                    done = True
                    break
        except (IndexError, json.JSONDecodeError):  # a word cut by the end of the buffer
            reader.pos = item
            if words:
                yield words
                words = []
            if not reader.more():
                raise ValueError("unterminated bag in a JSONL record") from None
            continue
        reader.pos = pos if done else item
        if words:
            yield words
            words = []
        if done:
            return


_SPACE = frozenset(" \t\r\n")
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def read_jsonl_records(fh: IO[bytes]
                       ) -> Iterator[tuple[dict[str, Any], str | None, Iterator[Any]]]:
    """The records of a JSONL file (binary, UTF-8), each with its body in pieces.

    Yields ``(head, key, pieces)``: ``head`` every field before the body (``text``
    or ``bag``, the last field, as :func:`write_record` writes it), ``key`` the body's
    field (``None`` for a record without one) and ``pieces`` its contents — pieces of
    the text (``str``) or lists of the bag's words — to be consumed (or not) before
    the next record is asked for.  Memory: one piece and one head, whatever the
    length of a record.  Give them to :func:`copy_jsonl_record` to write them.

    >>> import io
    >>> data = b'{"id":"a","n_words":2,"bag":["cat","dog"]}\\n{"id":"b","text":"A \\\\"b\\\\""}\\n'
    >>> [(head, key, list(pieces)) for head, key, pieces in read_jsonl_records(io.BytesIO(data))]
    [({'id': 'a', 'n_words': 2}, 'bag', [['cat', 'dog']]), ({'id': 'b'}, 'text', ['A "b"'])]
    """
    reader = _Reader(fh)
    while (record := _next_record(reader)) is not None:
        head, key, pieces = record
        yield head, key, pieces
        for _ in pieces:  # what the caller left unread
            pass


def copy_jsonl_record(head: dict[str, Any], key: str | None, pieces: Iterator[Any], fmt: str,
                      write: Callable[[str], Any]) -> None:
    """Write a record of :func:`read_jsonl_records` in ``fmt``, as :func:`write_record` does.

    >>> import io
    >>> out = []
    >>> for record in read_jsonl_records(io.BytesIO(b'{"id":"a","bag":["dog","cat"]}')):
    ...     copy_jsonl_record(*record, "bag", out.append)
    >>> "".join(out)
    'dog cat\\n'
    """
    if key is None:
        write_record(head, fmt, write)
        return
    if fmt == "jsonl":
        text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
        write(text[:-1] + ("," if len(text) > 2 else "") + json.dumps(key) + ":")
        if key == "text":
            write('"')
            for piece in pieces:
                write(json.dumps(piece, ensure_ascii=False)[1:-1])
            write('"}\n')
        else:
            write("[")
            first = True
            for words in pieces:
                if words:
                    write(("" if first else ",")
                          + json.dumps(words, ensure_ascii=False, separators=(",", ":"))[1:-1])
                    first = False
            write("]}\n")
        return
    if fmt not in ("bag", "text"):
        raise ValueError(f"format must be one of 'bag', 'jsonl', 'text'; got {fmt!r}")
    if fmt != key:
        outputs.format_record(head, fmt)  # the KeyError of the missing field, as for a whole record
    last = ""
    first = True
    for piece in pieces:
        if key == "text":
            if piece:
                write(piece)
                last = piece[-1]
        else:
            write(("" if first else " ") + " ".join(piece))
            first = False
    if key == "bag" or last != "\n":
        write("\n")


class _HashingReader:
    """A binary file whose bytes read so far are hashed (SHA-256)."""

    def __init__(self, fh: IO[bytes]) -> None:
        self._fh = fh
        self.sha256 = hashlib.sha256()

    def read(self, size: int = -1) -> bytes:
        data = self._fh.read(size)
        self.sha256.update(data)
        return data


def copy_jsonl_file(path: str | os.PathLike[str], fmt: str, write: Callable[[str], Any], *,
                    on_record: Callable[[dict[str, Any]], Any] | None = None
                    ) -> tuple[int, str]:
    """Write every record of a JSONL file in ``fmt``; ``(records, SHA-256 of the file)``.

    What merging a corpus run's partition file needs, in bounded memory: each record
    is read with its body in pieces (:func:`read_jsonl_records`), given to
    ``on_record`` (its head: every field but the text or bag) and written by
    :func:`copy_jsonl_record` — byte for byte ``format_record(record, fmt) + "\\n"``
    for ``jsonl`` and ``bag``; the digest is of every byte of the file, read once (so a
    file that does not match its expected digest has been written out by then: write
    into something that can still be discarded).  Raises :class:`OSError` if the file
    cannot be read, :class:`ValueError` if it is not JSONL.
    """
    with open(path, "rb") as raw:
        fh = _HashingReader(raw)
        n = 0
        for head, key, pieces in read_jsonl_records(fh):  # type: ignore[arg-type]
            if on_record is not None:
                on_record(head)
            copy_jsonl_record(head, key, pieces, fmt, write)
            n += 1
        while fh.read(_PIECE):  # whatever follows the last record counts in the digest
            pass
    return n, fh.sha256.hexdigest()
