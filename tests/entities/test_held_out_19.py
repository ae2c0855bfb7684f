"""What the nineteenth stage's tuning half showed (issue 40): a beekeepers' chat in lower
case (``jack borrowed it``, ``community hub, mill street``), a narrowboat mooring form
(``a 14-day limit``), a greyhound racecard in capitals and a community transport export."""

from __future__ import annotations

import pytest

CHAT = """[09:16] ray: can do saturday swarms. no car, jack borrowed it
[09:18] jack: "borrowed". so ray owes me a jack. zane iqbal can drive
[09:22] pat: swarm talk starts sat, community hub, mill street
[09:30] rose: bees in his chimney on church lane, ashby parva
[09:31] pat: then down the main road and back up the side street
"""


def test_an_unlisted_verb_after_a_name_is_no_family_name(release_auto):
    """In lower case a word after a listed given name is its family name when it is rare, on
    the census lists or reads as a name by its vector (``zane iqbal``); an unlisted word as
    common as ``borrowed`` or ``owes`` is the verb the name does."""
    out = release_auto(CHAT)
    assert "jack borrowed it" not in out and "borrowed it" in out, out
    assert "owes me" in out, out
    assert "iqbal" not in out, out


def test_family_name_rule_by_word():
    """The names detector alone: the surname is found, the verbs are not."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.names import NameListDetector

    text = "[09:16] ray: no car, jack borrowed it\n[09:18] jack: ray owes me. zane iqbal can\n"
    found = {text[s.start:s.end] for s in NameListDetector().detect([text])[0]}
    assert {"jack", "ray", "zane", "iqbal"} <= found, found
    assert not {"borrowed", "owes"} & found, found


def test_a_street_named_by_a_common_word_in_lower_case(release_auto):
    """``mill street`` and ``church lane`` on lines in lower case are places (their names'
    words go, the designators stay); ``the main road`` and ``the side street`` are not."""
    out = release_auto(CHAT)
    assert "mill street" not in out and "street" in out, out
    assert "church lane" not in out, out
    assert "down the main road and back up the side street" in out, out


def test_lower_case_streets_by_rule():
    """The rule itself: lines with a capital letter, function words, numbers' words and the
    generic words make no street, nor a plural, a hyphenated word or a compound's first
    word (``street food``)."""
    from emprivacy.entities.streets import lower_case_streets

    def found(text: str) -> list[str]:
        return [text[s.start:s.end] for s in lower_case_streets(text)]

    assert found("at station road then abbey road") == ["station road", "abbey road"]
    assert found("Meet at station road") == []  # a capital: the writer capitalises names
    assert found("cross the road, the bus lane, two streets, memory lane") == []
    assert found("a close friend, a test drive") == []
    assert found("careful, slippery roads tonight, a tree-lined avenue") == []  # no street
    assert found("best street food, an epic road trip, the roof terrace") == []
    text = "first line\nnear mill street"
    (span,) = lower_case_streets(text)
    assert text[span.start:span.end] == "mill street" and span.type == "LOCATION"


@pytest.mark.parametrize("quantity", ["14-day", "5-year-old", "2-3-week", "10-minute",
                                      "1.5-litre", "3-bed", "4-star", "90-minutes"])
def test_a_quantity_joined_to_its_unit_is_no_identifier(quantity):
    """``a 14-day limit``: a number, a hyphen and a unit is a quantity (its number a
    placeholder as every number's), not an identifier whose letters a placeholder hides."""
    from emprivacy.entities.patterns import PatternDetector

    text = f"Visitor moorings: a {quantity} limit; ref KD-44718."
    found = [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    assert found == ["KD-44718"], found


def test_a_form_key_ending_in_an_abbreviation_is_no_organisation(release_auto):
    """``National Insurance no.:`` is a form's key (its words go through the mechanism as
    words, its value is an identifier): the full stop of ``no.`` before the colon no longer
    hides the key from the key test."""
    out = release_auto("Full name: Joe Asante\nNational Insurance no.: QT 48 19 62 C\n")
    assert "National Insurance no.:" in out, out
    assert "Asante" not in out and "QT" not in out, out


def test_a_particle_that_starts_a_table_cell_is_the_names(french):
    """French, surname first in a table's cells (``| de Kerguelen Aymeric |``, ``| Le Cam
    Sylvain |``): the particle that starts the cell is the person's, and the family name
    too whatever its type (``Cam`` is a place's word); the same family name in a list later
    gets the same surrogate (one person, one surrogate)."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    text = ("| N° | Nom Prénom | Commune |\n|---|---|---|\n"
            "| 6 | Rault Jean-Claude | Plumieux |\n"
            "| 7 | de Kerguelen Aymeric | Rennes |\n"
            "| 9 | Le Cam Sylvain | Loudéac |\n"
            "Tirs manqués signalés : 2 (Rault, de Kerguelen).\n")
    rows = release_fr(text).splitlines()
    for row, gone in ((rows[3], ("de", "Kerguelen", "Aymeric")), (rows[4], ("Le", "Cam"))):
        assert not set(gone) & set(row.split("|")[2].split()), row
    surname = rows[3].split("|")[2].split()[1]
    assert surname in rows[5], rows


def test_a_particle_starting_a_line_or_a_bracket_is_the_preposition(french):
    """Only a table's cell: ``(de Marie et Paul)`` and ``De Marie Dupont à tous`` keep ``de``
    (from), which a person's slot after it does not make a name's."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("merci pour le cadeau (de Marie et Paul)\nDe Marie Dupont à tous : merci\n")
    assert "(de " in out and out.splitlines()[1].startswith("De "), out


def test_a_retyped_particle_slot_moves_its_count(french):
    """The record counts what was protected by its final type: the family name a model typed
    a place and the particle are the person's, so no place is counted."""
    pytest.importorskip("wordfreq")
    from emprivacy import load_embeddings
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    text = "| de Kerguelen Aymeric | 12 |\n| Le Cam Sylvain | 14 |\n"  # no name header
    obf = Obfuscator(EarthMoversPrivacy(load_embeddings(lang="fr"), epsilon=1e6),
                     ObfuscationConfig(mode="text", entities="auto", lang="fr"), seed=1,
                     on_warning=lambda message: None)
    (record,) = obf.obfuscate([Document("hunt", text)])
    found = record["entities_detected"]
    assert found.get("LOCATION", 0) == 0 and found.get("PERSON") == 6, found


def test_a_markdown_table_header_with_outer_pipes_names_its_column():
    """``| N° | Nom Prénom | Commune |``: the empty cells outside a table's outer pipes are no
    header cells, so the name column is found and its cells are people."""
    from emprivacy.entities.table_names import TableNameDetector

    text = ("| N° | Nom Prénom | Commune |\n|---|---|---|\n| 6 | Rault Jean-Claude | Plumieux |\n"
            "| 9 | Le Cam Sylvain | Loudéac |\n")
    found = [text[s.start:s.end] for s in TableNameDetector().detect([text])[0]]
    assert found == ["Rault Jean-Claude", "Le Cam Sylvain"], found
    inner_empty = "| N° |  | Commune |\n| 6 | x | y |\n"
    assert TableNameDetector().detect([inner_empty]) == [[]]


def test_a_span_is_cut_at_a_table_cell_separator():
    """A model's span across ``|`` (``Cam Sylvain | Loudéac``) is two spans, one per cell."""
    from emprivacy.entities.spans import EntitySpan, split_at_gaps

    text = "| 9 | Le Cam Sylvain | Loudéac |"
    span = EntitySpan(text.index("Cam"), text.index("Loudéac") + len("Loudéac"), "LOCATION")
    assert [text[s.start:s.end] for s in split_at_gaps(text, [span])] == [
        "Cam Sylvain", "Loudéac"]


# Seen: what the held half showed (a citizenship ceremony by speech recognition).

def test_a_long_misheard_name_before_a_correction(release_auto):
    """``chuck way mecca obi aura sorry chukwuemeka obiora``: up to five words before the
    correction read as the name's words together; ``oh no`` corrects as ``sorry`` does."""
    out = release_auto("first we have chuck way mecca obi aura sorry chukwuemeka obiora from "
                       "lagos\nthen joe and pedro oh no joao pedro dos santos\n")
    for word in ("chuck", "way", "mecca", "aura", "chukwuemeka", "obiora", "joe", "joao"):
        assert word not in out.split(), out
    assert "sorry" in out and "oh no" in out, out


def test_a_correction_takes_no_function_word_and_cues_chain(release_auto):
    """``i think she oh no siobhan mcnamara``: ``she`` is no attempt at the name (a function
    word ends the walk back); ``oh no sorry`` is one correction, kept as said."""
    out = release_auto("i think she oh no siobhan mcnamara rang\n"
                       "ask mohammed iqbal oh no sorry mohamed iqbal\n")
    lines = out.splitlines()
    assert lines[0].startswith("i think she oh no "), out
    assert "oh no sorry" in lines[1], out


def test_corrections_take_five_words_at_most():
    """The walk back stops at five words: a sixth word as alike is no part of the run."""
    from collections import Counter

    from emprivacy.preparation.corrections import corrected_names
    from emprivacy.preparation.decisions import EntitySlot
    from emprivacy.text.tokens import tokenize

    text = "bob chuck way mecca obi aura sorry chukwuemeka obiora here"
    tokens = list(tokenize(text))
    decisions: list = [None] * len(tokens)
    at = [t.text for t in tokens].index("chukwuemeka")
    for k in (at, at + 1):
        decisions[k] = EntitySlot(("PERSON", tokens[k].text), -1, None, independent=True)
    corrected_names(decisions, Counter(), text, tokens)
    taken = [t.text for t, d in zip(tokens, decisions, strict=True) if d is not None]
    assert taken == ["chuck", "way", "mecca", "obi", "aura", "chukwuemeka", "obiora"], taken


def test_a_vietnamese_given_name_of_two_syllables():
    """``pham thi thu huong``: after the family name, ``thi`` and the given name, one more
    common syllable of Vietnamese given names is the name's, unless it is a common English
    word (``ha``: one decision per form would take ``ha ha`` too); ``nguyen van long is``
    stops at ``is``."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.names import NameListDetector

    text = "and pham thi thu huong please. nguyen van long is here"
    found = {text[s.start:s.end] for s in NameListDetector().detect([text])[0]}
    assert {"pham", "thi", "thu", "huong", "nguyen", "van", "long"} <= found, found
    assert not {"please", "is", "here"} & found, found
    laugh = "pham thi thu ha called. ha ha very funny"
    found = [laugh[s.start:s.end] for s in NameListDetector().detect([laugh])[0]]
    assert "ha" not in found, found


def test_a_correction_before_a_name_a_model_typed_in_part_an_organisation(french):
    """``mohamed a mine bouzid pardon mohamed amine bouzid``: the name after the correction
    is read across its words whatever their type (``amine`` typed an organisation), so the
    misheard words before it go with the person."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("derrière lui mohamed a mine bouzid pardon mohamed amine bouzid du club\n")
    assert "mine" not in out.split() and "bouzid" not in out, out


def test_a_name_before_an_object_or_be_stays_a_name(release_auto):
    """The second reading's cases against a rule tried and withdrawn (a common-word name
    before ``it``, ``be``, ``my``, ``of`` read as the word): a name is as often there (``can
    james be at the hearing``, ``gave frank my keys``, ``anna of accounts``), so each such
    mention stays protected."""
    out = release_auto("mark: can james be at the hearing\nbill: gave frank my keys, frank is "
                       "sound. anna of accounts rang\nmark: will bill be there\n")
    for name in ("james", "frank", "anna", "bill"):
        assert name not in out.split(), out


def test_ordinary_prose_words_after_a_given_name_stay_words(release_auto):
    """``may lessen``, ``will linger``, ``love pickles``: a listed given name that is a word
    makes no family name of a rare listed word after it in ordinary prose."""
    text = "The pain may lessen over time. We will dine tonight. I love pickles.\n"
    assert release_auto(text) == text
