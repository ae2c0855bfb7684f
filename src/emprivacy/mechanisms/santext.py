"""SanText (Yue et al., Findings of ACL 2021): the exponential mechanism over the vocabulary.

Each word x becomes a vocabulary word y drawn with probability

.. math::

    P(y \\mid x) = \\frac{\\exp(-ε\\, d(x, y) / 2)}{\\sum_{y' ∈ V} \\exp(-ε\\, d(x, y') / 2)},
    \\qquad d(x, y) = ‖\\mathrm{Vec}(x) − \\mathrm{Vec}(y)‖_2,

which is ε·d metric local DP (the exponential mechanism with utility −d, sensitivity 1).
It is sampled exactly by the lazy Gumbel-max of :mod:`~emprivacy.mechanisms._sampling`,
which it shares with TEM (:mod:`~emprivacy.mechanisms.tem`).
"""

from __future__ import annotations

import math

from emprivacy.embeddings.model import Embeddings
from emprivacy.math.randomness import RandomState
from emprivacy.mechanisms._sampling import LazyGumbelSampler
from emprivacy.mechanisms.exponential import ExponentialMechanism

__all__ = ["SanText"]


class SanText(ExponentialMechanism):
    """SanText (Yue et al., Findings of ACL 2021): sample each word from a softmax of −εd/2.

    Each input word x is replaced by ``y ∈ V`` with

    .. math::

        P(y \\mid x) = \\frac{e^{-ε d(x, y)/2}}{\\sum_{y' ∈ V} e^{-ε d(x, y')/2}},
        \\qquad d(x, y) = ‖\\mathrm{Vec}(x) − \\mathrm{Vec}(y)‖_2 .

    Guarantee: ε·d metric local DP per word,
    ``P(y | x) ≤ e^{ε d(x, x')} P(y | x')`` (the exponential mechanism with a
    1-Lipschitz utility: the numerators differ by at most ``e^{εd/2}``, the normalisers
    by at most ``e^{εd/2}``), hence εN·E on bags of size N, like the paper's mechanism.

    Parameters
    ----------
    embeddings : Embeddings
        ``Vec``; its vocabulary is also the output vocabulary (the sum runs over all of it).
    epsilon : float
        Per-word ε.
    rng : None, int or numpy.random.Generator
        ``None`` (default): a cryptographically secure generator.  An int seeds a
        reproducible run (not for real releases).
    block_cols : int, optional
        Vocabulary tile width of the float32 distance pass (default 512).  Neither the
        law of the output nor the draws for a given seed depend on it.
    n_threads : int, optional
        Threads of the blocked distance pass (default: every core this process may use).

    Notes
    -----
    Sampling is an exact lazy Gumbel-max, ``argmax_y (−ε d(x, y)/2 + G_y)``
    (:class:`~emprivacy.mechanisms._sampling.LazyGumbelSampler`): for each distinct
    input row of a call, one blocked float32 pass over the vocabulary (GEMM tiles with
    a proven rounding bound, like the exact decoder's) finds the words of the ball
    ``S = {y : d(x, y) < R}``, ``R = min(18/ε, distance of the 64th nearest word)``,
    whose distances are then computed exactly in float64; each occurrence draws one
    Gumbel per word of S, then the number K of words beyond R whose Gumbel could beat
    the best of S — ``Binomial(|V ∖ S|, P(G > B))``, ``B`` the best minus the bound
    ``−εR/2`` on their scores — draws those K words uniformly (without replacement)
    with Gumbels conditioned on exceeding B, and releases the overall arg-max.  That is
    the one-level Gumbel-max over all of V with the draws that cannot matter left out,
    so the output has exactly the law above (to float64 rounding).  On GloVe 6B 50d
    (100k words) and Zipf-distributed input words, S averages 1.0–1.2 words and K 12 at
    ε = 10 and 20, and 28 and 33 at ε = 5.  S, R and every score
    come from exact float64 distances ``Σ_k (y_k − x_k)²``, so the released words
    depend only on each bag and its generator: a batch (:meth:`privatize_batches`)
    equals its bags one by one, whatever the tiling and threads.  Costs: one float32
    GEMM pass over V per distinct input row of a call (nothing is kept between calls),
    then O(|S| + K) per word.  :meth:`privatize_points` applies the same law to
    arbitrary points (R then extends 18/ε beyond the point's nearest word).

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog", "car"], [[0, 0], [1, 0], [9, 9]], name="toy")
    >>> SanText(emb, epsilon=1e3, rng=0).privatize(["cat", "car", "cat"])
    ['cat', 'car', 'cat']

    References
    ----------
    .. [1] X. Yue, M. Du, T. Wang, Y. Li, H. Sun, S. S. M. Chow, "Differential privacy
       for text analytics via natural text sanitization", Findings of ACL 2021
       (SanText, without the sensitive-word split of SanText+).
    """

    name = "santext"

    def __init__(self, embeddings: Embeddings, *, epsilon: float, rng: RandomState = None,
                 block_cols: int | None = None, n_threads: int | None = None) -> None:
        super().__init__(embeddings, epsilon=epsilon, rng=rng)
        self._sampler = LazyGumbelSampler(embeddings, epsilon=self.epsilon, gamma=math.inf,
                                           block_cols=block_cols, n_threads=n_threads)

    def __repr__(self) -> str:
        return f"SanText(embeddings={self.embeddings!r}, epsilon={self.epsilon!r})"
