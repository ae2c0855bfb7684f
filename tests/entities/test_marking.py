import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.entities.marking import EntityMarking, covering_spans
from emprivacy.entities.policy import EntityPolicy
from emprivacy.entities.spans import EntitySpan

WORDS = ["ann", "bob", "paris", "rome", "cat", "acme"]
LISTS = {"PERSON": ["ann", "bob", "zed"], "LOCATION": ["paris", "rome"]}


class Nothing:
    name, types = "nothing", frozenset({"PROPER_NOUN", "ORG"})

    def detect(self, texts):
        return [[] for _ in texts]


def marking(**policies):
    emb = Embeddings(WORDS, np.eye(len(WORDS)), name="toy")
    return EntityMarking.build(Nothing(), EntityPolicy(policies=policies), emb, lists=LISTS)


def test_sub_vocabularies_are_rows_of_the_public_lists():
    m = marking()
    assert {t: r.tolist() for t, r in m.rows.items()} == {"PERSON": [0, 1], "LOCATION": [2, 3]}
    assert m.types == ("PERSON", "LOCATION", "ORG", "PROPER_NOUN")


def test_resolution_by_type_and_row():
    m = marking()
    assert m.resolve("PERSON", 0) == ("slot", "PERSON")
    assert m.resolve("PERSON", 4) == ("unlisted", "PERSON")  # 'cat' is no name
    assert m.resolve("PERSON", -1) == ("unlisted", "PERSON")
    assert m.resolve("ORG", 5) == ("placeholder", "ORG")
    assert m.resolve("PHONE", -1) == ("placeholder", "PHONE")
    # a capitalised word: the list that holds it decides, else it is an ordinary word
    assert m.resolve("PROPER_NOUN", 1) == ("slot", "PERSON")
    assert m.resolve("PROPER_NOUN", 3) == ("slot", "LOCATION")
    assert m.resolve("PROPER_NOUN", 4) == ("word", None)


def test_resolution_follows_the_policies():
    m = marking(PERSON="keep", LOCATION="placeholder", ORG="keep")
    assert m.resolve("PERSON", 0) == ("keep", "PERSON")
    assert m.resolve("PROPER_NOUN", 0) == ("keep", "PERSON")
    assert m.resolve("PROPER_NOUN", 2) == ("placeholder", "LOCATION")
    assert m.resolve("ORG", 5) == ("keep", "ORG")
    m = marking(PROPER_NOUN="placeholder")
    assert m.resolve("PROPER_NOUN", 0) == ("placeholder", "PROPER_NOUN")


def test_winning_type_and_covering_spans():
    spans = [EntitySpan(0, 9, "PROPER_NOUN"), EntitySpan(4, 9, "PERSON"), EntitySpan(12, 14, "ORG")]
    assert covering_spans(4, 8, spans) == [0, 1]
    assert covering_spans(9, 12, spans) == []
    assert marking().span_type(spans, [0, 1]) == ("PERSON", 1)
    with pytest.raises(ValueError, match="at least one span"):
        marking().span_type(spans, [])


def test_policy_must_be_an_entity_policy():
    with pytest.raises(TypeError, match="policy must be an EntityPolicy"):
        EntityMarking(Nothing(), {"PERSON": "keep"}, {})
