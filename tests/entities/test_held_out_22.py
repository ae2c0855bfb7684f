"""What the twenty-second stage measured (issue 40): the learned detector on the stage's set
(tests/entities/labelled/holdout22), whose worst texts for the rules alone were a chat in
lower case with names that are words and a radio show by speech recognition (8.5 % and 8.8 %
of person-name tokens verbatim before the model; docs/ENTITIES.md, "The learned detector").

Text mode at ε = 10, ``--entities auto`` (ε_e = 1), seeds 0, 1 and 2 together (a word the
model newly fills draws from the random stream, so the noise of every word after it moves:
one seed's count of the names left at the general ε swung from 3 to 5 with no name less
protected; three seeds hold steadier): the figures cannot regress.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from emprivacy.evaluation.entity_leaks import leak_tally, unmark

SET = Path(__file__).parent / "labelled" / "holdout22"

pytestmark = pytest.mark.slow


def _tally(ner_embeddings, stem: str, entities: str, seed: int = 0) -> Counter[str]:
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    (path,) = SET.glob(f"{stem}-*.txt")
    text, spans = unmark(path.read_text(encoding="utf-8"))
    obf = Obfuscator(EarthMoversPrivacy(ner_embeddings, epsilon=10.0),
                     ObfuscationConfig(mode="text", entities=entities, entity_epsilon=1.0),
                     seed=seed, on_warning=lambda m: None)
    (record,) = obf.obfuscate([Document(stem, text)])
    return leak_tally(text, spans, record["text"],
                      in_vocabulary=lambda w: bool(ner_embeddings.rows([w])[0] >= 0))


@pytest.mark.parametrize(("stem", "bound"), [("01", 14), ("04", 13)])
def test_the_worst_texts_of_the_rules_do_not_regress(ner_embeddings, stem, bound):
    """The chat (01: 14 of its 354 person-name tokens of three seeds verbatim, 12 before the
    twenty-third stage's words beside protected ones moved the random stream, no name word
    less protected; at seed 0 alone 3 then, 11 with the rules alone) and the speech
    transcript (04: 13 of 285, 16 before; at seed 0 alone 6 of 95 then, 7 with the rules
    alone)."""
    pytest.importorskip("wordfreq")
    tally: Counter[str] = Counter()
    for seed in range(3):
        tally += _tally(ner_embeddings, stem, "auto", seed)
    assert tally["per"] > 270
    assert tally["per_kept"] <= bound, (stem, tally["per_kept"], tally["per"])
