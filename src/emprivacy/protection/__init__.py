"""What a release protects: the adversary's view of a mechanism, measured.

The "what a release protects" concept in one package (``emprivacy.audit`` is its public
face, ``emprivacy audit`` its command):

* :mod:`~emprivacy.protection.secrets` — the secret words S and the prior π
  (:func:`secret_words`, :class:`Secrets`, :func:`content_word_counts`);
* :mod:`~emprivacy.protection.channel` — the word channel ``C[x, y] = P[M(x) = y]``:
  exact for SanText and TEM (:class:`ExactChannel`), sampled through the batch path for
  the others (:func:`sample_channel`, :class:`SampledChannel`);
* :mod:`~emprivacy.protection.vulnerability` — Bayes vulnerability, leakage and
  capacity (Alvim et al., *The Science of Quantitative Information Flow*, 2020), the
  split-half attack and the intervals of sampled figures;
* :mod:`~emprivacy.protection.audit` — :func:`audit_mechanism` and its reports;
* :mod:`~emprivacy.protection.distinguish` — the distinguishability audit: a lower bound
  ε̂ on the privacy loss of pairs of words or documents, beside the nominal ε·d
  (:func:`distinguish_pairs`, :func:`distinguish_documents`);
* :mod:`~emprivacy.protection.reconstruction` — the reconstruction attack on a released
  corpus (:func:`reconstruction_attack`), with the n-gram context model of
  :mod:`~emprivacy.protection.ngram` (:class:`NgramModel`) or a plugged-in
  :class:`ContextScorer`.

Not built yet (docs/AUDIT.md): the one privacy scale in ``evaluate``/``calibrate``.
"""

from __future__ import annotations

from .audit import (
    Estimate,
    WordAudit,
    audit_csv,
    audit_mechanism,
    audit_report,
    audit_table,
)
from .channel import ExactChannel, SampledChannel, has_exact_channel, sample_channel
from .distinguish import (
    Distinguishability,
    PairEpsilon,
    choose_pairs,
    distinguish_documents,
    distinguish_pairs,
    epsilon_lower_bound,
    guarantee_distance,
    read_word_pairs,
)
from .ngram import NgramModel
from .reconstruction import (
    ContextScorer,
    Reconstruction,
    RecoveryRate,
    count_words,
    fit_context_model,
    load_documents,
    reconstruction_attack,
    reconstruction_csv,
    reconstruction_table,
    split_corpus,
)
from .secrets import PRIORS, Secrets, content_word_counts, is_content_word, secret_words
from .vulnerability import (
    ChannelMeasures,
    SplitHalfAttack,
    bayes_vulnerability,
    channel_measures,
    clopper_pearson,
    multiplicative_capacity,
    multiplicative_leakage,
    plugin_margin,
    posterior_vulnerability,
    qif_measures,
    recovery_rates,
    split_half_attack,
)

__all__ = [
    "PRIORS",
    "ChannelMeasures",
    "ContextScorer",
    "Distinguishability",
    "Estimate",
    "ExactChannel",
    "NgramModel",
    "PairEpsilon",
    "Reconstruction",
    "RecoveryRate",
    "SampledChannel",
    "Secrets",
    "SplitHalfAttack",
    "WordAudit",
    "audit_csv",
    "audit_mechanism",
    "audit_report",
    "audit_table",
    "bayes_vulnerability",
    "channel_measures",
    "choose_pairs",
    "clopper_pearson",
    "content_word_counts",
    "count_words",
    "distinguish_documents",
    "distinguish_pairs",
    "epsilon_lower_bound",
    "fit_context_model",
    "guarantee_distance",
    "has_exact_channel",
    "is_content_word",
    "load_documents",
    "multiplicative_capacity",
    "multiplicative_leakage",
    "plugin_margin",
    "posterior_vulnerability",
    "qif_measures",
    "read_word_pairs",
    "reconstruction_attack",
    "reconstruction_csv",
    "reconstruction_table",
    "recovery_rates",
    "sample_channel",
    "secret_words",
    "split_corpus",
    "split_half_attack",
]
