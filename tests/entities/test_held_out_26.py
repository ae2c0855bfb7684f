"""What the twenty-sixth stage's tuning half showed (issue 40, tests/entities/labelled/holdout26):
a rugby club's honours board in capitals, a youth sailing club's chat in lower case, a dental
practice's recall list, a choir's membership list."""

from __future__ import annotations

import pytest


@pytest.mark.slow
def test_a_given_name_that_is_a_verb_at_a_rolls_item(release_auto) -> None:
    """``2015–23 WILL HOPE`` and ``HIS WIDOW MAY CHURCH`` released ``WILL`` and ``MAY`` (kept
    function words) while ``HOPE`` and ``CHURCH`` were protected, typed places.  First on its
    line after numbers or signs, or after a family word, a listed given name that is a
    function word is the name before a family name's slot; the verbs stay (``THEY WILL PLAY``,
    ``IT MAY RAIN``, and ``My`` of a sentence ``My nan…`` after a full stop)."""
    pytest.importorskip("wordfreq")
    text = ("BOARD 1 – CLUB PRESIDENTS\n2006–15 MARK FISHER\n2015–23 WILL HOPE\n"
            "THE ROOM WAS OPENED BY HIS WIDOW MAY CHURCH ON 3 MAY 1999.\n"
            "IT MAY RAIN. THEY WILL PLAY.\nRing the council. My nan on Mill Lane used them.\n")
    lines = release_auto(text).splitlines()
    assert "WILL" not in lines[2].split(), lines
    assert "WIDOW MAY" not in lines[3], lines
    assert lines[4].startswith("IT MAY RAIN. THEY WILL "), lines
    assert lines[5].startswith("Ring the council. My "), lines


@pytest.mark.slow
def test_a_coasts_small_firms_end_in_their_kind(release_auto) -> None:
    """An honours board's sponsors in capitals, ``KING & MOSS ESTATE AGENTS`` and ``THE
    GREENWAY RECOVERY CUP``, and a chat's ``penny's engraving`` released the kind of firm
    (``AGENTS``, ``RECOVERY``, ``engraving``) beside a protected name: designators now."""
    pytest.importorskip("wordfreq")
    text = ("SPONSORS: KING & MOSS ESTATE AGENTS – FROST'S BAKERY\n"
            "MOST IMPROVED: THE GREENWAY RECOVERY CUP\n"
            "dawn: collect the trophies from penny's engraving in aldhythe thursday\n")
    lines = release_auto(text).splitlines()
    assert "AGENTS" not in lines[0] and "RECOVERY" not in lines[1], lines
    assert "engraving" not in lines[2] and lines[2].endswith("thursday"), lines


@pytest.mark.slow
def test_a_chats_user_name_beside_its_display_name(release_auto) -> None:
    """The unseen half, looked at after its measurement: a Discord thread's lines
    ``will.hope (Will Hope) — Today at 06:03`` released ``will.hope`` (no detector found a
    name in a handle of words, and a handle without ``@`` was no user name) and
    ``sky.halloran``'s ``sky``.  A handle whose parts are all words of a person's name in the
    text is the person's; a file's name is not (``notes.txt``)."""
    pytest.importorskip("wordfreq")
    text = ("will.hope (Will Hope) — Today at 06:03\nsee you all at the beach\n"
            "sky.halloran (Sky Halloran) — Today at 06:18\nbrr it was cold, see notes.txt\n")
    lines = release_auto(text).splitlines()
    assert not lines[0].startswith("will.hope") and "Hope" not in lines[0], lines
    assert not lines[2].startswith("sky."), lines
    assert lines[1] == "see you all at the beach" and "notes." in lines[3], lines


def test_named_handles_need_every_part_named() -> None:
    """``dana.lee`` is no one's user name where only ``Dana`` is named; ``will.hope`` is
    where ``Will Hope`` is."""
    from emprivacy.entities.handles import named_handles
    from emprivacy.entities.spans import EntitySpan

    text = "dana.lee and will.hope (Will Hope), Dana too"
    spans = [EntitySpan(24, 33, "PERSON"), EntitySpan(36, 40, "PERSON")]
    assert [text[s.start:s.end] for s in named_handles(text, spans)] == ["will.hope"]


@pytest.mark.slow
def test_a_letter_after_a_title_is_an_initial(release_auto) -> None:
    """The unseen half's lost-property helpline (seen): ``mr a rahman``, ``mr d street``
    released their initials (``a`` only with its full stop, and ``d`` only before a person's
    slot, ``street`` typed a place).  After a title a letter is an initial; ``a`` and ``i``
    elsewhere stay words."""
    pytest.importorskip("wordfreq")
    out = release_auto("yes the keeper's a mr d street any post code on it\n"
                       "there's a name tag mr a rahman do you want it\n"
                       "i think so. a cat sat. i will go\n").splitlines()
    assert " mr d " not in out[0] and " mr a " not in out[1], out
    assert out[0].startswith("yes the keeper's a mr "), out
    assert out[2] == "i think so. a cat sat. i will go", out


@pytest.mark.slow
def test_what_the_second_reading_found_in_english(release_auto) -> None:
    """A second reading (a helper with its own texts): ``In London``, ``So Jackson``,
    ``Will Davies come`` lost their first word (a listed given name before a family name's
    slot), ``Mum's recovery`` became an organisation, and ``bill.evans (bill)`` released the
    display name (a user name's pieces were no longer followed); a roll after its heading
    (``IN LOVING MEMORY OF`` / ``WILL HOPE``) kept ``WILL``."""
    pytest.importorskip("wordfreq")
    lines = release_auto("IN LOVING MEMORY OF\nWILL HOPE\nIn London, the trains were late. "
                         "So Jackson called.\nWill Davies come tomorrow?\n"
                         "Mum's recovery is going well.\nbill.evans (bill) — today at 09:00\n"
                         ).splitlines()
    assert "WILL" not in lines[1], lines
    assert lines[2].startswith("In ") and " So " in lines[2], lines
    assert lines[3].startswith("Will "), lines
    assert lines[4] == "Mum's recovery is going well.", lines
    handle, display = lines[5].split(" (")[0], lines[5].split("(")[1].split(")")[0]
    assert handle.split(".")[0] == display, lines  # one slot for the handle's and the name
