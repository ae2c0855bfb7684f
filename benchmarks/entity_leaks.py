"""Names released verbatim from the texts people release (issue 40), on hand-labelled texts.

The texts are ``tests/entities/labelled/{dev,holdout,holdout2..38}/NN-genre-shape.txt``
(the format is in that folder's README: ``{{PER|dana}}``, ``{{LOC|…}}``, ``{{ORG|…}}``,
``{{DATE|…}}``, ``{{ID|…}}``).  Each held-out folder is read only for one final measurement
(``holdout/`` for the first stage of issue 40, ``holdout2/`` for the second, ``holdout3/``
for the third, ``holdout4/`` for the fourth, ``holdout5/`` for the fifth, ``holdout6/`` for
the sixth, ``holdout7/`` for the seventh, ``holdout8/`` to ``holdout42/`` for the eighth
to forty-second, ``holdout43/`` the forty-second's captions alone, ``holdout44/`` the
forty-third, ``holdout45/`` the forty-third's captions alone, ``holdout46/`` the
forty-fourth, ``holdout47/`` the forty-fifth, ``holdout48/`` the forty-sixth, ``holdout49/``
the forty-seventh, ``holdout50/`` the forty-eighth, ``holdout51/`` the forty-ninth,
``holdout52/`` and ``holdout53/`` the fiftieth, ``holdout54/`` and ``holdout55/`` the
fifty-first: their odd files the stage's tuning half);
``all`` is dev and the first two.

(a) Release: text mode at ``--epsilon`` (10) with ``--entities auto`` (ε_e =
    ``--entity-epsilon``, 1) and with ``--entities none``, over ``--seeds`` seeds.  Input and
    output are tokenised and aligned (``difflib.SequenceMatcher`` over the lower-cased
    tokens); a token in an equal block is *verbatim*.  Per text and overall: person-name
    tokens verbatim (titles left out), place and organisation tokens verbatim (and those of
    them that are the name's words: no function word text mode keeps, no possessive ``'s``),
    the month words of dates and the letter parts of identifiers verbatim, and the share
    of the other content words (vocabulary words outside every label and text mode's kept
    function words) that changed.
(b) Detection per shape (ordinary case, lower case, ALL CAPS, mixed: as the folder's
    README gives it): token recall of person names (a person token the run protects: an
    entity slot of any type or a placeholder) and precision (the tokens the run protects as a
    person that are person tokens), beside Presidio's analyzer with its defaults (its spaCy
    recogniser on the same pipeline, score ≥ 0.4), where the ``ner`` extra is installed.

Usage::

    python benchmarks/entity_leaks.py [--set dev|holdout|holdout2..40|all | --dir FOLDER]
                                      [--seeds 3]
                                      [--only a|b]

``--dir`` measures a folder of labelled texts kept outside the repository (a held-out set
not yet looked at, or a user's own texts); a text's shape is then the last part of its
file name (``01-chat-lower.txt`` → ``lower``).

Prints its figures; writes nothing.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tests" / "entities" / "labelled"
#: A names' word of a place or an organisation whose ``wordfreq`` Zipf frequency as an
#: ordinary word is below this is counted apart (``locorg_rare``): the distinctive part of a
#: name (Zipf 3 is about one in a million words), not ``green`` of ``the Green``.
RARE_ZIPF = 3.0


def read_set(which: str, folder: Path | None = None
             ) -> list[tuple[str, str, list[tuple[int, int, str]]]]:
    """(name, text, spans) of every labelled text of ``which`` (dev, holdout or all), or of
    every ``*.txt`` in ``folder`` when it is given."""
    from emprivacy.evaluation.entity_leaks import unmark
    from emprivacy.text.normalise import normalise_text

    folders = ["dev", "holdout", "holdout2"] if which == "all" else [which]
    places = [folder] if folder is not None else [ROOT / f for f in folders]
    docs = []
    for place in places:
        if not place.is_dir():
            raise SystemExit(f"{place}: no such folder")
        for path in sorted(place.glob("*.txt")):
            # normalised as a release normalises (a zero-width joiner of an emoji goes), the
            # marks with it, so that the spans' offsets are those of the released text
            text, spans = unmark(normalise_text(path.read_text(encoding="utf-8")))
            if normalise_text(text) != text:
                raise SystemExit(f"{path}: normalise_text changes the text; offsets would move")
            docs.append((f"{place.name}/{path.stem}", text, spans))
    return docs


def shapes() -> dict[str, str]:
    """Each text's shape as the folder's README gives it (``dev/01-chat-lower`` → ``lower``)."""
    out = {}
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].endswith(".txt"):
            out[cells[0].removesuffix(".txt")] = cells[2]
    return out


def measure_release(docs, seeds: int, epsilon: float, entity_epsilon: float,
                    names=None) -> None:
    from emprivacy import load_embeddings
    from emprivacy.entities.name_words import zipf_in
    from emprivacy.evaluation.entity_leaks import leak_tally
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    emb = load_embeddings()

    def known(word: str) -> bool:
        return bool(emb.rows([word])[0] >= 0)

    mech = EarthMoversPrivacy(emb, epsilon=epsilon)
    print(f"(a) {len(docs)} texts; ε = {epsilon:g}, ε_e = {entity_epsilon:g}, {seeds} seeds; "
          "verbatim person-name tokens per text, then totals")
    changed: dict[str, list[int]] = {}
    settings = ("none", "auto", *(("auto+names",) if names is not None else ()))
    per_text: dict[str, dict[str, Counter[str]]] = {
        s: {name: Counter() for name, _, _ in docs} for s in settings[1:]}
    for entities in settings:
        total: Counter[str] = Counter()
        for seed in range(seeds):
            config = ObfuscationConfig(mode="text", entities=entities.split("+")[0],
                                       entity_epsilon=entity_epsilon,
                                       entity_names=names if "+" in entities else None)
            obf = Obfuscator(mech, config, seed=seed, on_warning=lambda m: None)
            records = list(obf.obfuscate([Document(name, text) for name, text, _ in docs]))
            for (name, text, spans), rec in zip(docs, records, strict=True):
                tally = leak_tally(text, spans, rec["text"], in_vocabulary=known,
                                   rare=lambda w: zipf_in(w, "en") < RARE_ZIPF)
                total.update(tally)
                if entities != "none":
                    per_text[entities][name]["n"] += tally["per"]
                    per_text[entities][name]["kept"] += tally["per_kept"]
                    per_text[entities][name]["ln"] += tally["locorg_names"]
                    per_text[entities][name]["lkept"] += tally["locorg_names_kept"]
        changed[entities] = [total["content"] - total["content_kept"], total["content"]]
        print(f"    entities {entities:<10}: person names verbatim {_share(total, 'per')}; "
              f"places/organisations {_share(total, 'locorg')} (their names' words, no "
              f"function word or 's: {_share(total, 'locorg_names')}; of them rare as English "
              f"words, Zipf < {RARE_ZIPF:g}: {_share(total, 'locorg_rare')}); month words of dates "
              f"{_share(total, 'month')}; ID letters {_share(total, 'idletters')}; other "
              f"content words changed {changed[entities][0] / changed[entities][1]:.3f}")
    for setting, texts in per_text.items():
        print(f"    {setting}, per text:")
        for name, c in texts.items():
            print(f"      {name:<34} person tokens verbatim {c['kept']:>3}/{c['n']:<4} "
                  f"({c['kept'] / max(c['n'], 1):.1%}); place/organisation names' words "
                  f"{c['lkept']:>3}/{c['ln']:<4} ({c['lkept'] / max(c['ln'], 1):.1%})")
    for setting in settings[1:]:
        gap = (changed[setting][0] / changed[setting][1]
               - changed["none"][0] / changed["none"][1])
        print(f"    other content words changed: {setting} − none = {gap:+.3f}")


def _share(c: Counter[str], key: str) -> str:
    n = c[key]
    return f"{c[key + '_kept']}/{n} ({c[key + '_kept'] / n:.1%})" if n else "0/0"


def measure_detection(docs) -> None:
    from emprivacy import load_embeddings
    from emprivacy.evaluation.entity_leaks import labelled_tokens
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
    from emprivacy.preparation.decisions import EntitySlot, Placeholder
    from emprivacy.preparation.entity_slots import entity_decisions
    from emprivacy.text.normalise import normalise_word
    from emprivacy.text.tokens import tokenize, verbatim_function_words

    emb = load_embeddings()
    obf = Obfuscator(EarthMoversPrivacy(emb, epsilon=10.0),
                     ObfuscationConfig(mode="text", entities="auto"), seed=0,
                     on_warning=lambda m: None)
    assert obf.entities is not None
    marking = obf.entities.marking
    presidio = _presidio()
    print(f"(b) detection of person-name tokens per shape ({obf.entities.detectors}"
          + ("; Presidio's analyzer with its defaults beside)" if presidio else ")"))
    stats: dict[tuple[str, str], Counter[str]] = {}
    shape_of = shapes()
    for name, text, spans in docs:
        shape = shape_of.get(name, name.rsplit("-", 1)[-1])
        tokens = list(tokenize(text))
        words = [normalise_word(t.text) if t.kind == "word" else "" for t in tokens]
        rows = emb.rows(words).tolist()
        decisions, _ = entity_decisions(marking, text, tokens, words, rows,
                                        verbatim_function_words(tokens, text),
                                        embeddings=emb, oov="placeholder")
        gold = [label for _, label in labelled_tokens(text, spans)]
        found = {"emprivacy": [isinstance(d, EntitySlot | Placeholder) for d in decisions],
                 "emprivacy (PERSON)": [
                     (isinstance(d, EntitySlot) and d.key[0] == "PERSON")
                     or (isinstance(d, Placeholder) and d.type == "PERSON") for d in decisions]}
        if presidio is not None:
            results = presidio.analyze(text, language="en", score_threshold=0.4)
            found["presidio"] = [any(r.start < t.end and t.start < r.end for r in results)
                                 for t in tokens]
            found["presidio (PERSON)"] = [any(r.entity_type == "PERSON" and r.start < t.end
                                              and t.start < r.end for r in results)
                                          for t in tokens]
        for who, hits in found.items():
            for sh in (shape, "all"):
                c = stats.setdefault((who, sh), Counter())
                for tok, g, hit in zip(tokens, gold, hits, strict=True):
                    if tok.kind != "word":
                        continue
                    c["gold"] += g == "PER"
                    c["hit"] += g == "PER" and hit
                    c["pred"] += hit
                    c["right"] += hit and (g == "PER" if "PERSON" in who else bool(g))
    for (who, shape), c in sorted(stats.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        print(f"    {shape:<15} {who:<19} recall {c['hit'] / max(c['gold'], 1):.3f} "
              f"({c['hit']}/{c['gold']})  precision {c['right'] / max(c['pred'], 1):.3f} "
              f"({c['right']}/{c['pred']}{'' if 'PERSON' in who else ', any label'})")


def _presidio():
    """Presidio's analyzer with its default recognisers on the installed small English
    pipeline (never downloaded); ``None`` without the ``ner`` extra.  Its e-mail recogniser
    asks ``tldextract`` for the public suffix list, which fetches it from the network: the
    list bundled with ``tldextract`` is used instead, nothing is fetched."""
    from emprivacy.entities.registry import ner_installed

    if not ner_installed():
        return None
    import tldextract

    tldextract.tldextract.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=())
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    from emprivacy.entities.spacy_detector import DEFAULT_PIPELINE

    engine = SpacyNlpEngine(models=[{"lang_code": "en", "model_name": DEFAULT_PIPELINE}])
    engine.load()
    return AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="dev",
                        choices=("dev", "holdout", "holdout2", "holdout3", "holdout4",
                                 "holdout5", "holdout6", "holdout7", "holdout8", "holdout9",
                                 "holdout10", "holdout11", "holdout12", "holdout13", "holdout14",
                                 "holdout15", "holdout16", "holdout17", "holdout18", "holdout19",
                                 "holdout20", "holdout21", "holdout22", "holdout23", "holdout24",
                                 "holdout25", "holdout26", "holdout27", "holdout28", "holdout29",
                                 "holdout30", "holdout31", "holdout32", "holdout33", "holdout34",
                                 "holdout35", "holdout36", "holdout37", "holdout38", "holdout39",
                                 "holdout40", "holdout41", "holdout42", "holdout43",
                                 "holdout44", "holdout45", "holdout46", "holdout47", "holdout48",
                                 "holdout49", "holdout50", "holdout51", "holdout52",
                                 "holdout53", "holdout54", "holdout55", "all"))
    parser.add_argument("--dir", type=Path, help="a folder of labelled texts instead of --set")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--epsilon", type=float, default=10.0)
    parser.add_argument("--entity-epsilon", type=float, default=1.0)
    parser.add_argument("--only", choices=("a", "b"))
    parser.add_argument("--names", metavar="learned|FILE",
                        help="(a) also 'auto' with known names: 'learned' from the texts "
                             "themselves (emprivacy.entities.known_names.learn_names, no "
                             "label read), or a TYPE<TAB>NAME file")
    args = parser.parse_args()
    docs = read_set(args.set, args.dir)
    names = None
    if args.names == "learned":
        from emprivacy.entities.name_learning import learn_names
        names = learn_names([text for _, text, _ in docs])
        print(f"known names learned from the texts themselves: {len(names)}")
    elif args.names is not None:
        from emprivacy.entities.known_names import read_known_names
        names = read_known_names(args.names)
    if args.only in (None, "b"):
        measure_detection(docs)
    if args.only in (None, "a"):
        measure_release(docs, args.seeds, args.epsilon, args.entity_epsilon, names)


if __name__ == "__main__":
    main()
