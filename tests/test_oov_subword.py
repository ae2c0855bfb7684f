"""``oov="subword"``: out-of-vocabulary words privatised from fastText subword vectors.

A tiny fastText model is trained here (skipgram, dim 8, n-grams of 2–4 characters) on a
generated corpus of made-up words; nothing is downloaded.  Training is not asserted to be
deterministic: every expected vector is read back from the trained model itself.
"""

from __future__ import annotations

import json
import logging
import math
import pickle
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from emprivacy import EarthMoversPrivacy, Embeddings, load_embeddings
from emprivacy.distributed import MechanismSettings, obfuscate_corpus
from emprivacy.embeddings.files import detect_format
from emprivacy.embeddings.model import OOV_PLACEHOLDER
from emprivacy.embeddings.subword import SubwordModel, header_has_subwords
from emprivacy.io.documents import Document
from emprivacy.io.outputs import format_record
from emprivacy.io.parquet_output import read_parquet_records
from emprivacy.mechanisms import WordMechanism
from emprivacy.mechanisms.registry import MECHANISMS, make_mechanism
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator

from .helpers import run_cli

fasttext = pytest.importorskip("fasttext")

SYLLABLES = ["ka", "lo", "mi", "ra", "to", "ne", "su", "pa", "vi", "do"]
#: Out-of-vocabulary "names" (no 'q', 'x' or 'z' in the training corpus): secrets.
NAMES = ["Zqxwell", "Qwazzix", "Xuzzerby"]
FRAGMENTS = ["zqxwell", "qwazzix", "xuzzerby"]


def leaked(output: str) -> list[str]:
    low = output.lower()
    return [s for s in FRAGMENTS if s in low]


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory) -> Path:
    """A fastText model trained on a generated corpus: ``model.bin`` (and the corpus)."""
    root = tmp_path_factory.mktemp("fasttext")
    gen = random.Random(7)
    vocab = sorted({"".join(gen.choice(SYLLABLES) for _ in range(gen.randint(2, 4)))
                    for _ in range(80)})
    lines = [" ".join(gen.choice(vocab) for _ in range(12)) for _ in range(400)]
    (root / "corpus.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    model = fasttext.train_unsupervised(str(root / "corpus.txt"), model="skipgram", dim=8,
                                        minCount=1, minn=2, maxn=4, epoch=5, thread=1,
                                        bucket=5000, verbose=0)
    model.save_model(str(root / "model.bin"))
    return root


@pytest.fixture(scope="module")
def model_path(model_dir: Path) -> Path:
    return model_dir / "model.bin"


@pytest.fixture(scope="module")
def ft(model_path: Path):
    return fasttext.load_model(str(model_path))


@pytest.fixture(scope="module")
def emb(model_path: Path) -> Embeddings:
    return load_embeddings(model_path, vocab_size=None)


def fasttext_vector(ft, word: str) -> np.ndarray:
    """fastText's own Vec(word), unscaled: the mean of its input-matrix rows (word and
    n-grams; ``get_word_vector`` of some builds scales it to unit length)."""
    _, ids = ft.get_subwords(word)
    return ft.get_input_matrix()[ids].astype(np.float64).mean(axis=0)


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def in_vocabulary_text(emb: Embeddings) -> str:
    return " ".join(emb.words[i] for i in (3, 1, 4, 1, 5, 9, 2, 6))


# -- loading ------------------------------------------------------------------------------
def test_fasttext_bin_is_detected_and_loaded(model_path: Path, ft, emb: Embeddings) -> None:
    assert detect_format(model_path) == "fasttext-binary"
    assert header_has_subwords(model_path)
    assert emb.subword is not None and emb.subword.min_n == 2 and emb.subword.max_n == 4
    assert emb.subword.bucket == 5000 and emb.dim == emb.subword.dim == 8
    # the real words of the model, most frequent first ("</s>" is not a word)
    assert list(emb.words) == [w for w in ft.words if w != "</s>"]
    for w in emb.words:
        expected = fasttext_vector(ft, w)
        np.testing.assert_allclose(emb.vector(w), expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(unit(emb.vector(w).astype(np.float64)),
                                   unit(ft.get_word_vector(w).astype(np.float64)),
                                   rtol=1e-4, atol=1e-5)
    small = load_embeddings(model_path, vocab_size=10)
    assert small.words == emb.words[:10] and small.subword is not None
    assert small.fingerprint != emb.fingerprint


def test_oov_vector_is_the_models_own(model_path: Path, ft, emb: Embeddings) -> None:
    from gensim.models.fasttext import load_facebook_vectors

    kv = load_facebook_vectors(str(model_path))
    words = [*(n.lower() for n in NAMES), "é漢字", "a", "kalomixx"]
    assert not any(w in emb for w in words)
    got = emb.subword_vectors(words)
    assert got.shape == (len(words), 8) and got.dtype == np.float32
    for w, v in zip(words, got, strict=True):
        np.testing.assert_allclose(v, fasttext_vector(ft, w), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(v, kv.get_vector(w), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(unit(v.astype(np.float64)),
                                   unit(ft.get_word_vector(w).astype(np.float64)),
                                   rtol=1e-4, atol=1e-5)


def test_subword_model_pickles_and_is_read_only(emb: Embeddings) -> None:
    back = pickle.loads(pickle.dumps(emb))
    assert back.fingerprint == emb.fingerprint and back.subword is not None
    np.testing.assert_array_equal(back.subword_vectors(["zqx"]), emb.subword_vectors(["zqx"]))
    assert not back.subword.ngram_vectors.flags.writeable
    assert not emb.subword.ngram_vectors.flags.writeable
    plain = Embeddings(emb.words, emb.vectors, name=emb.name)
    assert plain.subword is None and plain.fingerprint != emb.fingerprint


def test_other_formats_have_no_subword_model(tmp_path: Path) -> None:
    path = tmp_path / "emb.txt"
    path.write_text("cat 0 0\ndog 1 0\n", encoding="utf-8")
    text = load_embeddings(path)
    assert text.subword is None and not header_has_subwords(path)
    with pytest.raises(ValueError, match=r"^oov='subword' needs a fastText \.bin model with "
                                         r"subword vectors; 'emb\.txt' has none$"):
        text.lookup(["cow"], oov="subword")
    with pytest.raises(ValueError, match=r"'emb\.txt' has none"):
        EarthMoversPrivacy(text, epsilon=1.0).privatize_text("a cow", oov="subword")
    with pytest.raises(ValueError, match=r"'emb\.txt' has none"):
        Obfuscator(EarthMoversPrivacy(text, epsilon=1.0), ObfuscationConfig(oov="subword"))


def test_bad_subword_models() -> None:
    with pytest.raises(ValueError, match="min_n <= max_n"):
        SubwordModel(np.ones((3, 2)), min_n=4, max_n=3)
    with pytest.raises(TypeError, match="min_n must be an int"):
        SubwordModel(np.ones((3, 2)), min_n=2.0, max_n=3)
    with pytest.raises(ValueError, match="must be finite"):
        SubwordModel([[np.nan, 0.0]], min_n=1, max_n=2)
    with pytest.raises(ValueError, match="embedding dimension 2; got 3"):
        Embeddings(["a"], [[0.0, 0.0]], subword=SubwordModel(np.ones((3, 3)), min_n=1, max_n=2))
    with pytest.raises(TypeError, match="subword must be a SubwordModel"):
        Embeddings(["a"], [[0.0, 0.0]], subword="model.bin")


# -- the lookup ---------------------------------------------------------------------------
def toy(min_n: int = 2, max_n: int = 3) -> Embeddings:
    """Three 2-D words and a subword model with one bucket: every n-gram's row is (5, 5)."""
    return Embeddings(["cat", "dog", "met"], [[0, 0], [1, 0], [5, 5]], name="toy",
                      subword=SubwordModel([[5.0, 5.0]], min_n=min_n, max_n=max_n))


def test_lookup_subword_counts_towards_the_bag_size() -> None:
    emb = toy()
    bag = emb.lookup(["dog", "snape", "cat", "snape", "dog"], oov="subword")
    assert bag.indices.tolist() == [1, -1, 0, -1, 1]
    assert bag.oov_subword == 2 and bag.oov_dropped == bag.oov_placeholders == 0
    assert bag.fixed == ()
    np.testing.assert_array_equal(bag.points, [[5, 5], [5, 5]])
    # the size-th privatised word, subword words included
    cut = emb.lookup(["dog", "snape", "cat", "snape", "dog"], oov="subword", size=2)
    assert cut.indices.tolist() == [1, -1] and cut.oov_subword == 1
    assert emb.lookup(["dog", "cat"], oov="subword").points is None


def test_a_word_without_ngrams_becomes_a_placeholder() -> None:
    emb = toy(min_n=5, max_n=6)  # "<a>" has 3 characters: no n-gram of 5 or 6
    np.testing.assert_array_equal(emb.subword_vectors(["a"]), [[0.0, 0.0]])
    bag = emb.lookup(["a", "dog", "snapes"], oov="subword")
    assert bag.indices.tolist() == [1, -1] and bag.oov_subword == 1
    assert bag.fixed == (OOV_PLACEHOLDER,) and bag.oov_placeholders == 1
    out = EarthMoversPrivacy(emb, epsilon=1e9, rng=0).privatize_text("A dog, i.", oov="subword",
                                                                     perturb_stopwords=True)
    assert out == f"{OOV_PLACEHOLDER} dog, {OOV_PLACEHOLDER}."


# -- the mechanisms -----------------------------------------------------------------------
def test_supports_points_where_implemented() -> None:
    assert WordMechanism.supports_points is False
    supported = {name for name, cls in MECHANISMS.items() if cls.supports_points}
    assert {"madlib", "mahalanobis", "vickrey"} <= supported


@pytest.mark.parametrize(("name", "params"), [
    ("madlib", {}), ("mahalanobis", {}), ("vickrey", {"t": 0.5}),
    ("madlib", {"rank_resample": 0.5}), ("vickrey", {"t": 0.6, "rank_resample": 0.3}),
])
def test_points_of_vocabulary_words_release_like_their_rows(name: str, params: dict) -> None:
    emb = Embeddings([f"w{i}" for i in range(300)],
                     np.random.default_rng(5).normal(size=(300, 4)), name="medium")
    mech = make_mechanism(name, emb, epsilon=2.0, **params)
    idx = np.random.default_rng(1).integers(0, 300, 60)
    by_rows = mech.privatize_indices(idx, rng=np.random.default_rng(3))
    by_points = mech.privatize_points(emb.vectors[idx], rng=np.random.default_rng(3))
    np.testing.assert_array_equal(by_rows, by_points)
    # no -1: the very same call as before (byte-identical seeded outputs)
    mixed = mech.privatize_mixed(idx, None, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(mixed, by_rows)


def test_mixed_bag_is_one_call_in_bag_order() -> None:
    emb = toy()
    mech = EarthMoversPrivacy(emb, epsilon=0.7)
    idx = np.array([1, -1, 0, -1])
    pts = np.array([[4.0, 1.0], [-2.0, 3.0]])
    full = np.array([[1.0, 0.0], [4.0, 1.0], [0.0, 0.0], [-2.0, 3.0]])
    np.testing.assert_array_equal(mech.privatize_mixed(idx, pts, rng=np.random.default_rng(9)),
                                  mech.privatize_points(full, rng=np.random.default_rng(9)))
    with pytest.raises(ValueError, match="indices hold 2 -1 entries but points has 1 rows"):
        mech.privatize_mixed(idx, pts[:1])
    with pytest.raises(ValueError, match="points has 2 rows but indices hold no -1 entry"):
        mech.privatize_mixed([0, 1], pts)
    with pytest.raises(ValueError, match=r"points must have shape \(m, 2\)"):
        mech.privatize_points(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="points must be finite"):
        mech.privatize_points([[np.inf, 0.0]])


def test_a_subword_word_is_decoded_from_its_own_vector() -> None:
    # at a huge ε the noise vanishes: the released word is the vocabulary word nearest to
    # the subword vector (5, 5), "met" — the word went through the mechanism
    mech = EarthMoversPrivacy(toy(), epsilon=1e9, rng=0)
    assert mech.privatize_text("Snape met the dog", oov="subword") == "Met met the dog"
    obf = Obfuscator(mech, ObfuscationConfig(oov="subword"), seed=1)
    (record,) = obf.obfuscate([Document("d", "snape dog snape")])
    assert record["bag"] == ["dog", "met", "met"] and record["n_words"] == 3
    assert record["oov_subword"] == 2 and obf.oov_subword == 2


class NoPoints(WordMechanism):
    """A mechanism without :meth:`privatize_points` (the identity on rows)."""

    name = "nopoints"

    def privatize_indices(self, indices, *, rng=None):
        return self.check_indices(indices)


@pytest.mark.parametrize("name", ["nopoints", "tem", "santext"])
def test_mechanisms_without_points_say_so_before_any_work(name: str, monkeypatch) -> None:
    if name == "nopoints":
        mech: WordMechanism = NoPoints(toy(), epsilon=1.0)
    else:  # as before they implemented privatize_points
        monkeypatch.setattr(MECHANISMS[name], "supports_points", False)
        monkeypatch.setattr(MECHANISMS[name], "privatize_points",
                            WordMechanism.privatize_points)
        mech = make_mechanism(name, toy(), epsilon=1.0)
    with pytest.raises(ValueError, match=f"^mechanism '{name}' does not support --oov "
                                         "subword$"):
        Obfuscator(mech, ObfuscationConfig(oov="subword"))
    with pytest.raises(ValueError, match="does not support --oov subword"):
        mech.privatize_text("snape", oov="subword")
    with pytest.raises(NotImplementedError, match=f"mechanism '{name}' does not support"):
        mech.privatize_points(np.zeros((1, 2)))


# -- empirical privacy: an OOV point against vocabulary words -----------------------------
#: Three words in R^2; the out-of-vocabulary word's subword vector is P (one bucket).
DP_VECTORS = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.5]]
P = [0.6, 0.4]
M_DP = 100_000
Z = 4.0


@pytest.mark.parametrize("name", ["madlib", "mahalanobis", "vickrey", "tem", "santext"])
def test_empirical_metric_privacy_between_an_oov_point_and_vocabulary_words(name: str) -> None:
    """P̂[w | p] ≤ exp(ε·d(p, x))·P̂[w | x] + slack both ways, for each vocabulary word x and
    every output w; slack: Z standard errors (seeded, so deterministic)."""
    emb = Embeddings(["a", "b", "c"], DP_VECTORS, name="dp",
                     subword=SubwordModel([P], min_n=2, max_n=3))
    mech = make_mechanism(name, emb, epsilon=1.0)
    bag = emb.lookup(["zq"] * M_DP, oov="subword")  # the OOV word, M_DP times
    assert bag.oov_subword == M_DP
    freq_p = np.bincount(mech.privatize_mixed(bag.indices, bag.points,
                                              rng=np.random.default_rng(11)),
                         minlength=3) / M_DP
    ratios = []
    for x in range(3):
        freq_x = np.bincount(mech.privatize_indices(np.full(M_DP, x),
                                                    rng=np.random.default_rng(20 + x)),
                             minlength=3) / M_DP
        d = (mech.distance(np.asarray(P), emb.vectors[x]) if hasattr(mech, "distance")
             else np.linalg.norm(np.asarray(P) - emb.vectors[x]))  # exponential: Euclidean
        factor = math.exp(mech.epsilon * float(d))
        for a, b in ((freq_p, freq_x), (freq_x, freq_p)):
            slack = Z * np.sqrt((a * (1 - a) + factor**2 * b * (1 - b)) / M_DP) + 1 / M_DP
            assert np.all(a <= factor * b + slack), (x, a, b, factor)
            ok = (a > 0.01) & (b > 0.01)
            ratios.extend((a[ok] / b[ok]).tolist())
    assert max(ratios) > 1.2  # distinguishable, yet within the bound


# -- the library: bags, text, corpora -----------------------------------------------------
def secret_text(emb: Embeddings) -> str:
    w = emb.words
    return (f"{NAMES[0]} met {w[3]} and {w[5]}; {NAMES[1]} saw {w[1]} at 10, "
            f"{NAMES[2].upper()} {w[2]}.")


def test_bag_and_text_records(emb: Embeddings, caplog) -> None:
    mech = EarthMoversPrivacy(emb, epsilon=5.0)
    docs = [Document("s", secret_text(emb)), Document("v", in_vocabulary_text(emb))]
    caplog.set_level(logging.DEBUG)
    bag = list(Obfuscator(mech, ObfuscationConfig(oov="subword"), seed=3).obfuscate(docs))
    text = list(Obfuscator(mech, ObfuscationConfig(mode="text", oov="subword"),
                           seed=3).obfuscate(docs))
    vocab = set(emb.words)
    assert bag[0]["oov_subword"] >= 3  # the names, and the other words not in the model
    assert bag[0]["n_words"] == bag[0]["oov_subword"] + 4  # and its 4 vocabulary words
    assert set(bag[0]["bag"]) <= vocab and len(bag[0]["bag"]) == bag[0]["n_words"]
    assert bag[1]["oov_subword"] == 0 and bag[1]["n_words"] == 8
    assert text[0]["oov_subword"] >= 3 and text[0]["oov_placeholders"] == 0
    assert text[0]["words_perturbed"] == text[0]["n_words"]
    out = json.dumps(bag) + json.dumps(text) + caplog.text
    assert leaked(out) == []
    # the names' capitalisation is kept, their words are vocabulary words
    words = [t for t in text[0]["text"].replace(",", " ").replace(";", " ").replace(".", " ")
             .split() if t != "[NUM]"]
    assert words[0][0].isupper() and any(t.isupper() and len(t) > 1 for t in words)


def test_documents_without_oov_words_are_released_as_before(emb: Embeddings) -> None:
    mech = EarthMoversPrivacy(emb, epsilon=2.0)
    docs = [Document(f"d{i}", in_vocabulary_text(emb)) for i in range(3)]
    for mode, field, default in (("bag", "bag", "drop"), ("text", "text", "placeholder")):
        new = list(Obfuscator(mech, ObfuscationConfig(mode=mode, oov="subword"),
                              seed=5).obfuscate(docs))
        old = list(Obfuscator(mech, ObfuscationConfig(mode=mode, oov=default),
                              seed=5).obfuscate(docs))
        assert [r[field] for r in new] == [r[field] for r in old]
        assert all(r["oov_subword"] == 0 for r in new)
        assert all("oov_subword" not in r for r in old)  # other policies: records unchanged


def test_long_documents_in_blocks(emb: Embeddings) -> None:
    mech = EarthMoversPrivacy(emb, epsilon=2.0)
    doc = Document("long", " ".join([secret_text(emb)] * 5))
    for mode in ("bag", "text"):
        whole = next(Obfuscator(mech, ObfuscationConfig(mode=mode, oov="subword"),
                                seed=2).obfuscate([doc]))
        blocks = next(Obfuscator(mech, ObfuscationConfig(mode=mode, oov="subword",
                                                         block_words=4),
                                 seed=2).obfuscate([doc]))
        for key in ("n_words", "oov_subword", "oov_placeholders"):
            assert blocks[key] == whole[key], key
        assert leaked(json.dumps(blocks)) == []
    assert whole["oov_subword"] >= 15


def test_corpus_path_matches_the_obfuscator(tmp_path: Path, emb: Embeddings,
                                            model_path: Path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    texts = [secret_text(emb), in_vocabulary_text(emb), f"{NAMES[1]} {emb.words[0]}"]
    for i, t in enumerate(texts):
        (inputs / f"d{i}.txt").write_text(t, encoding="utf-8")
    settings = MechanismSettings(epsilon=3.0, embeddings=str(model_path), vocab_size=None)
    config = ObfuscationConfig(mode="text", oov="subword")
    out = tmp_path / "out.jsonl"
    summary = obfuscate_corpus([str(inputs)], out, mechanism=settings, config=config, seed=4)
    assert summary.documents_written == 3
    lines = out.read_text(encoding="utf-8").splitlines()
    docs = [Document(str(inputs / f"d{i}.txt"), t) for i, t in enumerate(texts)]
    expected = [format_record(r, "jsonl") for r in Obfuscator(
        settings.build(), config, seed=4).obfuscate(docs)]
    assert [json.loads(x)["text"] for x in lines] == [json.loads(x)["text"] for x in expected]
    counts = [json.loads(x)["oov_subword"] for x in lines]
    assert counts == [json.loads(x)["oov_subword"] for x in expected]
    assert counts[0] >= 3 and counts[1:] == [0, 1]
    assert leaked(out.read_text(encoding="utf-8")) == []


# -- the command line ---------------------------------------------------------------------
@pytest.fixture
def inputs(tmp_path: Path, emb: Embeddings) -> Path:
    d = tmp_path / "docs"
    d.mkdir()
    (d / "a.txt").write_text(secret_text(emb), encoding="utf-8")
    (d / "b.txt").write_text(in_vocabulary_text(emb) + f" {NAMES[2]}", encoding="utf-8")
    return d


def test_cli_jsonl_text_and_parquet(tmp_path: Path, inputs: Path, model_path: Path,
                                    emb: Embeddings, capsys) -> None:
    common = ["-e", "4", "--embeddings", str(model_path), "--oov", "subword", "--seed", "1"]
    out = tmp_path / "o.jsonl"
    code, stdout, err = run_cli(["obfuscate", str(inputs), *common, "-o", str(out)], capsys)
    assert code == 0 and stdout == ""
    records = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["oov"] for r in records] == ["subword", "subword"]
    total = sum(r["oov_subword"] for r in records)
    assert records[1]["oov_subword"] == 1 and records[1]["n_words"] == 9
    assert f"; {total} out-of-vocabulary word(s) privatised from subword vectors" in err
    assert all(set(r["bag"]) <= set(emb.words) for r in records)
    code, text, err2 = run_cli(["obfuscate", str(inputs / "a.txt"), *common, "--format",
                                "text"], capsys)
    assert code == 0 and text.count("[NUM]") == 1 and "[UNK]" not in text
    pout = tmp_path / "o.parquet"
    code, _, err3 = run_cli(["obfuscate", str(inputs), *common, "--readable", "-o", str(pout)],
                            capsys)
    assert code == 0
    rows = list(read_parquet_records(pout))
    assert [r["oov_subword"] for r in rows] == [records[0]["oov_subword"], 1]
    assert leaked(out.read_text(encoding="utf-8") + text + json.dumps(rows, default=str)
                  + err + err2 + err3) == []


def test_cli_workers_match_the_single_process(tmp_path: Path, inputs: Path, model_path: Path,
                                              capsys) -> None:
    common = ["-e", "4", "--embeddings", str(model_path), "--oov", "subword", "--seed", "1",
              "--vocab-size", "1000", "-q"]
    single, cluster = tmp_path / "s.jsonl", tmp_path / "c.jsonl"
    assert run_cli(["obfuscate", str(inputs), *common, "-o", str(single)], capsys)[0] == 0
    code, _, err = run_cli(["obfuscate", str(inputs), *common, "--workers", "2", "-o",
                            str(cluster)], capsys)
    assert code == 0, err
    assert cluster.read_text(encoding="utf-8") == single.read_text(encoding="utf-8")
    assert leaked(cluster.read_text(encoding="utf-8") + err) == []


@pytest.mark.parametrize("extra", [[], ["--workers", "2"], ["--format", "text"]])
def test_cli_subword_needs_a_fasttext_model(tmp_path: Path, inputs: Path, extra: list[str],
                                            capsys) -> None:
    emb_file = tmp_path / "emb.txt"
    emb_file.write_text("cat 0 0\ndog 1 0\n", encoding="utf-8")
    out = [] if "--format" in extra else ["-o", str(tmp_path / "o.jsonl")]
    for embeddings, name in ((["--embeddings", str(emb_file)], "emb.txt"),
                             ([], "glove-6b-50d")):
        code, stdout, err = run_cli(["obfuscate", str(inputs / "a.txt"), "-e", "1", "--oov",
                                     "subword", *embeddings, *extra, *out], capsys)
        assert code == 2 and stdout == ""
        assert err.strip() == ("emprivacy: error: oov='subword' needs a fastText .bin model "
                               f"with subword vectors; '{name}' has none")


@pytest.mark.parametrize("name", ["tem", "santext"])
def test_cli_mechanism_without_points(tmp_path: Path, inputs: Path, model_path: Path,
                                      name: str, capsys, monkeypatch) -> None:
    monkeypatch.setattr(MECHANISMS[name], "supports_points", False)
    code, stdout, err = run_cli(["obfuscate", str(inputs), "-e", "1", "--embeddings",
                                 str(model_path), "--oov", "subword", "--mechanism", name,
                                 "-o", str(tmp_path / "o.jsonl")], capsys)
    assert code == 2 and stdout == ""
    assert err.strip() == f"emprivacy: error: mechanism '{name}' does not support --oov subword"
    assert not (tmp_path / "o.jsonl").exists()


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_every_mechanism_with_points_runs_under_subword(name: str, emb: Embeddings) -> None:
    if not MECHANISMS[name].supports_points:
        pytest.skip(f"{name} does not implement privatize_points")
    mech = make_mechanism(name, emb, epsilon=3.0)
    for mode in ("bag", "text"):
        (record,) = Obfuscator(mech, ObfuscationConfig(mode=mode, oov="subword"),
                               seed=1).obfuscate([Document("s", secret_text(emb))])
        assert record["oov_subword"] >= 3 and leaked(json.dumps(record)) == []


def test_counter_of_subword_words(emb: Embeddings) -> None:
    obf = Obfuscator(EarthMoversPrivacy(emb, epsilon=1.0), ObfuscationConfig(oov="subword"),
                     seed=0)
    records = list(obf.obfuscate([Document(str(i), f"{NAMES[i]} {emb.words[i]}")
                                  for i in range(3)]))
    assert obf.oov_subword == sum(r["oov_subword"] for r in records) == 3
    assert Counter(r["n_words"] for r in records) == {2: 3}
