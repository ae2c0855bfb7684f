import sys

import pytest

from emprivacy.entities import registry
from emprivacy.entities.capitalised import CapitalisedDetector
from emprivacy.entities.registry import (
    AUTO_WITH_NER,
    build_detector,
    check_entities,
    resolve_entities,
)
from emprivacy.entities.spans import UnionDetector
from emprivacy.exceptions import MissingExtraError


@pytest.mark.parametrize("spec, canonical", [
    ("none", "none"), (" AUTO ", "auto"), ("capitalised", "capitalised"),
    ("spacy, Capitalised", "spacy,capitalised"), ("spacy=/x/y,presidio", "spacy=/x/y,presidio"),
])
def test_canonical_spelling(spec, canonical):
    assert check_entities(spec) == canonical


@pytest.mark.parametrize("spec, message", [
    ("regex", "entities must be 'auto', 'none' or a comma list of 'spacy', 'presidio', "
              "'capitalised', 'names', 'patterns', 'learned'; got 'regex'"),
    ("spacy,,capitalised", "got 'spacy,,capitalised'"),
    ("auto,spacy", "got 'auto,spacy'"),
    ("spacy,spacy", "given twice"),
    ("capitalised=x", "only spacy takes a pipeline"),
    ("spacy=", "only spacy takes a pipeline"),
])
def test_bad_spelling(spec, message):
    with pytest.raises(ValueError, match=message):
        check_entities(spec)


def test_not_a_string():
    with pytest.raises(TypeError, match="got None of type NoneType"):
        check_entities(None)


def test_auto_with_and_without_the_extra(monkeypatch):
    monkeypatch.setattr(registry, "ner_installed", lambda: True)
    assert resolve_entities("auto") == (AUTO_WITH_NER, None)
    monkeypatch.setattr(registry, "ner_installed", lambda: False)
    names, note = resolve_entities("auto")
    assert names == "capitalised,patterns"
    assert "\n" not in note and "pip install 'emprivacy[ner]'" in note


def test_none_builds_nothing_and_capitalised_builds_once():
    assert build_detector("none") is None
    det = build_detector("capitalised")
    assert isinstance(det, CapitalisedDetector) and build_detector(" capitalised") is det


def test_union_of_a_list(ruler_dir):
    pytest.importorskip("presidio_analyzer")
    det = build_detector(f"spacy={ruler_dir},presidio,capitalised")
    assert isinstance(det, UnionDetector)
    assert [d.name for d in det.detectors] == ["spacy", "presidio", "capitalised"]
    assert det.detectors[1].pipeline == str(ruler_dir)  # presidio on the same pipeline
    text = "then Patel called 212-555-0143 for Ann Lee"
    found = {(text[s.start:s.end], s.type) for s in det.detect([text])[0]}
    assert found == {("Patel", "PERSON"), ("212-555-0143", "PHONE"), ("Ann Lee", "PROPER_NOUN"),
                     ("Patel", "PROPER_NOUN")}


def test_spacy_without_the_extra_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "spacy", None)
    with pytest.raises(MissingExtraError, match=r"^entity detection with spaCy needs the "
                                                r"optional dependency 'spacy'; install it "
                                                r"with: pip install 'emprivacy\[ner\]'$"):
        build_detector("spacy=/nowhere/else")
