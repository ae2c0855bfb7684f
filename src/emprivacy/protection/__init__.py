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
* :mod:`~emprivacy.protection.audit` — :func:`audit_mechanism` and its reports, with
  the plot of :mod:`~emprivacy.protection.audit_plot` (:func:`plot_audit`, which also
  re-plots saved ``audit.json`` files);
* :mod:`~emprivacy.protection.distinguish` — the distinguishability audit: a lower bound
  ε̂ on the privacy loss of pairs of words or documents, beside the nominal ε·d
  (:func:`distinguish_pairs`, :func:`distinguish_documents`);
* :mod:`~emprivacy.protection.reconstruction` — the reconstruction attack on a released
  corpus (:func:`reconstruction_attack`), with the n-gram context model of
  :mod:`~emprivacy.protection.ngram` (:class:`NgramModel`) or a plugged-in
  :class:`ContextScorer`;
* :mod:`~emprivacy.protection.scale` — one privacy scale: the ε at which the optimal
  adversary recovers at most a fraction P of the words (:func:`calibrate_recovery`,
  ``calibrate --target-recovery``; the bisection :func:`find_epsilon`), and the recovery
  rate measured on a release whose originals are known (:func:`release_recovery`, the
  privacy axis of ``evaluate``).

* :mod:`~emprivacy.protection.deniability` — the plausible-deniability statistics of
  ``calibrate`` (how often a word stays itself; Fernandes et al. 2019, §5) and
  :func:`calibrate_epsilon`, with their tables and plot in
  :mod:`~emprivacy.protection.deniability_report`;
* :mod:`~emprivacy.protection.mechanism_study` — ``study``: a mechanism's word-level
  behaviour (neighbour ranks, TEM's truncation).

The names below are imported on first use, so that importing one module of the package
does not import all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "ChannelMeasures": "vulnerability",
    "ContextScorer": "reconstruction",
    "DeniabilityStudy": "deniability",
    "Distinguishability": "distinguish",
    "EpsilonPoint": "scale",
    "EpsilonSearch": "scale",
    "Estimate": "audit",
    "ExactChannel": "channel",
    "NgramModel": "ngram",
    "PRIORS": "secrets",
    "PairEpsilon": "distinguish",
    "PlausibleDeniability": "deniability_report",
    "Reconstruction": "reconstruction",
    "RecoveryCalibration": "scale",
    "RecoveryRate": "reconstruction",
    "ReleaseRecovery": "scale",
    "SampledChannel": "channel",
    "Secrets": "secrets",
    "SplitHalfAttack": "vulnerability",
    "TemTruncation": "mechanism_study",
    "WordAudit": "audit",
    "audit_csv": "audit",
    "audit_figure": "audit_plot",
    "audit_mechanism": "audit",
    "audit_report": "audit",
    "audit_table": "audit",
    "bayes_vulnerability": "vulnerability",
    "calibrate_epsilon": "deniability",
    "calibrate_recovery": "scale",
    "calibration_table": "deniability_report",
    "channel_measures": "vulnerability",
    "choose_pairs": "distinguish",
    "clopper_pearson": "vulnerability",
    "content_word_counts": "secrets",
    "count_words": "reconstruction",
    "distinguish_documents": "distinguish",
    "distinguish_pairs": "distinguish",
    "epsilon_lower_bound": "distinguish",
    "find_epsilon": "scale",
    "fit_context_model": "reconstruction",
    "guarantee_distance": "distinguish",
    "has_exact_channel": "channel",
    "is_content_word": "secrets",
    "load_audit_results": "audit_plot",
    "load_documents": "reconstruction",
    "multiplicative_capacity": "vulnerability",
    "multiplicative_leakage": "vulnerability",
    "plausible_deniability": "deniability",
    "plot_audit": "audit_plot",
    "plot_calibration": "deniability_report",
    "plugin_margin": "vulnerability",
    "posterior_vulnerability": "vulnerability",
    "qif_measures": "vulnerability",
    "read_word_pairs": "distinguish",
    "reconstruction_attack": "reconstruction",
    "reconstruction_csv": "reconstruction",
    "reconstruction_table": "reconstruction",
    "recovery_rates": "vulnerability",
    "release_recovery": "scale",
    "sample_channel": "channel",
    "secret_words": "secrets",
    "split_corpus": "reconstruction",
    "split_half_attack": "vulnerability",
    "study_mechanism": "mechanism_study",
    "summarise_truncation": "mechanism_study",
    "tem_truncation": "mechanism_study",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from .audit import (
        Estimate,
        WordAudit,
        audit_csv,
        audit_mechanism,
        audit_report,
        audit_table,
    )
    from .audit_plot import (
        audit_figure,
        load_audit_results,
        plot_audit,
    )
    from .channel import (
        ExactChannel,
        SampledChannel,
        has_exact_channel,
        sample_channel,
    )
    from .deniability import (
        DeniabilityStudy,
        calibrate_epsilon,
        plausible_deniability,
    )
    from .deniability_report import (
        PlausibleDeniability,
        calibration_table,
        plot_calibration,
    )
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
    from .mechanism_study import (
        TemTruncation,
        study_mechanism,
        summarise_truncation,
        tem_truncation,
    )
    from .ngram import (
        NgramModel,
    )
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
    from .scale import (
        EpsilonPoint,
        EpsilonSearch,
        RecoveryCalibration,
        ReleaseRecovery,
        calibrate_recovery,
        find_epsilon,
        release_recovery,
    )
    from .secrets import (
        PRIORS,
        Secrets,
        content_word_counts,
        is_content_word,
        secret_words,
    )
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


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)


__all__ = [
    "PRIORS",
    "ChannelMeasures",
    "ContextScorer",
    "DeniabilityStudy",
    "Distinguishability",
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
    "WordAudit",
    "audit_csv",
    "audit_figure",
    "audit_mechanism",
    "audit_report",
    "audit_table",
    "bayes_vulnerability",
    "calibrate_epsilon",
    "calibrate_recovery",
    "calibration_table",
    "channel_measures",
    "choose_pairs",
    "clopper_pearson",
    "content_word_counts",
    "count_words",
    "distinguish_documents",
    "distinguish_pairs",
    "epsilon_lower_bound",
    "find_epsilon",
    "fit_context_model",
    "guarantee_distance",
    "has_exact_channel",
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
    "study_mechanism",
    "summarise_truncation",
    "tem_truncation",
]
