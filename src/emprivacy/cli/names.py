"""``emprivacy names``: learn the list of known names of a corpus from its own cased texts
(:func:`emprivacy.entities.name_learning.learn_names`), for ``obfuscate --entity-names``.

The list holds the corpus's names: it is written only where ``-o`` says (readable by its
owner alone) or to standard output, and no name is written to stderr.  Bad input is one line
(exit code 2); an output that cannot be written is one line (exit code 1).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from emprivacy.cli._common import (
    LangOpt,
    check_output_name,
    check_stdin,
    claim_output,
    fail,
    progress_bar,
    stderr,
)
from emprivacy.cli.obfuscate_entities import EntitiesOpt

__all__ = ["names"]


def names(
    inputs: Annotated[list[str] | None, typer.Argument(
        help="Text files, directories of .txt files, .jsonl or .parquet files, or - for "
        "standard input.", show_default=False)] = None,
    output_name: Annotated[str | None, typer.Option(
        "--output", "-o", help="Write the list here (TYPE<TAB>NAME lines; only you can read "
        "it) instead of standard output.", show_default=False, metavar="FILE")] = None,
    entities: EntitiesOpt = "auto",
    lang: LangOpt = "en",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary.")
                     ] = False,
) -> None:
    """Learn the names a corpus writes with capitals, for obfuscate --entity-names.

    The detectors of --entities read every document; each person, place or organisation
    they find where capitals show it (a mixed-case line, its words capitalised) is listed,
    so that a release with --entity-names protects it in the corpus's lower-case texts too
    (chats, captions, voicemails). Read the list before you use it: add the names you know,
    delete any that is an ordinary phrase. It holds the corpus's names: keep it as private
    as the corpus.
    """
    from emprivacy.entities import learn_names, names_as_lines
    from emprivacy.io import atomic_output, iter_documents, survey_inputs
    from emprivacy.text import normalise_pieces

    inputs = inputs or ["-"]
    output = check_output_name(output_name, "--output", "a file")
    if entities.strip().lower() == "none":
        fail("emprivacy names needs a detector; --entities is 'none'")
    _check_detectors(entities, lang)
    stdin = check_stdin(inputs)
    survey = survey_inputs(inputs)
    console = stderr()
    with claim_output(output, inputs, "text"):
        with progress_bar(console, show=not quiet and survey.documents > 1) as progress:
            task = progress.add_task("learning names", total=survey.documents)

            def texts() -> Iterator[str]:
                for doc in iter_documents(inputs, stdin=stdin):
                    yield from normalise_pieces(doc.chunks())
                    progress.advance(task)

            learned = learn_names(texts(), entities=entities, lang=lang)
        made = _private(output)  # the corpus's names: its owner's alone, from the start
        try:
            with atomic_output(output) as out:
                out.write(f"# emprivacy names: {len(learned)} name(s) learned from "
                          f"{survey.documents} document(s); TYPE<TAB>NAME per line\n")
                out.write(names_as_lines(learned))
        except BaseException:
            if made and output is not None:
                with contextlib.suppress(OSError):
                    os.unlink(output)
            raise
    if not quiet and output is not None:
        console.print(f"emprivacy: wrote {len(learned)} known name(s) to {output}; use it "
                      f"with obfuscate --entities {entities} --entity-names {output}",
                      markup=False)


def _private(output: Path | None) -> bool:
    """Make ``output`` readable by its owner alone before the list is written: an atomic
    write never gives a new file wider permissions than the file it replaces.  Whether it
    made the (empty) file, to remove it if the write fails."""
    if output is None:
        return False
    try:
        fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        with contextlib.suppress(OSError):  # a regular file claim_output let through
            os.chmod(output, 0o600)
        return False
    except OSError:
        return False  # the write itself reports it, in one line
    os.close(fd)
    return True


def _check_detectors(entities: str, lang: str) -> None:
    """The detectors of ``--entities`` in ``lang`` can be built: one line if not."""
    from emprivacy.entities import check_available, check_entities

    try:
        spec = check_entities(entities)
        if lang == "en":
            check_available(spec)
    except (TypeError, ValueError) as exc:
        fail(str(exc))
