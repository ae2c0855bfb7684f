"""What the thirty-fifth stage showed (issue 40), seen: places and organisations named by
common words (a parish beating its bounds and the sets before it: ``the drill hall``, ``the
gospel oak``, ``FROM SCOUT BOTTOM``, ``| Lady Well |``), whose words were released as
ordinary words beside a surname's slot for their last word, or all of them."""

from __future__ import annotations

import re

import pytest


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’]){re.escape(word)}(?![\w'’])", line) is not None


def _places(text: str) -> list[str]:
    from emprivacy.entities.local_places import local_places

    return [text[s.start:s.end] for s in local_places(text)]


def test_local_places_by_their_kind_in_every_case() -> None:
    """One or two words and a kind of place after ``the`` or a preposition, in one case,
    or starting a cell; a kind that is a common word in other senses (``well``, ``stone``)
    makes a place in lower case where the phrase recurs or starts a list's line."""
    assert _places("tea at the drill hall, then up Mill Brow") == ["drill hall", "Mill Brow"]
    assert _places("| Lady Well | ok |\n4. JNO. HIRST – WEAVER – SCOUT BOTTOM – 1874") == [
        "Lady Well", "SCOUT BOTTOM"]
    assert _places("tea at the Lead Miners Arms") == ["Lead Miners Arms"]
    assert _places("at the Holly Farm") == ["Holly Farm"]  # -ly in lower case only
    from emprivacy.entities.local_places import local_places

    assert [s.type for s in local_places("AT THE LEAD MINERS ARMS, THE LEAD MINERS ARMS")] == [
        "ORG", "ORG"]  # in capitals a common head twice
    assert _places("the gospel oak at 9. flowers for the gospel oak") == ["gospel oak"] * 2
    assert _places("town farm / robin's stone: dawn, mihai") == ["town farm", "robin's stone"]
    # no place: generic kinds, a verb's adverb, words of two cases, a title, once in lower case
    for text in ("the sports hall", "the village hall", "the post office", "the team played well",
                 "we ran the business well", "the following spring", "at the Drill hall",
                 "Mr Hall said", "at the old oak", "good farm / that", "a kidney stone",
                 "the mere stone",
                 # the review's: a chat's line, a card, a head before a head, capitals once
                 "amir: sleep well", "Get Well Soon Gran", "THE HEAD OFFICE",
                 "FINISHED IN SOLID OAK", "THE SHOW WENT WELL", "Hi Jo, Friday Works",
                 "in the baby's arms"):
        assert _places(text) == [], text


def test_in_local_place_reads_each_text_once() -> None:
    from emprivacy.entities.local_places import in_local_place

    text = "at the drill hall and a drill bit"
    assert in_local_place(text, 7, 12) and in_local_place(text, 13, 17)
    assert not in_local_place(text, 24, 29)
    assert not in_local_place("no place here at all", 0, 2)


@pytest.mark.slow
def test_common_words_of_a_local_place_are_the_place(release_auto) -> None:
    """Before, ``drill`` of ``the drill hall`` (lower case: no list holds it) and ``SCOUT``
    of ``FROM SCOUT BOTTOM`` came out as written beside a slot for the surname-like last
    word; now each word of the place is privatised as a place's."""
    pytest.importorskip("wordfreq")
    out = release_auto("amir: urns from the drill hall please. i'll be at the drill hall door\n"
                       "nell: and the gospel oak at 9.30, photos from the gospel oak\n")
    assert not _has("drill", out) and not _has("gospel", out), out
    assert _has("urns", out) and _has("photos", out), out
    out = release_auto("4. ABM. HIRST – CORNET – OVERLOOKER – SCOUT BOTTOM – 2 MAR 1874\n"
                       "THE BAND TO PLAY UP THE BROW FROM SCOUT BOTTOM TO THE FOLD.\n")
    assert not _has("SCOUT", out), out
    assert _has("PLAY", out) and _has("BROW", out), out


@pytest.mark.slow
def test_generic_places_and_words_stay_words(release_auto) -> None:
    """The village hall, the post office, a verb's ``well``: no place's name, their words
    released as written at ε = 10⁶ (``hall``, a surname, is another detector's)."""
    pytest.importorskip("wordfreq")
    out = release_auto("the agm is in the village hall, then the post office. "
                       "we ran the business well.")
    assert _has("village", out) and _has("post office", out), out
    assert out.endswith("we ran the business well."), out


@pytest.mark.slow
def test_french_vineyards_vat_houses_and_cellars_are_kinds(french) -> None:
    """``la cuverie des moines``, ``le caveau des charmes``, ``la cave des vignerons``: a wine
    village's places and cellars are kinds before a name (``data/entity-words-fr.txt``);
    before, their names' words came out as written. ``radio`` is no kind (``radio thorax``
    is an X-ray)."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("rendez-vous à la cuverie des moines puis au caveau des charmes, "
                     "et la cave des vignerons ouvre à midi.\n")
    assert not _has("moines", out) and not _has("charmes", out), out
    assert not _has("vignerons", out), out
    assert _has("rendez-vous", out) and _has("ouvre", out), out
    out = release_fr("prévoir une radio thorax demain matin.\n")
    assert _has("radio", out) and out.startswith("prévoir une radio "), out
