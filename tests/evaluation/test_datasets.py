"""Data sets: records, CSV/JSONL, author selection, the text/snippet split and the App. B
preparation (the Brown corpus: test_brown_corpus.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.evaluation.datasets import (
    Corpus,
    Document,
    chunk_bag,
    from_records,
    load_corpus,
    normalised_bag,
    prepare_set,
    select_authors,
    split_text,
    stratified_holdout,
    training_pool,
)


# -- records and files --------------------------------------------------------------------
def test_from_records_joins_an_authors_records_in_order():
    c = from_records([{"author": "a", "topic": "x", "text": "one", "id": 7},
                      {"author": "b", "topic": "y", "text": "two"},
                      {"author": "a", "topic": "x", "text": "three"}])
    assert [(d.doc_id, d.author, d.topic, d.text) for d in c] == [
        ("7", "a", "x", "one\n\nthree"), ("b", "b", "y", "two")]


@pytest.mark.parametrize(("records", "error", "match"), [
    ([{"author": "a", "topic": "x"}], ValueError, "record 1 lacks field\\(s\\) 'text'"),
    ([{"author": "a", "topic": "x", "text": 3}], TypeError, "field 'text' must be a string"),
    ([{"author": " ", "topic": "x", "text": "t"}], ValueError, "must be non-empty"),
    ([{"author": "a", "topic": "x", "text": "t"}, {"author": "a", "topic": "y", "text": "u"}],
     ValueError, "author 'a' appears under two topics"),
    ([], ValueError, "records are empty"),
    (["text"], TypeError, "record 1 must be a mapping"),
    ({"author": "a"}, TypeError, "iterable of mappings"),
])
def test_from_records_rejects_bad_records(records, error, match):
    with pytest.raises(error, match=match):
        from_records(records)


def test_load_corpus_csv_and_jsonl(tmp_path):
    csv_path = tmp_path / "c.csv"
    csv_path.write_text('author,topic,text\nann,sea,"Waves, tides."\nbob,sky,Clouds.\n',
                        encoding="utf-8")
    jsonl = tmp_path / "c.jsonl"
    jsonl.write_text(json.dumps({"author": "ann", "topic": "sea", "text": "Waves, tides."})
                     + "\n\n" + json.dumps({"author": "bob", "topic": "sky", "text": "Clouds."})
                     + "\n", encoding="utf-8")
    for path in (csv_path, jsonl):
        c = load_corpus(path)
        assert c.name == path.name
        assert [(d.author, d.topic, d.text) for d in c] == [
            ("ann", "sea", "Waves, tides."), ("bob", "sky", "Clouds.")]


def test_load_corpus_errors_name_the_file_and_line_never_the_text(tmp_path):
    bad_csv = tmp_path / "bad.csv"
    bad_csv.write_text("author,text\nann,secret words\n")
    with pytest.raises(ValueError, match="lacks column\\(s\\) 'topic'"):
        load_corpus(bad_csv)
    bad_json = tmp_path / "bad.jsonl"
    bad_json.write_text('{"author": "a", "topic": "t", "text": "fine"}\nsecret words {\n')
    with pytest.raises(ValueError, match=r"bad.jsonl:2: not a valid JSON object") as info:
        load_corpus(bad_json)
    assert "secret" not in str(info.value)
    other = tmp_path / "c.txt"
    other.write_text("x")
    with pytest.raises(ValueError, match=r"must be \.csv or \.jsonl"):
        load_corpus(other)
    with pytest.raises(ValueError, match="does not exist"):
        load_corpus(tmp_path / "missing.csv")


def test_corpus_requires_unique_ids_and_authors_and_hides_text_in_repr():
    d1 = Document("1", "a", "x", "private words here")
    with pytest.raises(ValueError, match="'1' appears twice"):
        Corpus("c", (d1, Document("1", "b", "x", "t")))
    with pytest.raises(ValueError, match="author 'a' has two"):
        Corpus("c", (d1, Document("2", "a", "x", "t")))
    assert "private" not in repr(d1)


# -- author sets ---------------------------------------------------------------------------
def _corpus(n_per_topic: int, topics=("x", "y")) -> Corpus:
    return from_records([{"author": f"{t}{i:02d}", "topic": t, "text": "w"}
                         for t in topics for i in range(n_per_topic)])


def test_select_authors_is_balanced_reproducible_and_nested():
    c = _corpus(29)
    s20, s50 = select_authors(c, 20, seed=3), select_authors(c, 50, seed=3)
    assert Corpus.authors_per_topic(s20) == {"x": 10, "y": 10}
    assert s50.authors_per_topic() == {"x": 25, "y": 25}
    assert {d.doc_id for d in s20} <= {d.doc_id for d in s50}
    assert [d.doc_id for d in select_authors(c, 20, seed=3)] == [d.doc_id for d in s20]
    others = {tuple(d.doc_id for d in select_authors(c, 20, seed=s)) for s in range(5)}
    assert len(others) == 5  # the seed matters
    assert s20.name == f"{c.name}-20"


@pytest.mark.parametrize(("n", "match"), [
    (21, "multiple of the number of topics \\(2\\)"),
    (60, "topic 'x' has 29 authors; 30 per topic needed"),
    (1, "authors must be an integer >= 2"),
])
def test_select_authors_errors(n, match):
    with pytest.raises(ValueError, match=match):
        select_authors(_corpus(29), n)


def test_select_authors_needs_two_topics():
    with pytest.raises(ValueError, match="at least 2 topics"):
        select_authors(_corpus(4, topics=("x",)), 2)


# -- split and preparation ----------------------------------------------------------------
def test_split_text_two_thirds_of_the_words():
    known, snippet = split_text("a b, c! d 42 e f g h i")  # 9 words (not 42): cut before 7th
    assert (known, snippet) == ("a b, c! d 42 e f ", "g h i")
    text = " ".join(f"w{i}" for i in range(3000))
    known, snippet = split_text(text)
    assert len(known.split()) == 2000 and len(snippet.split()) == 1000
    assert split_text("x y z", known_fraction=0.1) == ("x ", "y z")  # at least one word each
    assert split_text("x y z", known_fraction=0.99) == ("x y ", "z")


def test_split_text_errors():
    with pytest.raises(ValueError, match="at least 2 words"):
        split_text("alone ...")
    with pytest.raises(ValueError, match="known_fraction must be a number in \\(0, 1\\)"):
        split_text("a b", known_fraction=1.0)


_EMB = Embeddings(["ship", "sail", "storm", "rose", "kiss", "heart"],
                  np.arange(12, dtype=float).reshape(6, 2), name="six")


def _docs(*texts: str) -> Corpus:
    return from_records([{"author": f"a{i}", "topic": "xy"[i % 2], "text": t}
                         for i, t in enumerate(texts)])


def test_normalised_bag_keeps_order_and_drops_only_unknown_words():
    text = "The Zork ship, the sail; a storm! Zork heart"
    assert normalised_bag(text, _EMB, oov="keep") == ["zork", "ship", "sail", "storm", "zork",
                                                      "heart"]
    assert normalised_bag(text, _EMB) == ["ship", "sail", "storm", "heart"]
    assert normalised_bag("zork zork", _EMB) == []
    with pytest.raises(ValueError, match="oov must be one of 'drop', 'keep'; got 'placeholder'"):
        normalised_bag(text, _EMB, oov="placeholder")


def test_prepare_set_truncates_everything_to_the_shortest_bag():
    # 9 words each, cut before the 7th: doc a0 known "ship sail storm", snippet "ship sail
    # zork"; doc a1 known "rose kiss heart rose kiss heart", snippet "kiss heart rose"
    c = _docs("The ship, the sail; a storm! ship. Sail zork",
              "rose kiss heart rose kiss heart kiss heart rose")
    keep = prepare_set(c, embeddings=_EMB, oov="keep", known="truncated")
    assert keep.N == 3 and keep.shortest == "a0 (text)"
    assert keep.texts == (("ship", "sail", "storm"), ("rose", "kiss", "heart"))
    assert keep.snippets == (("ship", "sail", "zork"), ("kiss", "heart", "rose"))
    assert keep.oov_words == 1
    assert keep.authors == ("a0", "a1") and keep.topics == ("x", "y")
    drop = prepare_set(c, embeddings=_EMB, oov="drop", known="truncated")
    assert drop.N == 2 and drop.oov_words == 0  # "zork" removed before truncation
    assert drop.shortest == "a0 (snippet)"
    assert drop.texts == (("ship", "sail"), ("rose", "kiss"))
    assert drop.snippets == (("ship", "sail"), ("kiss", "heart"))


def test_prepare_set_keeps_the_known_texts_whole_by_default():
    """The adversary's known texts are whole unless asked (issue 41); N and the snippets are
    those of the App. B cut, and the cut texts are the whole ones' first N words."""
    c = _docs("The ship, the sail; a storm! ship. Sail zork",
              "rose kiss heart rose kiss heart kiss heart rose")
    whole = prepare_set(c, embeddings=_EMB, oov="drop")
    cut = prepare_set(c, embeddings=_EMB, oov="drop", known="truncated")
    assert whole.known == "whole" and cut.known == "truncated"
    assert whole.texts == (("ship", "sail", "storm"), ("rose", "kiss", "heart") * 2)
    assert (whole.N, whole.snippets) == (cut.N, cut.snippets) == (2, cut.snippets)
    assert whole.known_texts("truncated") == cut.texts == cut.known_texts("truncated")
    assert cut.known_texts("whole") == whole.texts
    with pytest.raises(ValueError, match="known must be one of 'whole', 'truncated'; got 'x'"):
        prepare_set(c, embeddings=_EMB, known="x")


def test_prepare_set_errors_name_the_document():
    c = _docs("ship sail storm zork zork zork", "rose kiss heart rose kiss heart")
    with pytest.raises(ValueError, match="snippet of document 'a0' has no in-vocabulary words"):
        prepare_set(c, embeddings=_EMB, oov="drop")
    with pytest.raises(ValueError, match="oov must be one of 'drop', 'keep'; got 'skip'"):
        prepare_set(c, embeddings=_EMB, oov="skip")
    with pytest.raises(ValueError, match="document 'a1': a document needs at least 2 words"):
        prepare_set(_docs("ship sail storm", "rose"), embeddings=_EMB)


def test_prepare_set_on_the_synthetic_corpus(synth_corpus, synth_embeddings):
    p = prepare_set(select_authors(synth_corpus, 6), embeddings=synth_embeddings, oov="keep",
                    known="truncated")
    assert len(p) == 6
    assert {len(b) for b in p.texts + p.snippets} == {p.N}
    assert p.oov_words == sum(w.startswith("zorb") for s in p.snippets for w in s) > 0


def test_training_pool_excludes_the_snippets_of_the_test_set():
    c = _docs(*[" ".join(f"w{i}x{j}" for j in range(9)) for i in range(4)])
    chosen = c.subset(["a0", "a1"])
    pool = dict((d, (t, x)) for d, t, x in training_pool(c, chosen))
    assert pool["a0"][1] == split_text(c.documents[0].text)[0]  # known text only
    assert pool["a2"][1] == c.documents[2].text  # not in the test set: whole text
    for d in chosen:
        assert split_text(d.text)[1] not in pool[d.doc_id][1]


def test_chunk_bag_and_stratified_holdout():
    assert chunk_bag(list("abcde"), 2) == [("a", "b"), ("c", "d"), ("e",)]
    assert chunk_bag(list("ab"), 5) == []
    labels = ["x"] * 10 + ["y"] * 5
    mask = stratified_holdout(labels, 0.2, rng=np.random.default_rng(0))
    assert mask[:10].sum() == 2 and mask[10:].sum() == 1
    assert stratified_holdout(["x", "y"], 0.5, rng=np.random.default_rng(0)).sum() == 0
