"""``--entities``, ``--entity-epsilon``, ``--entity-policy`` of ``obfuscate`` and
``evaluate``: the entity settings checked before any work (docs/ENTITIES.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy.cli._common import fail, stderr

if TYPE_CHECKING:  # pragma: no cover
    from emprivacy.obfuscation import ObfuscationConfig

__all__ = ["entity_config", "entity_options"]


def entity_options(entities: str, entity_epsilon: float, entity_policy: list[str],
                   quiet: bool) -> tuple[str, float, tuple[tuple[str, str], ...]]:
    """The detectors (``auto`` resolved: the line that says it fell back to capitalised
    words is printed once), ε_e and the policies as sorted ``(TYPE, POLICY)`` pairs, each
    checked before any work: one line if not."""
    from emprivacy.entities import (
        EntityPolicy,
        check_available,
        parse_entity_policies,
        resolve_entities,
    )

    try:
        names, note = resolve_entities(entities)
        given = parse_entity_policies(entity_policy)
        epsilon = EntityPolicy(entity_epsilon, given).epsilon  # checked there
        pairs = tuple(sorted(given.items()))
    except (TypeError, ValueError) as exc:
        message = str(exc)
        if message.startswith("epsilon "):
            message = "--entity-" + message
        fail(message)
    if names == "none" and (entity_policy or entity_epsilon != 1.0):
        fail("--entity-epsilon and --entity-policy apply with --entities")
    try:  # spaCy, Presidio and the pipeline are there (MissingExtraError: one line as well)
        check_available(names)
    except ValueError as exc:
        fail(str(exc))
    if note is not None and not quiet:
        stderr().print(f"emprivacy: note: {note}", markup=False)
    if not quiet and any(p == "keep" for _, p in pairs):
        stderr().print("emprivacy: warning: entities under --entity-policy TYPE=keep are "
                       "released as written: the privacy guarantee does not cover them",
                       markup=False)
    return names, epsilon, pairs


def entity_config(config: ObfuscationConfig, entities: str, entity_epsilon: float,
                  entity_policy: list[str], quiet: bool) -> ObfuscationConfig:
    """``config`` with entity detection (:func:`entity_options`), in text or bag mode."""
    import dataclasses

    names, epsilon, pairs = entity_options(entities, entity_epsilon, entity_policy, quiet)
    try:
        return dataclasses.replace(config, entities=names, entity_epsilon=epsilon,
                                   entity_policy=pairs)
    except (TypeError, ValueError) as exc:
        fail(str(exc))
