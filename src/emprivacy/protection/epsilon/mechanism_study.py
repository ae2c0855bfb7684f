"""Where a mechanism sends words: sampled statistics for any mechanism of the family.

:mod:`emprivacy.protection.epsilon.deniability` computes the plausible-deniability statistics of the
paper's mechanism exactly for every ε at once, using the geometry of its noise.
The other mechanisms (:mod:`emprivacy.mechanisms`: Mahalanobis, Vickrey, TEM,
SanText, the rank-resampling post-processing) have no such shortcut, so this
module measures the *same* statistics by running the mechanism: for a sample of
words w and ``trials`` independent runs of the single-word mechanism K,

* ``N_w`` — the fraction of runs with ``K(w) = w`` (Feyisetan et al., WSDM 2020);
* ``S_w`` — the number of distinct output words;
* the mean Euclidean embedding distance ``‖Vec(K(w)) − Vec(w)‖`` moved;

and the **rank histogram** of the released words in the input's neighbour list
(rank 0: the input itself; 1–100: "close"; above: "distant") — Fig. 2 of Asghar,
Carpentier, Zhao, Kaafar (PoPETs 2026), which shows that in high dimensions the
nearest-word mechanisms release either the input or a distant word, rarely a
close neighbour.  Because ε values of different mechanisms are not comparable,
these statistics (and the privacy–utility frontier of the experiment) are how
mechanisms are compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from emprivacy._validation import check_memory, check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.mechanisms.curse import neighbour_ranks, rank_buckets
from emprivacy.protection.epsilon.deniability import sample_words

__all__ = ["MechanismStudy", "TemTruncation", "largest_distances", "study_mechanism",
           "summarise_truncation", "tem_truncation"]


@dataclass(frozen=True)
class MechanismStudy:
    """Sampled statistics of one mechanism at its ε (see the module docstring).

    Attributes
    ----------
    mechanism : str
        The mechanism's name (``"madlib"``, ``"tem"``, …).
    parameters : dict
        Its record fields (metric, parameters).
    epsilon : float
    words : tuple of str, length k
    trials : int
    per_word : (k,) structured array
        Fields ``unchanged`` (``N_w``), ``distinct`` (``S_w``) and ``distance_moved``
        (mean distance moved), per word; also the properties of the same names.
    ranks : dict
        Proportions of released words at rank ``"0"``, ``"1-<close>"`` and
        ``"><close>"`` in the input's neighbour list, over ``rank_sample`` runs.
    rank_sample : int
        How many (input, output) pairs the rank histogram is computed on.
    """

    mechanism: str
    parameters: dict[str, Any]
    epsilon: float
    words: tuple[str, ...]
    trials: int
    per_word: np.ndarray = field(repr=False)
    ranks: dict[str, float]
    rank_sample: int

    @property
    def unchanged(self) -> np.ndarray:
        """``N_w`` per word: the fraction of runs returning w."""
        return np.asarray(self.per_word["unchanged"])

    @property
    def distinct(self) -> np.ndarray:
        """``S_w`` per word: the number of distinct outputs."""
        return np.asarray(self.per_word["distinct"])

    @property
    def distance_moved(self) -> np.ndarray:
        """Mean Euclidean distance moved, per word."""
        return np.asarray(self.per_word["distance_moved"])

    def summary(self) -> dict[str, Any]:
        """The statistics as a JSON-ready dict (no per-word data)."""
        return {
            "mechanism": self.mechanism,
            **self.parameters,
            "epsilon": self.epsilon,
            "words": len(self.words),
            "trials": self.trials,
            "median_unchanged": float(np.median(self.unchanged)),
            "mean_unchanged": float(np.mean(self.unchanged)),
            "median_distinct": float(np.median(self.distinct)),
            "mean_distinct": float(np.mean(self.distinct)),
            "mean_distance_moved": float(np.mean(self.distance_moved)),
            "rank_histogram": dict(self.ranks),
            "rank_sample": self.rank_sample,
        }


def study_mechanism(mechanism: WordMechanism, *, words: Sequence[str] | None = None,
                    n_words: int = 200, trials: int = 100, rank_sample: int = 2000,
                    close: int = 100, rng: RandomState = None, lang: str = "en"
                    ) -> MechanismStudy:
    """Run ``mechanism`` ``trials`` times on each studied word and summarise.

    Parameters
    ----------
    mechanism : WordMechanism
        Any mechanism of :mod:`emprivacy.mechanisms`, at its own ε.
    words : sequence of str, optional
        The words to study (in the vocabulary); default ``n_words`` non-stopwords
        drawn by frequency (:func:`emprivacy.protection.epsilon.deniability.sample_words`).
    n_words, trials : int
        Words drawn when ``words`` is not given; runs per word.
    rank_sample : int
        Runs (input, output pairs, drawn uniformly without replacement) whose rank
        in the input's neighbour list is computed — ranking costs a pass over the
        vocabulary per pair (:func:`emprivacy.mechanisms.curse.neighbour_ranks`).
    close : int
        The last rank counted as a close neighbour (Fig. 2 of the curse paper: 100).
    rng : None, int or numpy.random.Generator
        Draws the words, the mechanism's noise and the rank sample; ``None`` is a
        cryptographically secure generator.
    lang : str, default "en"
        Whose stopwords the drawn words leave out (:mod:`emprivacy.text.language`).

    Returns
    -------
    MechanismStudy

    Examples
    --------
    >>> from emprivacy import EarthMoversPrivacy, Embeddings
    >>> emb = Embeddings(["cat", "dog", "car"], [[0, 0], [1, 0], [9, 9]], name="toy")
    >>> s = study_mechanism(EarthMoversPrivacy(emb, epsilon=1e6), words=["cat", "car"],
    ...                     trials=10, rng=0)
    >>> s.unchanged.tolist(), s.ranks["0"]
    ([1.0, 1.0], 1.0)
    """
    if not isinstance(mechanism, WordMechanism):
        raise TypeError(f"mechanism must be a WordMechanism; got {type(mechanism).__name__}")
    trials = check_positive_int(trials, "trials")
    rank_sample = check_positive_int(rank_sample, "rank_sample")
    gen = check_random_state(rng)
    emb = mechanism.embeddings
    if words is None:
        words = sample_words(emb, check_positive_int(n_words, "n_words"), rng=gen, lang=lang)
    if isinstance(words, str):
        raise TypeError("words must be a sequence of words, not a single str")
    rows = emb.rows(list(dict.fromkeys(words)))
    if rows.size == 0:
        raise ValueError("words must hold at least one word; got none")
    if (rows < 0).any():
        raise ValueError(f"{int(np.count_nonzero(rows < 0))} of the words are not in the "
                         f"vocabulary of {emb.name!r}")
    # every run at once: the inputs, the noisy points and their decoding (float64, dimension n)
    check_memory(rows.size * trials * (24 * emb.dim + 64), f"the study ({rows.size} words x "
                 f"{trials} trials in dimension {emb.dim})", "use fewer trials or fewer words")
    inputs = np.repeat(rows, trials)
    out = np.asarray(mechanism.privatize_indices(inputs, rng=gen)).reshape(rows.size, trials)
    srt = np.sort(out, axis=1)
    distinct = 1 + np.count_nonzero(np.diff(srt, axis=1), axis=1)
    vec = emb.vectors
    moved = np.empty(rows.size, dtype=np.float64)
    for i, r in enumerate(rows.tolist()):  # one word at a time: (trials, n) memory
        moved[i] = np.linalg.norm(vec[out[i]].astype(np.float64) - vec[r].astype(np.float64),
                                  axis=1).mean()
    per_word = np.zeros(rows.size, dtype=[("unchanged", "f8"), ("distinct", "i8"),
                                           ("distance_moved", "f8")])
    per_word["unchanged"] = (out == rows[:, None]).mean(axis=1)
    per_word["distinct"] = distinct
    per_word["distance_moved"] = moved
    flat = out.ravel()
    pick = gen.choice(flat.size, size=min(rank_sample, flat.size), replace=False)
    ranks = neighbour_ranks(emb, inputs[pick], flat[pick])
    return MechanismStudy(
        mechanism=mechanism.name, parameters=mechanism.record_fields(),
        epsilon=mechanism.epsilon, words=tuple(emb.words[r] for r in rows.tolist()),
        trials=trials, per_word=per_word, ranks=rank_buckets(ranks, close=close),
        rank_sample=int(pick.size))


# -- when TEM is SanText ----------------------------------------------------------------------
#: Query rows per block of :func:`largest_distances`.
_FAR_BLOCK_ROWS = 256


def largest_distances(embeddings: Embeddings, rows: np.ndarray | Sequence[int] | None = None
                      ) -> np.ndarray:
    """``max_w d(x, w)`` over the vocabulary for the word x at each row, exactly.

    The distance is the float64 rule every exponential mechanism decides by,
    ``sqrt(Σ_k (w_k − x_k)²)``: blocked float64 GEMMs find each row's largest squared
    distance up to a proven rounding bound, and the words within that bound of it are
    recomputed exactly.  Costs two passes over the vocabulary, O(|rows|·|V|·n).

    Parameters
    ----------
    embeddings : Embeddings
    rows : array-like of int, optional
        Vocabulary rows (default: every word).

    Returns
    -------
    (len(rows),) float64 array

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c"], [[0, 0], [3, 4], [0, 1]])
    >>> largest_distances(emb).tolist()
    [5.0, 5.0, 4.242640687119285]
    """
    return np.sqrt(_largest_squared(embeddings, rows))


def _largest_squared(embeddings: Embeddings, rows: np.ndarray | Sequence[int] | None
                     ) -> np.ndarray:
    """The exact float64 ``max_w Σ_k (w_k − x_k)²`` of :func:`largest_distances`."""
    from emprivacy.mechanisms._tiles import VocabularyGeometry

    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    n = len(embeddings)
    rows = (np.arange(n, dtype=np.int64) if rows is None
            else np.asarray(rows, dtype=np.int64).reshape(-1))
    if rows.size and (rows.min() < 0 or rows.max() >= n):
        raise ValueError(f"rows must be vocabulary rows in [0, {n}); got {int(rows.min())}..."
                         f"{int(rows.max())}")
    geo = VocabularyGeometry(embeddings)
    out = np.empty(rows.size, dtype=np.float64)
    for start in range(0, rows.size, _FAR_BLOCK_ROWS):
        block = rows[start:start + _FAR_BLOCK_ROWS]
        qa, slack = geo.queries(block)
        approx = np.full(block.size, -np.inf)
        for t in range(geo.n_tiles):
            approx = np.maximum(approx, geo.squared(qa, t).max(axis=1))
        best = np.zeros(block.size)  # the exact largest squared distance
        for t in range(geo.n_tiles):
            d2 = geo.squared(qa, t)
            band = d2 >= (approx - 2.0 * slack)[:, None]
            i, j = np.nonzero(band)
            exact = geo.exact_squared(block[i], int(geo.starts[t]) + j)
            np.maximum.at(best, i, exact)
        out[start:start + block.size] = best
    return out


@dataclass(frozen=True)
class TemTruncation:
    """Where TEM's truncation acts, at one ε, for a set of words.

    TEM gives every word farther than γ from the input the weight of distance γ
    (:class:`~emprivacy.mechanisms.tem.TruncatedExponential`).  For an input x with
    ``γ ≥ max_w d(x, w)`` no word is that far: TEM's law for x *is* SanText's (and the
    shared sampler gives the same draws).  ``active`` counts the words for which some
    vocabulary word lies beyond γ; for them the two laws differ, but by at most β in
    total variation (see docs/MECHANISMS.md).

    Attributes
    ----------
    epsilon, beta, gamma : float
        ε, β and the threshold γ they give (:func:`~emprivacy.mechanisms.tem.truncation_threshold`).
    words : int
        How many words were examined.
    active : int
        How many of them have a vocabulary word beyond γ.
    """

    epsilon: float
    beta: float
    gamma: float
    words: int
    active: int

    def describe(self) -> str:
        """One line for a report or the command line."""
        return (f"tem at ε = {self.epsilon:g} (β = {self.beta:g}): γ = {self.gamma:.4g}; "
                f"truncation active for {self.active} of {self.words} words"
                + ("" if self.active == self.words else
                   " (for the others TEM is SanText exactly)"))


def tem_truncation(embeddings: Embeddings, *, epsilons: Sequence[float], beta: float = 0.001,
                   rows: np.ndarray | Sequence[int] | None = None) -> list[TemTruncation]:
    """:class:`TemTruncation` of the words at ``rows`` (default: every word) for each ε.

    Examples
    --------
    >>> emb = Embeddings([f"w{i}" for i in range(10)], [[float(i)] for i in range(10)])
    >>> [t.active for t in tem_truncation(emb, epsilons=[1.0, 10.0], beta=0.001)]
    [0, 10]
    """
    from emprivacy.mechanisms.tem import check_beta, truncation_threshold

    beta = check_beta(beta)
    far_sq = _largest_squared(embeddings, rows)
    out = []
    for eps in epsilons:
        gamma = truncation_threshold(len(embeddings), epsilon=eps, beta=beta)
        out.append(TemTruncation(epsilon=float(eps), beta=beta, gamma=gamma,
                                 words=int(far_sq.size),
                                 active=int(np.count_nonzero(far_sq > gamma * gamma))))
    return out


def summarise_truncation(found: Sequence[TemTruncation], *, what: str = "word") -> str:
    """One line for several ε: where TEM's truncation is active, where TEM is SanText.

    >>> t = [TemTruncation(epsilon=e, beta=0.001, gamma=36.84 / e, words=10, active=a)
    ...      for e, a in ((1, 0), (2.5, 7), (5, 10))]
    >>> print(*summarise_truncation(t).split("; "), sep="\\n")
    tem (β = 0.001): γ = 36.84/ε
    truncation active for every word at ε = 5
    for 7 of 10 at ε = 2.5
    for none at ε = 1 (TEM is SanText exactly there)
    where active, TEM's law differs from SanText's by at most β in total variation
    """
    if not found:
        return "tem: no ε"
    parts = []
    full = [t for t in found if t.active == t.words]
    none = [t for t in found if t.active == 0]
    some = [t for t in found if 0 < t.active < t.words]
    if full:
        parts.append(f"truncation active for every {what} at ε = "
                     + ", ".join(f"{t.epsilon:g}" for t in full))
    for t in some:
        parts.append(f"for {t.active} of {t.words} at ε = {t.epsilon:g}")
    if none:
        parts.append(f"for none at ε = {', '.join(f'{t.epsilon:g}' for t in none)} "
                     "(TEM is SanText exactly there)")
    if not full and not some:
        parts[0] = "truncation active " + parts[0]
    scale = found[0].gamma * found[0].epsilon
    line = f"tem (β = {found[0].beta:g}): γ = {scale:.4g}/ε; " + "; ".join(parts)
    if full or some:
        line += "; where active, TEM's law differs from SanText's by at most β in total variation"
    return line
