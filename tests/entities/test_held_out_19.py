"""What the nineteenth stage's tuning half showed (issue 40): a beekeepers' chat in lower
case (``jack borrowed it``, ``community hub, mill street``), a narrowboat mooring form
(``a 14-day limit``), a greyhound racecard in capitals and a community transport export."""

from __future__ import annotations

import pytest

CHAT = """[09:16] ray: can do saturday swarms. no car, jack borrowed it
[09:18] jack: "borrowed". so ray owes me a jack. zane iqbal can drive
[09:22] pat: swarm talk starts sat, community hub, mill street
[09:30] rose: bees in his chimney on church lane, ashby parva
[09:31] pat: then down the main road and back up the side street
"""


def test_an_unlisted_verb_after_a_name_is_no_family_name(release_auto):
    """In lower case a word after a listed given name is its family name when it is rare, on
    the census lists or reads as a name by its vector (``zane iqbal``); an unlisted word as
    common as ``borrowed`` or ``owes`` is the verb the name does."""
    out = release_auto(CHAT)
    assert "jack borrowed it" not in out and "borrowed it" in out, out
    assert "owes me" in out, out
    assert "iqbal" not in out, out


def test_family_name_rule_by_word():
    """The names detector alone: the surname is found, the verbs are not."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.names import NameListDetector

    text = "[09:16] ray: no car, jack borrowed it\n[09:18] jack: ray owes me. zane iqbal can\n"
    found = {text[s.start:s.end] for s in NameListDetector().detect([text])[0]}
    assert {"jack", "ray", "zane", "iqbal"} <= found, found
    assert not {"borrowed", "owes"} & found, found


def test_a_street_named_by_a_common_word_in_lower_case(release_auto):
    """``mill street`` and ``church lane`` on lines in lower case are places (their names'
    words go, the designators stay); ``the main road`` and ``the side street`` are not."""
    out = release_auto(CHAT)
    assert "mill street" not in out and "street" in out, out
    assert "church lane" not in out, out
    assert "down the main road and back up the side street" in out, out


def test_lower_case_streets_by_rule():
    """The rule itself: lines with a capital letter, function words, numbers' words and the
    generic words make no street; a plural designator does."""
    from emprivacy.entities.streets import lower_case_streets

    def found(text: str) -> list[str]:
        return [text[s.start:s.end] for s in lower_case_streets(text)]

    assert found("at station road then abbey roads") == ["station road", "abbey roads"]
    assert found("Meet at station road") == []  # a capital: the writer capitalises names
    assert found("cross the road, the bus lane, two streets, memory lane") == []
    assert found("a close friend, a test drive") == []
    text = "first line\nnear mill street"
    (span,) = lower_case_streets(text)
    assert text[span.start:span.end] == "mill street" and span.type == "LOCATION"


@pytest.mark.parametrize("quantity", ["14-day", "5-year-old", "2-3-week", "10-minute",
                                      "1.5-litre", "3-bed", "4-star", "90-minutes"])
def test_a_quantity_joined_to_its_unit_is_no_identifier(quantity):
    """``a 14-day limit``: a number, a hyphen and a unit is a quantity (its number a
    placeholder as every number's), not an identifier whose letters a placeholder hides."""
    from emprivacy.entities.patterns import PatternDetector

    text = f"Visitor moorings: a {quantity} limit; ref KD-44718."
    found = [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    assert found == ["KD-44718"], found
