"""The distinguishability audit: a lower bound ε̂ on a mechanism's privacy loss, measured.

A metric-DP word mechanism promises, for every two inputs x, x′ and every set S of
outputs, ``P[M(x) ∈ S] ≤ e^{ε·d(x, x′)} · P[M(x′) ∈ S]`` (d the metric of the
mechanism's own guarantee, :meth:`~emprivacy.mechanisms.WordMechanism.guarantee_metric`).
The audit (the practice of DP auditing: Jagielski, Ullman, Oprea 2020; Nasr, Song,
Thakurta, Papernot, Carlini 2021; for text mechanisms TeDA, arXiv 2603.22968) runs the
mechanism many times on each of two inputs and asks how well a test tells them apart.  A
test that answers "x′" when the release falls in a set S has a true-positive rate
``TPR = P[M(x′) ∈ S]`` and a false-positive rate ``FPR = P[M(x) ∈ S]``; the promise
implies, for the set and its complement,

.. math::

    ε·d(x, x′) \\;\\ge\\; \\ln\\frac{TPR}{FPR}
    \\quad\\text{and}\\quad
    ε·d(x, x′) \\;\\ge\\; \\ln\\frac{1 − FPR}{1 − TPR}.

With Clopper–Pearson intervals on TPR and FPR (each one-sided end at (1 − c)/2),
``ε̂ = max(ln(TPR_lower / FPR_upper), ln((1 − FPR_upper) / (1 − TPR_lower)), 0)`` is a
lower bound on the pair's privacy loss that holds with probability ≥ c (both bounds use
the same two events).  Over P pairs the confidence is split (Bonferroni: c_pair =
1 − (1 − c)/P), so that every pair's bound — and their maximum — holds at once with
probability ≥ c.

The test:

* **known law** (SanText, TEM: :class:`~emprivacy.protection.leakage.channel.ExactChannel`) —
  the likelihood-ratio test, ``S = {y : ln C[x′, y] − ln C[x, y] ≥ t}``, whose threshold
  is chosen from the law itself (the one with the best expected bound for the draws at
  hand), so every draw is used to score it; its value in closed form and the pair's exact
  privacy loss ``max_y |ln C[x′, y] − ln C[x, y]|`` are reported beside it;
* **unknown law** (madlib, mahalanobis, vickrey, rank resampling) — a distinguisher built
  from half the draws: the estimated log-likelihood ratio ``ln((n′(y) + ½)/(n(y) + ½))``
  of the first half's counts, its threshold chosen on that half; it is scored on the other
  half, which it has never seen, so its intervals are honest.

Two documents of one layout (text mode) are a pair too: the mechanism releases their words
position by position, the guarantee is ``e^{ε·Σᵢ d(xᵢ, x′ᵢ)}`` (the Manhattan lift), and
the test sums the positions' log-likelihood ratios (:func:`distinguish_documents`).

The pairs are chosen, read and checked in :mod:`emprivacy.protection.leakage.pairs`; the
results (:class:`~emprivacy.protection.leakage.distinguish_report.Distinguishability`) and
how they are written (table, CSV, JSON) in
:mod:`emprivacy.protection.leakage.distinguish_report`.

ε̂ is a lower bound from one test, not a proof of privacy: a weak test gives a small ε̂
whatever the mechanism.  And D evaluation draws cannot show more than about
``ln(D / ln(2/α))`` (the result's
:attr:`~emprivacy.protection.leakage.distinguish_report.Distinguishability.ceiling`),
however large ε·d is.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from emprivacy._validation import check_choice, check_memory, check_positive_int
from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.protection.leakage.channel import ExactChannel, Progress, has_exact_channel
from emprivacy.protection.leakage.distinguish_report import Distinguishability, PairEpsilon
from emprivacy.protection.leakage.pairs import (
    _check_word_pairs,
    document_positions,
    guarantee_distance,
)
from emprivacy.protection.leakage.vulnerability import _check_confidence, clopper_pearson

__all__ = [
    "DEFAULT_PAIR_DRAWS",
    "check_release_size",
    "distinguish_documents",
    "distinguish_pairs",
    "epsilon_lower_bound",
]

#: Default releases of each input of a pair.
DEFAULT_PAIR_DRAWS = 10_000
#: Points per call of the mechanism's batch path.
_CHUNK_POINTS = 1 << 17
#: Added to every count of the estimated likelihood ratio (finite where a count is 0).
_SMOOTH = 0.5
#: Bytes per release of a word of a pair (the rows released, their copy per pair and the
#: test's scores; 16.4 measured for word pairs).
_BYTES_PER_RELEASE = 32


def check_release_size(words: int, draws: int) -> None:
    """Refuse ε̂ draws that the machine cannot hold, before any release: ``words`` inputs
    (two per word pair, every differing position of two documents) × ``draws`` releases.

    Raises
    ------
    ValueError
        One line: what it needs, what is available, what to lower.
    """
    check_memory(_BYTES_PER_RELEASE * int(words) * int(draws),
                 f"the releases of the pairs ({words} words x {draws} draws)",
                 "use fewer draws or fewer pairs")


# -- the bound -----------------------------------------------------------------------------
def _bounds(tp: np.ndarray, fp: np.ndarray, n1: float, n0: float, confidence: float
            ) -> np.ndarray:
    """The lower bound ε̂ for each candidate (``tp`` of ``n1``, ``fp`` of ``n0`` hits)."""
    t_lo, _ = clopper_pearson(tp, np.full(np.shape(tp), n1), confidence=confidence)
    _, f_hi = clopper_pearson(fp, np.full(np.shape(fp), n0), confidence=confidence)
    with np.errstate(divide="ignore"):
        b1 = np.log(t_lo) - np.log(f_hi)
        b2 = np.log1p(-f_hi) - np.log1p(-t_lo)
    return np.maximum(np.maximum(b1, b2), 0.0)


def _point(tp: float, fp: float, n1: float, n0: float) -> float:
    """The point estimate: both ratios of rates, ½ added to every count, at least 0."""
    r1 = math.log((tp + _SMOOTH) / (n1 + 2 * _SMOOTH)) - math.log(
        (fp + _SMOOTH) / (n0 + 2 * _SMOOTH))
    r2 = math.log((n0 - fp + _SMOOTH) / (n0 + 2 * _SMOOTH)) - math.log(
        (n1 - tp + _SMOOTH) / (n1 + 2 * _SMOOTH))
    return max(r1, r2, 0.0)


def epsilon_lower_bound(true_positives: int, false_positives: int, trials: int, *,
                        confidence: float = 0.95) -> tuple[float, float]:
    """The DP-audit bound from one test's counts: ``(estimate, lower)``.

    A test said "x′" on ``true_positives`` of ``trials`` releases of x′ and on
    ``false_positives`` of ``trials`` releases of x.  ``lower`` is
    ``max(ln(TPR_lower / FPR_upper), ln((1 − FPR_upper) / (1 − TPR_lower)), 0)`` with
    Clopper–Pearson ends at ``confidence`` (each one-sided end at (1 − confidence)/2): a
    lower bound on the privacy loss ε·d(x, x′) that holds with probability
    ≥ ``confidence``.  ``estimate`` is the same with the observed rates (½ added to every
    count, so it is finite where a count is 0).

    >>> est, lo = epsilon_lower_bound(2718, 1000, 10_000)
    >>> round(est, 3), round(lo, 3)
    (1.0, 0.909)
    """
    n = check_positive_int(trials, "trials")
    tp, fp = int(true_positives), int(false_positives)
    if not (0 <= tp <= n and 0 <= fp <= n):
        raise ValueError(f"need 0 <= true_positives, false_positives <= trials ({n}); got "
                         f"{tp} and {fp}")
    conf = _check_confidence(confidence)
    lower = float(_bounds(np.asarray([tp]), np.asarray([fp]), n, n, conf)[0])
    return _point(tp, fp, n, n), lower


def _ceiling(trials: int, confidence: float) -> float:
    """The largest lower bound ``trials`` evaluation draws can give (TPR = 1, FPR = 0)."""
    return float(_bounds(np.asarray([trials]), np.asarray([0]), trials, trials, confidence)[0])


# -- running the mechanism -----------------------------------------------------------------
def _release(mechanism: WordMechanism, rows: np.ndarray, draws: int,
             gen: np.random.Generator, progress: Progress | None) -> np.ndarray:
    """``draws`` releases of every row (rows may repeat): (len(rows), draws), batch path."""
    out = np.empty((rows.size, draws), dtype=np.int64)
    per = max(1, _CHUNK_POINTS // draws)
    total = rows.size * draws
    for start in range(0, rows.size, per):
        stop = min(rows.size, start + per)
        bag = np.repeat(rows[start:stop], draws)
        released = mechanism.privatize_batches([(bag, gen)])[0]
        out[start:stop] = np.asarray(released, dtype=np.int64).reshape(stop - start, draws)
        if progress is not None:
            progress(stop * draws, total, "releasing the pairs")
    return out


def _log_laws(mechanism: WordMechanism, first: int, second: int
              ) -> tuple[np.ndarray, np.ndarray]:
    """``ln C[first, ·]`` and ``ln C[second, ·]`` over the vocabulary (known law), in log
    space: a probability too small for float64 is a finite log, not a 0."""
    ch = ExactChannel(mechanism, [first, second])
    z = ch.log_normalisers()
    out = np.empty((2, ch.n_outputs))
    for start in range(0, ch.n_outputs, ch.block_cols):
        stop = min(start + ch.block_cols, ch.n_outputs)
        out[:, start:stop] = ch.log_weights(start, stop) - z[:, None]
    return out[0], out[1]


def _difference(a: np.ndarray | float, b: np.ndarray | float) -> np.ndarray:
    """``a − b`` of log-probabilities, 0 where both are −inf (neither input gives it: a
    weight that overflowed to 0 at an ε near the float64 maximum)."""
    with np.errstate(invalid="ignore"):
        d = np.subtract(a, b)
    return np.where(np.isnan(d), 0.0, d)


def _log_ratio(mechanism: WordMechanism, first: int, second: int) -> np.ndarray:
    """``ln C[second, y] − ln C[first, y]`` over the vocabulary (known law), (|V|,)."""
    lp0, lp1 = _log_laws(mechanism, first, second)
    return _difference(lp1, lp0)


def _log_sum(values: np.ndarray) -> float:
    """``ln Σ exp(values)`` (−inf for none)."""
    if values.size == 0 or not np.isfinite(values.max()):
        return float(values.max()) if values.size else -math.inf
    top = float(values.max())
    return top + math.log(float(np.exp(values - top).sum()))


class _Estimated:
    """The estimated log-probability ``ln((n_w(y) + ½)/(N_w + 1))`` of each word's releases."""

    def __init__(self, rows: np.ndarray, outputs: np.ndarray) -> None:
        self.table: dict[int, tuple[np.ndarray, np.ndarray, float]] = {}
        for w in np.unique(rows).tolist():
            seen = outputs[rows == w].ravel()
            ys, counts = np.unique(seen, return_counts=True)
            norm = math.log(seen.size + 2 * _SMOOTH)
            self.table[w] = (ys, np.log(counts + _SMOOTH) - norm, math.log(_SMOOTH) - norm)

    def __call__(self, word: int, y: np.ndarray) -> np.ndarray:
        ys, logp, unseen = self.table[word]
        pos = np.minimum(np.searchsorted(ys, y), ys.size - 1)
        return np.where(ys[pos] == y, logp[pos], unseen)


def _choose_threshold(s1: np.ndarray, s0: np.ndarray, w1: np.ndarray, w0: np.ndarray,
                      n1: float, n0: float, confidence: float) -> float:
    """The threshold t of ``S = {score ≥ t}`` with the best bound on the planning data.

    ``s1``/``s0``: scores with weights ``w1``/``w0`` (counts, or expected counts) of the
    second and the first input's releases, out of ``n1``/``n0``.
    """
    values = np.unique(np.concatenate([s1, s0]))[::-1]  # descending
    o1 = np.argsort(-s1, kind="stable")
    o0 = np.argsort(-s0, kind="stable")
    c1 = np.concatenate([[0.0], np.cumsum(w1[o1])])
    c0 = np.concatenate([[0.0], np.cumsum(w0[o0])])
    # hits of S = {score >= v}: the weight of the scores >= v
    k1 = c1[np.searchsorted(-s1[o1], -values, side="right")]
    k0 = c0[np.searchsorted(-s0[o0], -values, side="right")]
    k1 = np.clip(k1, 0.0, n1)
    k0 = np.clip(k0, 0.0, n0)
    bounds = _bounds(k1, k0, n1, n0, confidence)
    return float(values[int(np.argmax(bounds))])


def _evaluate(first: str, second: str, positions: int, distance: float | None,
              epsilon: float, t: float, e1: np.ndarray, e0: np.ndarray, confidence: float,
              exact_loss: float | None = None, test_value: float | None = None
              ) -> PairEpsilon:
    n1, n0 = e1.size, e0.size
    tp, fp = int(np.count_nonzero(e1 >= t)), int(np.count_nonzero(e0 >= t))
    lower = float(_bounds(np.asarray([tp]), np.asarray([fp]), n1, n0, confidence)[0])
    return PairEpsilon(first, second, positions, distance,
                       None if distance is None else epsilon * distance,
                       _point(tp, fp, n1, n0), lower, tp, fp, n1, exact_loss, test_value)


def _check_method(mechanism: WordMechanism, method: str) -> bool:
    check_choice(method, "method", ("auto", "likelihood-ratio", "split-half"))
    if method == "likelihood-ratio" and not has_exact_channel(mechanism):
        raise ValueError(f"mechanism {mechanism.name!r} has no closed-form law here: use "
                         "method 'split-half' or 'auto'")
    return method == "likelihood-ratio" or (method == "auto" and has_exact_channel(mechanism))


def _run(mechanism: WordMechanism, pairs: list[tuple[str, str, np.ndarray, np.ndarray]], *,
         draws: int, confidence: float, method: str, rng: RandomState,
         progress: Progress | None) -> Distinguishability:
    """The audit of pairs of row sequences (differing at every position)."""
    start_time = time.perf_counter()
    known = _check_method(mechanism, method)
    draws = check_positive_int(draws, "draws", minimum=2)
    conf = _check_confidence(confidence)
    gen = check_random_state(rng)
    pair_conf = 1.0 - (1.0 - conf) / len(pairs)
    # every position of every input, released `draws` times in one batched pass
    words = np.concatenate([np.concatenate([a, b]) for _, _, a, b in pairs])
    check_release_size(words.size, draws)
    uniq, inverse = np.unique(words, return_inverse=True)
    word_pairs = all(a.size == 1 for _, _, a, _ in pairs)
    if word_pairs:  # a word in several pairs: its draws serve each (Bonferroni needs no
        out = _release(mechanism, uniq, draws, gen, progress)  # independence)
        released = out[inverse]
    else:
        released = _release(mechanism, words, draws, gen, progress)
    half = draws // 2
    results = []
    offset = 0
    eps = mechanism.epsilon
    for first, second, a, b in pairs:
        m = a.size
        y0 = released[offset:offset + m]
        y1 = released[offset + m:offset + 2 * m]
        offset += 2 * m
        d = guarantee_distance(mechanism, a, b)
        dist = None if d is None else float(d.sum())
        if known and m == 1:  # plan from the law; every draw scores the test
            lp0, lp1 = _log_laws(mechanism, int(a[0]), int(b[0]))
            s = _difference(lp1, lp0)
            t = _choose_threshold(s, s, draws * np.exp(lp1), draws * np.exp(lp0), draws,
                                  draws, pair_conf)
            inside = s >= t
            # the test's closed-form value, ln(TPR/FPR) and ln((1 − FPR)/(1 − TPR)), in log
            # space (TPR = P[M(x′) ∈ S], FPR = P[M(x) ∈ S]): infinite only where float64
            # cannot tell a probability from 0 even as a logarithm
            value = max(float(_difference(_log_sum(lp1[inside]), _log_sum(lp0[inside]))),
                        float(_difference(_log_sum(lp0[~inside]), _log_sum(lp1[~inside]))),
                        0.0)
            results.append(_evaluate(first, second, 1, dist, eps, t, s[y1[0]], s[y0[0]],
                                     pair_conf, float(max(s.max(), -s.min())), value))
            continue
        # split half: plan on the first `half` draws, score the rest
        if known:
            up = down = 0.0
            score1 = np.zeros(draws)
            score0 = np.zeros(draws)
            for i in range(m):
                s = _log_ratio(mechanism, int(a[i]), int(b[i]))
                up += float(s.max())
                down += float(-s.min())
                score1 += s[y1[i]]
                score0 += s[y0[i]]
            loss: float | None = max(up, down)
        else:
            est = _Estimated(np.concatenate([a, b]),
                             np.concatenate([y0[:, :half], y1[:, :half]]))
            score1 = np.zeros(draws)
            score0 = np.zeros(draws)
            for i in range(m):
                score1 += est(int(b[i]), y1[i]) - est(int(a[i]), y1[i])
                score0 += est(int(b[i]), y0[i]) - est(int(a[i]), y0[i])
            loss = None
        ones = np.ones(half)
        t = _choose_threshold(score1[:half], score0[:half], ones, ones, half, half, pair_conf)
        results.append(_evaluate(first, second, m, dist, eps, t, score1[half:],
                                 score0[half:], pair_conf, loss))
    planned_all = known and word_pairs
    trials = draws if planned_all else draws - half
    return Distinguishability(
        mechanism.name, eps, draws, conf, "likelihood-ratio" if known else "split-half",
        tuple(results), _ceiling(trials, pair_conf), time.perf_counter() - start_time)


def distinguish_pairs(mechanism: WordMechanism, pairs: Sequence[tuple[Any, Any]], *,
                      draws: int = DEFAULT_PAIR_DRAWS, confidence: float = 0.95,
                      method: str = "auto", rng: RandomState = None,
                      progress: Progress | None = None) -> Distinguishability:
    """ε̂ for pairs of words: how distinguishable the mechanism makes them, against ε·d.

    Each word of every pair is released ``draws`` times through the mechanism's batch
    path (:meth:`~emprivacy.mechanisms.WordMechanism.privatize_batches`; one call per
    block of about 131,000 releases, no per-word loop), and the test of the module
    docstring turns the releases into ε̂ (estimate and lower bound) beside the nominal
    ε·d.

    Parameters
    ----------
    mechanism : WordMechanism
        The mechanism at its ε.
    pairs : sequence of (word, word)
        Words (str) or vocabulary rows (int); the two of a pair distinct
        (:func:`~emprivacy.protection.leakage.pairs.choose_pairs` picks pairs at a spread
        of distances, :func:`~emprivacy.protection.leakage.pairs.read_word_pairs` reads
        them from a file).
    draws : int, default 10,000
        Releases of each word, D ≥ 2.  A split-half test scores D − D//2 of them.
    confidence : float, default 0.95
        Simultaneous over the pairs: every pair's lower bound holds at once with this
        probability (Bonferroni).
    method : {"auto", "likelihood-ratio", "split-half"}
        ``"auto"``: the likelihood-ratio test where the law is known (SanText, TEM), the
        split-half distinguisher otherwise; ``"split-half"`` forces the distinguisher.
    rng : None, int or numpy.random.Generator
        The releases' generator (an int: a reproducible audit).
    progress : callable, optional
        ``progress(done, total, description)`` in releases.

    Returns
    -------
    Distinguishability

    Examples
    --------
    >>> from emprivacy import Embeddings, SanText
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
    >>> r = distinguish_pairs(SanText(emb, epsilon=1.0), [("cat", "dog")], rng=0)
    >>> p = r.pairs[0]
    >>> p.nominal, round(p.exact_loss, 4)  # the law's own loss: below ε·d here
    (1.0, 0.5761)
    >>> bool(p.lower <= p.exact_loss)
    True
    """
    if not isinstance(mechanism, WordMechanism):
        raise TypeError(f"mechanism must be a WordMechanism; got {type(mechanism).__name__}")
    items = [(w0, w1, np.asarray([r0], np.int64), np.asarray([r1], np.int64))
             for w0, w1, r0, r1 in _check_word_pairs(mechanism.embeddings, pairs)]
    return _run(mechanism, items, draws=draws, confidence=confidence, method=method,
                rng=rng, progress=progress)


def distinguish_documents(mechanism: WordMechanism, first: str, second: str, *,
                          draws: int = DEFAULT_PAIR_DRAWS, confidence: float = 0.95,
                          method: str = "auto", perturb_stopwords: bool = False,
                          labels: tuple[str, str] = ("first", "second"),
                          rng: RandomState = None, progress: Progress | None = None
                          ) -> Distinguishability:
    """ε̂ for two documents of one layout released in text mode.

    Text mode (:meth:`~emprivacy.mechanisms.WordMechanism.privatize_text`) keeps the
    layout and releases the perturbed words position by position, with the guarantee
    ``e^{ε·Σᵢ d(xᵢ, x′ᵢ)}``.  The two texts must have one layout: the same text around
    the perturbed words, the same capitalisation patterns, the same number of perturbed
    words (else the layout alone tells them apart, whatever the mechanism).  Positions
    that hold the same word in both have the same law and tell nothing: the test uses the
    others, summing their log-likelihood ratios (exact for SanText and TEM; estimated on
    half the draws otherwise, then the threshold is chosen on that half and the test
    scored on the rest).  Out-of-vocabulary words become placeholders.

    Returns
    -------
    Distinguishability
        With one pair, named by ``labels``; its ``distance`` is ``Σᵢ d(xᵢ, x′ᵢ)``.

    Raises
    ------
    ValueError
        If the layouts differ, or the two texts release the same words (nothing to tell
        apart).

    Examples
    --------
    >>> from emprivacy import Embeddings, SanText
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
    >>> r = distinguish_documents(SanText(emb, epsilon=0.5), "A cat, a car.",
    ...                           "A dog, a car.", draws=200, rng=1)
    >>> r.pairs[0].positions, r.pairs[0].nominal
    (1, 0.5)
    """
    if not isinstance(mechanism, WordMechanism):
        raise TypeError(f"mechanism must be a WordMechanism; got {type(mechanism).__name__}")
    a, b = document_positions(mechanism.embeddings, first, second,
                              perturb_stopwords=perturb_stopwords, labels=labels)
    result = _run(mechanism, [(labels[0], labels[1], a, b)], draws=draws,
                  confidence=confidence, method=method, rng=rng, progress=progress)
    return dataclasses.replace(result, inputs="documents")
