"""What the twenty-eighth French set's tuning half showed (issue 42, stage 29): wedding
witnesses' chat in lower case with a pinned rota, and a canoe base's register."""

from __future__ import annotations

import pytest
from tests.entities.french_release import release_fr


@pytest.mark.slow
def test_a_rotas_keys_are_no_speakers_and_a_grandads_name_is_his(french) -> None:
    """A pinned rota (``mairie : victoire, fleur, pierre``) made ``mairie`` and ``discours``
    speakers, and so names at every mention (``la mairie confirme``); and ``papi aimé``
    released ``aimé``, a given name whose form without its accent is a verb.  A label before
    a list of people is a key; a family word before a given name written with its accents
    names it."""
    pytest.importorskip("wordfreq")
    text = ("rose (épinglé) : QUI FAIT QUOI\n"
            "mairie : victoire, fleur, pierre\n"
            "discours : papi aimé (court !!), constance\n"
            "rose : ok pour la mairie à 15h ?\n"
            "fleur : oui, et le discours de papi\n"
            "victoire : bonjour ! la mairie confirme\n")
    lines = release_fr(text).splitlines()
    assert lines[1].startswith("mairie : ") and lines[2].startswith("discours : "), lines
    assert "la mairie à " in lines[3] and "le discours de " in lines[4], lines
    assert lines[5].endswith(": bonjour ! la mairie confirme"), lines
    assert "aimé" not in lines[2], lines
    for name in ("victoire", "fleur", "pierre"):
        assert name not in lines[1], (name, lines)


@pytest.mark.slow
def test_a_surname_that_is_a_french_word_after_a_given_name_in_a_list(french) -> None:
    """The second reading: once French words in capitals were no longer names for being rare
    in English, ``DOMINIQUE VERT`` of a list in capitals came back whole (``vert`` is a
    common French word on no list).  In an item of a list, a word of a span after a given
    name's slot is the family name; ``SES ENFANTS`` stays words."""
    pytest.importorskip("wordfreq")
    text = ("SES ENFANTS : THIERRY MOREAU, SYLVIE BLANC, DOMINIQUE VERT.\n"
            "MERCI À DOMINIQUE VERT ET À CLAUDE ROUGE.\n")
    lines = release_fr(text).splitlines()
    assert lines[0].startswith("SES ENFANTS : "), lines
    for word in ("THIERRY", "MOREAU", "SYLVIE", "DOMINIQUE", "VERT"):
        assert word not in lines[0], (word, lines)
    assert "VERT" not in lines[1] and "ROUGE" not in lines[1], lines
