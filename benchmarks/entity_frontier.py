"""The Brown frontier with and without entity protection, side by side, and why (issue 29).

(a) The two runs of ``emprivacy evaluate`` (docs/EXPERIMENTS.md, "The frontier with entity
    protection"): for each mechanism and ε, DRauth and DRtopic (mean ± sample sd over the
    trials) without entities (``--without``) and with them (``--with``), and the issue's
    test: author identification at most 2× chance with topic accuracy within 10 points of
    clean (ε = none).
(b) What the entities are in the snippets: from the entity run's ``run.json``.
(c) Why, on the same 20-author set (``--authors``, selection seed 0), the snippets' bags of
    App. B and the experiment's own Koppel feature subsets (the streams of its ε = none row,
    seed ``--seed``), with the detection of the entity run (``--entities``):

    * the author-identifying n-grams: the occurrences, in the snippets, of the Koppel
      features (the 20,000 most frequent character 4-grams of the known texts) that occur in
      the known text of the snippet's author and in no other known text; the share of them
      that lies in detected entity words;
    * DRauth with **only** the entity words changed, every other word as it is: the entity
      words privatised at ε_e (``--entity-epsilon``, the restricted madlib mechanism), or
      every detected entity word a placeholder, or every detected entity word dropped.  If
      DRauth stays near clean, the author signal that survives the mechanism is not in the
      entities.

Usage::

    python benchmarks/entity_frontier.py [--without docs/results/brown-mechanisms]
        [--with docs/results/brown-entities] [--seed 2019] [--entities auto]

Prints Markdown; writes nothing.  (c) needs the Brown corpus (cached by ``evaluate``) and,
for ``auto`` to mean spaCy, Presidio and capitalised words, the ``ner`` extra.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

MECHANISMS = ("madlib", "mahalanobis", "vickrey", "tem", "santext")


def _load(root: Path, name: str) -> dict[str, Any]:
    return json.loads((root / name / "run.json").read_text(encoding="utf-8"))


def _cell(values: list[int], n: int) -> tuple[float, float]:
    x = np.asarray(values, dtype=np.float64) / n
    return float(x.mean()), float(x.std(ddof=1)) if x.size > 1 else float("nan")


def side_by_side(without: Path, with_: Path) -> None:
    print("| mechanism | ε | DRauth without | DRauth with | DRtopic without | DRtopic with |"
          " test met (with) |")
    print("|---|---|---:|---:|---:|---:|---|")
    best: list[tuple[float, float, str]] = []
    for name in MECHANISMS:
        a, b = _load(without, name), _load(with_, name)
        sa, sb = a["sets"][0], b["sets"][0]
        n = sa["n_authors"]
        chance = 1 / n
        clean_topic = _cell(sb["correct"]["none"]["DRtopic"], n)[0]
        for eps in sa["epsilons"]:
            ra, rb = sa["correct"][eps], sb["correct"][eps]
            auth_a, auth_b = _cell(ra["DRauth"], n), _cell(rb["DRauth"], n)
            top_a, top_b = _cell(ra["DRtopic"], n), _cell(rb["DRtopic"], n)
            met = auth_b[0] <= 2 * chance and top_b[0] >= clean_topic - 0.10
            if eps != "none":
                best.append((auth_b[0] - 2 * chance, clean_topic - 0.10 - top_b[0],
                             f"{name} ε={eps}"))
            print(f"| {name} | {eps} | {auth_a[0]:.3f} ± {auth_a[1]:.3f} | "
                  f"{auth_b[0]:.3f} ± {auth_b[1]:.3f} | {top_a[0]:.3f} ± {top_a[1]:.3f} | "
                  f"{top_b[0]:.3f} ± {top_b[1]:.3f} | "
                  f"{'—' if eps == 'none' else '**yes**' if met else 'no'} |")
    print()
    print("Closest settings with entities (DRauth above 2× chance, DRtopic below clean − 0.10;"
          " ≤ 0 is met):")
    for gap_auth, gap_topic, where in sorted(best, key=lambda g: max(g[0], g[1]))[:6]:
        print(f"* {where}: DRauth − 2×chance = {gap_auth:+.3f}, "
              f"(clean − 0.10) − DRtopic = {gap_topic:+.3f}")
    meta = _load(with_, "madlib")["metadata"]["entities"]
    print()
    print(f"Entity settings: detectors {meta['detectors']}, ε_e = {meta['entity_epsilon']}; "
          f"sub-vocabularies {meta['sub_vocabulary_words']}")
    for set_name, counts in meta["sets"].items():
        print(f"{set_name}: {json.dumps(counts)}")


def why(seed: int, authors: int, entities: str, entity_epsilon: float) -> None:
    from emprivacy.embeddings import load_embeddings
    from emprivacy.evaluation import brown
    from emprivacy.evaluation.attacks import KoppelAttribution, char_ngrams
    from emprivacy.evaluation.datasets import prepare_set, select_authors
    from emprivacy.evaluation.snippets import entity_plan, mark_snippets, release_snippets
    from emprivacy.math.randomness import document_generator, run_key_from_seed
    from emprivacy.mechanisms import EarthMoversPrivacy

    corpus = brown()
    emb = load_embeddings(None, vocab_size=100_000)
    chosen = select_authors(corpus, authors, seed=0)
    p = prepare_set(chosen, embeddings=emb, oov="drop", known="truncated")  # its published cut
    koppel = KoppelAttribution(n=4, n_features=20_000, iterations=100, feature_fraction=0.5,
                               similarity="cosine").fit([" ".join(t) for t in p.texts],
                                                        p.authors)
    run_key = run_key_from_seed(seed)
    mech = EarthMoversPrivacy(emb, epsilon=1.0)
    plan = entity_plan(entities, entity_epsilon, (), mech)
    if plan is None:
        raise SystemExit("--entities none: nothing to measure")
    marks = mark_snippets(chosen, p, plan, emb, known_fraction=2 / 3)

    # the author-identifying n-grams: a feature of the author's known text and of no other
    features = set(koppel.vocabulary_)
    known = [Counter({g: c for g, c in char_ngrams(" ".join(t)).items() if g in features})
             for t in p.texts]
    owners: dict[str, set[int]] = {}
    for k, grams in enumerate(known):
        for g in grams:
            owners.setdefault(g, set()).add(k)
    total = in_entities = 0
    all_grams = all_in_entities = 0
    for j, (snip, decisions) in enumerate(zip(p.snippets, marks.decisions, strict=True)):
        for word, d in zip(snip, decisions, strict=True):
            grams = char_ngrams(word)
            mine = sum(c for g, c in grams.items() if owners.get(g) == {j})
            total += mine
            all_grams += sum(grams.values())
            if d is not None:
                in_entities += mine
                all_in_entities += sum(grams.values())
    print(f"Snippet character 4-grams in detected entity words: {all_in_entities} of "
          f"{all_grams} ({all_in_entities / all_grams:.3f}).")
    print(f"Author-identifying 4-gram occurrences (a feature of the author's known text and of "
          f"no other): {total}; in detected entity words: {in_entities} "
          f"({in_entities / max(total, 1):.3f}).")

    class _Identity:  # the ordinary words as they are
        def privatize_indices(self, rows: Any, *, rng: Any = None) -> np.ndarray:
            return np.asarray(rows, dtype=np.int64)

    placeholder_plan = entity_plan(entities, entity_epsilon, (("LOCATION", "placeholder"),
                                                              ("PERSON", "placeholder"),
                                                              ("PROPER_NOUN", "placeholder")),
                                   mech)
    assert placeholder_plan is not None
    held = mark_snippets(chosen, p, placeholder_plan, emb, known_fraction=2 / 3)
    trials = 3
    rows: dict[str, list[int]] = {"clean": [], "entity words privatised (ε_e)": [],
                                  "entity words as placeholders": [],
                                  "entity words dropped": []}
    for t in range(trials):
        def score(snippets: list[tuple[str, ...]], t: int = t) -> int:
            k_gen = document_generator(run_key, f"set-{authors}/trial-{t}/epsilon-none/koppel")
            pred = koppel.predict([" ".join(s) for s in snippets], rng=k_gen)
            return sum(a == b for a, b in zip(pred, p.authors, strict=True))

        gen = document_generator(run_key, f"set-{authors}/trial-{t}/ablation/entities")
        private, _, _ = release_snippets(p, _Identity(), emb,  # type: ignore[arg-type]
                                         (plan, marks, gen))
        holders, _, _ = release_snippets(p, _Identity(), emb,  # type: ignore[arg-type]
                                         (placeholder_plan, held, gen))
        dropped = [tuple(w for w, d in zip(s, ds, strict=True) if d is None)
                   for s, ds in zip(p.snippets, marks.decisions, strict=True)]
        rows["clean"].append(score(list(p.snippets)))
        rows["entity words privatised (ε_e)"].append(score(private))
        rows["entity words as placeholders"].append(score(holders))
        rows["entity words dropped"].append(score(dropped))
    print()
    print(f"DRauth (Koppel, cosine) on the {authors}-author set, only the entity words changed "
          f"(every other word as it is; {trials} trials, the feature subsets of the run's "
          "ε = none row):")
    print()
    print("| snippets | DRauth (fraction) |")
    print("|---|---:|")
    for label, values in rows.items():
        m, s = _cell(values, authors)
        print(f"| {label} | {m:.3f} ± {s:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--without", type=Path, default=Path("docs/results/brown-mechanisms"))
    parser.add_argument("--with", dest="with_", type=Path,
                        default=Path("docs/results/brown-entities"))
    parser.add_argument("--seed", type=int, default=2019)
    parser.add_argument("--authors", type=int, default=20)
    parser.add_argument("--entities", default="auto")
    parser.add_argument("--entity-epsilon", type=float, default=1.0)
    parser.add_argument("--skip-why", action="store_true", help="only (a) and (b)")
    parser.add_argument("--only-why", action="store_true", help="only (c)")
    args = parser.parse_args()
    if not args.only_why:
        side_by_side(args.without, args.with_)
        print()
    if not args.skip_why:
        why(args.seed, args.authors, args.entities, args.entity_epsilon)


if __name__ == "__main__":
    main()
