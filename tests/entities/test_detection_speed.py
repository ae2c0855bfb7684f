"""Detection made faster without changing a span (issue 29): the shared token-to-vector layer
no recogniser listens to is switched off, texts go to spaCy in larger batches, and a text
that a corpus repeats is detected once per batch of documents."""

import random
import re
import threading
from pathlib import Path

import numpy as np
import pytest

from emprivacy.entities.capitalised import CapitalisedDetector
from emprivacy.entities.spacy_detector import DEFAULT_PIPELINE, SpacyDetector, keep_only_ner
from emprivacy.entities.spans import EntitySpan
from emprivacy.obfuscation.prefetch import PrefetchingDetector

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


# -- detection ahead, in a thread of its own or in turn ----------------------------------------

TOY = ["then", "ann", "met", "bob", "cat", "dog", "saw", "paris", "rome"]


@pytest.fixture
def toy():
    from emprivacy.embeddings.model import Embeddings

    return Embeddings(TOY, np.random.default_rng(0).normal(size=(len(TOY), 4)), name="toy")


def obfuscator(toy):
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    return Obfuscator(EarthMoversPrivacy(toy, epsilon=2.0),
                      ObfuscationConfig(mode="text", entities="capitalised"), seed=3,
                      entity_lists={"PERSON": ["ann", "bob"], "LOCATION": ["paris", "rome"]})


class Recording:
    """The capitalised detector, recording the thread of each call; it fails on "boom"."""

    name, types = "recording", frozenset({"PROPER_NOUN"})

    def __init__(self):
        self.threads = []

    def detect(self, texts):
        self.threads.append(threading.current_thread().name)
        if any("boom" in t for t in texts):
            raise RuntimeError("the detector failed")
        return CapitalisedDetector().detect(texts)


TEXTS = ["then Ann met Bob", "the cat saw Paris", "then Ann met Bob", "Bob saw the dog",
         "the dog met Ann in Paris", "then the cat", "Ann and Bob"]


@pytest.fixture(params=[2, 4], ids=["two-cores-in-turn", "four-cores-a-thread"])
def cores(request, monkeypatch):
    """The cores the process may use: below OVERLAP_CORES detection runs in turn, else in a
    thread of its own."""
    from emprivacy.obfuscation import entities

    monkeypatch.setattr(entities, "available_cores", lambda: request.param)
    return request.param


def test_batches_detected_ahead_release_what_one_batch_releases(toy, monkeypatch, cores):
    from emprivacy.io.corpus import Document
    from emprivacy.obfuscation import entities

    docs = [Document(str(i), t) for i, t in enumerate(TEXTS)]
    whole = list(obfuscator(toy).obfuscate(docs))
    monkeypatch.setattr(entities, "AHEAD_DOCUMENTS", 2)
    obf = obfuscator(toy)
    obf.entities.detector.detector = det = Recording()
    assert list(obf.obfuscate(docs)) == whole
    assert len(det.threads) == 4  # batches of 2 documents
    threaded = cores >= entities.OVERLAP_CORES
    assert all(name.startswith("emprivacy-entities") == threaded for name in det.threads)
    assert threaded or set(det.threads) == {threading.current_thread().name}


def test_a_detector_error_reaches_the_caller(toy, monkeypatch, cores):
    from emprivacy.io.corpus import Document
    from emprivacy.obfuscation import entities

    monkeypatch.setattr(entities, "AHEAD_DOCUMENTS", 2)
    obf = obfuscator(toy)
    obf.entities.detector.detector = Recording()
    texts = ["then Ann met Bob", "the cat", "boom Ann", "the dog", "then Bob"]
    with pytest.raises(RuntimeError, match="the detector failed"):
        list(obf.obfuscate(Document(str(i), t) for i, t in enumerate(texts)))


def test_a_stray_item_is_refused_and_stopping_early_ends_the_thread(toy, cores):
    from emprivacy.io.corpus import Document

    before = threading.active_count()
    with pytest.raises(TypeError, match="Document objects; got str"):
        list(obfuscator(toy).obfuscate([Document("a", "then Ann met Bob"), "not a document"]))
    stream = obfuscator(toy).obfuscate(Document(str(i), t) for i, t in enumerate(TEXTS * 300))
    next(stream)
    stream.close()
    assert threading.active_count() == before


def test_the_tokens_the_detectors_read_are_kept_for_the_template():
    """Issue 40, cost: the detectors' tokens of a batch are handed on with its spans, so the
    text's template does not tokenise it a second time; only in the language they were read
    in, and only until the batch is forgotten."""
    from emprivacy.text.language import ENGLISH, FRENCH
    from emprivacy.text.tokens import tokenize

    ahead = PrefetchingDetector(Counting())
    texts = ["Then Ann didn't meet Bob (at 5).", "nobody at all"]
    ahead.keep(*ahead.spans_and_tokens(texts))
    for text in texts:
        assert ahead.tokens_of(text, ENGLISH) == list(tokenize(text))
        assert ahead.tokens_of(text, FRENCH) is None
    assert ahead.tokens_of("not read", ENGLISH) is None
    ahead.forget()
    assert ahead.tokens_of(texts[0], ENGLISH) is None


def test_a_run_tokenises_a_text_detected_ahead_once(toy, monkeypatch):
    from emprivacy.io.corpus import Document
    from emprivacy.preparation import template

    docs = [Document(str(i), t) for i, t in enumerate(TEXTS)]
    whole = list(obfuscator(toy).obfuscate(docs))
    calls = []
    real = template.tokenize

    def counting(text, **kwargs):
        calls.append(text)
        return real(text, **kwargs)

    monkeypatch.setattr(template, "tokenize", counting)
    assert list(obfuscator(toy).obfuscate(docs)) == whole
    assert calls == []
