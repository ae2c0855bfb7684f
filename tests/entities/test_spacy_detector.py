import sys

import pytest

from emprivacy.entities import spacy_detector
from emprivacy.entities.spacy_detector import (
    DEFAULT_PIPELINE,
    SpacyDetector,
    keep_only_ner,
    load_pipeline,
)
from emprivacy.entities.spans import EntitySpan
from emprivacy.exceptions import MissingExtraError

TEXT = "Patel saw Margaret Thompson in Cambridge, on Elm Street, for Acme Corp on Monday."


def spans_text(text, spans):
    return [(text[s.start:s.end], s.type) for s in spans]


def test_labels_map_to_types(ruler_nlp):
    (spans,) = SpacyDetector(ruler_nlp).detect([TEXT])
    assert spans_text(TEXT, spans) == [
        ("Patel", "PERSON"), ("Margaret Thompson", "PERSON"), ("Cambridge", "LOCATION"),
        ("Elm Street", "LOCATION"), ("Acme Corp", "ORG")]  # DATE is not mapped


def test_custom_labels(ruler_nlp):
    det = SpacyDetector(ruler_nlp, labels={"DATE": "DATE"})
    assert det.types == {"DATE"}
    assert det.detect([TEXT]) == [[EntitySpan(TEXT.index("Monday"), TEXT.index("Monday") + 6,
                                              "DATE")]]
    with pytest.raises(ValueError, match="upper-case types"):
        SpacyDetector(ruler_nlp, labels={"DATE": "date"})


def test_batches_equal_single_texts(ruler_nlp):
    texts = [TEXT, "nobody here", "the Alps and Patel", ""] * 5
    det = SpacyDetector(ruler_nlp, batch_size=3)
    assert det.detect(texts) == [det.detect([t])[0] for t in texts]


def test_loads_a_pipeline_from_a_directory_once(ruler_dir):
    det = SpacyDetector(ruler_dir)
    assert spans_text("to the Alps", det.detect(["to the Alps"])[0]) == [("the Alps", "LOCATION")]
    assert load_pipeline(ruler_dir) is det.nlp  # cached per process


def test_unknown_pipeline_is_one_line_and_never_downloaded(tmp_path):
    pytest.importorskip("spacy")
    with pytest.raises(ValueError, match="'no_such_pipeline_xyz' is neither an installed package "
                                         "nor a directory; emprivacy never downloads a model"):
        SpacyDetector("no_such_pipeline_xyz")


def test_components_ner_does_not_need_are_disabled():
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("entity_ruler")
    assert keep_only_ner(nlp) == ["sentencizer"]
    assert nlp.pipe_names == ["entity_ruler"]


def test_missing_spacy_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "spacy", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'emprivacy\[ner\]'"):
        SpacyDetector()


def test_the_real_model():
    pytest.importorskip("spacy")
    pytest.importorskip(DEFAULT_PIPELINE)
    det = SpacyDetector()
    assert "parser" not in det.nlp.pipe_names and "ner" in det.nlp.pipe_names
    text = "Dr. Anil Patel saw Margaret Thompson in Cambridge last week."
    found = spans_text(text, det.detect([text])[0])
    assert ("Margaret Thompson", "PERSON") in found
    assert ("Cambridge", "LOCATION") in found
    assert spacy_detector.load_pipeline() is det.nlp


def test_a_long_text_is_detected_in_pieces_with_its_offsets(ruler_nlp, monkeypatch):
    """Issue 40 (cost): a text longer than PIECE_CHARS goes to spaCy in pieces cut at line
    breaks (one Doc for a 100,000-word document took 1.9 GB); the spans are those of the
    whole text, at the whole text's offsets."""
    from emprivacy.entities import spacy_detector
    from emprivacy.entities.spacy_detector import SpacyDetector

    text = "".join(f"Line {i}: Margaret Thompson met Patel in Cambridge.\n" for i in range(40))
    whole = SpacyDetector(ruler_nlp).detect([text])[0]
    monkeypatch.setattr(spacy_detector, "PIECE_CHARS", 120)
    assert len(spacy_detector.text_pieces(text, 120)) > 10
    pieces = SpacyDetector(ruler_nlp).detect([text])[0]
    assert pieces == whole and len(whole) == 120
    assert {text[s.start:s.end] for s in pieces} == {"Margaret Thompson", "Patel", "Cambridge"}
