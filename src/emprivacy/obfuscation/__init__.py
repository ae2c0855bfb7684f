"""A corpus run through a mechanism: the validated settings (:mod:`.config`), the
``Obfuscator`` (:mod:`.obfuscator`) and why a document is skipped (:mod:`.skipped`).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "BLOCK_CHARS": "obfuscator",
    "DEFAULT_BLOCK_WORDS": "config",
    "DEFAULT_VOCAB_SIZE": "config",
    "ID_SOURCES": "config",
    "MIN_ENTITY_KEY_BYTES": "config",
    "SKIPPED_EMPTY": "skipped",
    "SKIPPED_OUT_OF_VOCABULARY": "skipped",
    "ObfuscationConfig": "config",
    "Obfuscator": "obfuscator",
    "check_entity_key": "config",
    "nothing_to_release": "skipped",
    "skipped_warning": "skipped",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.obfuscation.config import (
        DEFAULT_BLOCK_WORDS,
        DEFAULT_VOCAB_SIZE,
        ID_SOURCES,
        MIN_ENTITY_KEY_BYTES,
        ObfuscationConfig,
        check_entity_key,
    )
    from emprivacy.obfuscation.obfuscator import BLOCK_CHARS, Obfuscator
    from emprivacy.obfuscation.skipped import (
        SKIPPED_EMPTY,
        SKIPPED_OUT_OF_VOCABULARY,
        nothing_to_release,
        skipped_warning,
    )

__all__ = [
    "BLOCK_CHARS",
    "DEFAULT_BLOCK_WORDS",
    "DEFAULT_VOCAB_SIZE",
    "ID_SOURCES",
    "MIN_ENTITY_KEY_BYTES",
    "SKIPPED_EMPTY",
    "SKIPPED_OUT_OF_VOCABULARY",
    "ObfuscationConfig",
    "Obfuscator",
    "check_entity_key",
    "nothing_to_release",
    "skipped_warning",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
