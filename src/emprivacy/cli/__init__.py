"""The ``emprivacy`` command line: a thin layer over the library.

One module per group of commands: :mod:`.obfuscate` (``obfuscate``), :mod:`.tools`
(``distance``, ``guarantee``, ``calibrate``) and :mod:`.evaluate` (``evaluate``);
:mod:`._common` holds the app, the shared options and the progress bar.

Exit codes: 0 success; 1 the environment failed (a distributed run, a data set that
cannot be fetched, a missing optional dependency); 2 usage errors and bad input (one
line on stderr naming the problem); 130 interrupted.  Only emprivacy's own errors
(:class:`~emprivacy.exceptions.EmprivacyError`) become one line: anything else is a
bug and shows its traceback.  Nothing of an input document's text is ever written to
stderr.
"""

from __future__ import annotations

import re
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer

from ..exceptions import CorpusRunError, DatasetUnavailableError, EmprivacyError, MissingExtraError
from ._common import app
from .evaluate import evaluate
from .obfuscate import obfuscate
from .tools import calibrate, distance, guarantee

__all__ = ["app", "main", "run"]

# registered in the order ``--help`` lists them
for _command in (obfuscate, distance, guarantee, calibrate, evaluate):
    app.command()(_command)
#: Our errors that come from the environment rather than from the user's input.
ENVIRONMENT_ERRORS = (CorpusRunError, DatasetUnavailableError, MissingExtraError)


def _version_callback(value: bool) -> None:
    if value:
        try:
            typer.echo(f"emprivacy {version('emprivacy')}")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            typer.echo("emprivacy 0.0.0+unknown")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version_callback,
                                          is_eager=True, help="Show the version and exit.")
                       ] = False,
) -> None:
    """Release text under Earth Mover's privacy (Fernandes, Dras, McIver 2019)."""


_CHOICE = re.compile(r"'(?P<value>[^']*)' is not one of (?P<choices>.+?)\.?$")
_MISSING = re.compile(r"^Missing (?P<kind>option|argument|parameter) '(?P<name>[^']+)'")


def usage_message(exc: typer.TyperException) -> str:
    """One line for a usage error found while parsing the command line.

    Missing options and bad choices are worded like the library's own messages
    (``missing option '--epsilon'``, ``format must be one of …; got 'xml'``).
    """
    message = exc.format_message()
    missing = _MISSING.match(message)
    if missing is not None:
        return f"missing {missing['kind']} '{missing['name']}'"
    param = getattr(exc, "param", None)
    choice = _CHOICE.search(message)
    if isinstance(exc, typer.BadParameter) and param is not None and choice is not None:
        name = (param.opts[0] if param.opts else str(param.name)).lstrip("-")
        return f"{name} must be one of {choice['choices']}; got '{choice['value']}'"
    ctx = getattr(exc, "ctx", None)
    return message + (f" (see '{ctx.command_path} --help')" if ctx is not None else "")


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI; emprivacy's errors become one line on stderr."""
    command = typer.main.get_command(app)
    try:
        rv = command.main(args=argv, prog_name="emprivacy", standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except typer.Abort:
        print("emprivacy: interrupted", file=sys.stderr)
        return 130
    except typer.TyperException as exc:  # usage errors: bad option values, missing arguments
        print(f"emprivacy: error: {usage_message(exc)}", file=sys.stderr)
        return 2
    except EmprivacyError as exc:
        print(f"emprivacy: error: {exc}", file=sys.stderr)
        return 1 if isinstance(exc, ENVIRONMENT_ERRORS) else 2
    except KeyboardInterrupt:
        print("emprivacy: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    if rv == 130:  # typer turns KeyboardInterrupt into Exit(130) and returns its code
        print("emprivacy: interrupted", file=sys.stderr)
        return 130
    return rv if isinstance(rv, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
