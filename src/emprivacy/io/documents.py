"""A document: an id and its text, in memory or read in chunks.

:class:`Document` is what every input reader yields (:mod:`emprivacy.io.corpus`,
:mod:`emprivacy.io.records`).  A text file's document, and standard input's, is read
when it is used, chunk by chunk (:meth:`Document.chunks`, :func:`read_text_chunks`:
:data:`CHUNK_CHARS` at a time), never whole: its errors (a file gone, invalid UTF-8)
come then.  :mod:`emprivacy.io.corpus` re-exports every public name of this module.
"""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO, cast

from emprivacy.exceptions import InputError

__all__ = ["CHUNK_CHARS", "Document", "read_text_chunks", "standard_input"]

PathLike = str | os.PathLike[str]


#: Text files and standard input are read this many bytes (characters) at a time, and a
#: document's text is cut into chunks of about this many characters (:meth:`Document.chunks`).
CHUNK_CHARS = 1 << 16


class Document:
    """One input document: a unique identifier and its text.

    ``Document(id, text)`` holds its text; a text file's or standard input's document
    (:meth:`from_file`, :meth:`from_stream`) is read when it is used, chunk by chunk
    (:meth:`chunks`), so that a long document is never held whole.  ``text`` reads
    it whole.  Documents are immutable; two are equal when their identifiers and
    texts are (files at the same path are equal without being read).

    >>> doc = Document("a", "Some text.")
    >>> doc.id, doc.text, list(doc.chunks())
    ('a', 'Some text.', ['Some text.'])
    """

    __slots__ = ("_source", "id")
    __match_args__ = ("id", "text")

    id: str
    _source: str | Path | TextIO

    def __init__(self, id: str, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str; got {type(text).__name__}")
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "_source", text)

    @classmethod
    def from_file(cls, id: str, path: PathLike) -> Document:
        """The document of a UTF-8 text file, read when used (:func:`read_text_chunks`)."""
        doc = cls.__new__(cls)
        object.__setattr__(doc, "id", id)
        object.__setattr__(doc, "_source", Path(path))
        return doc

    @classmethod
    def from_stream(cls, id: str, stream: TextIO) -> Document:
        """The document of a text stream (standard input), read once, when used."""
        doc = cls.__new__(cls)
        object.__setattr__(doc, "id", id)
        object.__setattr__(doc, "_source", stream)
        return doc

    @property
    def path(self) -> Path | None:
        """The file the text is read from (:meth:`from_file`), else ``None``."""
        return self._source if isinstance(self._source, Path) else None

    @property
    def in_memory(self) -> bool:
        """Whether the text is held (``Document(id, text)``), not read from a file or stream."""
        return isinstance(self._source, str)

    @property
    def text(self) -> str:
        """The whole text (a file or stream is read whole)."""
        source = self._source
        return source if isinstance(source, str) else "".join(self.chunks())

    def chunks(self) -> Iterator[str]:
        """The text in chunks of about :data:`CHUNK_CHARS` characters, cut anywhere.

        A file is read as :func:`read_text_file` reads it (UTF-8, universal newlines),
        chunk by chunk: errors (missing file, invalid UTF-8) come when they are read.
        """
        source = self._source
        if isinstance(source, str):
            if len(source) <= CHUNK_CHARS:
                yield source
            else:
                for start in range(0, len(source), CHUNK_CHARS):
                    yield source[start:start + CHUNK_CHARS]
        elif isinstance(source, Path):
            yield from read_text_chunks(source)
        else:
            yield from _stream_chunks(source)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Document is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Document is immutable; cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Document):
            return NotImplemented
        if self.id != other.id:
            return False
        if self._source is other._source or (self.path is not None and self.path == other.path):
            return True
        return self.text == other.text

    def __hash__(self) -> int:
        return hash(("Document", self.id))

    def __repr__(self) -> str:
        if self.path is not None:
            return f"Document(id={self.id!r}, path={str(self.path)!r})"
        if isinstance(self._source, str):
            return f"Document(id={self.id!r}, text={self._source!r})"
        return f"Document(id={self.id!r}, stream={self._source!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        if isinstance(self._source, str):
            return (Document, (self.id, self._source))
        if isinstance(self._source, Path):
            return (Document.from_file, (self.id, self._source))
        raise TypeError("a document read from a stream cannot be pickled")


def read_text_chunks(path: PathLike) -> Iterator[str]:
    """The text of a UTF-8 file, chunk by chunk (about :data:`CHUNK_CHARS` characters each).

    Exactly :func:`read_text_file`'s text (newlines ``\\r\\n`` and ``\\r`` read as
    ``\\n``) and errors (the byte offset of invalid UTF-8 counted from the start of the
    file), in bounded memory: a chunk may end anywhere but inside a character or a
    ``\\r\\n``.  Stopping early leaves the rest of the file unread (and unchecked).
    """
    path = Path(path)
    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"input file {str(path)!r} does not exist") from None
    except OSError as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") from None
    with fh:
        yield from _utf8_chunks(fh, f"input file {str(path)!r}")


def _utf8_chunks(fh: BinaryIO, what: str) -> Iterator[str]:
    """The text of the bytes of ``fh``, as :func:`read_text_chunks` reads a file; ``what``
    names the source in the errors (``"input file 'a.txt'"``, ``"standard input"``)."""
    offset = 0  # of the first byte not yet decoded
    pending = b""
    cr = False  # the previous chunk ended in "\r"
    while True:
        try:
            data = fh.read(CHUNK_CHARS)
        except OSError as exc:
            raise InputError(f"cannot read {what}: {exc.strerror or exc}") from None
        final = not data
        buf = pending + data
        try:
            text, used = codecs.utf_8_decode(buf, "strict", final)
        except UnicodeDecodeError as exc:
            raise InputError(f"{what} is not valid UTF-8 (byte {offset + exc.start})") \
                from None
        offset += used
        pending = buf[used:]
        if cr:
            text = "\r" + text
        cr = not final and text.endswith("\r")
        if cr:
            text = text[:-1]
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if text:
            yield text
        if final:
            return


class _StrictStdin:
    """Standard input's bytes read as a text stream exactly as a file is read
    (:func:`read_text_chunks`: strict UTF-8, an invalid byte named by its offset; universal
    newlines), a chunk at a time: ``read(size)`` as a text stream's."""

    def __init__(self, fh: BinaryIO) -> None:
        self._chunks = _utf8_chunks(fh, "standard input")
        self._pending = ""

    def read(self, size: int | None = -1) -> str:
        if size is None or size < 0:
            text, self._pending = self._pending + "".join(self._chunks), ""
            return text
        while len(self._pending) < size:
            chunk = next(self._chunks, "")
            if not chunk:
                break
            self._pending += chunk
        text, self._pending = self._pending[:size], self._pending[size:]
        return text


def standard_input() -> TextIO:
    """:data:`sys.stdin` to read a document from, decoded as strictly as a file: invalid
    UTF-8 is an :class:`InputError` naming standard input and the byte offset, never
    replaced (Python's own ``sys.stdin`` escapes such bytes in a C or POSIX locale).  A
    stream without bytes beneath it (a ``StringIO`` put there) is read as it is.
    """
    buffer = getattr(sys.stdin, "buffer", None)
    return sys.stdin if buffer is None else cast(TextIO, _StrictStdin(buffer))


def _stream_chunks(stream: TextIO) -> Iterator[str]:
    """A text stream (standard input), chunk by chunk; :class:`InputError` for bad UTF-8."""
    while True:
        try:
            chunk = stream.read(CHUNK_CHARS)
        except UnicodeDecodeError:
            raise InputError("standard input is not valid UTF-8") from None
        if not chunk:
            return
        yield chunk
