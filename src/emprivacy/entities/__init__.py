"""Entities: find the words that identify (people, places, organisations, structured
identifiers) and decide what each type becomes (issue 29).

Detection apart from transformation, as in Presidio: detectors return typed spans
(:mod:`.spans`: :class:`EntitySpan`, the :class:`EntityDetector` protocol) and are combined by
union (:mod:`.registry`: ``--entities auto|none|LIST``); the built-ins are
:mod:`.capitalised` (no model), :mod:`.spacy_detector` and :mod:`.presidio_detector` (the
``ner`` extra).  A policy per type (:mod:`.policy`) privatises names and places within their
public sub-vocabularies (:mod:`.vocabulary`) at their own ε_e, or writes a placeholder, or
keeps them; :mod:`.marking` applies it word by word for text mode.  :mod:`.french` builds
the detectors of French text (``--lang fr``).

Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "ENTITY_TYPES": "spans",
    "NAMED_TYPES": "spans",
    "PROPER_NOUN": "spans",
    "STRUCTURED_TYPES": "spans",
    "EntityDetector": "spans",
    "EntitySpan": "spans",
    "UnionDetector": "spans",
    "CapitalisedDetector": "capitalised",
    "DEFAULT_PIPELINE": "spacy_detector",
    "SpacyDetector": "spacy_detector",
    "PresidioDetector": "presidio_detector",
    "DETECTORS": "registry",
    "build_detector": "registry",
    "check_available": "registry",
    "check_entities": "registry",
    "ner_installed": "registry",
    "resolve_entities": "registry",
    "LISTED_TYPES": "vocabulary",
    "public_words": "vocabulary",
    "sub_vocabulary": "vocabulary",
    "DEFAULT_ENTITY_EPSILON": "policy",
    "POLICIES": "policy",
    "EntityPolicy": "policy",
    "parse_entity_policies": "policy",
    "placeholder": "policy",
    "EntityMarking": "marking",
    "FrenchNameDetector": "french",
    "LearnedDetector": "learned",
    "FrenchPatternDetector": "french_patterns",
    "french_detector": "french",
    "language_detector": "french",
    "KnownNameDetector": "known_names",
    "KnownNames": "known_names",
    "names_as_lines": "known_names",
    "read_known_names": "known_names",
    "learn_names": "name_learning",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy.entities.capitalised import CapitalisedDetector
    from emprivacy.entities.french import (
        FrenchNameDetector,
        french_detector,
        language_detector,
    )
    from emprivacy.entities.french_patterns import FrenchPatternDetector
    from emprivacy.entities.known_names import (
        KnownNameDetector,
        KnownNames,
        names_as_lines,
        read_known_names,
    )
    from emprivacy.entities.learned import LearnedDetector
    from emprivacy.entities.marking import EntityMarking
    from emprivacy.entities.name_learning import learn_names
    from emprivacy.entities.policy import (
        DEFAULT_ENTITY_EPSILON,
        POLICIES,
        EntityPolicy,
        parse_entity_policies,
        placeholder,
    )
    from emprivacy.entities.presidio_detector import PresidioDetector
    from emprivacy.entities.registry import (
        DETECTORS,
        build_detector,
        check_available,
        check_entities,
        ner_installed,
        resolve_entities,
    )
    from emprivacy.entities.spacy_detector import DEFAULT_PIPELINE, SpacyDetector
    from emprivacy.entities.spans import (
        ENTITY_TYPES,
        NAMED_TYPES,
        PROPER_NOUN,
        STRUCTURED_TYPES,
        EntityDetector,
        EntitySpan,
        UnionDetector,
    )
    from emprivacy.entities.vocabulary import LISTED_TYPES, public_words, sub_vocabulary

__all__ = [
    "DEFAULT_ENTITY_EPSILON",
    "DEFAULT_PIPELINE",
    "DETECTORS",
    "ENTITY_TYPES",
    "LISTED_TYPES",
    "NAMED_TYPES",
    "POLICIES",
    "PROPER_NOUN",
    "STRUCTURED_TYPES",
    "CapitalisedDetector",
    "EntityDetector",
    "EntityMarking",
    "EntityPolicy",
    "EntitySpan",
    "FrenchNameDetector",
    "FrenchPatternDetector",
    "KnownNameDetector",
    "KnownNames",
    "LearnedDetector",
    "PresidioDetector",
    "SpacyDetector",
    "UnionDetector",
    "build_detector",
    "check_available",
    "check_entities",
    "french_detector",
    "language_detector",
    "learn_names",
    "names_as_lines",
    "ner_installed",
    "parse_entity_policies",
    "placeholder",
    "public_words",
    "read_known_names",
    "resolve_entities",
    "sub_vocabulary",
]
__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)
