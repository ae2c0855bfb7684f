"""Calibration and text-mode benchmark: the cost of ``emprivacy calibrate`` and of text mode.

Part 1 — ``calibrate`` on the default embeddings (1,000 words × 100 trials by
default): the pass over the vocabulary that finds every trial's critical ε, each
``measure(ε)`` of the default grid, and, side by side for two ε, the same
statistics computed by brute force (decoding every one of the 100,000 trials);
the script checks that both give identical N_w.

Part 2 — text mode against bag mode on the same synthetic corpus (words drawn from
the vocabulary with a Zipf law, sentences with punctuation, stopwords, numbers):
words per second through :class:`emprivacy.obfuscation.obfuscator.Obfuscator`, and the
number of decoding calls (text mode batches across documents like bag mode: one
call per batch of about 16k words).

Usage::

    python benchmarks/calibration.py [--n-words 1000] [--trials 100] [--corpus-words 200000]

Prints its figures; timings on a shared machine are upper figures.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from emprivacy import EarthMoversPrivacy, load_embeddings
from emprivacy.io.documents import Document
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.protection.epsilon.deniability import DeniabilityStudy
from emprivacy.text.word_lists import STOPWORDS


class CountingDecoder:
    """Counts the calls to a decoder."""

    def __init__(self, inner) -> None:
        self.inner, self.calls, self.name = inner, 0, inner.name

    def decode(self, points):
        self.calls += 1
        return self.inner.decode(points)


def brute_unchanged(study: DeniabilityStudy, eps: float) -> np.ndarray:
    emb = study.embeddings
    pts = (emb.vectors[study.rows].astype(np.float64)[:, None, :]
           + study.directions * (study.radii / eps)[:, :, None])
    out = study.decoder.decode(pts.reshape(-1, emb.dim).astype(np.float32))
    return (out.reshape(study.radii.shape) == study.rows[:, None]).mean(axis=1)


def part_calibrate(emb, n_words: int, trials: int) -> None:
    print(f"== calibrate: {n_words} words × {trials} trials, {len(emb)} × {emb.dim} "
          "embeddings")
    t0 = time.perf_counter()
    study = DeniabilityStudy(emb, n_words=n_words, trials=trials, rng=0)
    t_pass = time.perf_counter() - t0
    print(f"pass over the vocabulary (critical ε of every trial): {t_pass:8.1f} s")
    t0 = time.perf_counter()
    grid = study.default_epsilons()
    print(f"default ε grid by bisection {grid}: {time.perf_counter() - t0:8.3f} s")
    total = t_pass
    for eps in grid:
        t0 = time.perf_counter()
        res = study.measure(eps)
        dt = time.perf_counter() - t0
        total += dt
        decoded = float(np.mean(eps < study.critical * 1.01))
        print(f"measure ε = {eps:6g}: {dt:7.1f} s  (decoded {decoded:6.1%} of the trials; "
              f"median N_w {res.median_unchanged:.3f})")
    print(f"total (pass + grid): {total:.1f} s")
    for eps in (grid[len(grid) // 2], grid[-1]):
        t0 = time.perf_counter()
        fast = study.measure(eps).unchanged
        t_fast = time.perf_counter() - t0
        t0 = time.perf_counter()
        brute = brute_unchanged(study, eps)
        t_brute = time.perf_counter() - t0
        same = bool(np.array_equal(fast, brute))
        print(f"ε = {eps:g}: shortcut {t_fast:.1f} s vs brute-force decoding {t_brute:.1f} s "
              f"(ratio {t_brute / max(t_fast, 1e-9):.1f}×); identical N_w: {same}")
        if not same:
            raise SystemExit("the shortcut disagrees with brute-force decoding")


def synthetic_corpus(emb, n_words: int, rng: np.random.Generator) -> list[Document]:
    content = [w for w in emb.words[:20000] if w not in STOPWORDS]
    ranks = np.arange(1, len(content) + 1)
    p = (1 / ranks) / (1 / ranks).sum()
    stop = ["the", "of", "and", "a", "to", "in", "was", "he", "she", "it"]
    docs, i = [], 0
    while i < n_words:
        words = []
        for _ in range(200):
            w = content[rng.choice(len(content), p=p)] if rng.random() < 0.55 else \
                stop[rng.integers(len(stop))]
            if rng.random() < 0.1:
                w = w.capitalize()
            words.append(w)
            if rng.random() < 0.08:
                words[-1] += rng.choice([",", ".", ";", "!"])
            if rng.random() < 0.01:
                words.append(str(rng.integers(1, 2000)))
        docs.append(Document(f"doc{len(docs)}", " ".join(words) + "\n"))
        i += len(words)
    return docs


def part_text_mode(emb, corpus_words: int) -> None:
    rng = np.random.default_rng(1)
    docs = synthetic_corpus(emb, corpus_words, rng)
    n_tokens = sum(len(d.text.split()) for d in docs)
    print(f"\n== text mode vs bag mode: {len(docs)} documents, {n_tokens} tokens, ε = 10")
    for mode in ("bag", "text"):
        dec = CountingDecoder(EarthMoversPrivacy(emb, epsilon=10).decoder)
        mech = EarthMoversPrivacy(emb, epsilon=10, decoder=dec)
        t0 = time.perf_counter()
        records = list(Obfuscator(mech, ObfuscationConfig(mode=mode), seed=0).obfuscate(docs))
        dt = time.perf_counter() - t0
        perturbed = sum(r["n_words"] for r in records)
        print(f"{mode:>4} mode: {dt:6.1f} s, {perturbed} words perturbed, "
              f"{perturbed / dt:9.0f} words/s, {dec.calls} decoding call(s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n-words", type=int, default=1000)
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--corpus-words", type=int, default=200_000)
    ap.add_argument("--skip-calibrate", action="store_true")
    args = ap.parse_args()
    emb = load_embeddings()
    if not args.skip_calibrate:
        part_calibrate(emb, args.n_words, args.trials)
    part_text_mode(emb, args.corpus_words)


if __name__ == "__main__":
    main()
