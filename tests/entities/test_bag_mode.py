"""Bag mode with entity detection (issue 29), on tiny embeddings where the answer is obvious."""

from collections import Counter

import pytest

from emprivacy.exceptions import PrivacyLeakWarning
from emprivacy.io.corpus import Document
from emprivacy.io.streaming import materialise
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
from emprivacy.obfuscation.entities import DETECTION_NOTE

from .toy import LISTS, NAMES, PLACES, run_mode, toy_embeddings


@pytest.fixture
def emb():
    return toy_embeddings()


def run(emb, texts, **options):
    return run_mode("bag", emb, texts, **options)


def entity_part(bag, ordinary):
    """The bag less the ordinary words (released as themselves at a huge ε)."""
    rest = Counter(bag)
    rest.subtract(ordinary)
    assert all(v >= 0 for v in rest.values())
    return +rest


def test_names_become_names_and_places_places(emb):
    for seed in range(20):
        (rec,) = run(emb, ["then the cat met Ann in Paris today"], seed=seed)
        rest = entity_part(rec["bag"], ["cat", "met", "today"])
        (name,) = [w for w in rest if w in NAMES]
        (place,) = [w for w in rest if w in PLACES]
        assert rest == Counter({name: 1, place: 1})
        assert rec["n_words"] == 3 and rec["entity_words"] == 2


def test_one_surrogate_per_entity_word_per_document(emb):
    text = "then Ann met Bob. Later ANN saw Ann and Bob left. Ann went"
    seen = set()
    for seed in range(30):
        (rec,) = run(emb, [text], seed=seed)
        rest = entity_part(rec["bag"], ["met", "later", "saw", "left", "went"])
        # ann's four mentions share one surrogate, bob's two another (or the same word)
        assert sorted(rest.values()) in ([2, 4], [6])
        assert rec["entity_words_distinct"] == 2 and rec["entity_words"] == 6
        seen.add(max(rest, key=rest.__getitem__))
    assert len(seen) > 1  # it is drawn, not fixed


def test_the_budget_and_record_fields(emb):
    (rec,) = run(emb, ["then Ann met Bob in Paris. Ann left"], entity_epsilon=0.5)
    assert rec["n_words"] == 2  # met, left
    assert rec["epsilon_total"] == pytest.approx(1e6 * 2 + 0.5 * 3)
    assert rec["entities_detected"] == {"PERSON": 3, "LOCATION": 1, "PROPER_NOUN": 0}
    assert rec["entity_words"] == 4 and rec["entity_placeholders"] == 0
    assert rec["entities"] == "capitalised" and rec["entity_epsilon"] == 0.5
    assert len(rec["bag"]) == 6


def test_the_guarantee_names_both_budgets(emb):
    (rec,) = run(emb, ["then Ann left"], entity_epsilon=0.25)
    g = rec["guarantee"]
    assert g.startswith("Bag mode:") and "exp(ε·M·E(b, b'))" in g
    assert "ε_e·d with ε_e = 0.25" in g and "public sub-vocabulary of PERSON" in g
    assert "once per mention" in g and "not over mentions" in g
    assert DETECTION_NOTE in g


def test_without_entities_bag_records_are_unchanged(emb):
    obf = Obfuscator(EarthMoversPrivacy(emb, epsilon=1e6), ObfuscationConfig(), seed=1)
    (rec,) = obf.obfuscate([Document("0", "then Ann met Bob")])
    assert "guarantee" not in rec and "entity_words" not in rec
    assert rec["bag"] == ["ann", "bob", "met"]


def test_a_placeholder_once_per_span(emb):
    (rec,) = run(emb, ["then Ann Bob met Zoe"], entity_policy={"PERSON": "placeholder"})
    assert Counter(rec["bag"]) == Counter({"[PERSON]": 2, "met": 1})
    assert rec["entity_placeholders"] == 2 and rec["entity_words"] == 0
    assert rec["entity_words_distinct"] == 0 and rec["epsilon_total"] == pytest.approx(1e6)


def test_an_unlisted_name_becomes_the_placeholder(emb):
    # 'hospital' is a vocabulary word but not on the person list: spaCy-free detection says
    # PROPER_NOUN, resolved as an ordinary word; a PERSON span outside the list: placeholder
    # (after "the" in mid-sentence a capitalised word names a place or a body: stage 49)
    (rec,) = run(emb, ["then a Hospital porter met Ann"])
    assert "hospital" in rec["bag"] and "[PERSON]" not in rec["bag"]


def test_keep_is_flagged(emb):
    with pytest.warns(PrivacyLeakWarning, match="PERSON"):
        (rec,) = run(emb, ["then Ann met Bob"], entity_policy={"PERSON": "keep"})
    assert Counter(rec["bag"]) == Counter({"ann": 1, "bob": 1, "met": 1})
    assert rec["entities_kept"] == 2 and rec["entity_policy_keep"] == "PERSON"
    assert "released as written" in rec["guarantee"]


def test_size_counts_entity_mentions(emb):
    (rec,) = run(emb, ["then the cat met Ann and Bob in Paris today"], size=3)
    assert rec["n_words"] + rec["entity_words"] == 3  # cat, met, Ann
    assert rec["n_words"] == 2 and rec["size"] == 3


@pytest.mark.parametrize("block_words", [1, 2, 3])
def test_a_long_bag_is_released_as_a_short_one(emb, block_words):
    text = "then Ann met Bob. Later ANN saw Paris and Bob left the city today"
    (short,) = run(emb, [text], seed=4)
    obf = Obfuscator(EarthMoversPrivacy(emb, epsilon=1e6),
                     ObfuscationConfig(mode="bag", entities="capitalised",
                                       block_words=block_words), seed=4, entity_lists=LISTS)
    (long,) = [materialise(r) for r in obf.stream([Document("0", text)])]
    assert long == short


def test_a_document_of_entities_only_is_released(emb):
    (rec,) = run(emb, ["and Ann and Zoe", "the cat"])[:1]
    assert rec["n_words"] == 0 and rec["entity_words"] == 2 and len(rec["bag"]) == 2
    assert set(rec["bag"]) <= set(NAMES)


def test_the_surrogate_hardly_depends_on_the_name_at_a_tiny_entity_epsilon(emb):
    """At ε_e → 0 the surrogate of Ann and that of Zoe have (almost) one law, whatever ε is
    (the other words, at ε = 1e6, come out as themselves)."""
    hits = {}
    for name in ("Ann", "Zoe"):
        hits[name] = Counter()
        for seed in range(300):
            (rec,) = run(emb, [f"then {name} left"], entity_epsilon=1e-6, seed=seed)
            (word,) = entity_part(rec["bag"], ["left"])
            hits[name][word] += 1
    assert set(hits["Ann"]) <= set(NAMES) and set(hits["Zoe"]) <= set(NAMES)
    for word in NAMES:  # each count has sd <= 8.7 over 300 draws: 50 is more than 4 sd
        assert abs(hits["Ann"][word] - hits["Zoe"][word]) < 50


def test_table_rows_take_bag_mode_entities(emb):
    from emprivacy.tables import privatize_texts

    out = privatize_texts(["then Ann met Bob", None], epsilon=1e6, embeddings=emb, seed=1,
                          mode="bag", entities="capitalised", entity_epsilon=0.5)
    rows = list(out)
    assert rows[1].release is None
    assert rows[0].metadata["entity_words"] == 2
    assert "public sub-vocabulary" in rows[0].metadata["guarantee"]
