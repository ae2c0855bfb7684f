"""The ``emprivacy`` command line: a thin layer over the library.

One module per command, wired here: :mod:`.obfuscate` (``obfuscate``), :mod:`.quantities`
(``distance``, ``guarantee``: the paper's quantities), :mod:`.calibration` (``calibrate``;
its ``--mechanism`` study in :mod:`.calibration_mechanism`, its ``--target-recovery`` search
in :mod:`.calibration_recovery`), :mod:`.audit` (``audit``; its options read in
:mod:`.audit_options`, its work in :mod:`.audit_run`, its outputs in :mod:`.audit_outputs`)
:mod:`.evaluate` (``evaluate``), :mod:`.names` (``names``: a corpus's known names) and
:mod:`.playground` (``playground``, the local web page); :mod:`._common` holds the app,
the shared options and the progress bar.  The commands import the library through its
public faces only (``emprivacy``, ``emprivacy.exceptions`` and the packages' ``__init__``),
each name on first use, so that ``emprivacy --help`` stays fast.

Exit codes: 0 success; 1 the environment failed (a distributed run, a data set that
cannot be fetched, a missing optional dependency, an output that cannot be written: full
disk, permission, read-only file system, closed standard output); 2 usage errors and bad
input, including an output path that is a directory or lies under a missing directory
(one line on stderr naming the problem); 130 interrupted (Ctrl-C: ``emprivacy:
interrupted``); 143 terminated (SIGTERM, 128 + 15: ``emprivacy: terminated``, after the
same tidying as Ctrl-C).  When the reader of standard
output goes away (``emprivacy … | head -1``) the command stops quietly with exit code 1
and nothing on stderr (click's convention, and Python's advice for SIGPIPE).  Only
emprivacy's own errors (:class:`~emprivacy.exceptions.EmprivacyError`) become one line:
anything else is a bug and shows its traceback.  Nothing of an input document's text is
ever written to stderr.  Every fault tried, and what it prints: ``docs/FAULTS.md``.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer

from emprivacy.cli._common import (
    RESUME_OPTION,
    Interrupted,
    PlainHelpCommand,
    app,
    echo,
)
from emprivacy.cli.audit import audit
from emprivacy.cli.calibration import calibrate
from emprivacy.cli.evaluate import evaluate
from emprivacy.cli.names import names
from emprivacy.cli.obfuscate import obfuscate
from emprivacy.cli.playground import playground
from emprivacy.cli.quantities import distance, guarantee
from emprivacy.exceptions import (
    CorpusRunError,
    DatasetUnavailableError,
    DeviceUnavailableError,
    EmprivacyError,
    MissingExtraError,
    OutputWriteError,
    SolverError,
    interrupt_inside,
)
from emprivacy.io import checked_stdout

__all__ = ["app", "main", "run"]

# registered in the order ``--help`` lists them; audit's and calibrate's help in click's plain
# layout, readable at 80 columns
for _command in (obfuscate, names, distance, guarantee, calibrate, audit, evaluate,
                 playground):
    app.command(cls=PlainHelpCommand if _command in (audit, calibrate) else None)(_command)
#: Our errors that come from the environment rather than from the user's input.
ENVIRONMENT_ERRORS = (CorpusRunError, DatasetUnavailableError, DeviceUnavailableError,
                      MissingExtraError, OutputWriteError, SolverError)
#: The exit code after the reader of standard output went away, quietly (click's own).
EXIT_BROKEN_PIPE = 1
#: The exit codes after Ctrl-C (SIGINT) and SIGTERM: 128 + the signal, as a shell reports
#: a process the signal ended.
EXIT_INTERRUPTED, EXIT_TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM
#: Set while a command is stopped by SIGTERM (:func:`_sigterm_stops`), not Ctrl-C.
_TERMINATED = threading.Event()


def _no_command(exc: Exception) -> bool:
    """Whether ``exc`` is click's ``NoArgsIsHelpError``: ``emprivacy`` without a command,
    after its help was shown (found by name: Typer vendors its own copy of click)."""
    return any(cls.__name__ == "NoArgsIsHelpError" for cls in type(exc).__mro__)


def _version_callback(value: bool) -> None:
    if value:
        try:
            echo(f"emprivacy {version('emprivacy')}")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            echo("emprivacy 0.0.0+unknown")
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


def _say(line: str) -> None:
    """Write one line to stderr, if there is one (never to stdout instead)."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            print(line, file=sys.stderr, flush=True)


#: How long a command stopped by SIGTERM may take to tidy up (a thread pool finishing its
#: tasks, a cluster closing) before it ends at once, in seconds.
TERM_GRACE_S = 10.0
#: Set once the stop's one line is said (:func:`_stopped`).
_SAID = threading.Event()


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """SIGTERM stops the command as Ctrl-C does: a :class:`KeyboardInterrupt` where it
    is, so that what it was writing is removed (a temporary file, an output lock, a
    local cluster's workers and what they were writing) and complete partitions are kept,
    where Python's default would end the process on the spot and leave them.

    The stop is bounded: a command still running :data:`TERM_GRACE_S` seconds after
    SIGTERM (threads finishing their tasks: ``evaluate``'s pool), or given a second
    SIGTERM or Ctrl-C, ends at once with the same one line and exit code
    (:func:`_exit_now`); a temporary file it leaves is removed by the next run.

    Only in the main thread (where Python runs signal handlers), and not where a signal
    is ignored; the previous handlers are back afterwards.  The workers of a local cluster
    never see SIGTERM (or SIGINT): this process stops them
    (:func:`~emprivacy.distributed.dask_client`).
    """
    _TERMINATED.clear()
    _SAID.clear()
    stopping = threading.Event()
    timers: list[threading.Timer] = []
    handled = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        code = EXIT_TERMINATED if signum == signal.SIGTERM else EXIT_INTERRUPTED
        if stopping.is_set():  # a second signal: the user means now
            _exit_now(EXIT_TERMINATED if _TERMINATED.is_set() else code)
        stopping.set()
        if signum == signal.SIGTERM:
            _TERMINATED.set()
            timer = threading.Timer(TERM_GRACE_S, _exit_now, args=(EXIT_TERMINATED,))
            timer.daemon = True
            timers.append(timer)
            timer.start()
        raise KeyboardInterrupt

    for sig, previous in handled.items():
        if previous not in (signal.SIG_IGN, None):
            signal.signal(sig, stop)
    try:
        yield
    finally:  # the command has stopped (or ended): no clock, the handlers as they were
        for timer in timers:
            timer.cancel()
        for sig, previous in handled.items():
            if previous not in (signal.SIG_IGN, None):
                signal.signal(sig, previous)


def _exit_now(code: int) -> None:
    """End the process at once with ``code`` (a stop that took too long, or a second
    signal): the one line if it was not said yet, the streams flushed, no exit handlers
    (one of them may be what hangs)."""
    if not _SAID.is_set():
        _SAID.set()
        word = "terminated" if code == EXIT_TERMINATED else "interrupted"
        with contextlib.suppress(Exception):
            print(f"emprivacy: {word}; stopped at once, before tidying up", file=sys.stderr,
                  flush=True)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def _stopped(detail: str = "") -> int:
    """Say in one line that Ctrl-C or SIGTERM stopped the command (and ``detail``: what
    was kept, how to continue); its exit code."""
    terminated = _TERMINATED.is_set()
    _SAID.set()
    _say(f"emprivacy: {'terminated' if terminated else 'interrupted'}"
         + (f"; {detail}" if detail else ""))
    return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED


def _occupy_closed_descriptors() -> None:
    """Point closed descriptors 0, 1, 2 at the null device.

    Otherwise the next file opened (an output's temporary file) would take the number
    of standard output or error, and whatever writes there would write into it.
    ``sys.stdin``/``sys.stdout`` stay ``None``: reading or writing them is still
    reported as closed.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
            except OSError:  # pragma: no cover - no null device
                return
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            else:
                os.set_inheritable(fd, True)


def _silence_stdout() -> None:
    """After a broken pipe: send what is left in stdout's buffer to the null device, so
    that Python's own flush at exit does not fail (and print) again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI; emprivacy's errors become one line on stderr."""
    _occupy_closed_descriptors()
    command = typer.main.get_command(app)
    try:
        # a failed write of any output, help text too: one line
        with _sigterm_stops(), checked_stdout():
            rv = command.main(args=argv, prog_name="emprivacy", standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except typer.Abort:
        return _stopped()
    except typer.TyperException as exc:  # usage errors: bad option values, missing arguments
        if _no_command(exc):  # plain ``emprivacy``: the help, and exit code 2
            message = exc.format_message()  # empty: Typer has printed its help already
            if message:
                echo(message)
            return 2
        _say(f"emprivacy: error: {usage_message(exc)}")
        return 2
    except Interrupted as exc:  # what an interrupted run kept, and how to continue
        return _stopped(str(exc))
    except EmprivacyError as exc:  # the option to continue a corpus run as spelt here
        _say(f"emprivacy: error: {exc.message(resume=RESUME_OPTION)}")
        return 1 if isinstance(exc, ENVIRONMENT_ERRORS) else 2
    except KeyboardInterrupt:
        return _stopped()
    except BrokenPipeError:  # the reader went away (| head): stop quietly, like other tools
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # Ctrl-C inside a lazy import: a RuntimeError around it
        if not interrupt_inside(exc):
            raise  # a real bug: its traceback
        return _stopped()
    if rv == EXIT_INTERRUPTED:  # typer turns KeyboardInterrupt into Exit(130), returns it
        return _stopped()
    return rv if isinstance(rv, int) else 0


def run() -> None:
    """Console-script entry point."""
    code = main()
    if code in (EXIT_INTERRUPTED, EXIT_TERMINATED):
        _exit_stopped(code)
    sys.exit(code)


def _exit_stopped(code: int) -> None:
    """Exit with ``code`` after an interruption this command handled, the exit handlers run
    and the streams flushed, without the interpreter's own exit.

    CPython remembers a :class:`KeyboardInterrupt` that passed through code a C extension
    ran with ``PyRun_String`` even when Python code caught it later, and then ends the
    process by re-raising SIGINT at exit: an interrupted run exited 130 or was killed by
    SIGINT (``-2`` to its parent), by chance (about 1 run in 8 under load).  The exit code
    is the one documented, every time.
    """
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)
