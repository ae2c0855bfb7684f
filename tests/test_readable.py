"""Text mode (readable output): layout, capitalisation, stopwords, batching, the guarantee."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from emprivacy import EarthMoversPrivacy, Embeddings
from emprivacy.cli import main
from emprivacy.io.documents import Document
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.preparation.template import (
    TEXT_GUARANTEE,
    apply_case,
    case_pattern,
    prepare_text,
)
from emprivacy.text.tokens import tokenize, verbatim_function_words

from .helpers import gaps

# A tiny vocabulary with stopwords in it (so that perturbing them is possible).
WORDS = ("the", "and", "cat", "dog", "car", "bus", "sun", "rock'n'roll", "e-mail")
VECTORS = [[0.0, 0.0], [0.5, 0.0], [5.0, 5.0], [6.0, 5.0], [20.0, 20.0], [21.0, 20.0],
           [-10.0, 5.0], [-20.0, -20.0], [30.0, -30.0]]


TINY = Embeddings(WORDS, VECTORS, name="tiny-text")


@pytest.fixture
def emb() -> Embeddings:
    return TINY


class CountingDecoder:
    """Wraps a decoder and counts its calls."""

    name = "counting"

    def __init__(self, inner) -> None:
        self.inner, self.calls = inner, 0

    def decode(self, points):
        self.calls += 1
        return self.inner.decode(points)


# -- capitalisation ---------------------------------------------------------------------
@pytest.mark.parametrize(("token", "pattern"), [
    ("cat", "lower"), ("Cat", "title"), ("CAT", "upper"), ("I", "title"), ("A", "title"),
    ("NASA", "upper"), ("McDonald", "title"), ("iPhone", "lower"), ("É", "title"),
    ("ÉTÉ", "upper"), ("e-Mail", "lower"), ("E-MAIL", "upper"),
])
def test_case_pattern(token, pattern):
    assert case_pattern(token) == pattern


@pytest.mark.parametrize(("word", "pattern", "expected"), [
    ("dog", "title", "Dog"), ("dog", "upper", "DOG"), ("Dog", "lower", "dog"),
    ("o'clock", "title", "O'clock"), ("e-mail", "upper", "E-MAIL"), ("'tis", "title", "'Tis"),
    ("été", "title", "Été"),
])
def test_apply_case(word, pattern, expected):
    assert apply_case(word, pattern) == expected


# -- layout -------------------------------------------------------------------------------
LAYOUT_TEXT = ("The cat, the DOG;\n\tand the Bus — sun!  Car?\r\n\n"
               "«Rock’n’roll» (E-mail)... cat/dog\u00a0bus")


def test_huge_epsilon_returns_the_text_identical(emb):
    mech = EarthMoversPrivacy(emb, epsilon=1e9, rng=0)
    assert mech.privatize_text(LAYOUT_TEXT) == LAYOUT_TEXT


def test_huge_epsilon_identical_on_real_english(default_embeddings):
    text = ("The President greets the press in Chicago.\n\nShe said: \"Markets rallied, "
            "and OIL prices fell\" — then left.\t(Reuters)\n")
    mech = EarthMoversPrivacy(default_embeddings, epsilon=1e7, rng=0)
    assert mech.privatize_text(text, perturb_stopwords=True) == text


@pytest.mark.parametrize("perturb_stopwords", [False, True])
def test_every_non_word_character_is_kept_and_case_applied(emb, perturb_stopwords):
    """At a small ε words change, but the gaps and capitalisation patterns stay."""
    mech = EarthMoversPrivacy(emb, epsilon=0.05, rng=3)
    changed = 0
    for seed in range(20):
        out = mech.privatize_text(LAYOUT_TEXT, perturb_stopwords=perturb_stopwords, rng=seed)
        assert gaps(out) == gaps(LAYOUT_TEXT)
        pairs = list(zip(tokenize(LAYOUT_TEXT), tokenize(out), strict=True))
        for a, b in pairs:
            assert case_pattern(b.text) == case_pattern(a.text)
            if "'" in b.text or "’" in b.text:
                assert ("’" in b.text) == ("’" in a.text)
        changed += sum(a.text != b.text for a, b in pairs)
    assert changed > 50  # the words did go through the mechanism


def test_typographic_apostrophe_is_kept(emb):
    mech = EarthMoversPrivacy(emb, epsilon=1e9, rng=0)
    assert mech.privatize_text("ROCK’N’ROLL and rock'n'roll") == "ROCK’N’ROLL and rock'n'roll"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["the", "and", "cat", "dog", "car", "sun", "bus"]),
                          st.sampled_from(["lower", "title", "upper"]),
                          st.text(alphabet=" \t\n,.;:!?()«»\"/", min_size=1, max_size=4)),
                min_size=1, max_size=12),
       st.integers(0, 2**32 - 1))
def test_layout_property(parts, seed):
    text = "".join(apply_case(w, c) + sep for w, c, sep in parts)
    # a separator may make a path or a domain of words ("the,/cat" holds the path "/cat",
    # "the.cat" is a domain, .cat a top-level domain): in the input, or in the output
    assume(all(t.kind == "word" for t in tokenize(text)))
    out = EarthMoversPrivacy(TINY, epsilon=0.3).privatize_text(text, rng=seed)
    assume(all(t.kind == "word" for t in tokenize(out)))
    assert gaps(out) == gaps(text)
    toks_in, toks_out = list(tokenize(text)), list(tokenize(out))
    assert len(toks_in) == len(toks_out)
    for a, b, kept in zip(toks_in, toks_out, verbatim_function_words(toks_in, text),
                          strict=True):
        assert case_pattern(b.text) == case_pattern(a.text)
        if kept:  # function words in lower or Title case (never ALL CAPS) are kept by default
            assert b.text == a.text
            assert a.text in ("the", "and", "The", "And")


# -- stopwords ----------------------------------------------------------------------------
def test_stopwords_kept_by_default_and_perturbed_on_request(emb):
    mech = EarthMoversPrivacy(emb, epsilon=0.01)
    text = "the cat and the dog"
    kept = [mech.privatize_text(text, rng=s).split() for s in range(30)]
    assert all(t[0] == "the" and t[2] == "and" and t[3] == "the" for t in kept)
    perturbed = [mech.privatize_text(text, perturb_stopwords=True, rng=s).split()
                 for s in range(30)]
    # at ε = 0.01 a word stays itself with probability about 1/|V| = 1/9
    changed = sum(t[0] != "the" for t in perturbed)
    assert changed >= 15


def test_template_counts(emb):
    t = prepare_text("The cat met Qwxzzyq at 10:30 via https://x.org or a@b.org.", emb)
    assert t.words_perturbed == 1
    assert t.counts == {"stopwords_kept": 4, "oov_placeholders": 2, "oov_dropped": 0,
                        "oov_kept": 0, "numbers": 1, "urls": 1, "emails": 1, "paths": 0,
                        "symbols": 0}
    assert t.render(t.indices, emb.words) == \
        "The cat [UNK] [UNK] at [NUM] via [URL] or [EMAIL]."
    with pytest.raises(ValueError, match=r"rows must hold one word per slot \(1\); got 2"):
        t.render([0, 1], emb.words)


# -- randomness and batching ------------------------------------------------------------
def test_seeded_runs_reproduce_and_default_is_random(emb):
    mech = EarthMoversPrivacy(emb, epsilon=0.1)
    text = " ".join(["cat dog car bus sun"] * 6)
    assert mech.privatize_text(text, rng=5) == mech.privatize_text(text, rng=5)
    assert mech.privatize_text(text, rng=5) != mech.privatize_text(text, rng=6)
    assert mech.privatize_text(text) != mech.privatize_text(text)


def test_privatize_text_decodes_once(emb):
    dec = CountingDecoder(EarthMoversPrivacy(emb, epsilon=1).decoder)
    mech = EarthMoversPrivacy(emb, epsilon=1, decoder=dec)
    mech.privatize_text("cat dog car bus sun " * 20, rng=0)
    assert dec.calls == 1
    assert mech.privatize_text("the and ... 42", rng=0) == "the and ... [NUM]"
    assert dec.calls == 1  # nothing to perturb: no decoding at all


def test_obfuscator_text_mode_batches_and_does_not_depend_on_batching(emb):
    docs = [Document(f"d{i}", f"The cat and the DOG, {i} buses; Sun? Bus! car") for i in range(7)]
    dec = CountingDecoder(EarthMoversPrivacy(emb, epsilon=1).decoder)
    mech = EarthMoversPrivacy(emb, epsilon=0.5, decoder=dec)
    big = list(Obfuscator(mech, ObfuscationConfig(mode="text"), seed=4).obfuscate(docs))
    assert dec.calls == 1  # one decoding call for the whole batch
    small = list(Obfuscator(mech, ObfuscationConfig(mode="text", batch_words=1),
                            seed=4).obfuscate(docs))
    assert dec.calls == 1 + 7
    assert big == small
    assert [r["id"] for r in big] == [d.id for d in docs]
    for r, d in zip(big, docs, strict=True):
        assert r["mode"] == "text" and r["oov"] == "placeholder"
        assert r["n_words"] == r["words_perturbed"] == 5
        assert r["epsilon_total"] == pytest.approx(0.5 * 5)
        assert r["stopwords_kept"] == 3 and r["numbers"] == 1 and r["oov_placeholders"] == 1
        assert r["guarantee"] == TEXT_GUARANTEE
        assert gaps(r["text"].replace("[NUM]", "0").replace("[UNK]", "x")) == gaps(d.text)
        assert str(docs.index(d)) not in r["text"] and "buses" not in r["text"]


def test_obfuscator_text_mode_keeps_documents_without_perturbed_words(emb):
    docs = [Document("a", "the and 42"), Document("b", " ... \n"), Document("c", "cat")]
    with pytest.warns(UserWarning, match="document 'b' is empty after normalisation"):
        records = list(Obfuscator(EarthMoversPrivacy(emb, epsilon=1e9),
                                  ObfuscationConfig(mode="text"), seed=0).obfuscate(docs))
    assert [(r["id"], r["text"], r["n_words"]) for r in records] == [
        ("a", "the and [NUM]", 0), ("c", "cat", 1)]


# -- the guarantee, empirically ----------------------------------------------------------
def test_text_mode_manhattan_guarantee_empirically():
    """P[out | x] ≤ exp(ε·Σᵢ d(xᵢ, x'ᵢ))·P[out | x'] for every output (20,000 draws each).

    Positions are privatised independently, so one document of 20,000 copies of a
    two-word text holds 20,000 independent draws of the two-word mechanism.
    """
    emb = Embeddings(["aa", "bb", "cc"], [[0.0], [1.0], [2.5]], name="line")
    eps, n = 0.8, 20_000
    mech = EarthMoversPrivacy(emb, epsilon=eps)

    def freq(pair: str, seed: int) -> Counter:
        out = mech.privatize_text("; ".join([pair] * n), rng=seed).split("; ")
        assert len(out) == n
        return Counter(out)

    x, x2 = "aa, bb", "bb, cc"  # same layout; Σ d = 1 + 1.5
    bound = math.exp(eps * 2.5)
    p, q = freq(x, 1), freq(x2, 2)
    for out in set(p) | set(q):
        a, b = p[out] / n, q[out] / n
        slack = 4 * math.sqrt(max(a, b, 1 / n) / n)  # ~4 s.e. of a frequency
        assert a <= bound * (b + slack) and b <= bound * (a + slack)
    # and the bound is not vacuous here: some output's ratio exceeds exp(ε·d) of one word
    ratios = [p[o] / q[o] for o in p if q[o] > 200 and p[o] > 200]
    assert max(ratios) > math.exp(eps * 1.0)


# -- bad input ----------------------------------------------------------------------------
def test_bad_input(emb):
    mech = EarthMoversPrivacy(emb, epsilon=1, rng=0)
    with pytest.raises(ValueError, match="oov must be one of 'drop', 'placeholder', 'keep', "
                                         "'subword'; "
                                         "got 'maybe'"):
        mech.privatize_text("cat", oov="maybe")
    with pytest.raises(TypeError, match="text must be a str; got list"):
        mech.privatize_text(["cat"])
    with pytest.raises(TypeError, match="perturb_stopwords must be a bool; got str"):
        mech.privatize_text("cat", perturb_stopwords="yes")
    with pytest.raises(ValueError, match="size applies to bags of words"):
        Obfuscator(mech, ObfuscationConfig(mode="text", size=3))
    with pytest.raises(ValueError, match="perturb_stopwords applies to text mode"):
        Obfuscator(mech, ObfuscationConfig(perturb_stopwords=True))
    with pytest.raises(ValueError, match="mode must be one of 'bag', 'text'; got 'html'"):
        Obfuscator(mech, ObfuscationConfig(mode="html"))


# -- command line -------------------------------------------------------------------------
def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


SECRET = ["zeppelin", "marmalade", "saxophone", "volcano"]
SECRET_TEXT = ("The Zeppelin carried MARMALADE,\n\ta saxophone and 3 maps past the volcano.\n")


def test_cli_format_text_huge_epsilon_is_identical(tmp_path: Path, capsys):
    src = tmp_path / "a.txt"
    src.write_text(SECRET_TEXT, encoding="utf-8")
    code, out, err = run(["obfuscate", str(src), "-e", "1e7", "-f", "text", "--seed", "0"],
                         capsys)
    assert code == 0
    assert out == SECRET_TEXT.replace("3", "[NUM]")
    assert all(w not in err.lower() for w in SECRET)


def test_cli_format_text_changes_words_at_small_epsilon(tmp_path: Path, capsys):
    src = tmp_path / "a.txt"
    src.write_text(SECRET_TEXT, encoding="utf-8")
    code, out, err = run(["obfuscate", str(src), "-e", "2", "-f", "text", "-q", "--seed", "3"],
                         capsys)
    assert code == 0 and err == ""
    assert gaps(out.replace("[NUM]", "3")) == gaps(SECRET_TEXT)
    assert sum(w in out.lower() for w in SECRET) <= 1


def test_cli_readable_jsonl_records_and_perturb_stopwords(tmp_path: Path, capsys):
    d = tmp_path / "docs"
    d.mkdir()
    (d / "a.txt").write_text(SECRET_TEXT, encoding="utf-8")
    (d / "b.txt").write_text("The press in Chicago.", encoding="utf-8")
    code, out, err = run(["obfuscate", str(d), "-e", "1e7", "--readable", "--perturb-stopwords",
                          "-q", "--seed", "1"], capsys)
    assert code == 0 and err == ""
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["text"] for r in records] == [SECRET_TEXT.replace("3", "[NUM]"),
                                            "The press in Chicago."]
    assert records[1]["words_perturbed"] == 4 and records[1]["stopwords_kept"] == 0
    assert all(r["mode"] == "text" and r["perturb_stopwords"] is True
               and "exp(ε·Σ_i d(x_i, x'_i))" in r["guarantee"] for r in records)


@pytest.mark.parametrize(("extra", "message"), [
    (["-f", "text", "-N", "3"], "--size applies to bags of words"),
    (["--perturb-stopwords"], "--perturb-stopwords applies to text mode"),
    (["--readable", "-f", "bag"], "--readable releases text"),
    (["-f", "text", "--workers", "2", "-o", "{out}"], "--format text writes one stream"),
    (["-f", "html"], "format must be one of 'bag', 'jsonl', 'text'"),
])
def test_cli_text_mode_bad_options(extra, message, tmp_path: Path, capsys):
    src = tmp_path / "a.txt"
    src.write_text(SECRET_TEXT, encoding="utf-8")
    extra = [a.format(out=tmp_path / "o.jsonl") for a in extra]
    code, out, err = run(["obfuscate", str(src), "-e", "1", *extra], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert all(w not in err.lower() for w in SECRET)

