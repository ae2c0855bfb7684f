"""``emprivacy audit``: how often the Bayes-optimal adversary recovers a released word.

A thin layer over :mod:`emprivacy.protection` (``emprivacy.protection``): everything is
checked before any work (one line, exit code 2), the audit runs with a progress bar,
and ``--out DIR`` gets ``audit.md``, ``audit.csv``, ``audit.json`` and the plot
``audit.png``, all or none of them.  Several mechanisms may be audited in one run
(``--mechanism madlib,tem``), each on the same secrets and the same seed.
"""

from __future__ import annotations

import contextlib
import json
import math
import secrets as _secrets
import shlex
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
    check_stdin,
    echo,
    fail,
    load,
    mechanism_list,
    progress_bar,
    stderr,
)
from emprivacy.cli.tools import _parse_epsilons

__all__ = ["AUDIT_FILES", "DISTINGUISH_FILE", "PLOT_FILE", "audit"]

#: The files ``--out DIR`` receives.
AUDIT_FILES = ("audit.md", "audit.csv", "audit.json")
#: ... and the plot, where matplotlib (the ``evaluation`` extra) is installed.
PLOT_FILE = "audit.png"
#: The file ``--out DIR`` also receives with ``--reconstruct``.
RECONSTRUCTION_FILES = ("reconstruction.csv",)

#: With ``--distinguish`` or ``--distinguish-documents``, ``--out DIR`` also receives ε̂
#: per pair.
DISTINGUISH_FILE = "distinguish.csv"

Prior = Literal["corpus", "zipf", "uniform"]


def audit(
    epsilon: Annotated[str, typer.Option(
        "--epsilon", "-e", help="Per-word ε: one value, or several separated by commas.",
        show_default=False)],
    inputs: Annotated[list[str] | None, typer.Argument(
        help="The corpus: its most frequent content words are the secrets and their "
        "frequencies the prior. Text files, directories (every *.txt inside), '-' for "
        "stdin, .jsonl or .parquet files. Default: the vocabulary's first content words, "
        "Zipf prior.", show_default=False)] = None,
    mechanism: Annotated[str, typer.Option(
        "--mechanism", help="madlib (the paper's), mahalanobis, vickrey, tem or santext "
        "(docs/MECHANISMS.md); several separated by commas, e.g. madlib,tem,santext.")
    ] = "madlib",
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="A parameter of --mechanism as NAME=VALUE, e.g. beta=0.01 for tem, "
        "rank_resample=0.04; with several mechanisms MECHANISM.NAME=VALUE, e.g. "
        "tem.beta=0.01 (repeatable).", show_default=False)] = None,
    n_secrets: Annotated[int, typer.Option(
        "--secrets", min=1, help="How many secret words K (the most frequent content "
        "words).")] = 2000,
    draws: Annotated[int, typer.Option(
        "--draws", min=2, help="Releases per secret word for a sampled channel (madlib, "
        "mahalanobis, vickrey); tem and santext are computed exactly.")] = 500,
    prior: Annotated[Prior | None, typer.Option(
        "--prior", help="The adversary's prior over the secrets: corpus (word frequencies "
        "of CORPUS; the default with a corpus), zipf (by vocabulary rank; the default "
        "without) or uniform.", show_default=False)] = None,
    top: Annotated[int, typer.Option(
        "--top", min=1, help="How many of the most exposed words to list.")] = 20,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Also write audit.md, audit.csv, audit.json and the plot "
        "audit.png into this directory (created if needed; its parent must exist; the plot "
        "needs the evaluation extra's matplotlib, else it is skipped with a warning).",
        show_default=False)] = None,
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
        "--distinguish-draws", min=2, help="Releases of each word of a --distinguish "
        "pair, or of each --distinguish-documents document.")] = 10_000,
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, help="Seed of the sampled channel's draws (default: random, "
        "recorded in audit.json).", show_default=False)] = None,
    reconstruct: Annotated[bool, typer.Option(
        "--reconstruct", help="Also release CORPUS and attack the release: how many of its "
        "content words an adversary with the channel, the prior and a language model gets "
        "back (docs/AUDIT.md, Reconstruction).")] = False,
    mode: Annotated[Literal["text", "bag"] | None, typer.Option(
        "--mode", help="--reconstruct: release readable text (the default; the attack "
        "reads the context) or bags of words (no context).", show_default=False)] = None,
    reference: Annotated[list[str] | None, typer.Option(
        "--reference", help="--reconstruct --mode text: the adversary's reference text for "
        "its n-gram model (files or directories, repeatable). Default: half of CORPUS, the "
        "other half being released and attacked.", show_default=False)] = None,
    ngram: Annotated[int | None, typer.Option(
        "--ngram", min=2, max=3, help="--reconstruct --mode text: the n-gram model's n "
        "(default 3).", show_default=False)] = None,
    embeddings: EmbeddingsOpt = None,
    embeddings_encoding: EncodingOpt = "utf-8",
    vocab_size: VocabOpt = DEFAULT_VOCAB_SIZE,
    quiet: QuietOpt = False,
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

    With --distinguish, also ε̂: a lower bound on the privacy loss of pairs of words,
    measured by running the mechanism on both, beside the nominal ε·d; with
    --distinguish-documents, the same for two documents of one layout.

    With --reconstruct, CORPUS is also released (--mode text or bag) and attacked: the
    share of its content words an adversary gets back from the release with the
    channel, the prior and an n-gram model of the other half of CORPUS (or --reference).
    """
    from emprivacy.io.corpus import expand_inputs

    eps_list = _parse_epsilons(epsilon)
    names, params = mechanism_list(mechanism, param or [], option="mechanism",
                                   verb="audited")
    check_encoding(embeddings_encoding)
    corpus = list(inputs or [])
    if prior == "corpus" and not corpus:
        fail("--prior corpus needs a CORPUS to count words in; give one, or use --prior "
             "zipf or uniform")
    references = _check_reconstruct(reconstruct, corpus, mode, reference, ngram)
    files = [str(f.path) for f in expand_inputs([*corpus, *references]) if f.kind != "stdin"]
    stdin = check_stdin(corpus)
    n_pairs, pairs_file = _parse_distinguish(distinguish)
    doc_files, doc_texts = _read_documents(distinguish_documents)
    skipped = None  # why the plot is not written (no matplotlib)
    if out is not None:
        _check_out(out, [*corpus, *references, *files, *doc_files,
                         *([str(embeddings)] if embeddings else []),
                         *([pairs_file] if pairs_file else [])], reconstruct=reconstruct)
        skipped = _plot_missing()
    if seed is None:
        seed = _secrets.randbelow(2**63)

    from emprivacy.mechanisms.registry import make_mechanism
    from emprivacy.protection import audit_mechanism, content_word_counts, secret_words

    console = stderr()
    emb = load(embeddings, vocab_size, quiet, embeddings_encoding)
    counts = None
    documents: list[Any] = []
    ref_docs = None
    if corpus:
        status = (contextlib.nullcontext() if quiet
                  else console.status("Counting the corpus's words…"))
        with status:
            if reconstruct:  # read once, in memory: the attack reads the corpus again
                from emprivacy.protection import count_words, load_documents

                documents = load_documents(corpus, stdin=stdin)
                if mode != "bag" and not references and len(documents) < 2:
                    fail("--reconstruct needs at least 2 documents in CORPUS to fit its "
                         f"context model on half of them; got {len(documents)} (give "
                         "--reference, or --mode bag)")
                ref_docs = load_documents(references) if references else None
                counts = count_words(documents)
            else:
                counts = content_word_counts(corpus, stdin=stdin)
    try:
        chosen = secret_words(emb, k=n_secrets, counts=counts, prior=prior)
    except ValueError as exc:
        fail(str(exc))
    if doc_texts is not None:  # one layout, some word differing: checked before any work
        from emprivacy.protection import document_positions

        try:
            document_positions(emb, *doc_texts, labels=doc_files)
        except ValueError as exc:
            fail(f"--distinguish-documents: {exc}")
    mechanisms: list[list[Any]] = []
    for name in names:  # a bad parameter value fails now, before any audit
        row = []
        for eps in eps_list:
            try:
                row.append(make_mechanism(name, emb, epsilon=eps, **params[name]))
            except (TypeError, ValueError) as exc:
                fail(str(exc) if len(names) == 1 else f"{name}: {exc}")
        mechanisms.append(row)
    import copy

    from emprivacy.math.randomness import check_random_state

    # ε̂ draws from a stream of its own: asking for it leaves the other figures as they are;
    # the pairs are picked once, in the first mechanism's metric, for every mechanism and ε
    hat_start = check_random_state(_substream(seed))
    pairs = _distinguish_pairs(mechanisms[0][0], chosen, n_pairs, pairs_file, hat_start)
    audits = []
    recons: list[Any] = []
    with progress_bar(console, show=not quiet, elapsed=True) as bar:
        for row in mechanisms:
            # every mechanism on the same streams: its figures are those of a run of its own
            gen = check_random_state(seed)
            hat_gen = copy.deepcopy(hat_start)
            doc_gen = check_random_state(_substream(seed, 24))
            for mech in row:
                what = f"{mech.name}, ε = {mech.epsilon:g}" if len(names) > 1 else \
                    f"ε = {mech.epsilon:g}"
                task = bar.add_task(what, total=None)

                def progress(done: int, total: int, description: str, *, task: Any = task,
                             what: str = what) -> None:
                    bar.update(task, completed=done, total=total,
                               description=f"{what}: {description}")

                audits.append(audit_mechanism(mech, chosen, draws=draws, rng=gen,
                                              progress=progress))
                if pairs is not None:
                    audits[-1] = _with_epsilon_hat(audits[-1], mech, pairs, distinguish_draws,
                                                   hat_gen, progress)
                if doc_texts is not None:
                    audits[-1] = _with_document_hat(audits[-1], mech, doc_texts, doc_files,
                                                    distinguish_draws, doc_gen, progress)
                if reconstruct:
                    recons.append(_reconstruct(mech, documents, chosen, mode, ref_docs, ngram,
                                               draws, seed, progress))
                bar.remove_task(task)
    if as_json:
        for i, a in enumerate(audits):
            obj = a.summary(top=top)
            if recons:
                obj["reconstruction"] = recons[i].summary()
            echo(strict_json(obj))
    else:
        _print_text(audits, emb, top)
        if recons:
            _print_reconstruction(recons)
    if out is not None:
        args = ["emprivacy", "audit", *corpus, "--mechanism", ",".join(names), "--epsilon",
                ",".join(repr(e) for e in eps_list),
                *[f"--param={k}={v}" if len(names) == 1 else f"--param={m}.{k}={v}"
                  for m in names for k, v in params[m].items()],
                "--secrets", str(n_secrets), "--draws", str(draws), "--prior",
                chosen.prior_name, "--seed", str(seed)]
        if embeddings is not None:
            args += ["--embeddings", str(embeddings)]
        if vocab_size != DEFAULT_VOCAB_SIZE:
            args += ["--vocab-size", str(vocab_size)]
        if distinguish is not None:
            args += ["--distinguish", distinguish]
        if distinguish_documents is not None:
            args += ["--distinguish-documents", ",".join(doc_files)]
        if distinguish is not None or distinguish_documents is not None:
            args += ["--distinguish-draws", str(distinguish_draws)]
        if reconstruct:
            args += ["--reconstruct", "--mode", mode or "text",
                     *[f"--reference={r}" for r in references],
                     *(["--ngram", str(ngram or 3)] if mode != "bag" else [])]
        command = shlex.join(args)
        settings = {
            "mechanisms": names, "parameters": params, "epsilons": eps_list,
            "secrets": len(chosen), "secrets_asked": n_secrets, "draws": draws,
            "prior": chosen.prior_name, "seed": seed, "corpus": corpus,
            "embeddings": {"name": emb.name, "path": None if embeddings is None
                           else str(embeddings), "vocab_size": len(emb), "dim": emb.dim},
            "command": command,
        }
        if pairs is not None:
            settings["distinguish"] = {"pairs": [list(p) for p in pairs],
                                       "pairs_file": pairs_file, "draws": distinguish_draws}
        if doc_texts is not None:
            settings["distinguish_documents"] = {"documents": list(doc_files),
                                                 "draws": distinguish_draws}
        if reconstruct:
            settings["reconstruction"] = {"mode": mode or "text", "reference": references,
                                          "ngram": None if mode == "bag" else ngram or 3}
        written = _write(out, audits, settings, top, recons, plot=skipped is None)
        if not quiet:
            console.print(f"emprivacy: wrote {', '.join(written)} to {out} (seed {seed})",
                          markup=False, highlight=False)
    if skipped is not None and not quiet:
        console.print(f"emprivacy: warning: no plot written: {skipped}", markup=False,
                      highlight=False)


def _read_documents(value: str | None) -> tuple[tuple[str, str], tuple[str, str] | None]:
    """``--distinguish-documents A,B``: the two file names and their texts, read now."""
    from emprivacy.io.corpus import read_text_file

    if value is None:
        return ("", ""), None
    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 2 or not all(parts):
        fail("--distinguish-documents must be two text files separated by a comma "
             f"(A.txt,B.txt); got {value!r}")
    if "-" in parts:
        fail("--distinguish-documents cannot read standard input ('-'); give two files")
    first, second = parts
    for part in parts:
        if Path(part).is_dir():
            fail(f"--distinguish-documents: {part!r} is a directory, not a text file")
    return (first, second), (read_text_file(Path(first)), read_text_file(Path(second)))


def _plot_missing() -> str | None:
    """Why ``audit.png`` cannot be drawn (matplotlib missing), or ``None``."""
    from emprivacy._optional import import_optional
    from emprivacy.exceptions import MissingExtraError

    try:
        import_optional("matplotlib", extra="evaluation", purpose="the audit plot")
    except MissingExtraError as exc:
        return str(exc)
    return None


def _substream(seed: int, key: int = 23) -> int:
    """A seed of its own derived from ``seed`` (23: the word pairs' ε̂ draws; 24: the
    documents')."""
    import numpy as np

    return int(np.random.SeedSequence(seed, spawn_key=(key,)).generate_state(1, np.uint64)[0])


def finite_or_none(value: Any) -> Any:
    """``value`` with every non-finite float (an unbounded likelihood ratio, say) as ``None``,
    through dicts, lists and tuples: what strict JSON can hold."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_or_none(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite_or_none(v) for v in value]
    return value


def strict_json(obj: Any, *, indent: int | None = None) -> str:
    """``obj`` as strict JSON (RFC 8259: no ``Infinity`` or ``NaN``, which many parsers reject):
    a non-finite figure is written as ``null``."""
    return json.dumps(finite_or_none(obj), indent=indent, ensure_ascii=False, allow_nan=False)


def _parse_distinguish(value: str | None) -> tuple[int | None, str | None]:
    """``--distinguish``: a number of pairs (>= 1) or a pairs file, read now (its format;
    its words are checked against the vocabulary once it is loaded)."""
    import re

    from emprivacy.protection import read_word_pairs

    if value is None:
        return None, None
    if re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
        n = int(value)
        if n < 1:
            fail(f"--distinguish must be a number of pairs >= 1 or a file of word pairs; "
                 f"got {value!r}")
        return n, None
    read_word_pairs(value)
    return None, value


def _distinguish_pairs(mech: Any, chosen: Any, n_pairs: int | None, pairs_file: str | None,
                       gen: Any) -> list[tuple[str, str]] | None:
    """The pairs of ``--distinguish``: read from the file, or picked from the secrets."""
    from emprivacy.protection import choose_pairs, read_word_pairs

    if pairs_file is not None:
        return read_word_pairs(pairs_file, mech.embeddings)
    if n_pairs is None:
        return None
    try:
        rows = choose_pairs(mech, chosen.rows, n_pairs, rng=gen)
    except ValueError as exc:
        fail(f"--distinguish: {exc}")
    words = mech.embeddings.words
    return [(words[a], words[b]) for a, b in rows]


def _with_epsilon_hat(audit: Any, mech: Any, pairs: list[tuple[str, str]], draws: int,
                      gen: Any, progress: Any) -> Any:
    import dataclasses

    from emprivacy.protection import distinguish_pairs

    hat = distinguish_pairs(mech, pairs, draws=draws, confidence=audit.confidence, rng=gen,
                            progress=progress)
    return dataclasses.replace(audit, epsilon_hat=hat)


def _with_document_hat(audit: Any, mech: Any, texts: tuple[str, str], labels: tuple[str, str],
                       draws: int, gen: Any, progress: Any) -> Any:
    import dataclasses

    from emprivacy.protection import distinguish_documents

    hat = distinguish_documents(mech, texts[0], texts[1], draws=draws,
                                confidence=audit.confidence, labels=labels, rng=gen,
                                progress=progress)
    return dataclasses.replace(audit, epsilon_hat_documents=hat)


def _check_out(out: Path, inputs: list[str], *, reconstruct: bool = False) -> None:
    """``--out``: a directory that exists or can be made in an existing, writable parent;
    none of its files an input.  Checked before any work."""
    from emprivacy.io.output_paths import check_not_input, check_output_path

    check_output_path(out, probe=True, kind="output", directory=True)
    for name in (*AUDIT_FILES, PLOT_FILE, DISTINGUISH_FILE,
                 *(RECONSTRUCTION_FILES if reconstruct else ())):
        check_not_input(out / name, inputs)


def _check_reconstruct(reconstruct: bool, corpus: list[str], mode: str | None,
                       reference: list[str] | None, ngram: int | None) -> list[str]:
    """The options of ``--reconstruct``, checked before any work; the reference inputs."""
    references = list(reference or [])
    if not reconstruct:
        given = [name for name, value in (("--mode", mode), ("--reference", references),
                                          ("--ngram", ngram)) if value]
        if given:
            fail(f"{given[0]} applies to --reconstruct")
        return references
    if not corpus:
        fail("--reconstruct needs a CORPUS to release and attack")
    if mode == "bag" and (references or ngram is not None):
        fail(f"{'--reference' if references else '--ngram'} applies to --mode text: a bag "
             "of words has no context")
    if "-" in references:
        fail("--reference cannot be standard input ('-'); give files or directories")
    return references


def _reconstruct(mech: Any, documents: list[Any], chosen: Any, mode: str | None,
                 ref_docs: list[Any] | None, ngram: int | None, draws: int, seed: int,
                 progress: Any) -> Any:
    """One ε's reconstruction attack; a problem with the user's data is one line."""
    from emprivacy.protection.attacks.reconstruction import reconstruction_attack

    try:
        return reconstruction_attack(mech, documents, secrets=chosen, mode=mode or "text",
                                     reference=ref_docs, order=ngram or 3, draws=draws,
                                     seed=seed, progress=progress)
    except ValueError as exc:
        fail(str(exc))


def _print_reconstruction(recons: list[Any]) -> None:
    from emprivacy.protection import reconstruction_table

    echo()
    echo("Reconstruction: the corpus released and attacked; the share of its released "
         "content words an adversary gets back (exact: its first guess; top-5: among its "
         "five), beside guessing without context, without the release, and by the prior "
         "alone.")
    echo(reconstruction_table(recons).rstrip("\n"))


def _write(out: Path, audits: list[Any], settings: dict[str, Any], top: int,
           recons: list[Any] | None = None, *, plot: bool = True) -> list[str]:
    """Every file of ``--out``, all or none; their names."""
    from emprivacy.io.outputs import write_files_atomic
    from emprivacy.protection import (
        audit_csv,
        audit_report,
        audit_table,
        reconstruction_csv,
        reconstruction_table,
    )

    table = "# Word audit\n\n" + audit_table(audits, top=top)
    if recons:
        table += "\n## Reconstruction\n\n" + reconstruction_table(recons)
    if settings.get("command"):
        table += f"\nMade by: `{settings['command']}`\n"
    payload = audit_report(audits, settings=settings, top=top)
    if recons:
        for result, r in zip(payload["results"], recons, strict=True):
            result["reconstruction"] = r.summary()
    contents = {
        "audit.md": table.encode("utf-8"),
        "audit.csv": audit_csv(audits).encode("utf-8"),
        "audit.json": (strict_json(payload, indent=2) + "\n").encode(),
    }
    files = {out / name: contents[name] for name in AUDIT_FILES}
    if plot:
        from emprivacy.protection import plot_audit

        files[out / PLOT_FILE] = plot_audit(payload)
    hats = [h for a in audits for h in (a.epsilon_hat, a.epsilon_hat_documents)
            if h is not None]
    if hats:
        from emprivacy.protection import distinguish_csv

        files[out / DISTINGUISH_FILE] = distinguish_csv(hats).encode("utf-8")
    if recons:
        files[out / "reconstruction.csv"] = reconstruction_csv(recons).encode("utf-8")
    # every file or none (a full disk must not leave audit.md without audit.json)
    write_files_atomic(files, parents=True)
    return [p.name for p in files]


def _print_text(audits: list[Any], emb: Any, top: int) -> None:
    from emprivacy.protection import audit_table

    first = audits[0]
    kinds = []
    for name in dict.fromkeys(a.mechanism for a in audits):
        a = next(a for a in audits if a.mechanism == name)
        kinds.append(f"{name} ({'exact channel' if a.exact else f'{a.draws} releases per word'})")
    label = "mechanism" if len(kinds) == 1 else "mechanisms"
    echo(f"{emb.name} ({len(emb)} words, n = {emb.dim}): {len(first.secrets)} secret words, "
         f"prior {first.secrets.prior_name}; {label} {', '.join(kinds)}")
    echo("V(π): best blind guess; V(π▷C): best guess after seeing the release; attack "
         "recovery: the attack run; leakage: V(π▷C)/V(π); capacity: the leakage under the "
         "worst prior. A sampled figure is an estimate [interval]; see docs/AUDIT.md.")
    echo(audit_table(audits, top=top).rstrip("\n"))
