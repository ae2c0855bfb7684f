"""The frontier of issue 41 on Brown: author identification against the strongest attack,
topic, meaning and content words kept, for word-level mechanisms on both channels.

For each mechanism (``--mechanisms``) and channel (``--channels``: ``bag``, the paper's
bags of N words; ``text``, the readable release of ``obfuscate --format text``), one run of
the experiment (:func:`emprivacy.evaluation.run_experiment`, known texts whole, every
author attack on every view) at the ε of ``--epsilons``; with ``--entities`` a second run of
each with entity detection; with ``--style-epsilons`` (text channel) a run of each with the
style option of text mode at each ε_f (``style_epsilon``: function words within their class,
punctuation canonical; ``none``: without it).  Prints, per run and ε: the strongest author
attack (mean fraction correct and which attack/view), DRauth, the best attack on function
words and on punctuation (text), the topic accuracy (DRtopic), the meaning kept (sentence-embedding
cosine where the ``similarity`` extra is installed, else word vectors: named), the content
words kept, and the goal (author ≤ 2× chance with topic within 10 points of clean; "not
judged" where the topic classifier is not clearly above chance).  The topics are the Brown
genres of ``--genres`` (default :data:`emprivacy.evaluation.BROWN_GENRES`, four genres the
topic classifier tells apart; the set is split evenly between them).

Usage::

    python benchmarks/author_frontier.py [--authors 20] [--trials 1] [--seed 41]
        [--mechanisms madlib,vickrey,santext] [--channels bag,text]
        [--epsilons none,20,10,5,2.5] [--entities none|auto|capitalised]
        [--style-epsilons none,1,3] [--genres adventure,hobbies,religion,romance]

Prints Markdown; writes nothing.  Needs the Brown corpus (downloaded and cached on first
use) and the ``evaluation`` extra.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterator
from typing import Any

from emprivacy.embeddings import load_embeddings
from emprivacy.evaluation import BROWN_GENRES, brown, run_experiment
from emprivacy.evaluation.goal import goal_rows


def _best(means: dict[str, float], view: str) -> tuple[str, float]:
    picked = {c: m for c, m in means.items() if c.endswith(f"/{view}")}
    if not picked:
        return "–", float("nan")
    column = max(picked, key=lambda c: picked[c])
    return column, picked[column]


def run(args: argparse.Namespace) -> Iterator[list[dict[str, Any]]]:
    """The rows of each run, one run at a time."""
    corpus = brown(topics=args.genres.split(","))
    emb = load_embeddings(None, vocab_size=100_000)
    entity_settings = [("none", {})]
    if args.entities != "none":
        entity_settings.append((args.entities, {"entities": args.entities}))
    styles = args.style_epsilons.split(",")
    for mechanism in args.mechanisms.split(","):
        for channel in args.channels.split(","):
            for (label, extra), style in itertools.product(
                    entity_settings, styles if channel == "text" else ["none"]):
                styled = {} if style == "none" else {"style_epsilon": float(style)}
                result = run_experiment(corpus, embeddings=emb, authors=args.authors,
                                        epsilons=args.epsilons, trials=args.trials,
                                        seed=args.seed, mechanism=mechanism, channel=channel,
                                        n_jobs=args.jobs, **extra, **styled)
                (s,) = result.sets
                check = s.topic_classifier()
                rows: list[dict[str, Any]] = []
                for i, row in enumerate(goal_rows(s)):
                    means = s.author_means(i)
                    rows.append({**row, "mechanism": mechanism, "channel": channel,
                                 "entities": label, "style": style, "N": s.N,
                                 "drauth": means["koppel/all"] / s.n_authors,
                                 "function": _best(means, "function"),
                                 "punctuation": _best(means, "punctuation"),
                                 "unchanged": _best(means, "unchanged"),
                                 "method": s.utility["method"],
                                 "unchanged_view": result.metadata.get("unchanged_view", "–"),
                                 "topic_check": check.describe()})
                yield rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--authors", type=int, default=20)
    parser.add_argument("--trials", type=int, default=1)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--mechanisms", default="madlib,vickrey,santext")
    parser.add_argument("--channels", default="bag,text")
    parser.add_argument("--epsilons", default="none,20,10,5,2.5")
    parser.add_argument("--entities", default="none")
    parser.add_argument("--style-epsilons", default="none")
    parser.add_argument("--genres", default=",".join(BROWN_GENRES),
                        help="Brown genres used as topics (default: four a topic classifier "
                        "tells apart; adventure,romance is the paper-like pair)")
    args = parser.parse_args()
    n = args.authors
    print(f"# Author identification at full strength on Brown ({n} authors of the genres "
          f"{args.genres.replace(',', ', ')}; "
          f"{args.trials} trial(s), seed {args.seed}; chance {1 / n:.3f}, 2× chance "
          f"{2 / n:.3f})\n")
    print("| mechanism | channel | entities | style ε_f | ε | strongest author (attack) | DRauth | "
          "best on function words | best on punctuation | best on unchanged words | topic | "
          "meaning kept | content words kept | goal |")
    print("|---|---|---|---|---|---|---:|---|---|---|---:|---:|---:|---|")

    notes = set()
    for rows in run(args):
        for r in rows:
            notes.add(f"Meaning kept by: {r['method']}.  Topic classifier: "
                      f"{r['topic_check']}.  Unchanged words: {r['unchanged_view']}.")
            _print_row(r, n)
        sys.stdout.flush()
    print("\n" + "\n".join(sorted(notes)))
    print(f"\nMade by: `python benchmarks/author_frontier.py --authors {n} --trials "
          f"{args.trials} --seed {args.seed} --mechanisms {args.mechanisms} --channels "
          f"{args.channels} --epsilons {args.epsilons} --entities {args.entities} "
          f"--style-epsilons {args.style_epsilons} --genres {args.genres}`")


def _by_how_much(r: dict[str, Any], n: int) -> str:
    """Where the goal is missed: by how much the author is above 2× chance, and whether the
    topic fell more than 10 points (the reasons of :func:`goal_rows`)."""
    over = r["author"] - 2 / n
    parts = [f"author +{over:.3f} over 2× chance"] if over > 1e-12 else []
    if "topic" in r["why"]:
        parts.append("topic lost > 10 points")
    return "; ".join(parts)


def _print_row(r: dict[str, Any], n: int) -> None:
    def cell(pair: tuple[str, float]) -> str:
        return "–" if pair[0] == "–" else f"{pair[1] / n:.3f} ({pair[0]})"

    goal = ("–" if r["epsilon"] == "none" else "not judged" if r["goal"] is None
            else "met" if r["goal"] else f"not met: {_by_how_much(r, n)}")
    print(f"| {r['mechanism']} | {r['channel']} | {r['entities']} | {r['style']} | "
          f"{r['epsilon']} | "
          f"{r['author']:.3f} ({r['author_attack']}) | {r['drauth']:.3f} | "
          f"{cell(r['function'])} | {cell(r['punctuation'])} | {cell(r['unchanged'])} | "
          f"{r['topic']:.3f} | {r['similarity']:.3f} | {r['content_kept']:.3f} | "
          f"{goal} |")


if __name__ == "__main__":
    main()
