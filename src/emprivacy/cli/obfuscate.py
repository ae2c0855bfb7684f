"""``emprivacy obfuscate``: documents in, noisy bags or readable text out."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from emprivacy.cli import limits
from emprivacy.cli._common import (
    DEFAULT_VOCAB_SIZE,
    DeviceOpt,
    EmbeddingsOpt,
    EncodingOpt,
    LangOpt,
    QuietOpt,
    VocabOpt,
    check_device,
    check_encoding,
    check_epsilon,
    check_output_name,
    check_stdin,
    claim_output,
    exact_decoder,
    fail,
    flag,
    load,
    mechanism_params,
    progress_bar,
    stderr,
    track,
    warner,
)
from emprivacy.cli.obfuscate_entities import (
    EntitiesOpt,
    EntityEpsilonOpt,
    EntityKeyOpt,
    EntityNamesOpt,
    EntityPolicyOpt,
    entity_config,
    with_entity_key,
    with_entity_names,
)
from emprivacy.cli.obfuscate_run import cluster as _cluster
from emprivacy.cli.obfuscate_run import interruption as _interruption
from emprivacy.cli.obfuscate_run import nothing_kept as _nothing_kept
from emprivacy.cli.obfuscate_run import tidy_after as _tidy_after
from emprivacy.cli.obfuscate_table import (
    COUNT_CHANGED_HELP,
    ID_COLUMN_HELP,
    TEXT_COLUMN_HELP,
    check_table_options,
    is_table_run,
    table_run,
    unchanged_note,
)
from emprivacy.exceptions import PrivacyLeakWarning

if TYPE_CHECKING:  # pragma: no cover
    from emprivacy.embeddings import Embeddings
    from emprivacy.mechanisms import WordMechanism
    from emprivacy.obfuscation import ObfuscationConfig

__all__ = ["obfuscate"]

PROGRESS_MIN_DOCUMENTS = 5
PROGRESS_MIN_BYTES = 200_000
SEED_NOTE = "emprivacy: note: --seed makes the noise reproducible; do not use it for a real release"
OOV_KEEP_WARNING = ("emprivacy: warning: --oov keep releases out-of-vocabulary words unchanged; "
                    "the privacy guarantee does not cover them (counted in 'oov_kept')")

FORMAT_HELP = ("bag: noisy words, one document per line; jsonl: one JSON record per document "
               "(default: jsonl for several documents, a directory or JSONL; bag for one); "
               "text: readable text, the layout kept and each word replaced in place; "
               "parquet: a directory of Parquet files (default when --output ends in "
               ".parquet).")

Format = Literal["bag", "jsonl", "text", "parquet"]
OOV = Literal["drop", "placeholder", "keep", "subword"]
DecoderName = Literal["exact", "approximate"]
IdFrom = Literal["path", "index", "hash"]
ID_FROM_HELP = ("What each record's id says: path (the file's path as given, or a JSONL/Parquet "
                "record's own id), index (its position in the input, from 0) or hash (a hash "
                "of its id keyed by the run's secret key, which a guessed file name cannot be "
                "tested against unless --seed is given: whoever knows the seed can). Also in "
                "warnings. With index or hash no file name, nor anything computed from one, "
                "is released (records, warnings, a Parquet _manifest.json). The noise does "
                "not depend on it.")


def obfuscate(
    epsilon: Annotated[float, typer.Option("--epsilon", "-e", help="Per-word privacy "
                                           "parameter ε (> 0).", show_default=False)],
    inputs: Annotated[list[str] | None, typer.Argument(
        help="Text files, directories (every *.txt inside), '-' for stdin, .jsonl files "
        "({\"id\": ..., \"text\": ...} per line) or .parquet files (id and text columns).",
        show_default=False)] = None,
    embeddings: EmbeddingsOpt = None,
    embeddings_encoding: EncodingOpt = "utf-8",
    vocab_size: VocabOpt = DEFAULT_VOCAB_SIZE,
    size: Annotated[int | None, typer.Option("--size", "-N", min=1, callback=limits.bag_size,
                                             help="Truncate every longer "
                                             "bag to its first N privatised words; shorter "
                                             "bags are not padded (records show n_words and "
                                             "size).", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Reproducible noise. Not "
                                             "for real releases.", show_default=False)] = None,
    output_name: Annotated[str | None, typer.Option("--output", "-o", help="Write here "
                                                    "(atomically) instead of stdout.",
                                                    show_default=False, metavar="PATH")
                           ] = None,
    fmt: Annotated[Format | None, typer.Option("--format", "-f", help=FORMAT_HELP,
                                               show_default=False)] = None,
    readable: Annotated[bool, flag("--readable", "Text mode with any record format: records "
                                   "carry the readable 'text' (implied by --format text).")
                        ] = False,
    oov: Annotated[OOV | None, typer.Option(
        "--oov", help="Out-of-vocabulary words: drop (default for bags), placeholder ([UNK], "
        "default for text), keep (released unchanged, NOT covered by the guarantee) or "
        "subword (privatised from their character n-gram vectors like any word, same "
        "guarantee; needs --embeddings model.bin, a fastText model).",
        show_default=False)] = None,
    perturb_stopwords: Annotated[bool, typer.Option("--perturb-stopwords", help="Text mode: "
                                                    "send stopwords through the mechanism "
                                                    "too (kept by default: no topic, but "
                                                    "style).")] = False,
    decoder: Annotated[DecoderName, typer.Option("--decoder", help="exact or approximate "
                                                 "nearest-word decoding (post-processing; "
                                                 "same guarantee).")] = "exact",
    device: DeviceOpt = "cpu",
    mechanism: Annotated[str, typer.Option(
        "--mechanism", help="madlib (the paper's), mahalanobis, vickrey, tem or santext "
        "(docs/MECHANISMS.md).")] = "madlib",
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="A parameter of --mechanism as NAME=VALUE, e.g. beta=0.01 for tem, "
        "t=0.5 for vickrey, rank_resample=0.04 (repeatable).", show_default=False)] = None,
    quiet: QuietOpt = False,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Run on this Dask "
                                                  "cluster (tls://host:8786, certificates "
                                                  "from Dask's configuration); inputs, "
                                                  "embeddings and --output must be on storage "
                                                  "every worker can read.",
                                                  show_default=False)] = None,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="Run on a local Dask "
                                                "cluster of K worker processes (TLS, "
                                                "127.0.0.1 only: no other process can use it).",
                                                show_default=False)] = None,
    dashboard: Annotated[bool, flag("--dashboard", "With --workers: start the Dask dashboard "
                                    "on 127.0.0.1 (needs bokeh) and print its address.")
                         ] = False,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run into "
                                         "the same --output: complete partitions are kept.")
                      ] = False,
    id_from: Annotated[IdFrom, typer.Option("--id-from", help=ID_FROM_HELP)] = "path",
    entities: EntitiesOpt = "none",
    entity_epsilon: EntityEpsilonOpt = 1.0,
    entity_policy: EntityPolicyOpt = None,
    entity_key: EntityKeyOpt = None,
    entity_names: EntityNamesOpt = None,
    text_column: Annotated[str | None, typer.Option("--text-column", help=TEXT_COLUMN_HELP,
                                                    show_default=False)] = None,
    id_column: Annotated[str | None, typer.Option("--id-column", help=ID_COLUMN_HELP,
                                                  show_default=False)] = None,
    count_changed: Annotated[bool, flag("--count-changed", COUNT_CHANGED_HELP)] = False,
    style_epsilon: Annotated[float | None, typer.Option(
        "--style-epsilon", help="Text mode, the style option (off by default): each kept "
        "function word is drawn within its grammatical class at this ε_f (ε_f per word in "
        "epsilon_total), punctuation and spacing in one canonical form (docs/TEXT_MODE.md).",
        show_default=False)] = None,
    lang: LangOpt = "en",
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
    from emprivacy.io import survey_inputs

    output = check_output_name(output_name, "--output",
                               "a directory" if fmt == "parquet" else "a file")
    check_epsilon(epsilon)
    check_encoding(embeddings_encoding)
    if dashboard and workers is None:
        fail("--dashboard applies to a local cluster (--workers K); the dashboard of a "
             "--scheduler cluster is set up where its scheduler is started")
    chosen = _mechanism_choice(mechanism, param or [], decoder, device)
    workers = limits.capped_to_cores(workers, "--workers", warner(quiet))
    if scheduler is None:  # a cluster's workers have their own devices
        check_device(device)
    text_mode = readable or fmt == "text"
    config = _config(text_mode=text_mode, fmt=fmt, oov=oov, size=size,
                     perturb_stopwords=perturb_stopwords, id_from=id_from,
                     count_changed=count_changed, style_epsilon=style_epsilon,
                     lang=lang)
    if entities.strip().lower() != "none" or entity_policy or entity_epsilon != 1.0:
        config = entity_config(config, entities, entity_epsilon, entity_policy or [], quiet)
    config = with_entity_key(config, entity_key)
    config = with_entity_names(config, entity_names)
    if config.oov == "subword":
        _check_subword(embeddings, chosen[0])
    table = is_table_run(inputs, output, fmt, distributed=(
        scheduler is not None or workers is not None or resume))
    check_table_options(table, text_column=text_column, id_column=id_column, id_from=id_from)
    if table:
        assert inputs is not None and output is not None  # is_table_run says so
        _table(inputs[0], output, epsilon=epsilon, embeddings=embeddings,
               encoding=embeddings_encoding, vocab_size=vocab_size, config=config, seed=seed,
               decoder=decoder, device=device, chosen=chosen, text_column=text_column,
               id_column=id_column, quiet=quiet, key_files=(entity_key, entity_names))
        return
    partitioned = (scheduler is not None or workers is not None or resume or fmt == "parquet"
                   or (output is not None and output.suffix.lower() == ".parquet"))
    survey = None if partitioned else survey_inputs(inputs or ["-"])
    # Parquet inputs into a file are a partitioned run (resumable with --resume); to
    # stdout, or as one stream of text, they are read here, a row group at a time
    if survey is None or (survey.has_parquet and output is not None and fmt != "text"):
        if fmt == "text":
            fail("--format text writes one stream of text; with --workers, --scheduler, "
                 "--resume or Parquet output use --readable with --format jsonl or parquet")
        _corpus_run(inputs or [], epsilon=epsilon, embeddings=embeddings,
                    encoding=embeddings_encoding, vocab_size=vocab_size, config=config,
                    seed=seed, output=output, fmt=fmt,
                    decoder=decoder, device=device, chosen=chosen, scheduler=scheduler,
                    workers=workers,
                    dashboard=dashboard, resume=resume, quiet=quiet,
                    key_files=(entity_key, entity_names))
        return
    if fmt is None:
        fmt = ("jsonl" if survey.structured or survey.documents > 1
               else "text" if text_mode else "bag")
    _single_process(inputs or ["-"], epsilon=epsilon, embeddings=embeddings,
                    encoding=embeddings_encoding, vocab_size=vocab_size, config=config,
                    seed=seed, output=output, fmt=fmt,
                    decoder=decoder, device=device, chosen=chosen, quiet=quiet,
                    key_files=(entity_key, entity_names),
                    show=(survey.documents > PROGRESS_MIN_DOCUMENTS
                          or survey.bytes > PROGRESS_MIN_BYTES), total=survey.documents)


def _check_subword(embeddings: Path | None, mechanism: str) -> None:
    """``--oov subword`` needs a fastText model with subword vectors and a mechanism that
    privatises arbitrary points: checked before any work (one line if not)."""
    from emprivacy.embeddings import header_has_subwords
    from emprivacy.mechanisms import MECHANISMS

    if embeddings is None or not header_has_subwords(embeddings):
        name = "glove-6b-50d" if embeddings is None else embeddings.name
        fail(f"oov='subword' needs a fastText .bin model with subword vectors; {name!r} "
             "has none")
    cls = MECHANISMS.get(mechanism)
    if cls is not None and not cls.supports_points:
        fail(f"mechanism {mechanism!r} does not support --oov subword")


def _mechanism_choice(name: str, pairs: list[str], decoder: str, device: str = "cpu"
                      ) -> tuple[str, dict[str, Any]]:
    """``--mechanism`` and its ``--param NAME=VALUE`` pairs, checked (one line if not)."""
    if device != "cpu" and decoder != "exact":
        fail(f"--device {device} applies to --decoder exact; got {decoder!r}")
    if name == "madlib" and not pairs:  # the default: no need to import every mechanism
        return name, {}
    from emprivacy.mechanisms import takes_decoder

    params = mechanism_params(name, pairs)
    if "decoder" in params:
        fail("give the decoder with --decoder, not --param")
    if decoder != "exact" and not takes_decoder(name):
        fail(f"--decoder applies to the nearest-word mechanisms (madlib, mahalanobis, "
             f"vickrey); {name!r} has none")
    if device != "cpu" and not takes_decoder(name):
        fail(f"--device {device} applies to the nearest-word mechanisms (madlib, mahalanobis, "
             f"vickrey); {name!r} has none")
    return name, params


def _config(*, text_mode: bool, fmt: str | None, oov: str | None, size: int | None,
            perturb_stopwords: bool, id_from: str = "path",
            count_changed: bool = False, style_epsilon: float | None = None,
            lang: str = "en") -> ObfuscationConfig:
    """The run's :class:`~emprivacy.obfuscation.ObfuscationConfig`, or a usage error."""
    from emprivacy.obfuscation import ObfuscationConfig

    if text_mode and fmt == "bag":
        fail("--readable releases text; use --format text, jsonl or parquet")
    if perturb_stopwords and not text_mode:
        fail("--perturb-stopwords applies to text mode (--format text or --readable)")
    if text_mode and size is not None:
        fail("--size applies to bags of words; text mode releases the whole text")
    if style_epsilon is not None:
        if not text_mode:
            fail("--style-epsilon applies to text mode (--format text or --readable)")
        if perturb_stopwords:
            fail("--style-epsilon and --perturb-stopwords exclude each other")
        if lang != "en":
            fail(f"--style-epsilon applies to English text; the function-word classes of "
                 f"--lang {lang} are not written")
        if not math.isfinite(style_epsilon) or style_epsilon <= 0:
            fail(f"--style-epsilon must be a finite number > 0; got {style_epsilon:g}")
    return ObfuscationConfig(mode="text" if text_mode else "bag", oov=oov, size=size,
                             perturb_stopwords=perturb_stopwords, id_from=id_from,
                             count_changed=count_changed, style_epsilon=style_epsilon,
                             lang=lang)


def _single_process(inputs: list[str], *, epsilon: float, embeddings: Path | None,
                    encoding: str, vocab_size: int, config: ObfuscationConfig, seed: int | None,
                    output: Path | None, fmt: str, decoder: str, device: str,
                    chosen: tuple[str, dict[str, Any]], quiet: bool,
                    key_files: tuple[Path | None, ...] = (), show: bool,
                    total: int) -> None:
    """``obfuscate`` in this process, streaming records to the output."""
    from emprivacy.io import atomic_output, iter_documents, write_record
    from emprivacy.obfuscation import Obfuscator

    stdin = check_stdin(inputs)
    # now, not after loading the embeddings: a usable path, not an input; held for the run
    with _nothing_kept(resumable=output is not None and stdin is None and fmt != "text"), \
            claim_output(output, inputs, fmt, reads=[embeddings, *key_files]):
        console = stderr()
        mech = _mechanism(chosen, load(embeddings, vocab_size, quiet, encoding, config.lang),
                          epsilon=epsilon, decoder=decoder, device=device)
        if seed is not None and not quiet:
            console.print(SEED_NOTE)
        with warnings.catch_warnings():  # entities kept: said once above, in one line
            warnings.simplefilter("ignore", PrivacyLeakWarning)
            obf = Obfuscator(mech, config, seed=seed, on_warning=(
                (lambda msg: None) if quiet
                else (lambda msg: console.print(f"emprivacy: warning: {msg}",
                                                markup=False))))
        if config.oov == "keep":
            console.print(OOV_KEEP_WARNING)
        # a long document's record comes with its text or bag in a body, written in pieces
        records = obf.stream(iter_documents(inputs, stdin=stdin))
        with atomic_output(output) as out, warnings.catch_warnings():
            warnings.simplefilter("ignore", PrivacyLeakWarning)  # said once above, in one line
            for record in track(records, total, show=show and not quiet, console=console):
                write_record(record, fmt, out.write)
    if not quiet and output is not None:
        console.print(f"emprivacy: wrote {obf.documents_written} document(s) to {output}"
                      + _skipped(obf.documents_skipped - obf.documents_out_of_vocabulary,
                                 obf.documents_out_of_vocabulary)
                      + (f"; {obf.oov_kept} out-of-vocabulary word(s) released unchanged"
                         if config.oov == "keep" else "")
                      + (f"; {obf.oov_subword} out-of-vocabulary word(s) privatised from "
                         "subword vectors" if config.oov == "subword" else "")
                      + unchanged_note(obf.documents_unchanged, obf.documents_with_words,
                                       "document"), markup=False)


def _mechanism(chosen: tuple[str, dict[str, Any]], emb: Embeddings, *, epsilon: float,
               decoder: str, device: str) -> WordMechanism:
    """The run's mechanism: ``--mechanism`` and its ``--param`` values, ε, the decoder on
    ``--device``."""
    from emprivacy.mechanisms import EarthMoversPrivacy, make_mechanism, takes_decoder

    name, params = chosen
    dec = exact_decoder(emb, device) or decoder
    if name == "madlib" and not params:
        return EarthMoversPrivacy(emb, epsilon=epsilon, decoder=dec)
    if takes_decoder(name):
        params = {**params, "decoder": dec}
    return make_mechanism(name, emb, epsilon=epsilon, **params)


def _table(source: str, output: Path, *, epsilon: float, embeddings: Path | None,
           encoding: str, vocab_size: int, config: ObfuscationConfig, seed: int | None,
           decoder: str, device: str, chosen: tuple[str, dict[str, Any]],
           text_column: str | None, id_column: str | None, quiet: bool,
           key_files: tuple[Path | None, ...] = ()) -> None:
    """``obfuscate`` of a Parquet table into a Parquet table (:mod:`.obfuscate_table`)."""
    # now, not after loading the embeddings: a usable path, not the input; held for the run
    with claim_output(output, [source], "parquet", reads=[embeddings, *key_files]):
        console = stderr()

        def mechanism() -> WordMechanism:
            mech = _mechanism(chosen, load(embeddings, vocab_size, quiet, encoding, config.lang),
                              epsilon=epsilon, decoder=decoder, device=device)
            if seed is not None and not quiet:
                console.print(SEED_NOTE)
            if config.oov == "keep":
                console.print(OOV_KEEP_WARNING)
            return mech

        table_run(source, output, mechanism=mechanism, config=config, seed=seed,
                  text_column=text_column, id_column=id_column, quiet=quiet, console=console)


def _corpus_run(inputs: list[str], *, epsilon: float, embeddings: Path | None,
                encoding: str, vocab_size: int, config: ObfuscationConfig, seed: int | None,
                output: Path | None, fmt: str | None, decoder: str, device: str,
                chosen: tuple[str, dict[str, Any]], scheduler: str | None,
                workers: int | None, dashboard: bool, resume: bool, quiet: bool,
                key_files: tuple[Path | None, ...] = ()) -> None:
    """``obfuscate`` partition by partition: on a Dask cluster, or here with Parquet/--resume.

    Every worker loads the embeddings itself from the same path (once per process).
    """
    from emprivacy.distributed import MechanismSettings, obfuscate_corpus
    from emprivacy.obfuscation import SKIPPED_EMPTY, SKIPPED_OUT_OF_VOCABULARY, skipped_warning

    if output is None:
        fail("--workers, --scheduler, --resume and Parquet output need --output (partition "
             "files are written next to it)")
    if scheduler is not None and workers is not None:
        fail("give either --scheduler or --workers, not both")
    parquet = fmt == "parquet" or (fmt is None and output.suffix.lower() == ".parquet")
    # now, not after starting a cluster: a usable path, not an input; held for the run
    claim = claim_output(output, inputs, "parquet" if parquet else fmt or "jsonl",
                         partitioned=True, reads=[embeddings, *key_files])
    console = stderr()
    if config.oov == "keep":
        console.print(OOV_KEEP_WARNING)
    settings = MechanismSettings(epsilon=epsilon, vocab_size=vocab_size, decoder=decoder,
                                 device=device, mechanism=chosen[0],
                                 params=tuple(chosen[1].items()),
                                 embeddings=None if embeddings is None
                                 else str(embeddings.absolute()), encoding=encoding,
                                 lang=config.lang)
    if seed is not None and not quiet:
        console.print(SEED_NOTE)
    cluster = _cluster(console, scheduler=scheduler, workers=workers, dashboard=dashboard,
                       quiet=quiet)
    with claim, _tidy_after(output, "parquet" if parquet else fmt or "jsonl"):
        with cluster as client, warnings.catch_warnings(), _interruption():
            warnings.simplefilter("ignore", PrivacyLeakWarning)  # said once above, in one line
            with progress_bar(console, show=not quiet) as bar:
                task = bar.add_task("Obfuscating", total=None)
                summary = obfuscate_corpus(
                    inputs, output, mechanism=settings, config=config, client=client,
                    seed=seed, format=fmt, resume=resume,
                    progress=lambda done, total: bar.update(task, completed=done, total=total))
    if not quiet:
        oov = set(summary.skipped_out_of_vocabulary)
        name = summary.metadata["embeddings"]["name"]
        for doc_id in summary.skipped[:20]:
            reason = SKIPPED_OUT_OF_VOCABULARY if doc_id in oov else SKIPPED_EMPTY
            console.print("emprivacy: warning: " + skipped_warning(doc_id, reason, name),
                          markup=False)
        if len(summary.skipped) > 20:
            console.print(f"emprivacy: warning: … and {len(summary.skipped) - 20} more")
        console.print(f"emprivacy: wrote {summary.documents_written} document(s) to {output} "
                      f"({summary.partitions_computed} partition(s) obfuscated"
                      + (f", {summary.partitions_reused} kept" if summary.partitions_reused
                         else "") + ")"
                      + _skipped(len(summary.skipped) - len(oov), len(oov))
                      + unchanged_note(summary.documents_unchanged,
                                       summary.documents_with_words, "document"),
                      markup=False)


def _skipped(empty: int, out_of_vocabulary: int) -> str:
    """What the summary line says of the skipped documents (nothing if none was)."""
    said = ([f"{empty} empty"] if empty else []) + (
        [f"{out_of_vocabulary} with no word in the vocabulary"] if out_of_vocabulary else [])
    return f"; skipped {', '.join(said)}" if said else ""
