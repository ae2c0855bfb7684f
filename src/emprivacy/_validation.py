"""Parameter validation with sklearn-style messages.

Every public function of :mod:`emprivacy` validates its user-facing parameters
here, so that a bad value gives the same one-line message everywhere, e.g.
``"epsilon must be a finite number > 0; got -1.0"``.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

__all__ = [
    "available_memory",
    "bytes_text",
    "check_choice",
    "check_epsilon",
    "check_memory",
    "check_nonnegative_number",
    "check_positive_int",
    "check_positive_number",
]


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_positive_number(value: Any, name: str) -> float:
    """Return ``value`` as a float if it is a finite real number > 0.

    Raises
    ------
    TypeError
        If ``value`` is not a real number (``bool`` is rejected too).
    ValueError
        If ``value`` is not finite or not > 0.
    """
    if not _is_real(value):
        raise TypeError(f"{name} must be a finite number > 0; got {value!r} of type "
                        f"{type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0; got {value!r}")
    return value


def check_epsilon(epsilon: Any) -> float:
    """Validate the privacy parameter ε (a finite number > 0).

    >>> check_epsilon(2)
    2.0
    >>> check_epsilon(-1.0)
    Traceback (most recent call last):
    ...
    ValueError: epsilon must be a finite number > 0; got -1.0
    """
    return check_positive_number(epsilon, "epsilon")


def check_nonnegative_number(value: Any, name: str) -> float:
    """Return ``value`` as a float if it is a finite real number ≥ 0."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a finite number >= 0; got {value!r} of type "
                        f"{type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0; got {value!r}")
    return value


def check_fraction(value: Any, name: str) -> float:
    """A real number in the open interval (0, 1) (a probability that is neither 0 nor 1).

    >>> check_fraction(0.25, "beta")
    0.25
    """
    if not _is_real(value):
        raise TypeError(f"{name} must be a number in (0, 1); got {value!r} of type "
                        f"{type(value).__name__}")
    v = float(value)
    if not 0.0 < v < 1.0:  # NaN fails too
        raise ValueError(f"{name} must be a number in (0, 1); got {v!r}")
    return v


def check_positive_int(value: Any, name: str, *, minimum: int = 1) -> int:
    """Return ``value`` as an int if it is an integer ≥ ``minimum``.

    >>> check_positive_int(3, "N")
    3
    >>> check_positive_int(0, "N")
    Traceback (most recent call last):
    ...
    ValueError: N must be an integer >= 1; got 0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral | np.integer):
        raise TypeError(f"{name} must be an integer >= {minimum}; got {value!r} of type "
                        f"{type(value).__name__}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return value


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices``.

    >>> check_choice("drop", "oov", ("drop", "keep"))
    'drop'
    """
    if not isinstance(value, str) or value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {options}; got {value!r}")
    return value


def available_memory() -> int | None:
    """Bytes this process can still allocate, or ``None`` where nothing says.

    The least of: the kernel's estimate of the memory available without swapping
    (``MemAvailable`` of ``/proc/meminfo``), what the process's cgroup still allows
    (v2 ``memory.max − memory.current``, v1 ``memory.limit_in_bytes − usage_in_bytes``) and
    what its address-space limit (``RLIMIT_AS``) leaves; ``os.sysconf``'s available pages
    where none of these can be read.
    """
    import os
    import resource
    from pathlib import Path

    def read(path: str) -> str | None:
        try:
            return Path(path).read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError):
            return None

    found: list[int] = []
    info = read("/proc/meminfo")
    for line in (info or "").splitlines():
        if line.startswith("MemAvailable:"):
            found.append(int(line.split()[1]) * 1024)
    for limit_file, usage_file in (
            ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
             "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        limit, usage = read(limit_file), read(usage_file)
        if limit and usage and limit.strip().isdigit() and usage.strip().isdigit():
            found.append(max(0, int(limit) - int(usage)))
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    statm = read("/proc/self/statm")
    if soft != resource.RLIM_INFINITY and statm:
        found.append(max(0, soft - int(statm.split()[0]) * os.sysconf("SC_PAGE_SIZE")))
    if not found:
        try:
            found.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (OSError, ValueError):
            return None
    return min(found)


def bytes_text(n: int | float) -> str:
    """A size in bytes for people: ``'1.5 GiB'``.

    >>> bytes_text(1536 * 2**20), bytes_text(512), bytes_text(3 * 2**70)
    ('1.5 GiB', '512 B', '3.07e+03 EiB')
    """
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if value < 1024:
            return f"{value:.3g} {unit}"
        value /= 1024
    return f"{value:.3g} EiB"


def check_memory(need: int, what: str, advice: str) -> None:
    """Refuse work that needs more memory than the machine has available.

    ``need`` is an estimate in bytes (a Python int: it never overflows); ``what`` names
    the work and ``advice`` what to lower.  Nothing is checked where the available memory
    is unknown.

    >>> try:
    ...     check_memory(2**80, "sampling", "use fewer draws")
    ... except ValueError as exc:
    ...     print(str(exc).split(", more")[0])
    sampling needs about 1.05e+06 EiB of memory
    """
    available = available_memory()
    if available is not None and need > available:
        raise ValueError(f"{what} needs about {bytes_text(need)} of memory, more than the "
                         f"{bytes_text(available)} available here; {advice}")
