"""What the twenty-third stage changed (issue 40), on the tuning half of its set
(tests/entities/labelled/holdout23 once measured): a letter with one or two digits is no
identifier, and the words beside a protected one and the cells ``Surname, Forename``
(tests/entities/test_learned.py) are filled."""

from __future__ import annotations

from emprivacy.entities.patterns import PatternDetector


def _ids(text: str) -> list[str]:
    return [text[s.start:s.end] for s in PatternDetector().detect([text])[0] if s.type == "ID"]


def test_a_letter_with_one_or_two_digits_is_no_identifier() -> None:
    """Age groups, categories, pitches and roads (``U10``, ``M40``, ``C22``, ``A14``): the
    digits become ``[NUM]`` anyway; a junior club's register and a fell race's results lost
    65 such words to ``[ID]``.  A postcode's outward part before its inward one, two letters
    with digits, and longer codes stay identifiers."""
    text = "U10 and U11s, M40 1:05:52, F35, pitch C22, the A14"
    assert _ids(text) == [], _ids(text)
    assert _ids("B79 7QE and M1 3WH") == ["B79", "7QE", "M1", "3WH"]
    assert _ids("CP1, KX19, A1234567, KD-4471, U100") == [
        "CP1", "KX19", "A1234567", "KD-4471", "U100"]


def test_a_rare_lower_case_word_is_a_name_only_where_the_model_agrees() -> None:
    """In a lower-case chat a rare word was a name by its rarity alone (``brassicas``,
    ``shallots``: 51 ordinary words of the tuning half's chat protected); now the learned
    model must give it LOWER_RARE_SCORE too, which the chats' rare names pass."""
    import pytest

    pytest.importorskip("wordfreq")
    from emprivacy.entities.names import NameListDetector

    text = ("dawn: the pigeons have had half my brassicas\n"
            "frank: nobody is taking the tuba on the minibus\n"
            "kwabena: wiktoria and radek are bringing the gazebo\n")
    found = {text[s.start:s.end] for s in NameListDetector().detect([text])[0]}
    assert {"kwabena", "wiktoria", "radek"} <= found, found
    assert not {"brassicas", "tuba", "minibus", "gazebo"} & found, found
