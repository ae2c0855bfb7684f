"""What the twenty-seventh stage showed (issue 40): the seen half of the twenty-sixth set
(a rugby club's honours board in capitals) and the tuning half of the twenty-seventh."""

from __future__ import annotations

import pytest


@pytest.mark.slow
def test_a_given_name_that_is_a_verb_after_a_rolls_surname(release_auto) -> None:
    """A roll's ``SURNAME, GIVEN`` items, ``CHURCH, MAY (DECEASED)`` and ``HOPE, WILL –``,
    released ``MAY`` and ``WILL`` (kept function words) while the family names were
    protected.  Right after a family name's slot and ``, ``, in its case, and closing the
    item (the line's end, a sign or a bracket), the modal is the given name; the verbs stay
    (``HOPE, WILL YOU``, ``Sorry, will you``, ``Yes, may I``)."""
    pytest.importorskip("wordfreq")
    text = ("LIFE MEMBERS\nBROOK, PEARL – CHURCH, MAY (DECEASED) – FISHER, MARK\n"
            "HOPE, WILL – HOPE, FAITH – KING, RAYMOND\n"
            "Sorry, will you ring me? Yes, may I add one thing.\n")
    lines = release_auto(text).splitlines()
    assert ", MAY (" not in lines[1], lines
    assert not lines[2].split(" – ")[0].endswith(", WILL"), lines
    assert lines[3].startswith("Sorry, will you ring me? Yes, may I add"), lines


@pytest.mark.slow
def test_a_greeting_before_the_verb_will_names_nobody(release_auto) -> None:
    """``Sorry, will you ring me?`` and ``Thanks, will do`` protected the verb as a name
    greeted (``thanks, will!``): after a greeting, ``will`` and ``may`` before a subject or
    a verb's helper are the verb; before anything else the name (``thanks may very
    reassuring``, ``morning will church``)."""
    pytest.importorskip("wordfreq")
    text = ("Sorry, will you ring me?\nOk. Thanks, will do\nthanks, will!\nhi may\n"
            "thanks may very reassuring\n")
    lines = release_auto(text).splitlines()
    assert lines[:2] == ["Sorry, will you ring me?", "Ok. Thanks, will do"], lines
    assert lines[2] != "thanks, will!" and lines[3] != "hi may", lines
    assert not lines[4].startswith("thanks may "), lines


@pytest.mark.slow
def test_a_short_name_spelled_after_it_is_said(release_auto) -> None:
    """A lost-property call's ``mrs ng n g`` protected ``ng`` and released its spelling ``n
    g`` (two letters, under the three that make a spelling): two letters right after a
    person's slot that spell its word are that word, the same surrogate; two letters that
    spell nothing before them stay (``platform b c``)."""
    pytest.importorskip("wordfreq")
    text = "[10:18:50] the one from friday mrs ng n g\n[10:19:02] try platform b c then\n"
    lines = release_auto(text).splitlines()
    assert not lines[0].endswith(" n g"), lines
    assert lines[1].endswith("platform b c then"), lines


@pytest.mark.slow
def test_a_keys_initials_that_are_a_title(release_auto) -> None:
    """A delivery round's key ``SR = Sunny Royal`` and its rows' ``| SR |``: ``SR`` (senior)
    is a title, so the initials were never the driver's while ``GB = Glen Bishop`` were.
    Initials a key defines are the person's even where they spell a title; elsewhere a
    title's letters stay (``DR`` of a text with no key)."""
    pytest.importorskip("wordfreq")
    text = ("Drivers: GB = Glen Bishop (van 1) | SR = Sunny Royal (van 2)\n"
            "Rx 1 | pens | F | SR | no relation\nRoute print: GB SR.\n")
    out = release_auto(text)
    assert " SR " not in out and "SR." not in out, out
    plain = release_auto("Ask the DR on call, then ring the desk.\n")
    assert "DR" in plain, plain


@pytest.mark.slow
def test_a_login_of_an_initial_and_a_family_name_that_is_a_word(release_auto) -> None:
    """``exported by r.noble``: ``noble``, a common word, and its initial were released; a
    log-in of a letter, ``.`` and a family name of the lists is a person's, both parts.
    Abbreviations (``e.g.``, ``a.m.``) stay."""
    pytest.importorskip("wordfreq")
    out = release_auto("exported 10/12/2025 07:45 by r.noble (PharmaTrack)\n"
                       "e.g. at 9 a.m. i.e. early\n").splitlines()
    assert "noble" not in out[0] and "r." not in out[0], out
    assert out[1].startswith("e.g. at") and "a.m. i.e. early" in out[1], out


@pytest.mark.slow
def test_a_modal_name_before_and_i_or_a_dash(release_auto) -> None:
    """A panto chat's ``may and i are running the bar`` and its cast list ``buttons – will
    |`` released ``may`` and ``will``: no modal verb comes before ``and i`` or a dash but
    after its subject (``it may – or may not – rain``, ``we may and will``)."""
    pytest.importorskip("wordfreq")
    text = ("june: may and i are running the bar again\n"
            "cast: cinderella – destiny | buttons – will | dame – don\n"
            "it may – or may not – rain\nwe may and will do it\n")
    lines = release_auto(text).splitlines()
    assert not lines[0].split(": ")[1].startswith("may "), lines
    assert "– will |" not in lines[1], lines
    assert lines[2:] == ["it may – or may not – rain", "we may and will do it"], lines


@pytest.mark.slow
def test_a_roll_of_office_in_capitals(release_auto) -> None:
    """A town's roll of mayors in capitals released ``HONEY MARCH`` (a given name that is a
    word and a month's name as the family name) and ``BILL`` of ``BILL MAJOR (1962–90)``:
    a line of years and two or three words in capitals, the first a listed given name and
    the last a listed family name, is the holder's name where other lines of the roll hold
    people the other rules found; other lines of years stay (``2024 ANNUAL REPORT``)."""
    pytest.importorskip("wordfreq")
    text = ("BOARD 2 – MAYORS\n2023–24 OLIVER PEMBERTON\n2024–25 NKECHI ADEYEMI\n"
            "2025–26 HONEY MARCH – NO RELATION TO THE TOWN\n"
            "BILL MAJOR (1962–90); HIS SON RAY MAJOR (1990–2015)\n2024 ANNUAL REPORT\n")
    lines = release_auto(text).splitlines()
    assert "HONEY" not in lines[3] and "MARCH" not in lines[3], lines
    assert not lines[4].startswith("BILL"), lines
    assert lines[5].endswith("ANNUAL REPORT"), lines



@pytest.mark.slow
def test_printers_cleaners_and_a_dispensary_are_firms(release_auto) -> None:
    """A village's sponsors and a town's founders, ``hunter & marsh printers``, ``crystal
    clear dry cleaners``, ``DEAN'S DISPENSARY``, released the firm's kind beside its
    protected name: designators now; the words alone stay (``the printers jammed``)."""
    pytest.importorskip("wordfreq")
    text = ("norman: added hunter & marsh printers as sponsor on the back page\n"
            "all costumes are back from crystal clear dry cleaners\n"
            "FOUNDER OF DEAN'S DISPENSARY IN 1882\nthe printers jammed. send it to the cleaners\n")
    lines = release_auto(text).splitlines()
    assert "printers" not in lines[0] and "cleaners" not in lines[1], lines
    assert "DISPENSARY" not in lines[2], lines
    assert lines[3] == "the printers jammed. send it to the cleaners", lines


# What the unseen half showed (seen: after its measurement at the end of tuning)


@pytest.mark.slow
def test_a_user_name_of_words_before_its_display_name(release_auto) -> None:
    """TikTok replies ``↳ sunny.side.up (Sunny Royal) · 2d`` and ``hopefully.noble (Hope
    Noble)`` released the user names (their parts are words, not all the person's), and
    ``@earl_of_oxlade`` its ``of``.  A user name right before its display name in brackets is
    the person's whatever its parts, after a reply's mark too, its function words with it;
    a file's name before a bracket stays (``notes.txt (Draft Two)``)."""
    pytest.importorskip("wordfreq")
    text = ("Best scarecrow yet\n  ↳ sunny.side.up (Sunny Royal) · 2d · 87\n"
            "  @earl_of_oxlade it is, Earl\n\nhopefully.noble (Hope Noble) · 2d · 210\n"
            "see notes.txt (Draft Two) today\n")
    lines = release_auto(text).splitlines()
    assert "sunny" not in lines[1] and "side" not in lines[1] and ".up " not in lines[1], lines
    assert "_of_" not in lines[2], lines
    assert not lines[4].startswith("hopefully.noble"), lines
    assert lines[5].startswith("see notes.") and "(Draft " in lines[5], lines  # txt: OOV


# What the second reading found (over-protection of the stage's rules, fixed)


@pytest.mark.slow
def test_the_stages_rules_leave_verbs_months_and_programmes(release_auto) -> None:
    """A modal between a noun and a dash, a table's month, a programme's lines of years, a
    shop's kind: none is a name."""
    pytest.importorskip("wordfreq")
    text = ("Prices may – and often do – change\nThe committee will — subject to funding — "
            "appoint\nif you will and I will do it\n| April | 120 |\n| May | 130 |\n")
    assert release_auto(text).splitlines() == [
        "Prices may – and often do – change",
        "The committee will — subject to funding — appoint",
        "if you will and I will do it", "| April | [NUM] |", "| May | [NUM] |"]
    programme = "2022 MAJOR WORKS – ROOF\n2019 WILL WRITING (FREE)\n2021 BILL PAYMENTS –\n"
    assert release_auto(programme).splitlines() == [
        "[NUM] MAJOR WORKS – ROOF", "[NUM] WILL WRITING (FREE)", "[NUM] BILL PAYMENTS –"]
    assert release_auto("Fancy Dress Costumes for kids\n").strip() == \
        "Fancy Dress Costumes for kids"


def test_french_relatives_and_families_leave_words():
    """``cousin germain`` (a first cousin), ``mon ami romain`` (a Roman friend) and ``il
    faut les boucher`` (a pronoun before a verb) stay words; ``chez les chevalier`` and ``mon
    beau-frère didier`` are people."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.french import FrenchNameDetector

    detector = FrenchNameDetector()
    for text in ("Mon cousin germain habite à Lyon\n", "Mon ami romain est italien\n",
                 "il faut les boucher\n", "on a vu les voisin et chez les voisin\n"):
        assert detector.detect([text]) == [[]], text


@pytest.mark.slow
def test_an_email_read_aloud_at_a_reserved_domain(release_auto) -> None:
    """A booking line's ``destiny dot royal at mailbox dot example`` released ``at`` and
    ``example``: a spoken address ending in a reserved top-level domain (RFC 2606) is an
    e-mail's placeholder as one ending in ``dot com`` is."""
    pytest.importorskip("wordfreq")
    out = release_auto("[09:19:38] destiny dot royal at mailbox dot example\n")
    assert "example" not in out and " at " not in out, out
