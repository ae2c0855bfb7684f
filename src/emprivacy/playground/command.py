""""Copy as command": the ``emprivacy obfuscate`` line and the Python call behind a release.

:func:`emprivacy.privatize_texts` releases row ``i`` of text ``t`` as ``emprivacy obfuscate
--seed S`` releases the JSONL record ``{"id": f"{i}#{text_digest(t)}", "text": t}``
(docs/TABLES.md).  The page's release is row 0 of a one-row call; so the command writes that
one record to ``playground.jsonl`` and runs ``obfuscate`` on it with the page's options and
seed, ``--format text``: what it prints is the page's release followed by one newline, byte
for byte.  The seed is in the command (a reproduction needs it); the note ``obfuscate``
prints says what that means: a seeded release is for trying ε, not for publishing.
"""

from __future__ import annotations

import json
import shlex

from emprivacy.playground.settings import PageSettings

__all__ = ["INPUT_FILE", "obfuscate_arguments", "python_call", "record_line", "shell_command"]

#: The file the command writes the page's text to (in the current directory).
INPUT_FILE = "playground.jsonl"
_END = "EMPRIVACY_PLAYGROUND_TEXT"


def record_line(text: str) -> str:
    """The JSONL record whose release is row 0 of :func:`~emprivacy.privatize_texts`.

    >>> record_line("A cat.")
    '{"id": "0#9465fe4c9a5e9206a0e464c11ee7d81e", "text": "A cat."}'
    """
    from emprivacy.tables.privatizer import text_digest

    # ASCII only (the JSON escapes): the command survives any terminal and clipboard
    return json.dumps({"id": f"0#{text_digest(text)}", "text": text})


def obfuscate_arguments(settings: PageSettings, epsilon: float) -> list[str]:
    """The ``emprivacy obfuscate`` arguments of one release of the page."""
    args = ["emprivacy", "obfuscate", INPUT_FILE, "--epsilon", repr(epsilon),
            "--seed", str(settings.seed), "--format", "text"]
    if settings.mechanism != "madlib":
        args += ["--mechanism", settings.mechanism]
    if settings.perturb_stopwords:
        args.append("--perturb-stopwords")
    if settings.entities_on:
        args += ["--entities", settings.entities]
        if settings.entity_epsilon != 1.0:
            args += ["--entity-epsilon", repr(settings.entity_epsilon)]
        for pair in settings.entity_policy:
            args += ["--entity-policy", pair]
    return args


def shell_command(settings: PageSettings, epsilon: float) -> str:
    """The shell lines that reproduce the page's release at ``epsilon``: the text written to
    :data:`INPUT_FILE` (a quoted here-document: nothing in it is expanded), then
    ``emprivacy obfuscate``."""
    args = " ".join(shlex.quote(a) for a in obfuscate_arguments(settings, epsilon))
    return (f"cat > {INPUT_FILE} <<'{_END}'\n{record_line(settings.text)}\n{_END}\n{args}\n")


def python_call(settings: PageSettings, epsilon: float) -> str:
    """The Python that releases the same text: :func:`emprivacy.privatize_texts`."""
    options = [f"epsilon={epsilon!r}", f"seed={settings.seed}"]
    if settings.mechanism != "madlib":
        options.append(f"mechanism={settings.mechanism!r}")
    if settings.perturb_stopwords:
        options.append("perturb_stopwords=True")
    if settings.entities_on:
        options += [f"entities={settings.entities!r}",
                    f"entity_epsilon={settings.entity_epsilon!r}",
                    f"entity_policy={list(settings.entity_policy)!r}"]
    return ("from emprivacy import privatize_texts\n\n"
            f"text = {settings.text!r}\n"
            f"release = next(privatize_texts([text], {', '.join(options)})).release\n"
            "print(release)\n")
