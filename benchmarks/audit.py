"""Word-audit benchmark: the sampled channel's speed target (issue 23, item 6).

Target: K = 2,000 secret words × 500 releases each at one ε on the default embeddings
(built-in GloVe 6B 50d, the command line's default 100,000 words), madlib, within
2 minutes on 2 cores.  The script times :func:`emprivacy.protection.audit_mechanism`
end to end (sampling through the batch path, the sparse measures, the split-half attack)
and the decoder alone on part of the same points (how much of the audit is decoding), and,
separately, the exact channel of TEM over the same secrets × the whole vocabulary.

It prints the load average before and after: on a machine shared with other jobs the
figure is an upper one (the decode runs at the matrix-product speed of the cores it gets).

``--compare`` (issue 31) prints instead the width of the V(π▷C) interval against the
seconds it took, for the counting estimator (``estimator="counts"``: each secret's own
releases, the split-half attack below, the plug-in above) and the posterior-weighted one
(``"weighted"``: every release credited to every secret by the noise's density) side by
side, at each ε and number of draws, on the same secrets and seed, one run after the
other (so that both see the same load): wall seconds, CPU seconds of the process, the
interval, its width, and the capacity's interval.  The target of issue 31 is the command
``emprivacy audit --mechanism madlib -e 5,10 --secrets 200 --seed 1 --json``: a width of
at most 0.05 at both ε in at most twice the counting audit's time.

``--command`` times that target itself, side by side in one run: the word audit of the
command (K = 200 secrets of the built-in vocabulary, Zipf prior, ε = 5 and 10, seed 1) as it
was before issue 31 (``estimator="counts"``, 500 draws per secret) and as the command runs it
now (its defaults: the weighted estimator, 500 draws, drawn again up to 1,000 while the
interval is wider than 0.05), each ε in turn, and prints both totals and their ratio.

Usage::

    python benchmarks/audit.py [--secrets 2000] [--draws 500] [--epsilon 10]
                               [--mechanism madlib] [--no-exact]
    python benchmarks/audit.py --compare [--secrets 200] [--epsilons 5,10]
                               [--counts-draws 500] [--weighted-draws 500,1000]
    python benchmarks/audit.py --command [--rounds 2]
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


def _numbers(text: str, kind: type) -> list:
    return [kind(v) for v in text.split(",") if v.strip()]


def compare(args: argparse.Namespace) -> None:
    """Width of the V(π▷C) interval against seconds, counting and weighted side by side."""
    emb = load_embeddings(None, vocab_size=args.vocab_size)
    secrets = secret_words(emb, k=args.secrets)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{emb.name}: {len(emb)} words × {emb.dim}; {len(secrets)} secrets (prior "
          f"{secrets.prior_name}, V(π) = {secrets.prior.max():.4f}); {args.mechanism}; "
          f"{cores} cores; seed {args.seed}")
    print(f"before: {_load()}")
    print("| ε | estimator | draws | wall s | CPU s | V(π▷C) [lower, upper] | width | "
          "capacity [lower, upper] |")
    print("|---:|---|---:|---:|---:|---|---:|---|")
    runs = [("counts", d) for d in _numbers(args.counts_draws, int)]
    runs += [("weighted", d) for d in _numbers(args.weighted_draws, int)]
    for eps in _numbers(args.epsilons, float):
        mech = make_mechanism(args.mechanism, emb, epsilon=eps)
        for estimator, draws in runs:
            wall, cpu = time.perf_counter(), time.process_time()
            a = audit_mechanism(mech, secrets, draws=draws, rng=args.seed, estimator=estimator)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            post, cap = a.posterior_vulnerability, a.capacity
            print(f"| {eps:g} | {estimator} | {draws} | {wall:.1f} | {cpu:.1f} | "
                  f"{post.estimate:.4f} [{post.lower:.4f}, {post.upper:.4f}] | "
                  f"{post.upper - post.lower:.4f} | {cap.estimate:.1f} [{cap.lower:.1f}, "
                  f"{cap.upper:.1f}] |", flush=True)
    print(f"after: {_load()}")


def command(args: argparse.Namespace) -> None:
    """The target command's word audit, before (counting) and now (defaults), side by side."""
    emb = load_embeddings(None, vocab_size=args.vocab_size)
    secrets = secret_words(emb, k=200)
    print(f"{emb.name}: {len(emb)} words × {emb.dim}; 200 secrets (prior {secrets.prior_name});"
          f" madlib at ε = 5, 10; seed 1; {args.rounds} round(s), the two alternating")
    print(f"before: {_load()}")
    print("| round | audit | ε = 5: draws, V(π▷C) [lower, upper], width | ε = 10: draws, "
          "V(π▷C) [lower, upper], width | wall s | CPU s |")
    print("|---:|---|---|---|---:|---:|")
    settings = {"before (counts, 500 draws)": {"estimator": "counts", "width": None},
                "now (the command's defaults)": {}}
    totals = {name: [0.0, 0.0] for name in settings}
    for round_ in range(1, args.rounds + 1):
        for name, options in settings.items():
            cells = []
            wall, cpu = time.perf_counter(), time.process_time()
            for eps in (5.0, 10.0):
                mech = make_mechanism("madlib", emb, epsilon=eps)
                a = audit_mechanism(mech, secrets, draws=500, rng=1, **options)
                post = a.posterior_vulnerability
                cells.append(f"{a.draws}, {post.estimate:.4f} [{post.lower:.4f}, "
                             f"{post.upper:.4f}], {post.upper - post.lower:.4f}")
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            totals[name][0] += wall
            totals[name][1] += cpu
            print(f"| {round_} | {name} | {cells[0]} | {cells[1]} | {wall:.1f} | {cpu:.1f} |",
                  flush=True)
    (w0, c0), (w1, c1) = totals.values()
    print(f"now / before: {w1 / w0:.2f}× wall, {c1 / c0:.2f}× CPU (issue 31: at most 2×)")
    print(f"after: {_load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compare", action="store_true",
                        help="width against seconds, counting and weighted side by side")
    parser.add_argument("--command", action="store_true",
                        help="the target command's audit, before and now, side by side")
    parser.add_argument("--rounds", type=int, default=2, help="--command: rounds (default 2)")
    parser.add_argument("--epsilons", default="5,10", help="--compare: the ε, comma-separated")
    parser.add_argument("--counts-draws", default="500",
                        help="--compare: draws of the counting estimator, comma-separated")
    parser.add_argument("--weighted-draws", default="500,1000",
                        help="--compare: draws of the weighted estimator, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--secrets", type=int, default=None,
                        help="default 2,000 (200 with --compare)")
    parser.add_argument("--draws", type=int, default=500)
    parser.add_argument("--epsilon", type=float, default=10.0)
    parser.add_argument("--mechanism", default="madlib")
    parser.add_argument("--vocab-size", type=int, default=100_000)
    parser.add_argument("--no-exact", action="store_true", help="skip the TEM exact channel")
    args = parser.parse_args()
    if args.command:
        command(args)
        return
    if args.compare:
        args.secrets = args.secrets or 200
        compare(args)
        return
    args.secrets = args.secrets or 2000

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    emb = load_embeddings(None, vocab_size=args.vocab_size)
    secrets = secret_words(emb, k=args.secrets)
    print(f"{emb.name}: {len(emb)} words × {emb.dim}; {len(secrets)} secrets (prior "
          f"{secrets.prior_name}); {cores} cores")
    print(f"before: {_load()}")
    mech = make_mechanism(args.mechanism, emb, epsilon=args.epsilon)
    t0 = time.perf_counter()
    audit = audit_mechanism(mech, secrets, draws=args.draws, rng=0, estimator="counts")
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
