"""End-to-end benchmark: ``emprivacy obfuscate`` on a 1M-word corpus vs decoding alone.

A synthetic JSONL corpus (documents of 100–300 words drawn from the 100k-word
default vocabulary with a Zipf law, like running text, stopwords left out so that
every word is decoded; the script checks that the CLI released exactly as many
noisy words as the corpus holds) is obfuscated by the CLI
in a subprocess::

    emprivacy obfuscate corpus.jsonl --epsilon 10 --decoder D --format jsonl \\
        --output out.jsonl --quiet --seed 1

and, in this process, the same words (their noisy vectors, made by the same
mechanism) are decoded by the same decoder in batches of the CLI's size, so that
``end-to-end words/s ÷ decoder-only words/s`` says how much of the run the rest
of the pipeline takes (interpreter start, loading embeddings and index, reading
and tokenising, noise, writing).  Both are measured in wall-clock time and in CPU
seconds (the subprocess's from ``getrusage``): CPU seconds are not inflated by
other processes competing for the cores.  The decoder-only rate is measured
before and after the CLI run; the faster counts.

Usage::

    python benchmarks/pipeline.py [--words 1000000] [--decoders exact,approximate]
                                  [--decode-sample 100000] [--profile]

Prints a table, writes ``benchmarks/results/pipeline.json`` and the table of
``docs/BENCHMARKS.md`` (between the ``pipeline`` markers).  ``--profile`` also
runs the CLI in-process under cProfile on a 200k-word slice and prints where the
time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from emprivacy import EarthMoversPrivacy, bag_of_words, load_embeddings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decode import ROOT, machine_info, publish

RESULTS = ROOT / "benchmarks" / "results" / "pipeline.json"
BEGIN, END = "<!-- pipeline:begin -->", "<!-- pipeline:end -->"
EPSILON = 10.0
BATCH = 16384  # the Obfuscator's default batch_words


def make_corpus(path: Path, words: tuple[str, ...], n_words: int, seed: int) -> np.ndarray:
    """Write a JSONL corpus of ``n_words`` vocabulary words; return their row indices.

    Only words that are their own bag of words (not stopwords, Def. 1) are used, so that
    every word of the corpus is decoded: 1M words in, 1M noisy words out.
    """
    gen = np.random.default_rng(seed)
    keep = np.array([i for i, w in enumerate(words) if bag_of_words(w) == [w]], dtype=np.int64)
    p = 1.0 / (np.arange(len(keep)) + 2.7)
    idx = keep[gen.choice(len(keep), size=n_words, p=p / p.sum())]
    with open(path, "w", encoding="utf-8") as fh:
        start, doc = 0, 0
        while start < n_words:
            n = min(int(gen.integers(100, 301)), n_words - start)
            text = " ".join(words[i] for i in idx[start:start + n])
            fh.write(json.dumps({"id": f"doc{doc:06d}", "text": text}) + "\n")
            start, doc = start + n, doc + 1
    return idx


def run_cli(corpus: Path, out: Path, decoder: str, env: dict[str, str]) -> dict[str, float]:
    cmd = [sys.executable, "-m", "emprivacy", "obfuscate", str(corpus), "--epsilon", str(EPSILON),
           "--decoder", decoder, "--format", "jsonl", "--output", str(out), "--quiet",
           "--seed", "1"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"emprivacy obfuscate failed ({proc.returncode}): {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"seconds": wall, "cpu_seconds": cpu}


def decode_only(mech: EarthMoversPrivacy, idx: np.ndarray) -> dict[str, float]:
    """Decode the noisy vectors of ``idx`` in CLI-sized batches; time the decoding only."""
    wall = cpu = 0.0
    gen = np.random.default_rng(7)
    for s in range(0, len(idx), BATCH):
        z = mech.noisy_vectors(idx[s:s + BATCH], rng=gen)
        t0, c0 = time.perf_counter(), time.process_time()
        mech.decoder.decode(z)
        wall += time.perf_counter() - t0
        cpu += time.process_time() - c0
    return {"seconds": wall, "cpu_seconds": cpu, "words": len(idx)}


def run_cli_in_process(corpus: Path, out: Path, decoder: str) -> dict[str, float]:
    """The same command in this process, with the decoder's ``decode`` timed: the share of
    the run spent decoding, measured within one run (so contention affects both alike)."""
    from emprivacy.cli import main as cli_main
    from emprivacy.decoding import ApproximateDecoder, ExactDecoder

    spent = {"seconds": 0.0, "cpu_seconds": 0.0, "words": 0}
    originals = {cls: cls.decode for cls in (ExactDecoder, ApproximateDecoder)}

    def timed_decode(original: Any) -> Any:
        def decode(self: Any, points: np.ndarray) -> np.ndarray:
            t0, c0 = time.perf_counter(), time.process_time()
            result = original(self, points)
            spent["seconds"] += time.perf_counter() - t0
            spent["cpu_seconds"] += time.process_time() - c0
            spent["words"] += len(points)
            return result
        return decode

    for cls, original in originals.items():
        cls.decode = timed_decode(original)  # type: ignore[method-assign]
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        code = cli_main(["obfuscate", str(corpus), "--epsilon", str(EPSILON), "--decoder",
                         decoder, "--format", "jsonl", "--output", str(out), "--quiet",
                         "--seed", "1"])
        total, total_cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        for cls, original in originals.items():
            cls.decode = original  # type: ignore[method-assign]
    if code != 0:
        raise RuntimeError(f"emprivacy obfuscate failed in-process ({code})")
    return {"seconds": total, "cpu_seconds": total_cpu, "decode_seconds": spent["seconds"],
            "decode_cpu_seconds": spent["cpu_seconds"], "decoded_words": spent["words"]}


def profile_cli(corpus: Path, decoder: str, words: int, tmp: Path) -> str:
    from emprivacy.cli import main as cli_main

    lines = corpus.read_text(encoding="utf-8").splitlines()
    part, total = [], 0
    for line in lines:
        part.append(line)
        total += len(json.loads(line)["text"].split())
        if total >= words:
            break
    small = tmp / "profile.jsonl"
    small.write_text("\n".join(part) + "\n", encoding="utf-8")
    prof = cProfile.Profile()
    prof.enable()
    cli_main(["obfuscate", str(small), "--epsilon", str(EPSILON), "--decoder", decoder,
              "--format", "jsonl", "--output", str(tmp / "profile.out.jsonl"), "--quiet",
              "--seed", "1"])
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(25)
    return buf.getvalue()


def markdown(report: dict[str, Any]) -> str:
    lines = [f"Measured {report['date']}; {report['words']:,} words in {report['documents']:,} "
             f"documents, ε = {EPSILON:g}, vocabulary 100k × 50, load average at start / end "
             f"{report['load_average_start']:.1f} / {report['load_average_end']:.1f}.",
             "",
             "| decoder | end-to-end w/s | decoder-only w/s | ratio | end-to-end w/CPU-s "
             "| decoder-only w/CPU-s | ratio (CPU) | decoding's share of one run (wall / CPU) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in report["runs"]:
        lines.append(f"| {r['decoder']} | {r['end_to_end_wps']:,.0f} | {r['decoder_wps']:,.0f} "
                     f"| {r['ratio']:.2f} | {r['end_to_end_wpcs']:,.0f} | {r['decoder_wpcs']:,.0f} "
                     f"| {r['ratio_cpu']:.2f} | {100 * r['decode_share']:.0f} % / "
                     f"{100 * r['decode_share_cpu']:.0f} % |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=1_000_000)
    parser.add_argument("--decoders", default="exact,approximate")
    parser.add_argument("--decode-sample", type=int, default=100_000,
                        help="words of the corpus decoded alone (the rate is what counts)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    emb = load_embeddings(vocab_size=100_000)
    report: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": machine_info(),
                              "words": args.words, "epsilon": EPSILON, "runs": [],
                              "load_average_start": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory(prefix="emprivacy-pipeline-") as tmp_name:
        tmp = Path(tmp_name)
        corpus = tmp / "corpus.jsonl"
        idx = make_corpus(corpus, emb.words, args.words, seed=1)
        report["documents"] = sum(1 for _ in open(corpus, encoding="utf-8"))
        env = dict(os.environ, EMPRIVACY_CACHE_DIR=str(tmp / "cache"))
        os.environ["EMPRIVACY_CACHE_DIR"] = str(tmp / "cache")  # the same index for both
        sample = idx[:args.decode_sample]
        for decoder in args.decoders.split(","):
            mech = EarthMoversPrivacy(emb, epsilon=EPSILON, rng=0, decoder=decoder)  # builds
            first = decode_only(mech, sample)
            cli = run_cli(corpus, tmp / "out.jsonl", decoder, env)
            with open(tmp / "out.jsonl", encoding="utf-8") as fh:
                released = sum(len(json.loads(line)["bag"]) for line in fh)
            if released != args.words:
                raise RuntimeError(f"the CLI released {released} words, not {args.words}")
            inproc = run_cli_in_process(corpus, tmp / "out2.jsonl", decoder)
            second = decode_only(mech, sample)
            dec = min(first, second, key=lambda r: r["seconds"])
            dec_cpu = min(first["cpu_seconds"], second["cpu_seconds"])
            run = {"decoder": decoder, "cli": cli, "decode_only": [first, second],
                   "in_process": inproc,
                   "end_to_end_wps": args.words / cli["seconds"],
                   "decoder_wps": len(sample) / dec["seconds"],
                   "end_to_end_wpcs": args.words / cli["cpu_seconds"],
                   "decoder_wpcs": len(sample) / dec_cpu,
                   "decode_share": inproc["decode_seconds"] / inproc["seconds"],
                   "decode_share_cpu": inproc["decode_cpu_seconds"] / inproc["cpu_seconds"]}
            run["ratio"] = run["end_to_end_wps"] / run["decoder_wps"]
            run["ratio_cpu"] = run["end_to_end_wpcs"] / run["decoder_wpcs"]
            report["runs"].append(run)
            print(f"{decoder}: end to end {run['end_to_end_wps']:,.0f} w/s "
                  f"({cli['seconds']:.1f} s), decoder only {run['decoder_wps']:,.0f} w/s: "
                  f"ratio {run['ratio']:.2f} (CPU-time ratio {run['ratio_cpu']:.2f}); "
                  f"in one in-process run, decoding took {100 * run['decode_share']:.0f} % of "
                  f"the time ({100 * run['decode_share_cpu']:.0f} % of the CPU time)",
                  flush=True)
            if args.profile:
                print(profile_cli(corpus, decoder, 200_000, tmp))
    report["load_average_end"] = os.getloadavg()[0]
    table = markdown(report)
    print("\n" + table)
    if not args.no_write:
        publish(report, table, RESULTS, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
