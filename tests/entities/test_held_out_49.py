"""What the forty-ninth stage showed in English (issue 40), from the fifty-first English set's
tuning half (a Cornish harbour town in its regatta and lifeboat week: the committee's chat in
lower case, the gig race entries and crew lists, a radio phone-in's WebVTT captions, the
newsletter) and the earlier sets' offices: a speaker's common family name in a WebVTT voice
tag (``<v holly best>``) was released as written; so were a morning's greeting's name
(``evening will``), a town's places and bodies named by a common word with a capital
(``from the Slip``, ``off the Point``) and the port letters of a fishing boat's registration in
a table (``| VN 117 |``); the offices of a boat, a parish or a band (``Coxswain``,
``Steward``, ``Rector``) were people's slots at every mention."""

from __future__ import annotations

import re


def _count(word: str, text: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE))


def test_a_voice_tags_speaker_is_a_name_whatever_word(release_auto) -> None:
    """A WebVTT cue's ``<v holly best>`` names who speaks: ``best`` is the speaker's name at
    that tag, as a chat's stamped speaker is; a role (``<v caller>``) is no one's."""
    text = ("WEBVTT\n\n00:02:01.200 --> 00:02:06.600\n<v holly best>penny steered us home\n\n"
            "00:02:07.000 --> 00:02:11.700\n<v caller>morning all\n")
    for seed in (1, 2, 3):
        out = release_auto(text, seed=seed)
        assert _count("best", out) == 0 and _count("holly", out) == 0, out
        assert "<v caller>morning all" in out, out


def test_a_greeting_of_the_time_of_day_names_who_follows(release_auto) -> None:
    """``evening will`` greets Will; ``this evening will be`` and ``the afternoon will`` are
    the modal verb."""
    text = ("[14/08/26, 19:03] grace tregear: evening will, tuesday's minutes are up\n"
            "[14/08/26, 19:04] grace tregear: this evening will be busy. "
            "the afternoon will be calm\n")
    out = release_auto(text)
    assert "evening will," not in out, out
    assert "this evening will be busy. the afternoon will be calm" in out, out


def test_a_capitalised_common_word_after_the_is_a_place() -> None:
    """In the middle of a sentence in ordinary case, ``the`` and a capitalised common word
    is a name (``the Slip``, ``the Point``); a day, a title, a people, a sentence's start and
    a by-name are not; lower case shows nothing."""
    from emprivacy.entities.local_places import named_after_the

    text = ("Holly cheered from the Slip and waved off the Point. The Quay was full.\n"
            "We met on the Sunday with the Reverend and the Polish crew. Dai Jones the Milk.\n"
            "she waited at the slip\n")
    found = [(text[s.start:s.end], s.type) for s in named_after_the(text)]
    assert found == [("Slip", "LOCATION"), ("Point", "LOCATION")], found


def test_common_word_places_with_a_capital_are_protected(release_auto) -> None:
    """Released, the capitalised place's word is a place's slot, not the word as written;
    the same word in lower case stays."""
    out = release_auto("Holly cheered from the Slip with her crew, then waited off the Point.\n"
                       "a slip of paper, a point made\n")
    assert "the Slip" not in out and "the Point" not in out, out
    assert out.endswith("a slip of paper, a point made\n"), out


def test_a_boats_registration_in_a_table_is_an_identifier(release_auto) -> None:
    """A fishing boat's port letters and number in a table's cell or after a colon (``VN
    117``, ``Reg: FY 123``) are one identifier, letters included; a count is not."""
    from emprivacy.entities.patterns import PatternDetector

    text = "| 7 | Girl Pearl | VN 117 | Jack Jago |\nReg: FY 123\nwe won 3 of 4 at 10 am\n"
    found = [text[s.start:s.end] for s in PatternDetector().detect([text])[0]
             if s.type == "ID"]
    assert found == ["VN 117", "FY 123"], found
    out = release_auto(text)
    assert "VN" not in out and "FY" not in out, out


def test_offices_of_a_boat_a_parish_and_a_band_are_no_names(release_auto) -> None:
    """``Coxswain``, ``Bandmaster``, ``churchwarden``, ``archivist`` are offices that no name
    list holds (the earlier sets made their mentions people's slots): the name after each is
    protected, the office stays a word (as written), alone it is no one's; offices that are
    the census' family names too stay names after a title (``Mrs Steward``)."""
    text = ("Coxswain Will Penrose thanked the crew; Bandmaster Dean Pascoe agreed.\n"
            "decided by the churchwarden on the day, said the county archivist\n"
            "Mrs Steward rang and Mr Rector came.\n")
    out = release_auto(text)
    assert out.startswith("Coxswain "), out
    assert re.search(r"by the (?:churchwarden|\[UNK\]) on the day", out), out
    for word in ("Bandmaster", "archivist"):
        assert _count(word, out) == 1, (word, out)
    for name in ("Penrose", "Pascoe", "Steward", "Rector"):
        assert name not in out, out


def test_a_month_before_a_noun_and_a_registration_after_its_word() -> None:
    """Read once the fifty-first set's unseen half was measured (its harbour commissioners'
    minutes): ``the September meeting`` is a date (its month was released at the general ε),
    not ``the march to the cairn``; ``registration VN 42.`` is one identifier, letters
    included, in a sentence too."""
    from emprivacy.entities.patterns import PatternDetector

    text = ("We'll take that at the September meeting, then the march to the cairn.\n"
            "Ray Brown, skipper of Our June, registration VN 42. Will the dues be waived?\n")
    found = [(text[s.start:s.end], s.type) for s in PatternDetector().detect([text])[0]]
    assert found == [("September", "DATE"), ("VN 42", "ID")], found


def test_what_the_stages_review_narrowed() -> None:
    """The second reading of the stage: a family by its plural after ``the`` is no place
    (``the Smiths``); a registration after ``registration no.``; a month after a family
    name in Title case is no given name (``Smith, June (tbc)``: only capitals)."""
    from emprivacy.entities.local_places import named_after_the
    from emprivacy.entities.patterns import PatternDetector

    text = "we stayed with the Smiths, then sailed from the Slip"
    assert [text[s.start:s.end] for s in named_after_the(text)] == ["Slip"]
    text = "skipper of Our June, registration no. VN 42. Will the dues be waived?\n"
    found = [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    assert found == ["VN 42"], found
