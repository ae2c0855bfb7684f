"""Choosing ε: plausible-deniability statistics of the word-level mechanism.

The paper's guarantee (Thm. 4) says *how much* two inputs may be told apart for a
given ε, not which ε a user should pick.  Following Feyisetan et al. (WSDM 2020,
"Privacy- and utility-preserving textual analysis via calibrated multivariate
perturbations"), we measure, for a sample of words w and many independent runs
of the single-word mechanism ``w ↦ Vec⁻¹(Vec(w) + Lap_n^ε)`` (Alg. 2 on a bag of
one word):

* ``N_w`` — the fraction of trials in which w comes back unchanged;
* ``S_w`` — the number of distinct words w turns into (w itself included);
* the mean embedding distance ``‖Vec(w') − Vec(w)‖`` moved;

and, for a document of N words, ``ε·N`` (the factor of the εN·E guarantee) and
the valid utility lower bound ``P(N·n, ε·N·Δ)`` of
:func:`emprivacy.math.guarantees.utility_bound`.

How it is computed.  The noise is ``r·u`` with ``u`` uniform on the sphere and
``r = g/ε``, ``g ~ Gamma(n, 1)`` (Lemma 3).  Every ε is evaluated on the *same*
draws ``(u, g)`` (common random numbers), which makes the curves smooth and
monotone.  Along the ray ``Vec(w) + t·u`` the word stays w for ``t ≤ t*``: the
Voronoi cell of w is convex and contains ``Vec(w)``, and

.. math::  \\frac{1}{t^\\ast} = \\max_{v \\ne w}
           \\frac{2\\,u\\cdot(\\mathrm{Vec}(v) - \\mathrm{Vec}(w))}{\\|\\mathrm{Vec}(v)
           - \\mathrm{Vec}(w)\\|^2},

so a trial is unchanged exactly when ``ε ≥ ε_crit = g / t*``.  One pass over the
vocabulary gives every trial's ``ε_crit``; then N_w is known for every ε at
once, the bisection of :func:`calibrate_epsilon` is exact for the draws, and a
measurement at a given ε only decodes the trials that change.

The statistics at one ε
(:class:`~emprivacy.protection.epsilon.deniability_report.PlausibleDeniability`), their
table and their plot are in :mod:`emprivacy.protection.epsilon.deniability_report`.
("Calibration" elsewhere in emprivacy means the approximate decoder's stop-rule
tuning, :mod:`emprivacy.decoding.tuning`.)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from functools import cached_property
from typing import cast, overload

import numpy as np

from emprivacy._validation import (
    check_epsilon,
    check_memory,
    check_nonnegative_number,
    check_positive_int,
    check_positive_number,
)
from emprivacy.decoding import DEFAULT_MEMORY_BUDGET, Decoder, ExactDecoder
from emprivacy.decoding.threads import available_cores, run_on_cores
from emprivacy.embeddings.model import Embeddings
from emprivacy.math.noise import far_noisy_points, far_sphere, uniform_sphere
from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.protection.epsilon.deniability_report import PlausibleDeniability
from emprivacy.text.language import get_language
from emprivacy.text.word_lists import STOPWORDS

__all__ = [
    "DeniabilityStudy",
    "calibrate_epsilon",
    "plausible_deniability",
    "sample_words",
]

#: Trials closer than this relative margin to their critical ε are decoded, not inferred.
_MARGIN = 1e-2
#: Vocabulary tile width of the pass over the vocabulary (100 trials × 2048 words ≈ 0.8 MiB).
_TILE_COLS = 2048


def sample_words(embeddings: Embeddings, n_words: int = 1000, *,
                 rng: RandomState = None, lang: str = "en") -> list[str]:
    """Draw ``n_words`` distinct non-stopwords from the vocabulary, by frequency.

    The embeddings carry frequency ranks, not counts, so word frequencies are
    taken to follow Zipf's law, ``p(rank r) ∝ 1/r``; words are drawn without
    replacement in proportion to it (Efraimidis–Spirakis keys ``E/p``, E
    exponential).  Stopwords are left out: they are not part of a bag of words.

    >>> emb = Embeddings(["the", "cat", "dog", "car"], [[0, 0], [1, 0], [2, 0], [3, 0]])
    >>> sorted(sample_words(emb, 5, rng=0))
    ['car', 'cat', 'dog']
    """
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    n_words = check_positive_int(n_words, "n_words")
    gen = check_random_state(rng)
    stop = STOPWORDS if lang == "en" else get_language(lang).stopwords  # lang: whose
    rows = np.asarray([i for i, w in enumerate(embeddings.words) if w not in stop],
                      dtype=np.int64)
    if rows.size == 0:
        raise ValueError(f"the vocabulary of {embeddings.name!r} holds only stopwords")
    keys = gen.exponential(size=rows.size) * (rows + 1.0)  # E / p with p ∝ 1/(rank+1)
    chosen = rows[np.argsort(keys, kind="stable")[:n_words]]
    return [embeddings.words[i] for i in chosen]


def _check_words(embeddings: Embeddings, words: Sequence[str]) -> np.ndarray:
    if isinstance(words, str):
        raise TypeError("words must be a sequence of words, not a single str")
    rows: list[int] = []
    seen: set[int] = set()
    missing = 0
    for w in words:
        if not isinstance(w, str):
            raise TypeError(f"words must be str; got {type(w).__name__}")
        j = embeddings.get_index(w)
        if j < 0:
            missing += 1
        elif j not in seen:
            seen.add(j)
            rows.append(j)
    if missing:
        raise ValueError(f"{missing} of the {len(words)} words are not in the vocabulary of "
                         f"{embeddings.name!r}")
    if not rows:
        raise ValueError("words must hold at least one word; got none")
    return np.asarray(rows, dtype=np.int64)


class DeniabilityStudy:
    """Seeded draws for a sample of words, shared by every ε (common random numbers).

    Building the study draws, for each of the k words and each of the T trials,
    a direction ``u`` and a radius factor ``g ~ Gamma(n, 1)`` (the noise at ε is
    ``u·g/ε``, Lemma 3), and makes one pass over the vocabulary to find each
    trial's critical ε (see the module docstring) and each word's distance to its
    nearest other word.

    Parameters
    ----------
    embeddings : Embeddings
    words : sequence of str, optional
        The words to study (all in the vocabulary).  Default: ``n_words`` words
        drawn by frequency (:func:`sample_words`).
    trials : int, default 100
        Runs of the mechanism per word (T).
    n_words : int, default 1000
        Size of the default sample.
    size : int, default 100
        Document size N for ε·N and the utility bound.
    delta : float, optional
        Utility radius Δ; default: the median distance from a studied word to its
        nearest other vocabulary word.
    decoder : Decoder, optional
        Decodes the trials that change; default :class:`~emprivacy.ExactDecoder`.
    rng : None, int or numpy.random.Generator
    memory_budget : int
        Bytes of scratch memory for the pass over the vocabulary.
    """

    def __init__(self, embeddings: Embeddings, *, words: Sequence[str] | None = None,
                 trials: int = 100, n_words: int = 1000, size: int = 100,
                 delta: float | None = None, decoder: Decoder | None = None,
                 rng: RandomState = None, memory_budget: int = DEFAULT_MEMORY_BUDGET,
                 lang: str = "en") -> None:
        if not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        if len(embeddings) < 2:
            raise ValueError("embeddings must hold at least two words to study the mechanism")
        self.embeddings = embeddings
        self.trials = check_positive_int(trials, "trials")
        self.size = check_positive_int(size, "size")
        memory_budget = check_positive_int(memory_budget, "memory_budget")
        if decoder is not None and not isinstance(decoder, Decoder):
            raise TypeError(f"decoder must be a Decoder; got {type(decoder).__name__}")
        self.decoder = decoder if decoder is not None else ExactDecoder(embeddings)
        self._far: tuple[np.ndarray, float, float] | None = None
        gen = check_random_state(rng)
        if words is None:
            words = sample_words(embeddings, n_words, rng=gen, lang=lang)
        self.rows = _check_words(embeddings, words)
        self.words = tuple(embeddings.words[i] for i in self.rows)
        k, t, n = self.rows.size, self.trials, embeddings.dim
        # the directions (k, t, n), and at most as much again four times when measuring
        check_memory(k * t * (40 * n + 64), f"the study ({k} words x {t} trials in "
                     f"dimension {n})", "use fewer trials or fewer words")
        self.dim = n
        self.directions = uniform_sphere(n, size=k * t, rng=gen).reshape(k, t, n)
        self.radii = gen.gamma(shape=n, scale=1.0, size=(k, t))
        inv_t, nearest = self._pass(memory_budget)
        with np.errstate(over="ignore"):
            #: ``ε_crit`` per (word, trial): unchanged exactly when ε ≥ ε_crit.
            self.critical = self.radii * inv_t
        #: Distance from each studied word to its nearest other vocabulary word.
        self.nearest_distance = nearest
        self.delta = (float(np.median(nearest)) if delta is None
                      else check_nonnegative_number(delta, "delta"))

    def _pass(self, memory_budget: int) -> tuple[np.ndarray, np.ndarray]:
        """``1/t*`` per trial (≥ 0) and nearest-word distances.

        For word w (vector x) and direction u, ``1/t* = max_v s_v·(u·v − u·x)`` with
        ``s_v = 2/‖v − x‖²``: one product ``[u, −u·x]·[v, 1]ᵀ`` per vocabulary tile
        (a tile stays in the CPU cache), scaled by ``s_v``, with a running maximum.
        Blocks of words run on all cores, each thread with a single-threaded BLAS.

        A word whose vector is also the vector of an *earlier* row never comes back
        (the decoders break ties towards the lower row): ``1/t* = ∞``.  For the
        first of such duplicates the others do not bound its cell.
        """
        emb = self.embeddings
        vec = emb.vectors
        n_vocab, n = vec.shape
        sq = emb.squared_norms.astype(np.float64)
        vt64 = vec.T.astype(np.float64)
        aug = np.ones((n + 1, n_vocab), dtype=np.float32)
        aug[:n] = vec.T
        tiles = [np.ascontiguousarray(aug[:, c:c + _TILE_COLS])
                 for c in range(0, n_vocab, _TILE_COLS)]
        k, t = self.radii.shape
        inv_t = np.empty((k, t), dtype=np.float64)
        nearest = np.empty(k, dtype=np.float64)
        as_bytes = np.ascontiguousarray(vec).view(np.dtype((np.void, vec.itemsize * n))).ravel()
        _, first, group, count = np.unique(as_bytes, return_index=True, return_inverse=True,
                                           return_counts=True)
        group = group.ravel()
        cores = available_cores()
        # per thread: 2 float64 (b, V) arrays of distances and scales, one float32 tile
        block = max(1, min(8, memory_budget // (cores * 20 * n_vocab)))

        def work(start: int) -> None:
            rows = self.rows[start:start + block]
            b = rows.size
            dist2 = sq[None, :] - 2.0 * (vt64.T[rows] @ vt64) + sq[rows][:, None]
            dist2[np.arange(b), rows] = np.inf
            nearest[start:start + b] = np.sqrt(np.maximum(dist2.min(axis=1), 0.0))
            scale = (2.0 / np.maximum(dist2, 1e-30)).astype(np.float32)
            scale[np.arange(b), rows] = 0.0
            later = np.zeros(b, dtype=bool)
            for i, r in enumerate(rows):
                if count[group[r]] > 1:  # exact duplicates of this vector
                    scale[i, group == group[r]] = 0.0
                    later[i] = first[group[r]] != r
            d = self.directions[start:start + b].astype(np.float32)  # (b, t, n)
            a = np.empty((b, t, n + 1), dtype=np.float32)
            a[:, :, :n] = d
            a[:, :, n] = -np.einsum("btn,bn->bt", d, vec[rows])
            a = a.reshape(b * t, n + 1)
            acc = np.zeros(b * t, dtype=np.float32)  # 1/t* ≥ 0: a maximum below 0 means ∞
            buf = np.empty((b * t, _TILE_COLS), dtype=np.float32)
            col = 0
            for tile in tiles:
                c = tile.shape[1]
                out = buf[:, :c] if c == _TILE_COLS else np.empty((b * t, c), np.float32)
                np.matmul(a, tile, out=out)
                o3 = out.reshape(b, t, c)
                np.multiply(o3, scale[:, None, col:col + c], out=o3)
                np.maximum(acc, out.max(axis=1), out=acc)
                col += c
            inv_t[start:start + b] = acc.reshape(b, t)
            inv_t[start:start + b][later] = np.inf

        def work_on(starts: list[int]) -> None:
            for start in starts:
                work(start)

        run_on_cores(work_on, range(0, k, block), cores)
        return inv_t, nearest

    # -- N_w for any ε, without decoding ----------------------------------------------
    def unchanged(self, epsilon: float) -> np.ndarray:
        """N_w of every studied word at ``epsilon``, from the critical ε (no decoding)."""
        epsilon = check_epsilon(epsilon)
        return np.mean(self.critical <= epsilon, axis=1)

    def median_unchanged(self, epsilon: float) -> float:
        """Median over words of N_w at ``epsilon`` (no decoding)."""
        return float(np.median(self.unchanged(epsilon)))

    @cached_property
    def _sorted_critical(self) -> np.ndarray:
        return np.sort(self.critical, axis=1)

    def unchanged_curve(self, epsilons: Sequence[float] | np.ndarray) -> np.ndarray:
        """N_w for every word (rows) and every ε of ``epsilons`` (columns), without decoding."""
        eps = np.asarray(epsilons, dtype=np.float64)
        out = np.empty((self.rows.size, eps.size))
        for i, c in enumerate(self._sorted_critical):
            out[i] = np.searchsorted(c, eps, side="right") / self.trials
        return out

    def epsilon_for(self, target_unchanged: float, *, rtol: float = 1e-4) -> float:
        """The smallest ε (to relative precision ``rtol``) whose median N_w reaches the target.

        Bisection on log ε; the median N_w is a non-decreasing step function of ε
        for the study's draws, so the answer is exact for them up to ``rtol``.
        """
        p = check_positive_number(target_unchanged, "target_unchanged")
        if p >= 1.0:
            raise ValueError(f"target_unchanged must be a number in (0, 1); got {p!r}")
        rtol = check_positive_number(rtol, "rtol")
        finite = self.critical[np.isfinite(self.critical) & (self.critical > 0)]
        if finite.size == 0:
            raise ValueError(f"the median N_w of these words is {self.median_unchanged(1.0):g} "
                             "at every ε; no ε to calibrate")
        lo, hi = float(finite.min()) / 2, float(finite.max()) * 2
        if self.median_unchanged(lo) >= p:
            return lo
        if self.median_unchanged(hi) < p:
            raise ValueError(f"a median N_w of {p:g} is not reached at any ε: too many words "
                             "share their vector with a more frequent word")
        while hi / lo - 1.0 > rtol:
            mid = math.sqrt(lo * hi)
            if self.median_unchanged(mid) >= p:
                hi = mid
            else:
                lo = mid
        return hi

    def default_epsilons(self, count: int = 7, *, low: float = 0.05,
                         high: float = 0.95) -> list[float]:
        """``count`` values of ε, log-spaced from median N_w = ``low`` to ``high``, 2 digits."""
        count = check_positive_int(count, "count")
        a, b = self.epsilon_for(low), self.epsilon_for(high)
        grid = np.geomspace(a, b, count) if count > 1 else np.asarray([math.sqrt(a * b)])
        rounded = sorted({float(f"{e:.2g}") for e in grid})
        return [e for e in rounded if e > 0]

    # -- full measurement at one ε ---------------------------------------------------
    def measure(self, epsilon: float) -> PlausibleDeniability:
        """N_w, S_w and distance moved at ``epsilon``, decoding every trial that may change.

        Trials with ``ε ≥ (1 + 1%)·ε_crit`` stay in their word's Voronoi cell and are
        counted unchanged without decoding; all others are decoded by the decoder.
        """
        epsilon = check_epsilon(epsilon)
        emb = self.embeddings
        t = self.trials
        out = np.repeat(self.rows[:, None], t, axis=1)
        todo = epsilon < self.critical * (1.0 + _MARGIN)
        if np.any(todo):
            w_idx, t_idx = np.nonzero(todo)
            src = self.rows[w_idx]
            X = emb.vectors[src].astype(np.float64)
            g, dirs = self.radii[w_idx, t_idx], self.directions[w_idx, t_idx]
            with np.errstate(over="ignore"):
                r = g / epsilon
            centre, far, rho = far_sphere(emb.vectors) if self._far is None else self._far
            self._far = (centre, far, rho)
            near = r + rho <= far  # the usual case: beyond it only at a tiny ε
            points = np.empty_like(X)
            points[near] = X[near] + dirs[near] * r[near][:, None]
            # a tiny ε: points beyond 2⁴⁰ vocabulary radii decoded from that sphere, as the
            # mechanism does (post-processing), without overflow
            points[~near] = far_noisy_points(X[~near], g[~near], dirs[~near], epsilon,
                                             centre=centre, radius=far)
            out[w_idx, t_idx] = self.decoder.decode(points.astype(np.float32))
        same = out == self.rows[:, None]
        srt = np.sort(out, axis=1)
        distinct = 1 + np.count_nonzero(np.diff(srt, axis=1), axis=1)
        moved = np.linalg.norm(emb.vectors[out].astype(np.float64)
                               - emb.vectors[self.rows].astype(np.float64)[:, None, :], axis=2)
        return PlausibleDeniability(
            epsilon=epsilon, words=self.words, trials=t, unchanged=same.mean(axis=1),
            distinct=distinct, distance_moved=moved.mean(axis=1), size=self.size,
            delta=self.delta, dim=self.dim)


@overload
def plausible_deniability(embeddings: Embeddings, epsilon: float, *,
                          words: Sequence[str] | None = ..., trials: int = ...,
                          n_words: int = ..., size: int = ..., delta: float | None = ...,
                          decoder: Decoder | None = ..., rng: RandomState = ...
                          ) -> PlausibleDeniability: ...
@overload
def plausible_deniability(embeddings: Embeddings, epsilon: Sequence[float], *,
                          words: Sequence[str] | None = ..., trials: int = ...,
                          n_words: int = ..., size: int = ..., delta: float | None = ...,
                          decoder: Decoder | None = ..., rng: RandomState = ...
                          ) -> list[PlausibleDeniability]: ...
def plausible_deniability(embeddings: Embeddings, epsilon: float | Sequence[float], *,
                          words: Sequence[str] | None = None, trials: int = 100,
                          n_words: int = 1000, size: int = 100, delta: float | None = None,
                          decoder: Decoder | None = None, rng: RandomState = None
                          ) -> PlausibleDeniability | list[PlausibleDeniability]:
    """Plausible-deniability statistics N_w, S_w of the word-level mechanism (Feyisetan et al.).

    For each word w of the sample and ``trials`` independent runs of
    ``w ↦ Vec⁻¹(Vec(w) + Lap_n^ε)`` (Alg. 2 on one word): ``N_w`` the fraction of
    runs returning w, ``S_w`` the number of distinct outputs, the mean embedding
    distance moved; plus ε·N and the utility bound ``P(N·n, ε·N·Δ)`` (Thm. 3,
    corrected) for a document of ``size`` words.

    Parameters
    ----------
    embeddings : Embeddings
    epsilon : float or sequence of float
        One ε, or several evaluated on the same draws (common random numbers).
    words : sequence of str, optional
        Default: ``n_words`` non-stopwords drawn by (Zipf) frequency.
    trials : int, default 100
    n_words : int, default 1000
    size : int, default 100
        Document size N.
    delta : float, optional
        Utility radius Δ; default the median nearest-neighbour distance of the words.
    decoder : Decoder, optional
        Default: exact nearest-word decoding.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    PlausibleDeniability, or a list of them (one per ε) for a sequence.

    Examples
    --------
    Two words far apart: at a large ε each word almost always comes back.

    >>> emb = Embeddings(["cat", "car"], [[0.0], [10.0]], name="toy")
    >>> res = plausible_deniability(emb, 5.0, trials=200, rng=0)
    >>> res.words, res.median_unchanged
    (('cat', 'car'), 1.0)
    """
    study = DeniabilityStudy(embeddings, words=words, trials=trials, n_words=n_words,
                             size=size, delta=delta, decoder=decoder, rng=rng)
    if isinstance(epsilon, numbers.Real):  # a float, or a numpy scalar
        return study.measure(cast(float, epsilon))
    return [study.measure(e) for e in cast(Sequence[float], epsilon)]


def calibrate_epsilon(embeddings: Embeddings, *, target_unchanged: float,
                      words: Sequence[str] | None = None, trials: int = 100,
                      n_words: int = 1000, size: int = 100, delta: float | None = None,
                      decoder: Decoder | None = None, rng: RandomState = None,
                      rtol: float = 1e-4) -> PlausibleDeniability:
    """The ε at which the median N_w equals ``target_unchanged``, with its statistics.

    Bisection on ε (see :meth:`DeniabilityStudy.epsilon_for`): the smallest ε
    whose median fraction of unchanged words reaches the target on the drawn
    trials; the returned statistics are measured at that ε on the same draws.

    Examples
    --------
    >>> emb = Embeddings(["cat", "car"], [[0.0], [2.0]], name="toy")
    >>> res = calibrate_epsilon(emb, target_unchanged=0.8, trials=2000, rng=1)
    >>> abs(res.median_unchanged - 0.8) < 0.01  # N_w = 1 − e^{−ε}/2 here: ε ≈ 0.92
    True
    """
    study = DeniabilityStudy(embeddings, words=words, trials=trials, n_words=n_words,
                             size=size, delta=delta, decoder=decoder, rng=rng)
    return study.measure(study.epsilon_for(target_unchanged, rtol=rtol))
