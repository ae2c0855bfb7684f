"""``emprivacy audit``: how often the Bayes-optimal adversary recovers a released word.

A thin layer over :mod:`emprivacy.protection` (``emprivacy.protection``): everything is
checked before any work (one line, exit code 2), the audit runs with a progress bar,
and ``--out DIR`` gets ``audit.md``, ``audit.csv``, ``audit.json`` and the plot
``audit.png``, all or none of them.  Several mechanisms may be audited in one run
(``--mechanism madlib,tem``), each on the same secrets and the same seed.

The command's options are here; those that need more than a type are read and checked in
:mod:`.audit_options`, the work is done in :mod:`.audit_run`, and what is printed and
written in :mod:`.audit_outputs`.
"""

from __future__ import annotations

import secrets as _secrets
from typing import Annotated, Literal

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
    check_stdin,
    echo,
    fail,
    load,
    mechanism_list,
    parse_epsilon_list,
    stderr,
)
from emprivacy.cli.audit_options import (
    check_out,
    check_out_name,
    check_reconstruct,
    check_sizes,
    parse_distinguish,
    plot_missing,
    read_documents,
)
from emprivacy.cli.audit_outputs import (
    print_entities,
    print_reconstruction,
    print_text,
    recorded_settings,
    write_outputs,
)
from emprivacy.cli.audit_run import (
    build_mechanisms,
    detect_entities,
    pick_pairs,
    read_corpus,
    run_audits,
    substream,
)
from emprivacy.cli.obfuscate_entities import (
    EntitiesOpt,
    EntityEpsilonOpt,
    EntityPolicyOpt,
    check_entity_options,
    entities_asked,
)

__all__ = ["audit"]

Prior = Literal["corpus", "zipf", "uniform"]


def audit(
    epsilon: Annotated[str, typer.Option(
        "--epsilon", "-e", help="Per-word ε: one value, or several separated by commas.",
        show_default=False, metavar="EPSILONS")],
    inputs: Annotated[list[str] | None, typer.Argument(
        help="The corpus: its most frequent content words are the secrets and their "
        "frequencies the prior. Text files, directories (every *.txt inside), '-' for "
        "stdin, .jsonl or .parquet files. Default: the vocabulary's first content words, "
        "Zipf prior.", show_default=False, metavar="CORPUS")] = None,
    mechanism: Annotated[str, typer.Option(
        "--mechanism", help="madlib (the paper's), mahalanobis, vickrey, tem or santext "
        "(docs/MECHANISMS.md); several separated by commas, e.g. madlib,tem,santext.",
        metavar="NAMES")] = "madlib",
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="A parameter of --mechanism as NAME=VALUE, e.g. beta=0.01 for tem, "
        "rank_resample=0.04; with several mechanisms MECHANISM.NAME=VALUE, e.g. "
        "tem.beta=0.01 (repeatable).", show_default=False, metavar="NAME=VALUE")] = None,
    n_secrets: Annotated[int, typer.Option(
        "--secrets", min=1, callback=limits.at_most(limits.MAX_WORDS, "words", "no "
                                                    "vocabulary holds more"),
        help="How many secret words K (the most frequent content "
        "words; fewer if the corpus or vocabulary has fewer, with a note).",
        metavar="K")] = 2000,
    draws: Annotated[int, typer.Option(
        "--draws", min=2, callback=limits.draws,
        help="Releases per secret word for a sampled channel (madlib, "
        "mahalanobis, vickrey); tem and santext are computed exactly. K x D releases that "
        "need more memory than is available are refused before any work.",
        metavar="D")] = 500,
    prior: Annotated[Prior | None, typer.Option(
        "--prior", help="The adversary's prior over the secrets: corpus (word frequencies "
        "of CORPUS; the default with a corpus), zipf (by vocabulary rank; the default "
        "without) or uniform.", show_default=False, metavar="[corpus|zipf|uniform]")] = None,
    top: Annotated[int, typer.Option(
        "--top", min=1, callback=limits.at_most(limits.MAX_WORDS, "words", "no vocabulary "
                                                "holds more"),
        help="How many of the most exposed words to list.",
        metavar="N")] = 20,
    out: Annotated[str | None, typer.Option(
        "--out", "-o", help="Also write audit.md, audit.csv, audit.json and the plot "
        "audit.png into this directory (created if needed; its parent must exist; the plot "
        "needs the evaluation extra's matplotlib, else it is skipped with a warning). Files "
        "of an earlier audit there that this one does not write are removed.",
        show_default=False, metavar="DIR")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object per mechanism and ε (JSON Lines).")] = False,
    distinguish: Annotated[str | None, typer.Option(
        "--distinguish", help="Also measure ε̂, a lower bound on the privacy loss, beside "
        "the nominal ε·d: a number of word pairs to pick from the secrets at a spread of "
        "distances, or a file of word pairs (two words a line).", show_default=False,
        metavar="PAIRS")] = None,
    distinguish_documents: Annotated[str | None, typer.Option(
        "--distinguish-documents", help="Also measure ε̂ for two documents of one layout "
        "(text mode: the same text around the perturbed words), beside the nominal "
        "ε·Σd: two UTF-8 text files separated by a comma.", show_default=False,
        metavar="A.txt,B.txt")] = None,
    distinguish_draws: Annotated[int, typer.Option(
        "--distinguish-draws", min=2, callback=limits.draws,
        help="Releases of each word of a --distinguish "
        "pair, or of each --distinguish-documents document.", metavar="D")] = 10_000,
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, help="Seed of the sampled channel's draws (default: random, "
        "recorded in audit.json).", show_default=False, metavar="SEED")] = None,
    reconstruct: Annotated[bool, typer.Option(
        "--reconstruct", help="Also release CORPUS and attack the release: how many of its "
        "content words an adversary with the channel, the prior and a language model gets "
        "back (docs/AUDIT.md, Reconstruction).")] = False,
    mode: Annotated[Literal["text", "bag"] | None, typer.Option(
        "--mode", help="--reconstruct: release readable text (the default; the attack "
        "reads the context) or bags of words (no context).", show_default=False,
        metavar="[text|bag]")] = None,
    reference: Annotated[list[str] | None, typer.Option(
        "--reference", help="--reconstruct --mode text: the adversary's reference text for "
        "its n-gram model (files or directories, repeatable). Default: half of CORPUS, the "
        "other half being released and attacked.", show_default=False,
        metavar="PATH")] = None,
    ngram: Annotated[int | None, typer.Option(
        "--ngram", min=2, max=3, help="--reconstruct --mode text: the n-gram model's n "
        "(default 3).", show_default=False, metavar="N")] = None,
    entities: EntitiesOpt = "none",
    entity_epsilon: EntityEpsilonOpt = 1.0,
    entity_policy: EntityPolicyOpt = None,
    embeddings: EmbeddingsOpt = None,
    embeddings_encoding: EncodingOpt = "utf-8",
    vocab_size: VocabOpt = DEFAULT_VOCAB_SIZE,
    quiet: QuietOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Audit a mechanism: how often the Bayes-optimal adversary recovers a released word.

    For each ε: the prior vulnerability V(π) (the best blind guess), the posterior
    vulnerability V(π▷C) (the best guess after seeing the release), the multiplicative
    leakage V(π▷C)/V(π), the capacity (the leakage under the worst prior), the success
    of the attack actually run, and the most exposed words. TEM and SanText are
    computed exactly; the other mechanisms are sampled, and their figures are
    estimates with intervals (docs/AUDIT.md).

    Several mechanisms (--mechanism madlib,tem,santext) are audited on the same secrets,
    each with the same seed; --out DIR also gets the plot audit.png: recovery against ε
    per mechanism, and the most exposed words.

    With --distinguish, also ε̂: a lower bound on the privacy loss of word pairs
    (--distinguish-documents: of two documents of one layout), beside ε·d.

    With --reconstruct, CORPUS is also released (--mode text or bag) and attacked: the
    share of its content words an adversary gets back from the release with the
    channel, the prior and an n-gram model of the other half of CORPUS (or --reference).

    Examples:

    \b
      emprivacy audit my_docs/ -e 5,10,20 --out audit/
      emprivacy audit my_docs/ --mechanism madlib,tem,santext -e 1,5,10 \\
          --param tem.beta=0.01 --out audit/
      emprivacy audit -e 10 --mechanism tem --secrets 500 --json
      emprivacy audit my_docs/ -e 5 --distinguish 8 --reconstruct
    """
    from emprivacy.io import expand_inputs

    eps_list = parse_epsilon_list(epsilon)
    names, params = mechanism_list(mechanism, param or [], option="mechanism",
                                   verb="audited")
    check_encoding(embeddings_encoding)
    corpus = list(inputs or [])
    if prior == "corpus" and not corpus:
        fail("--prior corpus needs a CORPUS to count words in; give one, or use --prior "
             "zipf or uniform")
    references = check_reconstruct(reconstruct, corpus, mode, reference, ngram)
    if reconstruct and mode == "bag" and entities_asked(entities, entity_epsilon, entity_policy):
        fail("--entities, --entity-epsilon and --entity-policy apply to --mode text: bags "
             "do not detect entities yet")
    ent = (check_entity_options(entities, entity_epsilon, entity_policy or [], quiet, lang)
           if entities_asked(entities, entity_epsilon, entity_policy) else None)
    files = [str(f.path) for f in expand_inputs([*corpus, *references]) if f.kind != "stdin"]
    stdin = check_stdin(corpus)
    n_pairs, pairs_file = parse_distinguish(distinguish)
    doc_files, doc_texts = read_documents(distinguish_documents)
    out_dir = check_out_name(out)
    skipped = None  # why the plot is not written (no matplotlib)
    if out_dir is not None:
        check_out(out_dir, [*corpus, *references, *files, *doc_files,
                        *([str(embeddings)] if embeddings else []),
                        *([pairs_file] if pairs_file else [])], reconstruct=reconstruct,
                  entities=ent is not None)
        skipped = plot_missing()
    if seed is None:
        seed = _secrets.randbelow(2**63)

    from emprivacy.math import check_random_state
    from emprivacy.protection import document_positions, secret_words, strict_json

    console = stderr()
    emb = load(embeddings, vocab_size, quiet, embeddings_encoding, lang)
    counts, documents, ref_docs = read_corpus(corpus, stdin, reconstruct=reconstruct, mode=mode,
                                              references=references, console=console,
                                              quiet=quiet, in_memory=ent is not None, lang=lang)
    try:
        chosen = secret_words(emb, k=n_secrets, counts=counts, prior=prior, lang=lang)
    except ValueError as exc:
        fail(str(exc))
    if len(chosen) < n_secrets and not quiet:
        where = "the corpus holds" if corpus else f"the vocabulary of {emb.name!r} holds"
        console.print(f"emprivacy: note: --secrets {n_secrets}: {where} {len(chosen):,} "
                      f"content words of the vocabulary; auditing those", markup=False,
                      highlight=False)
    positions = None
    if doc_texts is not None:  # one layout, some word differing: checked before any work
        try:
            positions = document_positions(emb, *doc_texts, labels=doc_files)
        except ValueError as exc:
            fail(f"--distinguish-documents: {exc}")
    mechanisms = build_mechanisms(names, params, eps_list, emb)
    # ε̂ draws from a stream of its own: asking for it leaves the other figures as they are;
    # the pairs are picked once, in the first mechanism's metric, for every mechanism and ε
    hat_start = check_random_state(substream(seed))
    pairs = pick_pairs(mechanisms[0][0], chosen, n_pairs, pairs_file, hat_start)
    check_sizes([row[0] for row in mechanisms], len(chosen), draws, pairs=pairs,
                positions=positions, distinguish_draws=distinguish_draws)
    entity_words = detect_entities(ent, mechanisms[0][0], documents, lang)
    audits, recons, ents = run_audits(
        mechanisms, chosen, draws=draws, seed=seed, pairs=pairs, hat_start=hat_start,
        distinguish_draws=distinguish_draws, doc_texts=doc_texts, doc_files=doc_files,
        reconstruct=reconstruct, documents=documents, mode=mode, ref_docs=ref_docs,
        ngram=ngram, console=console, quiet=quiet, entities=ent, entity_words=entity_words,
        lang=lang)
    if as_json:
        for i, a in enumerate(audits):
            obj = a.summary(top=top)
            if ents:
                obj["entities"] = ents[i].summary(top=top)
            if recons:
                obj["reconstruction"] = recons[i].summary()
            echo(strict_json(obj))
    else:
        print_text(audits, emb, top)
        if ents:
            print_entities(ents)
        if recons:
            print_reconstruction(recons)
    if out_dir is not None:
        settings = recorded_settings(
            corpus=corpus, names=names, params=params, eps_list=eps_list,
            n_secrets=n_secrets, draws=draws, chosen=chosen, seed=seed, emb=emb,
            embeddings=embeddings, vocab_size=vocab_size, distinguish=distinguish,
            pairs=pairs, pairs_file=pairs_file, distinguish_documents=distinguish_documents,
            doc_files=doc_files, doc_texts=doc_texts, distinguish_draws=distinguish_draws,
            reconstruct=reconstruct, mode=mode, references=references, ngram=ngram,
            entities=ent)
        written, removed = write_outputs(out_dir, audits, settings, top, recons,
                                         plot=skipped is None, entities=ents)
        if not quiet:
            console.print(f"emprivacy: wrote {', '.join(written)} to {out_dir} (seed {seed})"
                          + (f"; removed {', '.join(removed)}, left there by an earlier "
                             "audit" if removed else ""), markup=False, highlight=False)
    if skipped is not None and not quiet:
        console.print(f"emprivacy: warning: no plot written: {skipped}", markup=False,
                      highlight=False)
