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
``list`` (in memory).  A JSONL file of such records is read back, merged or converted
in bounded memory by :mod:`emprivacy.io.jsonl_pieces`.
"""

from __future__ import annotations

import heapq
import json
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any

import numpy as np

from emprivacy.io import outputs  # outputs.format_record, looked up at each call

__all__ = [
    "BODY_FIELDS",
    "BagBody",
    "TextBody",
    "is_streamed",
    "materialise",
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
