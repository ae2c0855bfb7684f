"""Loading your own embeddings (issue 17): first load against gensim, and the cache.

A GloVe-like text file is generated on the fly in a temporary directory (seeded):
``--words`` rows (400k) of ``--dim`` values (300) written ``%.5f``, about 1 GB; one
row in ``--spaced`` (200) holds a word with a space in it, as GloVe 840B does
(``"new york"``).  Each measurement runs in a fresh interpreter (nothing cached in
the process; the file itself is in the page cache for all of them, having just been
written) and times the loading call only, not the interpreter's start or imports:

* ``gensim`` — ``KeyedVectors.load_word2vec_format(path, binary=False,
  no_header=True, datatype=float32)`` on a *copy* of the file in which the space in
  each spaced word is an underscore (``"new_york"``): gensim splits rows on every
  space and cannot read the spaced words.  The copy has the same rows and bytes;
* ``first load`` — ``load_embeddings(path, vocab_size=None, cache=True)`` on the
  file with the spaced words, the cache directory (``$EMPRIVACY_CACHE_DIR``) empty:
  parsing, plus writing the cache entry;
* ``cached load`` — the same call again, in a new process: the entry is checked
  (CRC-32 of the 480 MB of vectors) and memory-mapped;
* ``cache=False`` — ``load_embeddings(path, vocab_size=None, cache=False)``.

Ours keep every real word (the spaced words are read, then left out of the
vocabulary as they are not real words).  The fingerprints of our three loads must be
equal (the run fails otherwise).  Targets: the first load no slower than gensim,
the cached load ≤ 1 s.

Usage::

    python benchmarks/embeddings_load.py [--words 400000] [--dim 300] [--spaced 200]
                                         [--seed 0] [--no-write]

Prints a table, writes ``benchmarks/results/embeddings_load.json`` and the table of
``docs/BENCHMARKS.md`` (between the ``embeddings-load`` markers).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decode import ROOT, machine_info, publish

RESULTS = ROOT / "benchmarks" / "results" / "embeddings_load.json"
BEGIN, END = "<!-- embeddings-load:begin -->", "<!-- embeddings-load:end -->"
CACHED_TARGET_S = 1.0

#: Times one load in a fresh interpreter; prints JSON: seconds, words, fingerprint, peak RSS
#: (of the load: the interpreter, imports and the loaded vectors; the mapped pages of a
#: cached load count in it, though they are the page cache's, shared by every process).
CHILD = """
import json, resource, sys, time
which, path = sys.argv[1], sys.argv[2]
if which == "gensim":
    import numpy as np
    from gensim.models import KeyedVectors
    t0 = time.perf_counter()
    kv = KeyedVectors.load_word2vec_format(path, binary=False, no_header=True,
                                           datatype=np.float32)
    seconds, words, fingerprint = time.perf_counter() - t0, len(kv.index_to_key), None
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
else:
    from emprivacy import load_embeddings
    t0 = time.perf_counter()
    emb = load_embeddings(path, vocab_size=None, cache=(which != "nocache"))
    seconds, words = time.perf_counter() - t0, len(emb)
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # before the fingerprint
    fingerprint = emb.fingerprint  # (copies the vectors)
print(json.dumps({"seconds": seconds, "words": words, "fingerprint": fingerprint,
                  "maxrss_mb": maxrss / 1024}))
"""


def _word(k: int) -> str:
    """The ``k``-th word: letters only (a real word), short ones first."""
    letters = []
    while True:
        letters.append(chr(ord("a") + k % 26))
        k //= 26
        if not k:
            return "".join(letters)


def make_files(directory: Path, words: int, dim: int, spaced: int,
               seed: int) -> tuple[Path, Path]:
    """Write ``glove.txt`` (spaced words) and ``glove-underscored.txt`` (gensim's copy)."""
    gen = np.random.default_rng(seed)
    ours, theirs = directory / "glove.txt", directory / "glove-underscored.txt"
    row_format = " ".join(["%.5f"] * dim)
    with open(ours, "w", encoding="utf-8") as fa, open(theirs, "w", encoding="utf-8") as fb:
        for start in range(0, words, 10_000):
            block = gen.normal(0.0, 0.4, (min(10_000, words - start), dim))
            rows_a, rows_b = [], []
            for i, values in enumerate(block.tolist(), start=start):
                word = _word(i)
                numbers = row_format % tuple(values)
                if spaced and i % spaced == spaced - 1:
                    rows_a.append(f"{word} {_word(i + 7)} {numbers}")
                    rows_b.append(f"{word}_{_word(i + 7)} {numbers}")
                else:
                    rows_a.append(f"{word} {numbers}")
                    rows_b.append(rows_a[-1])
            fa.write("\n".join(rows_a) + "\n")
            fb.write("\n".join(rows_b) + "\n")
    return ours, theirs


def run_child(which: str, path: Path, cache_dir: Path) -> dict[str, Any]:
    env = dict(os.environ, EMPRIVACY_CACHE_DIR=str(cache_dir))
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, which, str(path)], env=env,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{which} failed ({done.returncode}): {done.stderr.strip()}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_s"] = wall
    result["stderr"] = done.stderr.strip()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=400_000, help="rows of the file")
    parser.add_argument("--dim", type=int, default=300, help="values per row")
    parser.add_argument("--spaced", type=int, default=200,
                        help="one row in this many has a word with a space (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    load_start = list(os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="emprivacy-embeddings-load-") as tmp:
        directory = Path(tmp)
        t0 = time.perf_counter()
        ours, theirs = make_files(directory, args.words, args.dim, args.spaced, args.seed)
        generated_s = time.perf_counter() - t0
        size_mb = ours.stat().st_size / 1e6
        print(f"generated {ours.name} ({size_mb:.0f} MB) in {generated_s:.0f} s", flush=True)
        cache_dir = directory / "cache"
        runs: dict[str, dict[str, Any]] = {}
        for which, path in [("gensim", theirs), ("first", ours), ("cached", ours),
                            ("nocache", ours)]:
            runs[which] = run_child(which, path, cache_dir)
            print(f"  {which}: {runs[which]['seconds']:.2f} s", flush=True)
        entry_mb = sum(f.stat().st_size for f in (cache_dir / "embeddings").iterdir()) / 1e6
    prints = {runs[w]["fingerprint"] for w in ("first", "cached", "nocache")}
    if len(prints) != 1:
        raise SystemExit(f"the three loads differ: fingerprints {sorted(prints)}")
    gensim_s = runs["gensim"]["seconds"]
    labels = {"gensim": "gensim `load_word2vec_format` (underscored copy)",
              "first": "ours, first load (`cache=True`, empty cache)",
              "cached": "ours, cached load (new process)",
              "nocache": "ours, `cache=False`"}
    rows = [{"load": labels[w], "seconds": round(r["seconds"], 3),
             "ratio_to_gensim": round(r["seconds"] / gensim_s, 3),
             "process_s": round(r["process_s"], 2), "words": r["words"],
             "maxrss_mb": round(r["maxrss_mb"])} for w, r in runs.items()]
    report = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": machine_info(),
              "words": args.words, "dim": args.dim, "spaced_every": args.spaced,
              "seed": args.seed, "file_mb": round(size_mb), "cache_entry_mb": round(entry_mb),
              "load_average_start": load_start, "load_average_end": list(os.getloadavg()),
              "targets": {"first_load_vs_gensim": runs["first"]["seconds"] <= gensim_s,
                          "cached_load_s": runs["cached"]["seconds"] <= CACHED_TARGET_S},
              "loads": rows}
    lines = ["| load | seconds | ÷ gensim | process (s) | words | peak RSS (MB) |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['load']} | {r['seconds']:.2f} | {r['ratio_to_gensim']:.3f} | "
                     f"{r['process_s']:.1f} | {r['words']:,} | {r['maxrss_mb']:,} |")
    la0 = ", ".join(f"{x:.2f}" for x in load_start)
    la1 = ", ".join(f"{x:.2f}" for x in report["load_average_end"])
    met = report["targets"]
    table = "\n".join(lines) + (
        f"\n\n{args.words:,} words × {args.dim} (`%.5f`), {size_mb:.0f} MB, one word in "
        f"{args.spaced} with a space; cache entry {entry_mb:.0f} MB; {report['date']}; "
        f"load average at the start {la0}, at the end {la1}.  First load no slower than "
        f"gensim: {'yes' if met['first_load_vs_gensim'] else '**no**'}; cached load ≤ "
        f"{CACHED_TARGET_S:g} s: {'yes' if met['cached_load_s'] else '**no**'}.")
    print(table)
    if not args.no_write:
        publish(report, table, RESULTS, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
