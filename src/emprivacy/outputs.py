"""Writing outputs: atomically, and never half-written.

An output file is written to a temporary file in the same directory and renamed
over the destination only when everything has been written (``os.replace`` is
atomic on POSIX); an interrupted or failed run removes the temporary file and
leaves any previous output untouched.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

__all__ = ["atomic_output", "format_record"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str] | None, *, stdout: TextIO | None = None
                  ) -> Iterator[TextIO]:
    """Open ``path`` for writing text atomically (``None`` or ``"-"``: standard output)."""
    if path is None or str(path) == "-":
        yield stdout if stdout is not None else sys.stdout
        return
    dest = Path(path)
    directory = dest.parent if str(dest.parent) else Path(".")
    if not directory.is_dir():
        raise ValueError(f"output directory {str(directory)!r} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=directory)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def format_record(record: dict[str, Any], fmt: str) -> str:
    """One output line: a JSON object (``jsonl``), the noisy words (``bag``) or the text."""
    if fmt == "jsonl":
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if fmt == "bag":
        return " ".join(record["bag"])
    if fmt == "text":
        return record["text"]
    raise ValueError(f"format must be one of 'bag', 'jsonl', 'text'; got {fmt!r}")
