"""The learned detector (issue 40): features, the model's arithmetic, fitting, the packaged
model on texts written for these tests, and its place among the detectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("wordfreq")
pytest.importorskip("names")

from emprivacy.entities import learned
from emprivacy.entities.learned import (
    CLASSES,
    EntityModel,
    LearnedDetector,
    document_shape,
    load_model,
    token_features,
    word_tokens,
)
from emprivacy.entities.learned_fit import fit
from emprivacy.entities.registry import (
    AUTO_WITH_NER,
    DETECTORS,
    build_detector,
    check_entities,
)
from emprivacy.evaluation.entity_leaks import unmark

LABELLED = Path(__file__).parent / "labelled"


def _found(detector: LearnedDetector, text: str) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.type) for s in detector.detect([text])[0]]


def test_features_name_the_word_its_neighbours_and_the_text_shape() -> None:
    text = "dana: thanks xavi\nSEE YOU"
    feats = token_features(text, word_tokens(text))
    dana, thanks, xavi = feats[0], feats[1], feats[2]
    assert "start=True" in dana and "colon=True" in dana and "ds=M" in dana
    assert "start=False" in xavi and "colon=False" in xavi
    assert "-1w=thanks" in xavi and "-1w.sh=thanks.x" in xavi
    assert "w=thanks" in thanks  # a common word is a feature by itself
    assert not any(f.startswith("w=") for f in xavi)  # a rare one only by what it is like
    assert "1sh=XX" in xavi and "2sh=XX" in xavi and "-2none" in dana
    assert token_features(text, word_tokens(text)) == feats  # deterministic


@pytest.mark.parametrize(("text", "shape"), [("hi", "L"), ("HI THERE", "U"), ("Hi there", "M"),
                                             ("123 456", "M"), ("", "M")])
def test_document_shape(text: str, shape: str) -> None:
    assert document_shape(text) == shape


def _toy_model(weights: np.ndarray, bias: np.ndarray, threshold: float = 0.5) -> EntityModel:
    names = np.asarray([f"f{i}" for i in range(len(weights))])
    return EntityModel(names, weights.astype(np.float32), bias, threshold)


def test_probabilities_are_the_softmax_of_the_summed_weights() -> None:
    model = _toy_model(np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]]),
                       np.array([0.5, 0.0, 0.0, -1.0]))
    p = model.probabilities([["f0", "f1", "unknown"], []])
    logits = np.array([[0.5, 1.0, 2.0, -1.0], [0.5, 0.0, 0.0, -1.0]])
    want = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(p, want, rtol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ann", "ann", "ANN", "the", "Kowalczyk", "said",
                                           "o'brien", "Dr", "xqzt", "Paris", "12"]),
                          st.sampled_from(["", "lower", "upper", "ordinary", "mixed"])),
                max_size=12))
def test_own_sums_at_once_equal_the_sums_one_by_one(keys) -> None:
    """EntityModel._own_sums (every word's own group gathered at once) gives the sums of
    _sum one word at a time, bit for bit (issue 40, cost)."""
    model = learned.load_model("en")
    got = model._own_sums(keys)
    want = np.asarray([model._sum(learned._group_features(("own", *k), model.lang))
                       for k in keys]).reshape(len(keys), 4)
    assert got.shape == (len(keys), 4)
    assert got.tobytes() == want.tobytes()


@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.floats(-30, 30), min_size=4, max_size=4), min_size=1, max_size=6),
       st.lists(st.lists(st.integers(0, 5), max_size=8), max_size=5))
def test_probabilities_sum_to_one(weights: list[list[float]], picks: list[list[int]]) -> None:
    model = _toy_model(np.array(weights), np.zeros(4))
    p = model.probabilities([[f"f{i}" for i in pick] for pick in picks])
    assert p.shape == (len(picks), 4)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-9)
    assert np.all(p >= 0)


def test_model_validation_and_round_trip() -> None:
    with pytest.raises(ValueError, match=r"weights must have shape \(2, 4\)"):
        EntityModel(np.asarray(["a", "b"]), np.zeros((2, 3), np.float32), np.zeros(4), 0.5)
    with pytest.raises(ValueError, match="threshold must be a number in"):
        _toy_model(np.zeros((1, 4)), np.zeros(4), threshold=1.0)
    model = _toy_model(np.arange(8.0).reshape(2, 4), np.array([1.0, 2.0, 3.0, 4.0]), 0.3)
    back = EntityModel.from_bytes(model.save())
    assert back.features.tolist() == ["f0", "f1"] and back.threshold == 0.3
    np.testing.assert_array_equal(back.weights, model.weights)
    np.testing.assert_array_equal(back.bias, model.bias)
    with pytest.raises(TypeError, match="model must be an EntityModel"):
        LearnedDetector(model="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="model for 'en', 'fr' only; got 'de'"):
        load_model("de")
    with pytest.raises(ValueError, match="model for 'en', 'fr' only"):
        LearnedDetector(lang="de")
    assert load_model("fr").lang == "fr" and load_model("en").lang == "en"


def _examples(folder: str) -> list[tuple[list[str], str]]:
    kinds = {"PER": "PERSON", "LOC": "LOCATION", "ORG": "ORG", "": "O"}
    out = []
    for path in sorted((LABELLED / folder).glob("*.txt")):
        text, spans = unmark(path.read_text(encoding="utf-8"))
        tokens = word_tokens(text)
        for tok, feats in zip(tokens, token_features(text, tokens), strict=True):
            label = next((k for a, b, k in spans if a <= tok.start and tok.end <= b), "")
            if label in kinds:
                out.append((feats, kinds[label]))
    return out


def test_fit_is_deterministic_and_learns_what_it_is_shown() -> None:
    data = _examples("dev")
    one, two = fit(data, threshold=0.5), fit(data, threshold=0.5)
    assert one.features.tolist() == two.features.tolist()
    np.testing.assert_array_equal(one.weights, two.weights)
    p = one.probabilities([f for f, _ in data])
    taken = 1 - p[:, 0] > 0.5
    person = np.array([c == "PERSON" for _, c in data])
    other = np.array([c == "O" for _, c in data])
    assert taken[person].mean() > 0.9  # what it was fitted on, it mostly takes
    assert taken[other].mean() < 0.05
    with pytest.raises(ValueError, match="every class"):
        fit([(["a"], "O"), (["b"], "PERSON")], threshold=0.5)
    with pytest.raises(ValueError, match="a class must be one of"):
        fit([(["a"], "DATE")], threshold=0.5)


def test_a_model_fitted_on_some_sets_finds_names_in_a_set_it_never_saw() -> None:
    """Seeded by nothing: the fit is deterministic.  Fitted on four sets, run on a fifth
    (holdout7: a lower-case chat, an ASR call, a booking export ...): at least 75 % of its
    person-name tokens (80 % when written), at most 6 % of its unlabelled tokens."""
    model = fit([e for s in ("dev", "holdout", "holdout2", "holdout3") for e in _examples(s)],
                threshold=0.6)
    held = _examples("holdout7")
    p = model.probabilities([f for f, _ in held])
    taken = 1 - p[:, 0] > model.threshold
    person = np.array([c == "PERSON" for _, c in held])
    other = np.array([c == "O" for _, c in held])
    assert taken[person].mean() >= 0.75
    assert taken[other].mean() <= 0.06


def test_the_packaged_model_on_new_text_in_every_shape() -> None:
    detector = LearnedDetector()
    assert ("dana", "PERSON") in _found(detector, "talked to dana and rick yesterday. dana "
                                                  "cant do saturdays, ask rick")
    caps = _found(detector, "MS. ADEYEMI: Objection, form.\nMR. HALE: Noted.")
    assert ("ADEYEMI", "PERSON") in caps and ("HALE", "PERSON") in caps
    plain = "The committee reviewed the budget and agreed to meet again next week."
    assert _found(detector, plain) == []
    assert detector.detect([""]) == [[]]


def test_learned_is_a_detector_of_auto() -> None:
    assert "learned" in DETECTORS and "learned" in AUTO_WITH_NER.split(",")
    assert check_entities("Learned, names") == "learned,names"
    assert isinstance(build_detector("learned").gap_detectors[0], LearnedDetector)
    assert set(LearnedDetector.types) == set(CLASSES[1:])
    assert learned.load_model() is learned.load_model()  # read once


def test_learned_is_a_detector_of_french_auto() -> None:
    """French has its own model (fitted on tests/entities/labelled_fr) in ``auto``."""
    from emprivacy.entities.french import FRENCH_AUTO, french_detector

    assert "learned" in FRENCH_AUTO.split(",")
    _, union, _ = french_detector("learned")
    built = union.gap_detectors[0]
    assert isinstance(built, LearnedDetector) and built.lang == "fr"
    text = "[19:02] mehdi : salut tout le monde\n[19:03] aurélie : on répète chez gwenaëlle"
    found = _found(built, text)
    assert ("mehdi", "PERSON") in found and ("gwenaëlle", "PERSON") in found, found
    assert all(w not in {"salut", "tout", "monde", "répète"} for w, _ in found), found


class _Gaps:
    """A gap-filling detector that finds fixed words (what the learned one would)."""

    name = "learned"
    fills_gaps = True

    def __init__(self, found: dict[str, str]) -> None:
        self.found = found
        self.types = frozenset(found.values())

    def detect(self, texts):
        from emprivacy.entities.spans import EntitySpan

        out = []
        for text in texts:
            spans = []
            for word, kind in self.found.items():
                at = text.find(word)
                while at >= 0:
                    spans.append(EntitySpan(at, at + len(word), kind))
                    at = text.find(word, at + 1)
            out.append(spans)
        return out


def _release_with(ner_embeddings, detector, text: str) -> str:
    return _row_with(ner_embeddings, detector, text).release


def _row_with(ner_embeddings, detector, text: str):
    from emprivacy import load_embeddings  # noqa: F401 - the fixture's embeddings are used
    from emprivacy.entities import registry
    from emprivacy.tables import privatize_texts

    spec = "names,patterns,learned"
    built = registry._BUILT.pop(spec, None)
    registry._BUILT[spec] = detector
    try:
        (out,) = privatize_texts([text], epsilon=1e6, embeddings=ner_embeddings, seed=1,
                                 entities=spec, entity_epsilon=1.0)
    finally:
        registry._BUILT.pop(spec, None)
        if built is not None:
            registry._BUILT[spec] = built
    return out


def test_the_union_asks_a_gap_filler_apart() -> None:
    from emprivacy.entities.patterns import PatternDetector
    from emprivacy.entities.spans import UnionDetector

    union = UnionDetector([PatternDetector(), _Gaps({"tea": "PERSON"})])
    text = "miss when tea came on 3 March 2024"
    assert [text[s.start:s.end] for s in union.detect([text])[0]] == ["3 March 2024"]
    assert [text[s.start:s.end] for s in union.gap_spans([text])[0]] == ["tea"]
    assert "learned" in repr(union)


@pytest.mark.slow
def test_gaps_are_filled_after_the_rules_and_only_there(ner_embeddings) -> None:
    from emprivacy.entities.names import NameListDetector
    from emprivacy.entities.patterns import PatternDetector
    from emprivacy.entities.spans import UnionDetector

    gaps = _Gaps({"pint": "PERSON", "copper": "ORG", "kettle": "ORG", "will": "PERSON",
                  "dana": "ORG"})
    union = UnionDetector([NameListDetector(), PatternDetector(), gaps])
    text = "thanks dana. a pint at the copper kettle, she will call"
    out = _release_with(ner_embeddings, union, text)
    assert " pint " not in out and "copper" not in out and "kettle" not in out, out
    assert out.count("[ORG]") == 1 and "the [ORG], she" in out, out  # one placeholder
    assert "she will call" in out, out  # a function word text mode keeps: never filled
    assert "thanks dana" not in out and out.startswith("thanks ") and "[ORG]." not in out, out
    # dana: the rules' person (a surrogate), not the gap filler's organisation
    # nothing detected by the rules: the filler still fills (the early return)
    alone = _release_with(ner_embeddings, UnionDetector([PatternDetector(), gaps]),
                          "a pint at 3")
    assert alone.startswith("a ") and "pint" not in alone, alone


@pytest.mark.slow
def test_a_filled_word_is_counted_once(ner_embeddings) -> None:
    """A capitalised word the rules released at the general ε and the learned detector
    fills counts as protected, no longer as released (the second reading: ``Outlook`` was
    counted as both)."""
    from emprivacy.entities import registry
    from emprivacy.entities.capitalised import CapitalisedDetector
    from emprivacy.entities.spans import UnionDetector
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    def record(detector):
        spec = "names,patterns,learned"
        built = registry._BUILT.pop(spec, None)
        registry._BUILT[spec] = detector
        try:
            obf = Obfuscator(EarthMoversPrivacy(ner_embeddings, epsilon=1e6),
                             ObfuscationConfig(mode="text", entities=spec, entity_epsilon=1.0),
                             seed=1, on_warning=lambda m: None)
            (out,) = obf.obfuscate([Document("d", "Sent from Outlook for Android")])
        finally:
            registry._BUILT.pop(spec, None)
            if built is not None:
                registry._BUILT[spec] = built
        return out

    without = record(UnionDetector([CapitalisedDetector()]))
    filled = record(UnionDetector([CapitalisedDetector(), _Gaps({"Outlook": "ORG"})]))
    assert "Outlook" not in filled["text"] and "[ORG]" in filled["text"], filled["text"]
    general = without["entity_words_general"]
    assert general >= 1
    assert filled["entity_words_general"] == general - 1, filled
    assert filled["entities_detected"]["ORG"] == without["entities_detected"].get("ORG", 0) + 1


def test_the_evaluation_reads_the_gap_fillers_too() -> None:
    """The experiment's detector (detection text, prefetched) hands on the gap fillers'
    spans as offsets into the text it was given (the second reading: they were dropped,
    and ``learned`` silently did nothing in a bag channel)."""
    from emprivacy.entities.patterns import PatternDetector
    from emprivacy.entities.spans import UnionDetector
    from emprivacy.evaluation.snippets import DetokenisedDetector
    from emprivacy.obfuscation.prefetch import PrefetchingDetector

    union = UnionDetector([PatternDetector(), _Gaps({"Globex": "ORG"})])
    text = "vendor,invoice\nGlobex,INV-002"
    for detector in (DetokenisedDetector(union), PrefetchingDetector(DetokenisedDetector(union))):
        (spans,) = detector.gap_spans([text])
        assert [text[s.start:s.end] for s in spans] == ["Globex"], spans


def test_learned_alone_fills_gaps_and_skips_other_scripts() -> None:
    """``--entities learned`` alone is a union too (its spans fill gaps, through the same
    filters: the second reading's ``every June`` became a surrogate); a word of another
    script is the mechanism's ``[UNK]``, no organisation."""
    from emprivacy.entities.spans import UnionDetector

    built = build_detector("learned")
    assert isinstance(built, UnionDetector) and built.detect(["Meet Dana Okafor"]) == [[]]
    found = [w for w, _ in _found(LearnedDetector(), "東京で会いましょう and مرحبا بكم, Dana")]
    assert not any(ord(c) > 0x250 for w in found for c in w), found


def test_ordinary_words_in_headings_and_lists_are_left_alone() -> None:
    """The second reading's headings, lists and forms: capitalised ordinary words on no list
    (Zipf 3 or more) need the stricter threshold, and these are not taken.  (Still taken:
    ``- Laptops``, ``Department: Logistics``, ``Dietary``,
    ``Preheat``, and rare words in lower case, ``rubbery``, ``antihistamines``.)"""
    detector = LearnedDetector()
    for text in ("Annual Safeguarding Policy Update", "Stakeholder Engagement Workshop Agenda",
                 "Agenda: Apologies, minutes", "SUBJECT: INVOICE OVERDUE",
                 "SCAFFOLDING ERECTED", "item,notebook,stationery,pens",
                 "the wetland and grassland"):
        assert _found(detector, text) == [], (text, _found(detector, text))


class _Near(_Gaps):
    """A gap filler whose words are taken only beside a protected word (NearSpan), all at
    one score."""

    def __init__(self, found: dict[str, str], score: float = 0.55) -> None:
        super().__init__(found)
        self.score = score

    def detect(self, texts):
        from emprivacy.entities.learned import NearSpan

        return [[NearSpan(s.start, s.end, s.type, self.score) for s in spans]
                for spans in super().detect(texts)]


def test_the_detector_returns_near_spans_only_when_asked() -> None:
    """Between :data:`NEAR_THRESHOLD` and the model's threshold (or under the common words'
    stricter one) a word is a NearSpan with ``beside=True``, nothing without."""
    from emprivacy.entities.learned import NEAR_THRESHOLD, NearSpan

    text, _ = unmark(next((LABELLED / "holdout22").glob("05-*.txt")).read_text(encoding="utf-8"))
    text = text[:1500]  # a lifeboat station's boards: STATION, SOCIETY, COASTAL beside names
    plain = LearnedDetector().detect([text])[0]
    near = LearnedDetector(beside=True).detect([text])[0]
    assert not any(isinstance(s, NearSpan) for s in plain)
    assert set(plain) <= set(near)  # the sure spans are the same, the same class
    extra = [s for s in near if s not in plain]
    assert extra and all(isinstance(s, NearSpan) for s in extra), near
    model = load_model()
    words = word_tokens(text)
    p = model.scores(text, words)
    for s in extra:
        (k,) = [i for i, t in enumerate(words) if t.start == s.start]
        assert NEAR_THRESHOLD["en"] < 1 - p[k, 0], (s, p[k])
    with pytest.raises(TypeError, match="beside must be a bool; got int"):
        LearnedDetector(beside=1)


def test_vietnamese_letters_are_latin() -> None:
    """``NGUYỄN`` (Latin Extended Additional) is scored like any Latin word; it was skipped
    as another script (the twenty-third English set's results sheet)."""
    text = "21   181  NGUYỄN, THỊ HỒNG   HALLOWBY FIELDS RUN CLUB"
    found = dict(_found(LearnedDetector(), text))
    assert "NGUYỄN" in found and "HỒNG" in found, found


@pytest.mark.slow
def test_a_word_beside_a_protected_one_is_filled_along_the_run(ner_embeddings) -> None:
    """A NearSpan is filled only where the word beside it on its line (past ``&``) is a
    person's, a place's or an organisation's that a rule decided, and then the next one
    along; alone, across a comma or a line break, or beside a word the model alone decided
    at no more than BESIDE_MODEL (``kofi primary carer``), it stays a word."""
    from emprivacy.entities.names import NameListDetector
    from emprivacy.entities.patterns import PatternDetector
    from emprivacy.entities.spans import UnionDetector

    near = _Near({"kettle": "PERSON", "copper": "PERSON", "pint": "PERSON", "anchor": "ORG",
                  "hope": "ORG"})
    union = UnionDetector([NameListDetector(), PatternDetector(), near])
    out = _release_with(ner_embeddings, union, "thanks dana copper kettle. a pint, dana\nhope")
    assert "copper" not in out and " kettle." not in out, out  # beside dana, then beside copper
    assert "a pint," in out and out.endswith("\nhope"), out  # beside nothing protected
    sure = UnionDetector([NameListDetector(), PatternDetector(), _Near({"okoro": "PERSON"})])
    out = _release_with(ner_embeddings, sure, "thanks dana & okoro then okoro")
    assert "& okoro" not in out, out  # past the &: beside dana
    cells = UnionDetector([NameListDetector(), PatternDetector(),
                           _Near({"kettle": "PERSON", "brass": "PERSON"})])
    out = _release_with(ner_embeddings, cells, "thanks dana kettle\ndana    brass\tbrass")
    assert "dana" not in out and "kettle" not in out, out
    assert out.endswith("    brass\tbrass"), out  # a column gap, a tab: other cells
    fillers = UnionDetector([NameListDetector(), PatternDetector(), _Near({"um": "ORG"})])
    out = _release_with(ner_embeddings, fillers, "thanks dana um maybe")
    assert out.endswith(" um maybe") and "dana" not in out, out  # a filler: no name's word
    model_only = UnionDetector([NameListDetector(), PatternDetector(),
                                _Gaps({"copper": "ORG"}), _Near({"anchor": "ORG"})])
    out = _release_with(ner_embeddings, model_only, "meet at the copper & anchor then the anchor")
    assert "copper" not in out and "& anchor" in out, out  # beside the model's word alone
    surer = UnionDetector([NameListDetector(), PatternDetector(),
                           _Gaps({"copper": "ORG"}), _Near({"anchor": "ORG"}, score=0.7)])
    out = _release_with(ner_embeddings, surer, "meet at the copper & anchor then the anchor")
    assert "& anchor" not in out, out  # over BESIDE_MODEL: the model's word vouches
    assert out.endswith("the anchor"), out  # alone: a word


@pytest.mark.slow
def test_both_words_of_a_surname_forename_cell_are_the_persons(ner_embeddings) -> None:
    """A table's cell ``SURNAME, FORENAME`` where one word is a person's: the other is too,
    common word or not (``MASON, WILL``: the twenty-third English set); a comma in a
    sentence is no cell."""
    from emprivacy.tables import privatize_texts

    table = ("POS  NO.  NAME                     CLUB                 CAT\n"
             "12   077  OKONJO, EZINNE           MARCH ATHLETIC       F40\n"
             "15   055  MASON, WILL              SANDWICH STRIDERS    M45\n"
             "16   118  ADEBAYO, FUNMILAYO       LOOE PACERS          F40\n")
    (out,) = privatize_texts([table], epsilon=1e6, embeddings=ner_embeddings, seed=1,
                             entities="auto", entity_epsilon=1.0)
    # MASON: an organisation to the recogniser; WILL beside it is still a name's
    assert "WILL" not in out.release and "MASON" not in out.release, out.release
    (out,) = privatize_texts(["Tell Mason, will you, that Dana Okafor called."],
                             epsilon=1e6, embeddings=ner_embeddings, seed=1, entities="auto",
                             entity_epsilon=1.0)
    assert ", will you," in out.release, out.release
    # a greeting on its line is no surname (the second reading: "Thanks, Dawn" became two
    # surrogates)
    (out,) = privatize_texts(["Thanks, Dawn\nSorry, Priyanka"], epsilon=1e6,
                             embeddings=ner_embeddings, seed=1, entities="auto",
                             entity_epsilon=1.0)
    assert out.release.startswith("Thanks, ") and "\nSorry, " in out.release, out.release


@pytest.mark.slow
def test_a_placeholder_joins_the_next_word_across_one_space_only(ner_embeddings) -> None:
    """Two filled words of one organisation type make one placeholder across a space, not
    across a table's tab or column gap (the second reading: ``Hope & Anchor      U13`` lost
    its columns into one ``[ORG]``)."""
    from emprivacy.entities.patterns import PatternDetector
    from emprivacy.entities.spans import UnionDetector

    union = UnionDetector([PatternDetector(), _Gaps({"copper": "ORG", "kettle": "ORG"})])
    assert _release_with(ner_embeddings, union, "at copper kettle") == "at [ORG]"
    out = _release_with(ner_embeddings, union, "copper\tkettle\ncopper    kettle")
    assert out == "[ORG]\t[ORG]\n[ORG]    [ORG]", out
