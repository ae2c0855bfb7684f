"""emprivacy.privatize_texts: a column of strings, each row a document of one run (issue 24,
item 1): nulls, non-strings, empty rows, rows of no vocabulary word, seeds across block
sizes, the secure default, bounded reading."""

from __future__ import annotations

import itertools
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import emprivacy
from emprivacy import Embeddings, ObfuscationConfig, Obfuscator
from emprivacy.exceptions import PrivacyLeakWarning
from emprivacy.io.documents import Document
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.tables.batch import privatize_texts
from emprivacy.tables.options import RunOptions
from emprivacy.tables.privatizer import TextPrivatizer, row_fields

REVIEWS = ["The cat met a dog at the harbour.", "A bus and a car.", "sun sun sun",
           "Nothing here is known!", "Dog.", "The car drifted past the quiet cat.",
           "cat dog car bus sun", "A cat.", "dog and bus", "The sun, the car and the dog."]


@pytest.fixture
def emb() -> Embeddings:
    return Embeddings(["cat", "dog", "car", "bus", "sun"],
                      [[0, 0], [1, 0], [10, 10], [11, 10], [-10, 5]], name="tiny")


def releases(texts, **kwargs):
    return [row.release for row in privatize_texts(texts, **kwargs)]


def test_privatize_texts_is_a_lazy_top_level_name():
    assert emprivacy.privatize_texts is privatize_texts
    assert "privatize_texts" in emprivacy.__all__


def test_nulls_stay_null_with_null_metadata_and_are_counted(emb):
    out = privatize_texts(["A cat.", None, "A dog.", None], epsilon=5, embeddings=emb, seed=1)
    rows = list(out)
    assert [r.release is None for r in rows] == [False, True, False, True]
    assert rows[1].metadata is None and rows[3].metadata is None
    assert rows[1].skipped is None
    assert (out.rows, out.nulls, out.skipped_empty, out.words) == (4, 2, 0, 2)


@given(value=st.one_of(st.integers(), st.floats(allow_nan=False), st.binary(min_size=1),
                       st.lists(st.text(min_size=1), min_size=1)))
@settings(max_examples=25, deadline=None)
def test_a_non_string_names_its_row_and_type_never_its_value(value):
    emb = Embeddings(["cat", "dog"], [[0, 0], [1, 0]], name="tiny")
    texts = ["A cat.", None, value]
    with pytest.raises(TypeError) as caught:
        list(privatize_texts(texts, epsilon=5, embeddings=emb, seed=1, batch_rows=2))
    # the row and the type, nothing of the value
    assert str(caught.value) == ("every row must be a str or None; row 2 is a "
                                 f"{type(value).__name__}")


def test_a_bad_row_raises_before_its_block_is_privatised(emb):
    """The rows of a block are checked before any noise is drawn for it."""
    privatizer = RunOptions.parse(epsilon=5, embeddings=emb, seed=1).privatizer()
    with pytest.raises(TypeError, match="row 1 is a int"):
        privatizer.privatize(["A cat.", 3])
    assert privatizer.rows == 0 and privatizer.next_index == 0


def test_a_single_string_is_refused(emb):
    with pytest.raises(TypeError, match="not a single str; give one text as"):
        privatize_texts("A cat.", epsilon=5, embeddings=emb)


def _frames():
    pd = pytest.importorskip("pandas")
    pa = pytest.importorskip("pyarrow")
    return [pd.DataFrame({"review": ["A cat."]}), pa.table({"review": ["A cat."]})]


@pytest.mark.parametrize("texts, match", [
    ({"a": "The harbour", "b": "x"}, r"^texts must be an iterable of str or None, not a dict: "
     r"a mapping iterates over its keys, which would be privatised instead of its texts; give "
     r"its values in order \(list\(texts\.values\(\)\)\) and keep the keys beside the release$"),
    ({"The harbour", "x"}, r"^texts must be an iterable of str or None, not a set: a set has "
     r"no order, so its rows would have no index to key their noise; give a list "
     r"\(sorted\(texts\)\)$"),
    (frozenset({"x"}), r"not a frozenset: a set has no order"),
    ({"a": "x"}.keys(), r"not a dict_keys: a mapping's keys and items are not its texts"),
    ({"a": "x"}.items(), r"not a dict_items: a mapping's keys and items are not its texts"),
    (3, r"^texts must be an iterable of str or None; got int$"),
])
def test_a_mapping_or_a_set_is_refused_before_anything_is_loaded(emb, monkeypatch, texts,
                                                                 match):
    """Issue 30, item 8: ``privatize_texts({"a": "The harbour", "b": "x"}, epsilon=5)``
    privatised the dict's keys."""
    import emprivacy.tables.options as options

    monkeypatch.setattr(options, "load_embeddings", None)  # never reached
    with pytest.raises(TypeError, match=match):
        privatize_texts(texts, epsilon=5)
    with pytest.raises(TypeError, match=match):  # a run's block too
        TextPrivatizer(EarthMoversPrivacy(emb, epsilon=5)).privatize(texts)


def test_a_table_is_refused_and_its_column_taken(emb):
    for table in _frames():
        with pytest.raises(TypeError, match=rf"^texts must be an iterable of str or None, not "
                           rf"a {type(table).__name__}: a table iterates over its columns; give "
                           r"one column \(table\['review'\]\), or release the table with "
                           r"emprivacy\.tables\.arrow, \.pandas or \.polars$"):
            privatize_texts(table, epsilon=5, embeddings=emb)
    import pandas as pd

    values = {"a": "The cat.", "b": None}
    assert (releases(values.values(), epsilon=5, embeddings=emb, seed=1)
            == releases(pd.Series(list(values.values()), dtype=object), epsilon=5,
                        embeddings=emb, seed=1)
            == releases(["The cat.", None], epsilon=5, embeddings=emb, seed=1))


@pytest.mark.parametrize("mode, empty", [("text", ""), ("bag", [])])
@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_empty_rows_are_released_empty(emb, mode, empty, text):
    rows = list(privatize_texts([text, "A cat."], epsilon=5, embeddings=emb, seed=1,
                                mode=mode))
    assert rows[0].release == empty
    meta = rows[0].metadata
    assert meta["n_words"] == 0 and meta["epsilon_total"] == 0.0
    assert meta["skipped"] == "empty" and meta["mechanism"] == "madlib"
    assert all(meta[k] == 0 for k, kind in row_fields(ObfuscationConfig(mode=mode)).items()
               if kind == "int")
    assert rows[1].skipped is None


def test_bag_mode_stopwords_only_is_empty(emb):
    (row,) = privatize_texts(["the and of"], epsilon=5, embeddings=emb, seed=1, mode="bag")
    assert row.release == [] and row.skipped == "empty"


def test_a_bag_of_no_vocabulary_word_is_skipped_like_obfuscate_skips_it(emb):
    out = privatize_texts(["zebra yak", "A cat."], epsilon=5, embeddings=emb, seed=1,
                          mode="bag")
    skipped, kept = list(out)
    assert skipped.release is None
    assert skipped.metadata["skipped"] == "out_of_vocabulary"
    assert skipped.metadata["n_words"] == 0 and skipped.metadata["epsilon_total"] == 0.0
    assert skipped.metadata["oov_dropped"] is None  # nothing was released: not counted
    assert len(kept.release) == 1
    assert out.skipped_out_of_vocabulary == 1


def test_text_mode_releases_a_row_of_no_vocabulary_word_with_placeholders(emb):
    (row,) = privatize_texts(["Zebra yak!"], epsilon=5, embeddings=emb, seed=1)
    assert row.release == "[UNK] [UNK]!"
    assert row.metadata["oov_placeholders"] == 2 and row.skipped is None


def test_no_rows_is_no_release(emb):
    out = privatize_texts([], epsilon=5, embeddings=emb)
    assert list(out) == [] and out.rows == 0


def test_every_row_skipped_raises_nothing(emb):
    """A corpus of nothing to release is an error for obfuscate; a column of nulls and
    empty strings is a column (each row says what happened to it)."""
    out = list(privatize_texts([None, "", "zebra"], epsilon=5, embeddings=emb, mode="bag"))
    assert [r.release for r in out] == [None, [], None]


def test_obfuscator_require_release_false_releases_nothing_without_error(emb):
    mech = EarthMoversPrivacy(emb, epsilon=1)
    skipped = []
    obf = Obfuscator(mech, ObfuscationConfig(), seed=1, require_release=False,
                     on_skip=lambda label, reason: skipped.append((label, reason)))
    assert list(obf.obfuscate([Document("a", ""), Document("b", "zebra")])) == []
    assert list(obf.obfuscate([])) == []
    assert skipped == [("a", "empty"), ("b", "out_of_vocabulary")]
    with pytest.raises(emprivacy.exceptions.InputError, match="nothing to release"):
        list(Obfuscator(mech, ObfuscationConfig(), seed=1).obfuscate([Document("a", "")]))


@pytest.mark.parametrize("mode", ["text", "bag"])
def test_a_seeded_release_does_not_depend_on_the_block_size(emb, mode):
    texts = [*REVIEWS, None, "", *REVIEWS]
    runs = [releases(texts, epsilon=0.5, embeddings=emb, seed=11, mode=mode, batch_rows=b)
            for b in (1, 7, len(texts))]
    assert runs[0] == runs[1] == runs[2]


def test_the_seed_matters_and_the_default_is_unseeded(emb):
    texts = REVIEWS * 5
    a = releases(texts, epsilon=0.1, embeddings=emb, seed=1)
    assert a != releases(texts, epsilon=0.1, embeddings=emb, seed=2)
    unseeded = [privatize_texts(texts, epsilon=0.1, embeddings=emb) for _ in range(2)]
    assert unseeded[0].metadata["seeded"] is False
    assert unseeded[0].privatizer.run_key != unseeded[1].privatizer.run_key
    assert [r.release for r in unseeded[0]] != [r.release for r in unseeded[1]]
    assert privatize_texts(texts, epsilon=0.1, embeddings=emb, seed=1).metadata["seeded"]


def test_rows_are_read_block_by_block(emb):
    """Memory is bounded: the input is read a block at a time, as the output is."""
    pulled = 0

    def endless():
        nonlocal pulled
        for i in itertools.count():
            pulled += 1
            yield REVIEWS[i % len(REVIEWS)]

    out = privatize_texts(endless(), epsilon=5, embeddings=emb, seed=1, batch_rows=4)
    first = list(itertools.islice(out, 6))
    assert len(first) == 6 and pulled == 8


def test_keyed_by_index_alone_a_row_index_is_privatised_once(emb):
    privatizer = TextPrivatizer(EarthMoversPrivacy(emb, epsilon=1), seed=1, key_by_text=False)
    privatizer.privatize(["A cat.", "A dog."])            # rows 0, 1
    privatizer.privatize(["A bus."], first_index=5)       # row 5
    privatizer.privatize(["A car."], first_index=2)       # row 2
    with pytest.raises(ValueError, match="rows 1 to 2 overlap rows this run has already"):
        privatizer.privatize(["x", "y"], first_index=1)
    with pytest.raises(ValueError, match="rows 4 to 5 overlap"):
        privatizer.privatize(["x", "y"], first_index=4)
    privatizer.privatize(["x", "y"], first_index=3 + 3)   # rows 6, 7: free


def test_keyed_by_text_an_index_may_come_again_never_on_another_texts_stream(emb):
    """The default (issue 30, item 10): row ``i`` keyed by ``i`` and its text, so an index
    given again releases the same text the same way, and another text on another stream."""
    privatizer = TextPrivatizer(EarthMoversPrivacy(emb, epsilon=0.3), seed=1)
    first = privatizer.privatize(REVIEWS, first_index=0).released
    assert privatizer.privatize(REVIEWS, first_index=0).released == first
    other = TextPrivatizer(EarthMoversPrivacy(emb, epsilon=0.3), seed=1, key_by_text=False)
    assert other.privatize(REVIEWS).released != first  # another stream per row


def test_a_block_of_explicit_rows_is_released_as_the_whole_run_releases_them(emb):
    whole = releases(REVIEWS, epsilon=0.5, embeddings=emb, seed=4)
    privatizer = RunOptions.parse(epsilon=0.5, embeddings=emb, seed=4).privatizer()
    tail = privatizer.privatize(REVIEWS[6:], first_index=6).released
    head = privatizer.privatize(REVIEWS[:6], first_index=0).released
    assert head + tail == whole


def test_oov_keep_warns_once_per_run_whatever_the_blocks(emb):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = list(privatize_texts(["zebra cat", "yak dog", "emu"], epsilon=5, embeddings=emb,
                                    seed=1, oov="keep", batch_rows=1))
    leaks = [w for w in caught if issubclass(w.category, PrivacyLeakWarning)]
    assert len(leaks) == 1
    assert [r.metadata["oov_kept"] for r in rows] == [1, 1, 1]
    assert rows[2].release == "emu"


@pytest.mark.parametrize("kwargs, error, match", [
    ({}, TypeError, "epsilon is required"),
    ({"epsilon": -1}, ValueError, "epsilon must be a finite number > 0; got -1"),
    ({"epsilon": 1, "mode": "table"}, ValueError, "mode must be one of 'bag', 'text'"),
    ({"epsilon": 1, "oov": "ignore"}, ValueError, "oov must be one of"),
    ({"epsilon": 1, "mechanism": "laplace"}, ValueError, "mechanism must be one of"),
    ({"epsilon": 1, "params": {"zeta": 1}}, ValueError, "unknown parameter 'zeta'"),
    ({"epsilon": 1, "params": [("lam", 1)]}, TypeError, "params must be a mapping"),
    ({"epsilon": 1, "seed": -3}, ValueError, "seed must be an integer >= 0; got -3"),
    ({"epsilon": 1, "batch_rows": 0}, ValueError, "batch_rows must be an integer >= 1"),
    ({"epsilon": 1, "mode": "text", "size": 3}, ValueError, "size applies to bags"),
])
def test_bad_options_are_refused_on_the_call(emb, kwargs, error, match):
    with pytest.raises(error, match=match):
        privatize_texts(["A cat."], embeddings=emb, **kwargs)


def test_a_built_mechanism_holds_its_own_epsilon(emb):
    mech = EarthMoversPrivacy(emb, epsilon=2.0)
    (row,) = privatize_texts(["A cat."], mechanism=mech, seed=1)
    assert row.metadata["epsilon_total"] == 2.0
    with pytest.raises(ValueError, match="do not give epsilon too"):
        privatize_texts(["A cat."], mechanism=mech, epsilon=1.0)
