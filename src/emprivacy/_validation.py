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
    "check_choice",
    "check_epsilon",
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
