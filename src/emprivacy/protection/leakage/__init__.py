"""What one word leaks: the secrets and their prior (:mod:`.secrets`), the word channel
(:mod:`.channel`), vulnerability, leakage and capacity (:mod:`.vulnerability`), the
distinguishability audit ε̂ (:mod:`.distinguish`, on the pairs of :mod:`.pairs`; its results
and reports in :mod:`.distinguish_report`) and the word audit (:mod:`.audit`; its results
and reports in :mod:`.audit_report`, its plot in :mod:`.audit_plot`).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "PRIORS": "secrets",
    "Secrets": "secrets",
    "content_word_counts": "secrets",
    "is_content_word": "secrets",
    "secret_words": "secrets",
    "ExactChannel": "channel",
    "Progress": "channel",
    "SampledChannel": "channel",
    "has_exact_channel": "channel",
    "sample_channel": "channel",
    "ChannelMeasures": "vulnerability",
    "SplitHalfAttack": "vulnerability",
    "WeightedMeasures": "weighted",
    "guarantee_ceiling": "densities",
    "has_noise_density": "densities",
    "weighted_measures": "weighted",
    "bayes_vulnerability": "vulnerability",
    "channel_measures": "vulnerability",
    "clopper_pearson": "vulnerability",
    "multiplicative_capacity": "vulnerability",
    "multiplicative_leakage": "vulnerability",
    "plugin_margin": "vulnerability",
    "posterior_vulnerability": "vulnerability",
    "qif_measures": "vulnerability",
    "recovery_rates": "vulnerability",
    "split_half_attack": "vulnerability",
    "DEFAULT_PAIR_DRAWS": "distinguish",
    "PAIR_CSV_HEADER": "distinguish_report",
    "Distinguishability": "distinguish_report",
    "PairEpsilon": "distinguish_report",
    "choose_pairs": "pairs",
    "distinguish_csv": "distinguish_report",
    "distinguish_documents": "distinguish",
    "distinguish_pairs": "distinguish",
    "document_positions": "pairs",
    "epsilon_lower_bound": "distinguish",
    "guarantee_distance": "pairs",
    "read_word_pairs": "pairs",
    "WordAudit": "audit_report",
    "audit_csv": "audit_report",
    "audit_mechanism": "audit",
    "audit_report": "audit_report",
    "audit_table": "audit_report",
    "versions": "audit_report",
    "AuditSource": "audit_plot",
    "audit_figure": "audit_plot",
    "load_audit_results": "audit_plot",
    "plot_audit": "audit_plot",
    "check_release_size": "distinguish",
    "check_sample_size": "channel",
    "EntityAudit": "entity_report",
    "EntityOptions": "entity_secrets",
    "EntityWords": "entity_secrets",
    "detect_entity_words": "entity_secrets",
    "audit_entities": "entity_audit",
    "entity_csv": "entity_report",
    "entity_table": "entity_report",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.protection.leakage.audit import audit_mechanism
    from emprivacy.protection.leakage.audit_plot import (
        AuditSource,
        audit_figure,
        load_audit_results,
        plot_audit,
    )
    from emprivacy.protection.leakage.audit_report import (
        WordAudit,
        audit_csv,
        audit_report,
        audit_table,
        versions,
    )
    from emprivacy.protection.leakage.channel import (
        ExactChannel,
        Progress,
        SampledChannel,
        check_sample_size,
        has_exact_channel,
        sample_channel,
    )
    from emprivacy.protection.leakage.densities import guarantee_ceiling, has_noise_density
    from emprivacy.protection.leakage.distinguish import (
        DEFAULT_PAIR_DRAWS,
        check_release_size,
        distinguish_documents,
        distinguish_pairs,
        epsilon_lower_bound,
    )
    from emprivacy.protection.leakage.distinguish_report import (
        PAIR_CSV_HEADER,
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

__all__ = [
    "DEFAULT_PAIR_DRAWS",
    "PAIR_CSV_HEADER",
    "PRIORS",
    "AuditSource",
    "ChannelMeasures",
    "Distinguishability",
    "EntityAudit",
    "EntityOptions",
    "EntityWords",
    "ExactChannel",
    "PairEpsilon",
    "Progress",
    "SampledChannel",
    "Secrets",
    "SplitHalfAttack",
    "WeightedMeasures",
    "WordAudit",
    "audit_csv",
    "audit_entities",
    "audit_figure",
    "audit_mechanism",
    "audit_report",
    "audit_table",
    "bayes_vulnerability",
    "channel_measures",
    "check_release_size",
    "check_sample_size",
    "choose_pairs",
    "clopper_pearson",
    "content_word_counts",
    "detect_entity_words",
    "distinguish_csv",
    "distinguish_documents",
    "distinguish_pairs",
    "document_positions",
    "entity_csv",
    "entity_table",
    "epsilon_lower_bound",
    "guarantee_ceiling",
    "guarantee_distance",
    "has_exact_channel",
    "has_noise_density",
    "is_content_word",
    "load_audit_results",
    "multiplicative_capacity",
    "multiplicative_leakage",
    "plot_audit",
    "plugin_margin",
    "posterior_vulnerability",
    "qif_measures",
    "read_word_pairs",
    "recovery_rates",
    "sample_channel",
    "secret_words",
    "split_half_attack",
    "versions",
    "weighted_measures",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
