"""The French given names beside the census' (issue 42): the US census lists lack most of the
names given in France (``soizic``, ``gwenaël``, ``maëlys``, ``mehdi``), so a lower-case
French text's rules that need a listed given name (``tata soizic``, ``demande à mehdi
n'guessan``) missed them."""

from __future__ import annotations

import unicodedata

import pytest

pytest.importorskip("wordfreq")
pytest.importorskip("names")


def _found(text: str) -> list[str]:
    from emprivacy.entities.french import FrenchNameDetector

    return [text[s.start:s.end] for s in FrenchNameDetector().detect([text])[0]]


def test_the_list_is_folded_lower_case_and_holds_the_census():
    from emprivacy.entities.name_words import french_given_names, given_names

    names = french_given_names()
    assert given_names() <= names
    assert {"soizic", "gwenael", "maelys", "mehdi", "thibault", "aminata"} <= names
    assert all(n == n.lower() for n in names)
    assert all(not any(unicodedata.combining(c) for c in unicodedata.normalize("NFD", n))
               for n in names)
    assert "capucine" not in names  # a flower before a name in France: left out


@pytest.mark.parametrize(("text", "name"), [
    ("j'ai vu tata soizic hier au marché", "soizic"),
    ("on attend gwenaël pour commencer la réunion", "gwenaël"),
    ("le dossier de maëlys est complet", "maëlys"),
])
def test_a_french_given_name_in_lower_case_is_found(text, name):
    """Rare in French (Zipf below 3) and now listed, or listed after a family word."""
    assert name in _found(text)


def test_a_listed_given_name_before_n_and_a_family_name():
    assert _found("demande à mehdi n'guessan demain") == ["mehdi", "guessan"]


def test_a_relation_after_a_particle_is_no_family_name():
    """``le voisin`` after a given name found elsewhere is the person's neighbour, not ``Le
    Voisin`` (the census lists ``voisin`` as a surname)."""
    found = _found("mon frère thibault est là. thibault le voisin aussi")
    assert found == ["thibault", "thibault"], found


def test_a_french_given_name_is_released_protected():
    from emprivacy.tables import privatize_texts

    text = "[10:02] awa: tata soizic arrive avec gwenaël vers midi\n"
    out = next(iter(privatize_texts([text], epsilon=10.0, seed=3, entities="auto",
                                    entity_epsilon=1.0, lang="fr"))).release
    assert "soizic" not in out and "gwenaël" not in out, out
    assert "arrive" in out, out
