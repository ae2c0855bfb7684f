"""Tokenising long runs without spaces stays linear in their length (issue 22, item 4's
locator patterns; a reviewer found `qx.qx.qx...` quadratic: 24 KB in 32 s).

For each shape (a dotted run of short labels, single letters, `+`-joined letters, ...), the
tokenizer of text mode runs on the shape repeated to ``--small`` and to ``--large``
characters; the ratio of the two times is about ``large / small`` when tokenising is linear,
about its square when it is quadratic.

Usage::

    python benchmarks/tokenize_runs.py [--small 10000] [--large 100000]

Prints its figures; writes nothing.
"""

from __future__ import annotations

import argparse
import time

SHAPES = ("qx.", "q.-", "a.b.", "http.", "x@", "q+", "q$", "a_b.", "Users\\x", "word ")


def seconds(text: str) -> float:
    from emprivacy.text.tokens import tokenize

    start = time.perf_counter()
    for _ in tokenize(text):
        pass
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    args = parser.parse_args()
    seconds("warm up the patterns")
    print(f"{'shape':>10}  {args.small:>9,} chars  {args.large:>9,} chars  ratio "
          f"(linear: {args.large / args.small:g})")
    for shape in SHAPES:
        small = seconds((shape * (args.small // len(shape) + 1))[:args.small])
        large = seconds((shape * (args.large // len(shape) + 1))[:args.large])
        print(f"{shape!r:>10}  {small:>13.3f} s  {large:>13.3f} s  {large / max(small, 1e-9):5.1f}")


if __name__ == "__main__":
    main()
