"""Every error and warning of emprivacy, in one place.

Errors that a user's input or environment can cause derive from :class:`EmprivacyError`;
the command line turns exactly those (and nothing else) into one line on stderr.
Each also derives from the builtin a caller would expect (``ValueError`` for bad
input, ``OSError`` for an unavailable data set, ``RuntimeError`` for a failed run),
so ``except ValueError`` keeps working.
"""

from __future__ import annotations

__all__ = [
    "CalibrationWarning",
    "CorpusRunError",
    "CorpusRunInterrupted",
    "DatasetUnavailableError",
    "DeviceUnavailableError",
    "EmbeddingsFormatError",
    "EmprivacyError",
    "IndexCacheWarning",
    "InputError",
    "InterruptedRunError",
    "MissingExtraError",
    "OutputError",
    "OutputPathError",
    "OutputWriteError",
    "PrivacyLeakWarning",
    "SolverError",
    "UsageError",
    "interrupt_inside",
]


#: How the library names the option that continues an interrupted corpus run, in its
#: messages (``str(error)``); the command line names its own (``--resume``), with
#: :meth:`EmprivacyError.message`.
RESUME_OPTION = "resume=True"


class _ResumeHint:
    """What an error (or an interruption) of a corpus run says about continuing it.

    ``partitions_kept``: the directory holding the complete partitions of the run
    (``None``: nothing to continue).  :meth:`message` is the error's text followed by
    how to continue, naming the option as ``resume`` (default :data:`RESUME_OPTION`).
    """

    #: Appended to the message when ``partitions_kept`` is set (``{kept}``: the directory,
    #: ``{resume}``: the option).
    _HINT = "completed partitions are kept in {kept!r} — re-run with {resume} to continue"

    partitions_kept: str | None = None

    def message(self, *, resume: str = RESUME_OPTION) -> str:
        """The message, with how to continue the run (the option spelled ``resume``)."""
        text = super().__str__()
        if self.partitions_kept is None:
            return text
        hint = self._HINT.format(kept=self.partitions_kept, resume=resume)
        return f"{text}; {hint}" if text else hint

    def __str__(self) -> str:
        return self.message()


class EmprivacyError(_ResumeHint, Exception):
    """Base class of the errors a user's input or environment can cause.

    An error that ends a corpus run which had completed partitions names the directory
    that keeps them (``partitions_kept``) and says, in ``str(error)``, to re-run with
    ``resume=True``; :meth:`message` names the option as a caller spells it (the
    command line: ``message(resume="--resume")``).
    """


class UsageError(EmprivacyError, ValueError):
    """A command-line usage error: options that do not go together, a bad value."""


class InputError(EmprivacyError, ValueError):
    """An input file or document is missing, unreadable, malformed or duplicated."""


class OutputError(EmprivacyError, ValueError):
    """An output path cannot be used: its directory is missing, it is a directory, it holds
    another run."""


class OutputPathError(OutputError, OSError):
    """An output path the user gave cannot be written: it is a directory, or a part of it is
    missing or is not a directory (``EISDIR``, ``ENOTDIR``, ``ENOENT``).

    Also an :class:`OSError` (``errno`` is the original error's), so ``except OSError``
    around a write keeps working.
    """


class OutputWriteError(EmprivacyError, OSError):
    """Writing an output failed because of the environment: a full disk or quota, a file
    size limit, no permission, a read-only file system, an I/O error, a closed standard
    output (``errno`` is the original error's).

    The command line reports it in one line with exit code 1.  Nothing is left behind:
    the temporary file is removed and any previous output is unchanged.
    """


class EmbeddingsFormatError(EmprivacyError, ValueError):
    """An embeddings file is missing, truncated, corrupt or of an unknown format."""


class InterruptedRunError(OutputError):
    """The output of a corpus run already holds an interrupted run (its partition
    directory, ``partitions_kept``): continue it with ``resume=True``, or remove it."""

    _HINT = "pass {resume} to continue it, or remove it"


class CorpusRunError(EmprivacyError, RuntimeError):
    """A corpus run failed (a task failed for good, or the output did not verify).

    Completed partitions are kept in the output (or ``<output>.parts``) directory
    (``partitions_kept``); a re-run with ``resume=True`` continues from them.
    """


class CorpusRunInterrupted(_ResumeHint, KeyboardInterrupt):
    """A corpus run was interrupted (Ctrl-C) after it had completed partitions.

    Still a :class:`KeyboardInterrupt`; ``partitions_kept`` names the directory that
    keeps them, and ``str()`` says to re-run with ``resume=True`` (:meth:`message`
    in another spelling).
    """


class SolverError(EmprivacyError, RuntimeError):
    """An exact solver did not certify its optimum (e.g. the transport solver's iteration
    limit); no approximate value is given instead."""


class DatasetUnavailableError(EmprivacyError, OSError):
    """A data set could not be fetched or read (no network, corrupt download)."""


class DeviceUnavailableError(EmprivacyError, RuntimeError):
    """The device asked for (``--device cuda``) cannot be used: no GPU, no driver, or none
    visible to this process."""


class MissingExtraError(EmprivacyError, ImportError):
    """An optional dependency is not installed; the message names the extra to install."""


class PrivacyLeakWarning(UserWarning):
    """A word is released without going through the privacy mechanism.

    Raised whenever the user explicitly asks for something that the privacy
    guarantee (Thm. 1 / Cor. 2 / Thm. 4 of the paper) does not cover, such as keeping
    out-of-vocabulary words unchanged.
    """


class IndexCacheWarning(UserWarning):
    """A cached approximate-decoding index was unusable (corrupt, stale) and is rebuilt."""


class CalibrationWarning(UserWarning):
    """The approximate decoder could not meet its calibration targets (see its notes)."""


def interrupt_inside(exc: BaseException) -> bool:
    """Whether a :class:`KeyboardInterrupt` is what caused ``exc``, through its chain of
    causes (Python wraps an exception raised while a class is made, as in a dataclass of a
    module imported lazily, in a :class:`RuntimeError`).

    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as inner:
    ...         raise RuntimeError("Error calling __set_name__") from inner
    ... except RuntimeError as outer:
    ...     interrupt_inside(outer), interrupt_inside(ValueError("x"))
    (True, False)
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
