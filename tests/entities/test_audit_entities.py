"""The audit and the reconstruction attack with entities (issue 29): the word audit of entity
words at ε_e, the attack's ``entity`` class, ``privatize_text`` with entities; tiny
embeddings where the answer is obvious, the ``capitalised`` detector (no model)."""

import numpy as np
import pytest

from emprivacy import Embeddings, SanText
from emprivacy.io.documents import Document
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
from emprivacy.protection import (
    EntityOptions,
    Secrets,
    audit_entities,
    audit_mechanism,
    count_words,
    detect_entity_words,
    entity_csv,
    entity_table,
    reconstruction_attack,
    secret_words,
)

NAMES = ["ann", "bob", "eve", "zoe", "max", "ida", "tom", "sue"]
PLACES = ["paris", "rome", "oslo", "lima"]
COMMON = ["cat", "dog", "met", "saw", "went", "later", "left", "today", "house", "car",
          "tree", "road"]
WORDS = NAMES + PLACES + COMMON
LISTS = {"PERSON": NAMES, "LOCATION": PLACES}


@pytest.fixture(scope="module")
def emb():
    gen = np.random.default_rng(0)
    vectors = np.vstack([gen.normal(size=(len(NAMES), 4)),            # names near 0
                         20 + gen.normal(size=(len(PLACES), 4)),       # places near 20
                         60 + 8 * gen.normal(size=(len(COMMON), 4))])  # the rest far away
    return Embeddings(WORDS, vectors, name="toy")


def corpus(n=40, seed=1):
    gen = np.random.default_rng(seed)
    docs = []
    for i in range(n):
        a, b = gen.choice(NAMES, 2, replace=False)
        place, word = gen.choice(PLACES), gen.choice(COMMON)
        docs.append(Document(str(i), f"the {word} met {a.title()} and then {b.title()} in "
                                     f"{place.title()} today. the dog saw the house."))
    return docs


def options(entity_epsilon=1.0, **kwargs):
    return EntityOptions("capitalised", entity_epsilon, lists=LISTS, **kwargs)


# -- EntityOptions --------------------------------------------------------------------------
def test_entity_options_are_checked():
    with pytest.raises(ValueError, match="got 'none'"):
        EntityOptions("none")
    with pytest.raises(ValueError, match="entity_epsilon must be a finite number > 0; got -1"):
        EntityOptions("capitalised", -1.0)
    with pytest.raises(ValueError, match="entities must be 'auto', 'none' or a comma list"):
        EntityOptions("regex")
    assert EntityOptions(" Capitalised ", 2, {"org": "keep"}).config() == {
        "entities": "capitalised", "entity_epsilon": 2.0, "entity_policy": (("ORG", "keep"),)}


# -- the word audit of entity words ----------------------------------------------------------
def test_entity_secrets_are_the_words_detection_made_entities(emb):
    docs = corpus()
    s = secret_words(emb, counts=count_words(docs))
    e = audit_entities(SanText(emb, epsilon=1.0), s, options(), documents=docs)
    # every name was capitalised in the corpus, every place too; "house" never
    assert set(e.audits) == {"PERSON", "LOCATION"}
    assert set(e.audits["PERSON"].secrets.words) == {w for w in NAMES if w in s.words}
    assert set(e.audits["LOCATION"].secrets.words) == {w for w in PLACES if w in s.words}
    assert e.mentions == {"PERSON": 80, "LOCATION": 40}  # two names and a place per document
    assert e.detected["PERSON"] == 80 and e.detected["LOCATION"] == 40
    # the prior: π restricted to the type's secrets, renormalised
    person = e.audits["PERSON"].secrets
    idx = [s.words.index(w) for w in person.words]
    np.testing.assert_allclose(person.prior, s.prior[idx] / s.prior[idx].sum(), rtol=1e-12)
    assert e.prior_mass["PERSON"] == pytest.approx(float(s.prior[idx].sum()), rel=1e-12)


def test_entity_audit_is_the_restricted_channel_at_entity_epsilon(emb):
    """Exact for SanText: at a huge ε_e every name is recovered, at a tiny one the adversary
    is back at its blind guess V(π), whatever the general ε."""
    docs = corpus()
    s = secret_words(emb, counts=count_words(docs))
    high = audit_entities(SanText(emb, epsilon=0.01), s, options(1e4), documents=docs)
    low = audit_entities(SanText(emb, epsilon=1e4), s, options(1e-6), documents=docs)
    for t in ("PERSON", "LOCATION"):
        assert high.audits[t].exact and high.audits[t].epsilon == 1e4
        assert high.audits[t].posterior_vulnerability.estimate == pytest.approx(1.0)
        a = low.audits[t]
        assert a.posterior_vulnerability.estimate == pytest.approx(a.prior_vulnerability,
                                                                    rel=1e-4)
    # the general audit at ε = 1e4 recovers names that the entity audit at ε_e does not
    general = audit_mechanism(SanText(emb, epsilon=1e4), s)
    assert general.posterior_vulnerability.estimate == pytest.approx(1.0)


def test_entity_audit_is_sampled_for_the_others_and_seeded(emb):
    docs = corpus()
    s = secret_words(emb, counts=count_words(docs))
    mech = EarthMoversPrivacy(emb, epsilon=10.0)
    a = audit_entities(mech, s, options(1.0), documents=docs, draws=60, rng=3)
    b = audit_entities(mech, s, options(1.0), documents=docs, draws=60, rng=3)
    p = a.audits["PERSON"]
    # the weighted audit draws as many again while V(π▷C)'s interval is over 0.05 wide
    assert p.channel == "sampled" and p.draws in (60, 120)
    assert p.draws == b.audits["PERSON"].draws
    assert p.attack_recovery.lower <= p.attack_recovery.estimate <= p.attack_recovery.upper
    np.testing.assert_array_equal(p.recovery, b.audits["PERSON"].recovery)


def test_without_a_corpus_the_secrets_are_the_sub_vocabulary(emb):
    s = Secrets.from_words(emb, ["ann", "bob", "paris", "cat"])
    e = audit_entities(SanText(emb, epsilon=1.0), s, options())
    assert e.detected is None and e.mentions is None
    assert e.audits["PERSON"].secrets.words == ("ann", "bob")
    assert e.audits["LOCATION"].secrets.words == ("paris",)


def test_detection_counted_once_gives_the_same_audit(emb):
    docs = corpus()
    s = secret_words(emb, counts=count_words(docs))
    mech = SanText(emb, epsilon=1.0)
    words = detect_entity_words(options().run(mech), docs, emb)
    a = audit_entities(mech, s, options(), words=words)
    b = audit_entities(mech, s, options(), documents=docs)
    assert (a.mentions, a.detected, a.secrets) == (b.mentions, b.detected, b.secrets)
    for t in a.audits:
        np.testing.assert_array_equal(a.audits[t].recovery, b.audits[t].recovery)


def test_entity_reports(emb):
    docs = corpus()
    s = secret_words(emb, counts=count_words(docs))
    e = audit_entities(SanText(emb, epsilon=1.0), s, options(0.5), documents=docs)
    table = entity_table([e])
    assert "| santext | 1 | PERSON | 0.5 | 80 (8) | 8 | exact |" in table
    assert "Detection took, in the corpus: PERSON 80, LOCATION 40" in table
    rows = entity_csv([e]).splitlines()
    assert rows[0].startswith("mechanism,epsilon,entity_type,entity_epsilon,detectors")
    assert len(rows) == 3 and rows[1].startswith("santext,1.0,PERSON,0.5,capitalised,80,8,")
    summary = e.summary(top=2)
    assert summary["types"]["PERSON"]["epsilon"] == 0.5
    assert len(summary["types"]["PERSON"]["most_exposed"]) == 2


# -- the reconstruction attack's entity class ------------------------------------------------
def attack(mech, docs, s, entity_epsilon, **kwargs):
    return reconstruction_attack(mech, docs, secrets=s, entities=options(entity_epsilon),
                                 seed=5, draws=100, **kwargs)


def test_entity_class_only_with_entities(emb):
    docs = corpus()
    s = secret_words(emb, counts=count_words(docs))
    plain = reconstruction_attack(SanText(emb, epsilon=5.0), docs, secrets=s, seed=5)
    assert "entity" not in plain.classes and plain.entities is None
    assert "entities" not in plain.summary()
    with_e = attack(SanText(emb, epsilon=5.0), docs, s, 1.0)
    assert with_e.classes["entity"]["attack"].words == 60  # 20 documents attacked, 3 each
    assert with_e.entities["slots"] == {"PERSON": 40, "LOCATION": 20}
    assert with_e.entities["channels"] == {"PERSON": "exact", "LOCATION": "exact"}
    assert with_e.summary()["entities"]["entity_epsilon"] == 1.0
    assert "entity" in with_e.methods["classes"]


@pytest.mark.parametrize("mechanism", [SanText, EarthMoversPrivacy])
def test_entity_recovery_follows_entity_epsilon(emb, mechanism):
    """The statistical check: the entity class (60 slots, seeded) is recovered at least
    95 % of the time at ε_e = 1e3, and at ε_e = 1e-3 no better than the blind guess (the
    prior-only guesser of the same slots: 0.23 here) by more than 0.15 — a rate near 0.23
    over 60 slots has a standard deviation of about 0.055, so 0.15 is about 2.7 of them (a
    sampled channel of 100 draws per secret adds its own error); the general ε is 5 in both.
    Measured with this seed: 1.0 at 1e3; attack 0.27 (SanText), 0.25 (madlib) at 1e-3."""
    docs = corpus(n=40, seed=2)
    s = secret_words(emb, counts=count_words(docs))
    high = attack(mechanism(emb, epsilon=5.0), docs, s, 1e3).classes["entity"]
    low = attack(mechanism(emb, epsilon=5.0), docs, s, 1e-3).classes["entity"]
    assert high["attack"].exact.estimate >= 0.95
    assert high["channel_only"].exact.estimate >= 0.95
    blind = low["prior_only"].exact.estimate
    assert low["attack"].exact.estimate <= blind + 0.15
    assert low["channel_only"].exact.estimate <= blind + 0.15
    assert blind < 0.5  # eight names, four places: the blind guess is far from 1


def test_entity_release_is_the_obfuscators(emb):
    """The attack attacks the release as made: the surrogates it reads are those that
    ``obfuscate`` with the same settings and seed writes."""
    from emprivacy.protection.attacks._release import release_corpus

    docs = corpus(n=6)
    s = secret_words(emb, counts=count_words(docs))
    mech = SanText(emb, epsilon=5.0)
    rel = release_corpus(mech, docs, "text", 7, s, options(0.5))
    obf = Obfuscator(mech, ObfuscationConfig(mode="text", entities="capitalised",
                                             entity_epsilon=0.5), seed=7, entity_lists=LISTS)
    texts = [r["text"] for r in obf.obfuscate(docs)]
    released = [t for tokens, _ in rel.views for t in tokens]
    for text in texts:
        for word in text.replace(".", " ").split():
            if word[0].isupper() and word.lower() not in ("the",):
                assert word.lower() in released


def test_entities_apply_to_text_mode(emb):
    docs = corpus(n=4)
    s = secret_words(emb, counts=count_words(docs))
    with pytest.raises(ValueError, match="entities apply to mode 'text'"):
        reconstruction_attack(SanText(emb, epsilon=1.0), docs, secrets=s, mode="bag",
                              entities="capitalised", seed=1)


# -- one text with entities from a built mechanism ----------------------------------------
def test_one_text_with_entities_through_privatize_texts(emb):
    """A mechanism's own ``privatize_text`` knows no entities (detection is the obfuscation
    layer's, above the mechanisms); one text with entities is ``privatize_texts([text],
    mechanism=…)`` (the obfuscator's path, tests/tables/test_obfuscate_contract.py): the
    words outside entities released at ε, one surrogate per entity word."""
    from emprivacy.tables import privatize_texts

    mech = EarthMoversPrivacy(emb, epsilon=1e6)
    text = "then the cat met Ann and Bob. later Ann left"
    (row,) = privatize_texts([text], mechanism=mech, entities="capitalised",
                             entity_epsilon=0.5, seed=11)
    got = row.release
    assert isinstance(got, str)
    words = got.replace(".", "").split()
    assert words[:4] == ["then", "the", "cat", "met"] and words[7] == "later"
    assert words[4] == words[8]  # Ann: one surrogate per entity word
    assert row.metadata is not None
    with pytest.raises(TypeError, match="entities"):
        mech.privatize_text(text, entities="capitalised")  # type: ignore[call-arg]
