"""What the thirty-first stage showed (issue 40, issue 42): the tuning half of the
thirty-first English set (a community orchard's lower-case chat, a cider press's intake log,
1938 sale particulars transcribed in capitals, a county paper's letters page) and of the
thirtieth French set (a désalpe committee's lower-case chat, a list of cows entered for a
combat de reines)."""

from __future__ import annotations

import re

import pytest

from .french_release import release_fr


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’]){re.escape(word)}(?![\w'’])", line) is not None


@pytest.mark.slow
def test_a_key_on_a_line_of_peoples_keys_is_a_persons(release_auto) -> None:
    """``Intake: AC = Autumn Crabbe; MF = Mark Fenwick; HS = Holly Szymańska; SP = Sky
    Pennock`` and a column of ``SP`` released every ``SP``: a model typed ``Sky Pennock`` a
    firm, so its initials were no person's.  On a line of two people's keys or more, a key
    whose initials are its name's is a person's too; a lone ``SP = Sky Pennock`` is not
    enough."""
    pytest.importorskip("wordfreq")
    text = ("Intake: AC = Autumn Crabbe; MF = Mark Fenwick; HS = Holly Szymańska; "
            "SP = Sky Pennock\n\n"
            "| 0007 | 75 | SP | fruit from the garden |\n| 0008 | 22 | AC | vicarage tree |\n")
    out = release_auto(text)
    assert not _has("SP", out), out
    assert "fruit from the garden" in out and "vicarage tree" in out, out


@pytest.mark.slow
def test_a_known_as_column_holds_names(release_auto) -> None:
    """A members' changes table with a ``KNOWN AS`` column released ``Shiv`` and ``Pip``
    (no listed names) while ``May`` and ``Ginger`` beside them were protected.  ``KNOWN
    AS``, ``aka``, ``alias`` head a column of names; ``KNOWN ALLERGIES`` does not."""
    pytest.importorskip("wordfreq")
    text = ("| TICKET | SURNAME | FORENAMES | KNOWN AS | CHANGE |\n"
            "|---|---|---|---|---|\n"
            "| 0009 | Tran | Thi Mai | May | known-as added |\n"
            "| 0020 | Ní Bhriain | Siobhán Óg | Shiv | surname typed wrong |\n"
            "| 0016 | Pennock | Gerald Arthur | Ginger | at his request |\n"
            "| 0002 | Cox | Philippa | Pip | junior member |\n")
    out = release_auto(text)
    for word in ("Shiv", "Pip", "Ginger", "Tran", "Pennock"):
        assert not _has(word, out), (word, out)
    assert "junior member" in out and "at his request" in out, out
    from emprivacy.entities.table_names import name_columns

    assert name_columns(["ID", "Known allergies", "aka", "Alias"]) == {2, 3}


@pytest.mark.slow
def test_initials_after_signs_are_a_name(release_auto) -> None:
    """``WHO SIGNS "T. E."`` released both initials: only ``signed`` was read before
    them.  ``signs``, ``initialled`` are too; the letters of ``SIGNS OF WEAR`` are words."""
    pytest.importorskip("wordfreq")
    text = ('THE PENCIL NOTES ARE IN THE HAND OF MR THOMAS ELLERY, WHO SIGNS "T. E.". '
            "THE PAGE IS INITIALLED A. B. BY THE CLERK. SIGNS OF WEAR.\n")
    out = release_auto(text)
    assert not re.search(r'"T\. E\."', out) and "INITIALLED A. B." not in out, out
    assert "SIGNS OF WEAR." in out, out


@pytest.mark.slow
def test_a_speaker_signing_their_line_with_their_full_name(release_auto) -> None:
    """``will: … the other end. will thatcher.`` released ``will`` (a modal verb to the
    rules) and, in French, ``gentiane: gentiane blanc, fleurs`` released ``blanc`` (a common
    word), ``myrtille: myrtille da silva, buvette`` the particle ``da`` and ``nuno: nuno
    d'oliveira, parking`` the ``d'``.  The label's word, then a family name (a particle
    before it or not), then the clause's end, is the speaker's name; ``will do.``, ``bill
    paid.`` and a word that is no family name stay words."""
    pytest.importorskip("wordfreq")
    text = ("will: i'll mark up the boards friday if someone holds the other end. "
            "will thatcher.\nbill: bill paid. will do.\nhope: ok\n")
    lines = release_auto(text).splitlines()
    assert not _has("thatcher", lines[0]) and not _has("will", lines[0].split("end.")[1]), lines
    assert lines[1].endswith("paid. will do."), lines
    fr = release_fr("gentiane: gentiane blanc, fleurs. je fais les coiffes\n"
                    "myrtille: myrtille da silva, buvette\n"
                    "nuno: nuno d'oliveira, parking. 6 bénévoles\n"
                    "rose: rose tard, désolée\n").splitlines()
    assert not _has("blanc", fr[0]) and ", fleurs. je fais les " in fr[0], fr
    assert not _has("da", fr[1]) and not _has("silva", fr[1]), fr
    assert "d'" not in fr[2] and "oliveira" not in fr[2], fr
    assert fr[3].endswith("tard, désolée"), fr  # "tard": no family name


@pytest.mark.slow
def test_a_log_in_after_by_or_par(release_auto) -> None:
    """``exportée … par p.mbemba (ArèneGest 2.0)`` released the log-in whole: two letters or
    more on each side of the stop were needed.  An initial and a name after ``by``, ``par``
    is a log-in."""
    pytest.importorskip("wordfreq")
    fr = release_fr("Liste exportée le 21/09/2026 à 22:05 par p.mbemba (ArèneGest 2.0)\n")
    assert "mbemba" not in fr and "p." not in fr.split("par", 1)[1][:4], fr
    en = release_auto("Exported 05/10/2026 by j.okafor (v3), hosted by x.com\n")
    assert "okafor" not in en and "hosted by" in en and "j." not in en, en


@pytest.mark.slow
def test_ordinary_words_of_the_orchard_chat_stay_words(release_auto) -> None:
    """``inspector gave it till christmas`` released a surrogate for ``gave``: any word after
    a title was a name, a role's noun's too.  After a role's noun in lower case, a common
    word that is no given name is a word; ``nurse grace``, ``ask mr gave`` are names.  The
    names detector no longer takes the chat's rare ``-ing`` forms and ``-er`` plurals of
    common words for names (``thatching``, ``pressers``; ``thatch`` is a family name too)."""
    pytest.importorskip("wordfreq")
    text = "bill: the inspector gave it till christmas\nmark: nurse grace is here\nhope: ok\n"
    lines = release_auto(text).splitlines()
    assert lines[0].endswith(": the inspector gave it till christmas"), lines
    assert not _has("grace", lines[1]), lines
    assert not release_auto("bill: ask mr gave\nhope: ok\n").splitlines()[0].endswith(
        "mr gave")
    from emprivacy.entities.name_words import inflected_alone, inflected_word

    assert inflected_word("thatching") and inflected_word("pressers")
    assert inflected_alone("thatching", "the", " ")
    assert not inflected_word("fleming") and not inflected_word("manning")
    assert not inflected_word("harding") and not inflected_word("walters")
