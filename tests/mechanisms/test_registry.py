"""The mechanisms by name, and what every nearest-word mechanism shares: streams, batches,
records, the rank-resampling option."""

from __future__ import annotations

import re
import sys
import types
from typing import ClassVar

import numpy as np
import pytest

from emprivacy import EarthMoversPrivacy, Embeddings
from emprivacy.math.randomness import document_generator
from emprivacy.mechanisms import (
    MECHANISMS,
    MahalanobisPrivacy,
    MechanismParameter,
    VickreyPrivacy,
    WordMechanism,
    make_mechanism,
    mechanism_parameters,
    parse_params,
    register,
    registry,
)

NEAREST_WORD = [
    ("madlib", {}),
    ("mahalanobis", {"lam": 0.5}),
    ("vickrey", {"t": 0.5}),
    ("vickrey", {"t": 0.75, "noise": "mahalanobis", "lam": 0.3}),
]
IDS = ["madlib", "mahalanobis", "vickrey", "vickrey-mhl"]


@pytest.fixture(scope="module")
def emb() -> Embeddings:
    gen = np.random.default_rng(0)
    vectors = (gen.normal(size=(120, 6)) * np.linspace(0.5, 2.0, 6)).astype(np.float32)
    return Embeddings([f"w{i}" for i in range(120)], vectors, name="rand")


# -- the registry ----------------------------------------------------------------------------
def test_registered_mechanisms():
    assert {"madlib", "mahalanobis", "vickrey"} <= set(MECHANISMS)
    assert MECHANISMS["madlib"] is EarthMoversPrivacy
    assert MECHANISMS["mahalanobis"] is MahalanobisPrivacy
    assert MECHANISMS["vickrey"] is VickreyPrivacy
    assert all(cls.name == name for name, cls in MECHANISMS.items())


@pytest.mark.parametrize(("name", "params"), NEAREST_WORD, ids=IDS)
def test_make_mechanism_builds_the_class(emb, name, params):
    mech = make_mechanism(name, emb, epsilon=2.0, rng=3, **params)
    assert type(mech) is MECHANISMS[name] and mech.epsilon == 2.0
    direct = MECHANISMS[name](emb, epsilon=2.0, rng=3, **params)
    np.testing.assert_array_equal(mech.privatize_indices(np.arange(50)),
                                  direct.privatize_indices(np.arange(50)))


def test_unknown_mechanism_and_parameter(emb):
    with pytest.raises(ValueError, match=r"^mechanism must be one of 'madlib', 'mahalanobis', "
                                         r"'vickrey'(, '[a-z]+')*; got 'laplace'$"):
        make_mechanism("laplace", emb, epsilon=1.0)
    with pytest.raises(ValueError, match=r"^unknown parameter 'lam' for mechanism 'madlib'; "
                                         r"its parameters are 'decoder', 'rank_resample'$"):
        make_mechanism("madlib", emb, epsilon=1.0, lam=0.2)
    with pytest.raises(ValueError, match=r"^unknown parameter 'beta' for mechanism 'vickrey'; "
                                         r"its parameters are 'decoder', 'lam', 'noise', "
                                         r"'rank_resample', 't'$"):
        make_mechanism("vickrey", emb, epsilon=1.0, beta=0.1)
    with pytest.raises(ValueError, match=r"^epsilon must be a finite number > 0; got -2\.0$"):
        make_mechanism("vickrey", emb, epsilon=-2.0)
    with pytest.raises(ValueError, match=r"^t must be a finite number in \[0, 1\]; got 3\.0$"):
        make_mechanism("vickrey", emb, epsilon=1.0, t=3.0)


def test_mechanism_parameters_names_defaults_and_help():
    params = {p.name: p for p in mechanism_parameters("vickrey")}
    assert list(params) == ["t", "noise", "lam", "decoder", "rank_resample"]
    assert params["t"].default == 0.75 and params["t"].annotation == "float"
    assert params["t"].help == "Weight of the second-nearest word: 0 never releases it, " \
                               "1 always does."
    assert params["noise"].default == "euclidean"
    assert params["rank_resample"].default is None
    assert params["rank_resample"].annotation == "float | None"
    for name in ("madlib", "mahalanobis", "vickrey"):
        for p in mechanism_parameters(name):
            assert isinstance(p, MechanismParameter) and p.help, (name, p)
    assert [p.name for p in mechanism_parameters("madlib")] == ["decoder", "rank_resample"]
    assert mechanism_parameters("mahalanobis")[0] == MechanismParameter(
        "lam", 0.2, "float", "λ, the weight of the vocabulary's covariance (0: Madlib).")


def test_parse_params():
    assert parse_params("vickrey", ["t=0.5", "noise=mahalanobis", "lam=1"]) == \
        {"t": 0.5, "noise": "mahalanobis", "lam": 1.0}
    assert parse_params("madlib", ["rank_resample=none"]) == {"rank_resample": None}
    assert parse_params("madlib", ["rank_resample=0.04", "decoder=approximate"]) == \
        {"rank_resample": 0.04, "decoder": "approximate"}
    assert parse_params("madlib", []) == {}
    with pytest.raises(ValueError, match=r"^t must be a number; got 'high'$"):
        parse_params("vickrey", ["t=high"])
    with pytest.raises(ValueError, match=r"^a mechanism parameter must be given as NAME=VALUE; "
                                         r"got 't'$"):
        parse_params("vickrey", ["t"])
    with pytest.raises(ValueError, match=r"^unknown parameter 'x' for mechanism 'madlib'"):
        parse_params("madlib", ["x=1"])
    with pytest.raises(ValueError, match=r"^parameter 't' of mechanism 'vickrey' is given "
                                         r"twice$"):
        parse_params("vickrey", ["t=0.1", "t=0.2"])
    with pytest.raises(ValueError, match=r"^epsilon is not a parameter of mechanism 'madlib'"):
        parse_params("madlib", ["epsilon=1"])


def test_parameter_parse_by_type():
    assert MechanismParameter("k", 3, "int", "").parse("7") == 7
    assert MechanismParameter("on", False, "bool", "").parse("yes") is True
    assert MechanismParameter("on", False, "bool", "").parse("off") is False
    assert MechanismParameter("name", "a", "str", "").parse("b") == "b"
    with pytest.raises(ValueError, match=r"^k must be an integer; got '1.5'$"):
        MechanismParameter("k", 3, "int", "").parse("1.5")


def test_register_is_open(monkeypatch, emb):
    monkeypatch.setattr(registry, "MECHANISMS", dict(MECHANISMS))

    class Identity(WordMechanism):
        """Releases the input (a test double, not private).

        Parameters
        ----------
        embeddings : Embeddings
            The vocabulary.
        epsilon : float
            Ignored.
        shift : int, default 0
            Rows to shift by.
        """

        name = "identity"

        def __init__(self, embeddings, *, epsilon, rng=None, shift: int = 0):
            super().__init__(embeddings, epsilon=epsilon, rng=rng)
            self.shift = shift

        def privatize_indices(self, indices, *, rng=None):
            return (self.check_indices(indices) + self.shift) % len(self.embeddings)

    assert register(Identity) is Identity
    assert register(Identity) is Identity  # twice: harmless
    assert registry.MECHANISMS["identity"] is Identity
    mech = make_mechanism("identity", emb, epsilon=1.0, shift=1)
    assert mech.privatize_indices([0, 119]).tolist() == [1, 0]
    assert [(p.name, p.default, p.help) for p in mechanism_parameters("identity")] == \
        [("shift", 0, "Rows to shift by.")]
    assert parse_params("identity", ["shift=2"]) == {"shift": 2}

    class Impostor(Identity):
        name = "madlib"

    with pytest.raises(ValueError, match=r"^mechanism name 'madlib' is taken by "
                                         r"EarthMoversPrivacy; got Impostor$"):
        register(Impostor)
    with pytest.raises(TypeError, match=r"^a mechanism must be a subclass of WordMechanism"):
        register(dict)  # type: ignore[arg-type]
    assert "identity" not in MECHANISMS  # the module's own registry was left alone


# -- shared behaviour of the nearest-word mechanisms -----------------------------------------------
@pytest.mark.parametrize(("name", "params"), NEAREST_WORD, ids=IDS)
def test_batches_equal_bag_by_bag(emb, name, params):
    """One decode for all bags, yet each bag's noise (and coins) from its own stream: the
    same words as bag by bag, whatever the batching."""
    mech = make_mechanism(name, emb, epsilon=1.0, **params)
    gen = np.random.default_rng(4)
    bags = [gen.integers(0, len(emb), size) for size in (1, 7, 30, 2, 12)]

    def streams():
        return [document_generator(b"k" * 32, f"doc-{i}") for i in range(len(bags))]

    one_by_one = [mech.privatize_indices(b, rng=g) for b, g in zip(bags, streams(), strict=True)]
    batched = mech.privatize_batches(list(zip(bags, streams(), strict=True)))
    for a, b in zip(one_by_one, batched, strict=True):
        np.testing.assert_array_equal(a, b)
    halves = (mech.privatize_batches(list(zip(bags[:2], streams()[:2], strict=True)))
              + mech.privatize_batches(list(zip(bags[2:], streams()[2:], strict=True))))
    for a, b in zip(one_by_one, halves, strict=True):
        np.testing.assert_array_equal(a, b)
    assert mech.privatize_batches([]) == []


@pytest.mark.parametrize(("name", "params"), NEAREST_WORD, ids=IDS)
def test_seeds_reproduce_and_the_default_stream_is_secure(emb, name, params):
    idx = np.arange(len(emb))
    run = lambda seed: make_mechanism(  # noqa: E731
        name, emb, epsilon=0.5, rng=seed, **params).privatize_indices(idx)
    np.testing.assert_array_equal(run(7), run(7))
    assert np.any(run(7) != run(8))
    mech = make_mechanism(name, emb, epsilon=0.5, **params)
    assert type(mech.rng.bit_generator).__name__ == "ChaCha"
    other = make_mechanism(name, emb, epsilon=0.5, **params)
    assert np.any(mech.privatize_indices(idx) != other.privatize_indices(idx))
    assert np.any(mech.privatize_indices(idx) != mech.privatize_indices(idx))  # one stream


@pytest.mark.parametrize(("name", "params"), NEAREST_WORD, ids=IDS)
def test_records_name_the_metric(emb, name, params):
    mech = make_mechanism(name, emb, epsilon=1.0, **params)
    fields = mech.record_fields()
    assert fields["decoder"] == "exact"
    if name != "madlib":  # madlib's records stay as they were (golden files)
        assert fields["mechanism"] == name and fields["metric"] == mech.metric
    assert mech.metric in ("euclidean", "mahalanobis")
    assert repr(mech).startswith(type(mech).__name__ + "(embeddings=")
    np.testing.assert_allclose(mech.distance(emb.vectors[0], emb.vectors[0]), 0.0)


@pytest.mark.parametrize(("name", "params"), NEAREST_WORD, ids=IDS)
def test_text_and_word_interfaces_work(emb, name, params):
    mech = make_mechanism(name, emb, epsilon=1e6, rng=0, **params)
    words = ["w3", "w7", "w3"]
    out = mech.privatize(words)
    assert len(out) == 3 and all(w in emb for w in out)
    if name != "vickrey":  # a huge ε keeps the words (Vickrey may release w₂)
        assert out == words
    assert isinstance(mech.privatize_text("w3 w7, w9!"), str)


# -- rank resampling ---------------------------------------------------------------------------
class FakeResampler:
    """Stand-in with RankResampler's interface: shifts each pivot by a random 0…2."""

    built: ClassVar[list[tuple]] = []

    def __init__(self, embeddings, *, c, epsilon, top_k=None):
        FakeResampler.built.append((embeddings, c, epsilon))
        self.n = len(embeddings)

    def resample(self, pivots, rng):
        return (np.asarray(pivots) + rng.integers(0, 3, size=len(pivots))) % self.n

    def resample_many(self, parts, rngs):
        """RankResampler.resample_many's contract: resample, part by part, with its rng
        (tests/mechanisms/test_curse.py checks the real one against it)."""
        return [self.resample(p, r) for p, r in zip(parts, rngs, strict=True)]


@pytest.mark.parametrize(("name", "params"), NEAREST_WORD, ids=IDS)
def test_rank_resample_is_applied_per_bag_after_decoding(emb, name, params, monkeypatch):
    fake = types.ModuleType("emprivacy.mechanisms.curse")
    fake.RankResampler = FakeResampler  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "emprivacy.mechanisms.curse", fake)
    FakeResampler.built.clear()
    plain = make_mechanism(name, emb, epsilon=1.0, **params)
    mech = make_mechanism(name, emb, epsilon=1.0, rank_resample=0.04, **params)
    assert mech.record_fields()["rank_resample"] == 0.04
    assert "rank_resample" not in plain.record_fields()
    assert "rank_resample=0.04" in repr(mech)
    gen = np.random.default_rng(5)
    bags = [gen.integers(0, len(emb), size) for size in (4, 9, 1)]
    out = mech.privatize_batches([(b, document_generator(b"r" * 32, str(i)))
                                  for i, b in enumerate(bags)])
    assert len(FakeResampler.built) == 1  # built once, lazily
    assert FakeResampler.built[0] == (emb, 0.04, 1.0)
    for i, (b, o) in enumerate(zip(bags, out, strict=True)):
        g = document_generator(b"r" * 32, str(i))
        decoded = plain.privatize_indices(b, rng=g)  # noise (and coins) first ...
        np.testing.assert_array_equal(o, FakeResampler(emb, c=0.04, epsilon=1.0)
                                      .resample(decoded, g))  # ... then the resampling
    assert mech.rank_resampler is mech.rank_resampler and plain.rank_resampler is None


@pytest.mark.parametrize(("name", "params"), NEAREST_WORD[:3], ids=IDS[:3])
def test_rank_resample_with_the_real_resampler(emb, name, params):
    from emprivacy.mechanisms.curse import RankResampler

    mech = make_mechanism(name, emb, epsilon=2.0, rank_resample=0.5, **params)
    plain = make_mechanism(name, emb, epsilon=2.0, **params)
    idx = np.arange(40)
    out = mech.privatize_indices(idx, rng=np.random.default_rng(3))
    g = np.random.default_rng(3)
    expected = RankResampler(emb, c=0.5, epsilon=2.0).resample(
        plain.privatize_indices(idx, rng=g), g)
    np.testing.assert_array_equal(out, expected)
    assert isinstance(mech.rank_resampler, RankResampler)


@pytest.mark.parametrize("value", [0, -0.5, float("nan")])
def test_bad_rank_resample(emb, value):
    msg = f"rank_resample must be None or a finite number > 0; got {float(value)!r}"
    for cls in (EarthMoversPrivacy, MahalanobisPrivacy, VickreyPrivacy):
        with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
            cls(emb, epsilon=1.0, rank_resample=value)
    with pytest.raises(TypeError, match=r"^rank_resample must be None or a finite number > 0; "
                                        r"got '1' of type str$"):
        EarthMoversPrivacy(emb, epsilon=1.0, rank_resample="1")
