"""The detectors by name: what ``--entities auto|none|LIST`` chooses, and their union.

``--entities`` is spelled the same everywhere (``obfuscate``, :class:`ObfuscationConfig`,
:func:`~emprivacy.tables.privatize_texts`, the table paths, Dask):

* ``none`` — no detection: text mode as it always was;
* ``auto`` — the recommended detectors for what is installed: with the ``ner`` extra,
  ``spacy,presidio,capitalised,names,patterns,learned``; without it
  ``capitalised,patterns``, and one line says so (:func:`resolve_entities`);
* a comma list of :data:`DETECTORS` — ``spacy`` (:mod:`.spacy_detector`), ``presidio``
  (:mod:`.presidio_detector`), ``capitalised`` (:mod:`.capitalised`), ``names``
  (:mod:`.names`: names by list and context, in any case), ``patterns``
  (:mod:`.patterns`: dates and identifiers), ``learned`` (:mod:`.learned`: names, places
  and organisations by a model learned from the labelled texts).  ``spacy=PIPELINE``
  names another installed spaCy pipeline (a package name or a directory) for both spaCy
  and Presidio.

The detectors are combined by union (:class:`~emprivacy.entities.spans.UnionDetector`) and
built once per process (:func:`build_detector`): a Dask worker builds its own from the
spelling it is sent.
"""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path
from typing import Any

from emprivacy.entities.capitalised import CapitalisedDetector
from emprivacy.entities.learned import LearnedDetector
from emprivacy.entities.names import NameListDetector
from emprivacy.entities.patterns import PatternDetector
from emprivacy.entities.places import PlaceListDetector
from emprivacy.entities.presidio_detector import PresidioDetector
from emprivacy.entities.spacy_detector import DEFAULT_PIPELINE, SpacyDetector
from emprivacy.entities.spans import EntityDetector, union_of
from emprivacy.entities.table_initials import WhoColumnDetector
from emprivacy.entities.table_names import TableNameDetector
from emprivacy.entities.vocabulary import place_words
from emprivacy.exceptions import MissingExtraError

__all__ = ["AUTO_WITH_NER", "DETECTORS", "build_detector", "check_available", "check_entities",
           "ner_installed", "resolve_entities"]

#: The built-in detectors, by name.
DETECTORS: tuple[str, ...] = ("spacy", "presidio", "capitalised", "names", "patterns",
                              "learned")

#: What ``auto`` means with the ``ner`` extra installed.
AUTO_WITH_NER = "spacy,presidio,capitalised,names,patterns,learned"

#: The line that says what ``auto`` means without the extra.
AUTO_WITHOUT_NER = ("entity detection: the 'ner' extra is not installed, so --entities auto "
                    "uses the capitalised and pattern detectors alone (pip install "
                    "'emprivacy[ner]' adds spaCy, Presidio and the name lists)")

#: What ``auto`` means without the extra.
AUTO_WITHOUT_NER_DETECTORS = "capitalised,patterns"

_BUILT: dict[str, EntityDetector] = {}
_LOCK = threading.Lock()


def _expected() -> str:
    return ("entities must be 'auto', 'none' or a comma list of "
            f"{', '.join(repr(d) for d in DETECTORS)}")


def check_entities(spec: Any) -> str:
    """``spec`` checked and written canonically (no spaces, lower-case names).

    >>> check_entities(" Capitalised, spacy ")
    'capitalised,spacy'
    >>> check_entities("spacy=/models/en,capitalised")
    'spacy=/models/en,capitalised'
    >>> check_entities("regex")
    Traceback (most recent call last):
    ...
    ValueError: entities must be 'auto', 'none' or a comma list of 'spacy', 'presidio', \
'capitalised', 'names', 'patterns', 'learned'; got 'regex'
    """
    if not isinstance(spec, str):
        raise TypeError(f"{_expected()}; got {spec!r} of type {type(spec).__name__}")
    text = spec.strip()
    if text.lower() in ("auto", "none"):
        return text.lower()
    items: list[str] = []
    names: set[str] = set()
    for raw in text.split(","):
        name, sep, pipeline = raw.strip().partition("=")
        name = name.strip().lower()
        if name not in DETECTORS:
            raise ValueError(f"{_expected()}; got {spec!r}")
        if name in names:
            raise ValueError(f"detector {name!r} is given twice in entities {spec!r}")
        if sep and (name != "spacy" or not pipeline.strip()):
            raise ValueError(f"only spacy takes a pipeline (spacy=NAME_OR_PATH); got {raw!r}")
        names.add(name)
        items.append(f"{name}={pipeline.strip()}" if sep else name)
    return ",".join(items)


def ner_installed() -> bool:
    """Whether the ``ner`` extra is installed: spaCy, its default pipeline and Presidio."""
    return all(importlib.util.find_spec(m) is not None
               for m in ("spacy", DEFAULT_PIPELINE, "presidio_analyzer", "names", "wordfreq"))


def resolve_entities(spec: str) -> tuple[str, str | None]:
    """The detectors ``spec`` stands for, and a note: ``auto`` without the ``ner`` extra is
    ``capitalised,patterns``, with the line that says so (``None`` otherwise).

    >>> resolve_entities("capitalised")
    ('capitalised', None)
    """
    spec = check_entities(spec)
    if spec != "auto":
        return spec, None
    if ner_installed():
        return AUTO_WITH_NER, None
    return AUTO_WITHOUT_NER_DETECTORS, AUTO_WITHOUT_NER


def check_available(spec: str) -> None:
    """Check, without loading anything, that the detectors of ``spec`` can be built: spaCy
    and Presidio are installed (:class:`~emprivacy.exceptions.MissingExtraError` naming the
    ``ner`` extra, one line), and so is the spaCy pipeline (``ValueError``)."""
    names, _ = resolve_entities(spec)
    items = [item.partition("=") for item in names.split(",")]
    wanted = {n for n, _, _ in items}
    for detector in sorted(wanted & {"names", "learned"}):  # the name lists, wordfreq
        for module in ("names", "wordfreq"):
            if importlib.util.find_spec(module) is None:
                raise MissingExtraError(f"the {detector} detector needs the optional dependency "
                                        f"{module!r}; install it with: pip install "
                                        "'emprivacy[ner]'")
    if not wanted & {"spacy", "presidio"}:
        return
    purpose = ("entity detection with spaCy" if "spacy" in wanted
               else "structured identifiers (Presidio)")
    for module in ("spacy", *(("presidio_analyzer",) if "presidio" in wanted else ())):
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(f"{purpose} needs the optional dependency {module!r}; "
                                    "install it with: pip install 'emprivacy[ner]'")
    pipeline = next((p for n, _, p in items if n == "spacy" and p), DEFAULT_PIPELINE)
    if importlib.util.find_spec(pipeline) is None and not Path(pipeline).is_dir():
        hint = (" (install it with: pip install 'emprivacy[ner]')"
                if pipeline == DEFAULT_PIPELINE else "")
        raise ValueError(f"spaCy pipeline {pipeline!r} is neither an installed package nor a "
                         f"directory{hint}; emprivacy never downloads a model")


def build_detector(spec: str) -> EntityDetector | None:
    """The union of the detectors of ``spec`` (``None`` for ``none``), built once per
    process.

    Raises
    ------
    MissingExtraError
        ``spacy`` or ``presidio`` without the ``ner`` extra (one line naming it).
    ValueError
        A spaCy pipeline that is not installed.
    """
    names, _ = resolve_entities(spec)
    if names == "none":
        return None
    with _LOCK:
        built = _BUILT.get(names)
        if built is None:
            built = _BUILT[names] = _build(names)
        return built


def _build(names: str) -> EntityDetector:
    items = [item.partition("=") for item in names.split(",")]
    pipeline = next((p for n, _, p in items if n == "spacy" and p), DEFAULT_PIPELINE)
    detectors: list[EntityDetector] = []
    for name, _, _ in items:
        if name == "spacy":
            detectors.append(SpacyDetector(pipeline))
        elif name == "presidio":
            detectors.append(PresidioDetector(pipeline))
        elif name == "names":  # people, and places where no capital shows them
            # a caller "from" a town of the place list is a person (rob from redditch)
            detectors.extend([NameListDetector(places=place_words()), PlaceListDetector(),
                              TableNameDetector(), WhoColumnDetector()])  # tables: names, who
        elif name == "patterns":
            detectors.append(PatternDetector())
        elif name == "learned":
            detectors.append(LearnedDetector(beside=True))
        else:
            detectors.append(CapitalisedDetector())
    return union_of(detectors)
