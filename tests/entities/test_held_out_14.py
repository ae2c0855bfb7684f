"""Names the fourteenth stage's tuning half showed verbatim (issue 40): a midwife's notes
that write the mother and her partner as ``F`` and ``K`` after naming them in full, a Welsh
``ap``, and a running club's chat whose members' handles hold their given names."""




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
    hid as one) it is the person's, and so is the given name before it that no detector
    found (``Siân``)."""
    out = release_auto("3. Siân ap Gwilym, former employer\nVisits: Osei-Tutu and ap Gwilym "
                       "seen in July.")
    assert "Siân" not in out and " ap " not in out and "Gwilym" not in out, out
    assert ", former employer\nVisits: " in out, out
