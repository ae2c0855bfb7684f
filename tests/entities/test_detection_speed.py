"""Detection made faster without changing a span (issue 29): the shared token-to-vector layer
no recogniser listens to is switched off, texts go to spaCy in larger batches, and a text
that a corpus repeats is detected once per batch of documents."""

import random
import re
from pathlib import Path

import pytest

from emprivacy.entities.capitalised import CapitalisedDetector
from emprivacy.entities.spacy_detector import DEFAULT_PIPELINE, SpacyDetector, keep_only_ner
from emprivacy.entities.spans import EntitySpan
from emprivacy.obfuscation.entities import PrefetchingDetector

LABELLED = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "entities_labelled.txt"
MARK = re.compile(r"\[([^\]]+)\]\((?:PERSON|LOCATION|ORG)\)")


def labelled_sentences():
    """The labelled set of docs/ENTITIES.md, without its marks."""
    lines = LABELLED.read_text(encoding="utf-8").splitlines()
    return [MARK.sub(r"\1", line) for line in lines if line.strip() and not line.startswith("#")]


def test_an_embedding_layer_no_kept_component_listens_to_is_disabled():
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec")
    nlp.add_pipe("ner")  # embeds the tokens itself
    assert keep_only_ner(nlp) == ["tok2vec"]
    assert nlp.pipe_names == ["ner"]


def test_an_embedding_layer_the_recogniser_listens_to_is_kept():
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    nlp.add_pipe("tok2vec")
    nlp.add_pipe("tagger", config={"model": {"tok2vec": {
        "@architectures": "spacy.Tok2VecListener.v1", "width": 96}}})
    nlp.add_pipe("ner", config={"model": {"tok2vec": {
        "@architectures": "spacy.Tok2VecListener.v1", "width": 96}}})
    assert keep_only_ner(nlp) == ["tagger"]
    assert nlp.pipe_names == ["tok2vec", "ner"]


class Counting:
    """A detector that records the texts it is given."""

    name, types = "counting", frozenset({"PROPER_NOUN"})

    def __init__(self):
        self.seen = []
        self.inner = CapitalisedDetector()

    def detect(self, texts):
        self.seen.extend(texts)
        return self.inner.detect(texts)


def test_a_repeated_text_is_detected_once_and_handed_back_each_time():
    det = Counting()
    ahead = PrefetchingDetector(det)
    texts = ["Then Ann met Bob.", "Nobody.", "Then Ann met Bob."]
    ahead.prefetch(texts)
    assert det.seen == ["Then Ann met Bob.", "Nobody."]
    spans = [ahead.detect([t])[0] for t in texts]
    assert spans[0] == spans[2] == [EntitySpan(5, 8, "PROPER_NOUN"),
                                    EntitySpan(13, 16, "PROPER_NOUN")]
    assert spans[1] == [] and len(det.seen) == 2  # nothing detected twice
    spans[0].clear()  # a caller's list is its own
    assert ahead.detect(["Then Ann met Bob."])[0] != []
    ahead.forget()
    ahead.detect(["Nobody."])
    assert det.seen[-1] == "Nobody."


@pytest.fixture(scope="module")
def texts():
    sentences = labelled_sentences()
    assert len(sentences) >= 50
    docs = [" ".join(random.Random(i).sample(sentences, 5)) for i in range(60)]
    return sentences + docs


def test_the_fast_pipeline_finds_the_spans_of_the_whole_one(texts):
    """Every span of the real model, on the labelled set and on documents of five of its
    sentences, equals the span of the pipeline with its shared ``tok2vec`` on, one text at a
    time."""
    spacy = pytest.importorskip("spacy")
    pytest.importorskip(DEFAULT_PIPELINE)
    fast = SpacyDetector()
    assert "tok2vec" not in fast.nlp.pipe_names and "ner" in fast.nlp.pipe_names
    whole = spacy.load(DEFAULT_PIPELINE, exclude=["tagger", "parser", "attribute_ruler",
                                                  "lemmatizer"])
    assert "tok2vec" in whole.pipe_names
    reference = SpacyDetector(whole)
    expected = [reference.detect([t])[0] for t in texts]
    assert fast.detect(texts) == expected
    assert sum(map(len, expected)) > 200  # the set holds entities to find
