"""What the twenty-ninth stage showed (issue 40): the tuning half of the twenty-ninth English
set (a church flower guild's lower-case chat, an electoral register's export, a school's
time-capsule inventory in capitals, a bakery's order book)."""

from __future__ import annotations

import re

import pytest


def _has(word: str, line: str) -> bool:
    return re.search(rf"\b{word}\b", line) is not None


@pytest.mark.slow
def test_names_in_a_list_in_capitals_keep_their_words_that_are_words(release_auto) -> None:
    """``FRANK STYLE, WILL MASON, ROSE FIELD`` of a list in capitals released ``WILL`` (a
    modal verb, kept) and ``FIELD``, ``STYLE`` (ordinary words the census lists as family
    names) while the given names beside them were protected.  In a list's item a modal
    that is a given name is the name, and a census family name right after a given name's
    slot is the person's; ``WILL`` of a sentence and a field that is no name are words."""
    pytest.importorskip("wordfreq")
    text = ("SIGNED BY THE CLASS OF 1976: FRANK STYLE, WILL MASON, ROSE FIELD, JOY GATES.\n"
            "A LETTER FROM ROWAN FIELD, AGED 10. IT GOES ROUND NOW. ROWAN FIELD.\n"
            "WILL THERE BE FLYING CARS? THE FIELD WAS MOWN.\n")
    lines = release_auto(text).splitlines()
    for word in ("STYLE", "WILL", "MASON", "FIELD", "GATES"):
        assert not _has(word, lines[0]), (word, lines)
    assert not _has("FIELD", lines[1]) and not _has("ROWAN", lines[1]), lines
    assert lines[2].startswith("WILL THERE BE ") and "? THE FIELD WAS " in lines[2], lines


@pytest.mark.slow
def test_may_and_will_named_where_no_verb_stands(release_auto) -> None:
    """A wedding chat whose bride is ``may`` released ``it's may the bride`` and ``may's
    aunties``, a rota's ``4pm–8pm: will (unlock)`` and a vocative ``cars, will)``: no modal
    verb is possessive (where the word labels a speaker), follows ``it's``, stands alone
    before a bracket after a colon or between a comma and a closing bracket.  ``it may
    rain`` and ``we will see`` stay verbs."""
    pytest.importorskip("wordfreq")
    text = ("may: hi everyone, it's may the bride, hope added me\n"
            "hope: welcome! may's aunties will take the signs\n"
            "friday 4pm–8pm: will (unlock), ray, tomasz\n"
            "hope: (still no flying cars, will)\n"
            "ray: it may rain, we will see\n")
    lines = release_auto(text).splitlines()
    assert "it's may" not in lines[0], lines
    assert "may's" not in lines[1] and lines[1].endswith(" will take the signs"), lines
    assert "will (unlock)" not in lines[2], lines
    assert "cars, will)" not in lines[3], lines
    assert lines[4].endswith(": it may rain, we will see"), lines


@pytest.mark.slow
def test_a_registers_codes_are_no_names(release_auto) -> None:
    """An electoral register's export protected its nationality column (``GBR``, ``IND``, rare as a
    word: a name by its capital letters), its ``Y``/``N`` flags (typed organisations) and
    the response codes its key defines (``ONL online``).  A country's code filling a cell,
    a letter filling a cell and a code the key defines are data, no one's name; the electors'
    names and the canvasser's initials (``JF = Jack Frost``) stay protected."""
    pytest.importorskip("wordfreq")
    text = ("Key: RESP = response (ONL online, TEL phone); JF = Jack Frost\n\n"
            "| REF | ELECTOR | NAT | OPT | RESP | CANV |\n"
            "|---|---|---|---|---|---|\n"
            "| LF-0101 | MASON, William | GBR | N | ONL | JF |\n"
            "| LF-0102 | FIELD, Rowan | GBR | Y | TEL | JF |\n"
            "| LF-0111 | HUSSAIN, Imran | IND | N | ONL | JF |\n")
    lines = release_auto(text).splitlines()
    for line in lines[4:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[2] in ("GBR", "IND"), lines
        assert cells[3] in ("Y", "N"), lines
        assert cells[4] in ("ONL", "TEL", "[UNK]"), lines
        assert cells[5] != "JF", lines
    assert "MASON" not in lines[4] and "William" not in lines[4], lines
    assert "Jack Frost" not in lines[0], lines


@pytest.mark.slow
def test_a_word_after_an_article_or_i_in_capitals_is_a_word(release_auto) -> None:
    """A time capsule's letters in capitals protected ``A FARMER`` (the article taken for an
    initial, the census name ``FARMER`` for a surname) and ``I HOPE`` (``HOPE`` named a
    pupil elsewhere).  In capitals as in lower case, a common word right after an article
    or a subject is the word; the pupil ``HOPE GOODMAN`` stays protected."""
    pytest.importorskip("wordfreq")
    text = ('– "MY DAD SAYS I WILL BE A FARMER LIKE HIM."\n'
            '– "I HOPE YOU STILL HAVE SPORTS DAY. HOPE GOODMAN, OAK CAPTAIN."\n')
    lines = release_auto(text).splitlines()
    assert lines[0] == '– "MY DAD SAYS I WILL BE A FARMER LIKE HIM."', lines
    assert lines[1].startswith('– "I HOPE YOU STILL HAVE SPORTS DAY. '), lines
    assert not _has("GOODMAN", lines[1]) and lines[1].count("HOPE") == 1, lines


@pytest.mark.slow
def test_seen_speech_names_after_a_title_and_a_modal_name(release_auto) -> None:
    """The held half, seen: a sports day's commentary by speech recognition released
    ``style`` of ``mister frank style``, ``will`` of ``and will mason is lying down`` and of
    ``will has a good start``.  After a title and a given name, a census family name is the
    person's in any case; ``will`` before a finite verb, or before a person's family name
    after no subject, is the name.  ``we will see`` and ``it will rain`` stay verbs."""
    pytest.importorskip("wordfreq")
    text = ("[14:03:28] mister mason our chair of governors is here\n"
            "[14:03:40] tomasz goes early will has a good start\n"
            "[14:04:01] and will mason is lying down on the grass\n"
            "[14:05:00] the cup is given by mister frank style\n"
            "[14:06:00] we will see, it will rain.\n")
    lines = release_auto(text).splitlines()
    assert "will has" not in lines[1], lines
    assert "will mason" not in lines[2] and "mason" not in lines[2], lines
    assert not _has("style", lines[3]) and not _has("frank", lines[3]), lines
    assert lines[4].endswith("we will see, it will rain."), lines
