"""How concentrated the surrogates of names are (issue 40, item 9: "surrogate hubs").

Every word of the PERSON sub-vocabulary of the built-in embeddings (or ``--sample`` of them,
seeded) is drawn once through the restricted mechanism of ``--entities auto`` at each
``--entity-epsilon`` (1 by default); printed: the share of all draws that the 100 most
frequent surrogates take, how many distinct surrogates there are, and the share that a
uniform draw over the sub-vocabulary would give the top 100 (for scale).

Usage::

    python benchmarks/entity_hubs.py [--entity-epsilon 0.5,1,2] [--sample 5000]

Needs the ``ner`` extra (the person list).  Prints its figures; writes nothing.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entity-epsilon", default="0.5,1,2")
    parser.add_argument("--sample", type=int, default=5000)
    args = parser.parse_args()
    from emprivacy import load_embeddings
    from emprivacy.entities.vocabulary import person_words, sub_vocabulary
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation.entities import restricted_mechanism

    emb = load_embeddings()
    rows = sub_vocabulary(emb, person_words())
    gen = np.random.default_rng(0)
    inputs = gen.choice(rows.size, size=min(args.sample, rows.size), replace=False)
    print(f"PERSON sub-vocabulary: {rows.size:,} words of the built-in embeddings; "
          f"{inputs.size:,} of them drawn once each")
    for eps in (float(e) for e in args.entity_epsilon.split(",")):
        mech = restricted_mechanism(EarthMoversPrivacy(emb, epsilon=10.0), rows, eps,
                                    label="PERSON")
        out = mech.privatize_batches([(inputs.astype(np.int64), gen)])[0]
        counts = Counter(int(i) for i in out)
        top = sum(c for _, c in counts.most_common(100)) / inputs.size
        uniform = min(1.0, 100 / rows.size)
        print(f"  ε_e = {eps:g}: the 100 most frequent surrogates take {top:.1%} of the draws "
              f"({len(counts):,} distinct; a uniform draw: {uniform:.1%}); the top 5: "
              + ", ".join(f"{mech.embeddings.words[i]} ({c})"
                          for i, c in counts.most_common(5)))


if __name__ == "__main__":
    main()
