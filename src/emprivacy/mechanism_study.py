"""Where a mechanism sends words: sampled statistics for any mechanism of the family.

:mod:`emprivacy.deniability` computes the plausible-deniability statistics of the
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

from ._validation import check_positive_int
from .deniability import sample_words
from .mechanisms.base import WordMechanism
from .mechanisms.curse import neighbour_ranks, rank_buckets
from .randomness import RandomState, check_random_state

__all__ = ["MechanismStudy", "study_mechanism"]


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
                    close: int = 100, rng: RandomState = None) -> MechanismStudy:
    """Run ``mechanism`` ``trials`` times on each studied word and summarise.

    Parameters
    ----------
    mechanism : WordMechanism
        Any mechanism of :mod:`emprivacy.mechanisms`, at its own ε.
    words : sequence of str, optional
        The words to study (in the vocabulary); default ``n_words`` non-stopwords
        drawn by frequency (:func:`emprivacy.deniability.sample_words`).
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
        words = sample_words(emb, check_positive_int(n_words, "n_words"), rng=gen)
    if isinstance(words, str):
        raise TypeError("words must be a sequence of words, not a single str")
    rows = emb.rows(list(dict.fromkeys(words)))
    if rows.size == 0:
        raise ValueError("words must hold at least one word; got none")
    if (rows < 0).any():
        raise ValueError(f"{int(np.count_nonzero(rows < 0))} of the words are not in the "
                         f"vocabulary of {emb.name!r}")
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
