"""Text mode releases only what it promises (issue 12).

What may appear in a text-mode output: words produced by the mechanism (vocabulary
words), placeholders, function-word stopwords, allowed punctuation and whitespace.
Checked here independently of the tokenizer: every output is parsed with a regular
expression built from those four lists alone.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emprivacy import EarthMoversPrivacy, Embeddings
from emprivacy.distributed import obfuscate_corpus
from emprivacy.io.documents import Document
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.preparation.template import PLACEHOLDERS
from emprivacy.text.normalise import LAYOUT_PUNCTUATION, LAYOUT_WHITESPACE
from emprivacy.text.word_lists import NUMBER_WORDS, STOPWORDS

#: The attacks of issue 12: names in symbols, combining marks, format characters,
#: emoji, content words and number words of the old stopword list.
ADVERSARIAL = {
    "circled": "ⓙⓞⓗⓝ ⓢⓜⓘⓣⓗ",
    "parenthesised": "⒥⒪⒣⒩",
    "negative squared": "🅙🅞🅗🅝",
    "regional indicators": "🇯🇴🇭🇳",
    "braille": "⠚⠕⠓⠝",
    "devanagari signs": "[UNK] ा ी [UNK]",
    "thai signs": "ู่ ู่",
    "decomposed accent": "Zoe\u0308 and e\u0301",
    "stray mark": "x \u0308 y",
    "zero-width joiner": "Jo\u200dhn",
    "zero-width space": "Ma\u200bry",
    "soft hyphen": "Pe\u00adter",
    "emoji": "❤️ 🇺🇸 👨\u200d👩\u200d👧 🏥",
    "tag characters": "flag\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
    "private use": "\ue000\ue001",
    "full width": "Ｊｏｈｎ",
    "old stopwords": "Bill set fire to the mill; forty five people, Top side empty.",
    "number words": "twenty-first of the thirteen hundred",
}

#: Characters of the attacks that must never be released (everything that is not
#: allowed layout, in the letter, mark, symbol, number, format and private-use categories).
FORBIDDEN_CATEGORIES = ("L", "M", "S", "N", "Cf", "Co")

SEPARATORS = [" ", "\n", "", ",", "\u200d", "\u00ad", "-", "'", "’", "\u00a0", "…", " — "]


def _variants(word: str) -> set[str]:
    return {word, word.replace("'", "’")}


def release_pattern(words: set[str]) -> re.Pattern[str]:
    """Whitespace-separated runs made of placeholders, allowed punctuation and ``words``."""
    items = sorted({v for w in words for v in _variants(w)}, key=len, reverse=True)
    punct = "".join(re.escape(c) for c in sorted(LAYOUT_PUNCTUATION))
    place = "|".join(re.escape(p) for p in (*PLACEHOLDERS.values(), "[UNK]"))
    word_alt = "|".join(re.escape(w) for w in items)
    return re.compile(rf"(?:{place}|[{punct}]|(?:{word_alt}))+", re.IGNORECASE)


def assert_only_allowed(out: str, words: set[str]) -> None:
    pattern = release_pattern(words)
    runs = re.split("[" + "".join(re.escape(c) for c in LAYOUT_WHITESPACE) + "]+", out)
    for run in runs:
        if run:
            assert pattern.fullmatch(run), f"released run {run!r} is not allowed"


def test_the_allow_lists_hold_only_layout() -> None:
    for c in LAYOUT_WHITESPACE:
        assert c in "\t\n\x0b\x0c\r" or unicodedata.category(c) in ("Zs", "Zl", "Zp"), repr(c)
    for c in LAYOUT_PUNCTUATION:
        # ASCII symbols such as $ + < = > ^ ` | ~ are in string.punctuation
        assert unicodedata.category(c).startswith("P") or (c.isascii() or (
            0xFF01 <= ord(c) <= 0xFF5E)), repr(c)
        assert not c.isalnum()
    assert not STOPWORDS & NUMBER_WORDS


# -- tiny vocabulary: the property ----------------------------------------------------------
VOCAB_WORDS = ("cat", "dog", "house", "river", "john", "café", "नमस्ते", "the", "bill", "five")
TINY = Embeddings(VOCAB_WORDS, np.arange(2 * len(VOCAB_WORDS), dtype=np.float32).reshape(-1, 2),
                  name="tiny-release")

fragments = st.one_of(
    st.sampled_from(VOCAB_WORDS),
    st.sampled_from(sorted(STOPWORDS)[:40]),
    st.sampled_from(list(ADVERSARIAL.values())),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
    st.text(st.characters(categories=("Mn", "Mc", "Me", "Cf", "Co", "So", "Sk", "No", "Nl")),
            max_size=6),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(fragments, st.sampled_from(SEPARATORS)), max_size=12),
       st.sampled_from(["placeholder", "drop"]), st.booleans(), st.integers(0, 2**32 - 1))
def test_property_only_mechanism_words_placeholders_stopwords_and_punctuation(
        parts, oov, perturb, seed) -> None:
    text = "".join(f + s for f, s in parts)
    mech = EarthMoversPrivacy(TINY, epsilon=0.01)
    out = mech.privatize_text(text, oov=oov, perturb_stopwords=perturb, rng=seed)
    allowed = set(VOCAB_WORDS) | (set() if perturb else STOPWORDS)
    assert_only_allowed(out, allowed)
    # and no character of those categories survives from the input outside the lists
    vocab_chars = set("".join(allowed).upper() + "".join(allowed).lower() + "’"
                      + "".join(PLACEHOLDERS.values()) + "[UNK]")
    for c in out:
        if c not in vocab_chars and c not in LAYOUT_WHITESPACE and c not in LAYOUT_PUNCTUATION:
            pytest.fail(f"character {c!r} ({unicodedata.category(c)}) released")


@pytest.mark.parametrize("epsilon", [0.01, 1e6])
def test_adversarial_inputs_on_the_tiny_vocabulary(epsilon: float) -> None:
    mech = EarthMoversPrivacy(TINY, epsilon=epsilon)
    for name, attack in ADVERSARIAL.items():
        text = f"the cat {attack} dog"
        out = mech.privatize_text(text, rng=1)
        assert_only_allowed(out, set(VOCAB_WORDS) | STOPWORDS)
        for c in out:
            if unicodedata.category(c).startswith(FORBIDDEN_CATEGORIES[:4]) and c not in (
                    LAYOUT_PUNCTUATION) and c.lower() not in "".join(VOCAB_WORDS) + "unksymnumrl" \
                    + "path":
                pytest.fail(f"{name}: {c!r} released")


# -- the default embeddings: the attacks of the issue ----------------------------------------
def _words_of(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]+", text)


@pytest.mark.parametrize("epsilon", [0.01, 1e6])
def test_adversarial_inputs_on_the_default_embeddings(default_embeddings: Embeddings,
                                                      epsilon: float) -> None:
    mech = EarthMoversPrivacy(default_embeddings, epsilon=epsilon)
    vocab = set(default_embeddings.words)
    for name, attack in ADVERSARIAL.items():
        out = mech.privatize_text(attack, rng=7)
        assert_only_allowed(out, vocab | STOPWORDS)
        for c in out:
            cat = unicodedata.category(c)
            assert not (cat.startswith(("M", "S", "N")) or cat in ("Cf", "Co")) or (
                c in LAYOUT_PUNCTUATION), f"{name}: {c!r} released in {out!r}"
        if epsilon == 1e6:
            # every in-vocabulary word comes back; nothing outside the vocabulary does
            for w in _words_of(out):
                assert w.lower() in vocab or w.lower() in STOPWORDS or w in ("UNK", "SYM", "NUM")
    out = mech.privatize_text(ADVERSARIAL["old stopwords"], rng=3)
    if epsilon == 1e6:
        assert out == "Bill set fire to the mill; [NUM] [NUM] people, Top side empty."
        assert mech.privatize_text("Ｊｏｈｎ visited Zoe\u0308", rng=3) == "John visited Zoë"
        assert mech.privatize_text("Jo\u200dhn and Pe\u00adter", rng=3) == "John and Peter"
    else:
        for w in ("Bill", "fire", "mill", "Top", "side", "empty", "forty", "five"):
            assert w not in out.split(), (w, out)
        assert out.count("[NUM]") == 2


# -- bag mode, records and the corpus path: the same inputs ----------------------------------
def _attack_docs() -> list[Document]:
    return [Document(f"d{i}", f"harbour {attack} river") for i, attack in
            enumerate(ADVERSARIAL.values())]


@pytest.mark.parametrize("mode", ["bag", "text"])
def test_records_release_nothing_else_and_count_correctly(default_embeddings, mode) -> None:
    mech = EarthMoversPrivacy(default_embeddings, epsilon=1e6)
    vocab = set(default_embeddings.words)
    for oov in ("placeholder", "drop"):
        obf = Obfuscator(mech, ObfuscationConfig(mode=mode, oov=oov), seed=5)
        for rec in obf.obfuscate(_attack_docs()):
            released = " ".join(rec["bag"]) if mode == "bag" else rec["text"]
            assert_only_allowed(released, vocab | STOPWORDS)
            assert rec["oov_kept"] == 0
            n_unk = released.count("[UNK]")
            assert n_unk == (rec["oov_placeholders"] if oov == "placeholder" else 0)
            if mode == "bag":
                # bags hold content words only: no stopword, no number, no symbol
                assert all(w in vocab or w == "[UNK]" for w in rec["bag"])
                assert rec["n_words"] == sum(w != "[UNK]" for w in rec["bag"])
    one = next(Obfuscator(mech, ObfuscationConfig(mode="text"), seed=5).obfuscate(
        [Document("x", "Devanagari नमस्तेा ा and Jo\u200dhn ❤️ qqqzzv")]))
    # Devanagari, John perturbed; नमस्तेा (not in GloVe) and qqqzzv [UNK]; ा and ❤️ [SYM]
    assert (one["oov_placeholders"], one["symbols"], one["words_perturbed"]) == (2, 2, 2)


def test_corpus_path_matches_single_process(tmp_path: Path, default_embeddings) -> None:
    mech = EarthMoversPrivacy(default_embeddings, epsilon=0.5)
    docs = _attack_docs()
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"id": d.id, "text": d.text}) + "\n" for d in docs),
                   encoding="utf-8")
    for mode in ("bag", "text"):
        out = tmp_path / f"{mode}.jsonl"
        config = ObfuscationConfig(mode=mode, oov="placeholder")
        obfuscate_corpus([src], out, mechanism=mech, config=config, seed=11)
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        local = list(Obfuscator(mech, config, seed=11).obfuscate(docs))
        assert records == json.loads(json.dumps(local))
        for rec in records:
            released = " ".join(rec["bag"]) if mode == "bag" else rec["text"]
            assert_only_allowed(released, set(default_embeddings.words) | STOPWORDS)
