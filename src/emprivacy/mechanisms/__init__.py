"""The word-level mechanisms: one module per mechanism family, one base class.

* :mod:`~emprivacy.mechanisms.base` — :class:`WordMechanism`, what a mechanism implements.
* :mod:`~emprivacy.mechanisms.madlib` — the paper's mechanism (Alg. 1 and 2),
  :class:`EarthMoversPrivacy` (``"madlib"``).
* :mod:`~emprivacy.mechanisms.mahalanobis` — the regularised Mahalanobis mechanism
  (Xu et al. 2020), :class:`MahalanobisPrivacy` (``"mahalanobis"``).
* :mod:`~emprivacy.mechanisms.vickrey` — the Vickrey mechanism (Xu et al. 2021),
  :class:`VickreyPrivacy` (``"vickrey"``).
* :mod:`~emprivacy.mechanisms.tem` — the truncated exponential mechanism (Carvalho et
  al. 2023), :class:`TruncatedExponential` (``"tem"``).
* :mod:`~emprivacy.mechanisms.santext` — SanText's exponential mechanism (Yue et al.
  2021), :class:`SanText` (``"santext"``).
* :mod:`~emprivacy.mechanisms.exponential` — what TEM and SanText share: the
  exponential mechanism over the vocabulary, sampled exactly by the lazy Gumbel-max of
  :mod:`~emprivacy.mechanisms._sampling` (explicit Gumbels for a small ball of near
  words, a binomial count of the far words that could still win); the blocked exact
  distances of :mod:`~emprivacy.mechanisms._tiles` serve the rank resampling.
* :mod:`~emprivacy.mechanisms.curse` — the rank-resampling post-processing against the
  curse of dimensionality (Asghar et al. 2026), :class:`RankResampler`, and the
  neighbour ranks of released words (:func:`neighbour_ranks`, :func:`rank_buckets`).
* :mod:`~emprivacy.mechanisms.registry` — the mechanisms by name:
  :data:`MECHANISMS`, :func:`make_mechanism`, :func:`mechanism_parameters`.
"""

from __future__ import annotations

from emprivacy.mechanisms.base import WordMechanism
from emprivacy.mechanisms.curse import RankResampler, neighbour_ranks, rank_buckets
from emprivacy.mechanisms.madlib import (
    EarthMoversPrivacy,
    generate_noisy_bag_of_words,
    generate_noisy_vector,
    generate_private_bag,
)
from emprivacy.mechanisms.mahalanobis import (
    MahalanobisPrivacy,
    RegularizedMahalanobis,
    mahalanobis_distance,
    regularized_covariance,
    vocabulary_covariance,
)
from emprivacy.mechanisms.registry import (
    MECHANISMS,
    MechanismParameter,
    make_mechanism,
    mechanism_parameters,
    parse_params,
    register,
    takes_decoder,
)
from emprivacy.mechanisms.santext import SanText
from emprivacy.mechanisms.tem import TruncatedExponential, truncation_threshold
from emprivacy.mechanisms.vickrey import VickreyPrivacy, second_word_probability

__all__ = [
    "MECHANISMS",
    "EarthMoversPrivacy",
    "MahalanobisPrivacy",
    "MechanismParameter",
    "RankResampler",
    "RegularizedMahalanobis",
    "SanText",
    "TruncatedExponential",
    "VickreyPrivacy",
    "WordMechanism",
    "generate_noisy_bag_of_words",
    "generate_noisy_vector",
    "generate_private_bag",
    "mahalanobis_distance",
    "make_mechanism",
    "mechanism_parameters",
    "neighbour_ranks",
    "parse_params",
    "rank_buckets",
    "register",
    "regularized_covariance",
    "second_word_probability",
    "takes_decoder",
    "truncation_threshold",
    "vocabulary_covariance",
]
