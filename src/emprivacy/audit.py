"""``emprivacy.audit``: how much a release protects, as the Python face of ``emprivacy audit``.

Everything here lives in :mod:`emprivacy.protection`; this module re-exports its public
API, so that ``from emprivacy.audit import audit_mechanism, secret_words`` mirrors the
command line.

>>> from emprivacy import Embeddings, make_mechanism
>>> from emprivacy.audit import audit_mechanism, secret_words
>>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
>>> secrets = secret_words(emb, prior="uniform")
>>> audit = audit_mechanism(make_mechanism("santext", emb, epsilon=1e3), secrets)
>>> audit.summary()["posterior_vulnerability"]
{'estimate': 1.0, 'lower': 1.0, 'upper': 1.0, 'kind': 'exact'}
>>> tem = audit_mechanism(make_mechanism("tem", emb, epsilon=1e3, beta=0.01), secrets)
>>> round(tem.posterior_vulnerability.estimate, 6)  # TEM keeps a word w.p. 1 − β at most
0.99
"""

from __future__ import annotations

from .protection import (
    PRIORS,
    ChannelMeasures,
    ContextScorer,
    Distinguishability,
    Estimate,
    ExactChannel,
    NgramModel,
    PairEpsilon,
    Reconstruction,
    RecoveryRate,
    SampledChannel,
    Secrets,
    SplitHalfAttack,
    WordAudit,
    audit_csv,
    audit_mechanism,
    audit_report,
    audit_table,
    bayes_vulnerability,
    channel_measures,
    choose_pairs,
    clopper_pearson,
    content_word_counts,
    count_words,
    distinguish_documents,
    distinguish_pairs,
    epsilon_lower_bound,
    fit_context_model,
    guarantee_distance,
    has_exact_channel,
    is_content_word,
    load_documents,
    multiplicative_capacity,
    multiplicative_leakage,
    plugin_margin,
    posterior_vulnerability,
    qif_measures,
    read_word_pairs,
    reconstruction_attack,
    reconstruction_csv,
    reconstruction_table,
    recovery_rates,
    sample_channel,
    secret_words,
    split_corpus,
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
