"""Names and places of a family's text messages, a coroner's record and a helpdesk's ticket
(issue 40, the eleventh held-out set's tuning half and the shapes of its prompt): a user
name's initial (``k.osei``), ``will`` the person after a verb of saying, before a verb no
modal precedes or after two names, a town in lower case ending in ``bridge``, and an
organisation's name with ``and`` in it (``Fire and Rescue Service``)."""

import re

import pytest

from emprivacy.entities.handles import widen_handles
from emprivacy.entities.spans import EntitySpan

from .name_list import found as _found


def _words(text):
    return re.findall(r"[\w']+", text)


def test_a_persons_span_takes_in_the_user_name_it_is_part_of():
    text = "to: m.lindqvist. Thanks Kwame. Ping @k_osei, end a.b. Kwame"

    def at(word, kind="PERSON", nth=0):
        start = [m.start() for m in re.finditer(re.escape(word), text)][nth]
        return EntitySpan(start, start + len(word), kind)

    ab = text.index("a.b")
    spans = [at("lindqvist"), at("Kwame"), at("osei"), EntitySpan(ab, ab + 1, "ORG"),
             at("Kwame", nth=1)]
    got = [text[s.start:s.end] for s in widen_handles(text, spans)]
    assert got == ["m.lindqvist", "Kwame", "k_osei", "a", "Kwame"], got


@pytest.mark.slow
def test_the_initial_of_a_user_name_is_released_as_a_name(release_auto):
    text = ("Assigned to: m.lindqvist\n@k.osei can you try safe mode? cc @priya.raman\n"
            "Thanks, Kwame. Meet at 3 p.m., e.g. in room b.")
    for seed in (1, 2, 3):
        out = release_auto(text, seed)
        assert "m.lindqvist" not in out and "k.osei" not in out, out
        assert "p.m." in out and "e.g." in out and "room b." in out, out
    # over seeds, the initials are drawn, not copied: not always the letter written
    outs = [release_auto(text, seed) for seed in range(1, 9)]
    kept = sum(bool(re.search(r"\bm\.\w+", o)) for o in outs)
    assert kept < 4, outs


def test_will_the_person_after_saying_before_a_past_verb_and_after_two_names():
    text = ("dawn: rose jack will reminder its ambers birthday\n"
            "dawn: wheres the lead ray thinks will took it\n"
            "dawn: no idea ray says will\n"
            "will: boot of the car\nrose: we will see, it will always lag")
    found = _found(text)
    assert found.count("will") == 4, found  # after two names, will took, says will, the label


@pytest.mark.slow
def test_a_town_ending_in_bridge_and_a_service_with_and(release_auto):
    out = release_auto("tonight in hebden bridge, we crossed the bridge after")
    assert "hebden" not in out and "bridge," not in out, out
    assert "crossed the bridge" in out, out
    out = release_auto("Crews of North Yorkshire Fire and Rescue Service arrived.")
    assert "Rescue" not in out and "Service" not in out and "[ORG]" in out, out


def test_a_listed_word_coordinated_with_a_name_is_a_name():
    """Of two people joined by ``and``, a voicemail names one by a listed name only the
    other shows to be a name (``tell hunter and sunny``); not after a determiner, not a word
    no name list holds (``pat and chips``)."""
    found = _found("just tell hunter and sunny that ray is coming, Rose & Jack too")
    assert {"hunter", "sunny", "Rose", "Jack"} <= set(found), found
    found = _found("the bill and jack. we had fish and chips with pat and chips")
    assert "bill" not in found and "chips" not in found, found


@pytest.mark.slow
def test_a_word_beside_a_persons_name_in_one_capitalised_run_is_a_name(release_auto):
    """A court list in capitals writes ``SURNAME, GIVEN NAMES``: a given name on no list
    (``CONOR``) beside a listed one (``PATRICK``) in one capitalised run is the person's,
    where it was released at the general ε; a common word beside a name is not (``AGE``)."""
    text = ("WESTBROOK MAGISTRATES' COURT - COURTROOM 2 - LIST FOR MONDAY 12 MAY 2025\n"
            "CHAIR: MRS J HALLORAN   LEGAL ADVISER: MR K OYELARAN\n\n"
            "1. BRENNAN, CONOR PATRICK  AGE 34  14 FERNDALE CLOSE, WESTBROOK WB4 7QT\n"
            "   CHARGE: THEFT FROM SHOP ON 02/04/2025\n")
    for seed in (1, 2):
        out = release_auto(text, seed)
        assert "CONOR" not in out and "PATRICK" not in out, out
        assert "AGE" in out and "CHARGE: THEFT FROM SHOP" in out, out


def test_a_caller_says_who_calls_after_its():
    """A voicemail opens ``it's sunny from the practice`` (the tokenizer splits ``'s``, so
    the rule for ``its may from`` never saw ``it's``) or ``it is grace calling``; the weather
    is no caller (``it's sunny here``)."""
    found = _found("hi it's sunny from the dental practice. it is grace calling back")
    assert found == ["sunny", "grace"], found
    assert _found("it's sunny here today, it's cold from the north") == []


# After the held half was measured and looked at (issue 40, eleventh stage): seen, so these
# say nothing of new text.

def test_a_family_name_rarer_than_uncommon_after_a_given_name():
    found = _found("i have got lily and zane iqbal down for a retest, then grace hussein")
    assert "iqbal" in found and "hussein" in found, found


@pytest.mark.slow
def test_a_court_lists_surnames_initials_and_particles(release_auto):
    text = ("WESTBROOK MAGISTRATES' COURT - LIST FOR MONDAY 12 MAY 2025\n"
            "05 DA SILVA, LUANA BEATRIZ AGE 27\n REP: MR A SHAH   OIC: PC 4471 HOLLIS\n"
            "10 HUSSEIN, AMINA YASMIN AGE 30\n CHARGE: THEFT\n")
    for seed in (1, 2):
        out = release_auto(text, seed)
        for word in ("DA", "SILVA", "HUSSEIN", "SHAH"):
            assert word not in _words(out), out
        assert "CHARGE: THEFT" in out and "AGE" in out, out
    # the initial after the title is drawn (a letter of a surrogate), not kept: by chance
    # the same letter about once in 20 draws
    kept = sum("MR A " in release_auto(text, seed) for seed in range(3, 11))
    assert kept < 4, kept


@pytest.mark.slow
def test_a_hyphenated_family_name_with_a_common_part(release_auto):
    out = release_auto("Reset done, and I'll brief Harriet (H. Lomax-Grant, Head of IT) later.")
    assert "Lomax" not in out and "Grant" not in out and "(H." not in out, out
    assert "Reset done" in out, out


def test_an_initial_after_a_title_joins_the_names_placeholder_whatever_its_type():
    from collections import Counter

    from emprivacy.preparation.decisions import Placeholder
    from emprivacy.preparation.name_parts import join_initials
    from emprivacy.text.tokens import tokenize

    text = "REP: MR A SHAH OIC"
    tokens = list(tokenize(text))
    org = Placeholder(0, "[ORG]", "ORG", text.index("SHAH"))
    decisions = [org if t.text == "SHAH" else None for t in tokens]
    join_initials(decisions, Counter(), text, tokens, frozenset({"mr"}))
    assert decisions[[t.text for t in tokens].index("A")] == org, decisions
    text = "REP: OK A SHAH OIC"  # no title: an article
    tokens = list(tokenize(text))
    decisions = [org if t.text == "SHAH" else None for t in tokens]
    join_initials(decisions, Counter(), text, tokens, frozenset({"mr"}))
    assert decisions[[t.text for t in tokens].index("A")] is None, decisions


def test_mister_is_a_title_and_good_after_a_greeting_is_no_name():
    """A recogniser writes ``mister`` out (``this is mister win``); ``hello good afternoon``
    greets nobody called Good."""
    found = _found("hello good afternoon this is mister win. hi mark, thanks bill, hi all")
    assert found == ["win", "mark", "bill"], found


def test_a_capitalised_will_coordinated_with_a_name_is_a_name():
    """Seen in held out 6 while checking this stage for regressions: ``Grace and Will on the
    front desk`` released ``Will`` at the general ε (a kept function word)."""
    found = _found("shout out to Grace and Will on the front desk. Grace and May 3 were busy. "
                   "grace and will do it")
    assert "Will" in found and "May" not in found and "will" not in found, found


# A second reading of this stage's change (issue 40, eleventh stage) found these.

@pytest.mark.slow
def test_what_the_stage_had_stopped_protecting_is_protected_again(release_auto):
    out = release_auto("tell nan li to call")  # a family word is a given name too
    assert "nan" not in _words(out), out
    out = release_auto("Referral from Dana okonkwo for review.")  # a rare family name, any case
    assert "okonkwo" not in out, out
    out = release_auto("cc @Kwame_Nigeria today")  # a place inside a user name stays a place
    assert "Nigeria" not in out and "Kwame" not in out, out


@pytest.mark.slow
def test_the_stages_rules_leave_ordinary_words_alone(release_auto):
    out = release_auto("Thanks Kwame.See you soon. Will Jones is off today. "
                       "Dana Smith will cover the desk.\nHiya, Dana how are you\n"
                       "PLAN: DR LEE PRESCRIBED ANTIBIOTICS")
    for kept in ("See you soon", "will cover the desk", "PRESCRIBED ANTIBIOTICS"):
        assert kept in out, out
    assert "\n[UNK], " in out, out  # hiya: no name (out of GloVe's vocabulary: [UNK])


def test_a_handle_is_walked_once_and_stops_before_a_capital():
    from emprivacy.entities.handles import widen_handles

    text = "x " + "dana.kwame." * 500 + " Dana.Kwame"
    spans = [EntitySpan(m.start(), m.end(), "PERSON") for m in re.finditer(r"[A-Za-z]{4,}", text)]
    wide = widen_handles(text, spans)
    assert {(s.start, s.end) for s in wide[:-2]} == {(2, 2 + 11 * 500 - 1)}
    assert [text[s.start:s.end] for s in wide[-2:]] == ["Dana", "Kwame"]
