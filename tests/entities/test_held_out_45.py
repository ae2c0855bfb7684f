"""What the forty-fifth stage showed (issues 40 and 42), seen: captions that heard a family
name as two or three words between two mentions of the given name, then said it right
(``constant via lait constant viallet``, ``lucas are pin lucas arpin``, ``sacha mel nique
sacha melnyk``), left those words to the general ε; a letter after a numbered thing's
number (``plot five a``) stayed a word; a family name's initial after a given name in a
chat (``théo g.``) stayed as written."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from emprivacy.preparation.decisions import Decision, Dropped, EntitySlot
from emprivacy.preparation.heard_names import heard_before
from emprivacy.text.tokens import tokenize


def _decide(text: str, names: set[str]) -> list[tuple[str, Decision]]:
    """``heard_before`` over ``text`` whose ``names`` are persons' slots (one per form)."""
    tokens = list(tokenize(text))
    slots = {name: EntitySlot(("PERSON", name), -1, None, independent=True) for name in names}
    decisions: list[Decision] = [slots.get(t.text) for t in tokens]
    heard_before(decisions, Counter(), text, tokens, function_words=frozenset({"et", "de"}),
                 listed=lambda w: False, ordinary=lambda w: False)
    return [(t.text, d) for t, d in zip(tokens, decisions, strict=True)]


def test_words_heard_between_two_mentions_take_the_family_names_slot() -> None:
    """Two or three words between the given name's two mentions that read as the family
    name after the second (first letter, letters at least 0.5 alike) take its slot, the
    words but the last dropped; a slot of their own (``pin``, ``mel``) too."""
    for text, heard, family in (
            ("le traceur c'est lucas are pin lucas arpin l'entraîneur", ["are", "pin"], "arpin"),
            ("dossard deux sacha mel nique sacha melnyk qui court", ["mel", "nique"], "melnyk"),
            ("un monsieur constant via lait constant viallet ans", ["via", "lait"], "viallet"),
            ("et c'était benoît jacky et benoît jacquier au chrono", ["jacky", "et"], "jacquier"),
            ("le moniteur tomasz no vaque tomasz nowak qui", ["no", "vaque"], "nowak")):
        decided = dict(_decide("[0:01:02] " + text, {
            "lucas", "arpin", "pin", "sacha", "mel", "melnyk", "constant", "viallet", "benoît",
            "jacky", "jacquier", "tomasz", "nowak"}))
        assert isinstance(decided[heard[0]], Dropped), text
        assert decided[heard[-1]] is decided[family], text


def test_the_next_captions_start_is_no_gap() -> None:
    """The second mention may start the next caption of an SRT block (its number, its time
    stamps and arrow between)."""
    text = ("18\n00:01:54,900 --> 00:02:01,300\nje croise le gardien ange via lait\n\n"
            "19\n00:02:01,600 --> 00:02:08,000\nange viallet oui le fils de constant\n")
    decided = _decide(text, {"ange", "viallet", "constant"})
    words = {w: d for w, d in decided}
    assert isinstance(words["via"], Dropped)
    assert words["lait"] is words["viallet"]


def test_long_captions_without_time_stamps_are_read() -> None:
    """A radio's captions without time stamps (forty words or more, no capital, no
    punctuation) are read as captions."""
    text = ("bonjour à toutes et à tous vous écoutez radio jolie note en direct du stade on a "
            "aussi au micro un monsieur qui connaît cette piste par cœur depuis toujours "
            "constant via lait constant viallet soixante-quatorze ans et il est toujours là pour "
            "nous raconter les courses d'autrefois au départ")
    words = dict(_decide(text, {"constant", "viallet"}))
    assert isinstance(words["via"], Dropped) and words["lait"] is words["viallet"]
    words = dict(_decide(text.replace(" au départ", ". au départ"), {"constant", "viallet"}))
    assert words["via"] is None  # punctuation: no captions


def test_ordinary_words_between_stay() -> None:
    """Not where the words have another first letter, are too many letters, hold the name
    said right (``summer`` of ``robin summer no robin sumner``), are all slots, or the
    text has capitals and no time stamp."""
    for text, names, word in (
            ("ray and aid ray yusuf came", {"ray", "yusuf"}, "aid"),
            ("destiny royal lovely destiny royle", {"destiny", "royal", "royle"}, "lovely"),
            ("robin summer no robin sumner", {"robin", "summer", "sumner"}, "no"),
            ("Lucas are pin Lucas arpin", {"Lucas", "pin", "arpin"}, "are")):
        decided = dict(_decide(text, names))
        assert decided[word] is None, text


def test_a_letter_after_a_numbered_things_number_is_the_identifiers() -> None:
    """``plot five a``, ``flat 12 c``: the number and its letter are one ``ID`` (the
    letter was released as a word beside ``[NUM]``); ``a`` as an article stays a word."""
    from emprivacy.entities.patterns import PatternDetector

    def ids(text: str) -> list[str]:
        return [text[s.start:s.end] for s in PatternDetector().detect([text])[0]
                if s.type == "ID"]

    assert ids("the hens on the allotments plot five a she's a saint") == ["five a"]
    assert ids("i think by plot seven a where the other cat") == ["seven a"]
    assert ids("she moved to flat 12 c. then bed 4 b") == ["12 c", "4 b"]
    assert ids("Meet at Room 5 A Block, then Room 5 B Block") == []
    assert ids("PLOT TWENTY-ONE D") == ["TWENTY-ONE D"]
    for text in ("room two a bit cold", "room two a few times", "lot 3 a week",
                 "bed 4 and 5", "the plot i had"):
        assert ids(text) == [], text


@pytest.mark.slow
def test_a_family_initial_after_a_given_name_is_protected() -> None:
    """``théo m.`` and ``théo g.`` of a chat: the initial after the given name said which of
    two Théos, verbatim beside the name's surrogate; it is an initial's slot now."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("[07:26] marie-claude fabre : merci blanche, il y a deux théo dans "
                     "l'équipe, c'est pour ça que je mets théo m. et théo g.\n")
    assert not re.search(r" m\. et \w+ g\.", out), out


def test_initials_after_names_alone() -> None:
    """The pass alone: a lower-case letter and its full stop one space after a person's slot
    is an initial; not a title before a name, an abbreviation's letter, nor a letter after
    a sentence's stop."""
    from emprivacy.preparation.initials_after import initials_after_names

    def initials(text: str, names: set[str], titles: frozenset[str] = frozenset()) -> list[str]:
        tokens = list(tokenize(text))
        slots = {n: EntitySlot(("PERSON", n), -1, None, independent=True) for n in names}
        decisions: list[Decision] = [slots.get(t.text) for t in tokens]
        initials_after_names(decisions, Counter(), text, tokens, titles=titles)
        return [t.text for t, d in zip(tokens, decisions, strict=True)
                if isinstance(d, EntitySlot) and t.text not in names]

    assert initials("so i put tom h. and tom b.", {"tom"}) == ["h", "b"]
    assert initials("merci théo m. dupont", {"théo", "dupont"}, frozenset({"m"})) == []
    assert initials("ask tom e.g. today", {"tom"}) == []
    assert initials("ask tom. b. bring it", {"tom"}) == []
    assert initials("ask tom b today", {"tom"}) == []


def test_a_results_lists_initials_with_full_stops() -> None:
    """``9 J. Close 2:01:15`` of a club's results: an entry of a numbered list by initials
    with their full stops is a person, ``Close`` a family name; a quiz's answers stay."""
    from emprivacy.entities.name_pairs import numbered_initials

    text = ("Club results: 1 T. Melnyk 1:38:12; 2 S. Gill 1:44:55; 8 D. Doyle 2:00:02; "
            "9 J. Close 2:01:15; 10 S. Kearney 2:02:08.")
    assert [text[s.start:s.end] for s in numbered_initials(text)] == [
        "T. Melnyk", "S. Gill", "D. Doyle", "J. Close", "S. Kearney"]
    assert numbered_initials("Answers: 1. B. Paris, 2. C. Madrid; 1 A. Grade, 2 B. Grade") == []


@pytest.mark.slow
def test_malay_binti_written_short_is_the_names(release_auto) -> None:
    """``bt.`` between a given name and a father's name is ``binti``, the name's particle
    (released as written beside the two surrogates)."""
    out = release_auto("First halves: A. Warsame, Ahmad b. Yusof, Halima bt. Ismail and "
                       "I. Yusuf.\n")
    assert " bt. " not in out, out


def test_no_initial_before_a_year_nor_very() -> None:
    """A family tree's ``b.`` and ``d.`` (born, died) before a year, ``b. abt.``, and ``v.``
    (very) after a name are words, no initials."""
    from emprivacy.preparation.initials_after import initials_after_names

    for text in ("my grandad patrick mulvey b. abt. 1840 co mayo", "husband desmond d. 2019",
                 "seen by jm v. close to her"):
        tokens = list(tokenize(text))
        decisions: list[Decision] = [
            EntitySlot(("PERSON", t.text), -1, None, independent=True)
            if t.text in ("mulvey", "desmond", "jm") else None for t in tokens]
        initials_after_names(decisions, Counter(), text, tokens)
        assert [t.text for t, d in zip(tokens, decisions, strict=True) if d is not None
                and len(t.text) == 1] == [], text


def test_a_greeting_after_a_name_is_no_part_of_its_span() -> None:
    """``mei mei good morning``: spaCy's person span ends with the greeting, and one decision
    per form then made every ``good`` and ``morning`` of a phone-in a slot; a club's ``CC``
    stays in its span."""
    spacy = pytest.importorskip("spacy")
    from emprivacy.entities import SpacyDetector

    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns([
        {"label": "PERSON", "pattern": [{"LOWER": "mei"}, {"LOWER": "mei"}, {"LOWER": "good"},
                                        {"LOWER": "morning"}]},
        {"label": "PERSON", "pattern": [{"LOWER": "harl"}, {"LOWER": "valley"}, {"LOWER": "cc"}]}])
    text = "a lady called mei mei good morning mrs mei, and Harl Valley CC won"
    found = [text[s.start:s.end] for s in SpacyDetector(nlp).detect([text])[0]]
    assert "mei mei" in found and "Harl Valley CC" in found, found


def test_initials_of_a_name_written_family_name_first() -> None:
    """A rota's ``| GRANT, Marcia | MG |``, ``SHORT Rebecca RS``: the initials read given name
    first; a name in ordinary order keeps its own."""
    from emprivacy.entities.initials import initials_of_names
    from emprivacy.entities.spans import EntitySpan

    text = "| GRANT, Marcia | MG | GM |\n| SHORT Rebecca | RS |\n| Ann Lee | AL | LA |"
    spans = [EntitySpan(m.start(), m.end(), "PERSON")
             for m in re.finditer(r"GRANT|Marcia|SHORT Rebecca|Ann Lee", text)]
    found = [text[s.start:s.end] for s in initials_of_names(text, spans)]
    assert "MG" in found and "RS" in found and "AL" in found, found
    assert "LA" not in found, found


def test_what_the_second_reading_found() -> None:
    """The stage's review: a chat's words between two mentions of a name stay words (the rule
    reads captions only: time stamps, or a long piece with no capital and no punctuation);
    an SRT block with CRLF line ends is read; a unit's letter and an article after a number
    stay; a kiss, a family tree's ``b.`` before a month and a chat's ``bt`` are no initials
    nor particles."""
    from emprivacy.entities.patterns import PatternDetector
    from emprivacy.preparation.initials_after import initials_after_names

    for text, names, word in (("lucy will ask lucy williams about the rota",
                               {"lucy", "williams"}, "ask"),
                              ("amy was like amy walker you are late", {"amy", "walker"}, "like")):
        assert dict(_decide(text, names))[word] is None, text
    crlf = ("18\r\n00:01:54,900 --> 00:02:01,300\r\nje croise le gardien ange via lait\r\n\r\n"
            "19\r\n00:02:01,600 --> 00:02:08,000\r\nange viallet oui\r\n")
    words = dict(_decide(crlf, {"ange", "viallet"}))
    assert isinstance(words["via"], Dropped) and words["lait"] is words["viallet"]
    for text in ("the pitch 100 m long", "kept the room 18 c all winter",
                 "we stayed in room 12 a very nice room"):
        assert not [s for s in PatternDetector().detect([text])[0] if s.type == "ID"], text
    for text, name in (("see you soon love sarah x.", "sarah"),
                       ("mary kelly b. jan 1840", "kelly")):
        tokens = list(tokenize(text))
        decisions: list[Decision] = [
            EntitySlot(("PERSON", name), -1, None, independent=True) if t.text == name else None
            for t in tokens]
        initials_after_names(decisions, Counter(), text, tokens)
        assert sum(d is not None for d in decisions) == 1, text


@pytest.mark.slow
def test_a_trailing_family_name_that_greets_stays_protected(release_auto) -> None:
    """``karen bye``: ``Bye`` is a family name; only a time of day leaves a person's span
    (``mei mei good morning``); ``bt`` without its full stop is a chat's ``but``."""
    out = release_auto("minutes taken by karen bye and sent to the team\n")
    assert " bye " not in out, out
    out = release_auto("told sarah bt james said no\n")
    assert " bt " in out, out


def test_initials_read_backwards_are_no_common_word_of_the_texts_language() -> None:
    """French ``IL`` of ``IL Y A`` beside ``LEBLANC Isabelle``: initials read from a name
    written family name first only are not a common word of the text's language."""
    from emprivacy.entities.initials import initials_of_names
    from emprivacy.entities.spans import EntitySpan

    text = "IL Y A PROMESSE DE MARIAGE ENTRE LEBLANC Isabelle ET MOREL Rose (RM)"
    spans = [EntitySpan(m.start(), m.end(), "PERSON")
             for m in re.finditer(r"LEBLANC Isabelle|MOREL Rose", text)]
    french = {"il": 6.5}.get
    found = [text[s.start:s.end] for s in initials_of_names(
        text, spans, zipf=lambda w: 0.0, own_zipf=lambda w: french(w, 0.0))]
    assert found == ["RM"], found


@pytest.mark.slow
def test_a_festival_is_no_name(release_auto) -> None:
    """``diwali``: the learned model took it for a name in a caption's title line, and one
    decision per form made every mention a person's slot; a festival is a calendar word."""
    text = ("kcr live kelbourne community radio diwali lights switch on kelbourne parade\n"
            "good evening kelbourne and a very happy diwali to you all a few days early\n")
    out = release_auto(text)
    assert out.count("diwali") == 2, out
