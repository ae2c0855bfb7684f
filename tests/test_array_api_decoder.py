"""The exact decoder on the array API (:class:`ArrayAPIDecoder`): ExactDecoder's decisions.

Checked on NumPy and on ``array-api-strict`` (the standard and nothing more), the two
array libraries the CPU suite has; CuPy and PyTorch take the same code path on a GPU.
"""

from __future__ import annotations

import sys
import types

import array_api_strict
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emprivacy import Embeddings, Obfuscator
from emprivacy.decoding import ArrayAPIDecoder, Decoder, ExactDecoder, Top2Decoder, array_api
from emprivacy.distributed import MechanismSettings
from emprivacy.io.documents import Document
from emprivacy.mechanisms import EarthMoversPrivacy, make_mechanism

from .helpers import input_env, integer_grid, make_embeddings, run_cli, with_duplicates

NAMESPACES = [pytest.param(np, id="numpy"), pytest.param(array_api_strict, id="strict")]
#: Tile shapes (queries per batch, words per tile): the defaults, and shapes no size divides.
SHAPES = [(None, None), (7, 13), (64, 5), (40, 1), (50, 10_000)]


def assert_top2_equal(got, ref):
    for g, r in zip(got, ref, strict=True):
        np.testing.assert_array_equal(g, r)
        assert g.dtype == r.dtype


def random_case(seed: int, V: int = 211, n: int = 9, m: int = 160):
    gen = np.random.default_rng(seed)
    W = gen.normal(size=(V, n)) * 3
    Z = W[gen.integers(0, V, m)] + gen.normal(size=(m, n)) * gen.uniform(0.1, 6, (m, 1))
    return make_embeddings(W), Z


# -- the same decisions as ExactDecoder --------------------------------------------------
@pytest.mark.parametrize("xp", NAMESPACES)
@pytest.mark.parametrize(("batch_rows", "block_cols"), SHAPES)
def test_random_queries_decide_as_exact_decoder(xp, batch_rows, block_cols):
    emb, Z = random_case(11)
    dec = ArrayAPIDecoder(emb, namespace=xp, batch_rows=batch_rows, block_cols=block_cols)
    exact = ExactDecoder(emb, n_threads=1)
    out = dec.decode(Z)
    assert out.dtype == np.int64 and out.shape == (len(Z),)
    np.testing.assert_array_equal(out, exact.decode(Z))
    assert_top2_equal(dec.decode_top2(Z), exact.decode_top2(Z))


@pytest.mark.parametrize("xp", NAMESPACES)
def test_float32_queries_decide_as_exact_decoder(xp):
    emb, Z = random_case(12)
    Z32 = Z.astype(np.float32)
    np.testing.assert_array_equal(ArrayAPIDecoder(emb, namespace=xp, block_cols=50).decode(Z32),
                                  ExactDecoder(emb).decode(Z32))


@pytest.mark.parametrize("xp", NAMESPACES)
@settings(max_examples=25, deadline=None)
@given(st.integers(2, 30), st.integers(1, 3), st.integers(1, 20), st.integers(1, 9),
       st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_exact_ties_on_integer_grids_decide_as_exact_decoder(xp, V, n, m, rows, cols, seed):
    """Small integer coordinates: exact midpoints and duplicate words, ties everywhere; the
    lower row wins, for the nearest and for the order of the two nearest."""
    W, Z = integer_grid(seed, V, n, m)
    emb = make_embeddings(W)
    dec = ArrayAPIDecoder(emb, namespace=xp, batch_rows=rows, block_cols=cols)
    exact = ExactDecoder(emb, block_rows=rows, block_cols=cols)
    np.testing.assert_array_equal(dec.decode(Z), exact.decode(Z))
    assert_top2_equal(dec.decode_top2(Z), exact.decode_top2(Z))


@pytest.mark.parametrize("xp", NAMESPACES)
def test_points_equidistant_from_two_words_go_to_the_lower_row(xp):
    # each point is at the same distance from two words, (2, 3) from three, (4, 0) is a
    # word with a duplicate
    W = np.array([[0, 0], [4, 0], [0, 6], [-2, -2], [4, 0]], dtype=np.float32)
    Z = np.array([[2, 0], [0, 3], [-1, -1], [2, 3], [4, 0]], dtype=np.float64)
    emb = make_embeddings(W)
    for cols in (None, 1, 2, 3):
        dec = ArrayAPIDecoder(emb, namespace=xp, block_cols=cols)
        assert dec.decode(Z).tolist() == [0, 0, 0, 0, 1] == ExactDecoder(emb).decode(Z).tolist()
        r1, r2, d1, d2 = dec.decode_top2(Z)
        assert r1.tolist() == [0, 0, 0, 0, 1] and r2.tolist() == [1, 2, 3, 1, 4]
        assert_top2_equal((r1, r2, d1, d2), ExactDecoder(emb).decode_top2(Z))


@pytest.mark.parametrize("xp", NAMESPACES)
def test_exact_duplicates_resolve_to_the_lowest_index_across_tiles(xp):
    gen = np.random.default_rng(2)
    W = with_duplicates(gen)
    Z = np.concatenate([W[[3, 17, 49, 8, 40]], W[[3, 40]] + 1e-3 * gen.normal(size=(2, 4))])
    for rows, cols in ((None, None), (1, 7), (3, 1), (2, 13)):
        dec = ArrayAPIDecoder(make_embeddings(W), namespace=xp, batch_rows=rows,
                              block_cols=cols)
        assert dec.decode(Z).tolist() == [3, 3, 3, 8, 8, 3, 8]
        r1, r2, _, d2 = dec.decode_top2(Z[:5])
        assert r1.tolist() == [3, 3, 3, 8, 8] and r2.tolist() == [17, 17, 17, 40, 40]
        assert d2.tolist() == [0.0] * 5


@pytest.mark.parametrize("xp", NAMESPACES)
def test_float32_near_ties_are_re_decided_in_float64_as_exact_decoder(xp, monkeypatch):
    """Pairs of words one float32 step apart, queries far away: float32 scores cannot
    tell the twins apart, the float64 re-decision does — and it is really used."""
    gen = np.random.default_rng(5)
    n, pairs = 8, 120
    base = gen.normal(size=(pairs, n)).astype(np.float32)
    twin = base.copy()
    rows, cols = np.arange(pairs), gen.integers(0, n, pairs)
    twin[rows, cols] = np.nextafter(twin[rows, cols], np.float32(np.inf))
    W = np.concatenate([base, twin])
    Z = base + gen.normal(size=(pairs, n)) * 40 / np.sqrt(n)
    emb = make_embeddings(W)
    exact = ExactDecoder(emb, block_cols=37)
    # a plain float32 product gets some of these wrong: the case is a real test
    W32 = W.astype(np.float32)
    naive = ((W32**2).sum(1)[None, :] - 2 * Z.astype(np.float32) @ W32.T).argmin(axis=1)
    assert np.any(naive != exact.decode(Z))
    redecided = []
    original = ArrayAPIDecoder._float64_nearest

    def spy(self, zb, zq, rows, limit, k):
        redecided.append(rows.size)
        return original(self, zb, zq, rows, limit, k)

    monkeypatch.setattr(ArrayAPIDecoder, "_float64_nearest", spy)
    for cols_ in (None, 37, 120):  # twins in one tile, and in different tiles
        dec = ArrayAPIDecoder(emb, namespace=xp, block_cols=cols_, batch_rows=50)
        np.testing.assert_array_equal(dec.decode(Z), exact.decode(Z))
        assert_top2_equal(dec.decode_top2(Z), exact.decode_top2(Z))
    assert sum(redecided) >= pairs  # every query is a near tie here


@pytest.mark.parametrize("xp", NAMESPACES)
def test_float64_points_are_decided_without_rounding_to_float32(xp):
    emb = make_embeddings([[0.0], [1.0]])
    z = np.array([[0.5 + 1e-12], [0.5 - 1e-12], [0.5]])
    assert np.float32(z[0, 0]) == np.float32(0.5)
    assert ArrayAPIDecoder(emb, namespace=xp).decode(z).tolist() == [1, 0, 0]
    r1, r2, _, _ = ArrayAPIDecoder(emb, namespace=xp).decode_top2(z)
    assert r1.tolist() == [1, 0, 0] and r2.tolist() == [0, 1, 1]


@pytest.mark.parametrize("xp", NAMESPACES)
@pytest.mark.parametrize(("scale", "far"), [(1e9, 9e29), (1e15, 1e25)])
def test_points_whose_float32_scores_overflow_are_decided_over_every_word(xp, scale, far):
    """Scores beyond float32 (±inf, NaN): no rounding bound holds, so the point is decided
    by a float64 pass over the whole vocabulary (ties to the lower row)."""
    gen = np.random.default_rng(8)
    emb = make_embeddings(gen.normal(size=(40, 3)) * scale)
    Z = gen.normal(size=(6, 3))
    Z *= far / np.abs(Z).max(axis=1, keepdims=True)
    w = emb.vectors.astype(np.float64)
    ref = [int(np.argmin(np.einsum("ij,ij->i", w - z, w - z))) for z in Z]
    assert ArrayAPIDecoder(emb, namespace=xp, block_cols=7).decode(Z).tolist() == ref
    assert ArrayAPIDecoder(emb, namespace=xp, block_cols=7).decode_top2(Z)[0].tolist() == ref


@pytest.mark.parametrize("xp", NAMESPACES)
@pytest.mark.parametrize("batch_rows", [1, 2, 5, 16, None])
def test_batch_sizes_do_not_change_the_decisions(xp, batch_rows):
    emb, Z = random_case(4, V=120, m=37)
    ref = ExactDecoder(emb).decode(Z)
    dec = ArrayAPIDecoder(emb, namespace=xp, batch_rows=batch_rows, block_cols=16)
    np.testing.assert_array_equal(dec.decode(Z), ref)
    np.testing.assert_array_equal(dec.decode_top2(Z)[0], ref)


@pytest.mark.parametrize("xp", NAMESPACES)
def test_empty_batch_and_single_point(xp, tiny_embeddings):
    dec = ArrayAPIDecoder(tiny_embeddings, namespace=xp)
    out = dec.decode(np.empty((0, 2)))
    assert out.shape == (0,) and out.dtype == np.int64
    r1, r2, d1, d2 = dec.decode_top2(np.empty((0, 2)))
    assert [a.shape for a in (r1, r2, d1, d2)] == [(0,)] * 4
    assert [a.dtype for a in (r1, r2, d1, d2)] == [np.int64, np.int64, np.float64, np.float64]
    assert dec.decode([0.9, 0.1]).tolist() == ExactDecoder(tiny_embeddings).decode(
        [0.9, 0.1]).tolist()


def test_a_single_word_vocabulary():
    emb = make_embeddings([[1.0, 2.0]])
    assert ArrayAPIDecoder(emb).decode([[5.0, 5.0], [1.0, 2.0]]).tolist() == [0, 0]
    with pytest.raises(ValueError, match="at least 2 words; got 1"):
        ArrayAPIDecoder(emb).decode_top2([[5.0, 5.0]])


# -- interface and validation ---------------------------------------------------------
def test_interface_and_repr(tiny_embeddings):
    dec = ArrayAPIDecoder(tiny_embeddings, namespace=array_api_strict)
    assert isinstance(dec, Decoder) and isinstance(dec, Top2Decoder)
    assert dec.name == "exact"  # the same decisions: output records read the same
    assert "ArrayAPIDecoder" in repr(dec) and "array_api_strict" in repr(dec)


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"namespace": "numpy"}, TypeError, "namespace must be an array library"),
    ({"batch_rows": 0}, ValueError, "batch_rows must be an integer >= 1; got 0"),
    ({"block_cols": -1}, ValueError, "block_cols must be an integer >= 1; got -1"),
    ({"memory_budget": 0}, ValueError, "memory_budget must be an integer >= 1; got 0"),
])
def test_bad_parameters_rejected(tiny_embeddings, kwargs, error, match):
    with pytest.raises(error, match=match):
        ArrayAPIDecoder(tiny_embeddings, **kwargs)


@pytest.mark.parametrize(("points", "error", "match"), [
    ([[1.0, 2.0, 3.0]], ValueError, r"shape \(m, 2\)"),
    ([[np.nan, 0.0]], ValueError, "must be finite"),
    ([[1e31, 0.0]], ValueError, "must be finite"),
])
def test_bad_points_rejected(tiny_embeddings, points, error, match):
    with pytest.raises(error, match=match):
        ArrayAPIDecoder(tiny_embeddings).decode(points)


def test_memory_budget_bounds_the_tile():
    emb, Z = random_case(6, V=300, m=40)
    dec = ArrayAPIDecoder(emb, memory_budget=2_000)
    assert dec.batch_rows * dec.block_cols * 9 <= 2_000
    np.testing.assert_array_equal(dec.decode(Z), ExactDecoder(emb).decode(Z))


# -- the mechanisms and the seeded release ---------------------------------------------
@pytest.mark.parametrize("xp", NAMESPACES)
def test_seeded_release_is_the_same_words_on_the_array_path(xp):
    """The noise is drawn on the host by the same generator: same seed, same words."""
    emb, _ = random_case(7, V=150, n=6)
    words = [emb.words[i] for i in np.random.default_rng(1).integers(0, 150, 300)]
    for eps in (0.5, 3.0):
        ref = EarthMoversPrivacy(emb, epsilon=eps, rng=42).privatize(words)
        dec = ArrayAPIDecoder(emb, namespace=xp, block_cols=17)
        assert EarthMoversPrivacy(emb, epsilon=eps, rng=42, decoder=dec).privatize(words) == ref
    # Vickrey's release depends on both nearest words and their distances
    ref = make_mechanism("vickrey", emb, epsilon=2.0, rng=7, t=0.5).privatize(words)
    dec = ArrayAPIDecoder(emb, namespace=xp, block_cols=17)
    assert make_mechanism("vickrey", emb, epsilon=2.0, rng=7, t=0.5,
                          decoder=dec).privatize(words) == ref


def test_seeded_obfuscator_records_are_identical():
    vectors = np.random.default_rng(9).normal(size=(80, 5))
    emb = Embeddings([a + b for a in "abcdefghij" for b in "klmnopqr"], vectors)  # 80 words
    text = " ".join(emb.words[i] for i in np.random.default_rng(2).integers(0, 80, 200))
    docs = [Document("d1", text), Document("d2", " ".join(reversed(text.split())))]

    def records(decoder):
        mech = EarthMoversPrivacy(emb, epsilon=2.0, decoder=decoder)
        return list(Obfuscator(mech, seed=5).obfuscate(docs))

    assert records(ArrayAPIDecoder(emb, namespace=array_api_strict)) == records("exact")


# -- --device ---------------------------------------------------------------------------
@pytest.fixture
def no_cupy(monkeypatch):
    """CuPy not installed, whatever this machine has."""
    monkeypatch.setitem(sys.modules, "cupy", None)


@pytest.fixture
def cupy_without_device(monkeypatch):
    """CuPy installed, but no CUDA device (its runtime call fails)."""
    def no_device():
        raise RuntimeError("cudaErrorNoDevice: no CUDA-capable device is detected")

    fake = types.ModuleType("cupy")
    fake.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=no_device))
    monkeypatch.setitem(sys.modules, "cupy", fake)


@pytest.fixture
def cuda_is_numpy(monkeypatch):
    """``--device cuda`` decodes with ArrayAPIDecoder on array-api-strict (no GPU here);
    the list of the decoders' namespaces built, to check that they were."""
    built: list[str] = []
    init = ArrayAPIDecoder.__init__

    def spy(self, embeddings, **kwargs):
        init(self, embeddings, **kwargs)
        built.append(self._xp.__name__)

    import emprivacy.decoding

    # the command line reads it through the package's face, a distributed task from its module
    for where in (emprivacy.decoding, array_api):
        monkeypatch.setattr(where, "cuda_namespace", lambda: array_api_strict)
    monkeypatch.setattr(ArrayAPIDecoder, "__init__", spy)
    return built


def test_device_cuda_without_the_gpu_extra_is_one_line(tmp_path, capsys, no_cupy):
    env = input_env(tmp_path, "the cat and the dog")
    code, out, err = run_cli(["obfuscate", str(env["text"]), "-e", "10", "--embeddings",
                              str(env["emb"]), "--device", "cuda", "-o",
                              str(env["out"] / "o.txt")], capsys)
    assert code == 1 and out == ""
    assert err == ("emprivacy: error: --device cuda needs the optional dependency 'cupy'; "
                   "install it with: pip install 'emprivacy[gpu]'\n")
    assert list(env["out"].iterdir()) == []


def test_device_cuda_without_a_device_is_one_line(tmp_path, capsys, cupy_without_device):
    env = input_env(tmp_path, "the cat and the dog")
    code, out, err = run_cli(["obfuscate", str(env["text"]), "-e", "10", "--embeddings",
                              str(env["emb"]), "--device", "cuda", "-o",
                              str(env["out"] / "o.txt")], capsys)
    assert code == 1 and out == ""
    assert err == ("emprivacy: error: device 'cuda' is not available: cudaErrorNoDevice: "
                   "no CUDA-capable device is detected\n")
    assert list(env["out"].iterdir()) == []


@pytest.mark.parametrize(("args", "message"), [
    (["--decoder", "approximate"], "--device cuda applies to --decoder exact; got 'approximate'"),
    (["--mechanism", "tem"], "--device cuda applies to the nearest-word mechanisms (madlib, "
                             "mahalanobis, vickrey); 'tem' has none"),
    (["--mechanism", "santext"], "--device cuda applies to the nearest-word mechanisms "
                                 "(madlib, mahalanobis, vickrey); 'santext' has none"),
])
def test_device_cuda_with_what_it_cannot_do_is_a_usage_error(tmp_path, capsys, no_cupy, args,
                                                             message):
    env = input_env(tmp_path, "the cat")
    code, _, err = run_cli(["obfuscate", str(env["text"]), "-e", "10", "--embeddings",
                            str(env["emb"]), "--device", "cuda", *args], capsys)
    assert code == 2 and err == f"emprivacy: error: {message}\n"


def test_an_unknown_device_is_a_usage_error(tmp_path, capsys):
    env = input_env(tmp_path, "the cat")
    code, _, err = run_cli(["obfuscate", str(env["text"]), "-e", "10", "--embeddings",
                            str(env["emb"]), "--device", "gpu"], capsys)
    assert code == 2 and err == "emprivacy: error: device must be one of 'cpu', 'cuda'; got 'gpu'\n"


@pytest.mark.parametrize("extra", [[], ["--mechanism", "vickrey", "--param", "t=0.5"],
                                   ["-f", "jsonl", "--readable"]])
def test_seeded_obfuscate_on_device_cuda_releases_the_same_words(tmp_path, capsys,
                                                                 cuda_is_numpy, extra):
    env = input_env(tmp_path, "the cat and the dog drove the car past the quiet factory " * 20)
    base = ["obfuscate", str(env["text"]), "-e", "3", "--embeddings", str(env["emb"]),
            "--seed", "11", "-q", *extra]
    code, cpu, _ = run_cli(base, capsys)
    assert code == 0 and cpu
    assert cuda_is_numpy == []
    code, cuda, err = run_cli([*base, "--device", "cuda"], capsys)
    assert code == 0 and err == "" and cuda == cpu
    assert cuda_is_numpy == ["array_api_strict"]


def test_partitioned_run_on_device_cuda_releases_the_same_words(tmp_path, capsys,
                                                                cuda_is_numpy):
    env = input_env(tmp_path, "the cat and the dog drove the car past the quiet factory " * 20)
    outs = []
    for device in ("cpu", "cuda"):
        target = env["out"] / f"{device}.jsonl"
        code, _, err = run_cli(["obfuscate", str(env["text"]), "-e", "3", "--embeddings",
                                str(env["emb"]), "--seed", "11", "-q", "--resume", "-o",
                                str(target), "--device", device], capsys)
        assert code == 0, err
        outs.append(target.read_text())
        assert cuda_is_numpy == ([] if device == "cpu" else ["array_api_strict"])
    assert outs[0] == outs[1] and outs[0]


def test_mechanism_settings_device(cuda_is_numpy, tiny_embeddings):
    settings_ = MechanismSettings(epsilon=1.0, device="cuda", loader=lambda: tiny_embeddings)
    assert isinstance(settings_.build().decoder, ArrayAPIDecoder)
    assert settings_.cache_key != MechanismSettings(epsilon=1.0).cache_key
    assert (MechanismSettings(epsilon=1.0, device="cpu").cache_key
            == MechanismSettings(epsilon=1.0).cache_key)  # earlier runs' keys unchanged
    with pytest.raises(ValueError, match="device must be one of 'cpu', 'cuda'; got 'gpu'"):
        MechanismSettings(epsilon=1.0, device="gpu")
    with pytest.raises(ValueError, match="applies to decoder 'exact'; got 'approximate'"):
        MechanismSettings(epsilon=1.0, device="cuda", decoder="approximate")
    with pytest.raises(ValueError, match="nearest-word mechanisms; 'tem' has none"):
        MechanismSettings(epsilon=1.0, device="cuda", mechanism="tem")


# -- benchmarks/gpu.py runs on the CPU too ------------------------------------------------
def test_gpu_benchmark_runs_on_numpy_and_agrees(tmp_path, capsys):
    import importlib.util
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "gpu.py"
    spec = importlib.util.spec_from_file_location("gpu_benchmark", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "gpu.json"
    assert bench.main(["--backend", "numpy", "--sizes", "500x8,700x30", "--queries", "300",
                       "--cpu-queries", "100", "--top2-check", "50", "--check-queries", "400",
                       "--repeat", "1", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert [(r["words"], r["dim"]) for r in report["sizes"]] == [(500, 8), (700, 30)]
    assert [r["checked_queries"] for r in report["sizes"]] == [500, 100]
    assert all(r["disagreements"] == 0 == r["top2_disagreements"] for r in report["sizes"])
    assert report["device"]["backend"] == "numpy"
    assert "| 500 × 8 |" in capsys.readouterr().out


def test_device_cuda_decodes_with_the_cuda_scratch(cuda_is_numpy, tiny_embeddings):
    """``--device cuda`` (command line and Dask task) gives the decoder 1 GiB of scratch,
    not the library's 256 MiB default: the larger batches measured faster on an H100."""
    from emprivacy.cli._common import exact_decoder

    assert array_api.CUDA_DEVICE_MEMORY == 2**30 > array_api.DEFAULT_DEVICE_MEMORY
    assert exact_decoder(tiny_embeddings, "cpu") is None
    dec = exact_decoder(tiny_embeddings, "cuda")
    assert isinstance(dec, ArrayAPIDecoder) and dec.memory_budget == 2**30
    built = MechanismSettings(epsilon=1.0, device="cuda", loader=lambda: tiny_embeddings).build()
    assert built.decoder.memory_budget == 2**30
    assert cuda_is_numpy == ["array_api_strict", "array_api_strict"]
