"""Rank resampling (Asghar, Carpentier, Zhao, Kaafar, PoPETs 2026): post-processing."""

from __future__ import annotations

import math
import pickle
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from emprivacy import EarthMoversPrivacy, Embeddings
from emprivacy.math.randomness import check_random_state
from emprivacy.mechanisms._tiles import VocabularyGeometry
from emprivacy.mechanisms.curse import (
    NEGLIGIBLE_MASS,
    RankResampler,
    neighbour_ranks,
    rank_buckets,
)

#: A chi-square test must have p > P_MIN (seeded: deterministic tests).
P_MIN = 1e-4


def line(positions, name="line"):
    pos = np.asarray(positions, dtype=np.float64)
    return Embeddings([f"w{i}" for i in range(pos.size)], pos[:, None], name=name)


def grid_embeddings(n_words=3000, seed=0):
    """Integer vectors in {−3…3}³: exact ties and duplicate vectors everywhere."""
    g = np.random.default_rng(seed)
    return Embeddings([f"w{i}" for i in range(n_words)],
                      g.integers(-3, 4, size=(n_words, 3)), name="grid")


def brute_force_ranking(emb, pivot):
    """The pivot, then every other word by (float64 squared distance, row)."""
    v = emb.vectors.astype(np.float64)
    d2 = ((v - v[pivot]) ** 2).sum(axis=1)
    d2[pivot] = -1.0
    return np.lexsort((np.arange(len(emb)), d2))


# -- the ranking -------------------------------------------------------------------------
@pytest.mark.parametrize("top_k", [1, 5, 50, 3000])
def test_neighbour_lists_equal_the_brute_force_ranking(top_k):
    emb = grid_embeddings()
    res = RankResampler(emb, c=1.0, epsilon=1.0, top_k=top_k)
    pivots = np.random.default_rng(1).integers(0, len(emb), size=40)
    lists = res.neighbours(pivots)
    assert lists.shape == (40, top_k)
    for p, row in zip(pivots, lists, strict=True):
        np.testing.assert_array_equal(row, brute_force_ranking(emb, p)[:top_k])


def test_pivot_first_even_with_a_duplicate_at_a_lower_row_and_ties_by_row():
    emb = line([1.0, 1.0, 2.0, 0.0, 3.0, -1.0])  # w0 duplicates w1; w2, w3 tie around w1
    res = RankResampler(emb, c=1.0, epsilon=1.0)
    assert res.neighbours([1]).tolist() == [[1, 0, 2, 3, 4, 5]]
    assert res.neighbours([0]).tolist() == [[0, 1, 2, 3, 4, 5]]
    np.testing.assert_array_equal(neighbour_ranks(emb, [1] * 6, [1, 0, 2, 3, 4, 5]),
                                  np.arange(6))


def test_the_sampled_threshold_falls_back_when_it_misleads():
    """A strided sample of the vocabulary that holds all the near words: the threshold
    it gives has fewer than K words below it, and the whole row is searched instead."""
    k, n_words = 12, 768  # the sample is every 4th row (768 // (16·12) = 4)
    pos = np.full(n_words, 1000.0) + np.arange(n_words)
    pos[::4] = np.arange(n_words // 4)  # sampled rows near the pivot (row 0) ...
    pos[1:40:4] = 0.5 + np.arange(10)  # ... and 10 unsampled rows among them
    emb = line(pos)
    res = RankResampler(emb, c=1.0, epsilon=1.0, top_k=k)
    np.testing.assert_array_equal(res.neighbours([0])[0], brute_force_ranking(emb, 0)[:k])


@settings(max_examples=40, deadline=None)
@given(scale=st.sampled_from([1e-6, 1e-2, 1.0, 3.0, 1e3, 1e7]),
       offset=st.sampled_from([0.0, 1.0, 1e4]), dim=st.integers(1, 64),
       seed=st.integers(0, 2**16))
def test_the_float32_screen_is_within_its_bound_of_the_exact_sum(scale, offset, dim, seed):
    """VocabularyGeometry.screen: every value within s₃₂(q) of the float64 sum that
    defines the ranking, whatever the scale and the offset of the vectors."""
    g = np.random.default_rng(seed)
    vectors = (offset + scale * g.standard_normal((300, dim))).astype(np.float32)
    emb = Embeddings([f"w{i}" for i in range(300)], vectors, name="screen")
    geo = VocabularyGeometry(emb, block_cols=128)
    if not geo.screens:  # vectors that float32 rounds to one point: searched in float64
        assert geo.radius <= 1e-10
        return
    rows = g.integers(0, 300, size=25)
    q32, bound = geo.screen_queries(rows)
    for t in range(geo.n_tiles):
        values = geo.screen(q32, t).astype(np.float64)
        cols = np.arange(int(geo.starts[t]), int(geo.starts[t] + geo.lens[t]))
        exact = np.array([[geo.exact_squared(np.array([r]), np.array([c]))[0] for c in cols]
                          for r in rows])
        assert (np.abs(values - exact) <= bound[:, None]).all()


@pytest.mark.parametrize("kept", [True, False], ids=["kept", "tile-by-tile"])
@pytest.mark.parametrize("scale", [1e-12, 1e-4, 1.0, 1e17])
def test_near_ties_below_float32_precision_rank_as_the_brute_force(scale, kept, monkeypatch):
    """Words a float32 screen cannot tell apart (distances equal to 7 digits) are ranked
    by their float64 distances all the same, with the float32 copy kept or made tile by
    tile; vectors too large for float32 (1e17) or so small that the bound's floor would let
    every word through (1e-12) are searched in float64."""
    from emprivacy.mechanisms import _tiles

    if not kept:
        monkeypatch.setattr(_tiles, "_SCREEN_KEPT_BYTES", 0)
    g = np.random.default_rng(5)
    base = g.standard_normal((40, 8))
    vectors = np.repeat(base, 30, axis=0) * (1 + 2e-7 * g.standard_normal((1200, 8)))
    emb = Embeddings([f"w{i}" for i in range(1200)], scale * vectors, name="near")
    res = RankResampler(emb, c=1.0, epsilon=1.0, top_k=45)
    assert res._geo.screens == (1e-9 < scale < 1e15)
    pivots = g.integers(0, 1200, size=30)
    for p, row in zip(pivots, res.neighbours(pivots), strict=True):
        np.testing.assert_array_equal(row, brute_force_ranking(emb, p)[:45])
    assert (res._geo._tiles32 is not None) == (kept and res._geo.screens)


def test_the_float32_copy_is_made_once_for_all_the_threads(monkeypatch):
    """The search's threads share one float32 copy of the vocabulary, made before them."""
    made = []
    real = VocabularyGeometry._screen_rows

    def counting(self, start, stop):
        made.append((start, stop))
        return real(self, start, stop)

    monkeypatch.setattr(VocabularyGeometry, "_screen_rows", counting)
    emb = grid_embeddings(3000, seed=4)
    emb = Embeddings(emb.words, emb.vectors + 0.01 * np.random.default_rng(4).standard_normal(
        emb.vectors.shape), name="grid")
    res = RankResampler(emb, c=1.0, epsilon=1.0, top_k=20)
    res._n_threads = 8
    res.neighbours(np.arange(0, 3000, 3))
    assert made == [(0, 3000)]


def test_neighbour_ranks_equal_the_brute_force_ranks():
    emb = grid_embeddings(1500, seed=2)
    g = np.random.default_rng(3)
    rows = np.repeat(g.integers(0, len(emb), size=3), len(emb))
    outputs = np.tile(np.arange(len(emb)), 3)
    ranks = neighbour_ranks(emb, rows, outputs, n_threads=2)
    for i in range(3):
        seg = slice(i * len(emb), (i + 1) * len(emb))
        expected = np.empty(len(emb), dtype=np.int64)
        expected[brute_force_ranking(emb, rows[seg][0])] = np.arange(len(emb))
        np.testing.assert_array_equal(ranks[seg], expected)


def test_neighbour_ranks_of_the_lists_are_their_positions():
    emb = grid_embeddings(2000, seed=4)
    res = RankResampler(emb, c=0.5, epsilon=1.0)
    pivots = np.array([3, 77, 1999])
    lists = res.neighbours(pivots)
    ranks = neighbour_ranks(emb, np.repeat(pivots, res.top_k), lists.ravel())
    np.testing.assert_array_equal(ranks, np.tile(np.arange(res.top_k), 3))


def test_neighbour_ranks_doctest_cases_and_errors(tiny_embeddings):
    assert neighbour_ranks(tiny_embeddings, [0, 0, 2], [0, 1, 4]).tolist() == [0, 1, 4]
    with pytest.raises(ValueError, match=r"^rows and outputs must have the same length; "
                                         r"got 2 and 1$"):
        neighbour_ranks(tiny_embeddings, [0, 1], [0])
    with pytest.raises(ValueError, match=r"^outputs must lie in \[0, 5\); got \[0, 9\]$"):
        neighbour_ranks(tiny_embeddings, [0, 1], [0, 9])
    with pytest.raises(TypeError, match=r"^rows must be integers; got dtype"):
        neighbour_ranks(tiny_embeddings, [0.5], [0])
    assert neighbour_ranks(tiny_embeddings, [], []).tolist() == []


def test_rank_buckets():
    assert rank_buckets([0, 0, 5, 250]) == {"0": 0.5, "1-100": 0.25, ">100": 0.25}
    assert rank_buckets([1, 3, 4], close=3) == {"0": 0.0, "1-3": 2 / 3, ">3": 1 / 3}
    with pytest.raises(ValueError, match=r"^ranks must hold at least one rank; got none$"):
        rank_buckets([])


# -- the law of the released rank --------------------------------------------------------
def test_default_top_k_drops_less_than_negligible_mass():
    emb = grid_embeddings(3000)
    for c, epsilon in [(0.04, 10.0), (0.007, 1.0), (1.0, 3.0), (5.0, 7.0)]:
        res = RankResampler(emb, c=c, epsilon=epsilon)
        k = math.floor(math.log(1 / NEGLIGIBLE_MASS) / (c * epsilon)) + 1
        assert res.top_k == min(k, len(emb))  # at |V| nothing is cut
        assert math.exp(-c * epsilon * k) < NEGLIGIBLE_MASS  # the cut mass, relative
        assert k == 1 or math.exp(-c * epsilon * (k - 1)) >= NEGLIGIBLE_MASS  # the smallest
    assert RankResampler(emb, c=1e-6, epsilon=1.0).top_k == len(emb)  # capped at |V|
    assert RankResampler(emb, c=1.0, epsilon=1.0, top_k=10**9).top_k == len(emb)


def test_rank_probabilities_closed_form():
    res = RankResampler(grid_embeddings(500), c=0.3, epsilon=2.0, top_k=20)
    p = res.rank_probabilities()
    assert p.sum() == pytest.approx(1.0, rel=1e-12)
    np.testing.assert_allclose(p[1:] / p[:-1], math.exp(-0.6), rtol=1e-12)


@pytest.mark.parametrize(("c", "top_k"), [(0.3, None), (0.05, 7), (2.0, None)])
def test_released_ranks_follow_the_closed_form(c, top_k):
    """Empirical ranks of the released words, measured by neighbour_ranks, vs P(r)."""
    emb = grid_embeddings(1000, seed=6)
    res = RankResampler(emb, c=c, epsilon=1.0, top_k=top_k)
    pivots = np.tile(np.array([0, 10, 500]), 10_000)
    out = res.resample(pivots, check_random_state(3))
    ranks = neighbour_ranks(emb, pivots, out)
    assert ranks.max() < res.top_k
    counts = np.bincount(ranks, minlength=res.top_k)
    expected = res.rank_probabilities() * pivots.size
    keep = expected >= 5
    observed = np.append(counts[keep], counts[~keep].sum())
    exp_cells = np.append(expected[keep], expected[~keep].sum())
    if exp_cells[-1] == 0:
        observed, exp_cells = observed[:-1], exp_cells[:-1]
    assert stats.chisquare(observed, exp_cells).pvalue > P_MIN


def test_huge_rate_keeps_the_pivot_and_top_k_one_too():
    emb = grid_embeddings(300)
    pivots = np.arange(300)
    np.testing.assert_array_equal(
        RankResampler(emb, c=100.0, epsilon=1.0).resample(pivots, check_random_state(0)), pivots)
    np.testing.assert_array_equal(
        RankResampler(emb, c=1e-3, epsilon=1.0, top_k=1).resample(pivots,
                                                                   check_random_state(0)),
        pivots)


def test_one_uniform_per_pivot_and_reproducible():
    emb = grid_embeddings(400)
    res = RankResampler(emb, c=0.2, epsilon=1.0)
    pivots = np.array([5, 5, 9, 0, 399])
    g = check_random_state(11)
    a = res.resample(pivots, g)
    after = g.random()
    g2 = check_random_state(11)
    u = g2.random(pivots.size)
    assert g2.random() == after  # exactly one uniform per pivot was drawn
    ranks = np.floor(-np.log1p(-u * (1 - math.exp(-0.2 * res.top_k))) / 0.2).astype(int)
    np.testing.assert_array_equal(a, res.neighbours(pivots)[np.arange(5), ranks])
    np.testing.assert_array_equal(res.resample(pivots, check_random_state(11)), a)
    assert res.resample(np.array([], dtype=np.int64), g).size == 0


@pytest.mark.parametrize("short", [1, 3, 8])
def test_short_lists_release_what_the_full_lists_release(monkeypatch, short):
    """A draw below the short width reads the pivot's short list, the others its full list:
    on a grid full of ties and duplicate vectors, every released word is the one the full
    ranking gives at the drawn rank, and the short lists are the full lists' prefixes."""
    from emprivacy.mechanisms import curse as curse_module

    monkeypatch.setattr(curse_module, "_SHORT_RANKS", short)
    emb = grid_embeddings(1500, seed=4)
    res = RankResampler(emb, c=0.15, epsilon=1.0)  # K = 185: 2·short ≤ K
    assert res._short is not None
    pivots = np.random.default_rng(2).integers(0, len(emb), size=3000)
    u = check_random_state(5).random(pivots.size)
    ranks = np.floor(-np.log1p(-u * -math.expm1(-0.15 * res.top_k)) / 0.15).astype(int)
    assert (ranks < short).any() and (ranks >= short).any()
    out = res.resample(pivots, check_random_state(5))
    full = RankResampler(emb, c=0.15, epsilon=1.0).neighbours(pivots)
    np.testing.assert_array_equal(out, full[np.arange(pivots.size), ranks])
    shorts = res._top_k_lists(np.unique(pivots), short)["neighbours"]
    np.testing.assert_array_equal(shorts, res.neighbours(np.unique(pivots))[:, :short])


def test_the_cache_evicts_and_stays_right(monkeypatch):
    from emprivacy.mechanisms import curse as curse_module

    monkeypatch.setattr(curse_module, "_CACHE_BYTES", 1)  # capacity: the floor, 16 pivots
    emb = grid_embeddings(2000, seed=8)
    res = RankResampler(emb, c=1.0, epsilon=1.0, top_k=4)
    pivots = np.random.default_rng(0).permutation(2000)[:700]
    lists = res.neighbours(pivots)  # 700 distinct pivots, fetched in chunks of 16
    assert len(res._cache) == curse_module._CACHE_ROWS == 16
    for p, row in zip(pivots[::50], lists[::50], strict=True):
        np.testing.assert_array_equal(row, brute_force_ranking(emb, p)[:4])


def test_pickles_small_and_equal():
    emb = grid_embeddings(3000)
    res = RankResampler(emb, c=0.2, epsilon=1.0)
    pivots = np.arange(0, 3000, 3)
    first = res.resample(pivots, check_random_state(2))
    data = pickle.dumps(res)
    assert len(data) < 4 * emb.vectors.nbytes
    copy = pickle.loads(data)
    np.testing.assert_array_equal(copy.resample(pivots, check_random_state(2)), first)


# -- post-processing ---------------------------------------------------------------------
def test_madlib_then_resampling_depends_on_the_input_only_through_the_pivot():
    """Given the pivot, the released word's law is the same whatever the input was
    (chi-square test of homogeneity per pivot, seeded, p > P_MIN)."""
    emb = line([0.0, 0.4, 0.9, 1.5, 2.2, 3.0, 3.9])
    madlib = EarthMoversPrivacy(emb, epsilon=1.0, rng=0)
    res = RankResampler(emb, c=0.5, epsilon=1.0)
    n = 30_000
    outputs = {}
    for x, seed in ((1, 1), (5, 2)):
        gen = check_random_state(seed)
        pivots = madlib.privatize_indices(np.full(n, x), rng=gen)
        outputs[x] = (pivots, res.resample(pivots, gen))
    compared = 0
    for p in range(len(emb)):
        a = outputs[1][1][outputs[1][0] == p]
        b = outputs[5][1][outputs[5][0] == p]
        if min(a.size, b.size) < 1000:
            continue
        table = np.array([np.bincount(a, minlength=len(emb)),
                          np.bincount(b, minlength=len(emb))])
        table = table[:, table.sum(axis=0) > 0]
        assert stats.chi2_contingency(table).pvalue > P_MIN, p
        compared += 1
    assert compared >= 3
    # while the inputs' output laws do differ (the pivots' laws differ)
    assert abs(np.mean(outputs[1][1] <= 2) - np.mean(outputs[5][1] <= 2)) > 0.2


# -- the interface -----------------------------------------------------------------------
def test_repr_and_record_fields(tiny_embeddings):
    res = RankResampler(tiny_embeddings, c=0.04, epsilon=10.0)
    assert res.top_k == 5
    assert repr(res) == ("RankResampler(embeddings=Embeddings(name='tiny', words=5, dim=2), "
                         "c=0.04, epsilon=10.0, top_k=5)")
    assert res.record_fields() == {"rank_resample": 0.04, "rank_resample_top_k": 5}


@pytest.mark.parametrize("c", [0.0, -1.0, math.nan, math.inf])
def test_bad_c(tiny_embeddings, c):
    msg = f"c must be a finite number > 0; got {c!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        RankResampler(tiny_embeddings, c=c, epsilon=1.0)


@pytest.mark.parametrize("top_k", [0, -3])
def test_bad_top_k(tiny_embeddings, top_k):
    with pytest.raises(ValueError, match=f"^top_k must be an integer >= 1; got {top_k}$"):
        RankResampler(tiny_embeddings, c=1.0, epsilon=1.0, top_k=top_k)


def test_bad_arguments(tiny_embeddings):
    with pytest.raises(TypeError, match=r"^top_k must be an integer >= 1; got 1.5"):
        RankResampler(tiny_embeddings, c=1.0, epsilon=1.0, top_k=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^c must be a finite number > 0; got '1'"):
        RankResampler(tiny_embeddings, c="1", epsilon=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^epsilon must be a finite number > 0; got 0.0$"):
        RankResampler(tiny_embeddings, c=1.0, epsilon=0.0)
    with pytest.raises(TypeError):
        RankResampler(tiny_embeddings, 1.0, 1.0)  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"^embeddings must be an Embeddings; got list$"):
        RankResampler([[0.0]], c=1.0, epsilon=1.0)  # type: ignore[arg-type]
    res = RankResampler(tiny_embeddings, c=1.0, epsilon=1.0)
    with pytest.raises(TypeError, match=r"^rng must be a numpy.random.Generator; got int$"):
        res.resample(np.array([0]), 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^pivots must lie in \[0, 5\); got \[0, 5\]$"):
        res.resample(np.array([0, 5]), check_random_state(0))
    with pytest.raises(ValueError, match=r"^pivots must be 1-D; got shape \(1, 1\)$"):
        res.neighbours(np.array([[0]]))


def test_a_list_of_every_word_is_searched_in_bounded_memory():
    """c·ε tiny (``--param rank_resample=1e-300``): each pivot's list is the whole
    vocabulary; blocks of 256 such rows took 541 MB here (17 GB on a 400,000-word
    vocabulary, and the run was killed), now a few rows at a time."""
    import tracemalloc

    gen = np.random.default_rng(0)
    emb = Embeddings([f"w{i}" for i in range(4000)],
                     gen.normal(size=(4000, 50)).astype(np.float32), name="g")
    res = RankResampler(emb, c=1e-300, epsilon=5.0)
    assert res.top_k == 4000
    tracemalloc.start()
    try:
        out = res.resample(np.arange(200), np.random.default_rng(0))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 160e6
    assert out.shape == (200,) and out.min() >= 0 and out.max() < 4000


@pytest.mark.parametrize("sizes", [(3, 0, 5, 1), (0,), (7,), (2, 2, 2, 2, 2, 2)])
def test_resample_many_draws_what_resample_draws_part_by_part(sizes):
    """Every document's pivots resampled in one pass (one neighbour search for all, the
    cost of 2,000 short documents with entity slots) give, draw for draw, the words of one
    ``resample`` call per document with the same generators — and leave each generator where
    ``resample`` leaves it."""
    gen = np.random.default_rng(3)
    emb = Embeddings([f"w{i}" for i in range(40)], gen.normal(size=(40, 3)), name="cloud")
    res = RankResampler(emb, c=0.2, epsilon=2.0)
    parts = [gen.integers(0, 40, size=n) for n in sizes]
    one_by_one = [res.resample(p, np.random.default_rng(100 + k)) for k, p in enumerate(parts)]
    rngs = [np.random.default_rng(100 + k) for k in range(len(parts))]
    together = res.resample_many(parts, rngs)
    assert len(together) == len(parts)
    for a, b in zip(one_by_one, together, strict=True):
        np.testing.assert_array_equal(a, b)
    after = [np.random.default_rng(100 + k) for k in range(len(parts))]
    for p, r in zip(parts, after, strict=True):
        r.random(p.size)
    assert [r.random() for r in rngs] == [r.random() for r in after]
    with pytest.raises(ValueError, match="same length"):
        res.resample_many(parts, rngs[:-1] if rngs else [np.random.default_rng(0)])
