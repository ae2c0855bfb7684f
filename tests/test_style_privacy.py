"""The style option's mechanism (obfuscation.style.StyleRun): a function word is released only
as a word of its class, and ε_f·d-privately among them.

On 1-D embeddings Madlib's noise is Laplace with density (ε/2)·exp(−ε|z|) (Thm. 2, n = 1) and
the restricted mechanism decodes to the nearest word of the class, so the output law is exact:
the Laplace mass of each word's cell.  For an output cell beyond two inputs the ratio of its
masses is exactly e^{ε_f·d}: the bound is tight there."""

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.math.randomness import check_random_state
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.obfuscation.style import StyleRun
from emprivacy.text.function_classes import STYLE_CLOSE, STYLE_OPEN

#: "be" forms at 0, 1, 2.5 with content words and a preposition between them.
POSITIONS = {"is": 0.0, "cat": 0.4, "was": 1.0, "of": 1.6, "are": 2.5, "the": 9.0, "a": 9.3}
BE = ["are", "is", "was"]  # the sub-vocabulary, sorted as the class's rows are
EPSILON_F = 1.0
DRAWS = 20_000
Z = 5.0


def laplace_cdf(z, epsilon):
    return 0.5 * math.exp(epsilon * z) if z < 0 else 1 - 0.5 * math.exp(-epsilon * z)


def exact_law(word):
    """P[output = w | input word] over BE, in BE order."""
    order = sorted(BE, key=POSITIONS.get)
    pos = [POSITIONS[w] for w in order]
    edges = [-math.inf, *((a + b) / 2 for a, b in itertools.pairwise(pos)), math.inf]
    cdf = [0.0 if e == -math.inf else 1.0 if e == math.inf
           else laplace_cdf(e - POSITIONS[word], EPSILON_F) for e in edges]
    mass = dict(zip(order, np.diff(cdf), strict=True))
    return np.array([mass[w] for w in BE])


@pytest.fixture(scope="module")
def run():
    words = list(POSITIONS)
    emb = Embeddings(words, [[POSITIONS[w]] for w in words], name="line")
    return StyleRun(EarthMoversPrivacy(emb, epsilon=40.0), EPSILON_F, run_key=b"k" * 32)


def released(run, word, seed):
    """The words released for DRAWS slots of ``word`` (one text, one stream)."""
    text = " ".join([f"{STYLE_OPEN}{word}{STYLE_CLOSE}"] * DRAWS)
    return run.release(text, check_random_state(seed)).split(" ")


def test_classes_with_two_words_are_slots(run):
    # "of": the only preposition of the embeddings, stays verbatim; "cat" is no function word
    assert run.words == frozenset({"is", "was", "are", "the", "a"})
    assert set(run.mechanisms) == {"be", "determiner"}
    assert run.mechanisms["be"].epsilon == EPSILON_F


@pytest.mark.parametrize("word", BE)
def test_only_words_of_the_class_come_out_with_the_exact_law(run, word):
    counts = Counter(released(run, word, 100 + BE.index(word)))
    assert set(counts) <= set(BE)
    freq = np.array([counts[w] for w in BE]) / DRAWS
    law = exact_law(word)
    se = np.sqrt(law * (1 - law) / DRAWS)
    assert np.all(np.abs(freq - law) <= Z * se + 1e-12)


def test_metric_privacy_between_every_pair_of_the_class_and_tight_at_the_ends(run):
    freq = {}
    for i, w in enumerate(BE):
        counts = Counter(released(run, w, 200 + i))
        freq[w] = np.array([counts[v] for v in BE]) / DRAWS
    for x, y in itertools.permutations(BE, 2):
        bound = math.exp(EPSILON_F * abs(POSITIONS[x] - POSITIONS[y]))
        assert (exact_law(x) / exact_law(y)).max() <= bound * (1 + 1e-12)
        slack = Z * np.sqrt((freq[x] + freq[y]) / DRAWS)  # 5 standard errors
        assert np.all(freq[x] <= bound * freq[y] + slack)
    # tight: the cell of "are" (beyond 1.75) lies past both "is" (0) and "was" (1), so
    # P[are | was] / P[are | is] = e^{ε_f·d(is, was)} exactly
    ratio = exact_law("was")[0] / exact_law("is")[0]
    assert ratio == pytest.approx(math.exp(EPSILON_F * 1.0), rel=1e-9)
    measured = freq["was"][0] / freq["is"][0]
    assert measured == pytest.approx(ratio, rel=0.15)  # P[are | is] ≈ 0.087: ~1,700 draws


def test_case_is_kept_and_i_is_written_upper(run):
    out = run.release(f"{STYLE_OPEN}The{STYLE_CLOSE} x", check_random_state(0))
    assert out.split(" ")[0] in ("The", "A")
