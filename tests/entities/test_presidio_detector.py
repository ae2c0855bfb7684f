import socket

import pytest

from emprivacy.entities.presidio_detector import PRESIDIO_ENTITIES, PresidioDetector
from emprivacy.entities.spans import STRUCTURED_TYPES

TEXT = ("Call 212-555-0143, card 4111 1111 1111 1111, IBAN GB82WEST12345698765432, "
        "IP 192.168.1.20, mail a@b.org or https://example.org/x.")


@pytest.fixture
def offline(monkeypatch):
    """Any attempt to open a connection fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_types_are_structured_identifiers():
    assert set(PRESIDIO_ENTITIES.values()) <= set(STRUCTURED_TYPES)


def test_patterns_on_a_blank_pipeline_offline(ruler_dir, offline):
    pytest.importorskip("presidio_analyzer")
    det = PresidioDetector(ruler_dir)
    (spans,) = det.detect([TEXT])
    found = [(TEXT[s.start:s.end], s.type) for s in spans]
    assert found == [("212-555-0143", "PHONE"), ("4111 1111 1111 1111", "CREDIT_CARD"),
                     ("GB82WEST12345698765432", "IBAN"), ("192.168.1.20", "IP_ADDRESS")]
    assert det.detect(["nothing to see", TEXT])[1] == spans


def test_unknown_pipeline_is_refused_before_presidio_downloads(offline):
    pytest.importorskip("presidio_analyzer")
    with pytest.raises(ValueError, match="never downloads a model"):
        PresidioDetector("no_such_pipeline_xyz")


def test_bad_parameters(ruler_dir):
    pytest.importorskip("presidio_analyzer")
    with pytest.raises(ValueError, match="at least one Presidio entity"):
        PresidioDetector(ruler_dir, entities={})
    with pytest.raises(ValueError, match="score must be a finite number >= 0"):
        PresidioDetector(ruler_dir, score=-1)


def test_texts_without_digits_are_not_sent_to_presidio(ruler_dir, monkeypatch):
    pytest.importorskip("presidio_analyzer")
    det = PresidioDetector(ruler_dir)
    seen = []
    analyze = det.analyzer.analyze
    monkeypatch.setattr(det.analyzer, "analyze",
                        lambda text, **kw: seen.append(text) or analyze(text, **kw))
    spans = det.detect(["no digits here", TEXT, "none here either"])
    assert seen == [TEXT] and spans[0] == spans[2] == [] and len(spans[1]) == 4


NUMBERS = ["Ruf 01646 an", "Ring me on 1641 tomorrow", "in 1642 the king died",
           "call 212-555-0143 today", "SSN 078-05-1120 on file",
           "NHS 943 476 5919", "card 4111 1111 1111 1111", "at 10:30 on 12/03/2024",
           "room 12, bed 3", "IP 10.0.0.1 and ::1", "Tel 030 123 oder 0301234",
           "ref 1234 and 5678-90"]


def test_few_digits_skip_only_what_cannot_match(ruler_dir, monkeypatch):
    """MIN_DIGITS changes which recognisers run, never a span: the same spans with the
    thresholds switched off, on numbers of every kind and length (a four-digit German
    number is a phone number to Presidio); a five-digit one is still found."""
    pytest.importorskip("presidio_analyzer")
    import emprivacy.entities.presidio_detector as module

    det = PresidioDetector(ruler_dir)
    with_floor = det.detect(NUMBERS)
    monkeypatch.setattr(module, "MIN_DIGITS", {})
    assert det.detect(NUMBERS) == with_floor
    assert [s.type for s in with_floor[0]] == ["PHONE"]
    seen = []
    analyze = det.analyzer.analyze
    monkeypatch.setattr(module, "MIN_DIGITS", {"PHONE_NUMBER": 4})
    monkeypatch.setattr(det.analyzer, "analyze",
                        lambda text, **kw: seen.append((text, kw["entities"]))
                        or analyze(text, **kw))
    det.detect(["room 12, bed 3", "Ruf 1641 an"])
    assert "PHONE_NUMBER" not in seen[0][1] and "PHONE_NUMBER" in seen[1][1]
