"""When TEM is SanText (issue 22 item 18).

TEM's law is ``∝ exp(−ε·min(d, γ)/2)``, SanText's ``∝ exp(−ε·d/2)``.  For an input x with
``γ ≥ max_w d(x, w)`` the two are the same law — and, sharing the lazy Gumbel-max sampler,
the same draws for the same generator.  Where γ is smaller, TEM lifts the words beyond γ to
the weight ``e^{−εγ/2}``: their total mass under TEM is at most β by the choice of γ, and
the total variation between the two laws is exactly that mass minus SanText's, so ≤ β.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from emprivacy import Embeddings
from emprivacy.mechanisms.santext import SanText
from emprivacy.mechanisms.tem import TruncatedExponential, truncation_threshold
from emprivacy.protection.epsilon.mechanism_study import largest_distances, tem_truncation

#: TEM's default β (the value of the peers' code; docs/MECHANISMS.md).
BETA = 0.001


@pytest.fixture(scope="module")
def far_cluster() -> Embeddings:
    """Word 0 at the origin; nine words in a tight cluster at distance ≈ 10 from it."""
    gen = np.random.default_rng(3)
    far = np.array([10.0, 0.0]) + 0.05 * gen.standard_normal((9, 2))
    return Embeddings([f"w{i}" for i in range(10)], np.vstack([[0.0, 0.0], far]),
                      name="far-cluster")


def test_the_default_beta_is_the_one_documented():
    import inspect

    assert inspect.signature(TruncatedExponential).parameters["beta"].default == BETA


def test_largest_distances_are_exact(far_cluster):
    d = cdist(far_cluster.vectors.astype(np.float64), far_cluster.vectors.astype(np.float64))
    np.testing.assert_allclose(largest_distances(far_cluster), d.max(axis=1), rtol=1e-15)
    gen = np.random.default_rng(0)
    emb = Embeddings([f"v{i}" for i in range(700)], gen.normal(size=(700, 5)) * 3 + 40)
    rows = gen.choice(700, size=50, replace=False)
    d = cdist(emb.vectors[rows].astype(np.float64), emb.vectors.astype(np.float64))
    np.testing.assert_allclose(largest_distances(emb, rows), d.max(axis=1), rtol=1e-12)


def test_tem_is_santext_draw_for_draw_when_gamma_covers_every_word(far_cluster):
    """ε = 1: γ = 2·ln(0.999·9/0.001) ≈ 18.2 ≥ every distance (≤ 10.2): same law, same draws."""
    eps = 1.0
    gamma = truncation_threshold(10, epsilon=eps, beta=BETA)
    assert gamma >= largest_distances(far_cluster).max()
    (report,) = tem_truncation(far_cluster, epsilons=[eps], beta=BETA)
    assert report.active == 0 and report.words == 10
    tem = TruncatedExponential(far_cluster, epsilon=eps)
    san = SanText(far_cluster, epsilon=eps)
    for x in range(10):
        np.testing.assert_array_equal(tem.output_probabilities(x), san.output_probabilities(x))
    inputs = np.repeat(np.arange(10), 2000)
    for seed in range(3):
        gen = np.random.default_rng
        np.testing.assert_array_equal(tem.privatize_indices(inputs, rng=gen(seed)),
                                      san.privatize_indices(inputs, rng=gen(seed)))


def test_tem_differs_from_santext_by_at_most_beta_when_gamma_is_small(far_cluster):
    """ε = 4: γ ≈ 4.55 < 10, so for word 0 the nine far words get e^{−εγ/2} each under TEM
    (total ≈ β) against e^{−20} under SanText."""
    eps = 4.0
    gamma = truncation_threshold(10, epsilon=eps, beta=BETA)
    assert gamma < 5
    (report,) = tem_truncation(far_cluster, epsilons=[eps], beta=BETA)
    assert report.active == 10  # every word has a word beyond γ
    tem = TruncatedExponential(far_cluster, epsilon=eps)
    san = SanText(far_cluster, epsilon=eps)
    for x in range(10):
        p, q = tem.output_probabilities(x), san.output_probabilities(x)
        tv = 0.5 * np.abs(p - q).sum()
        assert 0 < tv <= BETA * (1 + 1e-9)
    p0 = tem.output_probabilities(0)
    far_mass = p0[1:].sum()
    assert far_mass == pytest.approx(9 * math.exp(-eps * gamma / 2)
                                     / (1 + 9 * math.exp(-eps * gamma / 2)), rel=1e-12)
    assert far_mass == pytest.approx(BETA, rel=1e-3)  # all nine beyond γ: the bound is tight
    # seeded draws: n = 200,000 copies of word 0.  TEM's far count is Binomial(n, ≈0.001),
    # mean 200, sd 14: accepted in [140, 260] (±4.2 sd).  SanText's far probability is
    # 9·e^{−20}/(1 + …) ≈ 1.9e-8: P(any far draw) ≈ 0.004, so 0 far draws is required
    # (fixed seed).
    n = 200_000
    words = np.zeros(n, dtype=np.int64)
    gen = np.random.default_rng
    tem_far = int(np.count_nonzero(tem.privatize_indices(words, rng=gen(11)) != 0))
    san_far = int(np.count_nonzero(san.privatize_indices(words, rng=gen(11)) != 0))
    assert 140 <= tem_far <= 260
    assert san_far == 0


def test_calibrate_tem_says_where_tem_is_santext(far_cluster, tmp_path, capsys):
    from emprivacy.cli import main

    path = tmp_path / "far.txt"
    path.write_text("".join(f"w{'abcdefghij'[i]} {v[0]:.6f} {v[1]:.6f}\n"
                            for i, v in enumerate(far_cluster.vectors)), encoding="utf-8")
    assert main(["calibrate", "--embeddings", str(path), "--mechanism", "tem", "--epsilons",
                 "1,4", "--words", str(_words(tmp_path)), "--trials", "5", "--seed", "0",
                 "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("tem (β = 0.001): γ = 18.")
    assert ("truncation active for every studied word at ε = 4; for none at ε = 1 (TEM is "
            "SanText exactly there)") in out[-1]


def _words(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("wa wd wh\n", encoding="utf-8")
    return path
