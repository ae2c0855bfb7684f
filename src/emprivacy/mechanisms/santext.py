"""SanText (Yue et al., Findings of ACL 2021): the exponential mechanism over the vocabulary.

Each word x becomes a vocabulary word y drawn with probability

.. math::

    P(y \\mid x) = \\frac{\\exp(-ε\\, d(x, y) / 2)}{\\sum_{y' ∈ V} \\exp(-ε\\, d(x, y') / 2)},
    \\qquad d(x, y) = ‖\\mathrm{Vec}(x) − \\mathrm{Vec}(y)‖_2,

which is ε·d metric local DP (the exponential mechanism with utility −d, sensitivity 1).
It is sampled by the two-level Gumbel-max of :mod:`~emprivacy.mechanisms.exponential`,
which it shares with TEM (:mod:`~emprivacy.mechanisms.tem`).
"""

from __future__ import annotations

import math

from ..embeddings import Embeddings
from ..randomness import RandomState
from .exponential import ExponentialMechanism, ExponentialSampler

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
        Vocabulary tile width of the sampler (default 512, or ⌈√|V|⌉ rounded up to 64
        for vocabularies above 512² words).  The law of the output does not depend on
        it; the exact draws for a given seed do.
    n_threads : int, optional
        Threads of the blocked distance pass (default: every core this process may use).

    Notes
    -----
    Sampling is a Gumbel-max, ``argmax_y (−ε d(x, y)/2 + G_y)``, done in two levels
    so that no (words × |V|) array is ever formed and only (tiles + tile width)
    Gumbels are drawn per word: one blocked pass over vocabulary tiles (float64 GEMM of
    centred vectors) computes, for each distinct input row, the log-sum-exp of its
    log-weights in every tile — cached per row (bounded LRU); a word draws one Gumbel
    per tile around these (the maximum of Gumbel-perturbed log-weights is Gumbel around
    their log-sum-exp), then one per word of the winning tile, whose distances alone are
    recomputed.  The output has exactly the law above.  Distances are float64: within
    about 1e-12 of ``Σ_k (y_k − x_k)²`` in the square, and recomputed directly below
    about 2e-3 (so ``d(x, x) = 0`` exactly); probabilities are therefore exact to
    about 1e-9 relative.  Near ties of an arg-max are decided on exact distances, so a
    batch (:meth:`privatize_batches`) equals its bags one by one, bit for bit.  Costs:
    O(|V|·n) per distinct input row (GEMM), then O(T + |V|/T) draws and O(n·|V|/T)
    arithmetic per word, with T tiles.

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
        self._sampler = ExponentialSampler(embeddings, epsilon=self.epsilon, gamma=math.inf,
                                           block_cols=block_cols, n_threads=n_threads)

    def __repr__(self) -> str:
        return f"SanText(embeddings={self.embeddings!r}, epsilon={self.epsilon!r})"
