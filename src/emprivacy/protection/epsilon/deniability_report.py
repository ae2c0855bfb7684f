"""The plausible-deniability statistics at one ε, as a record, a table and a plot.

:class:`PlausibleDeniability` is what
:meth:`~emprivacy.protection.epsilon.deniability.DeniabilityStudy.measure` returns;
:func:`calibration_table` and :func:`plot_calibration` present a series of them
(``emprivacy calibrate``).  Nothing here computes a statistic (the plot reads its dense
curve from the study it is given, :class:`CalibrationStudy`): a report's layout changes
here, not in the study.  The plot needs matplotlib (the ``evaluation`` extra), imported
when a plot is drawn.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, overload

import numpy as np

from emprivacy._optional import import_optional
from emprivacy.embeddings.model import Embeddings
from emprivacy.io.outputs import check_output_path, write_bytes_atomic
from emprivacy.math.guarantees import utility_bound

__all__ = ["CalibrationStudy", "PlausibleDeniability", "calibration_table",
           "plot_calibration"]


class CalibrationStudy(Protocol):
    """What :func:`plot_calibration` reads of a study: its words, trials and embeddings, and
    its curve of N_w against ε — as
    :class:`~emprivacy.protection.epsilon.deniability.DeniabilityStudy` gives them."""

    @property
    def embeddings(self) -> Embeddings: ...  # pragma: no cover - a protocol

    @property
    def words(self) -> tuple[str, ...]: ...  # pragma: no cover - a protocol

    @property
    def trials(self) -> int: ...  # pragma: no cover - a protocol

    def epsilon_for(self, target_unchanged: float) -> float:
        """The ε at which the median N_w reaches ``target_unchanged``."""
        ...  # pragma: no cover - a protocol

    def unchanged_curve(self, epsilons: Sequence[float] | np.ndarray) -> np.ndarray:
        """N_w of every studied word at each ε: (words, len(epsilons))."""
        ...  # pragma: no cover - a protocol


class _OverWords:
    """A read-only statistic over the studied words: ``float(reduce(record.<values>))``."""

    def __init__(self, reduce: Callable[[np.ndarray], Any], values: str, doc: str) -> None:
        self.reduce, self.values, self.__doc__ = reduce, values, doc

    @overload
    def __get__(self, record: None, owner: type | None = None) -> _OverWords: ...
    @overload
    def __get__(self, record: object, owner: type | None = None) -> float: ...
    def __get__(self, record: object, owner: type | None = None) -> float | _OverWords:
        if record is None:  # on the class: the descriptor itself (its __doc__ for help())
            return self
        return float(self.reduce(getattr(record, self.values)))


@dataclass(frozen=True)
class PlausibleDeniability:
    """Plausible-deniability statistics of the word-level mechanism at one ε.

    Attributes
    ----------
    epsilon : float
    words : tuple of str, length k
        The sampled words.
    trials : int
        Independent runs of the mechanism per word.
    unchanged : (k,) float array
        ``N_w``: fraction of trials returning w itself.
    distinct : (k,) int array
        ``S_w``: number of distinct output words (w included if it came back).
    distance_moved : (k,) float array
        Mean Euclidean distance ``‖Vec(w') − Vec(w)‖`` between output and input.
    size : int
        Document size N for :attr:`epsilon_total` and :attr:`utility_bound`.
    delta : float
        Utility radius Δ (Earth Mover's distance).
    dim : int
        Embedding dimension n.
    """

    epsilon: float
    words: tuple[str, ...]
    trials: int
    unchanged: np.ndarray = field(repr=False)
    distinct: np.ndarray = field(repr=False)
    distance_moved: np.ndarray = field(repr=False)
    size: int
    delta: float
    dim: int

    median_unchanged = _OverWords(np.median, "unchanged", "Median of N_w over the words.")
    mean_unchanged = _OverWords(np.mean, "unchanged", "Mean of N_w over the words.")
    median_distinct = _OverWords(np.median, "distinct", "Median of S_w over the words.")
    mean_distinct = _OverWords(np.mean, "distinct", "Mean of S_w over the words.")
    mean_distance_moved = _OverWords(np.mean, "distance_moved",
                                     "Mean over words of the mean embedding distance moved.")

    @property
    def epsilon_total(self) -> float:
        """ε·N: a document of N words gets the guarantee exp(ε·N·E) (Thm. 4)."""
        return self.epsilon * self.size

    @property
    def utility_bound(self) -> float:
        """``P(N·n, ε·N·Δ)``: valid lower bound on P[E(b, Alg1(b)) ≤ Δ] for size N (Thm. 3)."""
        return utility_bound(self.epsilon, self.size, self.delta, self.dim)

    def summary(self) -> dict[str, Any]:
        """The statistics as a JSON-ready dict (no per-word data)."""
        return {
            "epsilon": self.epsilon,
            "median_unchanged": self.median_unchanged,
            "mean_unchanged": self.mean_unchanged,
            "quartiles_unchanged": [float(q) for q in np.quantile(self.unchanged, [0.25, 0.75])],
            "median_distinct": self.median_distinct,
            "mean_distinct": self.mean_distinct,
            "mean_distance_moved": self.mean_distance_moved,
            "N": self.size,
            "epsilon_total": self.epsilon_total,
            "delta": self.delta,
            "utility_bound": self.utility_bound,
        }


def calibration_table(results: Sequence[PlausibleDeniability], *,
                      target: PlausibleDeniability | None = None) -> str:
    """A plain-text table of the statistics, one row per ε (the target row marked ``*``)."""
    rows = sorted(results, key=lambda r: r.epsilon)
    if target is not None:
        rows = sorted([*rows, target], key=lambda r: r.epsilon)
    header = (f"{'ε':>9}  {'median N_w':>10}  {'mean N_w':>8}  {'median S_w':>10}  "
              f"{'mean S_w':>8}  {'distance':>8}  {'ε·N':>9}  {'utility':>7}")
    lines = [header, "-" * len(header)]
    for r in rows:
        mark = "*" if r is target else " "
        lines.append(f"{r.epsilon:>8.4g}{mark}  {r.median_unchanged:>10.3f}  "
                     f"{r.mean_unchanged:>8.3f}  {r.median_distinct:>10.1f}  "
                     f"{r.mean_distinct:>8.2f}  {r.mean_distance_moved:>8.3f}  "
                     f"{r.epsilon_total:>9.4g}  {r.utility_bound:>7.3f}")
    return "\n".join(lines)


def plot_calibration(study: CalibrationStudy, results: Sequence[PlausibleDeniability],
                     path: str | os.PathLike[str], *,
                     target: PlausibleDeniability | None = None) -> None:
    """Write a PNG of N_w and S_w against ε (log scale), atomically.

    Top: the median N_w over a dense grid of ε (exact for the study's draws,
    :meth:`~emprivacy.protection.epsilon.deniability.DeniabilityStudy.unchanged_curve`)
    with its interquartile band, and
    the measured medians at the table's ε.  Bottom: the median and mean S_w.
    Uses matplotlib's Agg canvas directly (no GUI, no global backend change).
    """
    import_optional("matplotlib", extra="evaluation", purpose="the calibration plot")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    dest = check_output_path(path, kind="plot")  # a directory, a missing one: an error now
    rows = sorted(results, key=lambda r: r.epsilon)
    eps_pts = [r.epsilon for r in rows] + ([target.epsilon] if target is not None else [])
    lo = min([*eps_pts, study.epsilon_for(0.02)]) / 1.5
    hi = max([*eps_pts, study.epsilon_for(0.98)]) * 1.5
    grid = np.geomspace(lo, hi, 200)
    curve = study.unchanged_curve(grid)
    q1, med, q3 = np.quantile(curve, [0.25, 0.5, 0.75], axis=0)

    fig = Figure(figsize=(7, 6), layout="constrained")
    FigureCanvasAgg(fig)
    ax1, ax2 = fig.subplots(2, 1, sharex=True)
    ax1.fill_between(grid, q1, q3, alpha=0.25, label="interquartile range")
    ax1.plot(grid, med, label="median N_w")
    if rows:
        ax1.plot([r.epsilon for r in rows], [r.median_unchanged for r in rows], "o",
                 label="measured at the table's ε")
    if target is not None:
        ax1.plot([target.epsilon], [target.median_unchanged], "*", markersize=12,
                 label=f"target: ε = {target.epsilon:.3g}")
    ax1.set_xscale("log")
    ax1.set_ylim(-0.02, 1.02)
    ax1.set_ylabel("N_w: fraction unchanged")
    ax1.legend(loc="upper left", fontsize="small")
    ax1.set_title(f"{study.embeddings.name}: {len(study.words)} words × {study.trials} trials")
    pts = sorted([*rows, *([target] if target is not None else [])], key=lambda r: r.epsilon)
    ax2.plot([r.epsilon for r in pts], [r.median_distinct for r in pts], "o-",
             label="median S_w")
    ax2.plot([r.epsilon for r in pts], [r.mean_distinct for r in pts], "s--", label="mean S_w")
    ax2.set_xscale("log")
    plain = FuncFormatter(lambda v, _pos: f"{v:g}")
    for ax in (ax1, ax2):
        ax.xaxis.set_major_formatter(plain)
        ax.xaxis.set_minor_formatter(plain)
        ax.tick_params(axis="x", which="minor", labelsize="x-small")
    ax2.set_xlabel("ε (per word)")
    ax2.set_ylabel("S_w: distinct outputs")
    ax2.legend(loc="upper right", fontsize="small")
    png = io.BytesIO()  # drawn in memory: a failed write is then one error of the file
    fig.savefig(png, format="png", dpi=100)
    write_bytes_atomic(dest, png.getvalue())
