"""The style option of text mode end to end (ObfuscationConfig(style_epsilon=...)): the
function-word classes, the canonical punctuation, the records' guarantee and epsilon_total."""

import re

import pytest

from emprivacy import Embeddings
from emprivacy.io.documents import Document
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
from emprivacy.text.canonical import canonical_punctuation
from emprivacy.text.function_classes import FUNCTION_CLASS_NAMES, FUNCTION_CLASSES, class_members
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

WORDS = {"the": 0.0, "a": 0.2, "this": 0.4, "on": 3.0, "in": 3.2, "under": 3.4, "cat": 7.0,
         "mat": 7.1, "sat": 8.0, "she": 11.0, "he": 11.2}
TEXT = "The cat  sat on the mat , she sat ...  under a mat!!"


@pytest.fixture(scope="module")
def mech():
    emb = Embeddings(list(WORDS), [[v, 0.0] for v in WORDS.values()], name="toy")
    return EarthMoversPrivacy(emb, epsilon=2.0)


def release(mech, style_epsilon, seed=0, **config):
    run = Obfuscator(mech, ObfuscationConfig(mode="text", style_epsilon=style_epsilon, **config),
                     seed=seed)
    return next(run.obfuscate([Document("d", TEXT)]))


def test_every_kept_function_word_has_exactly_one_class():
    assert set(FUNCTION_CLASSES) == KEPT_FUNCTION_WORDS
    assert set(FUNCTION_CLASSES.values()) == set(FUNCTION_CLASS_NAMES)
    assert {"is", "was", "are"} <= set(class_members("be"))
    assert FUNCTION_CLASSES["the"] == "determiner" and FUNCTION_CLASSES["on"] == "preposition"


def test_off_by_default_the_release_is_unchanged(mech):
    plain = release(mech, None)
    assert "style_words" not in plain and "style_epsilon" not in plain
    assert plain["text"].startswith("The ") and " on the " in plain["text"]
    assert "  " in plain["text"] and "!!" in plain["text"]  # layout as it was


def test_function_words_stay_in_their_class_and_epsilon_total_counts_them(mech):
    seen = set()
    for seed in range(40):
        r = release(mech, 0.5, seed=seed)
        assert r["style_epsilon"] == 0.5 and r["style_words"] == 6  # The on the she under a
        assert r["epsilon_total"] == pytest.approx(2.0 * r["words_perturbed"] + 0.5 * 6)
        m = re.fullmatch(r"(\w+) (\w+) (\w+) (\w+) (\w+) (\w+), (\w+) (\w+)\.\.\. (\w+) (\w+) "
                         r"(\w+)!", r["text"])
        assert m, r["text"]
        det, prep, pron = ("the", "a", "this"), ("on", "in", "under"), ("she", "he")
        assert m[1] in ("The", "A", "This") and m[5] in det and m[10] in det
        assert m[4] in prep and m[9] in prep and m[7] in pron
        seen.add(m[4])
        assert "Style option (style_epsilon=0.5)" in r["guarantee"]
    assert seen == set(("on", "in", "under"))  # at ε_f = 0.5 they do change


def test_style_is_text_mode_only_and_checked():
    with pytest.raises(ValueError, match="style_epsilon applies to text mode"):
        ObfuscationConfig(mode="bag", style_epsilon=1.0)
    with pytest.raises(ValueError, match="style_epsilon must be a finite number > 0; got -1"):
        ObfuscationConfig(mode="text", style_epsilon=-1)
    with pytest.raises(ValueError, match="exclude each other"):
        ObfuscationConfig(mode="text", style_epsilon=1.0, perturb_stopwords=True)
    with pytest.raises(ValueError, match="style_epsilon applies to English text"):
        ObfuscationConfig(mode="text", style_epsilon=1.0, lang="fr")


def test_a_long_document_block_by_block(mech):
    r = release(mech, 1.0, block_words=1)
    assert r["style_words"] == 6 and "\ue000" not in r["text"] and "  " not in r["text"]
    assert r["epsilon_total"] == pytest.approx(2.0 * r["words_perturbed"] + 1.0 * 6)


@pytest.mark.parametrize(("text", "canonical"), [
    ("a  \t b\u00a0c", "a b c"),
    ("“q” ‘s’ «g» ＂", "\"q\" 's' \"g\" \""),
    ("a—b a -- b a – b", "a - b a - b a - b"),
    ("wait… wait.... wait . . .", "wait... wait... wait..."),
    ("no?! yes!!! why??", "no? yes! why?"),
    ("a,, b;; c::", "a, b; c:"),
    ("a , b . ( c ) [ d ]", "a, b. (c) [d]"),
    ("a  \r\n\r\n\r\n\r\n  b\rc", "a\n\nb\nc"),
    ("3.5 e.g. [NUM] don't", "3.5 e.g. [NUM] don't"),
])
def test_canonical_punctuation(text, canonical):
    assert canonical_punctuation(text) == canonical
    assert canonical_punctuation(canonical) == canonical  # idempotent


def test_the_content_words_draw_the_same_with_and_without_style(mech):
    # the style slots have a stream of their own: the content words' release is unchanged
    slots = [1, 2, 5, 7, 10]  # cat sat mat sat mat of "The cat sat on the mat, she sat ..."
    for seed in range(10):
        plain, styled = release(mech, None, seed=seed), release(mech, 1.0, seed=seed)
        assert plain["words_perturbed"] == styled["words_perturbed"] == len(slots)
        words = re.findall(r"\w+", plain["text"])
        styled_words = re.findall(r"\w+", styled["text"])
        assert [words[i] for i in slots] == [styled_words[i] for i in slots]


@pytest.mark.parametrize("name", ["madlib", "mahalanobis", "vickrey", "santext", "tem"])
def test_every_mechanism_keeps_the_class(name):
    from emprivacy.mechanisms.registry import make_mechanism
    from emprivacy.obfuscation.style import StyleRun

    emb = Embeddings(list(WORDS), [[v, (i % 3) * 0.5] for i, v in enumerate(WORDS.values())],
                     name="toy")
    run = StyleRun(make_mechanism(name, emb, epsilon=2.0), 0.5, run_key=b"k" * 32)
    for i in range(20):
        out = run.release("\ue000The\ue001 cat \ue000on\ue001 mat", run.generator(str(i)))
        det, cat, prep, mat = out.split(" ")
        assert det in ("The", "A", "This") and prep in ("on", "in", "under")
        assert (cat, mat) == ("cat", "mat")
    assert "Style option (style_epsilon=0.5)" in run.guarantee_note
