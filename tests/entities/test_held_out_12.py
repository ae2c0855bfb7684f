"""Words protected that are no entity, and initials a text defines (issue 40, the twelfth
stage: other content words changed 10 points more with ``auto`` than with ``none`` on the
eleventh held-out set, the bound is 5).  A radio log's ordinary words typed as an
organisation in capitals (``ETA``, ``NEIGHBOURS``), a title or a form's key inside a
placeholder's span (``SGT`` of ``SGT OKAFOR``), a speaker's first words read as a name
field's value (``caller: yeah``), a form's key read as initials (``AGE``); and a teacher's
code in brackets after the name (``Mr D. Okafor (DO)``)."""

import pytest

from emprivacy.entities.spans import EntitySpan

from .name_list import found as _found


def _span(text, words, kind="ORG", nth=0):
    start = -1
    for _ in range(nth + 1):
        start = text.index(words, start + 1)
    return EntitySpan(start, start + len(words), kind)


def test_ordinary_words_in_capitals_are_no_organisation():
    pytest.importorskip("wordfreq")
    from emprivacy.entities.spacy_detector import _common_words_in_capitals

    text = ("0448 CTRL: ETA SIX MINS. NEIGHBOURS INFORMED, EMERGENCY CONTACTS\n"
            "0450 TO LEEDS GENERAL INFIRMARY, 20 AUG, CALLSIGN ALPHA\n"
            "ETA six minutes, in ordinary case\n")
    for words in ("ETA", "NEIGHBOURS", "EMERGENCY CONTACTS"):
        assert _common_words_in_capitals(text, _span(text, words)), words
    assert _common_words_in_capitals(text, _span(text, "ALPHA", "LOCATION"))
    for words, kind in (("GENERAL INFIRMARY", "ORG"),  # a designator
                        ("LEEDS", "LOCATION"),  # a place of the list
                        ("AUG", "ORG"),  # a digit beside it: a date's
                        ("NEIGHBOURS", "PERSON")):  # people: not by this rule
        assert not _common_words_in_capitals(text, _span(text, words, kind)), words
    ordinary = text.rindex("ETA")
    assert not _common_words_in_capitals(text, EntitySpan(ordinary, ordinary + 3, "ORG"))


@pytest.mark.slow
def test_a_title_in_a_placeholder_is_released_as_a_word(release_auto):
    text = ("0450 UNIT M412 (SGT OKAFOR): RECEIVED.\n"
            "IN THE RAVENSMOOR CORONER'S COURT\n"
            "Married at the Register Office of Dr Mei-Ling Chen's choosing.")
    for seed in (1, 2):
        out = release_auto(text, seed)
        assert "(SGT " in out and "OKAFOR" not in out, out
        assert "CORONER" not in out and "RAVENSMOOR" not in out, out  # inside the name
        assert " Dr " in out and "Chen" not in out, out
    out = release_auto('The course was run by Northfold Governor Services on Friday.')
    assert "Governor" not in out, out  # a designator after it: inside the name


@pytest.mark.slow
def test_a_speakers_first_words_are_no_name_field(release_auto):
    text = ("agent: thanks for calling, can i take your name\n"
            "caller: yeah it's kelly mcgrath\n"
            "agent: and a phone number\n"
            "caller: yeah thursday's fine\n")
    out = release_auto(text)
    assert "kelly" not in out and "mcgrath" not in out, out
    assert "and a phone number\n" in out and "yeah thursday's fine" in out, out
    assert out.count("caller: yeah") == 2, out


@pytest.mark.slow
def test_a_forms_key_in_capitals_is_no_initials(release_auto):
    text = ("DAILY COURT LIST\n01  KOWALSKI, PIOTR ANDRZEJ   AGE 34\n"
            "02  McALLISTER, DEAN ROSS   AGE 19\n03  NGUYEN, VAN THANH   AGE 41\n")
    out = release_auto(text)
    assert out.count("AGE") == 3, out
    assert "DEAN" not in out and "ROSS" not in out and "PIOTR" not in out, out


@pytest.mark.slow
def test_initials_defined_in_brackets_after_a_name(release_auto):
    text = ("Form tutor: Ms R. Hussain (RH)\nENGLISH - Mr D. Okafor (DO)\n"
            "Amara reads widely and writes with care. DO\n"
            "PE - Mr P. Kowalski (PK)\nPlease DO NOT park on the yard.")
    for seed in (1, 2):
        out = release_auto(text, seed)
        assert "(RH)" not in out and "(DO)" not in out and "(PK)" not in out, out
        assert "care. DO\n" not in out, out  # the teacher's signature
        assert "Please DO NOT park" in out, out  # the word, in capitals beside another


@pytest.mark.slow
def test_a_school_after_a_rare_name_in_lower_case(release_auto):
    text = ("auto transcript attendance line oakfield high school monday\n"
            "school office st aidans catholic primary, the primary reason is cost")
    out = release_auto(text)
    assert "oakfield" not in out and "high school" not in out, out
    assert "aidans" not in out and "catholic primary" not in out, out
    assert "the primary reason" in out, out


@pytest.mark.slow
def test_a_pair_in_lower_case_needs_a_given_name(release_auto):
    out = release_auto("the main reason is cost, and grace from the office agreed. "
                       "tell hunter and sunny the plan")
    assert "is cost," in out and "grace" not in out, out
    assert "hunter" not in out and "sunny" not in out, out


def test_a_given_name_said_to_someone_in_a_chat():
    text = ("[20:13] xraymond: bob! it was his router\n"
            "[20:14] rosie_k: grant, ask cliff for the perms\n"
            "[20:15] cliffnotes: ok. the sky is blue tonight\n"
            "[20:16] rosie_k: thanks for that, frank\n")
    found = _found(text)
    assert {"bob", "grant", "frank"} <= set(found), found
    assert "ok" not in found and "sky" not in found, found
    found = _found("[20:17] a: summer. definitely summer\n[20:18] b: night, love\n"
                   "[20:19] c: no worries, bud\n[20:20] d: chance? not likely\n")
    assert not {"summer", "love", "bud", "chance"} & set(found), found


def test_a_key_without_a_vowel_is_no_speaker():
    text = ("01  KOWALSKI, PIOTR   AGE 34\n    CHG: THEFT FROM SHOP\n    CHG: CRIMINAL DAMAGE\n"
            "MS. ADEYEMI: Objection.\nRHYS: I was there.\n")
    found = _found(text)
    assert "CHG" not in found, found
    assert {"ADEYEMI", "RHYS"} <= set(found), found


def test_a_spelled_word_is_one_slot_keyed_by_the_word_it_spells():
    """Issue 40, thirteenth stage: a spelled word is one slot, keyed by its word (join words
    and a letter's example go with it), written where its last letter was; no letter is a
    draw of its own, which gave the letter back by chance one time in ten or so."""
    from collections import Counter

    from emprivacy.preparation.decisions import Dropped, EntitySlot
    from emprivacy.preparation.spelling import spelled_words
    from emprivacy.text import tokenize

    text = ("first name g r a i n n e and surname o apostrophe s h a u g h n e s s y\n"
            "le nom l e espace b e r r e tiret m e n d e s, l e b comme bernard e r r e\n"
            "that is b for bravo r o w n e, n o e comme eugène")
    tokens = list(tokenize(text))
    decisions = [None] * len(tokens)
    counted = Counter()
    spelled_words(decisions, counted, text, tokens)
    slots = [(t.text, d.key) for t, d in zip(tokens, decisions, strict=True)
             if isinstance(d, EntitySlot)]
    assert slots == [("e", ("PERSON", "grainne")), ("y", ("PERSON", "o'shaughnessy")),
                     ("s", ("PERSON", "le berre-mendes")), ("e", ("PERSON", "leberre")),
                     ("e", ("PERSON", "browne")), ("eugène", ("PERSON", "noe"))], slots
    assert all(d.independent for d in decisions if isinstance(d, EntitySlot))
    assert counted["PERSON"] == 6
    dropped = [t.text for t, d in zip(tokens, decisions, strict=True) if isinstance(d, Dropped)]
    assert {"apostrophe", "espace", "tiret", "comme", "bernard", "for", "bravo"} <= set(dropped)
    undecided = [t.text for t, d in zip(tokens, decisions, strict=True) if d is None]
    assert undecided == ["first", "name", "and", "surname", "le", "nom", "that", "is"], undecided
    text = "i got a b for english a c for maths, d as in delta o y l e"
    tokens = list(tokenize(text))
    decisions = [None] * len(tokens)
    spelled_words(decisions, Counter(), text, tokens)
    taken = [t.text for t, d in zip(tokens, decisions, strict=True) if d is not None]
    assert taken == ["d", "as", "in", "delta", "o", "y", "l", "e"], taken  # grades: no spelling
    assert decisions[-1].key == ("PERSON", "doyle")


def test_a_spelling_with_a_pattern_inside_keeps_a_letter_per_slot():
    """A run holding numbers (a reference read out) or a word a pattern decided (an e-mail's
    part) is no one word: its undecided letters are slots of their own, a letter twice two
    draws."""
    from collections import Counter

    from emprivacy.preparation.decisions import EntitySlot, Placeholder
    from emprivacy.preparation.spelling import spelled_words
    from emprivacy.text import tokenize

    text = "ref b b r seven seven four and c h l o e"
    tokens = list(tokenize(text))
    decisions = [None] * len(tokens)
    decisions[-2] = Placeholder(0, "[EMAIL]", "EMAIL")  # as if a pattern had the "o"
    spelled_words(decisions, Counter(), text, tokens)
    keys = [d.key[1] for d in decisions if isinstance(d, EntitySlot)]
    assert len(keys) == len(set(keys)) == 7, keys  # b b r, then c h l e: one slot each
    assert all(k.startswith("\x00") for k in keys), keys


@pytest.mark.slow
def test_a_handle_keeps_its_last_word_and_a_rare_given_name_before_a_family_name(release_auto):
    out = release_auto("Posted by AprilMcKenna_Gen on the forum, thanks Gen Smith")
    assert "AprilMcKenna" not in out and "_Gen" not in out, out
    found = _found("agent yes kofi mensah attended on the fifteenth\n"
                   "agent ill ask for kofi, earliest is thursday\n")
    assert found.count("kofi") == 2 and "mensah" in found, found


def test_an_index_quarter_and_an_old_year_are_dates_and_a_spelled_mail_part_an_email():
    from emprivacy.entities.patterns import PatternDetector

    text = ("a William Aldridge, Lambeth, December quarter 1852. Married June 1847.\n"
            "customer grainne dot o s at example mail dot com\n")
    got = [(text[s.start:s.end], s.type) for s in PatternDetector().detect([text])[0]]
    assert ("December quarter 1852", "DATE") in got and ("June 1847", "DATE") in got, got
    assert ("grainne dot o s at example mail dot com", "EMAIL") in got, got


@pytest.mark.slow
@pytest.mark.parametrize(("text", "hidden"), [
    ("Seen by Carla O. Lewis today. COL to review bloods on Friday.", ["COL"]),
    ("The story ran in the Mail on Sunday last week.", ["Mail"]),
    ("They banked with Judge Brothers Solicitors", ["Judge"]),
    ("MEMBER OF UNITE AND THE GREEN PARTY", ["UNITE"]),
    ("JOURNALIST AT THE GUARDIAN, LONDON", ["GUARDIAN"]),
    ("[07:55] JM: running late\n[07:56] TK: ok no worries\n", ["JM:", "TK:"]),
    ("CLIENT: JUNE OH\nDOB: 3 MARCH 1961", ["JUNE", " OH"]),
    ("Cc: rose and will", ["rose", " will"]),
    ("ok so dana and fox are coming", ["dana", "fox"]),
    ("school office st aidans catholic primary", ["catholic primary"]),
])
def test_the_second_readings_cases_stay_protected(release_auto, text, hidden):
    """What a second reading of the stage found released (each protected at 49d72fe)."""
    out = release_auto(text)
    for words in hidden:
        assert words not in out, (words, out)


@pytest.mark.slow
def test_primary_before_a_noun_is_an_adjective(release_auto):
    out = release_auto("kofi primary carer is his nan")
    # "primary" is no school's designator here: it stays, alone ("carer": out of the
    # vocabulary); the learned detector protects "kofi" (an ORG by its next word, "primary")
    assert (" primary " in out and "[ORG] primary" in out) or "kofi primary " in out, out
    assert "primary [ORG]" not in out and "[ORG] [ORG]" not in out, out
