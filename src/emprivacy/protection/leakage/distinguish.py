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

ε̂ is a lower bound from one test, not a proof of privacy: a weak test gives a small ε̂
whatever the mechanism.  And D evaluation draws cannot show more than about
``ln(D / ln(2/α))`` (:attr:`Distinguishability.ceiling`), however large ε·d is.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from emprivacy._validation import check_choice, check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.exceptions import InputError
from emprivacy.io.corpus import read_named_file
from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.mechanisms.base import WordMechanism, check_rows
from emprivacy.preparation.template import EUCLIDEAN_GUARANTEE
from emprivacy.protection.leakage.channel import ExactChannel, Progress, has_exact_channel
from emprivacy.protection.leakage.vulnerability import _check_confidence, clopper_pearson

__all__ = [
    "DEFAULT_PAIR_DRAWS",
    "PAIR_CSV_HEADER",
    "Distinguishability",
    "PairEpsilon",
    "choose_pairs",
    "distinguish_csv",
    "distinguish_documents",
    "distinguish_pairs",
    "document_positions",
    "epsilon_lower_bound",
    "guarantee_distance",
    "read_word_pairs",
]

#: Default releases of each input of a pair.
DEFAULT_PAIR_DRAWS = 10_000
#: Points per call of the mechanism's batch path.
_CHUNK_POINTS = 1 << 17
#: Secrets whose distances to all others are candidates for automatic pairs.
_ANCHORS = 256
#: Added to every count of the estimated likelihood ratio (finite where a count is 0).
_SMOOTH = 0.5


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


# -- the metric ----------------------------------------------------------------------------
def guarantee_distance(mechanism: WordMechanism, first: Any, second: Any
                       ) -> np.ndarray | None:
    """``d(x, x′)`` in the metric of the mechanism's guarantee, for rows ``first``, ``second``.

    The mechanism's own ``distance`` (madlib: Euclidean; mahalanobis: d_RM; vickrey: its
    noise's metric), the Euclidean distance for a mechanism whose
    :meth:`~emprivacy.mechanisms.WordMechanism.guarantee_metric` is the Euclidean one
    (SanText, TEM), else ``None`` (a mechanism that states no metric: no nominal bound).

    >>> from emprivacy import Embeddings, SanText
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
    >>> guarantee_distance(SanText(emb, epsilon=1.0), [0, 0], [1, 2]).tolist()
    [1.0, 3.0]
    """
    vectors = mechanism.embeddings.vectors
    n = len(mechanism.embeddings)
    a = vectors[check_rows(np.atleast_1d(first), "rows", n)].astype(np.float64)
    b = vectors[check_rows(np.atleast_1d(second), "rows", n)].astype(np.float64)
    distance = getattr(mechanism, "distance", None)
    if callable(distance):
        return np.asarray(distance(a, b), dtype=np.float64)
    if mechanism.guarantee_metric() == EUCLIDEAN_GUARANTEE:
        diff = a - b
        return np.sqrt(np.einsum("...i,...i->...", diff, diff))
    return None


# -- the pairs -----------------------------------------------------------------------------
def choose_pairs(mechanism: WordMechanism, rows: Any, n_pairs: int, *,
                 rng: RandomState = None) -> list[tuple[int, int]]:
    """``n_pairs`` pairs of distinct ``rows`` at a spread of distances.

    Candidates: the distances (in the mechanism's metric, :func:`guarantee_distance`; the
    Euclidean one where it states none) from up to 256 of the rows, drawn at random, to
    every other row.  For each of ``n_pairs`` distances evenly spaced from the smallest
    to the largest candidate, the nearest unused candidate: close pairs, where the bound
    ε·d is small enough to be tested, and far ones.  Pairs at distance 0 (two words with
    one vector) are left out.

    Returns
    -------
    list of (row, row)
        At most ``n_pairs`` (fewer if there are fewer candidates), by distance.

    >>> from emprivacy import Embeddings, SanText
    >>> emb = Embeddings(list("abcd"), [[0.0], [1.0], [3.0], [7.0]])
    >>> choose_pairs(SanText(emb, epsilon=1.0), [0, 1, 2, 3], 3, rng=0)
    [(0, 1), (2, 3), (0, 3)]
    """
    n_pairs = check_positive_int(n_pairs, "pairs")
    n_words = len(mechanism.embeddings)
    secret = check_rows(rows, "rows", n_words)
    secret = secret[np.sort(np.unique(secret, return_index=True)[1])]
    k = secret.size
    if k < 2:
        raise ValueError(f"pairs need at least two distinct secret words; got {k}")
    gen = check_random_state(rng)
    anchors = np.sort(gen.choice(k, size=min(k, _ANCHORS), replace=False))
    metric_known = guarantee_distance(mechanism, secret[:1], secret[:1]) is not None
    vec = mechanism.embeddings.vectors
    firsts, seconds, dists = [], [], []
    per = max(1, (1 << 21) // (k * max(1, mechanism.dim)))
    for start in range(0, anchors.size, per):
        i = np.repeat(anchors[start:start + per], k)
        j = np.tile(np.arange(k), anchors[start:start + per].size)
        keep = i != j
        i, j = i[keep], j[keep]
        known = guarantee_distance(mechanism, secret[i], secret[j]) if metric_known else None
        if known is None:  # no metric stated: spread the pairs in the Euclidean one
            diff = vec[secret[i]].astype(np.float64) - vec[secret[j]]
            known = np.sqrt(np.einsum("ij,ij->i", diff, diff))
        d = known
        a, b = np.minimum(i, j), np.maximum(i, j)
        firsts.append(a)
        seconds.append(b)
        dists.append(d)
    a = np.concatenate(firsts)
    b = np.concatenate(seconds)
    d = np.concatenate(dists)
    _, first = np.unique(a * k + b, return_index=True)  # each unordered pair once
    a, b, d = a[first], b[first], d[first]
    keep = d > 0
    a, b, d = a[keep], b[keep], d[keep]
    if d.size == 0:
        raise ValueError("every pair of secret words lies at distance 0: nothing to "
                         "distinguish")
    order = np.lexsort((b, a, d))
    a, b, d = a[order], b[order], d[order]
    targets = np.linspace(d[0], d[-1], min(n_pairs, d.size))
    used = np.zeros(d.size, dtype=bool)
    picked = []
    for t in targets:
        cand = np.flatnonzero(~used)
        best = cand[int(np.argmin(np.abs(d[cand] - t)))]
        used[best] = True
        picked.append(int(best))
    picked.sort()
    return [(int(secret[a[p]]), int(secret[b[p]])) for p in picked]


def read_word_pairs(path: str | os.PathLike[str], embeddings: Embeddings | None = None, *,
                    encoding: str = "utf-8") -> list[tuple[str, str]]:
    """Word pairs from a file: two words a line, separated by whitespace.

    Blank lines and lines starting with ``#`` are skipped.  With ``embeddings``, every word
    must be in its vocabulary.

    Raises
    ------
    emprivacy.exceptions.InputError
        Naming the file (and the line): missing, unreadable, not text, a line that is not
        two words, a pair of one word twice, a word not in the vocabulary, no pair at all.
    """
    where = os.fspath(path)
    lines = read_named_file(where, what="pairs file", encoding=encoding).splitlines()
    pairs = []
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 2:
            raise InputError(f"pairs file {where!r}, line {number}: expected two words "
                             f"separated by whitespace; got {len(fields)} field"
                             f"{'' if len(fields) == 1 else 's'}")
        first, second = fields
        if first == second:
            raise InputError(f"pairs file {where!r}, line {number}: the two words are the "
                             "same word")
        if embeddings is not None:
            for word in fields:
                if word not in embeddings:
                    raise InputError(f"pairs file {where!r}, line {number}: word {word!r} "
                                     f"is not in the vocabulary of {embeddings.name!r}")
        pairs.append((first, second))
    if not pairs:
        raise InputError(f"pairs file {where!r} holds no pair of words")
    return pairs


# -- the results ---------------------------------------------------------------------------
@dataclass(frozen=True)
class PairEpsilon:
    """ε̂ for one pair of inputs (two words, or two documents of one layout).

    Attributes
    ----------
    first, second : str
        The two inputs (words; for documents, their labels).
    positions : int
        Positions at which they differ (1 for words).
    distance : float or None
        ``d(x, x′)`` in the mechanism's metric (documents: summed over the positions);
        ``None`` where the mechanism states no metric.
    nominal : float or None
        The guarantee's bound on the privacy loss, ``ε·d``.
    estimate, lower : float
        ε̂: the test's point estimate, and its lower confidence bound (≥ 0).
    true_positives, false_positives, trials : int
        The test's hits on the evaluation releases of the second and the first input.
    exact_loss : float or None
        Known law only: the pair's privacy loss in closed form,
        ``max(Σᵢ max_y sᵢ(y), Σᵢ max_y −sᵢ(y))``, sᵢ the log-likelihood ratio — the most any
        test can show.
    test_value : float or None
        Known law, words only: the chosen test's own value in closed form (what
        ``estimate`` estimates).
    """

    first: str
    second: str
    positions: int
    distance: float | None
    nominal: float | None
    estimate: float
    lower: float
    true_positives: int
    false_positives: int
    trials: int
    exact_loss: float | None = None
    test_value: float | None = None

    @property
    def tightness(self) -> float | None:
        """``lower / nominal``: how much of the nominal bound the test shows (``None`` at
        ``nominal`` 0 or unknown)."""
        if self.nominal is None or self.nominal <= 0:
            return None
        return self.lower / self.nominal

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every attribute and the tightness."""
        return {"first": self.first, "second": self.second, "positions": self.positions,
                "distance": self.distance, "nominal": self.nominal,
                "estimate": self.estimate, "lower": self.lower,
                "tightness": self.tightness, "true_positives": self.true_positives,
                "false_positives": self.false_positives, "trials": self.trials,
                "exact_loss": self.exact_loss, "test_value": self.test_value}


@dataclass(frozen=True)
class Distinguishability:
    """The distinguishability audit of one mechanism at its ε over a set of pairs.

    Attributes
    ----------
    mechanism : str
    epsilon : float
    draws : int
        Releases of each input.
    confidence : float
        Simultaneous over the pairs (each pair's bound at ``1 − (1 − confidence)/P``).
    method : str
        ``"likelihood-ratio"`` (known law) or ``"split-half"`` (a distinguisher built
        from half the draws, scored on the other half).
    pairs : tuple of PairEpsilon
    ceiling : float
        The largest lower bound the evaluation draws of one pair can give: an ε̂ at the
        ceiling means "at least this much; more draws would show more".
    seconds : float
    inputs : {"words", "documents"}
        What the pairs are: words (:func:`distinguish_pairs`) or two documents of one
        layout (:func:`distinguish_documents`).
    """

    mechanism: str
    epsilon: float
    draws: int
    confidence: float
    method: str
    pairs: tuple[PairEpsilon, ...]
    ceiling: float
    seconds: float = field(default=0.0, compare=False)
    inputs: str = "words"

    def best(self) -> PairEpsilon:
        """The pair with the largest lower bound (ties: the first)."""
        return max(self.pairs, key=lambda p: p.lower)

    @property
    def tightness(self) -> float | None:
        """The largest ``lower / nominal`` over the pairs (``None`` if none is defined)."""
        values = [p.tightness for p in self.pairs if p.tightness is not None]
        return max(values) if values else None

    def table(self) -> list[str]:
        """Markdown lines: a heading and one row per pair (ε̂ beside ε·d)."""
        what = ("likelihood-ratio test (the law is known)" if self.method == "likelihood-ratio"
                else "distinguisher built on half the releases, scored on the other half")
        docs = self.inputs == "documents"
        n = len(self.pairs)
        level = (f"lower bound at {self.confidence:.0%} confidence" if n == 1 else
                 f"lower bounds at {self.confidence:.0%} confidence, simultaneous over the "
                 f"{n} pairs")
        lines = [f"ε̂{' of two documents' if docs else ''}, {self.mechanism} at ε = "
                 f"{self.epsilon:g}: {self.draws} releases of each input; {what}; {level}; "
                 f"the draws cannot show more than {self.ceiling:.3g}:", "",
                 f"| {'documents' if docs else 'pair'} |{' positions |' if docs else ''} d | "
                 "ε·d | ε̂ | ε̂ lower | lower / ε·d | exact loss |",
                 f"|---|{'---:|' if docs else ''}---:|---:|---:|---:|---:|---:|"]
        for p in self.pairs:
            lines.append(
                f"| {p.first} / {p.second} |{f' {p.positions} |' if docs else ''} "
                f"{_num(p.distance)} | {_num(p.nominal)} | {p.estimate:.4g} | "
                f"{p.lower:.4g} | {_num(p.tightness)} | {_num(p.exact_loss)} |")
        return lines

    def csv_rows(self) -> list[list[Any]]:
        """One row per pair, in the order of :data:`PAIR_CSV_HEADER`."""
        return [[self.mechanism, self.epsilon, self.method, self.draws, self.confidence,
                 p.first, p.second, p.positions, _cell(p.distance), _cell(p.nominal),
                 p.estimate, p.lower, _cell(p.tightness), p.true_positives,
                 p.false_positives, p.trials, _cell(p.exact_loss), _cell(p.test_value),
                 self.inputs]
                for p in self.pairs]

    def summary(self) -> dict[str, Any]:
        """JSON-ready (the ``epsilon_hat`` of ``emprivacy audit --json``): the pair set's
        largest ε̂ (estimate and lower bound, with its pair and nominal ε·d), the
        tightness, how it was computed, and every pair."""
        best = self.best()
        return {
            "estimate": best.estimate, "lower": best.lower, "nominal": best.nominal,
            "pair": [best.first, best.second], "tightness": self.tightness,
            "confidence": self.confidence, "draws": self.draws, "method": self.method,
            "ceiling": self.ceiling, "inputs": self.inputs,
            "pairs": [p.to_dict() for p in self.pairs],
        }


#: The columns of :meth:`Distinguishability.csv_rows` (``distinguish.csv``).
PAIR_CSV_HEADER = ("mechanism", "epsilon", "method", "draws", "confidence", "first",
                   "second", "positions", "distance", "nominal", "epsilon_hat",
                   "epsilon_hat_lower", "tightness", "true_positives", "false_positives",
                   "trials", "exact_loss", "test_value", "inputs")


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.4g}"


def _cell(value: float | None) -> Any:
    return "" if value is None else value


def distinguish_csv(results: Sequence[Distinguishability]) -> str:
    """CSV of one row per pair of every result (:data:`PAIR_CSV_HEADER`)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(PAIR_CSV_HEADER)
    for r in results:
        writer.writerows(r.csv_rows())
    return buf.getvalue()


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


def _log_ratio(mechanism: WordMechanism, first: int, second: int) -> np.ndarray:
    """``ln C[second, y] − ln C[first, y]`` over the vocabulary (known law), (|V|,)."""
    ch = ExactChannel(mechanism, [first, second])
    z = np.log(ch.normalisers())
    out = np.empty(ch.n_outputs)
    for start in range(0, ch.n_outputs, ch.block_cols):
        stop = min(start + ch.block_cols, ch.n_outputs)
        lw = ch.log_weights(start, stop)
        out[start:stop] = (lw[1] - z[1]) - (lw[0] - z[0])
    return out


def _law(mechanism: WordMechanism, row: int) -> np.ndarray:
    ch = ExactChannel(mechanism, [row])
    return np.concatenate([blk[0] for _, blk in ch.blocks()])


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
            s = _log_ratio(mechanism, int(a[0]), int(b[0]))
            p0, p1 = _law(mechanism, int(a[0])), _law(mechanism, int(b[0]))
            t = _choose_threshold(s, s, draws * p1, draws * p0, draws, draws, pair_conf)
            inside = s >= t
            q1, q0 = float(p1[inside].sum()), float(p0[inside].sum())
            with np.errstate(divide="ignore"):
                value = max(math.log(q1) - math.log(q0) if q0 > 0 else math.inf,
                            math.log1p(-q0) - math.log1p(-q1) if q1 < 1 else math.inf, 0.0)
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


def _as_row(embeddings: Embeddings, value: Any, name: str) -> tuple[str, int]:
    if isinstance(value, str):
        row = embeddings.get_index(value) if value in embeddings else -1
        if row < 0:
            raise ValueError(f"word {value!r} is not in the vocabulary of {embeddings.name!r}")
        return value, int(row)
    row = int(check_rows(np.atleast_1d(value), name, len(embeddings))[0])
    return embeddings.words[row], row


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
        (:func:`choose_pairs` picks pairs at a spread of distances,
        :func:`read_word_pairs` reads them from a file).
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
    if isinstance(pairs, str | bytes):
        raise TypeError("pairs must be a sequence of (word, word) pairs")
    items = []
    for pair in pairs:
        if isinstance(pair, str | bytes) or len(pair) != 2:
            raise ValueError(f"each pair must be two words; got {pair!r}")
        (w0, r0), (w1, r1) = (_as_row(mechanism.embeddings, v, "pairs") for v in pair)
        if r0 == r1:
            raise ValueError(f"the two words of a pair must differ; got {w0!r} twice")
        items.append((w0, w1, np.asarray([r0], np.int64), np.asarray([r1], np.int64)))
    if not items:
        raise ValueError("pairs must hold at least one pair; got none")
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


def document_positions(embeddings: Embeddings, first: str, second: str, *,
                       perturb_stopwords: bool = False,
                       labels: tuple[str, str] = ("first", "second")
                       ) -> tuple[np.ndarray, np.ndarray]:
    """The vocabulary rows at which two documents of one layout differ, in text mode.

    The check :func:`distinguish_documents` makes before any release (so that a command
    can make it before any work): the two texts must have one layout (the text around
    the perturbed words, their capitalisation and their number) and differ in at least
    one perturbed word.

    Returns
    -------
    (first_rows, second_rows) : two int64 arrays of one length ≥ 1
        The rows of the words at the positions where the documents differ.

    Raises
    ------
    ValueError
        As :func:`distinguish_documents`, naming the documents by ``labels``.

    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
    >>> a, b = document_positions(emb, "A cat, a car.", "A dog, a car.")
    >>> a.tolist(), b.tolist()
    ([0], [1])
    """
    from emprivacy.preparation.template import prepare_text

    ta = prepare_text(first, embeddings, oov="placeholder", perturb_stopwords=perturb_stopwords)
    tb = prepare_text(second, embeddings, oov="placeholder",
                      perturb_stopwords=perturb_stopwords)
    if (ta.pieces != tb.pieces or ta.cases != tb.cases or ta.curly != tb.curly
            or ta.indices.size != tb.indices.size):
        raise ValueError(f"documents {labels[0]!r} and {labels[1]!r} do not have one layout "
                         "(the text around the perturbed words, their capitalisation or "
                         "their number differ): the layout alone tells them apart")
    a = np.asarray(ta.indices, dtype=np.int64)
    b = np.asarray(tb.indices, dtype=np.int64)
    differ = a != b
    if not differ.any():
        raise ValueError(f"documents {labels[0]!r} and {labels[1]!r} release the same words: "
                         "nothing to tell apart")
    return a[differ], b[differ]
