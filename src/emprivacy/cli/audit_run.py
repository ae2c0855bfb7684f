"""``emprivacy audit``'s work: the corpus read, the mechanisms built, and each mechanism
audited at each ε (with ε̂ and the reconstruction attack where asked), under one progress
bar.  A problem with the user's data is one line (exit code 2)."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
from typing import TYPE_CHECKING, Any

from emprivacy.cli._common import LOG_EVERY, fail, progress_bar

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

__all__ = ["build_mechanisms", "detect_entities", "pick_pairs", "read_corpus", "run_audits",
           "substream"]


def read_corpus(corpus: list[str], stdin: Any, *, reconstruct: bool, mode: str | None,
                references: list[str], console: Console, quiet: bool,
                in_memory: bool = False, lang: str = "en"
                ) -> tuple[Any, list[Any], list[Any] | None]:
    """The corpus's content-word counts (``None`` without a corpus), and with
    ``--reconstruct`` (or ``in_memory``: ``--entities``, whose detection reads the corpus
    again) its documents, and the reference documents, read once, in memory."""
    from emprivacy.protection import content_word_counts

    counts = None
    documents: list[Any] = []
    ref_docs = None
    if corpus:
        status = (contextlib.nullcontext() if quiet
                  else console.status("Counting the corpus's words…"))
        with status:
            if reconstruct or in_memory:  # read once, in memory: read again later
                from emprivacy.protection import count_words, load_documents

                documents = load_documents(corpus, stdin=stdin)
                if reconstruct and mode != "bag" and not references and len(documents) < 2:
                    fail("--reconstruct needs at least 2 documents in CORPUS to fit its "
                         f"context model on half of them; got {len(documents)} (give "
                         "--reference, or --mode bag)")
                ref_docs = load_documents(references) if references else None
                counts = count_words(documents, lang=lang)
            else:
                counts = content_word_counts(corpus, stdin=stdin, lang=lang)
    return counts, documents, ref_docs


def build_mechanisms(names: list[str], params: dict[str, dict[str, Any]],
                     eps_list: list[float], emb: Any) -> list[list[Any]]:
    """One row per mechanism, one mechanism per ε: a bad parameter value fails now, before
    any audit."""
    from emprivacy.mechanisms import make_mechanism

    mechanisms: list[list[Any]] = []
    for name in names:
        row = []
        for eps in eps_list:
            try:
                row.append(make_mechanism(name, emb, epsilon=eps, **params[name]))
            except (TypeError, ValueError) as exc:
                fail(str(exc) if len(names) == 1 else f"{name}: {exc}")
        mechanisms.append(row)
    return mechanisms


def substream(seed: int, key: int = 23) -> int:
    """A seed of its own derived from ``seed`` (23: the word pairs' ε̂ draws; 24: the
    documents')."""
    import numpy as np

    return int(np.random.SeedSequence(seed, spawn_key=(key,)).generate_state(1, np.uint64)[0])


def pick_pairs(mech: Any, chosen: Any, n_pairs: int | None, pairs_file: str | None,
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
    from emprivacy.protection import distinguish_pairs

    hat = distinguish_pairs(mech, pairs, draws=draws, confidence=audit.confidence, rng=gen,
                            progress=progress)
    return dataclasses.replace(audit, epsilon_hat=hat)


def _with_document_hat(audit: Any, mech: Any, texts: tuple[str, str], labels: tuple[str, str],
                       draws: int, gen: Any, progress: Any) -> Any:
    from emprivacy.protection import distinguish_documents

    hat = distinguish_documents(mech, texts[0], texts[1], draws=draws,
                                confidence=audit.confidence, labels=labels, rng=gen,
                                progress=progress)
    return dataclasses.replace(audit, epsilon_hat_documents=hat)


def _reconstruct(mech: Any, documents: list[Any], chosen: Any, mode: str | None,
                 ref_docs: list[Any] | None, ngram: int | None, draws: int, seed: int,
                 progress: Any, entities: Any = None, lang: str = "en") -> Any:
    """One ε's reconstruction attack; a problem with the user's data is one line."""
    from emprivacy.protection import reconstruction_attack

    try:
        return reconstruction_attack(mech, documents, secrets=chosen, mode=mode or "text",
                                     reference=ref_docs, order=ngram or 3, draws=draws,
                                     seed=seed, progress=progress, lang=lang,
                                     **({} if entities is None else {"entities": entities}))
    except ValueError as exc:
        fail(str(exc))


def _audit_entities(mech: Any, chosen: Any, options: Any, words: Any, draws: int, gen: Any,
                    progress: Any) -> Any:
    """One ε's audit of the entity words; a problem (a sub-vocabulary of fewer than 2 words
    in these embeddings) is one line."""
    from emprivacy.protection import audit_entities

    try:
        return audit_entities(mech, chosen, options, words=words, draws=draws, rng=gen,
                              progress=progress)
    except ValueError as exc:
        fail(f"--entities: {exc}")


def detect_entities(entities: tuple[str, float, Any] | None, mech: Any,
                    documents: list[Any], lang: str = "en") -> Any:
    """``--entities``: the run's detectors and sub-vocabularies built, and what detection
    takes in the corpus (``None`` without a corpus; once for every mechanism and ε: the
    marking depends on the embeddings only), before any audit; a sub-vocabulary of fewer
    than 2 words in these embeddings is one line."""
    import warnings

    from emprivacy.exceptions import PrivacyLeakWarning
    from emprivacy.protection import EntityOptions, detect_entity_words

    if entities is None:
        return None
    try:
        with warnings.catch_warnings():  # entities kept: said once, in one line, when checked
            warnings.simplefilter("ignore", PrivacyLeakWarning)
            run = EntityOptions(*entities, lang=lang).run(mech)
        return detect_entity_words(run, documents, mech.embeddings) if documents else None
    except ValueError as exc:
        fail(f"--entities: {exc}")


def run_audits(mechanisms: list[list[Any]], chosen: Any, *, draws: int, seed: int,
               pairs: list[tuple[str, str]] | None, hat_start: Any, distinguish_draws: int,
               doc_texts: tuple[str, str] | None, doc_files: tuple[str, str],
               reconstruct: bool, documents: list[Any], mode: str | None,
               ref_docs: list[Any] | None, ngram: int | None, console: Console,
               quiet: bool, entities: tuple[str, float, Any] | None = None,
               entity_words: Any = None, lang: str = "en"
               ) -> tuple[list[Any], list[Any], list[Any]]:
    """Every mechanism's audit at every ε, in order, its reconstruction attacks (empty
    without ``--reconstruct``) and its entity audits (empty without ``--entities``).

    Every mechanism runs on the same streams (``seed``; ε̂ from ``hat_start``, a stream of
    its own; the documents' ε̂ from another; the entity audits from a third), so its
    figures are those of a run of its own, and asking for entities changes no other figure.
    """
    import warnings

    from emprivacy.exceptions import PrivacyLeakWarning
    from emprivacy.math import check_random_state
    from emprivacy.protection import EntityOptions, audit_mechanism

    options = None if entities is None else EntityOptions(*entities, lang=lang)
    ents: list[Any] = []

    several = len(mechanisms) > 1
    audits = []
    recons: list[Any] = []
    # one task over the whole run, a step per measurement (the audit, ε̂ of the pairs, of
    # the documents, the reconstruction): its share done and the time left are the run's
    per = 1 + (pairs is not None) + (doc_texts is not None) + bool(reconstruct) + (
        options is not None)
    steps = per * sum(len(row) for row in mechanisms)
    with progress_bar(console, show=not quiet, elapsed=True, log_every=LOG_EVERY) as bar, \
            warnings.catch_warnings():  # entities kept: said once, in one line, when checked
        warnings.simplefilter("ignore", PrivacyLeakWarning)
        task = bar.add_task("auditing", total=steps)
        step = [0]  # the steps done (read by the progress of the step under way)
        for row in mechanisms:
            # every mechanism on the same streams: its figures are those of a run of its own
            gen = check_random_state(seed)
            hat_gen = copy.deepcopy(hat_start)
            doc_gen = check_random_state(substream(seed, 24))
            ent_gen = check_random_state(substream(seed, 25))
            for mech in row:
                what = f"{mech.name}, ε = {mech.epsilon:g}" if several else \
                    f"ε = {mech.epsilon:g}"

                def progress(done: int, total: int, description: str, *, what: str = what
                             ) -> None:
                    share = min(1.0, done / total) if total else 0.0
                    bar.update(task, completed=step[0] + share,
                               description=f"{what}: {description} ({done:,}/{total:,})")

                audits.append(audit_mechanism(mech, chosen, draws=draws, rng=gen,
                                              progress=progress))
                step[0] += 1
                if pairs is not None:
                    audits[-1] = _with_epsilon_hat(audits[-1], mech, pairs, distinguish_draws,
                                                   hat_gen, progress)
                    step[0] += 1
                if doc_texts is not None:
                    audits[-1] = _with_document_hat(audits[-1], mech, doc_texts, doc_files,
                                                    distinguish_draws, doc_gen, progress)
                    step[0] += 1
                if options is not None:
                    ents.append(_audit_entities(mech, chosen, options, entity_words, draws,
                                                ent_gen, progress))
                    step[0] += 1
                if reconstruct:
                    recons.append(_reconstruct(mech, documents, chosen, mode, ref_docs, ngram,
                                               draws, seed, progress, options, lang))
                    step[0] += 1
                bar.update(task, completed=step[0])
    return audits, recons, ents
