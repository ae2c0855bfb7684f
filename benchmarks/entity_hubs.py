"""How concentrated the surrogates of names are (issue 40, item 9: "surrogate hubs").

Every word of the PERSON sub-vocabulary of the built-in embeddings (or ``--sample`` of them,
seeded) is drawn once through the restricted mechanism of ``--entities auto`` at each
``--entity-epsilon`` (0.5, 1, 2), side by side without and with the rank resampling that
entity slots use (``ENTITY_RANK_RESAMPLE``; post-processing, the guarantee unchanged);
printed: the share of all draws that the 100 most frequent surrogates take, how many
distinct surrogates there are, the CPU time of the draws, and the share that a uniform draw
over the sub-vocabulary would give the top 100 (for scale).

Usage::

    python benchmarks/entity_hubs.py [--entity-epsilon 0.5,1,2] [--sample 5000]

Needs the ``ner`` extra (the person list).  Prints its figures; writes nothing.
"""

from __future__ import annotations

import argparse
import time
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
    from emprivacy.obfuscation.restricted import ENTITY_RANK_RESAMPLE, restricted_mechanism

    emb = load_embeddings()
    rows = sub_vocabulary(emb, person_words())
    gen = np.random.default_rng(0)
    inputs = gen.choice(rows.size, size=min(args.sample, rows.size), replace=False)
    print(f"PERSON sub-vocabulary: {rows.size:,} words of the built-in embeddings; "
          f"{inputs.size:,} of them drawn once each")
    for eps in (float(e) for e in args.entity_epsilon.split(",")):
        for resample in (None, ENTITY_RANK_RESAMPLE):
            mech = restricted_mechanism(EarthMoversPrivacy(emb, epsilon=10.0), rows, eps,
                                        label="PERSON", rank_resample=resample)
            draws = np.random.default_rng(1)
            started = time.process_time()
            out = mech.privatize_batches([(inputs.astype(np.int64), draws)])[0]
            cpu = time.process_time() - started
            counts = Counter(int(i) for i in out)
            top = sum(c for _, c in counts.most_common(100)) / inputs.size
            uniform = min(1.0, 100 / rows.size)
            how = "no resampling" if resample is None else f"rank resampling c = {resample:g}"
            print(f"  ε_e = {eps:g}, {how}: the 100 most frequent surrogates take {top:.1%} of "
                  f"the draws ({len(counts):,} distinct; a uniform draw: {uniform:.1%}; "
                  f"{cpu:.1f} s CPU); the top 5: "
                  + ", ".join(f"{mech.embeddings.words[i]} ({c})"
                              for i, c in counts.most_common(5)))

if __name__ == "__main__":
    main()
