import pytest

from emprivacy.entities.capitalised import CapitalisedDetector


def found(text):
    return [text[s.start:s.end] for s in CapitalisedDetector().detect([text])[0]]


@pytest.mark.parametrize("text, expected", [
    ("the letter went to Margaret Thompson today", ["Margaret Thompson"]),
    ("Margaret went home.", []),  # sentence-initial, seen nowhere else
    ("Margaret went home. Then she called Margaret.", ["Margaret", "Margaret"]),
    ("Margaret Thompson went home.", ["Thompson"]),  # the first word starts the sentence
    ("Dear Dr. Patel, thanks", ["Dr. Patel"]),
    ("She met Dr. Patel and Mrs. Lopez.", ["Dr. Patel", "Mrs. Lopez"]),
    ("A note from J. R. Tolkien arrived", ["J. R. Tolkien"]),
    ("We saw Smith. Jones came later.", ["Smith"]),  # a full stop after a name ends it
    ("she works at NASA and the BBC", ["NASA", "BBC"]),
    ("see you on Monday in March, And The rest", []),  # calendar and function words
    ("he said I would go, But it was May who came", ["May"]),  # lowercase-only: a name
    ("the end\nParis is far", []),  # a line break starts a sentence
    ("in Paris\n\nthen Rome", ["Paris", "Rome"]),
    ("write to O'Brien or Jean-Paul now", ["O'Brien", "Jean-Paul"]),
    ("nothing capitalised here at all", []),
    ("", []),
])
def test_exact_cases(text, expected):
    assert found(text) == expected


def test_spans_have_the_proper_noun_type_and_offsets():
    text = "ask Ann Lee"
    (span,) = CapitalisedDetector().detect([text])[0]
    assert (span.start, span.end, span.type) == (4, 11, "PROPER_NOUN")


def test_runs_do_not_cross_punctuation_or_lines():
    assert found("call Ann, Bob and Eve") == ["Ann", "Bob", "Eve"]
    assert found("call Ann\nBob Lee") == ["Ann", "Lee"]  # Bob starts a line


def test_batch_equals_one_by_one():
    texts = ["to Ann Lee.", "Bob met Eve. Bob left.", "no names"]
    det = CapitalisedDetector()
    assert det.detect(texts) == [det.detect([t])[0] for t in texts]
