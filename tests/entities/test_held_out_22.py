"""What the twenty-second stage measured (issue 40): the learned detector on the stage's set
(tests/entities/labelled/holdout22), whose worst texts for the rules alone were a chat in
lower case with names that are words and a radio show by speech recognition (8.5 % and 8.8 %
of person-name tokens verbatim before the model; docs/ENTITIES.md, "The learned detector").

Text mode at ε = 10, ``--entities auto`` (ε_e = 1), seed 0: the figures cannot regress.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from emprivacy.evaluation.entity_leaks import leak_tally, unmark

SET = Path(__file__).parent / "labelled" / "holdout22"

pytestmark = pytest.mark.slow


def _tally(ner_embeddings, stem: str, entities: str) -> Counter[str]:
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    (path,) = SET.glob(f"{stem}-*.txt")
    text, spans = unmark(path.read_text(encoding="utf-8"))
    obf = Obfuscator(EarthMoversPrivacy(ner_embeddings, epsilon=10.0),
                     ObfuscationConfig(mode="text", entities=entities, entity_epsilon=1.0),
                     seed=0, on_warning=lambda m: None)
    (record,) = obf.obfuscate([Document(stem, text)])
    return leak_tally(text, spans, record["text"],
                      in_vocabulary=lambda w: bool(ner_embeddings.rows([w])[0] >= 0))


@pytest.mark.parametrize(("stem", "bound"), [("01", 3), ("04", 6)])
def test_the_worst_texts_of_the_rules_do_not_regress(ner_embeddings, stem, bound):
    """The chat (01: 3 of its 118 person-name tokens verbatim at seed 0 with the model
    fitted with the set, 11 with the rules alone) and the speech transcript (04: 6 of 95, 7
    with the rules alone — still over the issue's 5 %)."""
    pytest.importorskip("wordfreq")
    tally = _tally(ner_embeddings, stem, "auto")
    assert tally["per"] > 90
    assert tally["per_kept"] <= bound, (stem, tally["per_kept"], tally["per"])
