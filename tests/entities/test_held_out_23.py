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


@pytest.mark.slow
def test_the_results_sheet_in_capitals_does_not_regress(ner_embeddings) -> None:
    """The tuning half's worst text, a fell race's results in capitals (``MASON, WILL``,
    ``PENNINE CHIP TIMING``, ``NGUYỄN``): person-name tokens verbatim over seeds 0–2, 9 of
    333 (17 before the stage), place and organisation tokens 29 (42 before); 30 since the
    evaluation aligns by a longest common subsequence (stage 24: one more word matched,
    the same release)."""
    pytest.importorskip("wordfreq")
    from collections import Counter
    from pathlib import Path

    from emprivacy.evaluation.entity_leaks import leak_tally, unmark
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    (path,) = (Path(__file__).parent / "labelled" / "holdout23").glob("05-*.txt")
    text, spans = unmark(path.read_text(encoding="utf-8"))
    tally: Counter[str] = Counter()
    for seed in range(3):
        obf = Obfuscator(EarthMoversPrivacy(ner_embeddings, epsilon=10.0),
                         ObfuscationConfig(mode="text", entities="auto", entity_epsilon=1.0),
                         seed=seed, on_warning=lambda m: None)
        (record,) = obf.obfuscate([Document("05", text)])
        tally += leak_tally(text, spans, record["text"],
                            in_vocabulary=lambda w: bool(ner_embeddings.rows([w])[0] >= 0))
    assert tally["per"] == 333
    assert tally["per_kept"] <= 9, tally
    assert tally["locorg_kept"] <= 30, tally
