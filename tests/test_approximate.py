"""The approximate decoder: agreement with exact decoding, the on-disk index cache."""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import numpy as np
import pytest

from emprivacy import EarthMoversPrivacy, Embeddings
from emprivacy.decoding import ApproximateDecoder, Decoder, ExactDecoder, index_cache
from emprivacy.decoding.index_cache import default_cache_dir
from emprivacy.decoding.staged import StagedSearch, cells_between, rerank
from emprivacy.decoding.tuning import replay
from emprivacy.exceptions import CalibrationWarning, IndexCacheWarning

V, DIM = 12_000, 16
#: Documented floor for this small seeded case (docs/DECODERS.md): agreement with the exact
#: decoder wherever the exact decoder leaves at least half of the words unchanged.
RECALL_FLOOR = 0.995


def clustered_vectors(seed: int = 1, n_words: int = V, dim: int = DIM) -> np.ndarray:
    """Words in 200 Gaussian clusters of different spreads (like real embeddings, not uniform)."""
    gen = np.random.default_rng(seed)
    centers = gen.normal(size=(200, dim)) * 2
    spread = gen.uniform(0.3, 1.5, (n_words, 1))
    return (centers[gen.integers(0, 200, n_words)]
            + gen.normal(size=(n_words, dim)) * spread).astype(np.float32)


def make_embeddings(vectors: np.ndarray) -> Embeddings:
    return Embeddings([f"w{i}" for i in range(len(vectors))], vectors, name="clusters")


def noisy(vectors: np.ndarray, scale: float, m: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``Vec(x) + r·u`` with r ~ Gamma(n, scale/n) (Laplace-shaped noise of mean radius scale)."""
    gen = np.random.default_rng(seed)
    n = vectors.shape[1]
    src = gen.integers(0, len(vectors), m)
    u = gen.normal(size=(m, n))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    return vectors[src] + u * gen.gamma(n, scale / n, m)[:, None], src


@pytest.fixture(scope="module")
def embeddings() -> Embeddings:
    return make_embeddings(clustered_vectors())


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("ivf-cache")


@pytest.fixture(scope="module")
def decoder(embeddings, cache) -> ApproximateDecoder:
    return ApproximateDecoder(embeddings, cache_dir=cache, calibration_queries=2000)


# -- agreement with exact decoding --------------------------------------------------------
def test_agreement_with_exact_above_the_documented_floor(embeddings, decoder):
    exact = ExactDecoder(embeddings)
    checked = 0
    for k, scale in enumerate((0.3, 1.0, 2.0, 3.0, 4.0, 5.0)):
        Z, src = noisy(embeddings.vectors, scale, 2000, seed=100 + k)
        e, a = exact.decode(Z), decoder.decode(Z)
        if np.mean(e == src) >= 0.5:
            checked += 1
            assert np.mean(a == e) >= RECALL_FLOOR, scale
        # and an approximate answer is never absurd: no farther than the source word
        d_a = np.linalg.norm(embeddings.vectors[a] - Z, axis=1)
        d_src = np.linalg.norm(embeddings.vectors[src] - Z, axis=1)
        assert np.mean(d_a <= d_src + 1e-4) >= RECALL_FLOOR
    assert checked >= 5  # the floor was really tested at several noise levels


def test_output_statistics_far_from_the_vocabulary(embeddings, decoder):
    """Where exact decoding is nearly random, the approximate one matches its statistics."""
    Z, src = noisy(embeddings.vectors, 8.0, 4000, seed=7)
    e = ExactDecoder(embeddings).decode(Z)
    a = decoder.decode(Z)
    W = embeddings.vectors.astype(np.float64)
    moved_e = np.linalg.norm(W[e] - W[src], axis=1).mean()
    moved_a = np.linalg.norm(W[a] - W[src], axis=1).mean()
    assert abs(moved_a / moved_e - 1) < 0.02
    assert abs(np.mean(a == src) - np.mean(e == src)) <= 0.01


def test_decoding_depends_on_each_point_only(embeddings, decoder, cache):
    Z, _ = noisy(embeddings.vectors, 3.0, 3000, seed=3)
    out = decoder.decode(Z)
    one = ApproximateDecoder(embeddings, cache_dir=cache, calibration_queries=2000, n_threads=1)
    assert one.build_seconds == 0.0  # the thread count is not part of the index
    np.testing.assert_array_equal(one.decode(Z), out)
    perm = np.random.default_rng(0).permutation(len(Z))
    np.testing.assert_array_equal(decoder.decode(Z[perm]), out[perm])
    np.testing.assert_array_equal(decoder.decode(Z[:7]), out[:7])
    np.testing.assert_array_equal(decoder.decode(Z.astype(np.float32)), out)


def test_search_is_the_calibrated_stop_rule_replayed(embeddings, decoder):
    """The staged search stops exactly where the calibration's replay of its rule says:
    what was calibrated is what runs."""
    stages = decoder.stages
    assert stages[0] == decoder.first_probes and stages[-1] == decoder.effective_max_probes
    assert all(b == min(4 * a, stages[-1]) for a, b in itertools.pairwise(stages))
    assert 1.0 < decoder.tau < np.inf and decoder.calibration["met"]
    Z = np.concatenate([noisy(embeddings.vectors, scale, 1500, seed=21 + k)[0]
                        for k, scale in enumerate((1.0, 4.0, 8.0))])
    picks, dist, nxt = decoder._trace(Z)
    # every stage only improves the best word found, and the full search is the best of all
    assert np.all(np.diff(dist, axis=1) <= 1e-12)
    reached = replay(dist, nxt, decoder.tau)
    best, best_d, stopped = decoder._searcher().search(Z)
    np.testing.assert_array_equal(stopped, reached)
    np.testing.assert_array_equal(best, picks[np.arange(len(Z)), reached])
    np.testing.assert_allclose(best_d, dist[np.arange(len(Z)), reached])
    np.testing.assert_array_equal(decoder.decode(Z), best)
    # the rule really decides: every stage is where some vectors stop
    assert set(np.unique(reached)) == set(range(len(stages)))


def test_stages_scan_each_nearest_cell_once(embeddings, decoder, monkeypatch):
    """Stage by stage, the cells scanned are the nearest centres, none twice, none skipped,
    and the next-centre distance the stop rule sees is that of the nearest cell not scanned."""
    Z, _ = noisy(embeddings.vectors, 3.0, 400, seed=31)
    Z[:50] = decoder._centroid_arrays()[0][:50]  # on a centre: ties in the ranking
    calls: list[np.ndarray] = []
    candidates = StagedSearch.candidates

    def recording(self, z32, cells, cell_d, at_least=1):
        calls.append(np.asarray(cells).copy())
        return candidates(self, z32, cells, cell_d, at_least)

    monkeypatch.setattr(StagedSearch, "candidates", recording)
    _, _, nxt = decoder._searcher().search(Z, trace=True)
    stages = decoder.stages
    assert len(calls) == len(stages) and all(len(c) == len(Z) for c in calls)
    cent = decoder._centroid_arrays()[0].astype(np.float64)
    d2 = ((Z[:, None, :] - cent[None, :, :]) ** 2).sum(axis=2)
    scanned = np.zeros(d2.shape, dtype=bool)
    for k, cells in enumerate(calls):
        for i in range(len(Z)):
            row = cells[i][cells[i] >= 0]
            assert not scanned[i, row].any() and len(set(row.tolist())) == len(row)
            scanned[i, row] = True
        kth = np.sort(d2, axis=1)[:, stages[k] - 1]
        tol = 1e-4 * (1 + kth)
        # every centre clearly nearer than the stages[k]-th is scanned; none clearly farther
        assert not np.any(~scanned & (d2 < kth[:, None] - tol[:, None]))
        assert not np.any(scanned & (d2 > kth[:, None] + tol[:, None]))
        if stages[k] < decoder.nlist:
            nearest_left = np.where(scanned, np.inf, d2).min(axis=1)
            np.testing.assert_allclose(nxt[:, k], nearest_left, rtol=1e-4, atol=1e-4)


def test_cells_between_ranks_with_ties_and_padding():
    scores = np.array([[5.0, 1.0, 3.0, 3.0, 2.0, 9.0],
                       [0.0, 4.0, 6.0, 8.0, 7.0, 1.0]], dtype=np.float32)
    cells, d = cells_between(scores, np.array([1.0, 1.0]), np.array([3.0, 6.0]))
    # row 0: 2.0 and the tie 3.0, 3.0 (all three at once); row 1: 4.0 and 6.0, padded
    assert sorted(cells[0].tolist()) == [2, 3, 4]
    assert sorted(c for c in cells[1].tolist() if c >= 0) == [1, 2] and cells[1, 2] == -1
    assert np.isinf(d[1, 2]) and d[0].tolist() == scores[0, cells[0]].tolist()
    empty, _ = cells_between(scores, np.array([9.0, 9.0]), np.array([9.0, 9.0]))
    assert empty.shape == (2, 1) and np.all(empty == -1)


def test_padded_cells_are_skipped_by_the_index(embeddings, decoder):
    """-1 marks no cell: the fast-scan search ignores it (the padding of tied ranks)."""
    Z, _ = noisy(embeddings.vectors, 1.0, 50, seed=22)
    z32 = Z.astype(np.float32)
    cell_d, cells = decoder._index.quantizer.search(z32, 4)
    padded = np.concatenate([cells, np.full((len(Z), 3), -1)], axis=1)
    padded_d = np.concatenate([cell_d, np.full((len(Z), 3), np.inf, np.float32)], axis=1)
    search = decoder._searcher()
    a = rerank(embeddings.vectors, Z, search.candidates(z32, cells, cell_d))[0]
    b = rerank(embeddings.vectors, Z, search.candidates(z32, padded, padded_d))[0]
    np.testing.assert_array_equal(a, b)


def test_exact_duplicates_resolve_to_the_lowest_index(tmp_path):
    W = clustered_vectors(seed=2, n_words=3000, dim=8)
    W[2500] = W[10]
    W[2999] = W[10]
    dec = ApproximateDecoder(make_embeddings(W), cache_dir=tmp_path, calibration_queries=500)
    assert dec.decode(W[[10, 2500, 2999]]).tolist() == [10, 10, 10]
    assert dec.decode(W[:2000]).tolist() == list(range(2000))  # every word decodes to itself


def test_tiny_vocabularies_are_decoded_exactly(tiny_embeddings, tmp_path):
    dec = ApproximateDecoder(tiny_embeddings, cache_dir=tmp_path)
    Z = np.random.default_rng(0).normal(size=(50, 2)) * 8
    np.testing.assert_array_equal(dec.decode(Z), ExactDecoder(tiny_embeddings).decode(Z))
    assert dec.nlist == 0 and not list(tmp_path.iterdir())  # nothing to cache


# -- the cache ---------------------------------------------------------------------------
def test_second_construction_loads_the_cache(embeddings, decoder, cache):
    assert decoder.cache_path is not None and decoder.cache_path.parent == cache
    again = ApproximateDecoder(embeddings, cache_dir=cache, calibration_queries=2000)
    assert again.build_seconds == 0.0 and 0.0 < again.load_seconds < 2.0
    Z, _ = noisy(embeddings.vectors, 2.0, 500, seed=9)
    np.testing.assert_array_equal(again.decode(Z), decoder.decode(Z))
    # other parameters are another index, built next to the first one
    other = ApproximateDecoder(embeddings, cache_dir=cache, calibration_queries=1000)
    assert other.build_seconds > 0 and other.cache_path != decoder.cache_path


def test_changed_embeddings_invalidate_the_cache(embeddings, decoder, cache):
    W = embeddings.vectors.copy()
    W[123, 0] += 0.5  # one coordinate of one word
    changed = make_embeddings(W)
    assert changed.fingerprint != embeddings.fingerprint
    dec = ApproximateDecoder(changed, cache_dir=cache, calibration_queries=2000)
    assert dec.build_seconds > 0 and dec.cache_path != decoder.cache_path
    # a file built for other embeddings, found under this name, is not used
    dec.cache_path.write_bytes(decoder.cache_path.read_bytes())
    with pytest.warns(IndexCacheWarning, match="built for other embeddings"):
        rebuilt = ApproximateDecoder(changed, cache_dir=cache, calibration_queries=2000)
    assert rebuilt.build_seconds > 0
    assert rebuilt.decode(W[[123]]).tolist() == [123]


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_corrupt_cache_is_rebuilt_with_a_warning(tmp_path, damage):
    emb = make_embeddings(clustered_vectors(seed=4, n_words=3000, dim=8))
    first = ApproximateDecoder(emb, cache_dir=tmp_path, calibration_queries=500)
    path = first.cache_path
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":  # one byte inside the stored index: the checksum catches it
        data[len(data) // 2] ^= 0xFF
    else:
        data = bytearray(b"not an index at all")
    path.write_bytes(bytes(data))
    with pytest.warns(IndexCacheWarning, match="unusable"):
        second = ApproximateDecoder(emb, cache_dir=tmp_path, calibration_queries=500)
    assert second.build_seconds > 0
    Z, _ = noisy(emb.vectors, 1.0, 300, seed=5)
    np.testing.assert_array_equal(second.decode(Z), first.decode(Z))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the rewritten file is sound again
        third = ApproximateDecoder(emb, cache_dir=tmp_path, calibration_queries=500)
    assert third.build_seconds == 0.0
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]  # atomic writes


@pytest.mark.parametrize("edit", [("tau", 2.65), ("rerank", 96), ("rerank", True),
                                   ("rerank", 10**9)])
def test_edited_search_parameters_in_the_cache_are_not_trusted(tmp_path, edit):
    """τ and the re-rank depth are covered by the checksum: an edited file is rebuilt."""
    import json

    emb = make_embeddings(clustered_vectors(seed=4, n_words=3000, dim=8))
    first = ApproximateDecoder(emb, cache_dir=tmp_path, calibration_queries=500)
    with np.load(first.cache_path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(arrays["meta"].tobytes().decode())
    meta["search"][edit[0]] = edit[1]
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    with open(first.cache_path, "wb") as fh:
        np.savez(fh, **arrays)
    with pytest.warns(IndexCacheWarning, match="checksum mismatch"):
        second = ApproximateDecoder(emb, cache_dir=tmp_path, calibration_queries=500)
    assert second.build_seconds > 0
    assert (second.tau, second.effective_rerank) == (first.tau, first.effective_rerank)


def test_calibration_raises_the_rerank_depth_and_the_cache_keeps_it(tmp_path):
    emb = make_embeddings(clustered_vectors(seed=5, n_words=4000, dim=16))
    dec = ApproximateDecoder(emb, cache_dir=tmp_path, rerank=1, calibration_queries=1000)
    assert dec.effective_rerank > 1 and dec.calibration["met"]
    again = ApproximateDecoder(emb, cache_dir=tmp_path, rerank=1, calibration_queries=1000)
    assert again.build_seconds == 0.0
    assert (again.effective_rerank, again.tau) == (dec.effective_rerank, dec.tau)
    assert again.calibration == dec.calibration


def test_calibration_widens_a_search_that_scans_too_few_cells(tmp_path):
    """Capped at 1 % of the cells the search cannot agree with exact decoding: the
    calibration adds stages (4× the cells each) until it does, and the cache keeps them."""
    emb = make_embeddings(clustered_vectors(seed=6, n_words=4000, dim=8))
    kwargs = {"cache_dir": tmp_path, "nlist": 64, "max_probe_fraction": 0.01,
              "calibration_queries": 500}
    dec = ApproximateDecoder(emb, **kwargs)
    assert dec.stages[0] == dec.first_probes == 4 and len(dec.stages) > 1
    assert dec.calibration["met"] and dec.effective_max_probes == dec.stages[-1]
    again = ApproximateDecoder(emb, **kwargs)
    assert again.build_seconds == 0.0 and again.stages == dec.stages


def test_an_unreachable_calibration_target_is_said_not_hidden(tmp_path, monkeypatch):
    """A search that cannot agree with exact decoding even over every cell (here: made to
    return one candidate only) is reported — on the build and on every reload — with its
    figures, and falls back to searching every stage."""
    candidates = StagedSearch.candidates
    monkeypatch.setattr(StagedSearch, "candidates",
                        lambda self, *a: candidates(self, *a)[:, :1])
    emb = make_embeddings(clustered_vectors(seed=6, n_words=4000, dim=8))
    kwargs = {"cache_dir": tmp_path, "nlist": 64, "calibration_queries": 500}
    with pytest.warns(CalibrationWarning, match="misses its calibration targets"):
        dec = ApproximateDecoder(emb, **kwargs)
    cal = dec.calibration
    assert not cal["met"] and cal["near_agreement"] < cal["targets"]["near"]
    assert dec.tau == np.inf and dec.effective_rerank == 256 and dec.stages[-1] == 64
    with pytest.warns(CalibrationWarning):
        again = ApproximateDecoder(emb, **kwargs)
    assert again.build_seconds == 0.0


def test_cache_file_round_trip_and_checks(tmp_path):
    """The cache file on its own (no index needed): what is written is read back, and a file
    for other embeddings, other parameters or with edited contents is refused."""
    blob = np.frombuffer(b"an index", dtype=np.uint8)
    params = {"version": index_cache.INDEX_FORMAT_VERSION, "nlist": 8}
    search = {"rerank": 16, "tau": 1.5, "stages": [4, 8], "calibration": {"met": True}}
    path = index_cache.cache_file(tmp_path / "sub", "f" * 64, params)
    assert path.parent == tmp_path / "sub" and path.name.startswith("ivf-" + "f" * 24)
    index_cache.write_index(path, blob, fingerprint="f" * 64, params=params, search=search)
    got, got_search = index_cache.read_index(path, fingerprint="f" * 64, params=params)
    assert got.tobytes() == b"an index" and got_search == search
    with pytest.raises(ValueError, match="built for other embeddings"):
        index_cache.read_index(path, fingerprint="0" * 64, params=params)
    with pytest.raises(ValueError, match="built with other parameters"):
        index_cache.read_index(path, fingerprint="f" * 64, params=params | {"nlist": 16})
    index_cache.write_index(path, blob, fingerprint="f" * 64, params=params, search=search)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["index"] = np.frombuffer(b"an indeX", dtype=np.uint8)
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)
    with pytest.raises(ValueError, match="checksum mismatch"):
        index_cache.read_index(path, fingerprint="f" * 64, params=params)


def test_load_or_build(tmp_path):
    path = tmp_path / "x.npz"
    calls: list[str] = []

    def load(p):
        calls.append("load")
        raise ValueError("broken")

    def save(p):
        calls.append("save")
        p.write_bytes(b"")

    assert index_cache.load_or_build(path, load=load, build=lambda: calls.append("build"),
                                     save=save, stacklevel=2)[0] is False
    assert calls == ["build", "save"]  # no file: nothing to load
    with pytest.warns(IndexCacheWarning, match=r"unusable \(broken\); rebuilding it"):
        index_cache.load_or_build(path, load=load, build=lambda: calls.append("build"),
                                  save=save, stacklevel=2)
    assert calls[2:] == ["load", "build", "save"]
    loaded, seconds = index_cache.load_or_build(path, load=lambda p: None, build=None,
                                                save=None, stacklevel=2)
    assert loaded and seconds >= 0

    def unwritable(p):
        raise PermissionError("read-only")

    with pytest.warns(IndexCacheWarning, match="could not write .* rebuilt next time"):
        loaded, _ = index_cache.load_or_build(tmp_path / "y.npz", load=load,
                                              build=lambda: None, save=unwritable,
                                              stacklevel=2)
    assert not loaded


def test_default_cache_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("EMPRIVACY_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "emprivacy"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_dir() == Path.home() / ".cache" / "emprivacy"
    monkeypatch.setenv("EMPRIVACY_CACHE_DIR", str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"


def test_mechanism_uses_the_cache_directory_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("EMPRIVACY_CACHE_DIR", str(tmp_path))
    emb = make_embeddings(clustered_vectors(seed=6, n_words=2500, dim=8))
    mech = EarthMoversPrivacy(emb, epsilon=1e6, rng=0, decoder="approximate")
    assert isinstance(mech.decoder, ApproximateDecoder) and isinstance(mech.decoder, Decoder)
    assert mech.decoder.name == "approximate"
    assert mech.decoder.cache_path.parent == tmp_path and mech.decoder.cache_path.exists()
    assert mech.privatize(["w1", "w2000", "w7"]) == ["w1", "w2000", "w7"]


# -- validation --------------------------------------------------------------------------
def test_bad_parameters_rejected(embeddings, tmp_path):
    with pytest.raises(TypeError, match="embeddings must be an Embeddings"):
        ApproximateDecoder(np.zeros((3, 2)))
    with pytest.raises(ValueError, match=r"target_recall must lie in \(0, 1\)"):
        ApproximateDecoder(embeddings, cache_dir=tmp_path, target_recall=1.0)
    with pytest.raises(ValueError, match=r"max_probe_fraction must lie in \(0, 1\]"):
        ApproximateDecoder(embeddings, cache_dir=tmp_path, max_probe_fraction=1.5)
    with pytest.raises(ValueError, match="nlist must be at most the number of distinct words"):
        ApproximateDecoder(embeddings, cache_dir=tmp_path, nlist=V + 1)
    with pytest.raises(ValueError, match="calibration_queries must be an integer >= 100"):
        ApproximateDecoder(embeddings, cache_dir=tmp_path, calibration_queries=10)
    with pytest.raises(TypeError, match="rerank must be an integer"):
        ApproximateDecoder(embeddings, cache_dir=tmp_path, rerank="many")


def test_bad_points_rejected(decoder):
    with pytest.raises(ValueError, match=r"points must have shape \(m, 16\)"):
        decoder.decode(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="points must be finite"):
        decoder.decode(np.full((1, DIM), np.nan))
    assert decoder.decode(np.empty((0, DIM))).shape == (0,)
