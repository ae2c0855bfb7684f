"""Train the ``learned`` entity detector's model and measure it on sets it was trained without.

The model (:mod:`emprivacy.entities.learned`) is a multinomial logistic regression over each
word token's features, fitted on every hand-labelled English text of
``tests/entities/labelled/*/`` (``--lang fr``: the French ones of
``tests/entities/labelled_fr/*/``, written to ``entity-model-fr.npz``; ``{{PER|…}}`` →
``PERSON``, ``{{LOC|…}}`` → ``LOCATION``,
``{{ORG|…}}`` → ``ORG``, anything else, dates and identifiers included, ``O``).

(a) ``--held SET [SET …]``: for each named set, a model fitted on every other set (the same
    settings) is run on that set alone, and the script prints, per class, the share of its
    tokens the model takes (recall at the threshold) and the share of unlabelled word tokens
    it takes (the false positives): what the model does on texts it never saw.
(b) ``--out FILE``: the model fitted on every set (less ``--exclude``), written as ``.npz``
    (the packaged one is ``src/emprivacy/data/entity-model-en.npz``, written by
    ``python benchmarks/entity_model.py --out src/emprivacy/data/entity-model-en.npz``).

Usage::

    python benchmarks/entity_model.py [--lang en|fr] [--dir FOLDER] [--exclude SET …]
                                      [--held SET …] [--out FILE]
                                      [--threshold 0.6] [--c 0.5]

Fitting is deterministic (lbfgs from zeros): the same sets and settings write the same model.
Needs the ``ner`` extra (the name lists, ``wordfreq``) and scikit-learn (``evaluation``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from emprivacy.entities.learned import CLASSES, token_features, word_tokens
from emprivacy.entities.learned_fit import fit
from emprivacy.evaluation.entity_leaks import unmark

_LABELS = {"PER": "PERSON", "LOC": "LOCATION", "ORG": "ORG"}
_ROOT = Path(__file__).resolve().parents[1] / "tests" / "entities" / "labelled"


def examples(path: Path, lang: str = "en") -> list[tuple[list[str], str]]:
    """Each word token's features and class in one labelled text."""
    text, spans = unmark(path.read_text(encoding="utf-8"))
    tokens = word_tokens(text, lang)
    out = []
    for tok, feats in zip(tokens, token_features(text, tokens, lang), strict=True):
        label = next((kind for a, b, kind in spans if a <= tok.start and tok.end <= b), "")
        out.append((feats, _LABELS.get(label, "O" if not label else "X")))
    return out


def load(root: Path, lang: str = "en") -> dict[str, list[tuple[list[str], str]]]:
    """Every set under ``root``: its texts' examples, a set's in one list."""
    sets = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        texts = sorted(folder.glob("*.txt"))
        if texts:
            sets[folder.name] = [e for p in texts for e in examples(p, lang)]
    return sets


def _fit(sets: dict[str, list[tuple[list[str], str]]], names: list[str], args: argparse.Namespace):
    # dates and identifiers ("X") are other detectors' work: left out of the fit
    data = [(f, c) for n in names for f, c in sets[n] if c != "X"]
    return fit(data, threshold=args.threshold, c=args.c, lang=args.lang)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", choices=("en", "fr"), default="en")
    ap.add_argument("--dir", type=Path)
    ap.add_argument("--exclude", nargs="*", default=[])
    ap.add_argument("--held", nargs="*", default=[])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--threshold", type=float, default=0.6)
    ap.add_argument("--c", type=float, default=0.5)
    args = ap.parse_args(argv)
    if args.dir is None:
        args.dir = _ROOT if args.lang == "en" else _ROOT.with_name("labelled_fr")
    t0 = time.perf_counter()
    sets = load(args.dir, args.lang)
    unknown = [s for s in [*args.exclude, *args.held] if s not in sets]
    if unknown:
        print(f"entity_model: error: no labelled set {unknown[0]!r} under {args.dir}",
              file=sys.stderr)
        return 2
    pool = [s for s in sets if s not in args.exclude]
    print(f"{len(sets)} sets, {sum(map(len, sets.values())):,} word tokens "
          f"({time.perf_counter() - t0:.1f} s); threshold {args.threshold}, C {args.c}")
    totals = {c: [0, 0] for c in (*CLASSES, "X")}
    for held in args.held:
        model = _fit(sets, [s for s in pool if s != held], args)
        feats = [f for f, _ in sets[held]]
        p = model.probabilities(feats)
        row = []
        for cls in (*CLASSES, "X"):
            mask = [c == cls for _, c in sets[held]]
            n = sum(mask)
            taken = int(sum(1 - q[0] > model.threshold for q, m in zip(p, mask, strict=True)
                            if m))
            totals[cls][0] += taken
            totals[cls][1] += n
            row.append(f"{cls} {taken}/{n}")
        print(f"  trained without {held}: taken " + ", ".join(row))
    if args.held:
        print("  all held: " + ", ".join(f"{c} {t}/{n} ({t / max(n, 1):.1%})"
                                         for c, (t, n) in totals.items()))
    if args.out:
        model = _fit(sets, pool, args)
        args.out.write_bytes(model.save())
        print(f"wrote {args.out} ({len(model.features):,} features, from {len(pool)} sets; "
              f"{time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
