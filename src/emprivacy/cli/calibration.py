"""``emprivacy calibrate``: choose ε.

The command's options and the N_w study of plausible deniability (how often the paper's
mechanism leaves a word unchanged; Feyisetan et al. 2020) are here; ``--mechanism`` runs the
same study on any mechanism (:mod:`.calibration_mechanism`) and ``--target-recovery``
searches the ε at which the Bayes-optimal adversary recovers at most a fraction of the words
(:mod:`.calibration_recovery`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from emprivacy.cli import limits
from emprivacy.cli._common import (
    DEFAULT_VOCAB_SIZE,
    LOG_EVERY,
    EmbeddingsOpt,
    EncodingOpt,
    LangOpt,
    QuietOpt,
    VocabOpt,
    check_encoding,
    check_nonnegative,
    check_output_name,
    echo,
    echo_json,
    fail,
    load,
    parse_epsilon_list,
    progress_bar,
    stderr,
)
from emprivacy.cli.calibration_mechanism import calibrate_mechanism
from emprivacy.cli.calibration_recovery import calibrate_target_recovery

__all__ = ["calibrate"]


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
                                                 show_default=False, metavar="EPSILONS")
                                  ] = None,
    words_file: Annotated[Path | None, typer.Option("--words", help="File of words to study "
                                                    "(whitespace-separated; default: words "
                                                    "drawn by frequency from the vocabulary).",
                                                    show_default=False, metavar="FILE")
                                      ] = None,
    n_words: Annotated[int, typer.Option("--n-words", min=1, callback=limits.at_most(
        limits.MAX_WORDS, "words", "no vocabulary holds more"), help="Words drawn when --words "
                                         "is not given.", metavar="N")] = 1000,
    trials: Annotated[int | None, typer.Option(
        "--trials", min=1, callback=limits.at_most(limits.MAX_COUNT, "runs", "ten million "
                                                   "runs already take hours per word"),
        help="Runs of the mechanism per word  [default: 100]",
        show_default=False, metavar="N")] = None,
    size: Annotated[int | None, typer.Option(
        "--size", "-N", min=1, callback=limits.bag_size,
        help="Document size N for ε·N and the utility bound  "
        "[default: 100]", show_default=False, metavar="N")] = None,
    delta: Annotated[float | None, typer.Option("--delta", "-d", help="Utility radius Δ "
                                                "(default: median distance from a studied "
                                                "word to its nearest other word).",
                                                show_default=False, metavar="DELTA")
                                  ] = None,
    target: Annotated[float | None, typer.Option("--target-unchanged", help="Find the ε at "
                                                 "which the median N_w equals P (0 < P < 1).",
                                                 show_default=False, metavar="P")] = None,
    target_recovery: Annotated[float | None, typer.Option(
        "--target-recovery", help="Find the ε at which the Bayes-optimal adversary recovers "
        "at most a fraction P (0 < P < 1) of the words: the upper end of V(π▷C) of the word "
        "audit at or below P (docs/AUDIT.md, One privacy scale); any --mechanism.",
        show_default=False, metavar="P")] = None,
    n_secrets: Annotated[int | None, typer.Option(
        "--secrets", min=1, callback=limits.at_most(limits.MAX_WORDS, "words", "no "
                                                    "vocabulary holds more"),
        help="--target-recovery: how many secret words K (the most "
        "frequent content words)  [default: 2000]", show_default=False, metavar="K")
    ] = None,
    draws: Annotated[int | None, typer.Option(
        "--draws", min=2, callback=limits.draws,
        help="--target-recovery: releases per secret word in each "
        "measurement of a sampled channel (madlib, mahalanobis, vickrey; a quarter of them, "
        "at least 20, on the coarse grid)  [default: 200]", show_default=False,
        metavar="D")] = None,
    prior: Annotated[Literal["corpus", "zipf", "uniform"] | None, typer.Option(
        "--prior", help="--target-recovery: the adversary's prior over the secrets: corpus "
        "(the default with a CORPUS), zipf (the default without) or uniform.",
        show_default=False, metavar="[corpus|zipf|uniform]")] = None,
    rtol: Annotated[float | None, typer.Option(
        "--rtol", help="--target-recovery: stop the bisection when the ε at or below P and "
        "the one above it are within this relative distance (at least 1e-9)  "
        "[default: 0.05]", show_default=False, metavar="RTOL")] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Reproducible draws.",
                                             show_default=False, metavar="SEED")] = None,
    plot_name: Annotated[str | None, typer.Option(
        "--plot", help="Write the PNG plot of N_w and S_w against ε here (default: "
        "calibration.png; without the evaluation extra's matplotlib the default plot is "
        "skipped with a warning, an explicit --plot is an error).",
        show_default=False, metavar="FILE")] = None,
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not write the plot.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
    mechanism: Annotated[str | None, typer.Option(
        "--mechanism", help="Study this mechanism by running it (madlib, mahalanobis, "
        "vickrey, tem, santext): the same statistics plus the rank histogram of released "
        "words in the input's neighbour list; needs --epsilons; no plot. With "
        "--target-recovery: the mechanism to calibrate (default madlib).",
        show_default=False, metavar="NAME")] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="A parameter of --mechanism as NAME=VALUE or "
        "MECHANISM.NAME=VALUE, e.g. beta=0.01 or tem.beta=0.01 (repeatable).",
        show_default=False, metavar="NAME=VALUE")] = None,
    quiet: QuietOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Choose ε: how often the mechanism leaves a word unchanged (Feyisetan et al. 2020).

    For each studied word w and --trials runs of the word-level mechanism: N_w, the
    fraction of runs returning w; S_w, the number of distinct words it turns into;
    the mean embedding distance moved; and, for a document of N words, ε·N and the
    valid utility lower bound P(N·n, ε·N·Δ). Printed as a table, plotted as a PNG.

    With --target-recovery P: the ε at which the Bayes-optimal adversary recovers at most
    a fraction P of the words of CORPUS (or of the vocabulary), measured by the word
    audit of 'emprivacy audit' and found by bisection (docs/AUDIT.md).

    Examples:

    \b
      emprivacy calibrate --epsilons 5,10,20 --plot calibration.png
      emprivacy calibrate --target-unchanged 0.5 --no-plot
      emprivacy calibrate --mechanism tem --param beta=0.01 --epsilons 5,10
      emprivacy calibrate my_docs/ --target-recovery 0.3 --mechanism santext
    """

    from emprivacy.protection import DeniabilityStudy, calibration_table, plot_calibration

    plot = check_output_name(plot_name, "--plot", "a file")
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
        calibrate_target_recovery(
            target_recovery, list(inputs or []), mechanism, param or [], epsilons,
            embeddings=embeddings, encoding=embeddings_encoding, vocab_size=vocab_size,
            n_secrets=2000 if n_secrets is None else n_secrets,
            draws=200 if draws is None else draws, prior=prior,
            rtol=0.05 if rtol is None else rtol, seed=seed, as_json=as_json, quiet=quiet,
            lang=lang)
        return
    if recovery_options:
        fail(f"{recovery_options[0]} applies to --target-recovery")
    trials = 100 if trials is None else trials
    size = 100 if size is None else size
    eps_list = None if epsilons is None else parse_epsilon_list(epsilons)
    if mechanism is not None or param:
        calibrate_mechanism(mechanism, param or [], eps_list, embeddings=embeddings,
                            encoding=embeddings_encoding,
                            vocab_size=vocab_size, words_file=words_file, n_words=n_words,
                            trials=trials, seed=seed, as_json=as_json, quiet=quiet,
                            lang=lang)
        return
    if target is not None and not (0.0 < target < 1.0):
        fail(f"--target-unchanged must be a number in (0, 1); got {target!r}")
    if delta is not None:
        check_nonnegative(delta, "delta")
    skipped = None  # why the default plot is not written (no matplotlib)
    if not no_plot:  # now, not after the study: matplotlib, and where the plot goes
        from emprivacy import import_optional
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
        from emprivacy.io import check_not_input, check_output_path

        check_output_path(plot, probe=True, kind="plot")
        check_not_input(plot, [str(p) for p in (embeddings, words_file) if p is not None],
                        kind="plot")
    console = stderr()
    emb = load(embeddings, vocab_size, quiet, check_encoding(embeddings_encoding), lang)
    words = None
    if words_file is not None:
        from emprivacy.io import read_text_file
        from emprivacy.text import normalise_word

        given = list(dict.fromkeys(normalise_word(w) for w in read_text_file(words_file).split()))
        words = [w for w in given if w in emb]
        if not words:
            fail(f"no word of {str(words_file)!r} is in the vocabulary of {emb.name!r}")
        if len(words) < len(given) and not quiet:
            console.print(f"emprivacy: note: {len(given) - len(words)} of the {len(given)} "
                          "words are not in the vocabulary; skipped")
    # a bar on a terminal, a line every LOG_EVERY seconds elsewhere (issue 44, item 8: it
    # was 41-76 s of silence in a log)
    with progress_bar(console, show=not quiet, elapsed=True, log_every=LOG_EVERY) as bar:
        try:  # a study the machine cannot hold: one line, before any draw
            study = DeniabilityStudy(emb, words=words, trials=trials, n_words=n_words,
                                     size=size, delta=delta, rng=seed, lang=lang)
        except ValueError as exc:
            fail(str(exc))
        if eps_list is None and target is None:
            eps_list = study.default_epsilons()
        steps = len(eps_list or []) + (target is not None) + (not no_plot)
        task = bar.add_task("studying the mechanism", total=steps)
        results = []
        for e in eps_list or []:
            results.append(study.measure(e))
            bar.advance(task)
        found = None if target is None else study.measure(study.epsilon_for(target))
        bar.advance(task, float(target is not None))
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
        echo_json(payload)
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
