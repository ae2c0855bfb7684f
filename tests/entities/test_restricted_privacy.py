"""The restricted mechanism of an entity type (obfuscation.restricted.restricted_mechanism): it
releases only words of the type's sub-vocabulary, and is ε_e·d-private among them.

On 1-D embeddings Madlib's noise is Laplace with density (ε/2)·exp(−ε|z|) (Thm. 2 with n = 1)
and decoding picks the nearest word of the sub-vocabulary, so the output law is exact: the
Laplace mass of each word's cell (between the midpoints to its neighbours)."""

import itertools
import math

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.math.randomness import check_random_state
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.obfuscation.restricted import restricted_mechanism

#: The full vocabulary on a line; names at 0, 1, 2.5, common words between them.
POSITIONS = {"ann": 0.0, "cat": 0.4, "bob": 1.0, "dog": 1.6, "eve": 2.5}
NAMES = ["ann", "bob", "eve"]
EPSILON_E = 1.0
DRAWS = 20_000
Z = 5.0


def laplace_cdf(z, epsilon):
    return 0.5 * math.exp(epsilon * z) if z < 0 else 1 - 0.5 * math.exp(-epsilon * z)


def exact_law(x, epsilon):
    """P[output = name | input x] for the names at their positions."""
    pos = [POSITIONS[n] for n in NAMES]
    edges = [-math.inf, *((a + b) / 2 for a, b in itertools.pairwise(pos)), math.inf]
    cdf = [0.0 if e == -math.inf else 1.0 if e == math.inf else laplace_cdf(e - x, epsilon)
           for e in edges]
    return np.diff(cdf)


@pytest.fixture(scope="module")
def restricted():
    words = list(POSITIONS)
    emb = Embeddings(words, [[POSITIONS[w]] for w in words], name="line")
    full = EarthMoversPrivacy(emb, epsilon=40.0)  # the general ε: irrelevant here
    rows = np.array(sorted(words.index(n) for n in NAMES))
    return restricted_mechanism(full, rows, EPSILON_E, label="PERSON")


def test_only_names_come_out(restricted):
    assert restricted.embeddings.words == ("ann", "bob", "eve")
    assert restricted.epsilon == EPSILON_E and restricted.embeddings.name == "line[PERSON]"


@pytest.mark.parametrize("x", [0, 1, 2])
def test_output_law_is_the_laplace_mass_of_each_cell(restricted, x):
    out = restricted.privatize_indices(np.full(DRAWS, x), rng=check_random_state(100 + x))
    freq = np.bincount(out, minlength=3) / DRAWS
    law = exact_law(POSITIONS[NAMES[x]], EPSILON_E)
    se = np.sqrt(law * (1 - law) / DRAWS)
    assert np.all(np.abs(freq - law) <= Z * se + 1e-12)


def test_metric_privacy_between_every_pair_of_names(restricted):
    freq = {x: np.bincount(restricted.privatize_indices(
        np.full(DRAWS, x), rng=check_random_state(200 + x)), minlength=3) / DRAWS
        for x in range(3)}
    for x, y in itertools.permutations(range(3), 2):
        d = abs(POSITIONS[NAMES[x]] - POSITIONS[NAMES[y]])
        bound = math.exp(EPSILON_E * d)
        exact = exact_law(POSITIONS[NAMES[x]], EPSILON_E) / exact_law(POSITIONS[NAMES[y]],
                                                                      EPSILON_E)
        assert exact.max() <= bound * (1 + 1e-12)
        # measured: P[w | x] <= e^{ε_e·d}·P[w | x'] + slack (5 standard errors)
        slack = Z * np.sqrt((freq[x] + freq[y]) / DRAWS)
        assert np.all(freq[x] <= bound * freq[y] + slack)


# The rank resampling of entity slots (ENTITY_RANK_RESAMPLE, issue 40 item 9): each decoded
# surrogate (the pivot) is replaced by the word of rank r of its neighbour list with
# probability q^r (1 − q) / (1 − q^K), q = e^{−c·ε_e}, K = 3 here (the whole sub-vocabulary).
# It depends on the pivot alone, so the law is the Laplace law times a fixed kernel and the
# bound e^{ε_e·d} still holds; the kernel is exact, so the test is exact too.
RATE = 0.5  # a large c: the kernel moves much of the mass, so a wrong kernel shows


def resampling_kernel(c, epsilon):
    """K[p, o] = P[output o | pivot p] over NAMES (ranks by distance, ties by row)."""
    pos = [POSITIONS[n] for n in NAMES]
    q = math.exp(-c * epsilon)
    kernel = np.zeros((3, 3))
    for p in range(3):
        order = sorted(range(3), key=lambda o: (abs(pos[o] - pos[p]), o))
        for r, o in enumerate(order):
            kernel[p, o] = q ** r * (1 - q) / (1 - q ** 3)
    return kernel


@pytest.fixture(scope="module")
def resampled():
    words = list(POSITIONS)
    emb = Embeddings(words, [[POSITIONS[w]] for w in words], name="line")
    rows = np.array(sorted(words.index(n) for n in NAMES))
    return restricted_mechanism(EarthMoversPrivacy(emb, epsilon=40.0), rows, EPSILON_E,
                                label="PERSON", rank_resample=RATE)


def test_rank_resampling_reaches_the_restricted_mechanism_unless_it_has_its_own():
    words = list(POSITIONS)
    emb = Embeddings(words, [[POSITIONS[w]] for w in words], name="line")
    rows = np.array([0, 2, 4])
    assert restricted_mechanism(EarthMoversPrivacy(emb, epsilon=4.0), rows, 1.0, label="P",
                                rank_resample=0.3).rank_resample == 0.3
    own = EarthMoversPrivacy(emb, epsilon=4.0, rank_resample=0.9)
    assert restricted_mechanism(own, rows, 1.0, label="P",
                                rank_resample=0.3).rank_resample == 0.9
    assert restricted_mechanism(EarthMoversPrivacy(emb, epsilon=4.0), rows, 1.0,
                                label="P").rank_resample is None


@pytest.mark.parametrize("x", [0, 1, 2])
def test_resampled_law_is_the_laplace_law_times_the_rank_kernel(resampled, x):
    out = resampled.privatize_indices(np.full(DRAWS, x), rng=check_random_state(300 + x))
    freq = np.bincount(out, minlength=3) / DRAWS
    law = exact_law(POSITIONS[NAMES[x]], EPSILON_E) @ resampling_kernel(RATE, EPSILON_E)
    assert not np.allclose(law, exact_law(POSITIONS[NAMES[x]], EPSILON_E), atol=0.02)
    se = np.sqrt(law * (1 - law) / DRAWS)
    assert np.all(np.abs(freq - law) <= Z * se + 1e-12)


def test_resampling_keeps_metric_privacy_between_every_pair_of_names(resampled):
    kernel = resampling_kernel(RATE, EPSILON_E)
    freq = {x: np.bincount(resampled.privatize_indices(
        np.full(DRAWS, x), rng=check_random_state(400 + x)), minlength=3) / DRAWS
        for x in range(3)}
    for x, y in itertools.permutations(range(3), 2):
        d = abs(POSITIONS[NAMES[x]] - POSITIONS[NAMES[y]])
        bound = math.exp(EPSILON_E * d)
        law_x = exact_law(POSITIONS[NAMES[x]], EPSILON_E) @ kernel
        law_y = exact_law(POSITIONS[NAMES[y]], EPSILON_E) @ kernel
        assert (law_x / law_y).max() <= bound * (1 + 1e-12)
        slack = Z * np.sqrt((freq[x] + freq[y]) / DRAWS)
        assert np.all(freq[x] <= bound * freq[y] + slack)
