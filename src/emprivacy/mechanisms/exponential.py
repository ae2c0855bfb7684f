"""The exponential mechanism over the vocabulary, shared by SanText and TEM.

SanText (:mod:`~emprivacy.mechanisms.santext`) and TEM (:mod:`~emprivacy.mechanisms.tem`)
both release a vocabulary word v for an input word x (or any point of R^n) with
probability

.. math::

    P(v \\mid x) ∝ \\exp(−(ε/2)\\, \\min(d(x, v), γ)),
    \\qquad d(x, v) = ‖\\mathrm{Vec}(x) − \\mathrm{Vec}(v)‖_2,

γ = ∞ for SanText, TEM's threshold for TEM: the exponential mechanism with a
1-Lipschitz utility, ε·d metric DP.  :class:`ExponentialMechanism` is the
:class:`~emprivacy.mechanisms.WordMechanism` on top of the exact lazy Gumbel-max
sampler of :mod:`~emprivacy.mechanisms._sampling` (its exact law for tests, bags,
batches, arbitrary points).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from emprivacy._validation import check_positive_int
from emprivacy.mechanisms._sampling import LazyGumbelSampler
from emprivacy.mechanisms.base import WordMechanism, check_points, check_row
from emprivacy.preparation.template import EUCLIDEAN_GUARANTEE

__all__ = ["ExponentialMechanism"]


class ExponentialMechanism(WordMechanism):
    """A word mechanism sampling ``P(v | x) ∝ exp(−(ε/2)·min(d(x, v), γ))`` over the vocabulary.

    Subclasses (:class:`~emprivacy.mechanisms.SanText`,
    :class:`~emprivacy.mechanisms.TruncatedExponential`) validate their parameters
    and set ``_sampler``, a :class:`~emprivacy.mechanisms._sampling.LazyGumbelSampler`
    with their γ.
    """

    #: :meth:`privatize_points` is implemented (the law is defined for any point).
    supports_points: ClassVar[bool] = True
    _sampler: LazyGumbelSampler

    @classmethod
    def check_parameters(cls, params: dict[str, Any]) -> dict[str, Any]:
        """``block_cols`` and ``n_threads`` (None or an integer >= 1) validated."""
        out = super().check_parameters(params)
        for key in ("block_cols", "n_threads"):
            if out.get(key) is not None:
                out[key] = check_positive_int(out[key], key)
        return out

    def record_fields(self) -> dict[str, Any]:
        """Output records name the mechanism and the metric of its guarantee."""
        return {"mechanism": self.name, "metric": "euclidean"}

    def guarantee_metric(self) -> str:
        """The metric of the guarantee in words: the Euclidean distance (the exponential
        mechanism with the 1-Lipschitz utility ``−min(d, γ)`` at ε/2 is ε·d₂-private)."""
        return EUCLIDEAN_GUARANTEE

    def output_probabilities(self, index: int) -> np.ndarray:
        """The closed-form law ``P(· | x)`` of the word at row ``index``: (|V|,) float64.

        ``∝ exp(−ε·min(d(x, v), γ)/2)`` from exact float64 distances, O(|V|·n); for
        tests and small studies.
        """
        return self._sampler.probabilities(check_row(index, len(self.embeddings)))

    def privatize_indices(self, indices: np.ndarray | Sequence[int], *,
                          rng: np.random.Generator | None = None) -> np.ndarray:
        """The mechanism on vocabulary rows: the rows of the released words, in order."""
        return self._sampler.sample(_check_bags(self, [(indices, rng)]))[0]

    def privatize_batches(self, bags: Sequence[tuple[np.ndarray, np.random.Generator]]
                          ) -> list[np.ndarray]:
        """The mechanism on many bags, each from its own generator; equal to bag by bag."""
        return self._sampler.sample(_check_bags(self, bags))

    def privatize_points(self, points: np.ndarray, *,
                         rng: np.random.Generator | None = None) -> np.ndarray:
        """The mechanism applied to arbitrary points p of R^n: one released row per point.

        The same law as for a vocabulary word whose vector is p,
        ``P(v | p) ∝ exp(−(ε/2)·min(‖p − Vec(v)‖, γ))`` (γ = ∞ for SanText; for TEM
        ``L_p`` is the words within γ of p), for inputs that are not vocabulary words
        (e.g. subword vectors of out-of-vocabulary words).  The guarantee is the same
        ε·d metric DP, now between any two points (or a point and a word's vector):
        ``P(v | p) ≤ e^{ε‖p − p′‖} P(v | p′)``.  No per-point state is kept.

        Parameters
        ----------
        points : (m, n) array-like
            Finite points, m ≥ 1 (used in float64 as given).
        rng : numpy.random.Generator, optional
            Overrides the mechanism's generator for this call.

        Returns
        -------
        (m,) int64 array of vocabulary rows.
        """
        z = check_points(points, self.dim)
        gen = _check_bags(self, [(np.zeros(1, dtype=np.int64), rng)])[0][1]
        return self._sampler.sample_points(z, gen)


def _check_bags(mech: WordMechanism, bags: Sequence[tuple[Any, Any]]
                ) -> list[tuple[np.ndarray, np.random.Generator]]:
    """Validated (int64 rows, generator) pairs; a ``None`` generator means the mechanism's."""
    checked = []
    for idx, gen in bags:
        if gen is None:
            gen = mech.rng
        elif not isinstance(gen, np.random.Generator):
            raise TypeError(f"rng must be a numpy.random.Generator or None; got "
                            f"{type(gen).__name__}")
        checked.append((mech.check_indices(idx), gen))
    return checked
