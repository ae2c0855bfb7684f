"""The exact decoder ``Vec⁻¹`` of Alg. 2: equals a float64 brute force, ties to the lowest index."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emprivacy.decoding import DEFAULT_MEMORY_BUDGET, Decoder, ExactDecoder
from emprivacy.decoding.threads import available_cores, run_on_cores

from .helpers import integer_grid, make_embeddings, with_duplicates


def brute_force(points, vectors) -> np.ndarray:
    """Float64 argmin of Σ (z − w)², first (lowest) index on ties."""
    w = np.asarray(vectors, np.float64)
    return np.array([((w - z) ** 2).sum(axis=1).argmin()
                     for z in np.asarray(points, np.float64)], dtype=np.int64)


# -- equality with brute force ----------------------------------------------------------
@pytest.mark.parametrize("n_threads", [1, 2])
@pytest.mark.parametrize(("block_rows", "block_cols"),
                         [(None, None), (1, 1), (3, 7), (7, 13), (64, 5), (5, 10_000)])
def test_equals_brute_force_on_random_cases(block_rows, block_cols, n_threads):
    gen = np.random.default_rng(11)
    V, n, m = 997, 12, 301  # primes: no block size divides them
    W = gen.normal(size=(V, n)) * 3
    Z = W[gen.integers(0, V, m)] + gen.normal(size=(m, n)) * gen.uniform(0.1, 6, (m, 1))
    dec = ExactDecoder(make_embeddings(W), block_rows=block_rows, block_cols=block_cols,
                       n_threads=n_threads)
    out = dec.decode(Z)
    assert out.dtype == np.int64 and out.shape == (m,)
    np.testing.assert_array_equal(out, brute_force(Z, dec.embeddings.vectors))


@pytest.mark.parametrize("top2", [False, True])
def test_a_blas_product_that_raises_flags_and_poisons_scores_changes_nothing(
        monkeypatch, top2):
    # Some BLAS kernels raise the "invalid" flag spuriously (numpy/numpy#28967): under
    # the suite's warnings-as-errors that was a failure.  Simulate the worst case, a
    # product that raises the flag and leaves NaN in some scores: no warning escapes and
    # the decode is still the float64 brute force (NaN sends a query to float64).
    gen = np.random.default_rng(5)
    V, n, m = 211, 6, 97
    W = gen.normal(size=(V, n)) * 3
    Z = W[gen.integers(0, V, m)] + gen.normal(size=(m, n))
    real = np.matmul
    calls = []

    def flaky(a, b, out=None):
        res = real(a, b, out=out)
        calls.append(1)
        if len(calls) % 3 == 0:
            res.reshape(-1)[len(calls) % res.size] = np.nan
            np.multiply(np.float32(np.inf), np.float32(0.0))  # raises "invalid"
        return res

    dec = ExactDecoder(make_embeddings(W), block_rows=16, block_cols=32, n_threads=1)
    monkeypatch.setattr(np, "matmul", flaky)
    if top2:
        r1, r2, _, _ = dec.decode_top2(Z)
        monkeypatch.undo()
        want = np.argsort(((W[None] - Z[:, None]) ** 2).sum(axis=2), axis=1,
                          kind="stable")[:, :2]
        np.testing.assert_array_equal(np.stack([r1, r2], axis=1), want)
    else:
        out = dec.decode(Z)
        monkeypatch.undo()
        np.testing.assert_array_equal(out, brute_force(Z, W))
    assert len(calls) > 10


def test_exact_duplicates_resolve_to_the_lowest_index_across_tiles():
    gen = np.random.default_rng(2)
    W = with_duplicates(gen)
    Z = np.concatenate([W[[3, 17, 49, 8, 40]], W[[3, 40]] + 1e-3 * gen.normal(size=(2, 4))])
    for rows, cols in ((None, None), (1, 7), (3, 1), (2, 13)):
        out = ExactDecoder(make_embeddings(W), block_rows=rows, block_cols=cols).decode(Z)
        assert out.tolist() == [3, 3, 3, 8, 8, 3, 8]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 4), st.integers(1, 30), st.integers(1, 9),
       st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_integer_grids_many_ties_equal_brute_force(V, n, m, rows, cols, seed):
    """Small integer coordinates: distances are exact, ties everywhere (midpoints, duplicates)."""
    W, Z = integer_grid(seed, V, n, m)
    out = ExactDecoder(make_embeddings(W), block_rows=rows, block_cols=cols).decode(Z)
    np.testing.assert_array_equal(out, brute_force(Z, W))


def test_float32_near_ties_are_decided_in_float64():
    """Pairs of words whose distances differ below float32 resolution: float64 decides."""
    gen = np.random.default_rng(5)
    n, pairs = 8, 300
    base = gen.normal(size=(pairs, n)).astype(np.float32)
    twin = base.copy()
    rows, cols = np.arange(pairs), gen.integers(0, n, pairs)
    twin[rows, cols] = np.nextafter(twin[rows, cols], np.float32(np.inf))  # one ulp away
    W = np.concatenate([base, twin])
    # queries far away (noise radius 40): float32 scores there resolve ~1e-4, the twins ~1e-7
    Z = base + gen.normal(size=(pairs, n)) * 40 / np.sqrt(n)
    ref = brute_force(Z, W)
    out = ExactDecoder(make_embeddings(W), block_cols=37).decode(Z)
    np.testing.assert_array_equal(out, ref)
    # the case is a real test: a plain float32 product gets some of these wrong
    W32 = W.astype(np.float32)
    naive = ((W32**2).sum(1)[None, :] - 2 * Z.astype(np.float32) @ W32.T).argmin(axis=1)
    assert np.any(naive != ref)


def test_float64_points_are_decoded_without_rounding_to_float32():
    emb = make_embeddings([[0.0], [1.0]])
    z = np.array([[0.5 + 1e-12], [0.5 - 1e-12], [0.5]])
    assert np.float32(z[0, 0]) == np.float32(0.5)  # the same point in float32
    assert ExactDecoder(emb).decode(z).tolist() == [1, 0, 0]


def test_real_embeddings_sample_equals_brute_force(default_embeddings):
    emb = default_embeddings
    gen = np.random.default_rng(3)
    src = gen.integers(0, len(emb), 40)
    W = emb.vectors[:20_000]
    sub = make_embeddings(W)
    Z = W[src % 20_000].astype(np.float64) + gen.normal(size=(40, emb.dim)) * 0.8
    np.testing.assert_array_equal(ExactDecoder(sub).decode(Z), brute_force(Z, W))


# -- memory and threads -------------------------------------------------------------------
def test_memory_budget_bounds_the_tiles_and_not_the_result():
    gen = np.random.default_rng(9)
    W = gen.normal(size=(300, 6))
    Z = gen.normal(size=(101, 6)) * 2
    emb = make_embeddings(W)
    ref = brute_force(Z, emb.vectors)
    for budget in (2_000, 50_000, DEFAULT_MEMORY_BUDGET):
        dec = ExactDecoder(emb, memory_budget=budget, n_threads=2)
        per_row = 4 * dec.block_cols + 4 * 7 + 8 * 6 + 64
        assert dec.n_threads * dec.block_rows * per_row <= max(budget, 2 * per_row)
        np.testing.assert_array_equal(dec.decode(Z), ref)
    assert ExactDecoder(emb, memory_budget=2_000, n_threads=2).block_cols < 300


def test_thread_counts_agree():
    gen = np.random.default_rng(4)
    W = gen.normal(size=(500, 10))
    Z = gen.normal(size=(1000, 10)) * 3
    emb = make_embeddings(W)
    a = ExactDecoder(emb, n_threads=1, block_rows=16).decode(Z)
    b = ExactDecoder(emb, n_threads=2, block_rows=16).decode(Z)
    c = ExactDecoder(emb, n_threads=3, block_rows=7).decode(Z)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)


# -- interface and validation ---------------------------------------------------------
def test_interface(tiny_embeddings):
    dec = ExactDecoder(tiny_embeddings)
    assert isinstance(dec, Decoder) and dec.name == "exact"
    assert dec.decode([0.9, 0.1]).tolist() == [1]  # a single point as a 1-D vector
    assert dec.decode(np.empty((0, 2))).shape == (0,)
    assert dec.decode(np.array([[11, 10]], dtype=np.int64)).tolist() == [3]
    assert "ExactDecoder" in repr(dec)


@pytest.mark.parametrize(("points", "match"), [
    ([[1.0, 2.0, 3.0]], r"points must have shape \(m, 2\)"),
    ([[np.nan, 0.0]], "points must be finite"),
    ([[np.inf, 0.0]], "points must be finite"),
    ([[1e300, 0.0]], "points must be finite"),
    (np.zeros((2, 2, 2)), r"points must have shape \(m, 2\)"),
])
def test_bad_points_rejected(tiny_embeddings, points, match):
    with pytest.raises(ValueError, match=match):
        ExactDecoder(tiny_embeddings).decode(points)


def test_bad_parameters_rejected(tiny_embeddings):
    with pytest.raises(TypeError, match="embeddings must be an Embeddings"):
        ExactDecoder(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="memory_budget must be an integer >= 1"):
        ExactDecoder(tiny_embeddings, memory_budget=0)
    with pytest.raises(TypeError, match="n_threads must be an integer"):
        ExactDecoder(tiny_embeddings, n_threads=1.5)
    with pytest.raises(ValueError, match="block_cols must be an integer >= 1"):
        ExactDecoder(tiny_embeddings, block_cols=0)
    with pytest.raises(TypeError, match="points must be real numbers"):
        ExactDecoder(tiny_embeddings).decode(np.array([["a", "b"]]))


# -- the shared threads helper --------------------------------------------------------------
@pytest.mark.parametrize("n_threads", [1, 2, 5])
def test_run_on_cores_gives_every_item_to_one_worker(n_threads):
    import threading

    seen: list[tuple[int, int]] = []
    lock = threading.Lock()

    def work(part: list[int]) -> None:
        with lock:
            seen.extend((x, threading.get_ident()) for x in part)

    run_on_cores(work, range(11), n_threads)
    assert sorted(x for x, _ in seen) == list(range(11))
    if n_threads == 1:  # a single worker runs in the calling thread
        assert {t for _, t in seen} == {threading.get_ident()}
    run_on_cores(work, [], n_threads)  # nothing to do: no worker at all
    assert len(seen) == 11


def test_run_on_cores_raises_a_workers_error():
    def work(part: list[int]) -> None:
        if 3 in part:
            raise ValueError("three")

    with pytest.raises(ValueError, match="three"):
        run_on_cores(work, range(6), 2)
    assert available_cores() >= 1
