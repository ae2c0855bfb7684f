"""What the twenty-third stage changed (issue 40), on the tuning half of its set
(tests/entities/labelled/holdout23): the learned model's say on a rare lower-case word, and
(tests/entities/test_learned.py) the words beside a protected one and the cells ``Surname,
Forename``."""

from __future__ import annotations

import pytest


def test_a_rare_lower_case_word_is_a_name_only_where_the_model_agrees() -> None:
    """In a lower-case chat a rare word was a name by its rarity alone (``brassicas``,
    ``shallots``: 51 ordinary words of the tuning half's chat protected); now the learned
    model must give it LOWER_RARE_SCORE too, which the chats' rare names pass."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.names import NameListDetector

    text = ("dawn: the pigeons have had half my brassicas\n"
            "frank: nobody is taking the tuba on the minibus\n"
            "kwabena: wiktoria and radek are bringing the gazebo\n")
    found = {text[s.start:s.end] for s in NameListDetector().detect([text])[0]}
    assert {"kwabena", "wiktoria", "radek"} <= found, found
    assert not {"brassicas", "tuba", "minibus", "gazebo"} & found, found
