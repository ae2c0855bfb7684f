"""A corpus run through a mechanism: the validated settings and the ``Obfuscator``
(:mod:`.obfuscator`).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "BLOCK_CHARS": "obfuscator",
    "DEFAULT_BLOCK_WORDS": "obfuscator",
    "DEFAULT_VOCAB_SIZE": "obfuscator",
    "ID_SOURCES": "obfuscator",
    "SKIPPED_EMPTY": "obfuscator",
    "SKIPPED_OUT_OF_VOCABULARY": "obfuscator",
    "ObfuscationConfig": "obfuscator",
    "Obfuscator": "obfuscator",
    "nothing_to_release": "obfuscator",
    "skipped_warning": "obfuscator",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.obfuscation.obfuscator import (
        BLOCK_CHARS,
        DEFAULT_BLOCK_WORDS,
        DEFAULT_VOCAB_SIZE,
        ID_SOURCES,
        SKIPPED_EMPTY,
        SKIPPED_OUT_OF_VOCABULARY,
        ObfuscationConfig,
        Obfuscator,
        nothing_to_release,
        skipped_warning,
    )

__all__ = [
    "BLOCK_CHARS",
    "DEFAULT_BLOCK_WORDS",
    "DEFAULT_VOCAB_SIZE",
    "ID_SOURCES",
    "SKIPPED_EMPTY",
    "SKIPPED_OUT_OF_VOCABULARY",
    "ObfuscationConfig",
    "Obfuscator",
    "nothing_to_release",
    "skipped_warning",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
