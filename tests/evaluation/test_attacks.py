"""The four attacks on small data with known answers, and their vectorised parts against
direct computations."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emprivacy import Embeddings, earth_movers_distance, load_embeddings
from emprivacy.evaluation.attacks import (
    FastTextTopicClassifier,
    KoppelAttribution,
    char_ngrams,
    earth_movers_distances,
    nearest_neighbour_predict,
    write_vec,
)
from emprivacy.evaluation.datasets import prepare_set, select_authors


# -- Earth Mover's distances (SR attacks) ---------------------------------------------------
def test_emd_exact_one_dimensional_shift():
    emb = Embeddings(["a", "b", "c", "d"], [[0.0], [1.0], [2.0], [3.0]])
    D = earth_movers_distances([["a", "b"], ["c", "d"]], [["c", "d"], ["a", "b"], ["a"]], emb)
    np.testing.assert_allclose(D, [[2.0, 0.0, 0.5], [0.0, 2.0, 2.5]], atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n_a=st.integers(1, 12), n_b=st.integers(1, 12))
def test_emd_matches_the_core_earth_movers_distance(seed, n_a, n_b):
    gen = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(8)]
    emb = Embeddings(words, gen.normal(size=(8, 3)), name="rand")
    a = [words[i] for i in gen.integers(0, 8, size=n_a)]  # repeats: weights matter
    b = [words[i] for i in gen.integers(0, 8, size=n_b)]
    D = earth_movers_distances([a], [b, a], emb)
    np.testing.assert_allclose(D[0, 0], earth_movers_distance(a, b, emb), rtol=1e-7, atol=1e-9)
    assert abs(D[0, 1]) < 1e-6


def test_emd_is_never_a_value_the_solver_did_not_certify(monkeypatch):
    """POT stopping at its iteration limit: an error, never its non-optimal cost."""
    import ot

    from emprivacy.exceptions import SolverError

    def stopped(a, b, M, **kwargs):
        assert kwargs.get("log") is True
        return 0.123, {"result_code": 2, "warning": "numItermax reached before optimality"}

    monkeypatch.setattr(ot, "emd2", stopped)
    emb = Embeddings(["a", "b", "c"], [[0.0], [1.0], [2.0]])
    with pytest.raises(SolverError, match="numItermax reached before optimality"):
        earth_movers_distances([["a", "b"]], [["c"]], emb)


def test_emd_skips_oov_words_and_is_inf_without_any_embedded_word():
    emb = Embeddings(["a", "b"], [[0.0], [4.0]])
    D = earth_movers_distances([["a", "zork"], ["zork"]], [["b", "b", "qux"]], emb)
    assert D[0, 0] == pytest.approx(4.0)
    assert D[1, 0] == np.inf


def test_emd_threads_give_the_same_matrix(synth_corpus, synth_embeddings):
    p = prepare_set(select_authors(synth_corpus, 6), embeddings=synth_embeddings)
    D1 = earth_movers_distances(p.snippets, p.texts, synth_embeddings, n_jobs=1)
    D2 = earth_movers_distances(p.snippets, p.texts, synth_embeddings, n_jobs=2)
    np.testing.assert_array_equal(D1, D2)
    with pytest.raises(ValueError, match="n_jobs must be an integer >= 1; got 0"):
        earth_movers_distances(p.snippets, p.texts, synth_embeddings, n_jobs=0)


# -- k-NN -----------------------------------------------------------------------------------
def test_nearest_neighbour_votes_and_ties():
    D = np.array([[0.1, 0.2, 0.3, 0.4, 0.5]])
    assert nearest_neighbour_predict(D, list("xyyxx"), k=1) == ["x"]
    assert nearest_neighbour_predict(D, list("xyyxx"), k=3) == ["y"]
    # 2-2 tie at k=4: the label of the nearest neighbour wins
    assert nearest_neighbour_predict(D, list("xyyxz"), k=4) == ["x"]
    assert nearest_neighbour_predict(D[:, ::-1], list("zxyyx"), k=4) == ["x"]
    assert nearest_neighbour_predict(D[:, ::-1], list("zyxxy"), k=4) == ["y"]
    # equal distances: lower column first
    assert nearest_neighbour_predict(np.zeros((1, 3)), list("abc"), k=1) == ["a"]


def test_nearest_neighbour_errors():
    with pytest.raises(ValueError, match="k must be <= the number of labelled items \\(2\\)"):
        nearest_neighbour_predict(np.zeros((1, 2)), ["a", "b"], k=3)
    with pytest.raises(ValueError, match="shape \\(m, 3\\)"):
        nearest_neighbour_predict(np.zeros((1, 2)), ["a", "b", "c"], k=1)


def test_sr_attacks_on_the_synthetic_set(synth_corpus, synth_embeddings):
    p = prepare_set(select_authors(synth_corpus, 6), embeddings=synth_embeddings, oov="keep")
    D = earth_movers_distances(p.snippets, p.texts, synth_embeddings)
    assert nearest_neighbour_predict(D, p.authors, k=1) == list(p.authors)  # SRauth
    assert nearest_neighbour_predict(D, p.topics, k=5) == list(p.topics)  # SRtopic


# -- Koppel et al. (2011) --------------------------------------------------------------------
def test_char_ngrams_within_words_and_short_words_whole():
    assert char_ngrams("color colour") == Counter(
        {"colo": 2, "olor": 1, "olou": 1, "lour": 1})
    assert char_ngrams("a bb ccc dddd eeeee") == Counter(
        {"a": 1, "bb": 1, "ccc": 1, "dddd": 1, "eeee": 2})
    assert char_ngrams("color", n=3) == Counter({"col": 1, "olo": 1, "lor": 1})  # the paper's


def test_koppel_feature_list_most_frequent_ties_alphabetical():
    k = KoppelAttribution(n_features=3).fit(["ab ab ab cd ef", "ef zz cd"], ["x", "y"])
    assert k.features_ == ["ab", "cd", "ef"]  # 3, 2, 2 (cd < ef), zz dropped
    np.testing.assert_array_equal(k.known_.toarray(), [[3, 1, 1], [0, 1, 1]])


def test_koppel_masks_keep_half_the_features_each_round():
    k = KoppelAttribution(n_features=11, iterations=2000).fit(
        ["alpha beta gamma delta epsilon zeta eta theta iota kappa lambda"], ["x"])
    m = k.masks(rng=0)
    assert m.shape == (2000, 11) and set(m.sum(axis=1)) == {5}
    np.testing.assert_array_equal(m, k.masks(rng=0))
    # uniform subsets: each feature kept with probability 5/11; sd of the frequency over
    # 2000 rounds is 0.011, tolerance 0.05 (> 4 sd)
    np.testing.assert_allclose(m.mean(axis=0), 5 / 11, atol=0.05)


def _naive(x: dict[str, int], y: dict[str, int], kept: set[str], kind: str) -> float:
    x = {f: v for f, v in x.items() if f in kept}
    y = {f: v for f, v in y.items() if f in kept}
    if kind == "cosine":
        num = sum(v * y.get(f, 0) for f, v in x.items())
        den = np.sqrt(sum(v * v for v in x.values())) * np.sqrt(sum(v * v for v in y.values()))
    else:
        keys = set(x) | set(y)
        num = sum(min(x.get(f, 0), y.get(f, 0)) for f in keys)
        den = sum(max(x.get(f, 0), y.get(f, 0)) for f in keys)
    return num / den if den else 0.0


@pytest.mark.parametrize("kind", ["cosine", "minmax"])
def test_koppel_vectorised_similarities_equal_the_definition(kind):
    gen = np.random.default_rng(5)
    letters = list("abcdefgh")

    def text() -> str:
        return " ".join("".join(gen.choice(letters, size=gen.integers(2, 8)))
                        for _ in range(30))

    known, snippets = [text() for _ in range(4)], [text() for _ in range(3)] + ["zzzz"]
    k = KoppelAttribution(n_features=60, iterations=7, similarity=kind).fit(known, list("pqrs"))
    masks = k.masks(rng=1)
    sims = k.similarities(snippets, masks)
    assert sims.shape == (4, 4, 7)
    feats = set(k.features_)
    for j, s in enumerate(snippets):
        ys = {f: c for f, c in char_ngrams(s).items() if f in feats}
        for i, t in enumerate(known):
            xt = {f: c for f, c in char_ngrams(t).items() if f in feats}
            for it in range(7):
                kept = {f for f, m in zip(k.features_, masks[it], strict=True) if m}
                assert sims[j, i, it] == pytest.approx(_naive(xt, ys, kept, kind), abs=1e-12)
    assert np.all(sims[3] == 0.0)  # no shared feature: similarity 0, not NaN


@pytest.mark.parametrize("kind", ["cosine", "minmax"])
def test_koppel_identifies_distinctive_authors(kind):
    styles = {"melville": "whale harpoon ocean captain", "austen": "bonnet drawing-room ball",
              "poe": "raven midnight chamber dreary", "verne": "submarine nautilus depth"}
    common = "walked looked said time day"
    known = [f"{s} {common} " * 5 for s in styles.values()]
    snippets = [f"{common} {s.split()[0]} {s.split()[-1]} {common}" for s in styles.values()]
    attack = KoppelAttribution(iterations=100, similarity=kind).fit(known, list(styles))
    assert attack.predict(snippets, rng=0) == list(styles)
    wins = attack.wins(snippets, rng=0)
    assert wins.sum(axis=1).tolist() == [100] * 4
    assert (np.argmax(wins, axis=1) == np.arange(4)).all()


def test_koppel_reproducible_and_errors():
    k = KoppelAttribution().fit(["aaaa bbbb", "cccc dddd"], ["x", "y"])
    np.testing.assert_array_equal(k.wins(["aaaa cccc"], rng=3), k.wins(["aaaa cccc"], rng=3))
    with pytest.raises(ValueError, match="similarity must be one of 'cosine', 'minmax'"):
        KoppelAttribution(similarity="jaccard")
    with pytest.raises(ValueError, match="feature_fraction must be a number in \\(0, 1\\]"):
        KoppelAttribution(feature_fraction=0)
    with pytest.raises(ValueError, match="same length"):
        KoppelAttribution().fit(["a"], ["x", "y"])
    with pytest.raises(RuntimeError, match="call fit\\(\\)"):
        KoppelAttribution().predict(["a"])
    with pytest.raises(TypeError, match="not a single str"):
        k.predict("aaaa cccc")


def test_koppel_on_the_synthetic_set(synth_corpus, synth_embeddings):
    p = prepare_set(select_authors(synth_corpus, 6), embeddings=synth_embeddings, oov="drop")
    k = KoppelAttribution().fit([" ".join(t) for t in p.texts], p.authors)
    assert k.predict([" ".join(s) for s in p.snippets], rng=0) == list(p.authors)


# -- fastText ---------------------------------------------------------------------------------
def _two_topics(gen: np.random.Generator, n: int, words: dict[str, list[str]]):
    docs, labels = [], []
    for i in range(n):
        topic = ["sea", "love"][i % 2]
        docs.append(list(gen.choice(words[topic], size=30)))
        labels.append(topic)
    return docs, labels


def test_fasttext_classifies_a_clean_two_topic_set(synth_embeddings, tmp_path):
    words = {"sea": ["ship", "sail", "storm", "wave", "harbor", "anchor"],
             "love": ["rose", "kiss", "heart", "dance", "letter", "wedding"]}
    gen = np.random.default_rng(0)
    train_x, train_y = _two_topics(gen, 40, words)
    test_x, test_y = _two_topics(gen, 20, words)
    clf = FastTextTopicClassifier(embeddings=synth_embeddings).fit(train_x, train_y, rng=1)
    assert clf.classes_ == ["love", "sea"]
    assert clf.score(test_x, test_y) == 1.0
    assert clf.predict([["kiss", "rose"], ["storm"]]) == ["love", "sea"]
    # reproducible: one thread, seed from rng; a pre-written .vec file gives the same model
    vec = write_vec(synth_embeddings, tmp_path / "e.vec")
    again = FastTextTopicClassifier(embeddings=synth_embeddings, pretrained_path=vec).fit(
        train_x, train_y, rng=1)
    assert again.seed_ == clf.seed_
    np.testing.assert_array_equal(again.model_.get_input_matrix(), clf.model_.get_input_matrix())


def test_fasttext_uses_the_pretrained_vectors_for_unseen_words(synth_embeddings):
    """A word never seen in training (only in the embeddings) still carries its topic."""
    words = {"sea": ["ship", "sail", "storm"], "love": ["rose", "kiss", "heart"]}
    docs, labels = _two_topics(np.random.default_rng(2), 40, words)
    clf = FastTextTopicClassifier(embeddings=synth_embeddings, epoch=5, lr=0.1).fit(
        docs, labels, rng=0)
    assert len(clf.model_.words) >= len(synth_embeddings)  # every vocabulary word has a row
    assert clf.predict([["harbor", "anchor"], ["dance", "wedding"]]) == ["sea", "love"]


def test_fasttext_errors():
    with pytest.raises(ValueError, match="at least 2 distinct labels"):
        FastTextTopicClassifier().fit([["a"]], ["x"])
    with pytest.raises(ValueError, match="no whitespace"):
        FastTextTopicClassifier().fit([["a b"], ["c"]], ["x", "y"])
    with pytest.raises(RuntimeError, match="call fit\\(\\)"):
        FastTextTopicClassifier().predict([["a"]])
    with pytest.raises(ValueError, match="lr must be a number > 0"):
        FastTextTopicClassifier(lr=0)


def test_write_vec_round_trips_through_load_embeddings(synth_embeddings, tmp_path):
    path = write_vec(synth_embeddings, tmp_path / "e.vec")
    back = load_embeddings(path, vocab_size=None)
    assert back.words == synth_embeddings.words
    np.testing.assert_allclose(back.vectors, synth_embeddings.vectors, rtol=1e-5, atol=1e-6)
