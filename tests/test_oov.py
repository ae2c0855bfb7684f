"""Out-of-vocabulary policies: no silent leak of names, numbers, URLs or e-mail addresses."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emprivacy import EarthMoversPrivacy, Embeddings, PrivacyLeakWarning
from emprivacy.embeddings.model import OOV_PLACEHOLDER
from emprivacy.io.documents import Document
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.preparation.template import PLACEHOLDERS
from emprivacy.text.tokens import bag_of_words, tokenize
from emprivacy.text.word_lists import STOPWORDS

from .helpers import run_cli

VOCAB = Embeddings(("met", "past", "harbour", "city", "house", "boat", "river"),
                   [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [6, 0]], name="tiny-oov")

# Names (not in any vocabulary here), numbers, URLs and e-mail addresses.
NAMES = ["Qwxzzyq", "Plorbington", "Zzvrax"]
SECRETS = [*NAMES, "4711", "3.1415", "21st", "https://secret.example.org/path?q=1",
           "www.hidden-site.net", "jane.doe+x@mail.example.com"]
TEXT = ("Qwxzzyq met Plorbington past the harbour at 4711 Zzvrax Road; pi is 3.1415 on the "
        "21st. See https://secret.example.org/path?q=1 or www.hidden-site.net, mail "
        "jane.doe+x@mail.example.com.")
SECRET_FRAGMENTS = ["qwxzzyq", "plorbington", "zzvrax", "4711", "1415", "21st", "secret",
                    "hidden", "jane", "doe+x"]


def leaked(output: str) -> list[str]:
    low = output.lower()
    return [s for s in SECRET_FRAGMENTS if s in low]


@pytest.fixture
def mech() -> EarthMoversPrivacy:
    return EarthMoversPrivacy(VOCAB, epsilon=1.0, rng=0)


# -- text mode ----------------------------------------------------------------------------
@pytest.mark.parametrize("oov", ["drop", "placeholder"])
@pytest.mark.parametrize("perturb_stopwords", [False, True])
@pytest.mark.parametrize("epsilon", [1e9, 0.5])
def test_text_mode_never_leaks_unless_keep(oov, perturb_stopwords, epsilon):
    mech = EarthMoversPrivacy(VOCAB, epsilon=epsilon, rng=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no PrivacyLeakWarning: nothing is released unchanged
        out = mech.privatize_text(TEXT, oov=oov, perturb_stopwords=perturb_stopwords)
    assert leaked(out) == []
    assert out.count("[NUM]") == 3 and out.count("[URL]") == 2 and out.count("[EMAIL]") == 1
    n_unk = out.count(OOV_PLACEHOLDER)
    # names, "road", "pi", "see", "mail" are out of the vocabulary; with perturbed stopwords
    # "the" (twice), "at", "is", "on", "or" too
    expected = 7 + (6 if perturb_stopwords else 0)
    assert n_unk == (expected if oov == "placeholder" else 0)


def test_text_mode_keep_warns_counts_and_still_replaces_numbers_urls_emails(mech):
    with pytest.warns(PrivacyLeakWarning, match=r"7 out-of-vocabulary word\(s\) released "
                                                r"unchanged") as record:
        out = mech.privatize_text(TEXT, oov="keep")
    for name in NAMES:
        assert name in out
    assert "4711" not in out and "1415" not in out and "21st" not in out
    assert "secret" not in out and "hidden" not in out and "jane" not in out
    assert out.count("[NUM]") == 3 and out.count("[URL]") == 2 and out.count("[EMAIL]") == 1
    message = str(record[0].message).lower()
    assert all(name.lower() not in message for name in NAMES)


def test_obfuscator_text_mode_counts_per_policy():
    docs = [Document("a", TEXT), Document("b", "The boat met the river.")]
    mech = EarthMoversPrivacy(VOCAB, epsilon=1e9)
    by_policy = {}
    for oov in ("drop", "placeholder"):
        obf = Obfuscator(mech, ObfuscationConfig(mode="text", oov=oov), seed=0)
        by_policy[oov] = list(obf.obfuscate(docs))
    with pytest.warns(PrivacyLeakWarning) as caught:
        obf = Obfuscator(mech, ObfuscationConfig(mode="text", oov="keep"), seed=0)
        by_policy["keep"] = list(obf.obfuscate([*docs, Document("c", TEXT)]))
    assert len(caught) == 1  # once per run, not per document
    assert obf.oov_kept == 14
    for oov, records in by_policy.items():
        a, b = records[0], records[1]
        assert a["oov"] == oov and a["words_perturbed"] == 3  # met, past, harbour
        assert (a["numbers"], a["urls"], a["emails"]) == (3, 2, 1)
        assert a["oov_dropped"] == (7 if oov == "drop" else 0)
        assert a["oov_placeholders"] == (7 if oov == "placeholder" else 0)
        assert a["oov_kept"] == (7 if oov == "keep" else 0)
        assert b["text"] == "The boat met the river."
        assert (leaked(a["text"]) == []) == (oov != "keep")
        assert "does not cover" in a["guarantee"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from(["met", "past", "harbour", "city", "the", "and", "of"]),
    st.text(alphabet="qxzjvkwy", min_size=3, max_size=9),  # unknown "names"
    st.from_regex(r"[0-9]{1,5}", fullmatch=True),
    st.from_regex(r"https://[a-z]{3,8}\.org/[a-z]{1,5}", fullmatch=True),
    st.from_regex(r"[a-z]{2,6}@[a-z]{2,6}\.com", fullmatch=True),
), min_size=1, max_size=15), st.sampled_from(["drop", "placeholder"]), st.booleans(),
    st.integers(0, 2**32 - 1))
def test_no_word_outside_the_vocabulary_is_ever_released(parts, oov, perturb, seed):
    """Every word of the output is a vocabulary word, a kept stopword or a placeholder."""
    text = " ".join(parts)
    out = EarthMoversPrivacy(VOCAB, epsilon=0.7).privatize_text(
        text, oov=oov, perturb_stopwords=perturb, rng=seed)
    allowed = set(VOCAB.words) | {"UNK", "NUM", "URL", "EMAIL", "SYM"}
    if not perturb:
        allowed |= STOPWORDS
    for tok in tokenize(out):
        assert tok.kind == "word" and tok.text in allowed
    for p in parts:
        if p not in VOCAB and p not in STOPWORDS:
            assert re.search(rf"(?<![\w@./]){re.escape(p)}(?![\w@])", out) is None


# -- bag mode -----------------------------------------------------------------------------
def prepare_bag(text, mech, **options):
    return mech.embeddings.lookup(bag_of_words(text), **options)


def test_prepare_bag_policies(mech):
    drop = prepare_bag(TEXT, mech)
    assert drop.indices.tolist() == [0, 1, 2] and drop.oov_dropped == 7 and drop.fixed == ()
    ph = prepare_bag(TEXT, mech, oov="placeholder")
    assert ph.fixed == (OOV_PLACEHOLDER,) * 7 and ph.oov_placeholders == 7 and ph.oov_dropped == 0
    keep = prepare_bag(TEXT, mech, oov="keep")
    assert keep.fixed == ("qwxzzyq", "plorbington", "zzvrax", "road", "pi", "see", "mail")
    assert keep.oov_kept == 7
    # truncation to N in-vocabulary words: OOV words after the N-th are not even looked at
    assert prepare_bag(TEXT, mech, oov="placeholder", size=1).oov_placeholders == 1
    with pytest.raises(ValueError, match="oov must be one of 'drop', 'placeholder', 'keep'"):
        prepare_bag(TEXT, mech, oov="skip")


def test_bag_mode_records_per_policy():
    mech = EarthMoversPrivacy(VOCAB, epsilon=1e9)
    docs = [Document("a", TEXT)]
    drop = next(Obfuscator(mech, seed=0).obfuscate(docs))
    # bags are released sorted (a multiset, so the εN·E guarantee applies)
    assert drop["bag"] == ["harbour", "met", "past"] and drop["oov"] == "drop"
    ph = next(Obfuscator(mech, ObfuscationConfig(oov="placeholder"), seed=0).obfuscate(docs))
    assert ph["bag"] == sorted(["met", "past", "harbour", *[OOV_PLACEHOLDER] * 7])
    assert ph["n_words"] == 3 and ph["epsilon_total"] == pytest.approx(3e9)
    with pytest.warns(PrivacyLeakWarning, match="does not cover them"):
        keep = next(Obfuscator(mech, ObfuscationConfig(oov="keep"), seed=0).obfuscate(docs))
    assert keep["oov_kept"] == 7 and "qwxzzyq" in keep["bag"]
    for r in (drop, ph):
        assert leaked(" ".join(r["bag"])) == []


@pytest.mark.parametrize("oov", ["drop", "placeholder", "keep"])
def test_bag_mode_all_oov_document_is_skipped_like_an_empty_one(oov):
    """Issue 22 (13): a bag with no word in the vocabulary is skipped with a warning that
    names it (never its words) and is counted, as an empty document is; it does not end
    the run.  Every document skipped: the one error."""
    from emprivacy.exceptions import InputError

    mech = EarthMoversPrivacy(VOCAB, epsilon=1.0)
    warned: list[str] = []
    skips: list[tuple[str, str]] = []
    obf = Obfuscator(mech, ObfuscationConfig(oov=oov), on_warning=warned.append,
                     on_skip=lambda doc_id, reason: skips.append((doc_id, reason)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyLeakWarning)
        records = list(obf.obfuscate([Document("x", "Qwxzzyq Zzvrax"), Document("e", " !! "),
                                      Document("y", "met the harbour")]))
    assert [r["id"] for r in records] == ["y"]
    assert warned == ["document 'x' has no word in the vocabulary of 'tiny-oov'; skipped",
                      "document 'e' is empty after normalisation; skipped"]
    assert skips == [("x", "out_of_vocabulary"), ("e", "empty")]
    assert (obf.documents_written, obf.documents_skipped,
            obf.documents_out_of_vocabulary) == (1, 2, 1)
    assert leaked(json.dumps(records)) == []
    with pytest.raises(InputError, match=r"^every input document has no word in the "
                       r"vocabulary of 'tiny-oov' \(1, first 'x'\); nothing to release$"):
        list(Obfuscator(mech, ObfuscationConfig(oov=oov)).obfuscate(
            [Document("x", "Qwxzzyq Zzvrax")]))
    with pytest.raises(InputError, match=r"^every input document is empty after "
                       r"normalisation or has no word in the vocabulary of 'tiny-oov' "
                       r"\(2, first 'e'\); nothing to release$"):
        list(Obfuscator(mech, ObfuscationConfig(oov=oov)).obfuscate(
            [Document("e", "..."), Document("x", "Qwxzzyq Zzvrax")]))


def test_placeholders_are_fixed_tokens():
    assert OOV_PLACEHOLDER == "[UNK]"
    assert PLACEHOLDERS == {"number": "[NUM]", "url": "[URL]", "email": "[EMAIL]",
                            "path": "[PATH]", "symbol": "[SYM]"}


# -- command line -------------------------------------------------------------------------
@pytest.fixture
def names_file(tmp_path: Path) -> Path:
    src = tmp_path / "names.txt"
    src.write_text(TEXT + "\n", encoding="utf-8")
    return src


@pytest.mark.parametrize(("fmt", "oov"), [("text", None), ("text", "drop"),
                                          ("text", "placeholder"), ("bag", None),
                                          ("bag", "placeholder"), ("jsonl", "drop")])
def test_cli_nothing_leaks_without_keep(names_file: Path, fmt, oov, capsys):
    argv = ["obfuscate", str(names_file), "-e", "1e7", "-f", fmt, "--seed", "0"]
    if oov is not None:
        argv += ["--oov", oov]
    code, out, err = run_cli(argv, capsys)
    assert code == 0
    assert leaked(out) == [] and leaked(err) == []
    assert "warning" not in err
    if fmt == "text":
        assert out.startswith(("[UNK] met [UNK] past the harbour at [NUM]",
                               " met  past the harbour at [NUM]"))


def test_cli_oov_keep_warns_once_on_stderr_without_naming_words(names_file: Path, capsys):
    code, out, err = run_cli(["obfuscate", str(names_file), "-e", "1e7", "-f", "text", "--oov",
                          "keep", "-q"], capsys)
    assert code == 0
    assert all(name in out for name in NAMES)
    assert "[NUM]" in out and "4711" not in out and "secret" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("emprivacy: warning: --oov keep")
    assert "does not cover" in lines[0]
    assert leaked(err) == []


def test_cli_oov_keep_jsonl_counts_and_summary(names_file: Path, tmp_path: Path, capsys):
    dest = tmp_path / "out.jsonl"
    code, out, err = run_cli(["obfuscate", str(names_file), "-e", "1e7", "-f", "jsonl", "--oov",
                          "keep", "-o", str(dest), "--seed", "2"], capsys)
    assert code == 0 and out == ""
    record = json.loads(dest.read_text(encoding="utf-8"))
    assert record["oov"] == "keep" and record["oov_kept"] > 0
    assert err.count("--oov keep releases") == 1
    assert f"{record['oov_kept']} out-of-vocabulary word(s) released unchanged" in err
    assert leaked(err) == []


def test_cli_bad_oov_value(names_file: Path, capsys):
    code, out, err = run_cli(["obfuscate", str(names_file), "-e", "1", "--oov", "maybe"], capsys)
    assert code == 2 and out == ""
    assert err.strip() == ("emprivacy: error: oov must be one of 'drop', 'placeholder', 'keep', "
                           "'subword'; "
                           "got 'maybe'")
