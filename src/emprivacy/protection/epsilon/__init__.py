"""Choosing ε: one privacy scale (:mod:`.scale`, by the search of :mod:`.search`; the
recovery measured on a release, :mod:`.recovery`), plausible deniability (:mod:`.deniability`,
:mod:`.deniability_report`) and a mechanism's word-level behaviour (:mod:`.mechanism_study`).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "PRIOR_WEIGHTS": "recovery",
    "EpsilonPoint": "search",
    "EpsilonSearch": "search",
    "RecoveryCalibration": "scale",
    "ReleaseRecovery": "recovery",
    "bisection_steps": "search",
    "calibrate_recovery": "scale",
    "check_above_prior": "scale",
    "check_target": "scale",
    "find_epsilon": "search",
    "reachable_points": "search",
    "release_recovery": "recovery",
    "DeniabilityStudy": "deniability",
    "PlausibleDeniability": "deniability_report",
    "calibrate_epsilon": "deniability",
    "calibration_table": "deniability_report",
    "plausible_deniability": "deniability",
    "plot_calibration": "deniability_report",
    "sample_words": "deniability",
    "MechanismStudy": "mechanism_study",
    "TemTruncation": "mechanism_study",
    "largest_distances": "mechanism_study",
    "study_mechanism": "mechanism_study",
    "summarise_truncation": "mechanism_study",
    "tem_truncation": "mechanism_study",
    "check_rtol": "search",
    "check_search_epsilon": "search",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.protection.epsilon.deniability import (
        DeniabilityStudy,
        calibrate_epsilon,
        plausible_deniability,
        sample_words,
    )
    from emprivacy.protection.epsilon.deniability_report import (
        PlausibleDeniability,
        calibration_table,
        plot_calibration,
    )
    from emprivacy.protection.epsilon.mechanism_study import (
        MechanismStudy,
        TemTruncation,
        largest_distances,
        study_mechanism,
        summarise_truncation,
        tem_truncation,
    )
    from emprivacy.protection.epsilon.recovery import (
        PRIOR_WEIGHTS,
        ReleaseRecovery,
        release_recovery,
    )
    from emprivacy.protection.epsilon.scale import (
        RecoveryCalibration,
        calibrate_recovery,
        check_above_prior,
        check_target,
    )
    from emprivacy.protection.epsilon.search import (
        EpsilonPoint,
        EpsilonSearch,
        bisection_steps,
        check_rtol,
        check_search_epsilon,
        find_epsilon,
        reachable_points,
    )

__all__ = [
    "PRIOR_WEIGHTS",
    "DeniabilityStudy",
    "EpsilonPoint",
    "EpsilonSearch",
    "MechanismStudy",
    "PlausibleDeniability",
    "RecoveryCalibration",
    "ReleaseRecovery",
    "TemTruncation",
    "bisection_steps",
    "calibrate_epsilon",
    "calibrate_recovery",
    "calibration_table",
    "check_above_prior",
    "check_rtol",
    "check_search_epsilon",
    "check_target",
    "find_epsilon",
    "largest_distances",
    "plausible_deniability",
    "plot_calibration",
    "reachable_points",
    "release_recovery",
    "sample_words",
    "study_mechanism",
    "summarise_truncation",
    "tem_truncation",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
