"""``emprivacy distance``, ``guarantee`` and ``calibrate``: the paper's quantities."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from emprivacy.cli._common import (
    DEFAULT_VOCAB_SIZE,
    EmbeddingsOpt,
    EncodingOpt,
    QuietOpt,
    VocabOpt,
    check_encoding,
    check_epsilon,
    check_nonnegative,
    check_stdin,
    echo,
    fail,
    load,
    mechanism_params,
    stderr,
)
from emprivacy.io.corpus import read_text_file

__all__ = ["calibrate", "distance", "guarantee"]


def distance(
    a: Annotated[Path, typer.Argument(help="First text file ('-': standard input).",
                                      show_default=False)],
    b: Annotated[Path, typer.Argument(help="Second text file ('-': standard input).",
                                      show_default=False)],
    embeddings: EmbeddingsOpt = None,
    embeddings_encoding: EncodingOpt = "utf-8",
    vocab_size: VocabOpt = DEFAULT_VOCAB_SIZE,
    size: Annotated[int | None, typer.Option("--size", "-N", min=1,
                                             help="Truncate both bags to N words.",
                                             show_default=False)] = None,
    epsilon: Annotated[float | None, typer.Option("--epsilon", "-e", help="Also print the "
                                                  "privacy multiplier exp(ε·N·E).",
                                                  show_default=False)] = None,
    metric: Annotated[Literal["euclidean", "manhattan"], typer.Option(
        "--metric", help="euclidean or manhattan ground distance.")] = "euclidean",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Earth Mover's distance E between the bags of two text files (Def. 3).

    One of them may be '-', standard input.
    """
    from emprivacy.math.distance import earth_movers_distance
    from emprivacy.text.tokens import bag_of_words

    if epsilon is not None:
        check_epsilon(epsilon)
    texts = _texts(a, b)
    emb = load(embeddings, vocab_size, quiet, check_encoding(embeddings_encoding))
    bags = [emb.lookup(bag_of_words(t), size=size) for t in texts]
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
            from emprivacy.math.guarantees import privacy_multiplier

            n = int(bags[0].indices.size)
            result["epsilon"] = epsilon
            result["privacy_multiplier"] = privacy_multiplier(epsilon, n, value)
        else:
            result["privacy_multiplier"] = None
    if as_json:
        echo(json.dumps(result))
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
    from emprivacy.io.documents import Document

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
                                      show_default=False)],
    delta: Annotated[float, typer.Option("--delta", "-d", help="Utility radius Δ "
                                         "(Earth Mover's distance, ≥ 0).",
                                         show_default=False)],
    dim: Annotated[int, typer.Option("--dim", "-n", min=1, help="Embedding dimension n.")
                   ] = 50,
    dist: Annotated[float | None, typer.Option("--distance", help="Earth Mover's distance E "
                                               "between two inputs: also print exp(ε·N·E).",
                                               show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """The paper's guarantees for given ε, N, Δ and n (Thm. 1, Thm. 3, App. A)."""
    from emprivacy.math.guarantees import (
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
        echo(json.dumps(result))
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


def _parse_epsilons(text: str) -> list[float]:
    values: list[float] = []
    for item in text.replace(",", " ").split():
        try:
            value = float(item)
        except ValueError:
            fail(f"epsilons must be numbers separated by commas or spaces; got {item!r}")
        values.append(check_epsilon(value))
    if not values:
        fail("epsilons must hold at least one value; got none")
    return sorted(set(values))


def calibrate(
    inputs: Annotated[list[str] | None, typer.Argument(
        help="With --target-recovery: the corpus whose most frequent content words are the "
        "secrets and their frequencies the prior, as for 'emprivacy audit' (text files, "
        "directories, '-' for stdin, .jsonl or .parquet). Default: the vocabulary's first "
        "content words, Zipf prior.", show_default=False, metavar="CORPUS")] = None,
    embeddings: EmbeddingsOpt = None,
    embeddings_encoding: EncodingOpt = "utf-8",
    vocab_size: VocabOpt = DEFAULT_VOCAB_SIZE,
    epsilons: Annotated[str | None, typer.Option("--epsilons", help="Values of ε, separated "
                                                 "by commas or spaces (default: 7 values from "
                                                 "median N_w 0.05 to 0.95). With "
                                                 "--target-recovery: where the search starts "
                                                 "(one value) or its first bracket (the "
                                                 "smallest and largest).",
                                                 show_default=False)] = None,
    words_file: Annotated[Path | None, typer.Option("--words", help="File of words to study "
                                                    "(whitespace-separated; default: words "
                                                    "drawn by frequency from the vocabulary).",
                                                    show_default=False)] = None,
    n_words: Annotated[int, typer.Option("--n-words", min=1, help="Words drawn when --words "
                                         "is not given.")] = 1000,
    trials: Annotated[int | None, typer.Option(
        "--trials", min=1, help="Runs of the mechanism per word  [default: 100]",
        show_default=False)] = None,
    size: Annotated[int | None, typer.Option(
        "--size", "-N", min=1, help="Document size N for ε·N and the utility bound  "
        "[default: 100]", show_default=False)] = None,
    delta: Annotated[float | None, typer.Option("--delta", "-d", help="Utility radius Δ "
                                                "(default: median distance from a studied "
                                                "word to its nearest other word).",
                                                show_default=False)] = None,
    target: Annotated[float | None, typer.Option("--target-unchanged", help="Find the ε at "
                                                 "which the median N_w equals P (0 < P < 1).",
                                                 show_default=False)] = None,
    target_recovery: Annotated[float | None, typer.Option(
        "--target-recovery", help="Find the ε at which the Bayes-optimal adversary recovers "
        "at most a fraction P (0 < P < 1) of the words: the upper end of V(π▷C) of the word "
        "audit at or below P (docs/AUDIT.md, One privacy scale); any --mechanism.",
        show_default=False, metavar="P")] = None,
    n_secrets: Annotated[int | None, typer.Option(
        "--secrets", min=1, help="--target-recovery: how many secret words K (the most "
        "frequent content words)  [default: 2000]", show_default=False)] = None,
    draws: Annotated[int | None, typer.Option(
        "--draws", min=2, help="--target-recovery: releases per secret word in each "
        "measurement of a sampled channel (madlib, mahalanobis, vickrey; a quarter of them, "
        "at least 20, on the coarse grid)  [default: 200]", show_default=False)] = None,
    prior: Annotated[Literal["corpus", "zipf", "uniform"] | None, typer.Option(
        "--prior", help="--target-recovery: the adversary's prior over the secrets: corpus "
        "(the default with a CORPUS), zipf (the default without) or uniform.",
        show_default=False)] = None,
    rtol: Annotated[float | None, typer.Option(
        "--rtol", help="--target-recovery: stop the bisection when the ε at or below P and "
        "the one above it are within this relative distance  [default: 0.05]",
        show_default=False)] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Reproducible draws.",
                                             show_default=False)] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Write the PNG plot of N_w and S_w against ε here (default: "
        "calibration.png; without the evaluation extra's matplotlib the default plot is "
        "skipped with a warning, an explicit --plot is an error).",
        show_default=False)] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not write the plot.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
    mechanism: Annotated[str | None, typer.Option(
        "--mechanism", help="Study this mechanism by running it (madlib, mahalanobis, "
        "vickrey, tem, santext): the same statistics plus the rank histogram of released "
        "words in the input's neighbour list; needs --epsilons; no plot. With "
        "--target-recovery: the mechanism to calibrate (default madlib).",
        show_default=False)] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="A parameter of --mechanism as NAME=VALUE (repeatable).",
        show_default=False)] = None,
    quiet: QuietOpt = False,
) -> None:
    """Choose ε: how often the mechanism leaves a word unchanged (Feyisetan et al. 2020).

    For each studied word w and --trials runs of the word-level mechanism: N_w, the
    fraction of runs returning w; S_w, the number of distinct words it turns into;
    the mean embedding distance moved; and, for a document of N words, ε·N and the
    valid utility lower bound P(N·n, ε·N·Δ). Printed as a table, plotted as a PNG.

    With --target-recovery P: the ε at which the Bayes-optimal adversary recovers at most
    a fraction P of the words of CORPUS (or of the vocabulary), measured by the word
    audit of 'emprivacy audit' and found by bisection (docs/AUDIT.md).
    """
    import contextlib

    from emprivacy.protection import DeniabilityStudy, calibration_table, plot_calibration

    recovery_options = [name for name, value in (
        ("CORPUS", inputs), ("--secrets", n_secrets), ("--draws", draws), ("--prior", prior),
        ("--rtol", rtol)) if value]
    if target_recovery is not None:
        if target is not None:
            fail("--target-recovery and --target-unchanged are exclusive: give one")
        given = [name for name, value in (("--words", words_file), ("--trials", trials),
                                          ("--size", size), ("--delta", delta),
                                          ("--plot", plot)) if value is not None]
        if given:
            fail(f"{given[0]} applies to the N_w study, not to --target-recovery")
        _calibrate_recovery(
            target_recovery, list(inputs or []), mechanism, param or [], epsilons,
            embeddings=embeddings, encoding=embeddings_encoding, vocab_size=vocab_size,
            n_secrets=2000 if n_secrets is None else n_secrets,
            draws=200 if draws is None else draws, prior=prior,
            rtol=0.05 if rtol is None else rtol, seed=seed, as_json=as_json, quiet=quiet)
        return
    if recovery_options:
        fail(f"{recovery_options[0]} applies to --target-recovery")
    trials = 100 if trials is None else trials
    size = 100 if size is None else size
    eps_list = None if epsilons is None else _parse_epsilons(epsilons)
    if mechanism is not None or param:
        _calibrate_mechanism(mechanism, param or [], eps_list, embeddings=embeddings,
                             encoding=embeddings_encoding,
                             vocab_size=vocab_size, words_file=words_file, n_words=n_words,
                             trials=trials, seed=seed, as_json=as_json, quiet=quiet)
        return
    if target is not None and not (0.0 < target < 1.0):
        fail(f"--target-unchanged must be a number in (0, 1); got {target!r}")
    if delta is not None:
        check_nonnegative(delta, "delta")
    skipped = None  # why the default plot is not written (no matplotlib)
    if not no_plot:  # now, not after the study: matplotlib, and where the plot goes
        from emprivacy._optional import import_optional
        from emprivacy.exceptions import MissingExtraError

        try:
            import_optional("matplotlib", extra="evaluation", purpose=(
                "the calibration plot" if plot is None else "calibrate --plot"))
        except MissingExtraError as exc:
            if plot is not None:  # asked for by name: refuse before any work
                raise
            skipped, no_plot = str(exc), True
    plot = Path("calibration.png") if plot is None else plot
    if not no_plot:  # a directory, a missing or read-only place
        from emprivacy.io.output_paths import check_not_input, check_output_path

        check_output_path(plot, probe=True, kind="plot")
        check_not_input(plot, [str(p) for p in (embeddings, words_file) if p is not None],
                        kind="plot")
    console = stderr()
    emb = load(embeddings, vocab_size, quiet, check_encoding(embeddings_encoding))
    words = None
    if words_file is not None:
        from emprivacy.text import normalise_word

        given = list(dict.fromkeys(normalise_word(w) for w in read_text_file(words_file).split()))
        words = [w for w in given if w in emb]
        if not words:
            fail(f"no word of {str(words_file)!r} is in the vocabulary of {emb.name!r}")
        if len(words) < len(given) and not quiet:
            console.print(f"emprivacy: note: {len(given) - len(words)} of the {len(given)} "
                          "words are not in the vocabulary; skipped")
    status = (contextlib.nullcontext() if quiet
              else console.status("Studying the mechanism…"))
    with status:
        study = DeniabilityStudy(emb, words=words, trials=trials, n_words=n_words, size=size,
                                 delta=delta, rng=seed)
        if eps_list is None and target is None:
            eps_list = study.default_epsilons()
        results = [study.measure(e) for e in eps_list or []]
        found = None if target is None else study.measure(study.epsilon_for(target))
        if not no_plot:
            plot_calibration(study, results, plot, target=found)
    info = {"embeddings": {"name": emb.name, "vocab_size": len(emb), "dim": emb.dim},
            "words": len(study.words), "trials": study.trials, "N": study.size,
            "delta": study.delta, "delta_is_default": delta is None}
    if as_json:
        payload: dict[str, Any] = {**info, "results": [r.summary() for r in results]}
        if found is not None:
            payload["target"] = {"target_unchanged": target, **found.summary()}
        payload["plot"] = None if no_plot else str(plot)
        echo(json.dumps(payload))
    else:
        what = ("median distance to the nearest other word" if delta is None else "given")
        echo(f"{emb.name} ({len(emb)} words, n = {emb.dim}): {len(study.words)} words × "
                   f"{study.trials} trials; N = {study.size}, Δ = {study.delta:.4g} ({what})")
        echo("N_w: fraction of trials returning the word; S_w: distinct outputs; "
                   "distance: mean embedding distance moved; utility: P(N·n, ε·N·Δ), a valid "
                   "lower bound on P[E(b, Alg1(b)) ≤ Δ]")
        echo(calibration_table(results, target=found))
        if found is not None:
            echo(f"target median N_w = {target:g}: ε = {found.epsilon:.4g} (measured "
                       f"median N_w = {found.median_unchanged:.3f}; ε·N = "
                       f"{found.epsilon_total:.4g})")
    if not no_plot and not quiet:
        console.print(f"emprivacy: wrote plot to {plot}")
    if skipped is not None and not quiet:
        console.print(f"emprivacy: warning: no plot written: {skipped} (or pass --no-plot)",
                      markup=False, highlight=False)


def _calibrate_mechanism(name: str | None, pairs: list[str], eps_list: list[float] | None, *,
                         embeddings: Path | None, encoding: str, vocab_size: int,
                         words_file: Path | None,
                         n_words: int, trials: int, seed: int | None, as_json: bool,
                         quiet: bool) -> None:
    """``calibrate --mechanism NAME``: sampled statistics and rank histogram per ε."""
    import contextlib

    import numpy as np

    from emprivacy.math.randomness import check_random_state
    from emprivacy.mechanisms.registry import make_mechanism
    from emprivacy.protection.epsilon.mechanism_study import study_mechanism

    if name is None:
        fail("--param needs --mechanism")
    params = mechanism_params(name, pairs)
    if not eps_list:
        fail("--mechanism needs --epsilons: the ε scales of the mechanisms differ")
    console = stderr()
    emb = load(embeddings, vocab_size, quiet, check_encoding(encoding))
    words = None
    if words_file is not None:
        from emprivacy.text import normalise_word

        words = [w for w in dict.fromkeys(normalise_word(t) for t in
                                          read_text_file(words_file).split()) if w in emb]
        if not words:
            fail(f"no word of {str(words_file)!r} is in the vocabulary of {emb.name!r}")
    gen = check_random_state(seed)
    studies = []
    status = (contextlib.nullcontext() if quiet
              else console.status(f"Running {name} on the studied words…"))
    with status:
        for eps in eps_list:
            mech = make_mechanism(name, emb, epsilon=eps, **params)
            studies.append(study_mechanism(mech, words=words, n_words=n_words, trials=trials,
                                           rng=gen))
    truncation = []
    if name == "tem":  # where γ leaves every word inside, TEM is SanText: say so
        from dataclasses import asdict

        from emprivacy.protection.epsilon.mechanism_study import (
            summarise_truncation,
            tem_truncation,
        )

        truncation = tem_truncation(emb, epsilons=eps_list, beta=mech.record_fields()["beta"],
                                    rows=emb.rows(list(studies[0].words)))
    if as_json:
        payload: dict[str, Any] = {"embeddings": {"name": emb.name, "vocab_size": len(emb),
                                                  "dim": emb.dim},
                                   "results": [st.summary() for st in studies]}
        if truncation:
            payload["tem_truncation"] = [asdict(t) for t in truncation]
        echo(json.dumps(payload))
        return
    first = studies[0]
    echo(f"{emb.name} ({len(emb)} words, n = {emb.dim}): mechanism {name} "
         f"{first.parameters}; {len(first.words)} words × {first.trials} trials")
    echo("N_w: fraction of trials returning the word; S_w: distinct outputs; distance: mean "
         "embedding distance moved; rank: where released words sit in the input's neighbour "
         f"list (0 = the input; over {first.rank_sample} runs)")
    echo("| ε | median N_w | median S_w | distance | rank 0 | rank 1-100 | rank >100 |")
    echo("|---|---:|---:|---:|---:|---:|---:|")
    for st in studies:
        r = st.ranks
        echo(f"| {st.epsilon:g} | {float(np.median(st.unchanged)):.3f} | "
             f"{float(np.median(st.distinct)):g} | {float(np.mean(st.distance_moved)):.3f} | "
             f"{r['0']:.3f} | {r['1-100']:.3f} | {r['>100']:.3f} |")
    if truncation:
        echo(summarise_truncation(truncation, what="studied word"))


def _calibrate_recovery(target: float, corpus: list[str], name: str | None,
                        pairs: list[str], epsilons: str | None, *, embeddings: Path | None,
                        encoding: str, vocab_size: int, n_secrets: int, draws: int,
                        prior: str | None, rtol: float, seed: int | None, as_json: bool,
                        quiet: bool) -> None:
    """``calibrate --target-recovery P``: the word audit, bisected on ε."""
    import secrets as _secrets

    from emprivacy.mechanisms.registry import make_mechanism
    from emprivacy.protection import calibrate_recovery, content_word_counts, secret_words
    from emprivacy.protection.epsilon.scale import check_above_prior, check_target

    try:
        p = check_target(target, "--target-recovery")
    except ValueError as exc:
        fail(str(exc))
    if not math.isfinite(rtol) or rtol <= 0:
        fail(f"--rtol must be a finite number > 0; got {rtol!r}")
    name = name or "madlib"
    params = mechanism_params(name, pairs)
    bracket: tuple[float, float] | None = None
    start: float | None = None
    if epsilons is not None:  # where the search starts: one ε, or a bracket
        eps_list = _parse_epsilons(epsilons)
        if len(eps_list) == 1:
            start = eps_list[0]
        else:
            bracket = (eps_list[0], eps_list[-1])
    if prior == "corpus" and not corpus:
        fail("--prior corpus needs a CORPUS to count words in; give one, or use --prior "
             "zipf or uniform")
    stdin = check_stdin(corpus)
    if seed is None:
        seed = _secrets.randbelow(2**63)
    console = stderr()
    emb = load(embeddings, vocab_size, quiet, check_encoding(encoding))
    counts = None
    if corpus:
        import contextlib

        status = (contextlib.nullcontext() if quiet
                  else console.status("Counting the corpus's words…"))
        with status:
            counts = content_word_counts(corpus, stdin=stdin)
    try:
        chosen = secret_words(emb, k=n_secrets, counts=counts, prior=prior)
        make_mechanism(name, emb, epsilon=1.0, **params)  # a bad parameter value: now
    except (TypeError, ValueError) as exc:
        fail(str(exc))
    try:
        check_above_prior(p, chosen, "--target-recovery")
    except ValueError as exc:
        fail(str(exc))
    from emprivacy.cli._common import progress_bar

    with progress_bar(console, show=not quiet, elapsed=True) as bar:
        task = bar.add_task("searching", total=None)

        def progress(n: int, eps: float, done: int, total: int, description: str) -> None:
            bar.update(task, completed=done, total=total,
                       description=f"measurement {n}: ε = {eps:.4g}: {description}")

        try:
            found = calibrate_recovery(emb, target_recovery=p, mechanism=name, params=params,
                                       secrets=chosen, draws=draws, bracket=bracket,
                                       start=start, rtol=rtol, rng=seed, progress=progress)
        except ValueError as exc:
            fail(str(exc))
    summary = found.summary()
    summary["seed"] = seed  # the command's seed (the measurements' one is derived from it)
    if as_json:
        payload = {"embeddings": {"name": emb.name, "vocab_size": len(emb), "dim": emb.dim},
                   "corpus": corpus, **summary}
        echo(json.dumps(payload, ensure_ascii=False))
        return
    a = found.audit
    chan = ("exact channel" if a.exact else
            f"{draws} releases per word"
            + (f" ({found.search_draws} on the coarse grid)" if found.search_draws else ""))
    echo(f"{emb.name} ({len(emb)} words, n = {emb.dim}): mechanism {name} "
         f"{dict(params) if params else ''}".rstrip() + f"; {len(chosen)} secret words, "
         f"prior {chosen.prior_name}; {chan}")
    echo(f"target: the Bayes-optimal adversary recovers at most P = {p:g} of the words ("
         + ("V(π▷C), exact" if a.exact else
            f"the upper end of V(π▷C)'s interval at {found.confidence_per_point:.7g}, "
            f"Bonferroni over the {found.points_covered:,} ε the search can measure: "
            f"{found.confidence:.0%} at the ε returned") + ", at or below P)")
    echo("| ε | measured | upper end of V(π▷C) | at or below P |")
    echo("|---:|---|---:|---|")
    for pt in sorted(found.search.points, key=lambda q: (q.stage, q.epsilon)):
        what = ("coarse grid" if pt.stage == "bracket"
                else "exact" if a.exact else f"{draws} draws")
        echo(f"| {pt.epsilon:.4g} | {what} | {pt.value:.4g} | "
             f"{'yes' if pt.value <= p else 'no'} |")
    echo(f"ε = {found.epsilon:.4g}: V(π▷C) = {a.posterior_vulnerability.text()}, at or "
         f"below {p:g}; attack recovery {a.attack_recovery.text()}; V(π) = "
         f"{a.prior_vulnerability:.4g}")
    echo(f"at ε = {found.above.epsilon:.4g} (within {rtol:g} relative) the upper end is "
         f"{found.above.posterior_vulnerability.upper:.4g}, above {p:g}")
    if not a.exact:
        echo("A sampled V(π▷C)'s upper end includes the plug-in's upward bias, so this ε is "
             "conservative (compare the attack recovery); more --draws make it less so.")
