"""``calibrate --target-recovery P`` against the attack actually run (issue 31, item 4).

For one mechanism (with ``--param`` values, e.g. ``rank_resample=0.04``), one set of secrets
(the built-in vocabulary's first content words with the Zipf prior, or a corpus's most
frequent content words with their frequencies) and one target P, the script

1. runs :func:`emprivacy.protection.calibrate_recovery` (the command's search, the upper end
   of V(π▷C), Bonferroni-corrected over the search) and prints the ε it returns;
2. finds the ε at which the attack actually run reaches P: the word audit's attack (the
   weighted estimator's guesser, scored on every release by its weights;
   ``attack_recovery.estimate``) with the same draws per word and the same noise draws as
   calibrate's measurements (its ``seed``) — or, with ``--attack-draws N``, N draws per
   word, so that the attack (its guesser learned on half of them) comes nearer the optimal
   adversary whose recovery calibrate bounds — at ε_found·(1 + step)^j for j = 0, 1, …
   until it reaches P (or down from ε_found while it
   is already above P), then linearly interpolated in ln ε between the last two;
3. prints both ε and ``ε_found / ε_attack`` (issue 31 asks for at least 0.85: "within
   15 %").

Usage::

    python benchmarks/calibrate_attack.py --mechanism madlib --target 0.5 --secrets 500
    python benchmarks/calibrate_attack.py CORPUS.jsonl --mechanism vickrey --target 0.5 \\
        --secrets 500 --draws 200 --seed 1 --attack-draws 200,1000

Timings on a shared machine are upper figures (the load average is printed).
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np

from emprivacy import load_embeddings, make_mechanism
from emprivacy.protection import (
    audit_mechanism,
    calibrate_recovery,
    content_word_counts,
    secret_words,
)


def _value(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _attack(mechanism: str, params: dict, emb, secrets, eps: float, draws: int,
            seed: int) -> float:
    mech = make_mechanism(mechanism, emb, epsilon=eps, **params)
    audit = audit_mechanism(mech, secrets, draws=draws, rng=seed, width=None)
    return float(audit.attack_recovery.estimate)


def _crossing(args: argparse.Namespace, params: dict, emb, secrets, r, attack_draws: int,
              t0: float) -> None:
    """The ε at which the attack with ``attack_draws`` per word reaches the target."""
    # the same seed as calibrate's own measurements (with --draws: the same noise draws)
    eps = r.epsilon
    value = (float(r.audit.attack_recovery.estimate) if attack_draws == args.draws else
             _attack(args.mechanism, params, emb, secrets, eps, attack_draws, r.seed))
    points = [(eps, value)]
    factor = 1.0 + args.step if value < args.target else 1.0 / (1.0 + args.step)
    for _ in range(60):
        eps *= factor
        value = _attack(args.mechanism, params, emb, secrets, eps, attack_draws, r.seed)
        points.append((eps, value))
        if (value >= args.target) == (factor > 1.0):
            break
    print(f"the attack with {attack_draws} draws per word:")
    for e, v in sorted(points):
        print(f"  attack at epsilon {e:.4g}: {v:.4f}")
    (e0, v0), (e1, v1) = sorted(points[-2:])
    if v1 == v0:
        crossing = e1
    else:
        frac = (args.target - v0) / (v1 - v0)
        crossing = math.exp(math.log(e0) + frac * (math.log(e1) - math.log(e0)))
    print(f"attack ({attack_draws} draws) reaches {args.target} at epsilon ~ {crossing:.4g}; "
          f"calibrate / attack = {r.epsilon / crossing:.3f}; total "
          f"{time.perf_counter() - t0:.0f} s wall, load {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="*", help="corpus (default: built-in vocabulary)")
    parser.add_argument("--mechanism", default="madlib")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--target", type=float, default=0.5)
    parser.add_argument("--secrets", type=int, default=500)
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--attack-draws", type=lambda t: [int(v) for v in t.split(",")],
                        default=None, metavar="N[,N...]",
                        help="draws per word of the attack whose ε is found (default: "
                             "--draws); several: one search each")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--step", type=float, default=0.05,
                        help="relative step of the attack's ε search (default 0.05)")
    args = parser.parse_args()
    params = {k: _value(v) for k, v in (p.split("=", 1) for p in args.param)}
    emb = load_embeddings(None)
    counts = content_word_counts(args.corpus) if args.corpus else None
    secrets = secret_words(emb, k=args.secrets, counts=counts)
    where = ", ".join(args.corpus) if args.corpus else "built-in vocabulary"
    print(f"{args.mechanism} {params or ''} on {where}: K = {len(secrets)}, prior "
          f"{secrets.prior_name}, V(pi) = {secrets.prior.max():.4f}; P = {args.target}, "
          f"{args.draws} draws per word, seed {args.seed}; load {os.getloadavg()[0]:.1f}")
    t0, c0 = time.perf_counter(), time.process_time()
    r = calibrate_recovery(emb, target_recovery=args.target, mechanism=args.mechanism,
                           params=params, secrets=secrets, draws=args.draws,
                           rng=np.random.default_rng(args.seed))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    post = r.audit.posterior_vulnerability
    print(f"calibrate: epsilon = {r.epsilon:.4g} (V upper {post.upper:.4f}, attack "
          f"{r.audit.attack_recovery.estimate:.4f}); above {r.above.epsilon:.4g} (V upper "
          f"{r.above.posterior_vulnerability.upper:.4f}); {len(r.search.points)} "
          f"measurements, {wall:.0f} s wall, {cpu:.0f} s CPU")
    for attack_draws in args.attack_draws or [args.draws]:
        _crossing(args, params, emb, secrets, r, attack_draws, t0)


if __name__ == "__main__":
    main()
