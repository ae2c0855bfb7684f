"""The topic test of the goal is real: a run on topics that the words separate judges the
goal, a run on topics that they do not says "not judged" (issue 41: the frontier's topic
classifier was at chance on Brown's adventure/romance pair)."""

from __future__ import annotations

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.evaluation.datasets import from_records
from emprivacy.evaluation.experiment import run_experiment
from emprivacy.evaluation.goal import goal_rows, goal_table

_TOPICS = ("sea", "farm", "court")
_WORDS_PER_TOPIC = 8
_AUTHORS_PER_TOPIC = 8


def _word(topic: int, k: int) -> str:
    return f"{'sfc'[topic]}w{'abcdefgh'[k]}"


def _embeddings() -> Embeddings:
    """Each topic's words near a centre of its own (10·e_t), spread in the last two dims."""
    words, vectors = [], []
    for t in range(len(_TOPICS)):
        for k in range(_WORDS_PER_TOPIC):
            v = np.zeros(5)
            v[t] = 10.0
            v[3:] = [np.cos(k), np.sin(k)]
            words.append(_word(t, k))
            vectors.append(v)
    return Embeddings(words, np.array(vectors), name="three-topics")


def _records(*, separable: bool, seed: int = 0) -> list[dict[str, str]]:
    """One 600-word text per author.  Separable: an author of topic t writes (90 %) with the
    words of topic t.  Not separable: every author draws from all words alike, whatever
    the label says."""
    gen = np.random.default_rng(seed)
    records = []
    for t, topic in enumerate(_TOPICS):
        for a in range(_AUTHORS_PER_TOPIC):
            drawn = gen.integers(0, len(_TOPICS), size=600)
            topics = np.where(gen.random(600) < 0.9, t, drawn) if separable else drawn
            words = [_word(int(x), int(k)) for x, k in
                     zip(topics, gen.integers(0, _WORDS_PER_TOPIC, size=600), strict=True)]
            records.append({"author": f"{topic}-{a}", "topic": topic,
                            "text": ". ".join(" ".join(words[i:i + 10])
                                              for i in range(0, 600, 10)) + "."})
    return records


def _run(separable: bool):
    corpus = from_records(_records(separable=separable), name="three-topics")
    result = run_experiment(corpus, embeddings=_embeddings(), authors=6, trials=2,
                            epsilons=(None, 1.0), seed=5, meaning="word-vector")
    (s,) = result.sets
    return s


def test_separable_topics_give_a_topic_classifier_clearly_above_chance():
    s = _run(separable=True)
    check = s.topic_classifier()
    assert check.chunks >= 30  # enough held-out chunks to tell
    assert check.chance == pytest.approx(1 / 3, abs=0.1)  # three balanced topics
    assert check.mean >= 0.8 and check.clearly_above_chance
    assert check.lower > check.chance
    rows = goal_rows(s)
    assert rows[0]["goal"] is None  # the clean row is never judged
    assert rows[1]["goal"] in (True, False)  # the ε row is judged
    assert "**Not judged:" not in "\n".join(goal_table(s))


def test_topics_the_words_do_not_separate_are_not_judged():
    s = _run(separable=False)
    check = s.topic_classifier()
    assert not check.clearly_above_chance
    assert check.lower <= check.chance
    assert [r["goal"] for r in goal_rows(s)] == [None, None]
    text = "\n".join(goal_table(s))
    assert "**Not judged: the topic classifier (fastText) validation accuracy" in text
    assert "not judged (topic classifier at chance)" in text
