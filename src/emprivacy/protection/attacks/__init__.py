"""Attacks on a released corpus: the reconstruction attack (:mod:`.reconstruction`) and its n-gram
context model (:mod:`.ngram`).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "MODES": "reconstruction",
    "ContextScorer": "reconstruction",
    "Reconstruction": "reconstruction",
    "RecoveryRate": "reconstruction",
    "count_words": "reconstruction",
    "fit_context_model": "reconstruction",
    "load_documents": "reconstruction",
    "reconstruction_attack": "reconstruction",
    "reconstruction_csv": "reconstruction",
    "reconstruction_table": "reconstruction",
    "split_corpus": "reconstruction",
    "BOUNDARY": "ngram",
    "UNKNOWN": "ngram",
    "NgramModel": "ngram",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.protection.attacks.ngram import (
        BOUNDARY,
        UNKNOWN,
        NgramModel,
    )
    from emprivacy.protection.attacks.reconstruction import (
        MODES,
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

__all__ = [
    "BOUNDARY",
    "MODES",
    "UNKNOWN",
    "ContextScorer",
    "NgramModel",
    "Reconstruction",
    "RecoveryRate",
    "count_words",
    "fit_context_model",
    "load_documents",
    "reconstruction_attack",
    "reconstruction_csv",
    "reconstruction_table",
    "split_corpus",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
