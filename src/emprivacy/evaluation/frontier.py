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
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._optional import import_optional
from .results import ATTACKS, ExperimentResult, epsilon_label

__all__ = ["frontier_points", "frontier_table", "plot_frontier"]


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
        ``topic_accuracy``, ``author_chance``, ``topic_chance``.
    """
    for name, value in (("author", author), ("topic", topic)):
        if value not in ATTACKS:
            raise ValueError(f"{name} must be one of {', '.join(map(repr, ATTACKS))}; got "
                             f"{value!r}")
    a, b = ATTACKS.index(author), ATTACKS.index(topic)
    points = []
    for s in result.sets:
        mean = s.mean() / s.n_authors
        for i, eps in enumerate(s.epsilons):
            points.append({"mechanism": result.config.mechanism, "authors": s.n_authors,
                           "epsilon": epsilon_label(eps),
                           "author_accuracy": float(mean[i, a]),
                           "topic_accuracy": float(mean[i, b]),
                           "author_chance": s.chance["author"] / s.n_authors,
                           "topic_chance": s.chance["topic"] / s.n_authors})
    return points


def frontier_table(results: Sequence[ExperimentResult], *, author: str = "DRauth",
                   topic: str = "DRtopic") -> str:
    """The frontier points of several runs as a Markdown table (one row per point)."""
    lines = [f"| mechanism | authors | ε | {author} (fraction) | {topic} (fraction) |",
             "|---|---:|---|---:|---:|"]
    for r in results:
        for p in frontier_points(r, author=author, topic=topic):
            lines.append(f"| {p['mechanism']} | {p['authors']} | {p['epsilon']} | "
                         f"{p['author_accuracy']:.3f} | {p['topic_accuracy']:.3f} |")
    return "\n".join(lines) + "\n"


def plot_frontier(results: Sequence[ExperimentResult], *, author: str = "DRauth",
                  topic: str = "DRtopic") -> bytes:
    """PNG of the frontier: one panel per author-set size, one curve per mechanism.

    x: topic accuracy (utility kept), y: author accuracy (privacy lost), both as
    fractions correct, averaged over trials; each point is labelled with its ε;
    dotted lines at chance.
    """
    if not results:
        raise ValueError("results must hold at least one run; got none")
    purpose = "the privacy–utility frontier plot"
    agg = import_optional("matplotlib.backends.backend_agg", extra="evaluation", purpose=purpose)
    figure = import_optional("matplotlib.figure", extra="evaluation", purpose=purpose)
    sizes = sorted({s.n_authors for r in results for s in r.sets})
    fig = figure.Figure(figsize=(5.2 * len(sizes), 4.4), layout="constrained")
    agg.FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(sizes), squeeze=False)[0]
    for ax, size in zip(axes, sizes, strict=True):
        chance: dict[str, float] = {}
        for k, r in enumerate(results):
            pts = [p for p in frontier_points(r, author=author, topic=topic)
                   if p["authors"] == size]
            if not pts:
                continue
            chance = {"author": pts[0]["author_chance"], "topic": pts[0]["topic_chance"]}
            x = np.array([p["topic_accuracy"] for p in pts])
            y = np.array([p["author_accuracy"] for p in pts])
            line = ax.plot(x, y, marker="o", linestyle="-", color=f"C{k}",
                           label=r.config.mechanism)[0]
            for p, xi, yi in zip(pts, x, y, strict=True):
                ax.annotate(p["epsilon"], (xi, yi), textcoords="offset points", xytext=(3, 3),
                            fontsize="x-small", color=line.get_color())
        if chance:
            ax.axhline(chance["author"], color="grey", linestyle=":", linewidth=1,
                       label="chance (author)")
            ax.axvline(chance["topic"], color="grey", linestyle="--", linewidth=1,
                       label="chance (topic)")
        ax.set_xlabel(f"{topic} accuracy (utility kept)")
        ax.set_ylabel(f"{author} accuracy (privacy lost)")
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(f"{results[0].dataset}: {size} authors")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left", fontsize="small")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120, metadata={"Software": None})
    return buf.getvalue()
