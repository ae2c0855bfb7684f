"""Documents in, records out: the input and output side of every release.

The modules a release reads and writes through, below the mechanisms in the data flow
(docs/ARCHITECTURE.md):

* :mod:`~emprivacy.io.documents` — one document's text, read in bounded chunks;
* :mod:`~emprivacy.io.records` — JSON Lines and Parquet input records (id and text);
* :mod:`~emprivacy.io.corpus` — a corpus: files, folders, globs, records, standard input;
* :mod:`~emprivacy.io.output_paths` — where an output may be written (never a symlink, a
  FIFO, a device or the input) and the lock held while it is;
* :mod:`~emprivacy.io.outputs` — the release's records and files, written atomically;
* :mod:`~emprivacy.io.temporaries` — the temporary files of atomic writes that killed
  processes left, found and removed;
* :mod:`~emprivacy.io.cache_dir` — the user cache directory;
* :mod:`~emprivacy.io.streaming` — records streamed to their output as they are made;
* :mod:`~emprivacy.io.jsonl_pieces` — JSONL records read back and copied in pieces;
* :mod:`~emprivacy.io.parquet_output` — the Parquet form of the records.

Names are imported on first use: importing this package imports none of its modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "CHUNK_CHARS": "documents",
    "Document": "documents",
    "read_text_chunks": "documents",
    "standard_input": "documents",
    "iter_json_objects": "records",
    "iter_jsonl": "records",
    "iter_parquet": "records",
    "jsonl_index": "records",
    "parquet_ids": "records",
    "InputFile": "corpus",
    "InputSurvey": "corpus",
    "UniqueIds": "corpus",
    "check_readable": "corpus",
    "expand_inputs": "corpus",
    "iter_documents": "corpus",
    "read_text_file": "corpus",
    "survey_inputs": "corpus",
    "LOCK_SUFFIX": "output_paths",
    "TEMP_SUFFIX": "output_paths",
    "check_not_input": "output_paths",
    "check_output_path": "output_paths",
    "is_stream": "output_paths",
    "output_lock": "output_paths",
    "write_error": "output_paths",
    "atomic_file": "outputs",
    "atomic_output": "outputs",
    "checked_stdout": "outputs",
    "format_record": "outputs",
    "write_bytes_atomic": "outputs",
    "write_files_atomic": "outputs",
    "write_stdout": "outputs",
    "remove_stale_temporaries": "temporaries",
    "remove_stale_temporaries_in": "temporaries",
    "temporary_destination": "temporaries",
    "cache_dir_problem": "cache_dir",
    "user_cache_dir": "cache_dir",
    "BODY_FIELDS": "streaming",
    "BagBody": "streaming",
    "TextBody": "streaming",
    "is_streamed": "streaming",
    "materialise": "streaming",
    "write_record": "streaming",
    "copy_jsonl_file": "jsonl_pieces",
    "copy_jsonl_record": "jsonl_pieces",
    "read_jsonl_records": "jsonl_pieces",
    "BAG_PIECE_WORDS": "parquet_output",
    "TEXT_PIECE_CHARS": "parquet_output",
    "read_parquet_records": "parquet_output",
    "record_rows": "parquet_output",
    "write_parquet_records": "parquet_output",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.io.cache_dir import cache_dir_problem, user_cache_dir
    from emprivacy.io.corpus import (
        InputFile,
        InputSurvey,
        UniqueIds,
        check_readable,
        expand_inputs,
        iter_documents,
        read_text_file,
        survey_inputs,
    )
    from emprivacy.io.documents import CHUNK_CHARS, Document, read_text_chunks, standard_input
    from emprivacy.io.jsonl_pieces import copy_jsonl_file, copy_jsonl_record, read_jsonl_records
    from emprivacy.io.output_paths import (
        LOCK_SUFFIX,
        TEMP_SUFFIX,
        check_not_input,
        check_output_path,
        is_stream,
        output_lock,
        write_error,
    )
    from emprivacy.io.outputs import (
        atomic_file,
        atomic_output,
        checked_stdout,
        format_record,
        write_bytes_atomic,
        write_files_atomic,
        write_stdout,
    )
    from emprivacy.io.parquet_output import (
        BAG_PIECE_WORDS,
        TEXT_PIECE_CHARS,
        read_parquet_records,
        record_rows,
        write_parquet_records,
    )
    from emprivacy.io.records import (
        iter_json_objects,
        iter_jsonl,
        iter_parquet,
        jsonl_index,
        parquet_ids,
    )
    from emprivacy.io.streaming import (
        BODY_FIELDS,
        BagBody,
        TextBody,
        is_streamed,
        materialise,
        write_record,
    )
    from emprivacy.io.temporaries import (
        remove_stale_temporaries,
        remove_stale_temporaries_in,
        temporary_destination,
    )

__all__ = [
    "BAG_PIECE_WORDS",
    "BODY_FIELDS",
    "CHUNK_CHARS",
    "LOCK_SUFFIX",
    "TEMP_SUFFIX",
    "TEXT_PIECE_CHARS",
    "BagBody",
    "Document",
    "InputFile",
    "InputSurvey",
    "TextBody",
    "UniqueIds",
    "atomic_file",
    "atomic_output",
    "cache_dir_problem",
    "check_not_input",
    "check_output_path",
    "check_readable",
    "checked_stdout",
    "copy_jsonl_file",
    "copy_jsonl_record",
    "expand_inputs",
    "format_record",
    "is_stream",
    "is_streamed",
    "iter_documents",
    "iter_json_objects",
    "iter_jsonl",
    "iter_parquet",
    "jsonl_index",
    "materialise",
    "output_lock",
    "parquet_ids",
    "read_jsonl_records",
    "read_parquet_records",
    "read_text_chunks",
    "read_text_file",
    "record_rows",
    "remove_stale_temporaries",
    "remove_stale_temporaries_in",
    "standard_input",
    "survey_inputs",
    "temporary_destination",
    "user_cache_dir",
    "write_bytes_atomic",
    "write_error",
    "write_files_atomic",
    "write_parquet_records",
    "write_record",
    "write_stdout",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
