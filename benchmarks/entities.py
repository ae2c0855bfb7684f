"""Entity protection in text mode, measured (issue 29): names released verbatim, the change
of other words, detection speed and detection quality.

(a) Text mode at ε = 10 on the unseen letters of ``benchmarks/data/entities_letters.txt``
    (the issue's appointment letter and a letter of 31 person-name tokens), with
    ``--entities auto`` and without, over ``--seeds`` seeds: the share of person-name tokens
    released verbatim (target: at most 1 in 20 with entities), and the share of the other
    content words (the slots of the run without entities that no gold entity covers) that
    change (target: equal within 5 points).
(b) Words per second of ``obfuscate`` in text mode on ``--docs`` distinct documents (5
    labelled sentences each, a seeded sample), detection on (``auto``, ``capitalised``)
    against off (target for ``auto``: at least 0.5× of off), after a warm-up that loads every
    model: ``--rounds`` rounds, each setting once per round in turn, the ratio to off taken
    round by round (its median and range), with the CPU time of each and the load average;
    then spaCy's recogniser alone, as stage 1 ran it and as it runs now.
(c) Detection quality on the labelled sentences of ``benchmarks/data/entities_labelled.txt``
    (57 sentences of varied styles, person/place/organisation spans marked by hand): token
    recall and precision per detector — typed for spaCy (a gold token of type T found by a
    span of type T), untyped for the capitalised detector and the union (any entity type).
(d) Issue 40's cost, side by side in one run (median of ``--rounds``): the CPU of ``none``,
    of spaCy's recogniser alone, of ``auto`` and of Presidio's analyzer on one 100k-word
    document and on the same words as 2,000 paragraphs, ``auto / (none + recogniser)``
    (target ≤ 1.1) and the peak RSS (target ≤ 1 GB): ``benchmarks/entities_cost.py``, run
    from here.

Usage::

    python benchmarks/entities.py [--seeds 10] [--docs 400] [--rounds 5] [--only a|b|c|d]

Prints its figures; writes nothing.  Needs the ``ner`` extra for ``auto`` to mean spaCy,
Presidio and capitalised words (without it ``auto`` is the capitalised detector alone, and
this says so).
"""

from __future__ import annotations

import argparse
import random
import re
import time
from pathlib import Path

DATA = Path(__file__).parent / "data"
MARK = re.compile(r"\[([^\]]+)\]\((PERSON|LOCATION|ORG)\)")
#: A vocabulary word: letters, joined by inner apostrophes or hyphens.
WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
TITLES = {"dr", "mr", "mrs", "ms", "st", "professor", "uncle", "senator", "detective"}


def unmark(text: str) -> tuple[str, list[tuple[int, int, str]]]:
    """The text without its marks ``[text](TYPE)``, and the gold spans (start, end, type)."""
    from emprivacy.evaluation.entity_leaks import unmark as unmark_labelled

    return unmark_labelled(text, pattern=MARK, text_group=1, label_group=2)


def read_lines(name: str) -> list[str]:
    return [line for line in (DATA / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def read_letters() -> list[str]:
    body = "\n".join(line for line in (DATA / "entities_letters.txt").read_text(
        encoding="utf-8").splitlines() if not line.startswith("#"))
    return [doc.strip() + "\n" for doc in body.split("\n---\n")]


def gold_tokens(text: str, spans: list[tuple[int, int, str]]) -> dict[int, str]:
    """Start offset → gold type of each word token inside a gold span (titles left out)."""
    from emprivacy.text.normalise import normalise_word
    from emprivacy.text.tokens import tokenize

    out = {}
    for tok in tokenize(text):
        if tok.kind != "word" or normalise_word(tok.text) in TITLES:
            continue
        for start, end, kind in spans:
            if start <= tok.start and tok.end <= end:
                out[tok.start] = kind
    return out


def released_words(template, release: str) -> list[str]:
    """The word released at each slot of ``template``, in slot order (``release`` was
    rendered from it)."""
    pieces = template.pieces
    out, pos = [], len(pieces[0])
    for i in range(len(template.cases)):
        word = WORD.match(release, pos)
        if word is None or not release.startswith(pieces[i + 1], word.end()):
            raise ValueError(f"slot {i} not found at {pos}: {release[pos:pos + 30]!r}")
        out.append(word.group())
        pos = word.end() + len(pieces[i + 1])
    return out


def slot_starts(template, text: str, vocabulary) -> list[int]:
    """The offset in ``text`` of each slot's input word, in slot order: the slots' words
    (vocabulary rows, entity keys) matched in order against the text's word tokens."""
    from emprivacy.text.normalise import normalise_word
    from emprivacy.text.tokens import tokenize

    rows = iter(template.indices.tolist())
    keys = template.entities or (None,) * len(template.cases)
    words = [vocabulary[next(rows)] if key is None else key[1] for key in keys]
    tokens = [t for t in tokenize(text) if t.kind == "word"]
    out, k = [], 0
    for word in words:
        while normalise_word(tokens[k].text) != word:
            k += 1
        out.append(tokens[k].start)
        k += 1
    return out


def measure_release(seeds: int) -> None:
    from emprivacy import load_embeddings
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
    from emprivacy.preparation.template import prepare_text
    from emprivacy.text.normalise import normalise_text

    emb = load_embeddings()
    mech = EarthMoversPrivacy(emb, epsilon=10.0)
    docs = []
    for marked in read_letters():
        text, spans = unmark(marked)
        text = normalise_text(text)
        docs.append((text, gold_tokens(text, spans)))
    names = sum(1 for _, gold in docs for k in gold.values() if k == "PERSON")
    print(f"(a) {len(docs)} letters, {names} person-name tokens; ε = 10, entity ε_e = 1, "
          f"{seeds} seeds")
    for entities in ("none", "auto"):
        verbatim = changed = content = 0
        for seed in range(seeds):
            obf = Obfuscator(mech, ObfuscationConfig(mode="text", entities=entities),
                             seed=seed, on_warning=print)
            records = list(obf.obfuscate([Document(str(i), t) for i, (t, _) in
                                          enumerate(docs)]))
            marking = None if obf.entities is None else obf.entities.marking
            for (text, gold), rec in zip(docs, records, strict=True):
                template = prepare_text(text, emb, entities=marking)
                # input offset of each slot → the word released there
                slots = dict(zip(slot_starts(template, text, emb.words),
                                 released_words(template, rec["text"]), strict=True))
                for start, kind in gold.items():
                    end = start + len(WORD.match(text, start).group())
                    if kind == "PERSON" and slots.get(start) == text[start:end]:
                        verbatim += 1
                plain = prepare_text(text, emb)  # the slots of the run without entities
                for start, row in zip(slot_starts(plain, text, emb.words),
                                      plain.indices.tolist(), strict=True):
                    if start in gold:
                        continue
                    content += 1
                    changed += slots.get(start, "").lower() != emb.words[row]
        label = obf.entities.detectors if obf.entities is not None else "none"
        print(f"    entities {entities:<5} ({label}): person names verbatim "
              f"{verbatim / (names * seeds):.3f} ({verbatim}/{names * seeds}); other content "
              f"words changed {changed / content:.3f} ({changed}/{content})")


def speed_texts(n_docs: int) -> list[str]:
    """``n_docs`` distinct documents of 5 labelled sentences each (a seeded sample per
    document: no document repeats, so no detection is saved by a repeated text)."""
    sentences = [unmark(line)[0] for line in read_lines("entities_labelled.txt")]
    texts = list(dict.fromkeys(" ".join(random.Random(i).sample(sentences, 5))
                               for i in range(n_docs + n_docs // 10 + 10)))
    if len(texts) < n_docs:
        raise ValueError(f"only {len(texts)} distinct documents; ask for fewer")
    return texts[:n_docs]


def measure_speed(n_docs: int, rounds: int) -> None:
    """(b): ``rounds`` rounds, each timing every setting once in turn (so a change of the
    machine's load hits them alike); the ratio to off is taken round by round."""
    import os
    import statistics

    from emprivacy import load_embeddings
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
    from emprivacy.text.tokens import tokenize

    texts = speed_texts(n_docs)
    words = sum(1 for t in texts for tok in tokenize(t) if tok.kind == "word")
    mech = EarthMoversPrivacy(load_embeddings(), epsilon=10.0)
    settings = ("none", "capitalised", "auto")

    def run(entities: str, docs: list[str], seed: int) -> tuple[float, float]:
        obf = Obfuscator(mech, ObfuscationConfig(mode="text", entities=entities), seed=seed,
                         on_warning=lambda msg: None)
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in obf.obfuscate([Document(str(i), t) for i, t in enumerate(docs)]):
            pass
        return time.perf_counter() - wall, time.process_time() - cpu

    for entities in settings:  # warm-up: models, lists, sub-vocabularies
        run(entities, texts[:5], 0)
    load = os.getloadavg()
    print(f"(b) {n_docs} distinct documents, {words:,} words, {os.cpu_count()} cores; "
          f"{rounds} rounds of {', '.join(settings)} in turn, after a warm-up; load average "
          f"{load[0]:.1f} (1 min) {load[1]:.1f} (5 min) at the start")
    times: dict[str, list[tuple[float, float]]] = {e: [] for e in settings}
    for rnd in range(rounds):
        for entities in settings:
            times[entities].append(run(entities, texts, rnd + 1))
    load = os.getloadavg()
    for entities in settings:
        wall = [w for w, _ in times[entities]]
        cpu = [c for _, c in times[entities]]
        ratios = [off / w for (off, _), w in zip(times["none"], wall, strict=True)]
        cpu_ratio = statistics.median(c for _, c in times["none"]) / statistics.median(cpu)
        print(f"    entities {entities:<12} {words / statistics.median(wall):>7,.0f} words/s "
              f"(median; best {words / min(wall):,.0f})  {statistics.median(ratios):.2f}x of "
              f"off (median of rounds; {min(ratios):.2f}-{max(ratios):.2f})  CPU "
              f"{statistics.median(cpu):.2f} s: {cpu_ratio:.2f}x of off")
    print(f"    load average {load[0]:.1f} (1 min) {load[1]:.1f} (5 min) at the end")
    measure_recogniser(texts, words)


def measure_recogniser(texts: list[str], words: int) -> None:
    """spaCy's recogniser alone on the documents of (b), in CPU seconds (steadier than the
    wall clock on a shared machine): the pipeline as stage 1 ran it (its shared ``tok2vec``
    on) against the detector's (``tok2vec`` off; their spans are equal:
    tests/entities/test_detection_speed.py), and the detector at other batch sizes."""
    from emprivacy.entities.registry import ner_installed

    if not ner_installed():
        return
    import statistics

    import spacy

    from emprivacy.entities.spacy_detector import DEFAULT_PIPELINE, SpacyDetector

    whole = spacy.load(DEFAULT_PIPELINE, exclude=["tagger", "parser", "attribute_ruler",
                                                  "lemmatizer"])
    detectors = {"tok2vec on, batches of 64": SpacyDetector(whole, batch_size=64),
                 "tok2vec off, batches of 64": SpacyDetector(batch_size=64),
                 "tok2vec off, batches of 128": SpacyDetector(batch_size=128),
                 "tok2vec off, batches of 256": SpacyDetector(batch_size=256)}
    cpu: dict[str, list[float]] = {name: [] for name in detectors}
    for det in detectors.values():
        det.detect(texts)  # warm-up: the tokenizer's cache, as in every later round
    for _ in range(5):
        for name, det in detectors.items():
            start = time.process_time()
            det.detect(texts)
            cpu[name].append(time.process_time() - start)
    print("    spaCy's recogniser alone (median of 5 rounds, words per CPU second): " + "; ".join(
        f"{name} {words / statistics.median(c):,.0f}" for name, c in cpu.items()))


def measure_quality() -> None:
    from emprivacy.entities.capitalised import CapitalisedDetector
    from emprivacy.entities.registry import build_detector, ner_installed

    rows = [unmark(line) for line in read_lines("entities_labelled.txt")]
    texts = [t for t, _ in rows]
    golds = [gold_tokens(t, s) for t, s in rows]
    n_gold = sum(len(g) for g in golds)
    print(f"(c) {len(texts)} sentences, {n_gold} gold entity tokens "
          f"({sum(k == 'PERSON' for g in golds for k in g.values())} person, "
          f"{sum(k == 'LOCATION' for g in golds for k in g.values())} place, "
          f"{sum(k == 'ORG' for g in golds for k in g.values())} organisation)")
    detectors = {"capitalised": CapitalisedDetector()}
    if ner_installed():
        from emprivacy.entities.presidio_detector import PresidioDetector
        from emprivacy.entities.spacy_detector import SpacyDetector

        detectors = {"spacy": SpacyDetector(), "presidio": PresidioDetector(), **detectors,
                     "auto (union)": build_detector("auto")}
    else:
        print("    the 'ner' extra is not installed: capitalised words only")
    for name, det in detectors.items():
        found = det.detect(texts)
        typed = name == "spacy"
        for kind in (("PERSON", "LOCATION", "ORG") if typed else (None,)):
            hit = predicted = correct = 0
            for text, gold, spans in zip(texts, golds, found, strict=True):
                covered = {tok_start for tok_start in _word_starts(text)
                           if any(s.start <= tok_start < s.end and (kind is None
                                                                    or s.type == kind)
                                  for s in spans)}
                want = {s for s, k in gold.items() if kind is None or k == kind}
                hit += len(want & covered)
                predicted += len(covered)
                correct += len(covered & (set(gold) if kind is None else want))
            n_want = sum(1 for g in golds for k in g.values() if kind is None or k == kind)
            recall = hit / n_want if n_want else float("nan")
            precision = correct / predicted if predicted else float("nan")
            print(f"    {name:<13} {kind or 'any type':<9} recall {recall:.2f} ({hit}/{n_want})"
                  f"  precision {precision:.2f} ({correct}/{predicted})")


def _word_starts(text: str) -> list[int]:
    from emprivacy.text.normalise import normalise_word
    from emprivacy.text.tokens import tokenize

    return [t.start for t in tokenize(text)
            if t.kind == "word" and normalise_word(t.text) not in TITLES]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--docs", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", choices=("a", "b", "c", "d"))
    args = parser.parse_args()
    from emprivacy.entities.registry import ner_installed

    print(f"ner extra installed: {ner_installed()}")
    if args.only in (None, "c"):
        measure_quality()
    if args.only in (None, "a"):
        measure_release(args.seeds)
    if args.only in (None, "b"):
        measure_speed(args.docs, args.rounds)
    if args.only in (None, "d"):
        import subprocess
        import sys

        subprocess.run([sys.executable, str(Path(__file__).parent / "entities_cost.py"),
                        "--rounds", str(args.rounds)], check=True)


if __name__ == "__main__":
    main()
