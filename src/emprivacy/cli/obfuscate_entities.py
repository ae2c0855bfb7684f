"""``--entities``, ``--entity-epsilon``, ``--entity-policy``: the entity options of
``obfuscate`` and ``audit``, defined once, and the entity settings of those and of
``evaluate`` checked before any work (docs/ENTITIES.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from emprivacy.cli._common import fail, stderr

if TYPE_CHECKING:  # pragma: no cover
    from emprivacy.obfuscation import ObfuscationConfig

__all__ = ["EntitiesOpt", "EntityEpsilonOpt", "EntityKeyOpt", "EntityNamesOpt",
           "EntityPolicyOpt", "check_entity_options", "entities_asked", "entity_config",
           "read_names_file", "with_entity_key", "with_entity_names"]

# one line of help each (audit --help stays readable at 80 columns); docs/ENTITIES.md says more
EntitiesOpt = Annotated[str, typer.Option(
    "--entities", help="none, auto or spacy,presidio,capitalised.", show_default=False,
    metavar="DETECTORS")]
EntityEpsilonOpt = Annotated[float, typer.Option(
    "--entity-epsilon", help="ε_e of entity words (default 1).", show_default=False,
    metavar="EPSILON")]
EntityPolicyOpt = Annotated[list[str] | None, typer.Option(
    "--entity-policy", help="Repeatable; see docs/ENTITIES.md.", show_default=False,
    metavar="TYPE=POLICY")]
EntityKeyOpt = Annotated[Path | None, typer.Option(
    "--entity-key", help="A secret file: one surrogate per name for the whole corpus.",
    show_default=False, metavar="FILE")]
EntityNamesOpt = Annotated[Path | None, typer.Option(
    "--entity-names", help="Names you know (TYPE<TAB>NAME lines), protected in any case.",
    show_default=False, metavar="FILE")]


def entities_asked(entities: str, entity_epsilon: float, entity_policy: list[str] | None
                   ) -> bool:
    """Whether any entity option was given (``--entities none`` with no other: no)."""
    return entities.strip().lower() != "none" or bool(entity_policy) or entity_epsilon != 1.0


def check_entity_options(entities: str, entity_epsilon: float, entity_policy: list[str],
                         quiet: bool, lang: str = "en"
                         ) -> tuple[str, float, tuple[tuple[str, str], ...]] | None:
    """The entity settings (detectors with ``auto`` resolved, ε_e, the policies as pairs),
    checked before any work: one line if not; ``None`` for ``--entities none``.  The line
    that says ``auto`` fell back to capitalised words, and the one that says entities are
    kept, are printed once (not with ``quiet``)."""
    from emprivacy.entities import check_available, french_detector, resolve_entities
    from emprivacy.obfuscation import ObfuscationConfig

    try:
        if lang == "en":
            names, note = resolve_entities(entities)
        else:  # French: its detectors, built now (spaCy's French pipeline loads once)
            names, _, note = french_detector(entities)
        config = ObfuscationConfig(mode="text", entities=names, entity_epsilon=entity_epsilon,
                                   entity_policy=entity_policy)
    except (TypeError, ValueError) as exc:
        message = str(exc)
        fail("--" + message.replace("_", "-", 1) if message.startswith("entity_epsilon ")
             else message)
    if names == "none":
        if entity_policy or entity_epsilon != 1.0:
            fail("--entity-epsilon and --entity-policy apply with --entities")
        return None
    try:  # spaCy, Presidio and the pipeline are there (MissingExtraError: one line as well)
        if lang == "en":
            check_available(names)
    except ValueError as exc:
        fail(str(exc))
    if note is not None and not quiet:
        stderr().print(f"emprivacy: note: {note}", markup=False)
    if not quiet and any(d.partition("=")[0] in ("spacy", "presidio") for d in names.split(",")):
        # the models load before the first document: seconds without a word otherwise
        stderr().print(f"emprivacy: loading the entity detectors ({names}); the models take "
                       "a few seconds", markup=False)
    if not quiet and any(p == "keep" for _, p in config.entity_policy):
        stderr().print("emprivacy: warning: entities under --entity-policy TYPE=keep are "
                       "released as written: the privacy guarantee does not cover them",
                       markup=False)
    return names, config.entity_epsilon, config.entity_policy


def entity_config(config: ObfuscationConfig, entities: str, entity_epsilon: float,
                  entity_policy: list[str], quiet: bool) -> ObfuscationConfig:
    """``config`` with entity detection (``--entities``, ``--entity-epsilon``,
    ``--entity-policy``), in text or bag mode, checked before any work
    (:func:`check_entity_options`)."""
    import dataclasses

    checked = check_entity_options(entities, entity_epsilon, entity_policy, quiet, config.lang)
    if checked is None:
        return dataclasses.replace(config, entities="none")
    names, eps, policy = checked
    try:
        return dataclasses.replace(config, entities=names, entity_epsilon=eps,
                                   entity_policy=policy)
    except (TypeError, ValueError) as exc:
        fail(str(exc))


def with_entity_key(config: ObfuscationConfig, key_file: Path | None) -> ObfuscationConfig:
    """``config`` with the entity key read from ``key_file`` (``--entity-key``): its bytes,
    surrounding whitespace removed (``openssl rand -hex 32 > FILE`` writes a line), checked
    before any work; one line naming the file otherwise.  The key is never printed."""
    import dataclasses

    from emprivacy.obfuscation import check_entity_key

    if key_file is None:
        return config
    if config.entities == "none":
        fail("--entity-key applies with --entities (a detector)")
    where = str(key_file)
    try:
        key = key_file.read_bytes().strip()
    except FileNotFoundError:
        fail(f"entity key file {where!r} does not exist; make one once and keep it: "
             f"openssl rand -hex 32 > {where}")
    except IsADirectoryError:
        fail(f"entity key file {where!r} is a directory, not a file")
    except OSError as exc:
        fail(f"cannot read entity key file {where!r}: {exc.strerror or exc}")
    try:
        return dataclasses.replace(config, entity_key=check_entity_key(key))
    except ValueError:
        fail(f"entity key file {where!r} holds {len(key)} bytes; a key needs at least 16 "
             f"(openssl rand -hex 32 > {where} makes one)")


def read_names_file(names_file: Path) -> Any:
    """The known names of ``names_file`` (``--entity-names``), or one line naming the file
    and, for a bad line, its number (never the rest of the file)."""
    from emprivacy.entities import read_known_names

    where = str(names_file)
    try:
        return read_known_names(names_file)
    except FileNotFoundError:
        fail(f"entity names file {where!r} does not exist (emprivacy names CORPUS -o {where} "
             "learns one from a corpus's cased texts)")
    except IsADirectoryError:
        fail(f"entity names file {where!r} is a directory, not a file")
    except UnicodeDecodeError:
        fail(f"entity names file {where!r} is not UTF-8 text")
    except OSError as exc:
        fail(f"cannot read entity names file {where!r}: {exc.strerror or exc}")
    except ValueError as exc:
        fail(f"entity names file {where!r}: {exc}")


def with_entity_names(config: ObfuscationConfig, names_file: Path | None) -> ObfuscationConfig:
    """``config`` with the known names of ``names_file`` (``--entity-names``), read and
    checked before any work."""
    import dataclasses

    if names_file is None:
        return config
    if config.entities == "none":
        fail("--entity-names applies with --entities (a detector)")
    return dataclasses.replace(config, entity_names=read_names_file(names_file))
