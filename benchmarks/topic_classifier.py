"""Can the topic classifier of ``evaluate`` tell the topics of a Brown author set apart?
(Issue 41: the frontier's topic test was at chance on adventure/romance.)

For each genre list of ``--genres`` (``;``-separated lists of comma-separated Brown genres),
the author set of ``--authors`` (selection seed 0, as ``evaluate``), its topic classifier's
training pool (the known texts of the set, every other document of the genres whole: no
snippet), cut into chunks of the set's N in-vocabulary words as the experiment cuts it, and
the classifier the experiment trains (fastText, 25 epochs, learning rate 1.0, input vectors
from GloVe 6B 50d) scored by 5-fold cross-validation grouped by document (every chunk held
out once; a document's chunks never on both sides).  Prints per list: the set's topics, N,
the pool's documents, mean in-vocabulary words per document and chunks, the cross-validated
accuracy and the majority share of the chunks (chance).

Usage::

    python benchmarks/topic_classifier.py [--authors 20] [--seed 0]
        [--genres "adventure,romance;adventure,hobbies,religion,romance"]

Needs the Brown corpus (downloaded and cached on first use) and the ``evaluation`` extra.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np

from emprivacy.embeddings import load_embeddings
from emprivacy.evaluation import brown
from emprivacy.evaluation.attacks import FastTextTopicClassifier, write_vec
from emprivacy.evaluation.datasets import (
    chunk_bag,
    normalised_bag,
    prepare_set,
    select_authors,
    training_pool,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--authors", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--genres", default="adventure,romance;"
                        "adventure,hobbies,religion,romance")
    args = parser.parse_args()
    emb = load_embeddings(None, vocab_size=100_000)
    print("| genres | set | N | pool documents | words per document | chunks | "
          "cross-validated accuracy | chance (majority) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        vec = write_vec(emb, Path(tmp) / "emb.vec")
        for genres in args.genres.split(";"):
            corpus = brown(topics=genres.split(","))
            chosen = select_authors(corpus, args.authors, seed=0)
            n = prepare_set(chosen, embeddings=emb).N
            bags = [(topic, normalised_bag(text, emb))
                    for _, topic, text in training_pool(corpus, chosen)]
            chunks = [(topic, chunk_bag(bag, n)) for topic, bag in bags]
            order = np.random.default_rng(args.seed).permutation(len(chunks))
            right = total = 0
            for fold in range(args.folds):
                held = set(order[fold::args.folds].tolist())
                train = [(t, c) for i, (t, cs) in enumerate(chunks) if i not in held
                         for c in cs]
                test = [(t, c) for i, (t, cs) in enumerate(chunks) if i in held for c in cs]
                clf = FastTextTopicClassifier(embeddings=emb, pretrained_path=vec).fit(
                    [c for _, c in train], [t for t, _ in train], rng=fold)
                predicted = clf.predict([c for _, c in test])
                right += sum(p == t for p, (t, _) in zip(predicted, test, strict=True))
                total += len(test)
            labels = Counter(t for t, cs in chunks for _ in cs)
            print(f"| {genres} | {dict(Counter(d.topic for d in chosen))} | {n} | {len(bags)} | "
                  f"{np.mean([len(b) for _, b in bags]):.0f} | {total} | {right / total:.3f} | "
                  f"{max(labels.values()) / total:.3f} |", flush=True)
    print(f"\nMade by: `python benchmarks/topic_classifier.py --authors {args.authors} "
          f"--seed {args.seed} --folds {args.folds} --genres \"{args.genres}\"`")


if __name__ == "__main__":
    main()
