"""French places that no public list held (issues 42 and 40, the forty-second stage): the
départements, regions and countries as French writes them (``data/places-fr.txt``,
:func:`~emprivacy.entities.vocabulary.own_places`). The fortieth French set's chat, captions
and register released ``de roumanie``, ``du sénégal``, ``D'ALGÉRIE`` and ``DE BOURGOGNE`` as
written: GeoNames lists cities, and countries by their English names."""

from __future__ import annotations

import pytest

from emprivacy.entities.ordinary_capitals import FRENCH_PLACES
from emprivacy.entities.places import PlaceListDetector
from emprivacy.entities.vocabulary import own_places
from emprivacy.text.language import LANGUAGES


def _found(text: str) -> list[str]:
    return [text[s.start:s.end] for s in PlaceListDetector(lang="fr").detect([text])[0]]


def test_the_list_is_read_with_its_marks():
    places, words = own_places("fr")
    assert {"roumanie", "bourgogne", "côte-d'or", "sénégal", "finistère"} <= places
    assert {"nord", "somme", "manche", "réunion", "champagne"} <= words
    assert words < places
    assert FRENCH_PLACES == places
    # a language without the file has no own places (English reads GeoNames alone)
    assert own_places("en") == (frozenset(), frozenset())


def test_every_listed_place_is_one_lower_case_word():
    places, _ = own_places("fr")
    for place in places:
        assert place == place.lower() and " " not in place, place


@pytest.mark.parametrize(("text", "expected"), [
    ("ils viennent de pologne, de roumanie et du sénégal", ["pologne", "roumanie", "sénégal"]),
    ("il est parti en chine puis en bourgogne", ["chine", "bourgogne"]),
    ("QUE DES VINS DU MIDI ET D'ALGÉRIE COUPÉS", ["ALGÉRIE"]),
    ("DE LA RÉGION DE BOURGOGNE EN Y COMPRENANT", ["BOURGOGNE"]),
    ("LE PRÉFET DE LA CÔTE-D'OR A ÉCRIT", ["CÔTE-D'OR"]),
    ("le vin d’espagne", ["espagne"]),
])
def test_a_listed_place_is_a_place_in_lower_case_and_in_capitals(text, expected):
    assert _found(text) == expected


@pytest.mark.parametrize("text", [
    "on monte dans le nord ce soir",        # nord: a word, and "dans" is no preposition of place
    "la somme est payée, il reste la manche",
    "une réunion du comité, on boit le champagne",
    "QU'IL VIENNE AU CONSEIL",               # vienne: a verb's form
    # the second reading: not after "de" or "au", nor rare words anywhere
    "un verre de champagne, le numéro de lot, au lot suivant",
    "elle orne le sapin, un brie coulant, un calvados, du cantal",
])
def test_a_place_that_is_an_ordinary_word_needs_a_preposition(text):
    assert _found(text) == []


def test_a_place_that_is_an_ordinary_word_after_a_preposition_of_place():
    assert _found("ils partent vers somme, puis à champagne") == ["somme", "champagne"]


def test_a_mark_the_list_does_not_know_is_an_error(tmp_path, monkeypatch):
    from emprivacy.entities import vocabulary

    data = tmp_path / "emprivacy" / "data"
    data.mkdir(parents=True)
    (data / "places-xx.txt").write_text("roumanie\nnord after-preposition\nsomme maybe\n",
                                        encoding="utf-8")
    monkeypatch.setattr(vocabulary, "files", lambda package: tmp_path / "emprivacy")
    vocabulary.own_places.cache_clear()
    try:
        with pytest.raises(ValueError, match="'after-preposition' the only mark"):
            vocabulary.own_places("xx")
    finally:
        vocabulary.own_places.cache_clear()


def test_title_case_is_left_to_the_model():
    # the list reads lower case and capitals only, as for GeoNames' towns
    assert _found("Ils viennent de Roumanie") == []


def test_an_elision_is_split_off_before_the_lookup():
    text = "l'italie et d'annecy, jusqu'au portugal"
    assert _found(text) == ["italie", "annecy", "portugal"]


def test_english_has_no_file_and_no_change():
    assert "en" in LANGUAGES
    assert _found_en("they went to roumanie") == []


def _found_en(text: str) -> list[str]:
    return [text[s.start:s.end] for s in PlaceListDetector().detect([text])[0]]


@pytest.mark.parametrize("text", [
    "ET MME GÉRARD D'ARTOIS, M. ET MME",   # a family name with its particle
    "les d'artois arrivent demain",          # a family after the plural article
    "MME DE BOURGOGNE",                      # after a title
])
def test_a_listed_place_after_a_names_particle_is_left_to_the_name_detectors(text):
    assert _found(text) == []


@pytest.mark.parametrize(("text", "place"), [
    ("un ami de roumanie", "roumanie"),  # ami: a census given name, a common French word too
    ("le maire de vendée", "vendée"),
    ("ami.de roumanie", "roumanie"),      # a full stop between: no name's particle
])
def test_after_a_common_word_or_a_full_stop_the_place_stays(text, place):
    assert _found(text) == [place]


def test_the_same_word_after_a_thing_is_a_place():
    assert _found("les vins d'artois et de bourgogne") == ["artois", "bourgogne"]
