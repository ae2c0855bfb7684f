"""What text mode releases verbatim, and the claims about it (issue 22, items 2–4).

* Item 3: only an allow-list of pure function words is released as it is — never an
  acronym (``US``, ``IT``), a Title-case name homograph (``May``, ``Will``), an initial
  (``D``), a clitic fragment standing alone (``s``, ``re``, ``ca``) or a function word that
  also carries content (``down``, ``near``).
* Item 4: URLs (any scheme, any case, bare domains), e-mail addresses (``user@host``, any
  host) and file paths (Windows and POSIX) are placeholders, never words: checked on
  hypothesis-generated locators built of vocabulary words, at ε = 1000, where every
  vocabulary word that does go through the mechanism comes back as itself.
* Item 2: with a cased vocabulary the lookup is case-aware, so a word is out of the
  vocabulary only if no vocabulary word matches it in any casing, and the word released
  for an out-of-vocabulary word is never that word, in any casing.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emprivacy import EarthMoversPrivacy, Embeddings, bag_of_words, load_embeddings
from emprivacy.preparation.template import PLACEHOLDERS, prepare_text
from emprivacy.text.normalise import normalise_word
from emprivacy.text.tokens import tokenize
from emprivacy.text.word_lists import (
    CLITIC_STEMS,
    CLITICS,
    KEPT_FUNCTION_WORDS,
    LOWERCASE_ONLY,
    STOPWORDS,
    top_level_domains,
)

from .helpers import run_cli

# -- item 3: the words kept verbatim ------------------------------------------------------
#: What the audit of issue 22 saw released verbatim at ε = 0.01.
AUDIT_LEAKS = ("US", "IT", "WHO", "AM", "CA", "SHA", "Per", "Re", "down", "near", "Does",
               "D", "M", "S", "T")
#: Function words that also carry content: perturbed in text mode, in every casing.
CONTENT_HOMOGRAPHS = ("down", "near", "inside", "outside", "mine", "own", "still", "till",
                      "am", "re")
FRAGMENTS = ("s", "t", "d", "m", "ll", "re", "ve", "ca", "wo", "sha", "n't")
SLOT = "qqslot"


def verbatim(text: str, emb: Embeddings) -> list[tuple[str, bool]]:
    """Each word token of ``text`` with whether text mode released it as it is (every slot
    is rendered as the marker word ``qqslot``; the tokens align one to one)."""
    template = prepare_text(text, emb)
    out = template.render([0] * template.words_perturbed, [SLOT])
    toks_in = [t for t in tokenize(text) if t.kind == "word"]
    toks_out = [t for t in tokenize(out) if t.kind == "word"]
    assert len(toks_in) == len(toks_out), (text, out)
    pairs = []
    for a, b in zip(toks_in, toks_out, strict=True):
        placeholder = out[b.start - 1:b.start] == "[" and out[b.end:b.end + 1] == "]"
        kept = normalise_word(b.text) != SLOT and not placeholder
        if kept:  # ("[UNK]'re" reads as "UNK", "re": a clitic after a placeholder)
            # a kept clitic may come out in another case ("when'T" → "whe" + "n't")
            same = b.text == a.text or (normalise_word(a.text) in CLITICS
                                        and b.text.lower() == a.text.lower())
            assert same or (a.text[0] in "'’" and b.text == a.text[1:])
        pairs.append((a.text, kept))
    return pairs


def _vocabulary(words: set[str]) -> Embeddings:
    ordered = sorted(words | {SLOT})
    return Embeddings(ordered, [[float(i), 0.0] for i in range(len(ordered))], name="claims")


#: Every word the property below may generate is in this vocabulary: none is out of it.
HOMOGRAPH_VOCAB = _vocabulary(set(STOPWORDS) | {"harbour", "ferry", "smith"}
                              | set(CONTENT_HOMOGRAPHS) | set("abcdefghijklmnopqrstuvwxyz"))


def test_the_allow_list_is_function_words_only() -> None:
    assert KEPT_FUNCTION_WORDS <= STOPWORDS  # bags drop every word text mode keeps
    assert LOWERCASE_ONLY <= KEPT_FUNCTION_WORDS
    assert not KEPT_FUNCTION_WORDS & set(CONTENT_HOMOGRAPHS)
    assert not KEPT_FUNCTION_WORDS & (set(FRAGMENTS) | CLITICS | CLITIC_STEMS)
    assert {w for w in KEPT_FUNCTION_WORDS if len(w) == 1} == {"a", "i"}
    assert {"us", "it", "who", "may", "will", "can", "per", "does"} <= LOWERCASE_ONLY
    # what the list must still hold for text to stay readable
    assert {"the", "and", "of", "a", "i", "is", "was", "to", "in", "that"} <= KEPT_FUNCTION_WORDS


def test_the_audits_words_are_not_kept() -> None:
    text = " ".join(AUDIT_LEAKS) + ". The cat and a dog."
    pairs = verbatim(text, HOMOGRAPH_VOCAB)
    assert [w for w, kept in pairs if kept] == ["The", "and", "a"]


@pytest.mark.parametrize(("text", "kept"), [
    ("A. Smith and I. Jones met a friend; I left", ["and", "a", "I"]),
    ("don't", ["do", "n't"]), ("Don't", ["Do", "n't"]), ("can't", ["ca", "n't"]),
    ("WON'T", ["WO", "N'T"]), ("shan’t", ["sha", "n’t"]), ("she's", ["she", "'s"]),
    ("Smith's", ["'s"]), ("I'll", ["I", "'ll"]), ("we'd", ["we", "'d"]),
    ("s t d m ll re ve ca wo sha n't", []), ("o' s ' t", []),
    ("D. M. Smith", []), ("I am", ["I"]), ("A cat", ["A"]),
    ("us It WHO who Who", ["us", "who"]), ("May may MAY will Will", ["may", "will"]),
    ("THE The the tHe", ["The", "the"]), ("Per per PER re Re", ["per"]),
    ("down Down near Near still own mine till", []),
    ("US's", ["'s"]), ("can CAN Can can't", ["can", "ca", "n't"]),
])
def test_which_words_are_kept(text: str, kept: list[str]) -> None:
    assert [w for w, k in verbatim(text, HOMOGRAPH_VOCAB) if k] == kept


CASINGS = st.sampled_from([str.lower, str.upper, str.title, str.swapcase])
HOMOGRAPH_WORDS = st.one_of(
    st.sampled_from(sorted(KEPT_FUNCTION_WORDS)),
    st.sampled_from(CONTENT_HOMOGRAPHS + FRAGMENTS + ("harbour", "smith")),
    st.sampled_from("abcdefghijklmnopqrstuvwxyz"),
)
SEPARATORS = st.sampled_from([" ", "  ", ", ", ". ", "'", "’", "\n", " - ", "—"])


def _allowed(surface: str, before: str, after: str, following: str) -> bool:
    """The specification of issue 22, independently of the implementation's structure."""
    word = normalise_word(surface)
    cased = [c for c in surface if c.isalpha()]
    if word in CLITICS:  # attached to the word before it
        return before[-1:].isalpha()
    if word in CLITIC_STEMS:  # the stem of can't, won't, shan't
        return normalise_word(after) == "n't"
    if word not in KEPT_FUNCTION_WORDS:
        return False
    if surface in ("A", "I") and following.startswith("."):  # an initial: A. Smith
        return False
    if surface == surface.lower():
        return True
    title = cased[0].isupper() and all(c.islower() for c in cased[1:])
    return title and word not in LOWERCASE_ONLY


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(HOMOGRAPH_WORDS, CASINGS, SEPARATORS), min_size=1, max_size=15))
def test_property_only_allow_listed_function_words_are_kept(parts) -> None:
    text = "".join(case(w) + sep for w, case, sep in parts)
    toks = [t for t in tokenize(text) if t.kind == "word"]
    pairs = verbatim(text, HOMOGRAPH_VOCAB)
    for i, (surface, kept) in enumerate(pairs):
        before = text[:toks[i].start] if i == 0 or toks[i - 1].end != toks[i].start else \
            toks[i - 1].text
        after = toks[i + 1].text if i + 1 < len(toks) and toks[i + 1].start == toks[i].end \
            else ""
        following = text[toks[i].end:]
        assert kept == _allowed(surface, before, after, following), (text, surface)
        if kept:
            assert len(surface) == 1 or surface.upper() != surface or normalise_word(
                surface) in CLITICS | CLITIC_STEMS  # ALL CAPS only in a contraction


def test_perturb_stopwords_keeps_nothing() -> None:
    template = prepare_text("The US and IT can't", HOMOGRAPH_VOCAB, perturb_stopwords=True)
    assert template.counts["stopwords_kept"] == 0 and template.words_perturbed == 6


def test_default_embeddings_release_none_of_the_audits_words(default_embeddings) -> None:
    """The audit's run: at ε = 0.01 none of its words comes back in its place, while the
    function words around them stay (a word that goes through the mechanism at this ε is
    itself with probability about 1/V)."""
    text = " ".join(AUDIT_LEAKS) + ". The cat and a dog."
    mech = EarthMoversPrivacy(default_embeddings, epsilon=0.01)
    for seed in range(5):
        out = mech.privatize_text(text, rng=seed)
        words = [t.text for t in tokenize(out) if t.kind == "word"]
        assert words[:len(AUDIT_LEAKS)] != list(AUDIT_LEAKS)
        assert not set(words[:len(AUDIT_LEAKS)]) & set(AUDIT_LEAKS), out
        assert out.endswith(". The " + words[-4] + " and a " + words[-1] + ".")


def test_bags_drop_stopwords_as_before() -> None:
    # bag mode keeps the paper's preprocessing: every stopword is dropped, whatever its case
    assert bag_of_words("US IT down near the harbour, D. Smith's ferry") == [
        "harbour", "smith", "ferry"]


# -- item 4: URLs, e-mail addresses, paths ------------------------------------------------
#: The words locators are made of, all in the vocabulary (with the plain words around them).
COMPONENTS = ("alice", "bob", "secret", "home", "users", "files", "example", "notes",
              "server", "share", "docs", "private", "report", "carol", "backup")
SCHEMES = ("http", "https", "ftp", "file", "sftp", "ssh", "smb", "git", "svn", "webdav")
TLDS = ("com", "net", "org", "uk", "de", "io", "info", "museum", "fr", "jp")
PLAIN = ("harbour", "ferry")
LOCATOR_VOCAB = _vocabulary(set(COMPONENTS) | set(SCHEMES) | set(TLDS) | set(PLAIN)
                            | {"www", "localhost", "c", "d", "q"})

component = st.sampled_from(COMPONENTS)
segments = st.lists(component, min_size=1, max_size=4)
host = st.builds(lambda labels, tld: ".".join([*labels, tld]),
                 st.lists(component, min_size=1, max_size=3), st.sampled_from(TLDS))
tail = st.one_of(st.just(""), st.just("/"),
                 segments.map(lambda s: "/" + "/".join(s)),
                 st.builds(lambda s, q: "/" + "/".join(s) + "?q=" + q, segments, component))

LOCATORS = st.one_of(
    # any scheme with ://
    st.builds(lambda sc, h, t: f"{sc}://{h}{t}", st.sampled_from(SCHEMES),
              st.one_of(host, component, st.just("localhost")), tail),
    st.builds(lambda s: "file:///" + "/".join(s), segments),
    st.builds(lambda h, t: f"www.{h}{t}", host, tail),
    # bare domains, with a port sometimes
    st.builds(lambda h, port, t: f"{h}{port}{t}", host, st.sampled_from(["", ":8080"]), tail),
    # user@host, any host
    st.builds(lambda u, h: f"{u}@{h}", st.one_of(component, st.builds(
        lambda a, b: f"{a}.{b}", component, component)),
        st.one_of(host, component, st.just("localhost"))),
    st.builds(lambda u, h: f"mailto:{u}@{h}", component, host),
    # Windows paths
    st.builds(lambda d, s, sep: f"{d}:{sep}" + sep.join(s), st.sampled_from("CDcq"), segments,
              st.sampled_from(["\\", "/"])),
    st.builds(lambda a, s: "\\\\" + a + "\\" + "\\".join(s), component, segments),
    st.builds(lambda a, s: a + "\\" + "\\".join(s), component, segments),
    # POSIX paths
    st.builds(lambda s, end: "/" + "/".join(s) + end, segments, st.sampled_from(["", "/"])),
    st.builds(lambda p, s: p + "/".join(s), st.sampled_from(["~/", "./", "../"]), segments),
    st.builds(lambda u, s: f"~{u}/" + "/".join(s), component, segments),
)


def _released_words(out: str) -> set[str]:
    for placeholder in (*PLACEHOLDERS.values(), "[UNK]"):
        out = out.replace(placeholder, " ")
    return {w.lower() for w in re.findall(r"[^\W\d_]+", out)}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LOCATORS, CASINGS,
       # prefixes that a look-behind must not mistake for the middle of a locator
       st.sampled_from(["", "(", "<", "\"", "'", "-", "_", "--"]),
       st.sampled_from(["", ".", ",", ")", ";", "!", "?", ":", ">", "\"", "'"]),
       st.integers(0, 2**32 - 1))
def test_property_locators_are_never_released(locator, case, opening, closing, seed) -> None:
    locator = case(locator)
    text = f"harbour {opening}{locator}{closing} ferry"
    out = EarthMoversPrivacy(LOCATOR_VOCAB, epsilon=1000).privatize_text(text, rng=seed)
    released = _released_words(out)
    assert {"harbour", "ferry"} <= released  # the non-identity check: words do come back
    leaked = released & (set(COMPONENTS) | set(SCHEMES) | set(TLDS) | {"www", "localhost"})
    assert not leaked, (text, out)
    assert re.search(r"\[(URL|EMAIL|PATH)\]", out), (text, out)
    assert set(bag_of_words(text)) == {"harbour", "ferry"}  # bags hold no locator either


@pytest.mark.parametrize(("text", "placeholder"), [
    ("alice.example.com", "[URL]"), ("WWW.EXAMPLE.COM", "[URL]"),
    ("ftp://files.example.net/", "[URL]"), ("file:///home/alice/secret", "[URL]"),
    ("HTTPS://EXAMPLE.ORG/ALICE", "[URL]"), ("C:\\Users\\alice\\secret", "[PATH]"),
    ("bob@localhost", "[EMAIL]"), ("\\\\server\\share\\alice", "[PATH]"),
    ("/home/alice/secret", "[PATH]"), ("~/notes/secret", "[PATH]"),
    ("münchen.de", "[URL]"), ("example.co.uk:8080/alice", "[URL]"),
    # a chain of labels is one locator from its start, whatever its labels look like
    ("a_.alice.example.com", "[URL]"), ("_srv.alice.example.com", "[URL]"),
    ("x-.alice.example.com", "[URL]"),
    # a UNC path with forward slashes, paths under an environment variable
    ("//server/share/alice", "[PATH]"), ("$HOME/alice/secret", "[PATH]"),
    ("${HOME}/alice", "[PATH]"), ("%USERPROFILE%\\alice\\secret", "[PATH]"),
])
def test_the_audits_locators_are_placeholders(text: str, placeholder: str) -> None:
    out = EarthMoversPrivacy(LOCATOR_VOCAB, epsilon=1000).privatize_text(
        f"harbour {text}. ferry", rng=0)
    assert out == f"harbour {placeholder}. ferry"


def test_prose_is_not_a_locator() -> None:
    kinds = {t.text: t.kind for t in tokenize(
        "and/or he/she 24/7 e.g. i.e. U.S. a.m. cat/dog rock'n'roll the end. Then")}
    assert set(kinds.values()) <= {"word", "number"}
    assert {"com", "org", "de", "uk", "it", "io"} <= top_level_domains()


def test_cli_locators_become_placeholders(tmp_path: Path, capsys) -> None:
    emb = tmp_path / "emb.txt"
    emb.write_text("".join(f"{w} {i} 0\n" for i, w in enumerate(LOCATOR_VOCAB.words)),
                   encoding="utf-8")
    doc = tmp_path / "a.txt"
    doc.write_text("harbour alice.example.com WWW.EXAMPLE.COM ftp://files.example.net/ "
                   "file:///home/alice/secret C:\\Users\\alice\\secret bob@localhost ferry\n",
                   encoding="utf-8")
    code, out, err = run_cli(["obfuscate", str(doc), "-e", "1000", "--embeddings", str(emb),
                              "--format", "text", "-q"], capsys)
    assert code == 0, err
    assert out == "harbour [URL] [URL] [URL] [URL] [PATH] [EMAIL] ferry\n"


# -- item 2: cased vocabularies -------------------------------------------------------------
SYLLABLES = ["ka", "lo", "mi", "ra", "to", "ne", "su", "pa", "vi", "do"]


@pytest.fixture(scope="module")
def cased_model(tmp_path_factory) -> Embeddings:
    """A fastText model whose vocabulary keeps case: ``Zqxwell`` only capitalised, ``Paris``
    and ``paris`` both, the rest lower case."""
    fasttext = pytest.importorskip("fasttext")
    root = tmp_path_factory.mktemp("fasttext-cased")
    gen = random.Random(11)
    made_up = {"".join(gen.choice(SYLLABLES) for _ in range(gen.randint(2, 4))) for _ in range(60)}
    vocab = [*sorted(made_up), "Zqxwell", "Paris", "paris"]
    lines = [" ".join(gen.choice(vocab) for _ in range(12)) for _ in range(400)]
    (root / "corpus.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    model = fasttext.train_unsupervised(str(root / "corpus.txt"), model="skipgram", dim=8,
                                        minCount=1, minn=2, maxn=4, epoch=5, thread=1,
                                        bucket=5000, verbose=0)
    model.save_model(str(root / "model.bin"))
    emb = load_embeddings(root / "model.bin", vocab_size=None)
    assert emb.cased and "Zqxwell" in emb and "zqxwell" not in emb
    return emb


def test_a_cased_vocabulary_is_searched_in_any_casing(cased_model: Embeddings) -> None:
    emb = cased_model
    z, big, small = emb.index_of("Zqxwell"), emb.index_of("Paris"), emb.index_of("paris")
    assert emb.rows(["Zqxwell", "zqxwell", "ZQXWELL", "Paris", "paris", "PARIS", "qqq"]
                    ).tolist() == [z, z, z, big, small, small, -1]
    assert emb.get_index("zQxWeLl") == z and emb.get_index("qqq") == -1
    # text mode looks up the word as written first; bags (lowercased) find it too
    template = prepare_text("Zqxwell zqxwell ZQXWELL Paris paris PARIS", emb, oov="subword")
    assert template.indices.tolist() == [z, z, z, big, small, small]
    assert template.counts["oov_subword"] == 0 and template.points is None
    bag = emb.lookup(bag_of_words("Zqxwell met ZQXWELL"), oov="subword")  # met: unknown
    assert bag.indices.tolist() == [z, -1, z] and bag.oov_subword == 1


def test_an_unknown_word_is_never_released_as_itself(cased_model: Embeddings) -> None:
    """The claim of docs/TEXT_MODE.md: a word is out of the vocabulary only if no
    vocabulary word matches it in any casing, so what is released for it (a vocabulary
    word) is never the word itself, in any casing — at any ε."""
    emb = cased_model
    words = ["Zqxwell", "zqxwell", "ZQXWELL", "Zqxwel", "Qwazzix", "Xuzzerby", "Pariss",
             "Kalomi", "kalomiq"]
    for epsilon in (1000.0, 1.0):
        mech = EarthMoversPrivacy(emb, epsilon=epsilon)
        for seed in range(5):
            for word in words:
                template = prepare_text(word, emb, oov="subword")
                rows = mech.privatize_mixed(template.indices, template.points,
                                            rng=np.random.default_rng(seed))
                out = template.render(rows, emb.words)
                if template.indices.tolist() == [-1]:  # privatised from its subword vector
                    assert out.lower() != word.lower(), (word, out)
                else:
                    assert emb.words[template.indices[0]].lower() == word.lower()
