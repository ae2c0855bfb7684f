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
    from emprivacy.entities.name_words import census_given_names as given_names
    from emprivacy.entities.name_words import french_given_names

    names = french_given_names()
    assert given_names() <= names
    assert {"soizic", "gwenael", "maelys", "aminata", "amine"} <= names
    # a family name of the census stays one (the rules read a given name as no family name:
    # "madame sandrine olivier"), and so does a word that the name is without its accents
    assert not {"olivier", "laurent", "germain", "aime"} & (names - given_names())
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
    assert _found("demande à soizic n'guessan demain") == ["soizic", "guessan"]


@pytest.mark.parametrize(("text", "name"), [
    ("madame sandrine olivier viendra lundi à 10h.", "olivier"),
    ("allô bonjour c'est sophie philippe, je rappelle demain", "philippe"),
    ("[18:01] ana : on dîne chez les germain samedi\n[18:02] léo : ok super", "germain"),
])
def test_a_family_name_that_is_a_given_name_in_france_stays_protected(text, name):
    """The second reading: with every French given name read as a given name, ``olivier``
    after ``madame sandrine`` was no family name any more, and came out verbatim."""
    from .french_release import release_fr

    assert name not in release_fr(text), name


def test_a_verb_that_a_name_is_without_accents_is_no_name():
    """``aimé`` without its accent is ``aime``: ``mon mari aime cuisiner`` is a verb."""
    from .french_release import release_fr

    out = release_fr("mon mari aime cuisiner, il aime surtout les pâtes\n")
    assert out.startswith("mon mari aime cuisiner, il aime"), out


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


def test_each_part_of_a_hyphenated_name_may_be_a_family_name_too():
    """``baptiste`` is a census family name, so no given name where a rule reads a given
    name as no family name; each part of ``jean-baptiste`` is still a given name's."""
    assert "jean-baptiste" in _found("dégustation avec jean-baptiste au rayon rhum")
