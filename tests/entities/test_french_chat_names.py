"""Names of French chats that no capital shows (issue 42): a given name after a family word
(``l'oncle bernard``), however common it is as a French word, and a hyphenated name whose
parts are given names (``jean-noël``)."""

from __future__ import annotations

import pytest

from emprivacy.entities.french import FrenchNameDetector


def _names(text: str) -> list[str]:
    pytest.importorskip("wordfreq")
    return [text[s.start:s.end] for s in FrenchNameDetector().detect([text])[0]]


def test_a_given_name_after_a_family_word_is_a_name_at_every_mention():
    text = ("[10:40] pierre: qui prévient l'oncle bernard ?\n"
            "[10:41] rose: je m'en charge. bernard m'aime bien, et tata françoise aussi")
    assert _names(text) == ["pierre", "bernard", "rose", "bernard", "françoise"]
    # no family word before it: "bernard" (Zipf 4.65 in French) is left to the others
    assert _names("[10:41] rose: bernard m'aime bien") == ["rose"]
    # a family word before an ordinary word makes no name
    assert _names("[10:41] rose: ma tante est là, mon cousin aussi") == ["rose"]


def test_a_hyphenated_word_of_given_names_is_a_name():
    text = "[10:25] jean-no: salut la famille, c'est jean-noël, et marie-claire vient"
    assert _names(text) == ["jean-no", "jean-noël", "marie-claire"]
    assert _names("[10:25] lina: peut-être demain, avec ma grand-mère") == ["lina"]
