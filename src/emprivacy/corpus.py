"""Reading input documents: text files, directories, standard input and JSONL.

Every document gets an identifier: the file's path (relative to the directory it
was found in, for directories), ``"-"`` for standard input, or the ``id`` field of
a JSONL record.  Identifiers must be unique within a run, because each document's
noise stream is derived from its identifier (:func:`emprivacy.randomness.document_generator`).
Error messages name files and identifiers, never the text itself.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .exceptions import InputError

__all__ = ["Document", "iter_documents", "iter_json_objects", "read_text_file"]


@dataclass(frozen=True, slots=True)
class Document:
    """One input document: a unique identifier and its text."""

    id: str
    text: str


def read_text_file(path: Path) -> str:
    """Read a UTF-8 text file; :class:`InputError` naming the file otherwise."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"input file {str(path)!r} does not exist") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"input file {str(path)!r} is not valid UTF-8 (byte {exc.start})") \
            from None
    except OSError as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") from None


def iter_json_objects(path: Path, *, expected: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for every non-blank line of a JSONL file.

    Raises :class:`InputError` naming the file (and line) when it cannot be read, is
    not UTF-8, or a line is not a JSON object (``expected`` says what it should hold).
    """
    try:
        fh = open(path, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read input file {str(path)!r}: {exc.strerror}") from None
    with fh:
        try:
            for lineno, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    raise InputError(f"{path}:{lineno}: not a valid JSON object") from None
                if not isinstance(record, dict):
                    raise InputError(f"{path}:{lineno}: expected a JSON object with {expected}")
                yield lineno, record
        except UnicodeDecodeError as exc:
            raise InputError(f"input file {str(path)!r} is not valid UTF-8 (byte {exc.start})") \
                from None


def _iter_jsonl(path: Path) -> Iterator[Document]:
    for lineno, record in iter_json_objects(path, expected="a string 'text' field"):
        if not isinstance(record.get("text"), str):
            raise InputError(f"{path}:{lineno}: expected a JSON object with a string "
                             "'text' field")
        doc_id = record.get("id", f"{path.name}:{lineno}")
        if not isinstance(doc_id, str | int) or isinstance(doc_id, bool):
            raise InputError(f"{path}:{lineno}: 'id' must be a string or an integer")
        yield Document(str(doc_id), record["text"])


def _expand(inputs: Iterable[str | os.PathLike[str]]) -> Iterator[tuple[str, Path | None]]:
    for item in inputs:
        if str(item) == "-":
            yield "-", None
            continue
        p = Path(item)
        if p.is_dir():
            files = sorted(f for f in p.rglob("*.txt") if f.is_file())
            if not files:
                raise InputError(f"input directory {str(p)!r} holds no *.txt file")
            for f in files:
                yield str(f), f
        elif p.exists():
            yield str(p), p
        else:
            raise InputError(f"input file {str(p)!r} does not exist")


def iter_documents(inputs: Iterable[str | os.PathLike[str]], *,
                   stdin: TextIO | None = None) -> Iterator[Document]:
    """Yield the documents of ``inputs`` in order.

    Parameters
    ----------
    inputs : iterable of path-like or ``"-"``
        Text files (one document each), directories (every ``*.txt`` below, sorted),
        ``"-"`` for standard input (one document), or ``.jsonl`` files (one
        ``{"id": ..., "text": ...}`` object per line).
    stdin : text stream, optional
        Replaces :data:`sys.stdin` (for tests).

    Raises
    ------
    InputError
        Naming the file (and line) that is missing, unreadable, not UTF-8 or
        malformed, or the identifier that appears twice.
    """
    seen: set[str] = set()
    for doc_id, path in _expand(inputs):
        if path is None:
            stream = stdin if stdin is not None else sys.stdin
            try:
                docs: Iterable[Document] = [Document("-", stream.read())]
            except UnicodeDecodeError:
                raise InputError("standard input is not valid UTF-8") from None
        elif path.suffix.lower() == ".jsonl":
            docs = _iter_jsonl(path)
        else:
            docs = [Document(doc_id, read_text_file(path))]
        for doc in docs:
            if doc.id in seen:
                raise InputError(f"duplicate document id {doc.id!r}; ids must be unique")
            seen.add(doc.id)
            yield doc
