"""French given names that are above all common words (issue 42, stage 43): ``juste``,
``parfait``, ``fidèle``, ``innocent``, ``léger``, marked ``before-family`` in
``data/given-names-fr.txt``.  They are a given name only right before a family name's slot
(``le lieutenant juste roux``, ``avec parfait kouassi``): before, the family name was
protected and the given name came out as written; anywhere else they stay words."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("wordfreq")
pytest.importorskip("names")


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", line) is not None


def test_the_mark_is_read_apart_and_checked() -> None:
    from emprivacy.entities.name_words import (
        french_given_names,
        french_given_raw,
        french_given_words,
    )
    from emprivacy.text.word_lists import marked_words

    def given_file_lines(text: str) -> tuple[frozenset[str], frozenset[str]]:
        return marked_words(text, mark="before-family", source="given-names-fr.txt")

    assert {"juste", "parfait", "fidèle", "innocent", "léger"} <= french_given_words()
    from emprivacy.entities.name_words import listed_given_name

    # a public list's name would be read anywhere: the mark would mean nothing
    assert not any(listed_given_name(w, lang="fr") for w in french_given_words())
    # a marked name is read by no other rule: neither list of given names holds it
    for word in ("juste", "parfait", "fidèle", "innocent"):
        assert word not in french_given_raw() and word not in french_given_names()
    assert "victoire" in french_given_raw() and "victoire" not in french_given_words()
    assert given_file_lines("# a comment\nRose\n\njuste before-family # a word\n") == (
        frozenset({"rose"}), frozenset({"juste"}))
    for bad in ("juste family\n", "jean pierre\n", "juste before-family again\n"):
        with pytest.raises(ValueError, match="before-family"):
            given_file_lines(bad)


@pytest.mark.slow
@pytest.mark.parametrize(("text", "given", "family"), [
    ("[0:02:10] avec le lieutenant juste roux qui sont là\n", "juste", "roux"),
    ("[0:14:02] avec parfait kouassi sommelier à beaune\n", "parfait", "kouassi"),
    ("j'ai reçu le président innocent mabiala et la trésorière\n", "innocent", "mabiala"),
    ("LE CURÉ FIDÈLE ROUMIEU A BÉNI LA CLOCHE\n", "FIDÈLE", "ROUMIEU"),
])
def test_such_a_name_before_a_family_name_is_protected(text: str, given: str,
                                                       family: str) -> None:
    from .french_release import release_fr

    out = release_fr(text)
    assert not _has(given, out) and not _has(family, out), (text, out)


@pytest.mark.slow
@pytest.mark.parametrize(("text", "word"), [
    ("marie: c'est juste lefebvre qui a appelé\n", "juste"),  # an adverb before a name
    ("paul: un vin léger très frais pour l'apéritif\n", "léger"),  # no name after it
    ("le chien est fidèle martin le sait\n", "fidèle"),  # after a verb
    ("parfait merci à tous on commence\n", "parfait"),  # no family name after it
    ("avec marie dupont on attend juste moreau\n", "juste"),  # after a verb
    ("avec marie dupont il est resté innocent durand le sait\n", "innocent"),
])
def test_such_a_word_elsewhere_stays_a_word(text: str, word: str) -> None:
    from .french_release import release_fr

    out = release_fr(text)
    assert _has(word, out), (text, out)
