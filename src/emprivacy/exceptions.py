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
    "DatasetUnavailableError",
    "EmbeddingsFormatError",
    "EmprivacyError",
    "IndexCacheWarning",
    "InputError",
    "MissingExtraError",
    "OutputError",
    "OutputPathError",
    "OutputWriteError",
    "PrivacyLeakWarning",
    "SolverError",
    "UsageError",
]


class EmprivacyError(Exception):
    """Base class of the errors a user's input or environment can cause."""


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


class CorpusRunError(EmprivacyError, RuntimeError):
    """A corpus run failed (a task failed for good, or the output did not verify).

    Completed partitions are kept in the output (or ``<output>.parts``) directory;
    a re-run with ``resume=True`` continues from them.
    """


class SolverError(EmprivacyError, RuntimeError):
    """An exact solver did not certify its optimum (e.g. the transport solver's iteration
    limit); no approximate value is given instead."""


class DatasetUnavailableError(EmprivacyError, OSError):
    """A data set could not be fetched or read (no network, corrupt download)."""


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
