import pytest

from emprivacy.entities.spans import (
    TYPE_PRIORITY,
    EntityDetector,
    EntitySpan,
    UnionDetector,
    check_texts,
    type_of_overlap,
)


class Fixed:
    def __init__(self, name, spans, types=("PERSON",)):
        self.name, self.types, self._spans = name, frozenset(types), spans

    def detect(self, texts):
        return [list(self._spans) for _ in texts]


@pytest.mark.parametrize("start, end", [(-1, 2), (2, 2), (3, 1)])
def test_span_rejects_bad_offsets(start, end):
    with pytest.raises(ValueError, match="0 <= start < end"):
        EntitySpan(start, end, "PERSON")


@pytest.mark.parametrize("kind", ["", "person", 3])
def test_span_rejects_bad_types(kind):
    with pytest.raises(ValueError, match="upper-case"):
        EntitySpan(0, 1, kind)


def test_span_rejects_non_int_offsets():
    with pytest.raises(TypeError, match="start must be an int"):
        EntitySpan(0.0, 1, "PERSON")
    with pytest.raises(TypeError, match="end must be an int"):
        EntitySpan(0, True, "PERSON")


def test_overlaps_is_half_open():
    span = EntitySpan(3, 6, "ORG")
    assert span.overlaps(5, 9) and span.overlaps(0, 4)
    assert not span.overlaps(6, 9) and not span.overlaps(0, 3)


def test_union_is_sorted_and_deduplicated():
    a = Fixed("a", [EntitySpan(4, 7, "PERSON"), EntitySpan(0, 3, "PERSON")])
    b = Fixed("b", [EntitySpan(0, 3, "PERSON"), EntitySpan(0, 3, "ORG")], types=("ORG",))
    union = UnionDetector([a, b])
    assert union.name == "a,b" and union.types == {"PERSON", "ORG"}
    assert union.detect(["x", "y"]) == [[EntitySpan(0, 3, "ORG"), EntitySpan(0, 3, "PERSON"),
                                         EntitySpan(4, 7, "PERSON")]] * 2


def test_union_checks_its_detectors():
    with pytest.raises(ValueError, match="at least one detector"):
        UnionDetector([])
    with pytest.raises(TypeError, match="EntityDetector"):
        UnionDetector([object()])

    class Short(Fixed):
        def detect(self, texts):
            return []

    with pytest.raises(ValueError, match="returned 0 span lists for 1 texts"):
        UnionDetector([Short("s", [])]).detect(["x"])


def test_protocol_is_checked_structurally():
    assert isinstance(Fixed("f", []), EntityDetector)
    assert not isinstance(object(), EntityDetector)


def test_check_texts():
    with pytest.raises(TypeError, match="not a single str"):
        check_texts("abc")
    with pytest.raises(TypeError, match="texts must be str; got int"):
        check_texts(["a", 1])


def test_priority_structured_over_named_over_capitalised():
    assert type_of_overlap(["PERSON", "PHONE"]) == "PHONE"
    assert type_of_overlap(["PERSON", "ORG"]) == "ORG"
    assert type_of_overlap(["PROPER_NOUN", "LOCATION"]) == "LOCATION"
    assert type_of_overlap(["PERSON", "LOCATION"]) == "PERSON"
    assert type_of_overlap(["CUSTOM", "PROPER_NOUN"]) == "PROPER_NOUN"
    assert type_of_overlap(["ZED", "CUSTOM"]) == "CUSTOM"  # unlisted: alphabetical
    assert TYPE_PRIORITY[-1] == "PROPER_NOUN"
