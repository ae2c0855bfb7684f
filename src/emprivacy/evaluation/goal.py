"""The goal of issue 41, judged per ε: the author hidden from the strongest attack while the
topic and the meaning stay.

**Goal**: author identification by the strongest attack (the largest mean over every
attack and view, :func:`~emprivacy.evaluation.authorship.strongest`) at most twice chance,
and the topic classifier (DRtopic) within ``topic_points`` percentage points of its accuracy
on the clean snippets.  It is judged only where the topic classifier is clearly better than
guessing (:meth:`~emprivacy.evaluation.results.SetResult.topic_classifier`): otherwise
"topic kept" measures nothing, and the row says so instead of a verdict.  Beside it, the
utility beyond the topic label (:mod:`emprivacy.evaluation.utility`): the meaning kept and
the share of content words kept.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from emprivacy.evaluation.authorship import strongest
from emprivacy.evaluation.results import SetResult
from emprivacy.evaluation.settings import epsilon_label

__all__ = ["goal_rows", "goal_table"]


def _mean(values: Any) -> float:
    arr = np.asarray(values, dtype=np.float64)
    return float(arr.mean()) if arr.size else math.nan


def goal_rows(s: SetResult, *, author_factor: float = 2.0, topic_points: float = 10.0
              ) -> list[dict[str, Any]]:
    """One row per ε: the strongest author attack, the topic accuracy, the meaning and the
    content words kept (fractions), and the verdict (``None`` where not judged)."""
    n = s.n_authors
    topic = s.mean()[:, 3] / n
    clean = next((topic[i] for i, e in enumerate(s.epsilons) if e is None), math.nan)
    judged = s.topic_classifier().clearly_above_chance and not math.isnan(clean)
    rows = []
    for i, e in enumerate(s.epsilons):
        column, best = strongest(s.author_means(i))
        author = best / n
        util = s.utility or {}
        row = {"epsilon": epsilon_label(e), "author": author, "author_attack": column,
               "topic": float(topic[i]),
               "similarity": _mean(util.get("similarity", [[]] * (i + 1))[i]),
               "content_kept": _mean(util.get("content_kept", [[]] * (i + 1))[i]),
               "goal": None, "why": ""}
        if e is not None and judged:
            hidden = author <= author_factor * s.chance["author"] / n
            kept = topic[i] >= clean - topic_points / 100
            row["goal"] = bool(hidden and kept)
            row["why"] = "; ".join(
                ([] if hidden else [f"author {author:.3f} > {author_factor:g}× chance "
                                    f"{author_factor * s.chance['author'] / n:.3f} "
                                    f"({column})"])
                + ([] if kept else [f"topic {topic[i]:.3f} < clean {clean:.3f} − "
                                    f"{topic_points:g} points"]))
        rows.append(row)
    return rows


def goal_table(s: SetResult) -> list[str]:
    """Markdown lines: the goal per ε with the utility beside it."""
    method = (s.utility or {}).get("method", "–")
    judged = s.topic_classifier()
    lines = [f"### {s.n_authors}-author set: the goal and the utility kept", "",
             "Goal: author identification by the strongest attack ≤ 2× chance, with the "
             "topic (DRtopic) within 10 points of the clean snippets. Meaning kept: mean "
             f"cosine of original and release by **{method}**"
             + (" (a crude stand-in for sentence embeddings: the `similarity` extra is not "
                "installed, or the corpus is not English)" if method == "word-vector" else
                " (all-MiniLM-L6-v2)") + "; content words kept: share of the original's "
             "content words given back unchanged.", ""]
    if not judged.clearly_above_chance:
        lines += [f"**Not judged: the {judged.describe()}**, so \"topic kept\" measures "
                  "nothing on this set.", ""]
    lines += ["| ε | strongest author | topic | meaning kept | content words kept | goal |",
              "|---|---|---:|---:|---:|---|"]
    for r in goal_rows(s):
        verdict = ("–" if r["epsilon"] == "none" else
                   "not judged (topic classifier at chance)" if r["goal"] is None else
                   "**met**" if r["goal"] else f"not met: {r['why']}")
        lines.append(f"| {r['epsilon']} | {r['author']:.3f} ({r['author_attack']}) | "
                     f"{r['topic']:.3f} | {r['similarity']:.3f} | {r['content_kept']:.3f} | "
                     f"{verdict} |")
    return [*lines, ""]
