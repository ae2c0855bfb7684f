"""What the eighteenth stage's tuning half showed (issue 40): a bell-ringers' chat in lower
case (``nguyen van long``), a planning application form, a war memorial's survey in capitals
(``R.G.A.``, ``WELSH GUARDS``, ``RICHARD "DICK" WILL``) and a cricket
scorecard exported as a pipe table whose ``batter`` column holds the people."""

from __future__ import annotations

import pytest

SCORECARD = """INNINGS 1
batter | dismissal | R | B
Will Ashdown | c Okafor b Whitmore | 34 | 41
Dean Fitzgerald (c) | lbw b Rana | 12 | 20
Faizan Iqbal | run out | 57 | 66
Lance Thorburn | not out | 26 | 22
Tomasz Bielecki | not out | 4 | 3
extras | b 4, lb 3 | 18 |
total | all out | 183 |
"""


def test_a_column_of_people_without_a_name_header(release_auto):
    """A pipe table whose header names no name column (``batter``): a column in which the
    detectors found people in most cells is a column of people, so ``Faizan Iqbal`` and
    ``Tomasz`` (whom nothing found alone) go too; the header (``batter``, ``bowler``: a
    surname as well) and ``extras``, ``total`` stay."""
    out = release_auto(SCORECARD)
    for name in ("Faizan", "Iqbal", "Tomasz", "Bielecki", "Ashdown"):
        assert name not in out, out
    assert "batter | dismissal" in out and "extras |" in out and "total |" in out, out
    out = release_auto(SCORECARD.replace("batter", "bowler"))
    assert "bowler | dismissal" in out, out


def test_people_columns_needs_most_cells_found():
    """Two people found among five name-shaped cells make no column of people, three do; a
    note that holds a name (``replaces Doyle``) is no person's cell; two rows are no table."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.spans import EntitySpan
    from emprivacy.entities.table_names import people_columns

    def spans(text: str, *names: str) -> list[EntitySpan]:
        return [EntitySpan(text.index(n), text.index(n) + len(n), "PERSON") for n in names]

    def anything(word: str) -> bool:
        return True

    text = "Ann Lee | 1\nBo Chen | 2\nRed Fox | 3\nBlue Jay | 4\nGrey Owl | 5"
    assert people_columns(text, spans(text, "Ann Lee", "Bo Chen"), name_word=anything) == []
    found = people_columns(text, spans(text, "Ann Lee", "Bo Chen", "Red Fox"),
                           name_word=anything)
    assert [text[s.start:s.end] for s in found] == [
        "Ann Lee", "Bo Chen", "Red Fox", "Blue Jay", "Grey Owl"]
    notes = "1 | replaces Doyle\n2 | chaired by Ros\n3 | price code B"
    assert people_columns(notes, spans(notes, "Doyle", "Ros"), name_word=anything) == []
    short = "Ann Lee | 1\nBo Chen | 2"
    assert people_columns(short, spans(short, "Ann Lee", "Bo Chen"), name_word=anything) == []


def test_a_dotted_acronym_is_one_organisation(release_auto):
    """``R.G.A.``, ``R.N.`` after a name on a war memorial: one ``[ORG]``, not letters left
    as they are; ``9 A.M.`` and the initials before a name are no acronym."""
    out = release_auto("GNR AUGUST LINDQVIST, R.G.A.\nAB RICHARD WILL, R.N.\nService at 9 A.M.")
    lines = out.splitlines()
    assert lines[0].endswith(", [ORG].") and lines[1].endswith(", [ORG]."), out
    assert "R.G.A" not in out and "R.N" not in out and lines[2].endswith(" A.M."), out


def test_an_armed_forces_unit_is_an_organisation(release_auto):
    """A unit's designator (``GUARDS``, ``REGT``, ``RIFLES``, ``DIVISION``) makes an
    organisation of the words before it on a line in capitals."""
    out = release_auto("GDSM DEAN T. PARRY, WELSH GUARDS\nPTE T. O'ROURKE, MIDDLESEX REGT\n"
                       "SEPOY GULAB SINGH, 57TH WILDE'S RIFLES")
    for word in ("WELSH", "GUARDS", "MIDDLESEX", "WILDE", "RIFLES"):
        assert word not in out, out


def test_a_weekday_joins_its_date(release_auto):
    """``Sat 22 June 2024``: the weekday is in the date's placeholder, as the month is."""
    out = release_auto("date | Sat 22 June 2024\nvenue | The Meadow\nSee you Tuesday, March 3.")
    assert "Sat" not in out and "Tuesday" not in out and out.count("[DATE]") == 2, out
    assert "See you" in out, out


def test_a_french_weekday_joins_its_date(french):
    from emprivacy import privatize_texts

    (out,) = privatize_texts(["le concours du samedi 6 juillet au boulodrome, puis le jeudi "
                              "18 juillet à 17 h."], epsilon=1e6, lang="fr", seed=1,
                             entities="auto")
    assert "samedi" not in out.release and "jeudi" not in out.release, out.release
    assert out.release.count("[DATE]") == 2, out.release


def test_a_vietnamese_given_name_after_van_or_thi(release_auto):
    """``nguyen van long``: after a Vietnamese family name and ``van``/``thi`` the next word
    is the given name, an ordinary English word or not, and so at its other mentions
    (``long is welcome``); ``a long day`` stays."""
    out = release_auto("[19:43] joy: nguyen van long emailed me, he wants to join\n"
                       "[19:44] will: great, long is welcome. it was a long day")
    lines = out.splitlines()
    assert "long emailed" not in lines[0] and "emailed me, he wants to join" in lines[0], out
    assert "long is welcome" not in lines[1] and lines[1].endswith("it was a long day"), out


def test_the_surname_after_a_nickname(release_auto):
    """``AB RICHARD "DICK" WILL``: the word after a quoted nickname that follows a name is
    the surname, an ordinary word or not; its other mention (``THE SURNAME "WILL"``) goes
    with it."""
    out = release_auto('AB RICHARD "DICK" WILL, R.N.\nNOTE: THE SURNAME "WILL" IS CORRECT.')
    assert "WILL" not in out and out.splitlines()[1].endswith('" IS CORRECT.'), out


# What the held half showed (seen: after its measurement at the end of the tuning half's rules)


def test_a_pub_by_its_name(release_auto):
    """``at the royal oak``, ``the fox and hounds``, ``the railway tavern``: a pub's name
    after ``the`` is an organisation in lower case; ``crown`` only after a preposition of
    place (``at the crown``; ``the crown of her head`` stays)."""
    out = release_auto("night here at the royal oak on station road\n"
                       "bill captained the railway tavern a team\n"
                       "two draws the fox and hounds with chris\n"
                       "the crown of her head. see you at the crown")
    lines = out.splitlines()
    assert "royal oak" not in out and "railway tavern" not in out and "hounds" not in out, out
    assert lines[3].startswith("the crown of her head.") and "at the [ORG]" in lines[3], out


def test_a_speakers_attempts_at_a_name(release_auto):
    """A transcript read aloud: the name said twice (``will will nguyen``), its first letters
    (``raj rajinder``), two or three words that read as it (``olu washer shun oluwaseun``)
    are the person's; ``i will will you``, ``ask to tomas`` and ``it's sam`` keep their
    words (``'s`` is no attempt at ``sam``)."""
    out = release_auto("the youngster will will nguyen is a natural\n"
                       "twenty three raj rajinder singh bhatti\n"
                       "along with olu washer shun oluwaseun adeyemi\n"
                       "i will will you my records. ask to tomas\n"
                       "yes it's sam here, sam rang")
    lines = out.splitlines()
    assert lines[4].startswith("yes it's ") and " sam " not in lines[4], out
    assert " will " not in lines[0] and " raj " not in lines[1], out
    assert "olu" not in lines[2] and "washer" not in lines[2] and "shun" not in lines[2], out
    assert lines[3].startswith("i will will you my records. ask to "), out


def test_district_and_c_of_e_in_a_name(release_auto):
    """``the eastfield and district darts league``, ``St Mary C of E Primary School``, ``St
    John Ambulance``: designators of several words, and ``Ambulance``."""
    out = release_auto("welcome to the eastfield and district darts league night\n"
                       "Dancing by Year 3 of Westbury St Mary C of E Primary School today\n"
                       "First aid: Chidi Eze (St John Ambulance)")
    for word in ("district", "C of E", "Primary", "Ambulance"):
        assert word not in out, out
    assert out.splitlines()[0].startswith("welcome to the "), out


# What the second reading found


def test_a_stray_quote_in_a_tables_row(release_auto):
    """A row whose ``"`` (inches) makes fewer cells than its separators: no crash, and that
    row is no part of the table."""
    from emprivacy.entities.table_names import people_columns

    out = release_auto('Ann Lee | 4 | x\nFaizan Iqbal | 57 | y\nBo Chen | 2" | z\n'
                       'Sandy Muir | 5 | w')
    assert out.count("\n") == 3 and '" | z' in out, out
    assert people_columns('a | b | c\nd | e" | f\ng | h | i', [], name_word=lambda w: True) == []


def test_attempts_take_no_other_mention_or_person(release_auto):
    """``then jennifer told jennifer off``, ``chris jo chris``: a run between two mentions of
    a name, or another person, is no attempt at it; one repeat before a mention (``will
    will will nguyen``: the first ``will`` stays); a common word is no first letters (``the
    car carla``)."""
    out = release_auto("then jennifer told jennifer off\nchris jo chris and jo came\n"
                       "the youngster will will will nguyen\nin the car carla said hi")
    lines = out.splitlines()
    assert " told " in lines[0] and lines[0].endswith(" off"), out
    assert len(lines[1].split()) == 6 and " and " in lines[1], out
    assert lines[2].startswith("the youngster will ") and lines[2].count("will") == 1, out
    assert lines[3].startswith("in the car ") and lines[3].endswith(" said hi"), out


def test_ordinary_phrases_are_no_pubs_dates_or_names(release_auto):
    """``in the mother's arms``, ``the nuclear arms race``, ``we watched the rising sun``,
    ``I sat 22 June exams`` (``sat`` a verb: only ``Sat`` or ``sat.`` is a weekday), ``we can
    do van deliveries`` (``do`` is a Vietnamese name only as ``Đỗ``); ``O.K.`` is no
    organisation."""
    out = release_auto("in the mother's arms\nthe nuclear arms race\nwe watched the rising sun\n"
                       "I sat 22 June exams\nwe can do van deliveries today\nIt's O.K. now")
    lines = out.splitlines()
    assert lines[:3] == ["in the mother's arms", "the nuclear arms race",
                         "we watched the rising sun"], out
    assert lines[3].startswith("I sat [DATE]") and lines[4] == "we can do van deliveries today"
    assert "[ORG]" not in lines[5], out


def test_a_french_abbreviated_weekday_needs_its_stop(french):
    from emprivacy.entities.french_patterns import FrenchPatternDetector

    text = "Sam 6 juillet chez Marie ; sam. 6 juillet ; samedi 6 juillet"
    found = [text[s.start:s.end] for s in FrenchPatternDetector().detect([text])[0]]
    assert found == ["6 juillet", "sam. 6 juillet", "samedi 6 juillet"], found
