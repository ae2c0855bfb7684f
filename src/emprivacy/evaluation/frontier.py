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
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._optional import import_optional
from .results import ATTACKS, ExperimentResult, epsilon_label

__all__ = ["LINESTYLES", "MARKERS", "axis_limits", "frontier_figure", "frontier_points",
           "frontier_table", "plot_frontier"]


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
        a random author; 1/#topics: a random topic, the sets being split evenly).
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
        for i, eps in enumerate(s.epsilons):
            points.append({"mechanism": result.config.mechanism, "authors": s.n_authors,
                           "epsilon": epsilon_label(eps),
                           "author_accuracy": float(mean[i, a]),
                           "topic_accuracy": float(mean[i, b]),
                           "author_sd": float(sd[i, a]), "topic_sd": float(sd[i, b]),
                           "author_chance": s.chance["author"] / s.n_authors,
                           "topic_chance": s.chance["topic"] / s.n_authors})
    return points


def frontier_table(results: Sequence[ExperimentResult], *, author: str = "DRauth",
                   topic: str = "DRtopic") -> str:
    """The frontier points of several runs as a Markdown table (one row per point;
    mean ± sample sd over the trials)."""
    lines = [f"| mechanism | authors | ε | {author} (fraction) | {topic} (fraction) |",
             "|---|---:|---|---:|---:|"]
    for r in results:
        for p in frontier_points(r, author=author, topic=topic):
            lines.append(f"| {p['mechanism']} | {p['authors']} | {p['epsilon']} | "
                         f"{_cell(p['author_accuracy'], p['author_sd'])} | "
                         f"{_cell(p['topic_accuracy'], p['topic_sd'])} |")
    return "\n".join(lines) + "\n"


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


def axis_limits(values: Sequence[float]) -> tuple[float, float]:
    """Limits of one axis: every value (points, their error bars, the chance line) with
    a margin; never beyond [−0.02, 1.02].

    >>> axis_limits([0.45, 0.72])
    (0.4284, 0.7416)
    """
    v = np.asarray([x for x in values if math.isfinite(x)], dtype=np.float64)
    if v.size == 0:
        return (-0.02, 1.02)
    lo, hi = float(v.min()), float(v.max())
    span = max(hi - lo, _MIN_SPAN)
    centre = (lo + hi) / 2
    lo, hi = centre - span / 2, centre + span / 2
    return (round(max(-0.02, lo - _MARGIN * span), 4), round(min(1.02, hi + _MARGIN * span), 4))


def frontier_figure(results: Sequence[ExperimentResult], *, author: str = "DRauth",
                    topic: str = "DRtopic") -> Any:
    """The frontier as a matplotlib ``Figure``: one panel per author-set size, one curve per
    mechanism.

    x: topic accuracy (utility kept), y: author accuracy (privacy lost), both as
    fractions correct, averaged over trials, with error bars of ± one sample sd over the
    trials (none for one trial).  Each mechanism has its own marker and line style (and
    hollow markers every other one), so curves that coincide stay visible.  The axes are
    zoomed to the points, their error bars and the chance lines (dotted: a random author,
    dashed: a random topic), with a margin; ε labels are sparse: each curve's strongest and
    weakest ε first, the others only where no other label is near.  The legend sits below
    the panels.
    """
    if not results:
        raise ValueError("results must hold at least one run; got none")
    purpose = "the privacy–utility frontier plot"
    agg = import_optional("matplotlib.backends.backend_agg", extra="evaluation", purpose=purpose)
    figure = import_optional("matplotlib.figure", extra="evaluation", purpose=purpose)
    sizes = sorted({s.n_authors for r in results for s in r.sets})
    fig = figure.Figure(figsize=(5.6 * len(sizes), 5.2), layout="constrained")
    agg.FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(sizes), squeeze=False)[0]
    for ax, size in zip(axes, sizes, strict=True):
        curves = []
        for k, r in enumerate(results):
            pts = [p for p in frontier_points(r, author=author, topic=topic)
                   if p["authors"] == size]
            if pts:
                curves.append((k, r.config.mechanism, pts))
        if not curves:
            continue
        chance = {"author": curves[0][2][0]["author_chance"],
                  "topic": curves[0][2][0]["topic_chance"]}
        xs = [chance["topic"]]
        ys = [chance["author"]]
        for _, _, pts in curves:
            for p in pts:
                dx = 0.0 if math.isnan(p["topic_sd"]) else p["topic_sd"]
                dy = 0.0 if math.isnan(p["author_sd"]) else p["author_sd"]
                xs += [p["topic_accuracy"] - dx, p["topic_accuracy"] + dx]
                ys += [p["author_accuracy"] - dy, p["author_accuracy"] + dy]
        xlim, ylim = axis_limits(xs), axis_limits(ys)
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.axhline(chance["author"], color="grey", linestyle=":", linewidth=1.2,
                   label="chance (author: 1/#authors)", zorder=1)
        ax.axvline(chance["topic"], color="grey", linestyle="--", linewidth=1.2,
                   label="chance (topic: 1/#topics)", zorder=1)
        placed: list[tuple[float, float]] = []
        for k, mechanism, pts in curves:
            x = np.array([p["topic_accuracy"] for p in pts])
            y = np.array([p["author_accuracy"] for p in pts])
            xerr = np.array([p["topic_sd"] for p in pts])
            yerr = np.array([p["author_sd"] for p in pts])
            has_err = bool(np.isfinite(xerr).any() or np.isfinite(yerr).any())
            color = f"C{k % 10}"
            hollow = bool(k % 2)  # hollow and larger, drawn above: a filled one shows inside
            bars = ax.errorbar(
                x, y, xerr=np.nan_to_num(xerr) if has_err else None,
                yerr=np.nan_to_num(yerr) if has_err else None, color=color,
                marker=MARKERS[k % len(MARKERS)], linestyle=LINESTYLES[k % len(LINESTYLES)],
                markersize=9 if hollow else 5, markerfacecolor="none" if hollow else color,
                markeredgewidth=1.5, linewidth=1.3, elinewidth=0.7, capsize=2,
                label=mechanism, zorder=3 + (len(results) if hollow else 0) + k)
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
        ax.set_ylabel(f"{author} accuracy (privacy lost) →")
        ax.set_title(f"{results[0].dataset}: {size} authors")
        ax.grid(True, alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 4),
               fontsize="small")
    return fig


def plot_frontier(results: Sequence[ExperimentResult], *, author: str = "DRauth",
                  topic: str = "DRtopic") -> bytes:
    """PNG of :func:`frontier_figure`."""
    fig = frontier_figure(results, author=author, topic=topic)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120, metadata={"Software": None})
    return buf.getvalue()
