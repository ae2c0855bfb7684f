"""The privacy–utility frontier: mechanisms compared where their ε values cannot be.

The ε of different mechanisms do not measure the same thing (each is a factor of
its own metric: Euclidean, regularised Mahalanobis, truncated; and the embeddings'
scale enters every one), so a table "at ε = 10" compares nothing.  What can be
compared is the outcome: for each ε of a mechanism's grid, how well the attacker
still identifies the author (privacy lost) against how well the topic is still
found (utility kept).  Each mechanism traces a curve through that plane; a curve
lower and further right is a better trade-off at every privacy level.  Chance
levels are marked: an author accuracy at chance is the most privacy any
mechanism can give.

Author identification is one adversary.  The frontier has a second privacy axis, on
the adversary's own scale: the **word recovery** — the share of the released snippet
words an adversary names from the released word alone
(:func:`emprivacy.protection.release_recovery`), whose floor is the blind guess of the
most frequent word — and, where the run measured it, a third: **ε̂**, the largest
lower bound on the privacy loss that a test on pairs of snippet words demonstrates
(:func:`emprivacy.protection.distinguish_pairs`).  Each is a row of panels against the
same topic accuracy.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from emprivacy._optional import import_optional
from emprivacy.evaluation.results import ATTACKS, ExperimentResult
from emprivacy.evaluation.settings import epsilon_label

__all__ = ["LINESTYLES", "MARKERS", "PRIVACY_AXES", "axis_limits", "frontier_figure",
           "frontier_points", "frontier_table", "plot_frontier", "privacy_axes"]

#: The privacy axes a frontier can have: author identification, word recovery, ε̂.
PRIVACY_AXES: tuple[str, ...] = ("author", "recovery", "epsilon_hat")


def frontier_points(result: ExperimentResult, *, author: str = "DRauth",
                    topic: str = "DRtopic") -> list[dict[str, Any]]:
    """One point per (author set, ε) of a run: mean accuracies as fractions correct.

    Parameters
    ----------
    result : ExperimentResult
    author, topic : str
        The attacks on the two axes (default the paper's strongest two, DRauth and
        DRtopic; :data:`~emprivacy.evaluation.results.ATTACKS`).

    Returns
    -------
    list of dict
        ``mechanism``, ``authors``, ``epsilon`` (label), ``author_accuracy``,
        ``topic_accuracy``, ``author_sd``, ``topic_sd`` (sample sd over the trials, as
        fractions; NaN for one trial), ``author_chance``, ``topic_chance`` (1/#authors:
        a random author; 1/#topics: a random topic, the sets being split evenly);
        ``recovery``, ``recovery_lower``, ``recovery_upper`` (the word recovery and its
        interval), ``recovery_optimum_upper`` and ``recovery_baseline`` (the blind guess),
        NaN where not measured; ``epsilon_hat`` (the largest lower bound ε̂ over the
        pairs) and ``epsilon_hat_nominal`` (that pair's ε·d), NaN where not measured.
    """
    for name, value in (("author", author), ("topic", topic)):
        if value not in ATTACKS:
            raise ValueError(f"{name} must be one of {', '.join(map(repr, ATTACKS))}; got "
                             f"{value!r}")
    a, b = ATTACKS.index(author), ATTACKS.index(topic)
    points = []
    for s in result.sets:
        mean = s.mean() / s.n_authors
        sd = s.sd() / s.n_authors
        base = next((r.baseline for r in s.recovery if r is not None), math.nan)
        for i, eps in enumerate(s.epsilons):
            r, h = s.recovery_at(i), s.epsilon_hat_at(i)
            nan = math.nan
            points.append({"mechanism": result.config.mechanism, "authors": s.n_authors,
                           "epsilon": epsilon_label(eps),
                           "author_accuracy": float(mean[i, a]),
                           "topic_accuracy": float(mean[i, b]),
                           "author_sd": float(sd[i, a]), "topic_sd": float(sd[i, b]),
                           "author_chance": s.chance["author"] / s.n_authors,
                           "topic_chance": s.chance["topic"] / s.n_authors,
                           "recovery": nan if r is None else r.estimate,
                           "recovery_lower": nan if r is None else r.lower,
                           "recovery_upper": nan if r is None else r.upper,
                           "recovery_optimum_upper": nan if r is None else r.plugin_upper,
                           "recovery_baseline": base,
                           "epsilon_hat": nan if h is None else float(h["lower"]),
                           "epsilon_hat_nominal": (nan if h is None or h["nominal"] is None
                                                   else float(h["nominal"]))})
    return points


def privacy_axes(results: Sequence[ExperimentResult]) -> tuple[str, ...]:
    """The privacy axes every run of ``results`` measured (``"author"`` always;
    ``"recovery"`` and ``"epsilon_hat"`` where every run has them at some ε)."""
    axes = ["author"]
    for name, attr in (("recovery", "recovery"), ("epsilon_hat", "epsilon_hat")):
        if results and all(any(v is not None for s in r.sets for v in getattr(s, attr))
                           for r in results):
            axes.append(name)
    return tuple(axes)


def frontier_table(results: Sequence[ExperimentResult], *, author: str = "DRauth",
                   topic: str = "DRtopic") -> str:
    """The frontier points of several runs as a Markdown table (one row per point;
    mean ± sample sd over the trials; the word recovery with its interval, and ε̂ beside
    ε·d, where every run measured them)."""
    axes = privacy_axes(results)
    head = f"| mechanism | authors | ε | {author} (fraction) | {topic} (fraction) |"
    rule = "|---|---:|---|---:|---:|"
    if "recovery" in axes:
        head += " word recovery | optimum ≤ |"
        rule += "---|---:|"
    if "epsilon_hat" in axes:
        head += " ε̂ (lower bound) | ε·d |"
        rule += "---:|---:|"
    lines = [head, rule]
    for r in results:
        for p in frontier_points(r, author=author, topic=topic):
            row = (f"| {p['mechanism']} | {p['authors']} | {p['epsilon']} | "
                   f"{_cell(p['author_accuracy'], p['author_sd'])} | "
                   f"{_cell(p['topic_accuracy'], p['topic_sd'])} |")
            if "recovery" in axes:
                row += (f" {_interval(p['recovery'], p['recovery_lower'], p['recovery_upper'])}"
                        f" | {_num(p['recovery_optimum_upper'])} |")
            if "epsilon_hat" in axes:
                row += f" {_num(p['epsilon_hat'])} | {_num(p['epsilon_hat_nominal'])} |"
            lines.append(row)
    return "\n".join(lines) + "\n"


def _interval(value: float, lower: float, upper: float) -> str:
    if math.isnan(value):
        return "–"
    if lower == value == upper:
        return f"{value:.3g}"
    return f"{value:.3f} [{lower:.3f}, {upper:.3f}]"


def _num(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.3g}"


def _cell(mean: float, sd: float) -> str:
    return f"{mean:.3f}" if math.isnan(sd) else f"{mean:.3f} ± {sd:.3f}"


#: One style per mechanism (in the order of the runs): curves that coincide stay apart.
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES: tuple[str, ...] = ("-", "--", "-.", ":")
#: Margin around the data, as a fraction of its span (at least ``_MIN_SPAN``).
_MARGIN = 0.08
_MIN_SPAN = 0.05
#: An ε label is not drawn where it would be within this box (axes fractions: x, y) of
#: one already drawn.
_LABEL_BOX = (0.11, 0.05)


def axis_limits(values: Sequence[float], *, bounded: bool = True) -> tuple[float, float]:
    """Limits of one axis: every value (points, their error bars, the chance line) with
    a margin; for a fraction (``bounded``) never beyond [−0.02, 1.02], otherwise never
    below −0.02.

    >>> axis_limits([0.45, 0.72])
    (0.4284, 0.7416)
    >>> axis_limits([0.0, 4.0], bounded=False)
    (-0.02, 4.32)
    """
    v = np.asarray([x for x in values if math.isfinite(x)], dtype=np.float64)
    if v.size == 0:
        return (-0.02, 1.02)
    lo, hi = float(v.min()), float(v.max())
    span = max(hi - lo, _MIN_SPAN)
    centre = (lo + hi) / 2
    lo, hi = centre - span / 2, centre + span / 2
    top = min(1.02, hi + _MARGIN * span) if bounded else hi + _MARGIN * span
    return (round(max(-0.02, lo - _MARGIN * span), 4), round(top, 4))


#: Per privacy axis: the y value, its error bar's ends (None: none), the chance line and
#: its label (None: none), the axis label, and whether it is a fraction.
_AXES: dict[str, tuple[str, tuple[str, str] | None, str | None, str | None, str, bool]] = {
    "author": ("author_accuracy", None, "author_chance", "chance (author: 1/#authors)",
               "{author} accuracy (privacy lost) →", True),
    "recovery": ("recovery", ("recovery_lower", "recovery_upper"), "recovery_baseline",
                 "prior only (recovery)",
                 "word recovery (privacy lost) →", True),
    "epsilon_hat": ("epsilon_hat", None, None, None,
                    "ε̂, lower bound on the privacy loss →", False),
}


def frontier_figure(results: Sequence[ExperimentResult], *, author: str = "DRauth",
                    topic: str = "DRtopic", privacy: Sequence[str] | None = None) -> Any:
    """The frontier as a matplotlib ``Figure``: one column per author-set size, one row per
    privacy axis, one curve per mechanism.

    x: topic accuracy (utility kept), as a fraction correct averaged over trials, with
    error bars of ± one sample sd over the trials (none for one trial).  y (privacy lost),
    one row each (``privacy``, default :func:`privacy_axes`: every axis all runs
    measured): ``"author"``, the author accuracy (± sd); ``"recovery"``, the word
    recovery with its 95 % interval; ``"epsilon_hat"``, ε̂ (the unmodified snippets have
    none).  Each mechanism has its own marker and line style (and hollow markers every
    other one), so curves that coincide stay visible.  The axes are zoomed to the points,
    their error bars and the chance lines (dotted: a random author, or the blind guess of
    the most frequent word; dashed: a random topic), with a margin; ε labels are sparse:
    each curve's strongest and weakest ε first, the others only where no other label is
    near.  The legend sits below the panels.
    """
    if not results:
        raise ValueError("results must hold at least one run; got none")
    rows = privacy_axes(results) if privacy is None else tuple(privacy)
    for name in rows:
        if name not in PRIVACY_AXES:
            raise ValueError(f"privacy must hold axes among "
                             f"{', '.join(map(repr, PRIVACY_AXES))}; got {name!r}")
    if not rows:
        raise ValueError("privacy must name at least one axis; got none")
    purpose = "the privacy–utility frontier plot"
    agg = import_optional("matplotlib.backends.backend_agg", extra="evaluation", purpose=purpose)
    figure = import_optional("matplotlib.figure", extra="evaluation", purpose=purpose)
    sizes = sorted({s.n_authors for r in results for s in r.sets})
    fig = figure.Figure(figsize=(5.6 * len(sizes), 5.2 + 4.6 * (len(rows) - 1)),
                        layout="constrained")
    agg.FigureCanvasAgg(fig)
    axes = fig.subplots(len(rows), len(sizes), squeeze=False)
    points = [frontier_points(r, author=author, topic=topic) for r in results]
    for row, name in enumerate(rows):
        for ax, size in zip(axes[row], sizes, strict=True):
            curves = [(k, r.config.mechanism, [p for p in points[k] if p["authors"] == size])
                      for k, r in enumerate(results)]
            curves = [c for c in curves if c[2]]
            if curves:
                _panel(ax, curves, name, len(results), author=author, topic=topic)
                ax.set_title(f"{results[0].dataset}: {size} authors")
    handles: dict[str, Any] = {}
    for ax in axes.ravel():  # every curve and chance line once
        for h, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, h)
    fig.legend(list(handles.values()), list(handles), loc="outside lower center",
               ncols=min(len(handles), 4 if len(sizes) > 1 else 3), fontsize="small")
    return fig


def _panel(ax: Any, curves: list[tuple[int, str, list[dict[str, Any]]]], name: str,
           n_runs: int, *, author: str, topic: str) -> None:
    """One panel of the frontier: every mechanism's curve against one privacy axis."""
    key, bar, chance_key, chance_label, ylabel, bounded = _AXES[name]
    first = curves[0][2][0]
    chance_x = first["topic_chance"]
    chance_y = first[chance_key] if chance_key else math.nan
    xs = [chance_x]
    ys = [chance_y]
    shown = []
    for k, mechanism, pts in curves:
        pts = [p for p in pts if math.isfinite(p[key])]
        if not pts:
            continue
        shown.append((k, mechanism, pts))
        for p in pts:
            dx = 0.0 if math.isnan(p["topic_sd"]) else p["topic_sd"]
            xs += [p["topic_accuracy"] - dx, p["topic_accuracy"] + dx]
            if bar is not None:
                ys += [p[bar[0]], p[bar[1]]]
            elif name == "author":
                dy = 0.0 if math.isnan(p["author_sd"]) else p["author_sd"]
                ys += [p[key] - dy, p[key] + dy]
            else:
                ys.append(p[key])
    xlim, ylim = axis_limits(xs), axis_limits(ys, bounded=bounded)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    if chance_label is not None and math.isfinite(chance_y):
        ax.axhline(chance_y, color="grey", linestyle=":", linewidth=1.2, label=chance_label,
                   zorder=1)
    ax.axvline(chance_x, color="grey", linestyle="--", linewidth=1.2,
               label="chance (topic: 1/#topics)", zorder=1)
    placed: list[tuple[float, float]] = []
    for k, mechanism, pts in shown:
        x = np.array([p["topic_accuracy"] for p in pts])
        y = np.array([p[key] for p in pts])
        xerr = np.array([p["topic_sd"] for p in pts])
        if bar is not None:
            yerr: Any = np.array([[p[key] - p[bar[0]], p[bar[1]] - p[key]] for p in pts]).T
        elif name == "author":
            yerr = np.array([p["author_sd"] for p in pts])
        else:
            yerr = None
        has_err = bool(np.isfinite(xerr).any()
                       or (yerr is not None and np.isfinite(yerr).any()))
        color = f"C{k % 10}"
        hollow = bool(k % 2)  # hollow and larger, drawn above: a filled one shows inside
        bars = ax.errorbar(
            x, y, xerr=np.nan_to_num(xerr) if has_err else None,
            yerr=np.nan_to_num(yerr) if has_err and yerr is not None else None, color=color,
            marker=MARKERS[k % len(MARKERS)], linestyle=LINESTYLES[k % len(LINESTYLES)],
            markersize=9 if hollow else 5, markerfacecolor="none" if hollow else color,
            markeredgewidth=1.5, linewidth=1.3, elinewidth=0.7, capsize=2,
            label=mechanism, zorder=3 + (n_runs if hollow else 0) + k)
        for collection in bars.lines[2]:  # the error bars: lighter than the curve
            collection.set_alpha(0.45)
        order = [len(pts) - 1, 0, *range(len(pts) - 2, 0, -1)]  # strongest ε first
        for i in dict.fromkeys(order):
            fx = (x[i] - xlim[0]) / (xlim[1] - xlim[0])
            fy = (y[i] - ylim[0]) / (ylim[1] - ylim[0])
            if any(abs(fx - px) < _LABEL_BOX[0] and abs(fy - py) < _LABEL_BOX[1]
                   for px, py in placed):
                continue  # another label is there: this ε stays unlabelled
            placed.append((fx, fy))
            ax.annotate(f"ε={pts[i]['epsilon']}", (x[i], y[i]), textcoords="offset points",
                        xytext=(6, 5), fontsize="x-small", color=color, zorder=20,
                        bbox={"boxstyle": "round,pad=0.1", "facecolor": "white",
                              "edgecolor": "none", "alpha": 0.7})
    ax.set_xlabel(f"{topic} accuracy (utility kept) →")
    ax.set_ylabel(ylabel.format(author=author))
    ax.grid(True, alpha=0.3)


def plot_frontier(results: Sequence[ExperimentResult], *, author: str = "DRauth",
                  topic: str = "DRtopic", privacy: Sequence[str] | None = None) -> bytes:
    """PNG of :func:`frontier_figure`."""
    fig = frontier_figure(results, author=author, topic=topic, privacy=privacy)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120, metadata={"Software": None})
    return buf.getvalue()
