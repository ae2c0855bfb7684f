"""``obfuscate --entities``, ``--entity-epsilon``, ``--entity-policy``: the entity settings
checked before any work (docs/ENTITIES.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy.cli._common import fail, stderr

if TYPE_CHECKING:  # pragma: no cover
    from emprivacy.obfuscation import ObfuscationConfig

__all__ = ["entity_config"]


def entity_config(config: ObfuscationConfig, entities: str, entity_epsilon: float,
                   entity_policy: list[str], quiet: bool) -> ObfuscationConfig:
    """``config`` with entity detection (``--entities``, ``--entity-epsilon``,
    ``--entity-policy``), checked before any work: one line if not; ``auto`` resolved here
    (the line that says it fell back to capitalised words is printed once)."""
    import dataclasses

    from emprivacy.entities import check_available, resolve_entities

    if config.mode != "text":
        fail("--entities, --entity-epsilon and --entity-policy apply to text mode "
             "(--format text or --readable)")
    try:
        names, note = resolve_entities(entities)
        config = dataclasses.replace(config, entities=names, entity_epsilon=entity_epsilon,
                                     entity_policy=entity_policy)
    except (TypeError, ValueError) as exc:
        fail(str(exc))
    if names == "none" and (entity_policy or entity_epsilon != 1.0):
        fail("--entity-epsilon and --entity-policy apply with --entities")
    try:  # spaCy, Presidio and the pipeline are there (MissingExtraError: one line as well)
        check_available(names)
    except ValueError as exc:
        fail(str(exc))
    if note is not None and not quiet:
        stderr().print(f"emprivacy: note: {note}", markup=False)
    if not quiet and any(p == "keep" for _, p in config.entity_policy):
        stderr().print("emprivacy: warning: entities under --entity-policy TYPE=keep are "
                       "released as written: the privacy guarantee does not cover them",
                       markup=False)
    return config
