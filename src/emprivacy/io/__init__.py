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

Nothing is imported here: each module is imported where it is used.
"""
