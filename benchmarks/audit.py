"""Word-audit benchmark: the sampled channel's speed target (issue 23, item 6).

Target: K = 2,000 secret words × 500 releases each at one ε on the default embeddings
(built-in GloVe 6B 50d, the command line's default 100,000 words), madlib, within
2 minutes on 2 cores.  The script times :func:`emprivacy.protection.audit_mechanism`
end to end (sampling through the batch path, the sparse measures, the split-half attack)
and the decoder alone on part of the same points (how much of the audit is decoding), and,
separately, the exact channel of TEM over the same secrets × the whole vocabulary.

It prints the load average before and after: on a machine shared with other jobs the
figure is an upper one (the decode runs at the matrix-product speed of the cores it gets).

Usage::

    python benchmarks/audit.py [--secrets 2000] [--draws 500] [--epsilon 10]
                               [--mechanism madlib] [--no-exact]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from emprivacy import load_embeddings, make_mechanism
from emprivacy.protection import audit_mechanism, secret_words

TARGET_SECONDS = 120.0


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--secrets", type=int, default=2000)
    parser.add_argument("--draws", type=int, default=500)
    parser.add_argument("--epsilon", type=float, default=10.0)
    parser.add_argument("--mechanism", default="madlib")
    parser.add_argument("--vocab-size", type=int, default=100_000)
    parser.add_argument("--no-exact", action="store_true", help="skip the TEM exact channel")
    args = parser.parse_args()

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    emb = load_embeddings(None, vocab_size=args.vocab_size)
    secrets = secret_words(emb, k=args.secrets)
    print(f"{emb.name}: {len(emb)} words × {emb.dim}; {len(secrets)} secrets (prior "
          f"{secrets.prior_name}); {cores} cores")
    print(f"before: {_load()}")
    mech = make_mechanism(args.mechanism, emb, epsilon=args.epsilon)
    t0 = time.perf_counter()
    audit = audit_mechanism(mech, secrets, draws=args.draws, rng=0)
    seconds = time.perf_counter() - t0
    points = len(secrets) * args.draws
    if (len(secrets), args.draws) == (2000, 500):
        met = "met" if seconds <= TARGET_SECONDS else "missed"
        verdict = f"target {TARGET_SECONDS:.0f} s: {met}"
    else:
        verdict = "not the target's size (2,000 × 500)"
    print(f"{args.mechanism} at ε = {args.epsilon:g}, {len(secrets)} × {args.draws} = "
          f"{points:,} releases ({audit.channel} channel): {seconds:.1f} s "
          f"({points / seconds:,.0f} releases/s); {verdict}")
    print(f"  V(π) = {audit.prior_vulnerability:.4g}; V(π▷C) = "
          f"{audit.posterior_vulnerability.text()}; attack = {audit.attack_recovery.text()}; "
          f"capacity = {audit.capacity.text()}")
    print(f"after: {_load()}")
    # the decoder alone on part of the same design: how much of the audit is decoding
    sample = max(1, min(len(secrets), 65_536 // args.draws))
    gen = np.random.default_rng(1)
    bag = np.repeat(secrets.rows[:sample], args.draws)
    if hasattr(mech, "noisy_vectors"):
        noisy = mech.noisy_vectors(bag, rng=gen)
        t0 = time.perf_counter()
        mech.decoder.decode(noisy)
        dt = time.perf_counter() - t0
        print(f"  decoder alone on {bag.size:,} of these points: {bag.size / dt:,.0f} points/s "
              f"(the audit ran at {points / seconds / (bag.size / dt):.2f}× that)")
    print(f"after: {_load()}")
    if not args.no_exact:
        tem = make_mechanism("tem", emb, epsilon=args.epsilon)
        t0 = time.perf_counter()
        exact = audit_mechanism(tem, secrets)
        seconds = time.perf_counter() - t0
        print(f"tem at ε = {args.epsilon:g}, exact channel {len(secrets)} × {len(emb)} in "
              f"blocks: {seconds:.1f} s; V(π▷C) = {exact.posterior_vulnerability.text()}; "
              f"capacity = {exact.capacity.text()}")
        print(f"after: {_load()}")


if __name__ == "__main__":
    main()
