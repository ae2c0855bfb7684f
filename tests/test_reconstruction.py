"""The reconstruction attack (emprivacy.protection.attacks.reconstruction) and its n-gram model.

Tiny hand-built vocabularies and corpora; every statistical check is seeded and states its
tolerance.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emprivacy import Embeddings
from emprivacy.exceptions import InputError
from emprivacy.io.documents import Document
from emprivacy.mechanisms import make_mechanism
from emprivacy.protection import (
    NgramModel,
    Reconstruction,
    Secrets,
    count_words,
    reconstruction_attack,
    reconstruction_csv,
    reconstruction_table,
    secret_words,
    split_corpus,
)

from .helpers import run_cli

# -- the n-gram model -----------------------------------------------------------------------
SEQUENCES = [["the", "red", "apple", "<s>", "a", "blue", "berry"], ["the", "red", "apple"],
             ["a", "blue", "berry", "<s>", "the", "red", "car"], ["x", "y"]]


@pytest.mark.parametrize("order", [1, 2, 3, 4])
@pytest.mark.parametrize("history", [[], ["the"], ["the", "red"], ["red", "apple", "<s>"],
                                     ["never", "seen"], ["<s>"]])
def test_ngram_probabilities_sum_to_one(order, history):
    lm = NgramModel.fit(SEQUENCES, order=order, vocabulary=["zebra"])
    p = lm.probabilities(history)
    assert p.shape == (len(lm.vocabulary),) and np.all(p > 0)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)


def test_ngram_bigram_by_hand():
    """Absolute discounting, D = 0.5, on one sequence: ⟨s⟩ a b a ⟨s⟩ (padding included)."""
    lm = NgramModel.fit([["a", "b", "a"]], order=2, discount=0.5)
    assert lm.vocabulary == ("<s>", "<unk>", "a", "b")
    # unigrams (positions after the padding): a 2, b 1, <s> 1 (the end); add-one over |V| = 4
    p1 = {"<s>": 2 / 8, "<unk>": 1 / 8, "a": 3 / 8, "b": 2 / 8}
    # after "a": b once, <s> once; c(a •) = 2, N1+(a •) = 2
    p = dict(zip(lm.vocabulary, lm.probabilities(["a"]), strict=True))
    for w, c in (("b", 1), ("<s>", 1), ("a", 0), ("<unk>", 0)):
        assert p[w] == pytest.approx(max(c - 0.5, 0) / 2 + 0.5 * 2 / 2 * p1[w], abs=1e-15)
    # a history never seen backs off to the unigrams
    unseen = dict(zip(lm.vocabulary, lm.probabilities(["<unk>"]), strict=True))
    assert unseen == pytest.approx(p1, abs=1e-15)


def test_ngram_context_score_is_the_evidence():
    lm = NgramModel.fit(SEQUENCES, order=3)
    s = lm(["the", "red"], ["<s>", "a"], ["apple", "berry", "car"])
    assert s[0] > s[2] > s[1]  # "the red apple" twice, "the red car" once, never "berry"
    # by hand: log P(x | l) + log P(r | x) − log P_1(x); a left context never seen backs
    # off to P_1(x), so only the right side speaks
    bi = NgramModel.fit(SEQUENCES, order=2)
    cands = ["apple", "berry", "car"]
    got = bi(["never"], ["<s>"], cands)
    index = {w: i for i, w in enumerate(bi.vocabulary)}
    want = [np.log(bi.probabilities([x])[index["<s>"]]) for x in cands]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    got = bi(["red"], ["<s>"], cands)
    p1, p_red = bi.probabilities(["never"]), bi.probabilities(["red"])  # P_1: backed off
    want = [np.log(p_red[index[x]]) + np.log(bi.probabilities([x])[index["<s>"]])
            - np.log(p1[index[x]]) for x in cands]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_ngram_rejects_bad_settings():
    with pytest.raises(ValueError, match="discount must be a number in"):
        NgramModel.fit(SEQUENCES, discount=1.0)
    with pytest.raises(ValueError, match="order must be"):
        NgramModel.fit(SEQUENCES, order=0)


# -- a tiny line and its corpus ---------------------------------------------------------------
LINE_WORDS = ["alpha", "beta", "gamma", "delta"]


def line() -> Embeddings:
    return Embeddings(LINE_WORDS, [[0.0], [1.0], [2.0], [3.0]], name="line")


def line_corpus(seed: int, n_docs: int = 12, *, neutral: bool = False) -> list[Document]:
    """Documents of the four words with frequencies 6:3:2:1, in a seeded random order,
    written "a X the Y." (``neutral``: "a X." every time, a context that tells nothing)."""
    gen = np.random.default_rng(seed)
    docs = []
    for d in range(n_docs):
        bag = ["alpha"] * 6 + ["beta"] * 3 + ["gamma"] * 2 + ["delta"]
        gen.shuffle(bag)
        docs.append(Document(f"d{d}", " ".join(
            f"a {w}." if neutral else f"the {w}." if i % 2 else f"a {w}"
            for i, w in enumerate(bag))))
    return docs


EPSILONS = [1e-6, 0.3, 1.0, 3.0, 10.0, 1e3]


def _attack(mech: str, eps: float, docs: list[Document], mode: str, seed: int,
            **kw) -> Reconstruction:
    secrets = secret_words(line(), counts=count_words(docs))
    return reconstruction_attack(make_mechanism(mech, line(), epsilon=eps), docs,
                                 secrets=secrets, mode=mode, seed=seed, draws=400, **kw)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), mech=st.sampled_from(["santext", "madlib"]),
       mode=st.sampled_from(["bag", "text"]))
def test_recovery_from_the_prior_to_one(seed, mech, mode):
    """Recovery climbs from the no-release baseline (ε → 0) to 1 (ε large).

    Limits, exactly: at ε = 1e3 every word is released as itself and recovered; at
    ε = 1e-6 the channel is flat, so π · C guesses as π does (the prior's 6:3:2:1 gaps
    dwarf the sampled channel's noise at 400 draws), and with the exact channel the text
    attack guesses as π × context does.  Between them, monotone up to the noise of one
    release: each rate is at least the lower 95 % Clopper–Pearson bound of the rate at the
    ε before it (the releases at every ε share one seeded noise stream).  The text is
    written "a X." throughout: its context tells nothing (an n-gram model fitted on six
    short documents of random word order, as in :func:`line_corpus`'s default layout,
    overfits its noise, and the attack can then dip below the prior in the middle: the
    caveat of docs/AUDIT.md).
    """
    docs = line_corpus(seed % 1000, neutral=True)
    runs = [_attack(mech, eps, docs, mode, seed) for eps in EPSILONS]
    low, high = runs[0], runs[-1]
    assert high.attack.exact.estimate == 1.0 and high.words_in_secrets == high.words
    assert low.baselines["channel_only"].exact == low.baselines["prior_only"].exact
    if mode == "bag":
        assert low.attack.exact == low.baselines["prior_only"].exact
        assert "context_only" not in low.baselines
    elif mech == "santext":
        assert low.attack.exact == low.baselines["context_only"].exact
    for before, after in itertools.pairwise(runs):
        assert after.attack.exact.estimate >= before.attack.exact.lower
        assert after.attack.top5.estimate >= before.attack.top5.lower


def test_context_disambiguates():
    """Two fruits almost on top of each other (the channel cannot tell them apart), one
    always after "the red", the other after "a blue"; colours far from everything."""
    emb = Embeddings(["red", "blue", "apple", "berry"],
                     [[100.0, 0.0], [-100.0, 0.0], [0.0, 0.005], [0.0, -0.005]], name="fruit")
    gen = np.random.default_rng(7)
    docs = []
    for d in range(40):
        sentences = ["The red apple fell.", "A blue berry fell."] * 2
        gen.shuffle(sentences)
        docs.append(Document(f"d{d}", " ".join(sentences)))
    secrets = secret_words(emb, counts=count_words(docs))
    r = reconstruction_attack(make_mechanism("santext", emb, epsilon=2.0), docs,
                              secrets=secrets, seed=3)
    assert r.context == "ngram" and r.order == 3 and r.reference == "half"
    assert r.documents_attacked == r.documents_reference == 20 and r.words == 160
    # the adversary trusts its model: tuned on its own reference, the weight is not 0
    assert r.context_weight > 0 and "tuned: the weight of" in r.methods["context"]
    # the colours are always recovered; each fruit by the channel alone half the time
    # (tolerance: 0.75 ± 4 binomial sd of 80 fruit words)
    assert r.attack.exact.estimate >= 0.95
    assert abs(r.baselines["channel_only"].exact.estimate - 0.75) <= 4 * (0.25 / 160) ** 0.5
    assert r.attack.exact.lower > r.baselines["channel_only"].exact.upper
    # the prior alone: the most frequent secret (a tie, the first of them) every time
    assert r.baselines["prior_only"].exact.estimate == 0.25
    # the capitalised words are "The"/"A": function words, kept; none is a target
    assert r.classes["capitalised"]["attack"].words == 0


def test_plugged_in_scorer_is_used():
    emb = Embeddings(["red", "blue", "apple", "berry"],
                     [[100.0, 0.0], [-100.0, 0.0], [0.0, 0.005], [0.0, -0.005]], name="fruit")
    docs = [Document("a", "The red apple fell. A blue berry fell."),
            Document("b", "A blue berry fell. The red apple fell.")]
    secrets = secret_words(emb, counts=count_words(docs))
    calls = []

    def berry_lover(left, right, candidates):
        calls.append((list(left), list(right), list(candidates)))
        return np.where(np.asarray(candidates) == "berry", 50.0, 0.0)

    r = reconstruction_attack(make_mechanism("santext", emb, epsilon=2.0), docs,
                              secrets=secrets, scorer=berry_lover, seed=1, window=2)
    assert r.context == "custom" and r.reference is None and r.documents_attacked == 2
    assert len(calls) == r.words == 8  # one call per released content word
    left, right, candidates = calls[1]  # "apple" of document a: after "the red"
    assert left == ["the", "red"] and right == ["[UNK]", "<s>"]  # "fell" is not a word of emb
    assert sorted(candidates) == sorted(secrets.words * 2)  # the attack's, then the prior's
    # its +50 for "berry" overrides the channel between the fruits (equal within 0.01),
    # not for the colours (log C of a fruit given a colour is about −100): the colours and
    # the berries are recovered, never an apple
    assert r.attack.exact.estimate == pytest.approx(6 / 8)

    def bad(left, right, candidates):
        return [0.0]

    with pytest.raises(ValueError, match="scorer must return one log-score per candidate"):
        reconstruction_attack(make_mechanism("santext", emb, epsilon=2.0), docs,
                              secrets=secrets, scorer=bad, seed=1)


def test_context_weight_given_or_untunable():
    docs = line_corpus(5, n_docs=4)
    one_ref = _attack("santext", 3.0, docs, "text", 1, reference=docs[:1])
    assert one_ref.context_weight == 1.0 and "not tuned" in one_ref.methods["context"]
    # weight 0: the context is ignored, the attack is the channel alone
    zero = _attack("santext", 3.0, docs, "text", 1, context_weight=0.0)
    assert zero.context_weight == 0.0 and zero.attack == zero.baselines["channel_only"]
    with pytest.raises(ValueError, match="context_weight must be"):
        _attack("santext", 3.0, docs, "text", 1, context_weight=-1.0)


def test_bag_mode_has_no_context():
    docs = line_corpus(3, n_docs=4)
    r = _attack("santext", 3.0, docs, "bag", 5)
    assert r.context == "none" and r.order is None and r.documents_attacked == 4
    assert r.context_weight is None
    assert r.attack == r.baselines["channel_only"]
    assert set(r.baselines) == {"channel_only", "prior_only"}
    assert r.methods["context"] == "none: a bag has no context"
    mech = make_mechanism("santext", line(), epsilon=3.0)
    secrets = secret_words(line(), counts=count_words(docs))
    for kw in ({"reference": docs}, {"scorer": lambda left, right, c: np.zeros(len(c))}):
        with pytest.raises(ValueError, match="apply to mode 'text': a bag of words has no "
                                             "context"):
            reconstruction_attack(mech, docs, secrets=secrets, mode="bag", **kw)


def test_bag_capitalisation_and_classes():
    emb = line()
    docs = [Document("a", "Alpha alpha BETA gamma the delta"), Document("b", "alpha beta")]
    secrets = Secrets.from_words(emb, LINE_WORDS, weights=[4, 2, 1, 1])
    r = reconstruction_attack(make_mechanism("santext", emb, epsilon=1e3), docs,
                              secrets=secrets, mode="bag", frequent=1, seed=0)
    assert r.words == 7
    assert r.classes["capitalised"]["attack"].words == 2  # Alpha, BETA
    assert r.classes["frequent"]["attack"].words == 3     # alpha, 3 times
    assert r.classes["rare"]["attack"].words == 4
    assert r.classes["rare"]["prior_only"].exact.estimate == 0.0


def test_words_outside_the_secrets_are_never_recovered():
    docs = line_corpus(1, n_docs=4)
    secrets = Secrets.from_words(line(), ["alpha", "beta"], weights=[2, 1])
    r = reconstruction_attack(make_mechanism("santext", line(), epsilon=1e3), docs,
                              secrets=secrets, mode="bag", seed=0)
    assert r.words == 48 and r.words_in_secrets == 36
    assert r.attack.exact.estimate == pytest.approx(36 / 48)
    assert r.attack.top5.estimate == pytest.approx(36 / 48)


def test_seeded_reproducibility():
    docs = line_corpus(2, n_docs=6)
    first = _attack("madlib", 1.0, docs, "text", 11).summary()
    again = _attack("madlib", 1.0, docs, "text", 11).summary()
    for s in (first, again):
        s.pop("seconds")
    assert first == again
    assert first["seed"] == 11 and first["channel"] == "sampled" and first["draws"] == 400


def test_split_is_by_document_and_seeded():
    docs = [Document(str(i), "alpha") for i in range(7)]
    a, r = split_corpus(docs, seed=4)
    assert (len(a), len(r)) == (4, 3)
    assert sorted(d.id for d in a + r) == sorted(d.id for d in docs)
    assert split_corpus(docs, seed=4) == (a, r)


def test_errors():
    emb = line()
    mech = make_mechanism("santext", emb, epsilon=1.0)
    secrets = Secrets.from_words(emb, LINE_WORDS)
    with pytest.raises(ValueError, match="needs at least 2 documents"):
        reconstruction_attack(mech, [Document("a", "alpha beta")], secrets=secrets)
    with pytest.raises(ValueError, match="the reference holds no word of the vocabulary"):
        reconstruction_attack(mech, [Document("a", "alpha beta")], secrets=secrets,
                              reference=[Document("r", "zzz 12 the")])
    with pytest.raises(ValueError, match="hold no content word of the vocabulary"):
        reconstruction_attack(mech, [Document("a", "the a 42 zzz")], secrets=secrets,
                              reference=[Document("r", "alpha")])
    with pytest.raises(InputError, match=r"has no word in the vocabulary .*nothing to release"):
        reconstruction_attack(mech, [Document("a", "the a 42 zzz")], secrets=secrets,
                              mode="bag")
    with pytest.raises(ValueError, match="candidates must be"):
        reconstruction_attack(mech, [Document("a", "alpha")], secrets=secrets, mode="bag",
                              candidates=4)
    with pytest.raises(TypeError, match="sequence of Document"):
        reconstruction_attack(mech, Document("a", "alpha"), secrets=secrets)


def test_reports():
    docs = line_corpus(4, n_docs=4)
    runs = [_attack("santext", eps, docs, "text", 2) for eps in (1.0, 10.0)]
    table = reconstruction_table(runs)
    assert "| santext | 1 | text | 3-gram (other half) |" in table and " estimate [" in table
    rows = list(csv.DictReader(io.StringIO(reconstruction_csv(runs))))
    assert {(r["class"], r["guesser"]) for r in rows} >= {
        ("all", "attack"), ("all", "context_only"), ("frequent", "prior_only"),
        ("capitalised", "attack")}
    first = next(r for r in rows if r["class"] == "all" and r["guesser"] == "attack")
    assert float(first["exact_lower"]) <= float(first["exact"]) <= float(first["exact_upper"])
    json.dumps(runs[0].summary())  # JSON-ready


# -- the command line ---------------------------------------------------------------------------
EMB = "\n".join(["cat 0 0", "dog 1 0", "car 10 10", "bus 11 10", "sun -10 5",
                 "harbour 0 1", "zeppelin 9 9", "quiet 1 1", "factory 10 9",
                 "drifted -9 5"]) + "\n"
TEXT = ("The cat saw the dog by the harbour. The Cat was quiet; a bus drifted past the "
        "factory. Cat and dog! ")


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "c").mkdir()
    for i in range(4):
        (tmp_path / "c" / f"d{i}.txt").write_text(TEXT * (i + 1), encoding="utf-8")
    (tmp_path / "emb.txt").write_text(EMB, encoding="utf-8")
    (tmp_path / "one.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "ref.txt").write_text(TEXT + "The sun drifted.", encoding="utf-8")
    (tmp_path / "empty.txt").write_text("12 and the 7.", encoding="utf-8")
    (tmp_path / "half").mkdir()  # one document of content words, one of function words
    (tmp_path / "half" / "1.txt").write_text("The cat saw the dog.", encoding="utf-8")
    (tmp_path / "half" / "2.txt").write_text("And then the others.", encoding="utf-8")
    (tmp_path / "out").mkdir()
    return {"c": tmp_path / "c", "emb": tmp_path / "emb.txt", "one": tmp_path / "one.txt",
            "half": tmp_path / "half",
            "ref": tmp_path / "ref.txt", "empty": tmp_path / "empty.txt",
            "root": tmp_path, "out": tmp_path / "out"}


def _cli(corpus, *args: str) -> list[str]:
    return ["audit", "--embeddings", str(corpus["emb"]), "-q", *args]


FIGURE = {"estimate", "lower", "upper", "kind"}


def test_cli_json_has_the_reconstruction(corpus, capsys, monkeypatch):
    # a document's noise stream is keyed by its identifier, the path as given: a relative
    # path keeps the seeded release (and the figure asserted below) the same wherever the
    # temporary directory lies (with an absolute one it failed in 1 of 8 directories tried)
    monkeypatch.chdir(corpus["root"])
    code, out, err = run_cli(_cli(corpus, "c", "-e", "1,20", "--mechanism",
                                  "santext", "--reconstruct", "--json", "--seed", "3"), capsys)
    assert code == 0 and err == ""
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["epsilon"] for o in objects] == [1.0, 20.0]
    for o in objects:
        rec = o["reconstruction"]
        assert rec["mode"] == "text" and rec["context"] == "ngram" and rec["order"] == 3
        assert rec["context_weight"] in (0.0, 0.25, 0.5, 0.75, 1.0)
        assert rec["documents"] == {"attacked": 2, "reference": 2} and rec["seed"] == 3
        assert set(rec["exact"]) == set(rec["top5"]) == FIGURE
        assert set(rec["baselines"]) == {"channel_only", "context_only", "prior_only"}
        for base in rec["baselines"].values():
            assert set(base) == {"words", "exact", "top5"} and set(base["exact"]) == FIGURE
        assert set(rec["classes"]) == {"frequent", "rare", "capitalised"}
        assert set(rec["classes"]["capitalised"]) == {"attack", "channel_only",
                                                      "context_only", "prior_only"}
        assert rec["classes"]["capitalised"]["attack"]["words"] > 0  # "Cat"
    assert objects[1]["reconstruction"]["exact"]["estimate"] == 1.0
    # the same seed, the same attack
    again = run_cli(_cli(corpus, "c", "-e", "1,20", "--mechanism", "santext",
                         "--reconstruct", "--json", "--seed", "3"), capsys)[1]
    strip = [{**json.loads(line)["reconstruction"], "seconds": 0} for line in again.splitlines()]
    assert strip == [{**o["reconstruction"], "seconds": 0} for o in objects]


def test_cli_bag_mode_and_reference(corpus, capsys):
    code, out, _ = run_cli(_cli(corpus, str(corpus["one"]), "-e", "5", "--reconstruct",
                                "--mode", "bag", "--json", "--draws", "20", "--seed", "1"),
                           capsys)
    assert code == 0
    rec = json.loads(out)["reconstruction"]
    assert rec["mode"] == "bag" and rec["context"] == "none" and rec["channel"] == "sampled"
    assert set(rec["baselines"]) == {"channel_only", "prior_only"}
    code, out, _ = run_cli(_cli(corpus, str(corpus["one"]), "-e", "5", "--mechanism", "tem",
                                "--reconstruct", "--reference", str(corpus["ref"]),
                                "--ngram", "2", "--json", "--seed", "1"), capsys)
    assert code == 0
    rec = json.loads(out)["reconstruction"]
    assert rec["reference"] == "given" and rec["order"] == 2
    assert rec["documents"] == {"attacked": 1, "reference": 1}


def test_cli_out_writes_the_reconstruction(corpus, capsys):
    where = corpus["out"] / "audit"
    code, out, _ = run_cli(_cli(corpus, str(corpus["c"]), "-e", "2", "--mechanism", "santext",
                                "--reconstruct", "--seed", "2", "--out", str(where)), capsys)
    assert code == 0 and "| santext | 2 | text | 3-gram (other half) |" in out
    assert sorted(p.name for p in where.iterdir()) == ["audit.csv", "audit.json", "audit.md",
                                                       "audit.png", "reconstruction.csv"]
    report = json.loads((where / "audit.json").read_text(encoding="utf-8"))
    assert report["results"][0]["reconstruction"]["mode"] == "text"
    assert report["settings"]["reconstruction"] == {"mode": "text", "reference": [],
                                                    "ngram": 3}
    assert "--reconstruct --mode text --ngram 3" in report["settings"]["command"]
    md = (where / "audit.md").read_text(encoding="utf-8")
    assert "## Reconstruction" in md and md.index("## Reconstruction") < md.index("Made by")
    rows = list(csv.DictReader(io.StringIO(
        (where / "reconstruction.csv").read_text(encoding="utf-8"))))
    assert rows[0]["class"] == "all" and rows[0]["guesser"] == "attack"


@pytest.mark.parametrize(("args", "message"), [
    (["{c}", "-e", "1", "--reference", "{ref}"], "--reference applies to --reconstruct"),
    (["{c}", "-e", "1", "--mode", "bag"], "--mode applies to --reconstruct"),
    (["-e", "1", "--reconstruct"], "--reconstruct needs a CORPUS to release and attack"),
    (["{c}", "-e", "1", "--reconstruct", "--mode", "bag", "--reference", "{ref}"],
     "--reference applies to --mode text: a bag of words has no context"),
    (["{c}", "-e", "1", "--reconstruct", "--mode", "bag", "--ngram", "2"],
     "--ngram applies to --mode text: a bag of words has no context"),
    (["{c}", "-e", "1", "--reconstruct", "--reference", "{root}/missing.txt"],
     "input file '{root}/missing.txt' does not exist"),
    (["{one}", "-e", "1", "--reconstruct"],
     "--reconstruct needs at least 2 documents in CORPUS to fit its context model on half "
     "of them; got 1 (give --reference, or --mode bag)"),
    (["{one}", "-e", "1", "--reconstruct", "--reference", "{empty}"],
     "the reference holds no word of the vocabulary of 'emb.txt': nothing to fit the "
     "context model on"),
    (["{c}", "-e", "1", "--reconstruct", "--reference", "-"],
     "--reference cannot be standard input ('-'); give files or directories"),
    (["{half}", "-e", "1", "--reconstruct", "--seed", "0"],
     "the reference half of the corpus holds no word of the vocabulary of 'emb.txt': "
     "nothing to fit the context model on"),
    (["{half}", "-e", "1", "--reconstruct", "--seed", "3"],
     "the released documents hold no content word of the vocabulary: nothing to "
     "reconstruct"),
    (["{c}", "-e", "1", "--reconstruct", "--ngram", "4"],
     "Invalid value for '--ngram': Input should be less than or equal to 3 (see 'emprivacy "
     "audit --help')"),
])
def test_cli_errors_are_one_line_exit_2(corpus, capsys, args, message):
    fill = {k: str(v) for k, v in corpus.items()}
    code, out, err = run_cli(_cli(corpus, *[a.format(**fill) for a in args]), capsys)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"emprivacy: error: {message.format(**fill)}"]
    assert list(corpus["out"].iterdir()) == []


def test_cli_empty_corpus_is_one_line(corpus, capsys):
    code, _, err = run_cli(_cli(corpus, str(corpus["empty"]), "-e", "1", "--reconstruct",
                                "--mode", "bag"), capsys)
    assert code == 2 and err.strip() == ("emprivacy: error: the corpus holds no content word "
                                         "of the vocabulary: nothing to audit")
