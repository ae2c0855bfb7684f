"""Attacks on a released corpus: the reconstruction attack (:mod:`.reconstruction`), with the
corpus it attacks (:mod:`.corpus`), the adversary's context (:mod:`.context`) and its n-gram
model (:mod:`.ngram`), and its results and their reports (:mod:`.reconstruction_report`).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "MODES": "reconstruction",
    "ContextScorer": "context",
    "Reconstruction": "reconstruction_report",
    "RecoveryRate": "reconstruction_report",
    "count_words": "corpus",
    "fit_context_model": "context",
    "load_documents": "corpus",
    "reconstruction_attack": "reconstruction",
    "reconstruction_csv": "reconstruction_report",
    "reconstruction_table": "reconstruction_report",
    "split_corpus": "corpus",
    "BOUNDARY": "ngram",
    "UNKNOWN": "ngram",
    "NgramModel": "ngram",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.protection.attacks.context import ContextScorer, fit_context_model
    from emprivacy.protection.attacks.corpus import count_words, load_documents, split_corpus
    from emprivacy.protection.attacks.ngram import (
        BOUNDARY,
        UNKNOWN,
        NgramModel,
    )
    from emprivacy.protection.attacks.reconstruction import MODES, reconstruction_attack
    from emprivacy.protection.attacks.reconstruction_report import (
        Reconstruction,
        RecoveryRate,
        reconstruction_csv,
        reconstruction_table,
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
