"""The ε search: the largest ε at which a figure that grows with ε stays at or below a target.

:func:`find_epsilon` brackets the target on a coarse grid of ε (steps of ×4), then bisects
on log ε to a relative tolerance, and checks that the figure is non-decreasing over every
point it measured: where it is not, it says so and returns no ε.  A cheaper figure (fewer
draws, say) may place the coarse grid; the bracket's ends are then measured again with the
full one.  :func:`reachable_points` bounds how many ε any run of the search can measure:
the N of the Bonferroni correction over them in
:func:`~emprivacy.protection.epsilon.scale.calibrate_recovery`; :func:`bisection_steps`
bounds the bisection.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from emprivacy._validation import check_positive_int, check_positive_number

__all__ = ["EPSILON_RANGE", "MIN_RTOL", "EpsilonPoint", "EpsilonSearch", "bisection_steps",
           "check_rtol", "check_search_epsilon", "find_epsilon", "reachable_points"]

#: The coarse grid's step: each bracketing measurement multiplies or divides ε by this.
BRACKET_FACTOR = 4.0
#: The default relative tolerance of the bisection: the two ends within 5 % of each other.
DEFAULT_RTOL = 0.05
#: At most this many coarse steps in either direction before the search gives up.
MAX_BRACKET_STEPS = 8
#: The smallest rtol: a float64 ε has 16 digits, and every bisection step is a measurement
#: (from a ×4 bracket, 1e-9 takes 31 of them).
MIN_RTOL = 1e-9
#: The ε the search measures stay in this range (``lo·hi`` of the bisection stays a finite,
#: normal float64); ``limit`` measures the figure at its top, where every mechanism has
#: reached its limit on float32 embeddings (SanText and TEM keep each word as at ε → ∞,
#: madlib's noise is 1e-150 of a unit).
EPSILON_RANGE = (1e-150, 1e150)


@dataclass(frozen=True)
class EpsilonPoint:
    """One measurement of the search: the figure at ε.

    ``stage`` is ``"bracket"`` (the coarse grid, possibly with fewer draws) or ``"fine"``
    (the full measurement: the bracket's ends measured again, and the bisection).
    """

    epsilon: float
    value: float
    stage: str

    def to_dict(self) -> dict[str, Any]:
        return {"epsilon": self.epsilon, "value": self.value, "stage": self.stage}


@dataclass(frozen=True)
class EpsilonSearch:
    """What :func:`find_epsilon` found.

    Attributes
    ----------
    target : float
    epsilon : float
        The largest ε measured (fine) whose figure is at most ``target``.
    above : float
        The smallest ε measured (fine) above it, whose figure exceeds ``target``;
        ``above / epsilon − 1 ≤ rtol``.
    rtol : float
    points : tuple of EpsilonPoint
        Every measurement, in the order made.
    """

    target: float
    epsilon: float
    above: float
    rtol: float
    points: tuple[EpsilonPoint, ...]

    def fine(self) -> list[EpsilonPoint]:
        """The full measurements, by ε."""
        return sorted((p for p in self.points if p.stage == "fine"), key=lambda p: p.epsilon)


def _distinct(a: float, b: float) -> tuple[str, str]:
    """``a`` and ``b`` with 4 significant digits, or as many more as tell them apart."""
    for digits in range(4, 18):
        sa, sb = f"{a:.{digits}g}", f"{b:.{digits}g}"
        if sa != sb or a == b:
            return sa, sb
    return repr(a), repr(b)


def check_rtol(value: Any, name: str = "rtol") -> float:
    """The bisection's relative tolerance: a finite number ≥ :data:`MIN_RTOL`.

    >>> check_rtol(0.05)
    0.05
    >>> check_rtol(1e-300)
    Traceback (most recent call last):
    ...
    ValueError: rtol must be a finite number >= 1e-09; got 1e-300
    >>> check_rtol(1e300)
    Traceback (most recent call last):
    ...
    ValueError: rtol must be below 1 (100 % or more ends the search at once); got 1e+300
    """
    rtol = check_positive_number(value, name)
    if rtol < MIN_RTOL:
        raise ValueError(f"{name} must be a finite number >= {MIN_RTOL:g}; got {rtol!r}")
    if rtol >= 1:
        raise ValueError(f"{name} must be below 1 (100 % or more ends the search at once); "
                         f"got {rtol!r}")
    return rtol


def _check_monotone(points: list[EpsilonPoint], tolerance: float, what: str) -> None:
    """Refuse a figure that decreases between two measured ε (by more than ``tolerance``)."""
    for a, b in pairwise(points):
        if b.value < a.value - tolerance:
            va, vb = _distinct(a.value, b.value)
            raise ValueError(
                f"{what} is not monotone in epsilon over the points measured: "
                f"{va} at epsilon {a.epsilon:.4g} but {vb} at "
                f"{b.epsilon:.4g}"
                + (f" (more than the tolerance {tolerance:.2g})" if tolerance >= 1e-6 else "")
                + "; no epsilon is returned: a smaller epsilon would not be known to be "
                "safer (for a sampled channel, more draws narrow the upper end; the points: "
                + ", ".join(f"{p.epsilon:.4g}: {p.value:.4g}" for p in points) + ")")


def bisection_steps(ratio: float, rtol: float) -> int:
    """How many halvings of ``log(hi/lo)`` bring ``hi/lo − 1`` to at most ``rtol``.

    The bisection of :func:`find_epsilon` starts from a bracket ``hi/lo ≤ ratio`` and
    makes at most this many measurements.

    >>> bisection_steps(4.0, 0.05)  # 4^(1/32) − 1 = 0.044 ≤ 0.05 < 4^(1/16) − 1
    5
    >>> bisection_steps(1.01, 0.05)
    0
    """
    steps, r = 0, float(ratio)
    while r - 1.0 > rtol:
        r, steps = math.sqrt(r), steps + 1
    return steps


def reachable_points(*, rtol: float = DEFAULT_RTOL, factor: float = BRACKET_FACTOR,
                     max_steps: int = MAX_BRACKET_STEPS,
                     bracket: tuple[float, float] | None = None, coarse: bool = True) -> int:
    """The most distinct ε at which :func:`find_epsilon` can measure ``figure``.

    Not the measurements of one run (at most ``1 + max_steps + b``, ``b`` the bisection
    steps) but every ε that any run can reach, whatever the figures say: a bound on
    the nodes of the search's decision tree (``m`` = ``max_steps``).  With ``coarse``, the
    coarse grid ends in one of ``2m`` brackets (``m`` steps either way; finding none, it
    starts the full bracket where its first upward step would have); from each, the full
    bracket measures at most ``2m + 1`` ε (its start, ``m`` steps either way) and ends in
    one of ``2m`` brackets; from each, the bisection measures at most ``2^b − 1``
    midpoints, ``b`` = :func:`bisection_steps` of the widest bracket (``factor``, or a
    wider ``bracket``):

    .. math::  N = 2m\\,\\bigl(2m + 1 + 2m\\,(2^b − 1)\\bigr)

    (without ``coarse``, the first factor is 1).  A union (Bonferroni) bound over these N
    ε holds whatever the measurements' dependence: :func:`calibrate_recovery` measures
    every ε with one seed (common random numbers), so which ε are measured depends on the
    same draws as the figures there, and a bound over the measurements of one run only
    would not hold.

    >>> reachable_points()  # m = 8, b = 5: 16 · (17 + 16 · 31)
    8208
    >>> reachable_points(coarse=False)
    513
    """
    ratio = factor
    if bracket is not None:
        lo, hi = (check_positive_number(b, "bracket") for b in bracket)
        ratio = max(ratio, hi / lo)
    b = bisection_steps(ratio, rtol)
    m = max_steps
    fine = 2 * m + 1 + 2 * m * (2 ** b - 1)
    return 2 * m * fine if coarse else fine


def find_epsilon(figure: Callable[[float], float], target: float, *,
                 coarse: Callable[[float], float] | None = None, start: float = 1.0,
                 bracket: tuple[float, float] | None = None, rtol: float = DEFAULT_RTOL,
                 factor: float = BRACKET_FACTOR, max_steps: int = MAX_BRACKET_STEPS,
                 tolerance: float = 0.0, what: str = "the figure",
                 limit: Callable[[], float] | None = None) -> EpsilonSearch:
    """The largest ε (to a relative ``rtol``) at which a non-decreasing figure is ≤ ``target``.

    1. **Bracket** on a coarse grid: from ``start`` (or the ends of ``bracket``), ε is
       multiplied or divided by ``factor`` until the figure is ≤ target at a lower end
       ``lo`` and > target at an upper end ``hi`` (``coarse`` measures, when given: a
       cheaper figure, e.g. fewer draws; where it finds no bracket, step 2 starts again
       from ``start``).  The grid stays within :data:`EPSILON_RANGE`.
    2. With ``coarse``: the two ends are measured again with ``figure`` (and moved by
       ``factor`` while they do not bracket the target).
    3. **Bisect** on log ε with ``figure``: ``mid = √(lo·hi)``, until ``hi/lo − 1 ≤ rtol``
       (at most :func:`bisection_steps` midpoints).
    4. **Check** that ``figure`` is non-decreasing (within ``tolerance``) over every ε it
       measured, sorted; otherwise raise, returning no ε.

    Returns ``lo``: a point measured at or below the target, whose neighbour ``hi`` (within
    ``rtol``) is measured above it.

    Parameters
    ----------
    figure : callable ε → float
        The figure, non-decreasing in ε (for a recovery rate: its upper end).
    target : float
    coarse : callable ε → float, optional
        A cheaper figure for step 1 (the same by default).
    start : float, default 1.0
        Where the coarse grid starts (in :data:`EPSILON_RANGE`), when no ``bracket`` is
        given.
    bracket : (float, float), optional
        A starting bracket ``lo < hi`` (it is widened if it does not hold).
    rtol : float, default 0.05
        At least :data:`MIN_RTOL`.
    factor : float, default 4
        The coarse grid's step (> 1).
    max_steps : int, default 8
        Coarse steps allowed in either direction (a range of ``factor ** 8``, 65,536 for
        ×4); a step that moves the figure away from the target (by more than
        ``tolerance``) ends the search: the figure is not monotone.
    tolerance : float, default 0
        A decrease up to this much is not counted as non-monotone (for a sampled figure:
        its sampling noise).
    what : str
        The figure's name in messages.
    limit : callable () → float, optional
        The figure at the top of :data:`EPSILON_RANGE`, where it has reached its limit.
        Asked for only when the grid finds the figure at or below the target wherever it
        looked: it tells a target that the figure never exceeds ("the target does not
        constrain epsilon") from one beyond the ε searched.  Without it, the message says
        only what was measured.

    Raises
    ------
    ValueError
        When the figure stays ≤ target (or > target) over the whole coarse range, or is
        not monotone over the points measured.

    Examples
    --------
    >>> s = find_epsilon(lambda e: 1 - math.exp(-e), 0.5, rtol=1e-6)
    >>> round(s.epsilon, 4), s.epsilon <= math.log(2) < s.above
    (0.6931, True)
    """
    target = float(target)
    rtol = check_rtol(rtol)
    factor = check_positive_number(factor, "factor")
    if factor <= 1.0:
        raise ValueError(f"factor must be a number > 1; got {factor!r}")
    max_steps = check_positive_int(max_steps, "max_steps")
    points: list[EpsilonPoint] = []
    fine_cache: dict[float, float] = {}

    def fine(eps: float) -> float:
        if eps not in fine_cache:
            fine_cache[eps] = float(figure(eps))
            points.append(EpsilonPoint(eps, fine_cache[eps], "fine"))
        return fine_cache[eps]

    coarse_cache: dict[float, float] = {}

    def rough(eps: float) -> float:
        if coarse is None:
            return fine(eps)
        if eps not in coarse_cache:
            coarse_cache[eps] = float(coarse(eps))
            points.append(EpsilonPoint(eps, coarse_cache[eps], "bracket"))
        return coarse_cache[eps]

    if bracket is not None:
        lo, hi = (check_search_epsilon(b, "bracket") for b in bracket)
        if not lo < hi:
            raise ValueError(f"bracket must be two numbers lo < hi; got {bracket!r}")
    else:
        lo = hi = check_search_epsilon(start, "start")
    first = (lo, hi)
    try:
        lo, hi = _bracket(rough, target, lo, hi, factor, max_steps, tolerance, what)
    except _NoBracket as exc:
        if coarse is None:
            raise ValueError(exc.explain(limit)) from None
        lo, hi = first  # the cheaper figure found none: the full one may
    if coarse is not None:
        try:
            lo, hi = _bracket(fine, target, lo, hi, factor, max_steps, tolerance, what)
        except _NoBracket as exc:
            raise ValueError(exc.explain(limit)) from None
    # at most this many midpoints, so that :func:`reachable_points` bounds the ε measured
    # (the loop's own test would stop there too, but for rounding)
    widest = factor if bracket is None else max(factor, first[1] / first[0])
    for _ in range(bisection_steps(widest, rtol)):
        if hi / lo - 1.0 <= rtol:
            break
        mid = math.sqrt(lo * hi)
        if fine(mid) <= target:
            lo = mid
        else:
            hi = mid
    search = EpsilonSearch(target, lo, hi, rtol, tuple(points))
    _check_monotone(search.fine(), tolerance, what)
    return search


def check_search_epsilon(value: Any, name: str = "start") -> float:
    """An ε where the search may start: a number in :data:`EPSILON_RANGE`.

    >>> check_search_epsilon(1e-300)
    Traceback (most recent call last):
    ...
    ValueError: start must be a number in [1e-150, 1e+150]; got 1e-300
    """
    eps = check_positive_number(value, name)
    low, high = EPSILON_RANGE
    if not low <= eps <= high:
        raise ValueError(f"{name} must be a number in [{low:g}, {high:g}]; got {eps!r}")
    return eps


class _NoBracket(ValueError):
    """The coarse grid found no bracket (or the figure stopped moving towards the target).

    ``below``: the figure was at or below the target wherever the grid looked (the upward
    search ended); then ``explain`` asks the figure's limit what that means.
    """

    def __init__(self, message: str, *, below: bool = False, what: str = "",
                 target: float = 0.0, reach: str = "") -> None:
        super().__init__(message)
        self.below, self.what, self.target, self.reach = below, what, target, reach

    def explain(self, limit: Callable[[], float] | None) -> str:
        """The message, with the conclusion the figure's limit allows."""
        if not self.below or limit is None:
            return str(self)
        top = EPSILON_RANGE[1]
        value = float(limit())
        if value <= self.target:
            return (f"{self.what} stays at or below {self.target:.10g} at every epsilon tried, "
                    f"{self.reach}, and at epsilon {top:g}, where it has reached its limit "
                    f"({value:.4g}): the target does not constrain epsilon")
        if str(self).startswith(f"{self.what} is not monotone"):
            return str(self)
        return (f"{self.what} stays at or below {self.target:.10g} at every epsilon tried, "
                f"{self.reach}, but is {value:.4g} at epsilon {top:g}: the target lies beyond "
                "the epsilon searched; start the search at a larger epsilon")


def _bracket(f: Callable[[float], float], target: float, lo: float, hi: float,
             factor: float, max_steps: int, tolerance: float, what: str
             ) -> tuple[float, float]:
    """Move ``lo`` down and ``hi`` up by ``factor`` until ``f(lo) ≤ target < f(hi)``.

    Stops early, and raises, where a step moves the figure away from the target (it is
    then not monotone) or would leave :data:`EPSILON_RANGE`.
    """
    low, high = EPSILON_RANGE
    start = lo
    value = f(lo)
    if value > target:  # lo is above: it becomes the upper end, and the grid goes down
        for _ in range(max_steps):
            if lo / factor < low:
                break
            hi, lo, before = lo, lo / factor, value
            value = f(lo)
            if value <= target:
                return lo, hi
            if value > before + tolerance:
                vb, vv = _distinct(before, value)
                raise _NoBracket(
                    f"{what} is not monotone in epsilon: it rises as epsilon falls, "
                    f"{vb} at epsilon {hi:.4g} but {vv} at {lo:.4g}, and is "
                    f"above {target:.10g} at both")
        raise _NoBracket(f"{what} is above {target:.10g} at every epsilon tried, from "
                         f"{start:.4g} down to {lo:.4g} ({value:.4g} there)")
    if hi <= lo:
        hi = lo * factor
    before = value
    for _ in range(max_steps):
        if hi > high:
            break
        value = f(hi)
        if value > target:
            return lo, hi
        if value < before - tolerance:
            vb, vv = _distinct(before, value)
            raise _NoBracket(
                f"{what} is not monotone in epsilon: it falls as epsilon grows, "
                f"{vb} at epsilon {lo:.4g} but {vv} at {hi:.4g}, and is at "
                f"or below {target:.10g} at both", below=True, what=what, target=target,
                reach=f"from {start:.4g} up to {hi:.4g} ({value:.4g} there)")
        lo, hi, before = hi, hi * factor, value
    reach = f"from {start:.4g} up to {lo:.4g} ({before:.4g} there)"
    raise _NoBracket(f"{what} stays at or below {target:.10g} at every epsilon tried, {reach}; "
                     "a larger epsilon may exceed it: start the search there",
                     below=True, what=what, target=target, reach=reach)
