"""Names that are ordinary words, in lower-case chat (issue 40, eighth held-out set, its
tuning half): ``i'm her son will`` at a line's end, ``ok, bill approved`` at a clause's
start, and the ordinary mentions of such a name (``the bill``, ``i'll mark that``, ``didn't
dawn on us``), which one decision per word form made people."""


from .name_list import found as _found
from .name_list import spans as _spans


def test_a_kin_word_names_will_at_the_end_of_its_line():
    found = _found("customer: it's my mum's account. i'm her son will\n"
                   "customer: my husband will call you")
    assert found.count("will") == 1, found
    assert "will" in _found("it's for our son will, he starts monday")


def test_a_common_given_name_before_an_agent_verb_at_a_clause_start_in_lower_case():
    text = ("agent maya: ok, bill approved a loyalty rate for her\n"
            "customer: great. rose said it was fixed\n"
            "agent maya: prices rose again. the bill went up")
    found = _spans(text)
    assert (text.index("bill approved"), "bill") in found, found
    assert (text.index("rose said"), "rose") in found, found
    assert (text.index("bill went"), "bill") not in found, found


def test_a_mention_after_a_determiner_or_an_auxiliary_stays_a_word():
    """``mark`` names the engineer once; ``i'll mark that``, ``the mark`` and ``didn't
    dawn`` are the verb and the noun."""
    found = _found("agent dawn: your engineer is mark at openreach. i'll mark that as done.\n"
                   "customer: it didn't dawn on us. thanks dawn, and ask mark to call")
    assert found.count("mark") == 2, found  # the engineer, and "ask mark"
    assert found.count("dawn") == 2, found  # the speaker, and "thanks dawn"


def test_the_release_keeps_the_ordinary_mentions(release_auto):
    out = release_auto("agent dawn: your engineer is mark at openreach\n"
                       "customer: i'll mark that down. it didn't dawn on us")
    assert "i'll mark that" in out and "didn't dawn on us" in out, out
    assert "engineer is mark" not in out, out


def test_a_rare_name_after_a_determiner_is_still_the_name(release_auto):
    """``ill drop the mulvihill idea``: a surname as a noun's modifier (issue 40, held out 7,
    which the determiner rule above first released verbatim)."""
    found = _found("raj found a mulvihill in 1881. thanks raj, ill drop the mulvihill idea")
    assert found.count("mulvihill") == 2, found
    out = release_auto("i found the mulvihill family in 1881. ill drop the mulvihill idea")
    assert "mulvihill" not in out, out
