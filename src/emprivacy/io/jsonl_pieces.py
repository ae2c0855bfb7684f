"""JSONL records read back in pieces: a record's head whole, its body (the released
``text`` or ``bag``, its last field) a piece at a time, so that a JSONL file of long
records can be merged or converted in bounded memory.

:func:`read_jsonl_records` reads the records of a JSONL file back with their bodies in
pieces, :func:`copy_jsonl_record` writes one in any of the command line's formats, byte
for byte as :func:`emprivacy.io.streaming.write_record` writes the record it was made
from, and :func:`copy_jsonl_file` copies a whole file (hashing its bytes as it reads them):
what merging a corpus run's partition files needs.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from typing import IO, Any

from emprivacy.io import outputs  # outputs.format_record, looked up at each call
from emprivacy.io.streaming import BODY_FIELDS, write_record

__all__ = ["copy_jsonl_file", "copy_jsonl_record", "read_jsonl_records"]

#: Bytes read (or words gathered) per piece.
_PIECE = 1 << 16


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
