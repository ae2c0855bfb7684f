"""What the twentieth French set's tuning half showed (issue 42): a ressourcerie's volunteers'
chat in lower case and a first-aid course's sign-in sheet, whose places and organisations
are a kind and a name in lower case (``à la salle des fêtes de vernay``,
``lycée professionnel jean-jaurès``, ``centre d'incendie et de secours de Vernay-sur-Lisse``)."""

from __future__ import annotations

import pytest


def _detect(text: str) -> list[tuple[str, str]]:
    from emprivacy.entities.french import language_detector
    from emprivacy.entities.marking import EntityMarking
    from emprivacy.entities.policy import EntityPolicy

    marking = EntityMarking(language_detector("auto", "fr")[1], EntityPolicy(), {}, "fr")
    return [(text[s.start:s.end], s.type) for s in marking.detect([text])[0]]


@pytest.mark.parametrize(("text", "span", "kind"), [
    ("aimée : à la salle des fêtes de vernay, nadia cherche", "salle des fêtes de vernay",
     "LOCATION"),
    ("le lycée professionnel jean-jaurès a appelé", "lycée professionnel jean-jaurès", "ORG"),
    ("Formateur : centre d'incendie et de secours de Vernay-sur-Lisse",
     "centre d'incendie et de secours de Vernay-sur-Lisse", "ORG"),
    # the held half, seen
    ("à la salle polyvalente de plessé route", "salle polyvalente de plessé", "LOCATION"),
    ("le repas est au domaine de la roche-guyomard à", "domaine de la roche-guyomard",
     "LOCATION"),
    ("pas devant la boulangerie chez martine qui", "boulangerie chez martine", "ORG"),
    ("organisée par le bar-tabac CHEZ MARTIN (patron", "bar-tabac CHEZ MARTIN", "ORG"),
])
def test_a_kind_and_its_name_in_lower_case_are_one_span(text, span, kind):
    pytest.importorskip("spacy")
    pytest.importorskip("wordfreq")
    found = _detect(text)
    assert any(f.startswith(span) and t == kind for f, t in found), found


def test_a_kind_before_an_ordinary_word_makes_no_span():
    """After a kind, a common word (``cycles de lavage``, ``domaine de la santé``, ``café
    noisette``; the second reading's ``salle des fêtes de la mairie``), an adjective
    (``garage moderne``), a function word (``chez moi``) or a hyphenated word that is no
    name (``après-vente``, ``peut-être``) is no name."""
    pytest.importorskip("spacy")
    pytest.importorskip("wordfreq")
    found = _detect("les cycles de lavage, le garage moderne et la salle des fêtes est pleine."
                    " le domaine de la santé, la boulangerie chez moi. la salle des fêtes de la"
                    " mairie. appelle le service après-vente. la pharmacie peut-être. la mairie"
                    " elle-même. le café noisette, le club pétanque. IL AVAIT UN SAC NOIR")
    assert not [f for f, t in found if t in ("ORG", "LOCATION")], found


def test_initials_with_a_particle_between_them_are_a_persons():
    """A sign-in sheet's ``M. Le G.`` and ``C. D'A.``: the particle and the initial after it
    are the person's, not a word and a capital left to the general mechanism."""
    pytest.importorskip("spacy")
    pytest.importorskip("wordfreq")
    from emprivacy.entities.initials import particle_initials

    row = "| 7 | LE GALL Morgane | Brest | M. Le G. | M. Le G. |\n| 3 | C. D'A. | ok |\n"
    found = [row[s.start:s.end] for s in particle_initials(row)]
    assert found == ["M. Le G.", "M. Le G.", "C. D'A."], found
    spans = dict(_detect(row))
    assert spans.get("M. Le G.") == "PERSON", spans
