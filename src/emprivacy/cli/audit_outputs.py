"""What ``emprivacy audit`` writes: the text or JSON Lines on standard output, and the files
of ``--out DIR`` (``audit.md``, ``audit.csv``, ``audit.json``, the plot ``audit.png``, and
with ``--distinguish`` or ``--reconstruct`` their CSV files), all or none of them, with the
settings and the command line that reproduce the run."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from emprivacy.cli._common import DEFAULT_VOCAB_SIZE, echo

__all__ = ["AUDIT_FILES", "DISTINGUISH_FILE", "ENTITY_FILES", "PLOT_FILE",
           "RECONSTRUCTION_FILES", "print_entities", "print_reconstruction", "print_text",
           "recorded_settings", "write_outputs"]

#: The files ``--out DIR`` receives.
AUDIT_FILES = ("audit.md", "audit.csv", "audit.json")
#: ... and the plot, where matplotlib (the ``evaluation`` extra) is installed.
PLOT_FILE = "audit.png"
#: The file ``--out DIR`` also receives with ``--reconstruct``.
RECONSTRUCTION_FILES = ("reconstruction.csv",)
#: The file ``--out DIR`` also receives with ``--entities``.
ENTITY_FILES = ("entities.csv",)

#: With ``--distinguish`` or ``--distinguish-documents``, ``--out DIR`` also receives ε̂
#: per pair.
DISTINGUISH_FILE = "distinguish.csv"


def print_text(audits: list[Any], emb: Any, top: int) -> None:
    """The audits as text on standard output: what was audited, then the table."""
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


def print_entities(ents: list[Any]) -> None:
    """The audits of the entity words as text on standard output, after the audits."""
    from emprivacy.protection import entity_table

    echo()
    echo(entity_table(ents).rstrip("\n"))


def print_reconstruction(recons: list[Any]) -> None:
    """The reconstruction attacks as text on standard output, after the audits."""
    from emprivacy.protection import reconstruction_table

    echo()
    echo("Reconstruction: the corpus released and attacked; the share of its released "
         "content words an adversary gets back (exact: its first guess; top-5: among its "
         "five), beside guessing without context, without the release, and by the prior "
         "alone.")
    echo(reconstruction_table(recons).rstrip("\n"))


def recorded_settings(*, corpus: list[str], names: list[str], params: dict[str, dict[str, Any]],
                      eps_list: list[float], n_secrets: int, draws: int, chosen: Any,
                      seed: int, emb: Any, embeddings: Path | None, vocab_size: int,
                      distinguish: str | None, pairs: list[tuple[str, str]] | None,
                      pairs_file: str | None, distinguish_documents: str | None,
                      doc_files: tuple[str, str], doc_texts: tuple[str, str] | None,
                      distinguish_draws: int, reconstruct: bool, mode: str | None,
                      references: list[str], ngram: int | None,
                      entities: tuple[str, float, Any] | None = None) -> dict[str, Any]:
    """The run's settings for ``audit.json``, with the command line that repeats the run
    (its seed and prior made explicit)."""
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
    if entities is not None:
        args += ["--entities", entities[0], "--entity-epsilon", repr(entities[1]),
                 *[f"--entity-policy={t}={p}" for t, p in entities[2]]]
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
    if entities is not None:
        settings["entities"] = {"detectors": entities[0], "entity_epsilon": entities[1],
                                "entity_policy": {t: p for t, p in entities[2]}}
    if reconstruct:
        settings["reconstruction"] = {"mode": mode or "text", "reference": references,
                                      "ngram": None if mode == "bag" else ngram or 3}
    return settings


def write_outputs(out: Path, audits: list[Any], settings: dict[str, Any], top: int,
                  recons: list[Any] | None = None, *, plot: bool = True,
                  entities: list[Any] | None = None) -> tuple[list[str], list[str]]:
    """Every file of ``--out``, all or none; their names, and those of the files of an
    earlier audit there that this one does not write (a ``distinguish.csv`` of another run
    beside this run's ``audit.json`` would read as its own), removed once the new ones are
    in place."""
    from emprivacy.exceptions import OutputWriteError
    from emprivacy.io import write_files_atomic
    from emprivacy.protection import (
        audit_csv,
        audit_report,
        audit_table,
        reconstruction_csv,
        reconstruction_table,
        strict_json,
    )

    table = "# Word audit\n\n" + audit_table(audits, top=top)
    if entities:
        from emprivacy.protection import entity_table

        table += "\n## Entities\n\n" + entity_table(entities)
    if recons:
        table += "\n## Reconstruction\n\n" + reconstruction_table(recons)
    if settings.get("command"):
        table += f"\nMade by: `{settings['command']}`\n"
    payload = audit_report(audits, settings=settings, top=top)
    if entities:
        for result, e in zip(payload["results"], entities, strict=True):
            result["entities"] = e.summary(top=top)
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
    if entities:
        from emprivacy.protection import entity_csv

        files[out / ENTITY_FILES[0]] = entity_csv(entities).encode("utf-8")
    # every file or none (a full disk must not leave audit.md without audit.json)
    write_files_atomic(files, parents=True)
    removed = []
    for name in (*AUDIT_FILES, PLOT_FILE, DISTINGUISH_FILE, *RECONSTRUCTION_FILES,
                 *ENTITY_FILES):
        stale = out / name
        if stale not in files and (stale.is_symlink() or stale.is_file()):
            try:
                stale.unlink()
            except FileNotFoundError:
                continue
            except OSError as exc:
                err = OutputWriteError(f"cannot remove {str(stale)!r}, left by an earlier "
                                       f"audit: {exc.strerror or exc}")
                err.errno = exc.errno
                raise err from None
            removed.append(name)
    return [p.name for p in files], removed
