"""A document prepared for a mechanism: text mode's template (:mod:`.template`: the released layout
and the slots of perturbed words) and a long bag's blocks (:mod:`.blocks`).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "EUCLIDEAN_GUARANTEE": "template",
    "PLACEHOLDERS": "template",
    "TEXT_GUARANTEE": "template",
    "TextTemplate": "template",
    "apply_case": "template",
    "case_pattern": "template",
    "prepare_text": "template",
    "prepare_text_blocks": "template",
    "text_guarantee": "template",
    "warn_kept": "template",
    "BagTally": "blocks",
    "Rows": "blocks",
    "bag_blocks": "blocks",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.preparation.blocks import (
        BagTally,
        Rows,
        bag_blocks,
    )
    from emprivacy.preparation.template import (
        EUCLIDEAN_GUARANTEE,
        PLACEHOLDERS,
        TEXT_GUARANTEE,
        TextTemplate,
        apply_case,
        case_pattern,
        prepare_text,
        prepare_text_blocks,
        text_guarantee,
        warn_kept,
    )

__all__ = [
    "EUCLIDEAN_GUARANTEE",
    "PLACEHOLDERS",
    "TEXT_GUARANTEE",
    "BagTally",
    "Rows",
    "TextTemplate",
    "apply_case",
    "bag_blocks",
    "case_pattern",
    "prepare_text",
    "prepare_text_blocks",
    "text_guarantee",
    "warn_kept",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
