"""TextPrivatizer keyed by row ids (``ids=``), as the table paths key rows by ``id_column``:
the row of id ``s`` and text ``t`` is released as ``obfuscate`` releases the document of id
``f"{s}#{text_digest(t)}"`` (without ``key_by_text``, of id ``s``)."""

from __future__ import annotations

import pytest

from emprivacy import Embeddings, ObfuscationConfig, Obfuscator
from emprivacy.io.documents import Document
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.tables.privatizer import TextPrivatizer

TEXTS = ["The cat met a dog.", None, "", "A bus and a car.", "sun dog cat"]


@pytest.fixture
def mech() -> EarthMoversPrivacy:
    emb = Embeddings(["cat", "dog", "car", "bus", "sun"],
                     [[0, 0], [1, 0], [10, 10], [11, 10], [-10, 5]], name="tiny")
    return EarthMoversPrivacy(emb, epsilon=0.5)


@pytest.mark.parametrize("key_by_text", [True, False])
def test_a_row_of_id_s_is_the_document_of_id_s_and_its_text(mech, key_by_text):
    from emprivacy.tables.privatizer import text_digest

    ids = ["a", "b", "c", "d", "e"]
    out = TextPrivatizer(mech, seed=4, key_by_text=key_by_text).privatize(TEXTS, ids=ids)
    obf = Obfuscator(mech, ObfuscationConfig(mode="text"), seed=4)

    def label(i: str, t: str) -> str:
        return f"{i}#{text_digest(t)}" if key_by_text else i

    records = {r["id"]: r["text"] for r in obf.obfuscate(
        Document(label(i, t), t) for i, t in zip(ids, TEXTS, strict=True) if t)}
    assert [out.released[k] for k in (0, 3, 4)] == [
        records[label(ids[k], TEXTS[k])] for k in (0, 3, 4)]
    assert out.released[1] is None and out.released[2] == ""
    # the ids "0".."4" key the streams the indices 0..4 key
    assert (TextPrivatizer(mech, seed=4, key_by_text=key_by_text).privatize(
        TEXTS, ids=[str(k) for k in range(5)]).released
        == TextPrivatizer(mech, seed=4, key_by_text=key_by_text).privatize(TEXTS).released)


def test_the_order_and_blocks_of_ids_do_not_matter(mech):
    ids = ["x", "y", "z", "w", "v"]
    whole = TextPrivatizer(mech, seed=1).privatize(TEXTS, ids=ids).released
    run = TextPrivatizer(mech, seed=1)
    late = run.privatize(TEXTS[3:][::-1], ids=ids[3:][::-1]).released[::-1]
    early = run.privatize(TEXTS[:3], ids=ids[:3]).released
    assert early + late == whole


def test_an_id_is_used_once_and_a_run_keys_one_way(mech):
    run = TextPrivatizer(mech, seed=1)
    with pytest.raises(ValueError, match="row id 'a' is repeated"):
        run.privatize(["A cat.", "A dog."], ids=["a", "a"])
    run.privatize(["A cat.", None], ids=["a", "b"])
    with pytest.raises(ValueError, match="row id 'b' is repeated"):
        run.privatize(["A cat."], ids=["b"])  # a null row's id is spent too
    with pytest.raises(ValueError, match="keys its rows by id"):
        run.privatize(["A cat."])
    indexed = TextPrivatizer(mech, seed=1)
    indexed.privatize(["A cat."])
    with pytest.raises(ValueError, match="keys its rows by index"):
        indexed.privatize(["A dog."], ids=["0"])


@pytest.mark.parametrize("kwargs, error, match", [
    ({"ids": ["a"]}, ValueError, "one id per row; got 1 for 2 rows"),
    ({"ids": "ab"}, TypeError, "ids must be a sequence of str; got str"),
    ({"ids": ["a", 2]}, TypeError, "every id must be a str; got int"),
    ({"ids": ["a", "b"], "first_index": 0}, ValueError, "first_index or ids, not both"),
])
def test_bad_ids(mech, kwargs, error, match):
    with pytest.raises(error, match=match):
        TextPrivatizer(mech, seed=1).privatize(["A cat.", "A dog."], **kwargs)


def test_a_non_string_row_is_named_by_its_id(mech):
    with pytest.raises(TypeError, match="row of id 'k2' is a int"):
        TextPrivatizer(mech).privatize(["A cat.", 3], ids=["k1", "k2"])


def test_key_by_text_keys_row_i_of_text_t_as_the_document_i_hash_digest(mech):
    from emprivacy.tables.privatizer import text_digest

    run = TextPrivatizer(mech, seed=6, key_by_text=True)
    out = run.privatize(TEXTS, first_index=10)
    obf = Obfuscator(mech, ObfuscationConfig(mode="text"), seed=6)
    records = {r["id"]: r["text"] for r in obf.obfuscate(
        Document(f"{10 + k}#{text_digest(t)}", t) for k, t in enumerate(TEXTS) if t)}
    assert [out.released[k] for k in (0, 3, 4)] == [
        records[f"{10 + k}#{text_digest(TEXTS[k])}"] for k in (0, 3, 4)]
    assert out.released[1] is None and out.released[2] == ""
    # an index may come again: the same text, the same release; the digest is BLAKE2b-128
    assert run.privatize(TEXTS, first_index=10).released == out.released
    assert len(text_digest("cat")) == 32 and text_digest("cat") != text_digest("cat ")
    with pytest.raises(TypeError, match="key_by_text must be a bool; got int"):
        TextPrivatizer(mech, seed=6, key_by_text=1)  # type: ignore[arg-type]
