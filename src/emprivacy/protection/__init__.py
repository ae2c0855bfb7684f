"""What a release protects: the adversary's view of a mechanism, measured.

The "what a release protects" concept in one package (``emprivacy.protection`` is its public
face, ``emprivacy audit`` its command):

* :mod:`~emprivacy.protection.leakage.secrets` — the secret words S and the prior π
  (:func:`secret_words`, :class:`Secrets`, :func:`content_word_counts`);
* :mod:`~emprivacy.protection.leakage.channel` — the word channel ``C[x, y] = P[M(x) = y]``:
  exact for SanText and TEM (:class:`ExactChannel`), sampled through the batch path for
  the others (:func:`sample_channel`, :class:`SampledChannel`);
* :mod:`~emprivacy.protection.leakage.vulnerability` — Bayes vulnerability, leakage and
  capacity (Alvim et al., *The Science of Quantitative Information Flow*, 2020), the
  split-half attack and the intervals of sampled figures;
* :mod:`~emprivacy.protection.leakage.audit` — :func:`audit_mechanism`, with its results and
  reports in :mod:`~emprivacy.protection.leakage.audit_report` (:class:`WordAudit`,
  :func:`audit_table`, :func:`audit_csv`, :func:`audit_report`) and its plot in
  :mod:`~emprivacy.protection.leakage.audit_plot` (:func:`plot_audit`, which also re-plots
  saved ``audit.json`` files);
* :mod:`~emprivacy.protection.leakage.distinguish` — the distinguishability audit: a lower bound
  ε̂ on the privacy loss of pairs of words or documents, beside the nominal ε·d
  (:func:`distinguish_pairs`, :func:`distinguish_documents`), on the pairs of
  :mod:`~emprivacy.protection.leakage.pairs` (:func:`choose_pairs`, :func:`read_word_pairs`),
  with its results and reports in :mod:`~emprivacy.protection.leakage.distinguish_report`
  (:class:`Distinguishability`);
* :mod:`~emprivacy.protection.attacks.reconstruction` — the reconstruction attack on a released
  corpus (:func:`reconstruction_attack`) read by :mod:`~emprivacy.protection.attacks.corpus`
  (:func:`load_documents`, :func:`split_corpus`), with the adversary's context of
  :mod:`~emprivacy.protection.attacks.context` — the n-gram model of
  :mod:`~emprivacy.protection.attacks.ngram` (:class:`NgramModel`) or a plugged-in
  :class:`ContextScorer` — and its results and reports in
  :mod:`~emprivacy.protection.attacks.reconstruction_report` (:class:`Reconstruction`,
  :func:`reconstruction_table`, :func:`reconstruction_csv`);
* :mod:`~emprivacy.protection.epsilon.scale` — one privacy scale: the ε at which the optimal
  adversary recovers at most a fraction P of the words (:func:`calibrate_recovery`,
  ``calibrate --target-recovery``), by the search of
  :mod:`~emprivacy.protection.epsilon.search` (:func:`find_epsilon`); and, in
  :mod:`~emprivacy.protection.epsilon.recovery`, the recovery rate measured on a release
  whose originals are known (:func:`release_recovery`, the privacy axis of ``evaluate``);
* :mod:`~emprivacy.protection.epsilon.deniability` — the plausible-deniability statistics of
  ``calibrate`` (how often a word stays itself; Fernandes et al. 2019, §5) and
  :func:`calibrate_epsilon`, with their tables and plot in
  :mod:`~emprivacy.protection.epsilon.deniability_report`;
* :mod:`~emprivacy.protection.epsilon.mechanism_study` — ``study``: a mechanism's word-level
  behaviour (neighbour ranks, TEM's truncation);
* :mod:`~emprivacy.protection.report` — what every report shares: :class:`Estimate` (a
  figure with its interval), Markdown tables, CSV columns and :func:`strict_json`.

The names below are imported on first use, so that importing one module of the package
does not import all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "ChannelMeasures": "leakage.vulnerability",
    "ContextScorer": "attacks.context",
    "DeniabilityStudy": "epsilon.deniability",
    "Distinguishability": "leakage.distinguish_report",
    "EpsilonPoint": "epsilon.search",
    "EpsilonSearch": "epsilon.search",
    "Estimate": "report",
    "ExactChannel": "leakage.channel",
    "NgramModel": "attacks.ngram",
    "PRIORS": "leakage.secrets",
    "PairEpsilon": "leakage.distinguish_report",
    "PlausibleDeniability": "epsilon.deniability_report",
    "Reconstruction": "attacks.reconstruction_report",
    "RecoveryCalibration": "epsilon.scale",
    "RecoveryRate": "attacks.reconstruction_report",
    "ReleaseRecovery": "epsilon.recovery",
    "SampledChannel": "leakage.channel",
    "Secrets": "leakage.secrets",
    "SplitHalfAttack": "leakage.vulnerability",
    "WeightedMeasures": "leakage.weighted",
    "guarantee_ceiling": "leakage.densities",
    "has_noise_density": "leakage.densities",
    "weighted_measures": "leakage.weighted",
    "TemTruncation": "epsilon.mechanism_study",
    "WordAudit": "leakage.audit_report",
    "audit_csv": "leakage.audit_report",
    "audit_figure": "leakage.audit_plot",
    "audit_mechanism": "leakage.audit",
    "audit_report": "leakage.audit_report",
    "audit_table": "leakage.audit_report",
    "bayes_vulnerability": "leakage.vulnerability",
    "calibrate_epsilon": "epsilon.deniability",
    "calibrate_recovery": "epsilon.scale",
    "calibration_table": "epsilon.deniability_report",
    "channel_measures": "leakage.vulnerability",
    "choose_pairs": "leakage.pairs",
    "clopper_pearson": "leakage.vulnerability",
    "content_word_counts": "leakage.secrets",
    "count_words": "attacks.corpus",
    "distinguish_csv": "leakage.distinguish_report",
    "distinguish_documents": "leakage.distinguish",
    "distinguish_pairs": "leakage.distinguish",
    "document_positions": "leakage.pairs",
    "epsilon_lower_bound": "leakage.distinguish",
    "find_epsilon": "epsilon.search",
    "fit_context_model": "attacks.context",
    "guarantee_distance": "leakage.pairs",
    "has_exact_channel": "leakage.channel",
    "is_content_word": "leakage.secrets",
    "load_audit_results": "leakage.audit_plot",
    "load_documents": "attacks.corpus",
    "multiplicative_capacity": "leakage.vulnerability",
    "multiplicative_leakage": "leakage.vulnerability",
    "plausible_deniability": "epsilon.deniability",
    "plot_audit": "leakage.audit_plot",
    "plot_calibration": "epsilon.deniability_report",
    "plugin_margin": "leakage.vulnerability",
    "posterior_vulnerability": "leakage.vulnerability",
    "qif_measures": "leakage.vulnerability",
    "read_word_pairs": "leakage.pairs",
    "reconstruction_attack": "attacks.reconstruction",
    "reconstruction_csv": "attacks.reconstruction_report",
    "reconstruction_table": "attacks.reconstruction_report",
    "recovery_rates": "leakage.vulnerability",
    "release_recovery": "epsilon.recovery",
    "sample_channel": "leakage.channel",
    "secret_words": "leakage.secrets",
    "split_corpus": "attacks.corpus",
    "split_half_attack": "leakage.vulnerability",
    "strict_json": "report",
    "study_mechanism": "epsilon.mechanism_study",
    "summarise_truncation": "epsilon.mechanism_study",
    "tem_truncation": "epsilon.mechanism_study",
    "check_above_prior": "epsilon.scale",
    "check_target": "epsilon.scale",
    "check_release_size": "leakage.distinguish",
    "check_rtol": "epsilon.search",
    "check_sample_size": "leakage.channel",
    "check_search_epsilon": "epsilon.search",
    "EntityAudit": "leakage.entity_report",
    "EntityOptions": "leakage.entity_secrets",
    "EntityWords": "leakage.entity_secrets",
    "detect_entity_words": "leakage.entity_secrets",
    "audit_entities": "leakage.entity_audit",
    "entity_csv": "leakage.entity_report",
    "entity_table": "leakage.entity_report",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.protection.attacks.context import ContextScorer, fit_context_model
    from emprivacy.protection.attacks.corpus import count_words, load_documents, split_corpus
    from emprivacy.protection.attacks.ngram import (
        NgramModel,
    )
    from emprivacy.protection.attacks.reconstruction import reconstruction_attack
    from emprivacy.protection.attacks.reconstruction_report import (
        Reconstruction,
        RecoveryRate,
        reconstruction_csv,
        reconstruction_table,
    )
    from emprivacy.protection.epsilon.deniability import (
        DeniabilityStudy,
        calibrate_epsilon,
        plausible_deniability,
    )
    from emprivacy.protection.epsilon.deniability_report import (
        PlausibleDeniability,
        calibration_table,
        plot_calibration,
    )
    from emprivacy.protection.epsilon.mechanism_study import (
        TemTruncation,
        study_mechanism,
        summarise_truncation,
        tem_truncation,
    )
    from emprivacy.protection.epsilon.recovery import ReleaseRecovery, release_recovery
    from emprivacy.protection.epsilon.scale import (
        RecoveryCalibration,
        calibrate_recovery,
        check_above_prior,
        check_target,
    )
    from emprivacy.protection.epsilon.search import (
        EpsilonPoint,
        EpsilonSearch,
        check_rtol,
        check_search_epsilon,
        find_epsilon,
    )
    from emprivacy.protection.leakage.audit import audit_mechanism
    from emprivacy.protection.leakage.audit_plot import (
        audit_figure,
        load_audit_results,
        plot_audit,
    )
    from emprivacy.protection.leakage.audit_report import (
        WordAudit,
        audit_csv,
        audit_report,
        audit_table,
    )
    from emprivacy.protection.leakage.channel import (
        ExactChannel,
        SampledChannel,
        check_sample_size,
        has_exact_channel,
        sample_channel,
    )
    from emprivacy.protection.leakage.densities import guarantee_ceiling, has_noise_density
    from emprivacy.protection.leakage.distinguish import (
        check_release_size,
        distinguish_documents,
        distinguish_pairs,
        epsilon_lower_bound,
    )
    from emprivacy.protection.leakage.distinguish_report import (
        Distinguishability,
        PairEpsilon,
        distinguish_csv,
    )
    from emprivacy.protection.leakage.entity_audit import audit_entities
    from emprivacy.protection.leakage.entity_report import EntityAudit, entity_csv, entity_table
    from emprivacy.protection.leakage.entity_secrets import (
        EntityOptions,
        EntityWords,
        detect_entity_words,
    )
    from emprivacy.protection.leakage.pairs import (
        choose_pairs,
        document_positions,
        guarantee_distance,
        read_word_pairs,
    )
    from emprivacy.protection.leakage.secrets import (
        PRIORS,
        Secrets,
        content_word_counts,
        is_content_word,
        secret_words,
    )
    from emprivacy.protection.leakage.vulnerability import (
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
    from emprivacy.protection.leakage.weighted import WeightedMeasures, weighted_measures
    from emprivacy.protection.report import Estimate, strict_json


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)


__all__ = [
    "PRIORS",
    "ChannelMeasures",
    "ContextScorer",
    "DeniabilityStudy",
    "Distinguishability",
    "EntityAudit",
    "EntityOptions",
    "EntityWords",
    "EpsilonPoint",
    "EpsilonSearch",
    "Estimate",
    "ExactChannel",
    "NgramModel",
    "PairEpsilon",
    "PlausibleDeniability",
    "Reconstruction",
    "RecoveryCalibration",
    "RecoveryRate",
    "ReleaseRecovery",
    "SampledChannel",
    "Secrets",
    "SplitHalfAttack",
    "TemTruncation",
    "WeightedMeasures",
    "WordAudit",
    "audit_csv",
    "audit_entities",
    "audit_figure",
    "audit_mechanism",
    "audit_report",
    "audit_table",
    "bayes_vulnerability",
    "calibrate_epsilon",
    "calibrate_recovery",
    "calibration_table",
    "channel_measures",
    "check_above_prior",
    "check_release_size",
    "check_rtol",
    "check_sample_size",
    "check_search_epsilon",
    "check_target",
    "choose_pairs",
    "clopper_pearson",
    "content_word_counts",
    "count_words",
    "detect_entity_words",
    "distinguish_csv",
    "distinguish_documents",
    "distinguish_pairs",
    "document_positions",
    "entity_csv",
    "entity_table",
    "epsilon_lower_bound",
    "find_epsilon",
    "fit_context_model",
    "guarantee_ceiling",
    "guarantee_distance",
    "has_exact_channel",
    "has_noise_density",
    "is_content_word",
    "load_audit_results",
    "load_documents",
    "multiplicative_capacity",
    "multiplicative_leakage",
    "plausible_deniability",
    "plot_audit",
    "plot_calibration",
    "plugin_margin",
    "posterior_vulnerability",
    "qif_measures",
    "read_word_pairs",
    "reconstruction_attack",
    "reconstruction_csv",
    "reconstruction_table",
    "recovery_rates",
    "release_recovery",
    "sample_channel",
    "secret_words",
    "split_corpus",
    "split_half_attack",
    "strict_json",
    "study_mechanism",
    "summarise_truncation",
    "tem_truncation",
    "weighted_measures",
]
