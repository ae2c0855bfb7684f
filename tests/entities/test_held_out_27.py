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
