"""The output of a corpus run: its partition directory, resume, verification, publication.

During a run the partition files live in the output directory (Parquet) or in
``<output>.parts/`` (JSONL and bags; for a FIFO or a device, a directory in the
current directory: :func:`output_layout`), with ``_run.json`` (what the run is: its
plan and settings) and the tasks' ``_status/`` files.  At the end every partition
is read back and verified; only then is the JSONL output merged (atomically) or
the Parquet ``_manifest.json`` written, and the run's bookkeeping removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from emprivacy.distributed.plan import Partition
from emprivacy.distributed.task import STATUS_DIR, status_path
from emprivacy.exceptions import (
    CorpusRunError,
    InputError,
    InterruptedRunError,
    OutputError,
    OutputPathError,
    OutputWriteError,
)
from emprivacy.io.jsonl_pieces import copy_jsonl_file
from emprivacy.io.output_paths import (
    TEMP_SUFFIX,
    check_not_input,
    check_output_path,
    is_stream,
    output_lock,
    write_error,
)
from emprivacy.io.outputs import atomic_output, write_bytes_atomic
from emprivacy.io.parquet_output import PART
from emprivacy.io.temporaries import remove_stale_temporaries_in
from emprivacy.obfuscation.skipped import (
    SKIPPED_EMPTY,
    SKIPPED_OUT_OF_VOCABULARY,
    nothing_to_release,
)

__all__ = ["CorpusSummary", "any_complete", "claim_output", "complete_status", "digest",
           "input_paths", "output_layout", "prepare_parts_dir", "publish", "remove_leftovers",
           "summary_from_manifest"]

RUN_FILE = "_run.json"
MANIFEST = "_manifest.json"


@dataclass(frozen=True)
class CorpusSummary:
    """What :func:`~emprivacy.distributed.obfuscate_corpus` did.

    ``documents`` input documents: ``documents_written`` obfuscated (``words``
    noisy words in all) and the ``skipped`` ones, empty after normalisation or, those
    also in ``skipped_out_of_vocabulary``, bags with no word in the vocabulary.
    ``partitions_reused`` partitions were already complete (``resume``).
    """

    output: str
    format: str
    documents: int
    documents_written: int
    words: int
    skipped: tuple[str, ...]
    partitions: int
    partitions_computed: int
    partitions_reused: int
    metadata: dict[str, Any]
    skipped_out_of_vocabulary: tuple[str, ...] = ()
    #: Documents written with at least one privatised word, and of them those whose every
    #: privatised word came out as itself (functions of the private texts: said on the
    #: command line's summary line, never written into the output).  0 for partitions
    #: kept from a run of an older version, and for a run read back from its manifest.
    documents_with_words: int = 0
    documents_unchanged: int = 0


def digest(obj: Any) -> str:
    """The SHA-256 of a JSON-able value (keys sorted)."""
    return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False)
                          .encode("utf-8")).hexdigest()


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            value = json.load(fh)
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _sha256_file(path: Path) -> str | None:
    """The SHA-256 of a file, read 1 MiB at a time (``None`` if it cannot be read)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def output_layout(output: Path, fmt: str) -> tuple[str, Path]:
    """(kind of the partition files, directory holding them).

    Parquet: the output directory itself.  Otherwise ``<output>.parts/`` next to the
    output; for a FIFO or a character device (written in place, in a directory such
    as ``/dev`` or ``/dev/fd`` where nothing can be made), ``emprivacy-<name>-<hash
    of its path>.parts/`` in the current directory.
    """
    if fmt == "parquet":
        return "parquet", output
    if is_stream(output):
        tag = hashlib.sha256(os.fsencode(os.path.abspath(output))).hexdigest()[:8]
        return "jsonl", Path(f"emprivacy-{output.name}-{tag}.parts").absolute()
    return "jsonl", output.with_name(output.name + ".parts")


def input_paths(inputs: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The inputs as given and every file found inside input directories (what
    :func:`~emprivacy.io.output_paths.check_not_input` compares the output with)."""
    from emprivacy.io.corpus import expand_inputs

    given = [os.fspath(i) for i in inputs]
    return [*given, *(os.fspath(f.path) for f in expand_inputs(given) if f.kind != "stdin")]


def claim_output(inputs: Iterable[str | os.PathLike[str]], output: str | os.PathLike[str],
                 fmt: str, *, probe: bool = True,
                 reads: Iterable[str | os.PathLike[str]] = ()
                 ) -> contextlib.AbstractContextManager[None]:
    """Check the output of a corpus run now, before any work, and return its lock.

    The output must be writable (:func:`~emprivacy.io.output_paths.check_output_path`; a
    Parquet output must be a directory or nothing yet) and must not be an input
    (:func:`~emprivacy.io.output_paths.check_not_input`), nor inside an input directory,
    nor any of ``reads``, the other files the run reads (the embeddings
    file: issue 44).  Hold the returned :func:`~emprivacy.io.output_paths.output_lock` for the
    whole run: a second run into the same output then refuses.  A FIFO or a device
    is not locked, the run's partition directory is (:func:`output_layout`).
    """
    output = Path(output)
    inputs = list(inputs)
    directory = fmt == "parquet"
    check_output_path(output, probe=probe, directory=directory,
                      kind="Parquet output" if directory else "output")
    check_not_input(output, input_paths(inputs), directory=directory)
    check_not_input(output, [os.fspath(r) for r in reads])
    # not inside an input directory either: a second run would read it as a document
    check_not_input(output, [i for i in inputs if os.path.isdir(i)], within=True)
    if not directory and is_stream(output):
        _, parts_dir = output_layout(output, fmt)
        check_output_path(parts_dir, probe=probe, directory=True)
        return output_lock(parts_dir)
    return output_lock(output)


def _holds_files(parts_dir: Path) -> bool:
    """Whether ``parts_dir`` holds anything but temporary files (those of killed processes
    are removed first: a worker of an interrupted run, killed mid-write, left them)."""
    remove_stale_temporaries_in(parts_dir)
    return any(not name.endswith(TEMP_SUFFIX) for name in os.listdir(parts_dir))


def prepare_parts_dir(parts_dir: Path, output: Path, fmt: str, resume: bool,
                      run_info: dict[str, Any], *, published: dict[str, Any] | None = None
                      ) -> dict[str, Any] | None:
    """Create or check the partition directory; the manifest if the run is already complete.

    ``run_info``: what the run is, kept in ``_run.json`` while it runs (an interrupted
    run is resumed only with the same).  ``published``: what a completed run's
    ``_manifest.json`` records of it (default ``run_info``; without paths when the run
    releases none), which a resume of a completed Parquet run must match.
    """
    published = run_info if published is None else published
    if fmt == "parquet":
        if output.exists() and not output.is_dir():
            what = "a file" if output.is_file() else "a FIFO, device or socket"
            raise OutputError(f"Parquet output {str(output)!r} must be a directory; {what} "
                             "of that name exists")
        manifest = _read_json(output / MANIFEST)
        if manifest is not None:
            if not resume:
                raise OutputError(f"output directory {str(output)!r} already holds a completed "
                                 "run (_manifest.json); choose a new output directory")
            if manifest.get("run") != published:
                raise OutputError(f"output directory {str(output)!r} holds a completed run "
                                 "with other inputs or settings; choose a new output "
                                 "directory")
            return manifest
    elif resume and output.is_file() and not parts_dir.exists():  # not a FIFO, a device
        raise OutputError(f"nothing to resume: {str(output)!r} exists and no interrupted run "
                         f"({str(parts_dir)!r}) was found; remove the output to start again")
    if not parts_dir.parent.is_dir():
        raise OutputError(f"output directory {str(parts_dir.parent)!r} does not exist")
    existing = _read_json(parts_dir / RUN_FILE)
    if parts_dir.is_dir() and _holds_files(parts_dir):
        if existing is None:
            raise OutputError(f"output directory {str(parts_dir)!r} is not empty and holds no "
                             "interrupted run; choose a new or empty directory")
        if not resume:
            refused = InterruptedRunError(f"{str(parts_dir)!r} already holds an interrupted "
                                          "run")
            refused.partitions_kept = str(parts_dir)  # the hint: resume it, or remove it
            raise refused
        if existing != run_info:
            what = ("other inputs" if existing.get("plan") != run_info["plan"]
                    else "other settings")
            raise OutputError(f"cannot resume: {str(parts_dir)!r} was written with {what}; "
                             "use a new output, or remove it to start again")
    created = not parts_dir.exists()
    try:
        (parts_dir / STATUS_DIR).mkdir(parents=True, exist_ok=True)
        if existing is None:
            write_bytes_atomic(parts_dir / RUN_FILE,
                               json.dumps(run_info, sort_keys=True).encode())
    except (OSError, KeyboardInterrupt) as exc:  # full disk, permission, …; Ctrl-C
        # leave nothing half-made: a directory without _run.json would block the next run
        if created:
            shutil.rmtree(parts_dir, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                (parts_dir / STATUS_DIR).rmdir()  # only if empty
        if not isinstance(exc, OSError) or isinstance(exc, OutputPathError | OutputWriteError):
            raise
        raise write_error(exc, parts_dir) from exc
    return None


def complete_status(parts_dir: Path, part: Partition, digests: tuple[str, str]
                    ) -> dict[str, Any] | None:
    """The status of a partition whose files are complete and intact, else ``None``."""
    status = _read_json(status_path(parts_dir, part))
    if (status is None or status.get("plan") != digests[0]
            or status.get("settings") != digests[1]
            or status.get("partition") != part.index
            or status.get("documents") != part.n_documents):
        return None
    if status.get("file") is None:
        return status if status.get("records") == 0 else None
    if _sha256_file(parts_dir / status["file"]) != status.get("sha256"):
        return None
    return status


def remove_leftovers(parts_dir: Path, *, remove_directory: bool) -> None:
    """After a failed run whose workers are gone: remove the temporary files that killed
    processes left in ``parts_dir`` and, with ``remove_directory``, the directory if
    nothing else is in it (a run that kept complete partitions keeps it)."""
    remove_stale_temporaries_in(parts_dir)
    if remove_directory:
        with contextlib.suppress(OSError):  # not empty, or not there
            parts_dir.rmdir()


def any_complete(plan: list[Partition], parts_dir: Path, digests: tuple[str, str]) -> bool:
    """Whether a partition of the run is recorded complete in ``parts_dir`` (its status
    file is this run's; its data file is not read: see :func:`complete_status`)."""
    for part in plan:
        status = _read_json(status_path(parts_dir, part))
        if (status is not None and status.get("plan") == digests[0]
                and status.get("settings") == digests[1]
                and status.get("partition") == part.index):
            return True
    return False


def summary_from_manifest(manifest: dict[str, Any], output: Path, fmt: str, *, reused: int
                          ) -> CorpusSummary:
    """The summary of a run that had already completed."""
    return CorpusSummary(str(output), fmt, manifest["documents"],
                         manifest["documents_written"], manifest["words"],
                         tuple(manifest["skipped"]), len(manifest["partitions"]), 0, reused,
                         manifest["metadata"],
                         tuple(manifest.get("skipped_out_of_vocabulary", ())))


def _verify_statuses(plan: list[Partition], parts_dir: Path, digests: tuple[str, str]
                     ) -> list[dict[str, Any]]:
    statuses = []
    fingerprints = set()
    for part in plan:
        status = _read_json(status_path(parts_dir, part))
        if status is None:
            raise CorpusRunError(f"partition {part.index} ({part.describe()}) has no status "
                                 "file: it was never completed")
        if (status.get("plan") != digests[0] or status.get("settings") != digests[1]
                or status.get("documents") != part.n_documents):
            raise CorpusRunError(f"partition {part.index} was written by another run or with "
                                 "other settings")
        written = status["records"]
        if written + len(status["skipped"]) != part.n_documents:
            raise CorpusRunError(f"partition {part.index}: {written} written + "
                                 f"{len(status['skipped'])} skipped != {part.n_documents} "
                                 "input documents")
        fingerprints.add(status["fingerprint"])
        statuses.append(status)
    if len(fingerprints) > 1:
        short = ", ".join(sorted(f[:12] for f in fingerprints))
        raise CorpusRunError(f"partitions were obfuscated with different embeddings "
                             f"(fingerprints {short}): check that every worker reads the "
                             "same embeddings file")
    return statuses


def _missing(part: Partition, status: dict[str, Any]) -> CorpusRunError:
    return CorpusRunError(f"partition {part.index}: data file {status['file']!r} is "
                          "missing")


def _mismatch(part: Partition, status: dict[str, Any]) -> CorpusRunError:
    return CorpusRunError(f"partition {part.index}: data file {status['file']!r} does not "
                          "match its status (written twice concurrently?)")


def _part_ids(parts_dir: Path, part: Partition, status: dict[str, Any]) -> list[str]:
    """The record ids of a Parquet partition file (its rows with ``part`` 0), once the
    file is checked against its status; read a MiB and a column at a time."""
    import pyarrow.parquet as pq

    path = parts_dir / status["file"]
    try:
        with open(path, "rb") as fh:
            sha = hashlib.sha256()
            while chunk := fh.read(1 << 20):
                sha.update(chunk)
            if sha.hexdigest() != status["sha256"]:
                raise _mismatch(part, status)
            fh.seek(0)
            table = pq.read_table(fh, columns=["id", PART])
    except OSError:
        raise _missing(part, status) from None
    return [doc_id for doc_id, k in zip(table.column("id").to_pylist(),
                                        table.column(PART).to_pylist(), strict=True) if k == 0]


class _IdChecker:
    """Every document id exactly once in the whole corpus."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def add(self, doc_id: str) -> None:
        if doc_id in self.seen:
            raise InputError(f"duplicate document id {doc_id!r}; ids must be unique")
        self.seen.add(doc_id)


def _all_skipped(statuses: list[dict[str, Any]], probe: dict[str, Any]) -> InputError:
    """The single-process path's error for a corpus whose every document was skipped."""
    skipped = []
    for status in statuses:
        oov = set(status.get("skipped_out_of_vocabulary", ()))
        skipped += [(doc_id, SKIPPED_OUT_OF_VOCABULARY if doc_id in oov else SKIPPED_EMPTY)
                    for doc_id in status["skipped"]]
    return nothing_to_release(skipped, probe["metadata"]["embeddings"]["name"])


def publish(plan: list[Partition], parts_dir: Path, output: Path, fmt: str,
            digests: tuple[str, str], probe: dict[str, Any], run_info: dict[str, Any], *,
            computed: int, reused: int, manifest_extra: dict[str, Any]) -> CorpusSummary:
    """Verify every partition, then publish: merge the JSONL output or write the manifest.

    ``run_info``: the Parquet ``_manifest.json``'s ``run`` field (what a run that
    releases no path publishes: see :func:`prepare_parts_dir`); ``manifest_extra``:
    further fields of it.
    """
    statuses = _verify_statuses(plan, parts_dir, digests)
    ids = _IdChecker()
    skipped: list[str] = []
    out_of_vocabulary: list[str] = []
    written = words = with_words = unchanged = 0
    parts_meta = []
    if fmt == "parquet":
        for part, status in zip(plan, statuses, strict=True):
            if status["file"] is not None:
                part_ids = _part_ids(parts_dir, part, status)
                if len(part_ids) != status["records"]:
                    raise CorpusRunError(f"partition {part.index}: {len(part_ids)} records in "
                                         f"{status['file']!r}, expected {status['records']}")
                for doc_id in part_ids:
                    ids.add(doc_id)
            for doc_id in status["skipped"]:
                ids.add(doc_id)
            skipped.extend(status["skipped"])
            out_of_vocabulary.extend(status.get("skipped_out_of_vocabulary", ()))
            written += status["records"]
            words += status["words"]
            with_words += status.get("with_words", 0)
            unchanged += status.get("unchanged", 0)
            parts_meta.append({k: status[k] for k in ("file", "sha256", "bytes", "documents",
                                                      "records", "words")})
        if written == 0:
            raise _all_skipped(statuses, probe)
        manifest = {"run": run_info, "metadata": probe["metadata"], "documents": len(ids.seen),
                    "documents_written": written, "words": words, "skipped": skipped,
                    "skipped_out_of_vocabulary": out_of_vocabulary,
                    "partitions": parts_meta, **manifest_extra}
        write_bytes_atomic(output / MANIFEST, json.dumps(manifest, ensure_ascii=False,
                                                         indent=1).encode("utf-8"))
        shutil.rmtree(output / STATUS_DIR, ignore_errors=True)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(output / RUN_FILE)
        for stray in output.glob(".part-*.tmp"):  # left by a worker killed mid-write
            with contextlib.suppress(FileNotFoundError):
                stray.unlink()
    else:
        if not any(s["records"] for s in statuses):
            raise _all_skipped(statuses, probe)
        with atomic_output(output) as out:
            for part, status in zip(plan, statuses, strict=True):
                if status["file"] is not None:
                    # one pass, in bounded memory however long a record is: the digest
                    # is checked after the copy (the output is atomic: a mismatch
                    # publishes nothing)
                    try:
                        n, sha = copy_jsonl_file(parts_dir / status["file"], fmt, out.write,
                                                 on_record=lambda head: ids.add(head["id"]))
                    except FileNotFoundError:
                        raise _missing(part, status) from None
                    if sha != status["sha256"]:
                        raise _mismatch(part, status)
                    if n != status["records"]:
                        raise CorpusRunError(f"partition {part.index}: {n} records in "
                                             f"{status['file']!r}, expected "
                                             f"{status['records']}")
                for doc_id in status["skipped"]:
                    ids.add(doc_id)
                skipped.extend(status["skipped"])
                out_of_vocabulary.extend(status.get("skipped_out_of_vocabulary", ()))
                written += status["records"]
                words += status["words"]
                with_words += status.get("with_words", 0)
                unchanged += status.get("unchanged", 0)
        shutil.rmtree(parts_dir, ignore_errors=True)
    return CorpusSummary(str(output), fmt, len(ids.seen), written, words, tuple(skipped),
                         len(plan), computed, reused, probe["metadata"],
                         tuple(out_of_vocabulary), with_words, unchanged)
