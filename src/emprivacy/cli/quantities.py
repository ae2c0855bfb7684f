"""``emprivacy distance`` and ``guarantee``: the paper's quantities, for given bags or numbers.

``distance`` is the Earth Mover's distance E between two texts' bags (Def. 3), with the
privacy multiplier exp(ε·N·E) of Thm. 1; ``guarantee`` states Thm. 1 and the utility bound
of Thm. 3 and App. A for given ε, N, Δ and n.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from emprivacy.cli import limits
from emprivacy.cli._common import (
    DEFAULT_VOCAB_SIZE,
    EmbeddingsOpt,
    EncodingOpt,
    LangOpt,
    QuietOpt,
    VocabOpt,
    check_encoding,
    check_epsilon,
    check_nonnegative,
    check_stdin,
    echo,
    echo_json,
    fail,
    load,
)

__all__ = ["distance", "guarantee"]

def distance(
    a: Annotated[Path, typer.Argument(help="First text file ('-': standard input).",
                                      show_default=False)],
    b: Annotated[Path, typer.Argument(help="Second text file ('-': standard input).",
                                      show_default=False)],
    embeddings: EmbeddingsOpt = None,
    embeddings_encoding: EncodingOpt = "utf-8",
    vocab_size: VocabOpt = DEFAULT_VOCAB_SIZE,
    size: Annotated[int | None, typer.Option("--size", "-N", min=1, callback=limits.bag_size,
                                             help="Truncate both bags to N words.",
                                             show_default=False)] = None,
    epsilon: Annotated[float | None, typer.Option("--epsilon", "-e", help="Also print the "
                                                  "privacy multiplier exp(ε·N·E).",
                                                  show_default=False)] = None,
    metric: Annotated[Literal["euclidean", "manhattan"], typer.Option(
        "--metric", help="euclidean or manhattan ground distance.")] = "euclidean",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
    quiet: QuietOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Earth Mover's distance E between the bags of two text files (Def. 3).

    One of them may be '-', standard input.
    """
    from emprivacy.math import earth_movers_distance
    from emprivacy.text import bag_of_words

    if epsilon is not None:
        check_epsilon(epsilon)
    texts = _texts(a, b)
    emb = load(embeddings, vocab_size, quiet, check_encoding(embeddings_encoding), lang)
    bags = [emb.lookup(bag_of_words(t, lang=lang), size=size) for t in texts]
    for path, bag in zip((a, b), bags, strict=True):
        if bag.indices.size == 0:
            fail(f"document {str(path)!r} has no word in the vocabulary of {emb.name!r}")
    vec = [emb.vectors[bag.indices] for bag in bags]
    value = earth_movers_distance(vec[0], vec[1], metric=metric)
    result: dict[str, Any] = {
        "earth_movers_distance": value,
        "metric": metric,
        "n_words": [int(bag.indices.size) for bag in bags],
        "oov_dropped": [bag.oov_dropped for bag in bags],
        "embeddings": {"name": emb.name, "vocab_size": len(emb)},
    }
    sizes_equal = bags[0].indices.size == bags[1].indices.size
    if epsilon is not None:
        if sizes_equal:
            from emprivacy.math import privacy_multiplier

            n = int(bags[0].indices.size)
            result["epsilon"] = epsilon
            result["privacy_multiplier"] = privacy_multiplier(epsilon, n, value)
        else:
            result["privacy_multiplier"] = None
    if as_json:
        echo_json(result)
        return
    echo(f"earth_movers_distance: {value:.6g}  ({metric}, {emb.name}, "
               f"{len(emb)} words)")
    echo(f"n_words: {result['n_words'][0]} {result['n_words'][1]}   "
               f"oov_dropped: {result['oov_dropped'][0]} {result['oov_dropped'][1]}")
    if epsilon is not None:
        if sizes_equal:
            echo(f"privacy_multiplier exp(ε·N·E): {result['privacy_multiplier']:.6g}  "
                       f"(ε = {epsilon:g}, N = {result['n_words'][0]})")
        else:
            echo("privacy_multiplier: not defined — the guarantee compares bags of the "
                       "same size N; use --size N")


def _texts(a: Path, b: Path) -> list[str]:
    """The two texts of ``distance``: files, or standard input for one given as ``-``."""
    from emprivacy.io import Document, read_text_file

    given = [str(a), str(b)]
    if given == ["-", "-"]:
        fail("distance compares two texts; only one of them can be '-' (standard input)")
    stdin = check_stdin(given)
    return [Document.from_stream("-", stdin).text if stdin is not None and p == "-"
            else read_text_file(Path(p)) for p in given]


def guarantee(
    epsilon: Annotated[float, typer.Option("--epsilon", "-e", help="Per-word ε (> 0).",
                                           show_default=False)],
    size: Annotated[int, typer.Option("--size", "-N", min=1, help="Bag size N.",
                                      callback=limits.bag_size,
                                      show_default=False)],
    delta: Annotated[float, typer.Option("--delta", "-d", help="Utility radius Δ "
                                         "(Earth Mover's distance, ≥ 0).",
                                         show_default=False)],
    dim: Annotated[int, typer.Option("--dim", "-n", min=1, help="Embedding dimension n.",
                                     callback=limits.dimension)
                   ] = 50,
    dist: Annotated[float | None, typer.Option("--distance", help="Earth Mover's distance E "
                                               "between two inputs: also print exp(ε·N·E).",
                                               show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """The paper's guarantees for given ε, N, Δ and n (Thm. 1, Thm. 3, App. A)."""
    from emprivacy.math import (
        MAX_BAG_SIZE,
        MAX_DIM,
        appendix_utility_bound,
        paper_utility_bound,
        privacy_multiplier,
        utility_bound,
    )

    check_epsilon(epsilon)
    if size > MAX_BAG_SIZE:
        fail(f"size must be an integer in [1, {MAX_BAG_SIZE}]; got {size}")
    if dim > MAX_DIM:
        fail(f"dim must be an integer in [1, {MAX_DIM}]; got {dim}")
    check_nonnegative(delta, "delta")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paper = paper_utility_bound(epsilon, size, delta, dim)
    x = epsilon * size * delta
    result: dict[str, Any] = {
        "epsilon": epsilon, "N": size, "delta": delta, "dim": dim,
        "epsilon_total": epsilon * size,
        "utility_bound": utility_bound(epsilon, size, delta, dim),
        "paper_thm3_expression": paper,
        "paper_thm3_condition_holds": x <= dim / math.e,
        "appendix_expression": appendix_utility_bound(epsilon, size, delta, dim),
    }
    if dist is not None:
        check_nonnegative(dist, "distance")
        result["distance"] = dist
        result["privacy_multiplier"] = privacy_multiplier(epsilon, size, dist)
    if as_json:
        echo_json(result)
        return
    echo(f"ε = {epsilon:g}, N = {size}, Δ = {delta:g}, n = {dim}; ε·N = {epsilon * size:g}")
    echo(f"utility lower bound P[E(b, Alg1(b)) ≤ Δ] ≥ {result['utility_bound']:.6g}  "
               "(valid: P(N·n, ε·N·Δ))")
    cond = "holds" if result["paper_thm3_condition_holds"] else "does not hold"
    echo(f"paper's Thm. 3 expression: {paper:.6g}  (NOT a valid bound; its condition "
               f"εNΔ ≤ n/e {cond})")
    echo(f"appendix expression before simplification: "
               f"{result['appendix_expression']:.6g}  (valid, often ≤ 0)")
    if dist is not None:
        echo(f"privacy multiplier exp(ε·N·E) for E = {dist:g}: "
                   f"{result['privacy_multiplier']:.6g}")
