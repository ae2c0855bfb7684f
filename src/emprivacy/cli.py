"""The ``emprivacy`` command line: a thin layer over the library.

Exit codes: 0 success; 1 a distributed run failed (completed partitions are
kept; re-run with ``--resume``); 2 usage errors and bad input (one line on stderr
naming the problem); 130 interrupted.  Nothing of an input document's text is ever
written to stderr.
"""

from __future__ import annotations

import json
import math
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from . import __version__
from .corpus import InputError, iter_documents, read_text_file
from .exceptions import EmbeddingsFormatError, PrivacyLeakWarning

__all__ = ["app", "main", "run"]

app = typer.Typer(
    name="emprivacy",
    help="Release text under Earth Mover's privacy (Fernandes, Dras, McIver 2019).",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

PROGRESS_MIN_DOCUMENTS = 5
PROGRESS_MIN_BYTES = 200_000


class CLIError(Exception):
    """A user-facing error: printed as one line, exit code 2."""


def _stderr() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str) -> NoReturn:
    raise CLIError(message)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"emprivacy {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version_callback,
                                          is_eager=True, help="Show the version and exit.")
                       ] = False,
) -> None:
    """Release text under Earth Mover's privacy (Fernandes, Dras, McIver 2019)."""


# -- shared options -------------------------------------------------------------------------
EmbeddingsOpt = Annotated[Path | None, typer.Option(
    "--embeddings", help="word2vec .bin/.txt, GloVe .txt or fastText .vec file "
    "(default: built-in GloVe 6B 50d).", show_default=False)]
VocabOpt = Annotated[int, typer.Option("--vocab-size", min=1,
                                        help="Keep the K most frequent real words.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress or notes on stderr.")]


def _check_epsilon(epsilon: float) -> float:
    if not math.isfinite(epsilon) or epsilon <= 0:
        _fail(f"epsilon must be a finite number > 0; got {epsilon!r}")
    return epsilon


def _load(embeddings: Path | None, vocab_size: int, quiet: bool):
    from .embeddings import load_embeddings

    console = _stderr()
    if quiet:
        return load_embeddings(embeddings, vocab_size=vocab_size)
    label = "built-in GloVe 6B 50d" if embeddings is None else str(embeddings)
    with console.status(f"Loading embeddings ({label}, {vocab_size} words)…"):
        return load_embeddings(embeddings, vocab_size=vocab_size)


def _count_documents(inputs: list[str]) -> tuple[int, int, bool]:
    """(documents, bytes, structured) of the inputs, cheaply; structured = dir or JSONL."""
    docs = size = 0
    structured = False
    for item in inputs:
        if item == "-":
            docs += 1
            continue
        p = Path(item)
        if p.is_dir():
            structured = True
            files = [f for f in p.rglob("*.txt") if f.is_file()]
            docs += len(files)
            size += sum(f.stat().st_size for f in files)
        elif p.is_file():
            size += p.stat().st_size
            if p.suffix.lower() == ".jsonl":
                structured = True
                with open(p, "rb") as fh:
                    docs += sum(1 for line in fh if line.strip())
            else:
                docs += 1
        else:
            _fail(f"input file {item!r} does not exist")
    return docs, size, structured


OOV_KEEP_WARNING = ("emprivacy: warning: --oov keep releases out-of-vocabulary words unchanged; "
                    "the privacy guarantee does not cover them (counted in 'oov_kept')")


def _mode_options(*, text_mode: bool, fmt: str | None, oov: str | None,
                  perturb_stopwords: bool, size: int | None) -> dict[str, Any]:
    """Validate the text-mode and OOV options of ``obfuscate``; the Obfuscator's keywords."""
    if oov is not None and oov not in ("drop", "placeholder", "keep"):
        _fail(f"oov must be one of 'drop', 'placeholder', 'keep'; got {oov!r}")
    if text_mode and fmt == "bag":
        _fail("--readable releases text; use --format text, jsonl or parquet")
    if perturb_stopwords and not text_mode:
        _fail("--perturb-stopwords applies to text mode (--format text or --readable)")
    if text_mode and size is not None:
        _fail("--size applies to bags of words; text mode releases the whole text")
    options: dict[str, Any] = {"mode": "text" if text_mode else "bag"}
    if oov is not None:
        options["oov"] = oov
    if perturb_stopwords:
        options["perturb_stopwords"] = True
    return options


@app.command()
def obfuscate(
    inputs: Annotated[list[str] | None, typer.Argument(
        help="Text files, directories (every *.txt inside), '-' for stdin, .jsonl files "
        "({\"id\": ..., \"text\": ...} per line) or .parquet files (id and text columns).",
        show_default=False)] = None,
    epsilon: Annotated[float | None, typer.Option("--epsilon", "-e", help="Per-word privacy "
                                                  "parameter ε (> 0).", show_default=False)
                       ] = None,
    embeddings: EmbeddingsOpt = None,
    vocab_size: VocabOpt = 100_000,
    size: Annotated[int | None, typer.Option("--size", "-N", min=1, help="Truncate every bag "
                                             "to its first N in-vocabulary words (the paper's "
                                             "fixed N).", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Reproducible noise. Not "
                                             "for real releases.", show_default=False)] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here "
                                                "(atomically) instead of stdout.",
                                                show_default=False)] = None,
    fmt: Annotated[str | None, typer.Option("--format", "-f", help="bag: noisy words, one "
                                            "document per line; jsonl: one JSON record per "
                                            "document (default: jsonl for several documents, "
                                            "a directory or JSONL; bag for one); text: "
                                            "readable text, the layout kept and each word "
                                            "replaced in place; parquet: "
                                            "a directory of Parquet files (default when "
                                            "--output ends in .parquet).",
                                            show_default=False)] = None,
    readable: Annotated[bool, typer.Option("--readable", help="Text mode with any record "
                                           "format: records carry the readable 'text' "
                                           "(implied by --format text).")] = False,
    oov: Annotated[str | None, typer.Option("--oov", help="Out-of-vocabulary words: drop "
                                            "(default for bags), placeholder ([UNK], default "
                                            "for text) or keep (released unchanged, NOT "
                                            "covered by the guarantee).", show_default=False)
                   ] = None,
    perturb_stopwords: Annotated[bool, typer.Option("--perturb-stopwords", help="Text mode: "
                                                    "send stopwords through the mechanism "
                                                    "too (kept by default: no topic, but "
                                                    "style).")] = False,
    decoder: Annotated[str, typer.Option("--decoder", help="exact or approximate nearest-word "
                                         "decoding (post-processing; same guarantee).")
                       ] = "exact",
    quiet: QuietOpt = False,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Run on this Dask "
                                                  "cluster (tcp://host:8786); inputs, "
                                                  "embeddings and --output must be on storage "
                                                  "every worker can read.",
                                                  show_default=False)] = None,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="Run on a local Dask "
                                                "cluster of K worker processes.",
                                                show_default=False)] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run into "
                                         "the same --output: complete partitions are kept.")
                      ] = False,
) -> None:
    """Obfuscate documents with Alg. 2: bag of words → Laplace noise → nearest words.

    For two documents whose bags both have size N, the output probabilities differ
    by at most exp(ε·N·E), E the Earth Mover's distance between the bags.
    Words not in the embedding vocabulary are dropped and counted, never released
    (--oov placeholder writes [UNK]; --oov keep releases them, outside the guarantee).

    Text mode (--format text or --readable) keeps the layout and replaces each of
    the M perturbed words in place: for two texts with the same layout the output
    probabilities differ by at most exp(ε·Σᵢ d(xᵢ, x'ᵢ)). Numbers, URLs and e-mail
    addresses always become placeholders.
    """
    from .mechanisms import EarthMoversPrivacy
    from .obfuscation import ObfuscationConfig, Obfuscator
    from .outputs import atomic_output, format_record

    if epsilon is None:
        _fail("missing option '--epsilon'")
    _check_epsilon(epsilon)
    text_mode = readable or fmt == "text"
    options = _mode_options(text_mode=text_mode, fmt=fmt, oov=oov,
                            perturb_stopwords=perturb_stopwords, size=size)
    if _is_corpus_run(inputs, output, fmt, scheduler, workers, resume):
        if fmt == "text":
            _fail("--format text writes one stream of text; with --workers, --scheduler, "
                  "--resume or Parquet use --readable with --format jsonl or parquet")
        if oov == "keep":
            _stderr().print(OOV_KEEP_WARNING)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PrivacyLeakWarning)
            _obfuscate_corpus(inputs or [], epsilon=epsilon, embeddings=embeddings,
                              vocab_size=vocab_size, size=size, seed=seed, output=output,
                              fmt=fmt, decoder=decoder, scheduler=scheduler, workers=workers,
                              resume=resume, quiet=quiet, options=options)
        return
    if fmt is not None and fmt not in ("bag", "jsonl", "text"):
        _fail(f"format must be one of 'bag', 'jsonl', 'text'; got {fmt!r}")
    if decoder not in ("exact", "approximate"):
        _fail(f"decoder must be one of 'exact', 'approximate'; got {decoder!r}")
    inputs = list(inputs or ["-"])
    n_docs, n_bytes, structured = _count_documents(inputs)
    if fmt is None:
        fmt = "jsonl" if structured or n_docs > 1 else "text" if text_mode else "bag"
    console = _stderr()
    emb = _load(embeddings, vocab_size, quiet)
    mech = EarthMoversPrivacy(emb, epsilon=epsilon, decoder=decoder)
    if seed is not None and not quiet:
        console.print("emprivacy: note: --seed makes the noise reproducible; do not use it "
                      "for a real release")
    warn = (lambda msg: None) if quiet else (
        lambda msg: console.print(f"emprivacy: warning: {msg}"))
    obf = Obfuscator(mech, ObfuscationConfig(size=size, **options), seed=seed, on_warning=warn)
    if obf.config.oov == "keep":
        console.print(OOV_KEEP_WARNING)
    records = obf.obfuscate(iter_documents(inputs))
    show = not quiet and (n_docs > PROGRESS_MIN_DOCUMENTS or n_bytes > PROGRESS_MIN_BYTES)
    with atomic_output(output) as out, warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyLeakWarning)  # said once above, in one line
        for record in _with_progress(records, n_docs, show, console):
            line = format_record(record, fmt)
            out.write(line)
            if not (fmt == "text" and line.endswith("\n")):
                out.write("\n")
    if not quiet and output is not None:
        console.print(f"emprivacy: wrote {obf.documents_written} document(s) to {output}"
                      + (f"; skipped {obf.documents_skipped} empty" if obf.documents_skipped
                         else "")
                      + (f"; {obf.oov_kept} out-of-vocabulary word(s) released unchanged"
                         if obf.config.oov == "keep" else ""))


def _with_progress(records: Iterator[dict[str, Any]], total: int, show: bool,
                   console: Console) -> Iterator[dict[str, Any]]:
    if not show or not console.is_terminal:  # a bar is for people; logs get no control chars
        yield from records
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                  transient=True) as progress:
        task = progress.add_task("Obfuscating", total=total)
        for record in records:
            progress.advance(task)
            yield record


def _is_corpus_run(inputs: list[str] | None, output: Path | None, fmt: str | None,
                   scheduler: str | None, workers: int | None, resume: bool) -> bool:
    """Whether ``obfuscate`` goes through :mod:`emprivacy.distributed`: a cluster,
    ``--resume``, or Parquet input or output."""
    if scheduler is not None or workers is not None or resume or fmt == "parquet":
        return True
    if output is not None and output.suffix.lower() == ".parquet":
        return True
    for item in inputs or []:
        p = Path(item)
        if p.suffix.lower() == ".parquet" or (p.is_dir() and not any(p.rglob("*.txt"))
                                              and any(p.rglob("*.parquet"))):
            return True
    return False


def _obfuscate_corpus(inputs: list[str], *, epsilon: float, embeddings: Path | None,
                      vocab_size: int, size: int | None, seed: int | None,
                      output: Path | None, fmt: str | None, decoder: str,
                      scheduler: str | None, workers: int | None, resume: bool,
                      quiet: bool, options: dict[str, Any] | None = None) -> None:
    """``obfuscate`` partition by partition: on a Dask cluster, or here with Parquet/--resume.

    Every worker loads the embeddings itself from the same path (once per process).
    """
    import contextlib

    from .distributed import CorpusRunError, MechanismSettings, dask_client, obfuscate_corpus

    if output is None:
        _fail("--workers, --scheduler, --resume and Parquet output need --output (partition "
              "files are written next to it)")
    if scheduler is not None and workers is not None:
        _fail("give either --scheduler or --workers, not both")
    if decoder not in ("exact", "approximate"):
        _fail(f"decoder must be one of 'exact', 'approximate'; got {decoder!r}")
    console = _stderr()
    settings = MechanismSettings(epsilon=epsilon, vocab_size=vocab_size, decoder=decoder,
                                 embeddings=None if embeddings is None
                                 else str(embeddings.absolute()))
    if seed is not None and not quiet:
        console.print("emprivacy: note: --seed makes the noise reproducible; do not use it "
                      "for a real release")
    cluster = (contextlib.nullcontext(None) if scheduler is None and workers is None
               else dask_client(scheduler=scheduler, n_workers=workers))
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress("[progress.description]{task.description}", BarColumn(),
                   MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                   transient=True, disable=quiet)
    try:
        with cluster as client:
            if client is not None and not quiet:
                console.print(f"emprivacy: Dask dashboard: {client.dashboard_link}")
            with bar:
                task = bar.add_task("Obfuscating", total=None)
                summary = obfuscate_corpus(
                    inputs, output, mechanism=settings, client=client, size=size, seed=seed,
                    format=fmt, resume=resume, obfuscator_options=options,
                    progress=lambda done, total: bar.update(task, completed=done, total=total))
    except CorpusRunError as exc:
        console.print(f"emprivacy: error: {exc}")
        raise typer.Exit(1) from None
    if not quiet:
        for doc_id in summary.skipped[:20]:
            console.print(f"emprivacy: warning: document {doc_id!r} is empty after "
                          "normalisation; skipped")
        if len(summary.skipped) > 20:
            console.print(f"emprivacy: warning: … and {len(summary.skipped) - 20} more")
        console.print(f"emprivacy: wrote {summary.documents_written} document(s) to {output} "
                      f"({summary.partitions_computed} partition(s) obfuscated"
                      + (f", {summary.partitions_reused} kept" if summary.partitions_reused
                         else "") + ")")


@app.command()
def distance(
    a: Annotated[Path, typer.Argument(help="First text file.", show_default=False)],
    b: Annotated[Path, typer.Argument(help="Second text file.", show_default=False)],
    embeddings: EmbeddingsOpt = None,
    vocab_size: VocabOpt = 100_000,
    size: Annotated[int | None, typer.Option("--size", "-N", min=1,
                                             help="Truncate both bags to N words.",
                                             show_default=False)] = None,
    epsilon: Annotated[float | None, typer.Option("--epsilon", "-e", help="Also print the "
                                                  "privacy multiplier exp(ε·N·E).",
                                                  show_default=False)] = None,
    metric: Annotated[str, typer.Option("--metric", help="euclidean or manhattan ground "
                                        "distance.")] = "euclidean",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Earth Mover's distance E between the bags of two text files (Def. 3)."""
    from .distance import earth_movers_distance
    from .text import bag_of_words

    if epsilon is not None:
        _check_epsilon(epsilon)
    if metric not in ("euclidean", "manhattan"):
        _fail(f"metric must be one of 'euclidean', 'manhattan'; got {metric!r}")
    texts = [read_text_file(a), read_text_file(b)]
    emb = _load(embeddings, vocab_size, quiet)
    bags = [emb.lookup(bag_of_words(t), size=size) for t in texts]
    for path, bag in zip((a, b), bags, strict=True):
        if bag.indices.size == 0:
            _fail(f"document {str(path)!r} has no word in the vocabulary of {emb.name!r}")
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
            from .guarantees import privacy_multiplier

            n = int(bags[0].indices.size)
            result["epsilon"] = epsilon
            result["privacy_multiplier"] = privacy_multiplier(epsilon, n, value)
        else:
            result["privacy_multiplier"] = None
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"earth_movers_distance: {value:.6g}  ({metric}, {emb.name}, "
               f"{len(emb)} words)")
    typer.echo(f"n_words: {result['n_words'][0]} {result['n_words'][1]}   "
               f"oov_dropped: {result['oov_dropped'][0]} {result['oov_dropped'][1]}")
    if epsilon is not None:
        if sizes_equal:
            typer.echo(f"privacy_multiplier exp(ε·N·E): {result['privacy_multiplier']:.6g}  "
                       f"(ε = {epsilon:g}, N = {result['n_words'][0]})")
        else:
            typer.echo("privacy_multiplier: not defined — the guarantee compares bags of the "
                       "same size N; use --size N")


@app.command()
def guarantee(
    epsilon: Annotated[float | None, typer.Option("--epsilon", "-e", help="Per-word ε (> 0).",
                                                  show_default=False)] = None,
    size: Annotated[int, typer.Option("--size", "-N", min=1, help="Bag size N.",
                                      show_default=False)] = 0,
    delta: Annotated[float | None, typer.Option("--delta", "-d", help="Utility radius Δ "
                                                "(Earth Mover's distance, ≥ 0).",
                                                show_default=False)] = None,
    dim: Annotated[int, typer.Option("--dim", "-n", min=1, help="Embedding dimension n.")
                   ] = 50,
    dist: Annotated[float | None, typer.Option("--distance", help="Earth Mover's distance E "
                                               "between two inputs: also print exp(ε·N·E).",
                                               show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """The paper's guarantees for given ε, N, Δ and n (Thm. 1, Thm. 3, App. A)."""
    import warnings

    from .guarantees import (
        appendix_utility_bound,
        paper_utility_bound,
        privacy_multiplier,
        utility_bound,
    )

    if epsilon is None:
        _fail("missing option '--epsilon'")
    if size == 0:
        _fail("missing option '--size'")
    if delta is None:
        _fail("missing option '--delta'")
    _check_epsilon(epsilon)
    if not math.isfinite(delta) or delta < 0:
        _fail(f"delta must be a finite number >= 0; got {delta!r}")
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
        if not math.isfinite(dist) or dist < 0:
            _fail(f"distance must be a finite number >= 0; got {dist!r}")
        result["distance"] = dist
        result["privacy_multiplier"] = privacy_multiplier(epsilon, size, dist)
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"ε = {epsilon:g}, N = {size}, Δ = {delta:g}, n = {dim}; ε·N = {epsilon * size:g}")
    typer.echo(f"utility lower bound P[E(b, Alg1(b)) ≤ Δ] ≥ {result['utility_bound']:.6g}  "
               "(valid: P(N·n, ε·N·Δ))")
    cond = "holds" if result["paper_thm3_condition_holds"] else "does not hold"
    typer.echo(f"paper's Thm. 3 expression: {paper:.6g}  (NOT a valid bound; its condition "
               f"εNΔ ≤ n/e {cond})")
    typer.echo(f"appendix expression before simplification: "
               f"{result['appendix_expression']:.6g}  (valid, often ≤ 0)")
    if dist is not None:
        typer.echo(f"privacy multiplier exp(ε·N·E) for E = {dist:g}: "
                   f"{result['privacy_multiplier']:.6g}")


def _parse_epsilons(text: str) -> list[float]:
    values: list[float] = []
    for item in text.replace(",", " ").split():
        try:
            value = float(item)
        except ValueError:
            _fail(f"epsilons must be numbers separated by commas or spaces; got {item!r}")
        values.append(_check_epsilon(value))
    if not values:
        _fail("epsilons must hold at least one value; got none")
    return sorted(set(values))


@app.command()
def calibrate(
    embeddings: EmbeddingsOpt = None,
    vocab_size: VocabOpt = 100_000,
    epsilons: Annotated[str | None, typer.Option("--epsilons", help="Values of ε, separated "
                                                 "by commas or spaces (default: 7 values from "
                                                 "median N_w 0.05 to 0.95).",
                                                 show_default=False)] = None,
    words_file: Annotated[Path | None, typer.Option("--words", help="File of words to study "
                                                    "(whitespace-separated; default: words "
                                                    "drawn by frequency from the vocabulary).",
                                                    show_default=False)] = None,
    n_words: Annotated[int, typer.Option("--n-words", min=1, help="Words drawn when --words "
                                         "is not given.")] = 1000,
    trials: Annotated[int, typer.Option("--trials", min=1, help="Runs of the mechanism per "
                                        "word.")] = 100,
    size: Annotated[int, typer.Option("--size", "-N", min=1, help="Document size N for ε·N "
                                      "and the utility bound.")] = 100,
    delta: Annotated[float | None, typer.Option("--delta", "-d", help="Utility radius Δ "
                                                "(default: median distance from a studied "
                                                "word to its nearest other word).",
                                                show_default=False)] = None,
    target: Annotated[float | None, typer.Option("--target-unchanged", help="Find the ε at "
                                                 "which the median N_w equals P (0 < P < 1).",
                                                 show_default=False)] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Reproducible draws.",
                                             show_default=False)] = None,
    plot: Annotated[Path, typer.Option("--plot", help="Write the PNG plot of N_w and S_w "
                                       "against ε here.")] = Path("calibration.png"),
    no_plot: Annotated[bool, typer.Option("--no-plot", help="Do not write the plot.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Choose ε: how often the mechanism leaves a word unchanged (Feyisetan et al. 2020).

    For each studied word w and --trials runs of the word-level mechanism: N_w, the
    fraction of runs returning w; S_w, the number of distinct words it turns into;
    the mean embedding distance moved; and, for a document of N words, ε·N and the
    valid utility lower bound P(N·n, ε·N·Δ). Printed as a table, plotted as a PNG.
    """
    import contextlib

    from .calibration import DeniabilityStudy, calibration_table, plot_calibration

    eps_list = None if epsilons is None else _parse_epsilons(epsilons)
    if target is not None and not (0.0 < target < 1.0):
        _fail(f"target_unchanged must be a number in (0, 1); got {target!r}")
    if delta is not None and (not math.isfinite(delta) or delta < 0):
        _fail(f"delta must be a finite number >= 0; got {delta!r}")
    if not no_plot and plot.parent != Path("") and not plot.parent.is_dir():
        _fail(f"plot directory {str(plot.parent)!r} does not exist")
    console = _stderr()
    emb = _load(embeddings, vocab_size, quiet)
    words = None
    if words_file is not None:
        from .text import normalise_word

        given = list(dict.fromkeys(normalise_word(w) for w in read_text_file(words_file).split()))
        words = [w for w in given if w in emb]
        if not words:
            _fail(f"no word of {str(words_file)!r} is in the vocabulary of {emb.name!r}")
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
        typer.echo(json.dumps(payload))
    else:
        what = ("median distance to the nearest other word" if delta is None else "given")
        typer.echo(f"{emb.name} ({len(emb)} words, n = {emb.dim}): {len(study.words)} words × "
                   f"{study.trials} trials; N = {study.size}, Δ = {study.delta:.4g} ({what})")
        typer.echo("N_w: fraction of trials returning the word; S_w: distinct outputs; "
                   "distance: mean embedding distance moved; utility: P(N·n, ε·N·Δ), a valid "
                   "lower bound on P[E(b, Alg1(b)) ≤ Δ]")
        typer.echo(calibration_table(results, target=found))
        if found is not None:
            typer.echo(f"target median N_w = {target:g}: ε = {found.epsilon:.4g} (measured "
                       f"median N_w = {found.median_unchanged:.3f}; ε·N = "
                       f"{found.epsilon_total:.4g})")
    if not no_plot and not quiet:
        console.print(f"emprivacy: wrote plot to {plot}")


from .evaluation.cli import register as _register_evaluate  # noqa: E402

_register_evaluate(app)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI, turning errors into one line on stderr and exit code 2."""
    command = typer.main.get_command(app)
    try:
        rv = command.main(args=argv, prog_name="emprivacy", standalone_mode=False)
        if rv == 130:  # typer turns KeyboardInterrupt into Exit(130) and returns its code
            print("emprivacy: interrupted", file=sys.stderr)
            return 130
        if isinstance(rv, int):  # a command's typer.Exit(code) is returned here, not raised
            return rv
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except typer.Abort:
        print("emprivacy: interrupted", file=sys.stderr)
        return 130
    except typer.TyperException as exc:  # usage errors: bad option values, missing arguments
        format_message = getattr(exc, "format_message", None)
        message = format_message() if callable(format_message) else str(exc)
        hint = f" (see '{exc.ctx.command_path} --help')" if getattr(exc, "ctx", None) else ""
        if message:
            print(f"emprivacy: error: {message}{hint}", file=sys.stderr)
        return 2
    except (CLIError, InputError, EmbeddingsFormatError, ValueError, TypeError) as exc:
        print(f"emprivacy: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("emprivacy: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
