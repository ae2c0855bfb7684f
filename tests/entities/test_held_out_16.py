"""What the sixteenth stage's tuning half showed (issue 40): a book club's chat in lower case
(``headingley library``), a local-history archive's posts (``at the Polish Catholic Club``,
``Mill Road carnival float``)."""


def test_a_public_institution_after_its_name(release_auto):
    """``headingley library``, ``Leeds Central Library``, ``Hexham Museum``: a library, a
    museum, a gallery … after a name is an organisation's designator, in lower case too;
    ``the library`` and ``the national gallery`` alone are no names."""
    out = release_auto("no joy finding a copy at headingley library, will try the library "
                       "in town\nThe talk is at Leeds Central Library, then Hexham Museum.\n"
                       "we went to the national gallery")
    first, second, third = out.splitlines()
    assert "headingley" not in first and "try the library in town" in first, out
    assert "Central Library" not in second and "Hexham" not in second, out
    assert "Museum" not in second, out
    assert third == "we went to the national gallery", out


def test_a_capitalised_word_before_an_organisation_in_its_run(release_auto):
    """``at the Polish Catholic Club``: the capitalised word before a model's organisation
    (``Catholic Club``) in one run is the organisation's name, where the run starts no
    sentence; at a sentence's start, a run that ends with an organisation's designator and
    holds a word that is none is the organisation's too (the seventeenth stage: ``The
    Lantern Players``)."""
    out = release_auto("My dad played with him at the Polish Catholic Club every Sunday.\n"
                       "Polish Catholic Club members came. We went to\n"
                       "Polish Catholic Club dances.")
    first, second, third = out.splitlines()
    assert third.startswith("[ORG] dances"), out  # a line's start after a lower-case word
    assert "Polish" not in first and "Catholic" not in first, out
    assert first.startswith("My dad played with him at the "), out
    assert second.startswith("[ORG] members came."), out


def test_a_street_typed_a_person(release_auto):
    """``Mill Road carnival float``: a person's span that ends with a street's designator
    that is no family name (``Road``, ``Street``, ``Avenue``) is a place when no word before
    it is a given name, and its designator is protected with it; ``Lois Lane``, ``Ann
    Street`` and ``Oluwaseun Avenue told me`` stay people's names.  A span of blank space
    (a non-breaking space between line breaks) is no crash."""
    out = release_auto("Can anyone name the people in this photo? Mill Road carnival float, "
                       "1978.")
    assert "Mill" not in out and "Road" not in out, out
    from emprivacy.entities.spans import EntitySpan, streets_typed_people

    text = "Lois Lane met Ann Street and Mill Road\n\u00a0\n"
    typed = streets_typed_people(text, [EntitySpan(0, 9, "PERSON"),
                                        EntitySpan(14, 24, "PERSON"),
                                        EntitySpan(29, 38, "PERSON"),
                                        EntitySpan(39, 41, "PERSON")],
                                 given=lambda w: w in ("lois", "ann"))
    assert [s.type for s in typed] == ["PERSON", "PERSON", "LOCATION", "PERSON"]
    out = release_auto("Hi Mary\n\u00a0\nSmith here. Oluwaseun Avenue told me.")
    assert "Mary" not in out and "Oluwaseun" not in out, out


def test_a_list_of_names_one_to_a_line(release_auto):
    """Seen (the held half's graduation captions): in a run of three or more short lines
    of words alone, each holding a person (``amara nwosu``, ``shove on mcglinchey``), every
    word is the name's, and so is a short line between two of them that holds none
    (``quack who men sir``); a thread's comments after their authors' lines, a blank line
    between, and a list of things are no list of names."""
    from emprivacy.preparation.name_lists import lines_of_names  # noqa: F401 (the rule)

    out = release_auto("master of engineering with honours\namara nwosu\n"
                       "shove on mcglinchey\nquack who men sir\noh the way shaun adeyemi\n"
                       "priyanka venkataraman\nthank you all")
    lines = out.splitlines()
    assert lines[0] == "master of engineering with honours", out
    for gone in ("shove", "on", "quack", "who", "men", "sir", "oh", "the", "way"):
        assert gone not in lines[2].split() + lines[3].split() + lines[4].split(), out
    assert lines[-1] == "thank you all", out
    thread = ("Kerry-Ann Whitlock\nOMG Holly coming now\n\nChantelle Hinchliffe\n"
              "not the time honestly\n\nMarek Nowicki\nsee you all there\n")
    assert "not the time honestly" in release_auto(thread), thread
    things = "milk\neggs\nbread\nask ann for the keys\n"
    assert release_auto(things).startswith("milk\neggs\nbread\n"), things


def test_names_in_a_tables_name_columns(release_auto):
    """Seen (the held half's registration export): in a tab-separated or CSV table whose
    header names its name columns (``first_name``, ``last_name``, ``badge_name``), every
    row's cell in those columns is a name (``Raj`` of ``NW25-0021  Raj  Malhotra``); the
    other columns (``organisation_name``, ``role``) and a table without a name column are
    left alone."""
    from emprivacy.entities.table_names import TableNameDetector

    text = ("reg_id\tfirst_name\tlast_name\tbadge_name\torganisation_name\trole\n"
            "NW25-0021\tRaj\tMalhotra\tRaj Malhotra\tMorrow Macleod\tdelegate\n"
            "NW25-0022\tWill\tHope\tWill Hope\tGrace Church\tspeaker\n\n"
            "id,colour,size\n1,Grace,large\n")
    found = [text[s.start:s.end] for s in TableNameDetector().detect([text])[0]]
    assert found == ["Raj", "Malhotra", "Raj Malhotra", "Will", "Hope", "Will Hope"]
    quoted = 'id,"Full name",email\n7,"Okafor, Chiamaka",c@x.org\n'
    assert [quoted[s.start:s.end] for s in TableNameDetector().detect([quoted])[0]] == [
        "Okafor, Chiamaka"]
    out = release_auto(text)
    row = out.splitlines()[1].split("\t")
    assert "Raj" not in row[1:4] and "Malhotra" not in out, out
    assert row[5] == "delegate", out


def test_a_family_firm_of_daughters(release_auto):
    """Seen: ``Price & Daughters Drainage`` is a family firm as ``& Sons`` is, and
    ``drainage`` a firm's designator; a firm's words never run across a table's tabs."""
    out = release_auto("Call Price & Daughters Drainage today.")
    assert "Price" not in out and "Daughters" not in out and "Drainage" not in out, out
    from emprivacy.entities.designator_words import FIRM

    assert FIRM.search("Rhys\tPrice & Sons").group(1) == "Price "
