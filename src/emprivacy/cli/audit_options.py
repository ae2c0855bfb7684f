"""``emprivacy audit``'s options that need more than a type: read and checked before any
work, each problem one line (exit code 2)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from emprivacy.cli._common import check_output_name, fail
from emprivacy.cli.audit_outputs import (
    AUDIT_FILES,
    DISTINGUISH_FILE,
    ENTITY_FILES,
    PLOT_FILE,
    RECONSTRUCTION_FILES,
)

__all__ = ["check_out", "check_out_name", "check_reconstruct", "check_sizes",
           "parse_distinguish", "plot_missing", "read_documents"]


def read_documents(value: str | None) -> tuple[tuple[str, str], tuple[str, str] | None]:
    """``--distinguish-documents A,B``: the two file names and their texts, read now."""
    from emprivacy.io import read_text_file

    if value is None:
        return ("", ""), None
    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 2 or not all(parts):
        fail("--distinguish-documents must be two text files separated by a comma "
             f"(A.txt,B.txt); got {value!r}")
    if "-" in parts:
        fail("--distinguish-documents cannot read standard input ('-'); give two files")
    first, second = parts
    for part in parts:
        if Path(part).is_dir():
            fail(f"--distinguish-documents: {part!r} is a directory, not a text file")
    return (first, second), (read_text_file(Path(first)), read_text_file(Path(second)))


def plot_missing() -> str | None:
    """Why ``audit.png`` cannot be drawn (matplotlib missing), or ``None``."""
    from emprivacy import import_optional
    from emprivacy.exceptions import MissingExtraError

    try:
        import_optional("matplotlib", extra="evaluation", purpose="the audit plot")
    except MissingExtraError as exc:
        return str(exc)
    return None


def parse_distinguish(value: str | None) -> tuple[int | None, str | None]:
    """``--distinguish``: a number of pairs (>= 1) or a pairs file, read now (its format;
    its words are checked against the vocabulary once it is loaded)."""
    from emprivacy.protection import read_word_pairs

    if value is None:
        return None, None
    if re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
        n = int(value)
        if n < 1:
            fail(f"--distinguish must be a number of pairs >= 1 or a file of word pairs; "
                 f"got {value!r}")
        return n, None
    read_word_pairs(value)
    return None, value


def check_out_name(out: str | None) -> Path | None:
    """``--out``: a name (``--out ""``, an unset shell variable, would write into the
    current directory)."""
    return check_output_name(out, "--out", "a directory")


def check_sizes(mechanisms: list[Any], secrets: int, draws: int, *,
                pairs: list[tuple[str, str]] | None, positions: tuple[Any, Any] | None,
                distinguish_draws: int) -> None:
    """The memory of a sampled channel (``secrets × --draws`` releases: the audit's, and
    ``--reconstruct``'s own) and of ε̂'s releases (``--distinguish-draws`` of each word):
    more than is available is one line, before any audit."""
    from emprivacy.protection import check_release_size, check_sample_size, has_exact_channel

    try:
        if any(not has_exact_channel(m) for m in mechanisms):
            check_sample_size(secrets, draws)
        if pairs is not None:
            check_release_size(2 * len(pairs), distinguish_draws)
        if positions is not None:
            check_release_size(2 * len(positions[0]), distinguish_draws)
    except ValueError as exc:
        fail(str(exc))


def check_out(out: Path, inputs: list[str], *, reconstruct: bool = False,
              entities: bool = False) -> None:
    """``--out``: a directory that exists or can be made in an existing, writable parent;
    not inside an input directory, none of its files an input.  Checked before any work."""
    from emprivacy.io import check_not_input, check_output_path

    check_output_path(out, probe=True, kind="output", directory=True)
    check_not_input(out, inputs, within=True)
    for name in (*AUDIT_FILES, PLOT_FILE, DISTINGUISH_FILE,
                 *(RECONSTRUCTION_FILES if reconstruct else ()),
                 *(ENTITY_FILES if entities else ())):
        check_not_input(out / name, inputs)


def check_reconstruct(reconstruct: bool, corpus: list[str], mode: str | None,
                      reference: list[str] | None, ngram: int | None) -> list[str]:
    """The options of ``--reconstruct``, checked before any work; the reference inputs."""
    references = list(reference or [])
    if not reconstruct:
        given = [name for name, value in (("--mode", mode), ("--reference", references),
                                          ("--ngram", ngram)) if value]
        if given:
            fail(f"{given[0]} applies to --reconstruct")
        return references
    if not corpus:
        fail("--reconstruct needs a CORPUS to release and attack")
    if mode == "bag" and (references or ngram is not None):
        fail(f"{'--reference' if references else '--ngram'} applies to --mode text: a bag "
             "of words has no context")
    if "-" in references:
        fail("--reference cannot be standard input ('-'); give files or directories")
    return references
