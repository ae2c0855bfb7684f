"""Word embeddings: the data model and the vocabulary lookup (:mod:`.model`, Def. 2 of the paper),
embeddings files (:mod:`.files`), their memory-mapped cache (:mod:`.cache`) and a fastText
model's subword vectors (:mod:`.subword`).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "DEFAULT_EMBEDDINGS_NAME": "model",
    "OOV_PLACEHOLDER": "model",
    "OOV_POLICIES": "model",
    "Embeddings": "model",
    "PreparedBag": "model",
    "check_subword": "model",
    "detect_format": "files",
    "load_embeddings": "model",
    "CACHE_FORMAT_VERSION": "cache",
    "cache_directory": "cache",
    "entry_paths": "cache",
    "file_key": "cache",
    "load_cached": "cache",
    "FASTTEXT_MAGIC": "subword",
    "SubwordModel": "subword",
    "header_has_subwords": "subword",
    "load_fasttext_binary": "subword",
    "check_text_encoding": "files",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.embeddings.cache import (
        CACHE_FORMAT_VERSION,
        cache_directory,
        entry_paths,
        file_key,
        load_cached,
    )
    from emprivacy.embeddings.files import check_text_encoding, detect_format
    from emprivacy.embeddings.model import (
        DEFAULT_EMBEDDINGS_NAME,
        OOV_PLACEHOLDER,
        OOV_POLICIES,
        Embeddings,
        PreparedBag,
        check_subword,
        load_embeddings,
    )
    from emprivacy.embeddings.subword import (
        FASTTEXT_MAGIC,
        SubwordModel,
        header_has_subwords,
        load_fasttext_binary,
    )

__all__ = [
    "CACHE_FORMAT_VERSION",
    "DEFAULT_EMBEDDINGS_NAME",
    "FASTTEXT_MAGIC",
    "OOV_PLACEHOLDER",
    "OOV_POLICIES",
    "Embeddings",
    "PreparedBag",
    "SubwordModel",
    "cache_directory",
    "check_subword",
    "check_text_encoding",
    "detect_format",
    "entry_paths",
    "file_key",
    "header_has_subwords",
    "load_cached",
    "load_embeddings",
    "load_fasttext_binary",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
