"""What entity protection costs, side by side in one run (issue 40, "Cost").

The same words (the labelled sentences of ``benchmarks/data/entities_labelled.txt``,
repeated in a seeded order to ``--words`` words, 100,000 by default) in two shapes: **one
long document**, and **paragraphs** (``--paragraphs`` documents, 2,000 by default).  For each
shape, in turn within each of ``--rounds`` rounds (5), each setting runs in a fresh
subprocess, which loads what it needs, warms up on one paragraph (as it is, in lower case and
in capitals: every list a setting loads once per process is loaded), then times its work
(CPU seconds of the process, ``time.process_time``) and reports its peak RSS:

* ``none`` — ``obfuscate`` in text mode at ε = 10 without entities;
* ``recogniser`` — spaCy's recogniser alone (``en_core_web_sm``, the components
  ``--entities spacy`` keeps) over the same texts, ``nlp.pipe`` in batches of 64;
* ``auto`` — text mode with ``--entities auto``;
* ``presidio`` — Presidio's ``AnalyzerEngine`` with its defaults on the same pipeline (its
  anonymizer is not installed here: the analyzer alone, a lower bound of Presidio's cost).

Printed: the median CPU seconds of each (and its range), ``auto / (none + recogniser)``
(issue 40's target: at most 1.1) of the medians and as the median of each round's own
ratio, ``auto / none``, and the peak RSS of each (target for ``auto`` on the long document:
at most 1 GB).

Usage::

    python benchmarks/entities_cost.py [--words 100000] [--paragraphs 2000] [--rounds 5]
                                       [--only one|paragraphs] [--without-presidio]

Needs the ``ner`` extra.  Prints its figures; writes nothing but temporary files.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).parent / "data"
SETTINGS = ("none", "recogniser", "auto", "presidio")

CHILD = r"""
import json, resource, sys, time
setting, path = sys.argv[1], sys.argv[2]
texts = json.load(open(path, encoding="utf-8"))
# the warm-up: one paragraph as it is, in lower case and in capitals, so that what a setting
# loads once per process (models, word lists: the place lists wait for the first text in
# lower case or capitals) is loaded before the timing, as the models are
warm = [texts[0][:2000], texts[0][:2000].lower(), texts[0][:2000].upper()]

def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

if setting in ("none", "auto"):
    from emprivacy import load_embeddings
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
    mech = EarthMoversPrivacy(load_embeddings(), epsilon=10.0)
    config = ObfuscationConfig(mode="text", entities=setting)
    def work(batch):
        obf = Obfuscator(mech, config, seed=1, on_warning=lambda m: None)
        for _ in obf.obfuscate([Document(str(i), t) for i, t in enumerate(batch)]):
            pass
elif setting == "recogniser":
    from emprivacy.entities import SpacyDetector
    nlp = SpacyDetector().nlp
    def work(batch):
        for _ in nlp.pipe(batch, batch_size=64):
            pass
else:
    import tldextract  # its e-mail recogniser: the bundled public suffix list, no fetch
    tldextract.tldextract.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=())
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import SpacyNlpEngine
    from emprivacy.entities.spacy_detector import DEFAULT_PIPELINE
    engine = SpacyNlpEngine(models=[{"lang_code": "en", "model_name": DEFAULT_PIPELINE}])
    engine.load()
    analyzer = AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])
    def work(batch):
        for t in batch:
            analyzer.analyze(t, language="en")
work(warm)
cpu, wall = time.process_time(), time.perf_counter()
work(texts)
print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
                  "rss_mb": peak_mb()}))
"""


def corpus(words: int, paragraphs: int) -> dict[str, list[str]]:
    """The two shapes of the same words: one document, and ``paragraphs`` documents."""
    mark = __import__("re").compile(r"\[([^\]]+)\]\((PERSON|LOCATION|ORG)\)")
    sentences = [mark.sub(r"\1", line.strip())
                 for line in (DATA / "entities_labelled.txt").read_text(encoding="utf-8")
                 .splitlines() if line.strip() and not line.startswith("#")]
    gen = random.Random(0)
    chosen: list[str] = []
    count = 0
    while count < words:
        s = gen.choice(sentences)
        chosen.append(s)
        count += len(s.split())
    n = len(chosen)
    paras = [" ".join(chosen[i * n // paragraphs:(i + 1) * n // paragraphs])
             for i in range(min(paragraphs, n))]
    return {"one document": ["\n\n".join(paras)], "paragraphs": paras}


def run(setting: str, path: Path) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", CHILD, setting, str(path)], text=True,
                          capture_output=True, check=False, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"{setting}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--paragraphs", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", choices=("one", "paragraphs"))
    parser.add_argument("--without-presidio", action="store_true",
                        help="leave out Presidio's analyzer (the slowest setting)")
    args = parser.parse_args()
    settings = SETTINGS[:3] if args.without_presidio else SETTINGS
    shapes = corpus(args.words, args.paragraphs)
    if args.only is not None:
        shapes = {k: v for k, v in shapes.items() if k.startswith(args.only)}
    print(f"{args.words:,} words; {args.rounds} rounds, each setting in a fresh process in "
          f"turn; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory() as tmp:
        for shape, texts in shapes.items():
            path = Path(tmp) / "texts.json"
            path.write_text(json.dumps(texts), encoding="utf-8")
            got: dict[str, list[dict[str, float]]] = {s: [] for s in settings}
            for _ in range(args.rounds):
                for setting in settings:
                    got[setting].append(run(setting, path))
            cpu = {s: statistics.median(r["cpu"] for r in got[s]) for s in settings}
            print(f"  {shape} ({len(texts):,} document(s)):")
            for s in settings:
                values = [r["cpu"] for r in got[s]]
                rss = max(r["rss_mb"] for r in got[s])
                print(f"    {s:<11} CPU {cpu[s]:7.2f} s (median; {min(values):.2f}-"
                      f"{max(values):.2f})  peak RSS {rss:6.0f} MB")
            floor = cpu["none"] + cpu["recogniser"]
            # the same ratio round by round (the three runs of a round are minutes apart,
            # the rounds further): this machine's speed drifts between rounds
            paired = statistics.median(
                a["cpu"] / (n["cpu"] + r["cpu"])
                for a, n, r in zip(got["auto"], got["none"], got["recogniser"], strict=True))
            print(f"    auto / (none + recogniser) = {cpu['auto'] / floor:.2f} of the medians, "
                  f"{paired:.2f} median of the rounds' own  (target <= 1.1);  auto / none = "
                  f"{cpu['auto'] / cpu['none']:.2f}"
                  + (f";  presidio analyzer / auto = {cpu['presidio'] / cpu['auto']:.2f}"
                     if "presidio" in cpu else ""))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
