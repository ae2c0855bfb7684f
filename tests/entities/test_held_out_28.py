"""What the twenty-eighth stage showed (issue 40): the tuning half of the twenty-eighth
English set (a bonfire committee's lower-case chat, a swimming register, a scout camp's
CSV, bell-tower boards in capitals)."""

from __future__ import annotations

import pytest


@pytest.mark.slow
def test_a_family_word_before_a_name_is_no_part_of_it(release_auto) -> None:
    """A register's ``Dad Tom Brook`` and a note's ``Grandad Seamus`` protected the family
    word with the name (a slot for ``Dad``, drawn apart), as did ``Dad says``: a family word
    (``Uncle`` here: ``Grandad`` is no word of the test's vocabulary)
    names no one.  It stays, the name after it does not; a family word that is a given name
    too (``Nan Goldin``) is still protected."""
    pytest.importorskip("wordfreq")
    text = ("| 40126 | BROOK, River | 19/11/2019 | Dad Tom Brook | 07700 900135 |\n"
            "Collected by Uncle Seamus on Mondays. Dad says fine.\n"
            "Photographs by Nan Goldin were shown.\n")
    lines = release_auto(text).splitlines()
    assert "| Dad " in lines[0] and "Tom Brook" not in lines[0], lines
    assert "by Uncle " in lines[1] and "Seamus" not in lines[1], lines
    assert lines[1].endswith("Dad says fine."), lines
    assert "Nan Goldin" not in lines[2] and "Goldin" not in lines[2], lines


@pytest.mark.slow
def test_a_weekday_beside_a_time_or_other_weekdays_is_no_name(release_auto) -> None:
    """``MON 16:30``, ``Sat 7am`` and ``(Fri, Sun, Tue)`` were typed places, people and
    organisations and protected.  A weekday's abbreviation beside a time, a date or another
    weekday is the day; ``Thu`` of ``Officer Thu Trang Pham`` is still a name."""
    pytest.importorskip("wordfreq")
    text = ("=== STAGE 1 – MON 16:30 – LEARNER POOL ===\n"
            "Night checks (Fri, Sun, Tue) and (Sat, Mon). Leaves camp Sat 7am.\n"
            "Officer Thu Trang Pham took the call.\n")
    lines = release_auto(text).splitlines()
    assert "– MON [NUM] –" in lines[0], lines
    assert "(Fri, Sun, Tue)" in lines[1] and "(Sat, Mon)" in lines[1], lines
    assert "camp Sat " in lines[1], lines
    assert "Thu" not in lines[2] and "Pham" not in lines[2], lines


@pytest.mark.slow
def test_a_markdown_header_with_numbered_columns_is_no_ones_data(release_auto) -> None:
    """A register's header ``| Member no | Pupil | DOB | Parent / carer | Phone | Wk1 |``
    above its Markdown rule was read as names and organisations (a digit and ``Parent /
    carer`` kept it from being a header).  Above a Markdown rule a column's number is
    allowed and ``/`` divides a column's words; the header stays, the rows' names do not."""
    pytest.importorskip("wordfreq")
    text = ("| Member no | Pupil | DOB | Parent / carer | Phone | Wk1 | Wk2 | Notes |\n"
            "|---|---|---|---|---|---|---|---|\n"
            "| 40125 | BANKS, Mark | 03/03/2019 | Dad Rich Banks | 07700 900224 | ✓ | ✓ | ok |\n"
            "| 40126 | BROOK, River | 19/11/2019 | Mum Tess Brook | 07700 900135 | ✓ | A | ok |\n")
    lines = release_auto(text).splitlines()
    assert lines[0].startswith("| Member no | Pupil |"), lines
    assert "| Parent / " in lines[0] and "| Phone | Wk" in lines[0], lines  # carer: [UNK]
    assert lines[0].endswith("| Notes |"), lines
    assert "BANKS" not in lines[2] and "Rich Banks" not in lines[2], lines


@pytest.mark.slow
def test_a_rotas_keys_in_a_chat_are_no_speakers(release_auto) -> None:
    """A chat's pinned rota (``bonfire: guy, ray, sunny``) made its keys speakers' names,
    and one decision per word form then protected ``bonfire`` at every mention.  A label
    before a list of two given names or more is a key; the speakers stay names."""
    pytest.importorskip("wordfreq")
    chat = "\n".join([
        "penny: rota for the night, will pin it",
        "gate: holly, drew, miles (till 7)",
        "bonfire: guy, ray, sunny",
        "holly: the bonfire is lit at 6",
        "drew: ok",
        "guy: the bonfire is going in the same spot",
        "ray: thanks penny",
        "sunny: see you there",
        "miles: yes",
    ]) + "\n"
    lines = release_auto(chat).splitlines()
    assert lines[1].startswith("gate: ") and lines[2].startswith("bonfire: "), lines
    assert "the bonfire is lit" in lines[3] and "the bonfire is going" in lines[5], lines
    assert not lines[3].startswith("holly:") and "holly" not in lines[1], lines


@pytest.mark.slow
def test_a_common_given_name_in_a_list_of_names(release_auto) -> None:
    """``bill, yusuf, art (till 6.45)`` and ``mark, art, ash mcbride`` released ``art``: a
    word as common as it (Zipf 5.3) was no name for sitting in a list.  In a list of three
    or more at commas with two names or more, a listed given name is one; ``red, white,
    blue`` is no list of names."""
    pytest.importorskip("wordfreq")
    text = ("car park: bill, yusuf, art (till 6.45)\nfireworks: mark, art, ash mcbride\n"
            "flags in red, white, blue\n")
    lines = release_auto(text).splitlines()
    assert "art" not in lines[0].split() and "art (" not in lines[0], lines
    assert ", art," not in lines[1], lines
    assert lines[2] == "flags in red, white, blue", lines


@pytest.mark.slow
def test_will_where_no_modal_verb_stands(release_auto) -> None:
    """``is will a fairweather-jones?`` and ``ok. will please pin it`` released ``will``, a
    kept function word: after ``is`` or ``was``, and at a clause's start before
    ``please``, it is the name; ``this news will please everyone`` keeps the verb."""
    pytest.importorskip("wordfreq")
    text = ("dawn: hang on is will a fairweather-jones? i didnt know that\n"
            "penny: ok. rota for the night. will please pin it\n"
            "this news will please everyone\n")
    lines = release_auto(text).splitlines()
    assert " is will a " not in lines[0], lines
    assert ". will please pin it" not in lines[1], lines
    assert lines[2] == "this news will please everyone", lines


@pytest.mark.slow
def test_a_french_family_word_before_a_name_is_no_part_of_it(french) -> None:
    """The twenty-seventh French set's family chat protected ``tata`` and ``mémé`` with the
    given names after them (issue 42): a family word names no one in French either; the
    given name after it is still protected.  At ε = 10⁶ an ordinary word comes back as the
    word its vector is shared with: ``tata`` and ``mémé`` as ``mamie`` (a surrogate
    before)."""
    from .french_release import release_fr

    pytest.importorskip("wordfreq")
    out = release_fr("victoire : bonsoir tata constance, et bravo à mémé blanche\n")
    assert out.count(" mamie ") == 2, out
    assert "constance" not in out and "blanche" not in out, out


@pytest.mark.slow
def test_a_french_registers_header_is_no_ones_data(french) -> None:
    """A riding school's ``N° licence | Cavalier | Né(e) le | Poney | Responsable légal |
    Téléphone | Observations`` was read as people and organisations at every table (issue
    42, the twenty-seventh French set): French column words, and ``(e)`` and ``°`` cut
    like spaces, make it a header; the riders stay protected."""
    from .french_release import release_fr

    pytest.importorskip("wordfreq")
    out = release_fr("N° licence | Cavalier | Né(e) le | Poney | Responsable légal | "
                     "Téléphone | Observations\n"
                     "2616543K | LEBRUN, Prosper | 12/05/2016 | Caramel | Thomas Perrin | "
                     "06 12 34 56 78 | ok\n"
                     "2616544L | PETIT, Rose | 03/09/2016 | Bijou | Clément Petit | "
                     "06 12 34 56 79 | ok\n")
    header = out.splitlines()[0]
    assert "| Cavalier | Né(e) le | " in header, out  # Poney: Cheval, its vector's word
    assert header.endswith("| Responsable légal | Téléphone | Observations"), out
    assert "LEBRUN" not in out and "Perrin" not in out, out


@pytest.mark.slow
def test_names_the_unseen_half_showed(release_auto) -> None:
    """What the twenty-eighth set's unseen half released, *seen* since: a waste line's ``put
    you through to miles who does the skips`` (a given name before ``who``), a condolence's
    ``June (my mum) sends love`` (a name before a family word in brackets).  The words stay:
    ``a Cork man who sang``, ``In June (my birthday)`` keeps its date's placeholder."""
    pytest.importorskip("wordfreq")
    text = ("ill put you through to miles who does the skips. a Cork man who sang\n"
            "June (my mum) sends love to Rose.\n")
    lines = release_auto(text).splitlines()
    assert " to miles who " not in lines[0] and " man who sang" in lines[0], lines
    assert not lines[1].startswith("June ") and "(my mum) sends love" in lines[1], lines


@pytest.mark.slow
def test_a_french_list_of_people_across_its_lines(french) -> None:
    """A death notice in capitals released ``BERTRAND`` and ``CHEIKH``, the first items of
    lists whose other items were people's (issue 42, the twenty-seventh French set's unseen
    half, *seen* since): in a list of one-word items, two of them people's or
    organisations' (the recogniser typed ``AWA`` an organisation), the others that are
    listed given names or rare are people's too."""
    from .french_release import release_fr

    pytest.importorskip("wordfreq")
    out = release_fr("BERTRAND, HÉLÈNE, AUGUSTIN, LOUIS-MARIE ET CAPUCINE,\n"
                     "SES PETITS-ENFANTS ;\n"
                     "CHEIKH, AWA ET ABDOULAYE N'DIAYE, SES ENFANTS.\n")
    assert "BERTRAND" not in out and "CHEIKH" not in out, out


@pytest.mark.slow
def test_what_the_second_reading_found(release_auto) -> None:
    """The second reading of the stage (a helper releasing its own texts with the old and
    the new code) found names the new rules released and words they protected; each stays
    as the old code had it: ``Mr Friend`` (a family word after a title is a surname), ``Sun``
    and ``Thu`` as people (``Met Sun and Thu``, a race's ``Sun 12.41``, an age's ``Thu
    34``), ``the question is will he turn up`` and ``the wedding is may next year`` (verbs
    and months), ``a rock star who``, ``the guy (my landlord)``, ``gas bill, rent, amara``
    (one name in a list is no list of names), ``NEPHEWS, NIECES`` and ``Apologies:``."""
    pytest.importorskip("wordfreq")
    text = ("Dr Friend and Mr Mate will see you.\n"
            "Met Sun and Thu at the market.\n"
            "Heat 2 results: Sun 12.41, Patel 12.9\n"
            "Residents in room 4: Thu 34, Lan 29\n"
            "the question is will he turn up or not. the wedding is may next year\n"
            "we saw a rock star who played. the guy (my landlord) never replied\n"
            "to pay this week: gas bill, rent, amara\n"
            "SURVIVED BY TOM, PRIYA, NEPHEWS, NIECES AND COUSINS.\n"
            "Present: Tom, Priya, Apologies: Sam\n")
    lines = release_auto(text).splitlines()
    assert "Friend" not in lines[0] and "Mate" not in lines[0], lines
    assert "Sun" not in lines[1] and "Thu" not in lines[1], lines
    assert "Sun" not in lines[2] and "Thu" not in lines[3], lines
    assert lines[4] == "the question is will he turn up or not. the wedding is may next year"
    assert lines[5] == "we saw a rock star who played. the guy (my landlord) never replied"
    assert lines[6] == "to pay this week: gas bill, rent, amara", lines
    assert ", NEPHEWS, NIECES AND " in lines[7] and ", Apologies: " in lines[8], lines
