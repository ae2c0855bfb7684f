"""What the twenty-seventh French set's held half showed once seen (issue 42, stage 29): a
local paper's death notices in capitals, where every French word is capitalised."""

from __future__ import annotations

import pytest
from tests.entities.french_release import release_fr


@pytest.mark.slow
def test_a_french_word_in_capitals_is_no_name_for_being_rare_in_english(french) -> None:
    """``AVIS DE DÉCÈS`` and ``SES ENFANTS`` of a notice in capitals became people's
    slots: the capital-letter detector marks every word of a line in capitals, and a word
    there was name-like when it was rare *in English* (``décès``, ``enfants``, ``famille``).
    In French a name-like word must be a name in French too: rare in French, or on the
    French lists.  The names of the notice stay protected."""
    pytest.importorskip("wordfreq")
    text = ("AVIS DE DÉCÈS\n"
            "MADAME JOSIANE PERRIGAULT NOUS A QUITTÉS. SES ENFANTS NADÈGE ET THIERRY, "
            "TOUTE LA FAMILLE\n")
    lines = release_fr(text).splitlines()
    assert lines[0] == "AVIS DE DÉCÈS", lines
    assert "SES ENFANTS " in lines[1] and "TOUTE LA FAMILLE" in lines[1], lines
    for name in ("JOSIANE", "PERRIGAULT", "NADÈGE", "THIERRY"):
        assert name not in lines[1], (name, lines)


@pytest.mark.slow
def test_a_noble_name_after_a_given_name_is_the_persons(french) -> None:
    """``HUBERT DE LA BASTIDE``: ``BASTIDE`` is a common French word on no list, so once
    French words in capitals were no longer names by their English rarity it came back as
    itself.  After a person's given name and ``de la``, ``du`` or ``des``, a capitalised
    word of a detected span is the family name, the particles with it; ``de`` alone before
    a town is not (``Pierre de Lyon``)."""
    pytest.importorskip("wordfreq")
    text = ("SES ENFANTS AMINATA ET HUBERT DE LA BASTIDE, SES AMIS\n"
            "Nous avons vu Claire du Bois hier.\n")
    lines = release_fr(text).splitlines()
    assert "BASTIDE" not in lines[0] and " DE LA " not in lines[0], lines
    assert lines[0].endswith(", SES AMIS"), lines
    assert "Bois" not in lines[1] and "Claire" not in lines[1], lines
    assert lines[1].startswith("Nous avons vu "), lines
