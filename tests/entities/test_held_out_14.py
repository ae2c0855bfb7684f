"""Names the fourteenth stage's tuning half showed verbatim (issue 40): a midwife's notes
that write the mother and her partner as ``F`` and ``K`` after naming them in full, a Welsh
``ap``, and a running club's chat whose members' handles hold their given names."""

from .name_list import found as _found
from .name_list import spans as _spans


def test_single_letters_standing_for_people_the_note_names():
    """``F well.``, ``given to F by phone``, ``with F and K``: a letter that is a named
    person's first letter, alone, at a sentence's start or after a preposition, at least
    twice — not ``Vitamin D``, ``Plan B`` or ``Bay F``, nor a letter no one's name starts
    with, nor a letter said once."""
    from emprivacy.entities.initials import letters_of_names
    from emprivacy.entities.spans import EntitySpan

    text = ("Name: Farida Al-Mansouri. Partner: Karim Al-Mansouri.\nF well. Results given to "
            "F by phone. Plan with F and K; K (partner) at work. Bay F clean, Vitamin D and "
            "Plan B. T wave normal. Dan saw B.\n")

    def span(words):
        return EntitySpan(text.index(words), text.index(words) + len(words), "PERSON")

    spans = [span("Farida Al-Mansouri"), span("Karim Al-Mansouri")]
    got = [(text[s.start:s.end], s.start) for s in letters_of_names(text, spans)]
    expected = [("F", text.index("F well")), ("F", text.index("F by")),
                ("F", text.index("F and")), ("K", text.index("K;")),
                ("K", text.index("K (partner"))]
    assert sorted(got, key=lambda x: x[1]) == expected, got
    once = "Name: Farida Al-Mansouri.\nF well.\n"
    assert letters_of_names(once, [EntitySpan(6, 24, "PERSON")]) == []
    things = ("Karen Holt, Tom Baker, Emma Jones seen.\nK low at 3.1. K replaced. Plan with "
              "K. T wave inversion. T wave normal. Told T. Sent to A and E. Back from A and E.")
    people = [EntitySpan(0, 10, "PERSON"), EntitySpan(12, 21, "PERSON"),
              EntitySpan(23, 33, "PERSON")]
    assert letters_of_names(things, people) == []  # potassium, a wave, a department


def test_single_letters_are_released_as_initials(release_auto):
    """At ε = 10⁶ a letter released as an ordinary word comes back as itself every time; as
    a person's initial it is drawn independently (ε = 0), so over 10 seeds ``F`` stays
    ``F`` at most 4 times (a letter's chance is about 1 in 10; 4 of 10 has probability
    below 0.02), and every mention of it reads the same."""
    text = ("Name: Farida Al-Mansouri. Partner: Karim Al-Mansouri.\nF well, results given to "
            "F by phone. Plan with F and K.\n")
    kept = 0
    for seed in range(10):
        line = release_auto(text, seed=seed).split("\n")[1]
        first = line.split()[0]
        assert line.split()[5] == first and line.split()[10] == first, line
        kept += first == "F"
    assert kept <= 4, kept


def test_a_welsh_ap_and_the_given_name_before_it(release_auto):
    """``ap`` is no English word: before a name (even one a model typed an organisation and
    hid as one) it is the person's, and the given name before it stays protected; ``ua``
    (urinalysis) is no particle."""
    out = release_auto("3. Owain ap Gwilym, former employer\nVisits: Osei-Tutu and ap Gwilym "
                       "seen in July.\nCollected ua St James Hospital today.")
    assert "Owain" not in out and " ap " not in out and "Gwilym" not in out, out
    assert "Collected ua " in out, out  # urinalysis: no particle
    assert ", former employer\nVisits: " in out, out


def test_the_given_names_a_chats_handles_hold_are_names_at_their_mentions():
    """``chase_ikenna`` and ``art_ap_rhys`` speak: ``chase i said`` and ``your title art``
    name them; ``i'll chase`` and ``the art of`` stay words (a subject's clitic, a
    determiner)."""
    text = ("06:44 art_ap_rhys: we are the art of pacing\n"
            "06:45 rob_deluca: nobody's going to rob you of your title art\n"
            "06:47 chase_ikenna: i'll chase the front group\n"
            "06:48 cliffhanger_77: chase i said 5:30s\n")
    found = _found(text)
    assert found.count("art") == 2 and found.count("chase") == 2, found  # a handle's, a mention
    config = "grant_type: password\nclient_id: x\nGrant access to the admin group."
    assert "Grant" not in _found(config)  # a configuration's key is no speaker
    assert text.index("art of") not in [s for s, w in _spans(text) if w == "art"]
    assert text.index("chase the") not in [s for s, w in _spans(text) if w == "chase"]


def test_a_name_said_to_someone_without_a_comma():
    """At a message's start before a subject pronoun (``bill you found the bill``, not ``hope
    you're well``), at its end after ``you`` or itself (``coming from you rich``, ``have some
    faith faith``), a subject after a comma (``the front group, cliff said``), a colleague
    ``from work``."""
    text = ("[06:22] mark.d: bill you found the bill\n"
            "[06:23] x.y: hope you're well\n"
            "[06:40] gene_w: rich coming from you rich\n"
            "[06:41] joy_f: have some faith faith\n"
            "[06:47] sue_p: i'll chase the front group, cliff said he's pacing\n"
            "[06:48] sue_p: bringing guy from work, not a guy from work\n")
    spans = _spans(text)
    assert (text.index("bill you"), "bill") in spans, spans
    assert (text.index("hope"), "hope") not in spans, spans
    assert (text.rindex("rich"), "rich") in spans, spans
    assert (text.index("rich"), "rich") in spans, spans  # one decision per form
    assert (text.rindex("faith"), "faith") in spans, spans
    assert (text.index("cliff said"), "cliff") in spans, spans
    assert (text.index("guy from"), "guy") in spans, spans
    assert (text.index("a guy") + 2, "guy") not in spans, spans


def test_thanks_and_an_uncommon_capitalised_name():
    """Seen (the held half's neighbourhood thread): ``Thanks Enzo!`` — a word no census list
    holds and uncommon in English is a name after a greeting."""
    found = _found("Lorenzo Bellucci · Eastfield\n  Sign up with me.\n\nAisling · Sorrel Park\n"
                   "  Thanks Enzo! See you there.")
    assert "Enzo" in found, found
