"""Structured identifiers from Presidio's pattern recognisers: phone and card numbers, IBANs,
IP addresses, social security numbers, numeric dates, crypto wallets, NHS numbers.

Presidio's :class:`presidio_analyzer.AnalyzerEngine` is built on an NLP engine configured
with an installed spaCy pipeline (by package name or path: :data:`DEFAULT_PIPELINE`), so
it never tries to download a model (by default it asks for ``en_core_web_lg`` and downloads
it; offline that fails with a connection error).  Only the pattern recognisers of
:data:`PRESIDIO_ENTITIES` are asked for, and the pipeline's own components are switched
off: the recognisers need the text and its tokens, not the tagger or the named entity
recogniser (people, places and organisations come from
:mod:`emprivacy.entities.spacy_detector`, which runs the recogniser once).  E-mail addresses
and URLs are not asked for: the tokenizer makes them placeholders already, and Presidio's
checks of them look up the public suffix list on the network.  So nothing here reaches the
network (tested with sockets closed).

Every recogniser of :data:`PRESIDIO_ENTITIES` matches digits only (phone, card, IBAN, IP and
NHS numbers, numeric dates, wallet addresses), so a text without a digit is not sent to
Presidio (its spans would be none; prose is mostly such texts, and Presidio costs about a
millisecond per text).  Presidio's types map to emprivacy's (:data:`PRESIDIO_ENTITIES`); every
one of them is a structured identifier
(:data:`~emprivacy.entities.spans.STRUCTURED_TYPES`), always a placeholder.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from emprivacy._optional import import_optional
from emprivacy._validation import check_nonnegative_number
from emprivacy.entities.spacy_detector import (
    DEFAULT_PIPELINE,
    NER_EXTRA,
    PIECE_CHARS,
    spacy_module,
    text_pieces,
)
from emprivacy.entities.spans import SPAN_ORDER, EntitySpan, check_texts

__all__ = ["DEFAULT_SCORE", "MIN_DIGITS", "PRESIDIO_ENTITIES", "PresidioDetector"]

#: Presidio's entity types asked for → emprivacy's types.
PRESIDIO_ENTITIES: Mapping[str, str] = {
    "PHONE_NUMBER": "PHONE", "CREDIT_CARD": "CREDIT_CARD", "IBAN_CODE": "IBAN",
    "IP_ADDRESS": "IP_ADDRESS", "US_SSN": "SSN", "DATE_TIME": "DATE", "CRYPTO": "CRYPTO",
    "UK_NHS": "NHS"}

#: The lowest recogniser score kept (Presidio's phone recogniser scores 0.4).
DEFAULT_SCORE = 0.4

#: The fewest digits a match of Presidio's recogniser for an entity holds: a text with fewer
#: is not asked for it.  Phone numbers valid in Presidio's regions (US, GB, DE, FR, IL, IN,
#: CA, BR) have at least 7 digits but in Germany, where ``1641`` is one (4); a US social
#: security number has 9, an NHS number 10, a card number 12 or more.  Phone numbers cost
#: most: one pass of ``phonenumbers`` per region (issue 40, cost: on the cost benchmark's
#: 2,000 paragraphs, 723 texts hold a digit and 220 hold four).  The digits themselves are
#: placeholders either way (the tokenizer's ``[NUM]``); this decides only their type.
MIN_DIGITS: Mapping[str, int] = {"PHONE_NUMBER": 4, "US_SSN": 9, "UK_NHS": 10,
                                 "CREDIT_CARD": 12}

_ANALYZERS: dict[str, Any] = {}
_LOCK = threading.Lock()


def _analyzer(pipeline: str) -> Any:
    """Presidio's analyzer on ``pipeline`` (built once per process)."""
    with _LOCK:
        analyzer = _ANALYZERS.get(pipeline)
        if analyzer is not None:
            return analyzer
        spacy = spacy_module()
        presidio = import_optional("presidio_analyzer", extra=NER_EXTRA,
                                   purpose="structured identifiers (Presidio)")
        nlp_engines = import_optional("presidio_analyzer.nlp_engine", extra=NER_EXTRA,
                                      purpose="structured identifiers (Presidio)")
        # checked here, before Presidio sees it: Presidio downloads a pipeline it cannot find
        if not (spacy.util.is_package(pipeline) or Path(pipeline).is_dir()):
            raise ValueError(f"spaCy pipeline {pipeline!r} is neither an installed package nor "
                             "a directory; emprivacy never downloads a model")
        engine = nlp_engines.SpacyNlpEngine(
            models=[{"lang_code": "en", "model_name": pipeline}])
        engine.load()
        nlp = engine.nlp["en"]
        if nlp.pipe_names:  # the pattern recognisers read the text and its tokens only
            nlp.select_pipes(disable=list(nlp.pipe_names))
        registry = presidio.RecognizerRegistry(supported_languages=["en"])
        registry.load_predefined_recognizers(languages=["en"], nlp_engine=engine)
        analyzer = presidio.AnalyzerEngine(registry=registry, nlp_engine=engine,
                                           supported_languages=["en"])
        _ANALYZERS[pipeline] = analyzer
        return analyzer


class PresidioDetector:
    """Structured identifiers (:data:`PRESIDIO_ENTITIES`) found by Presidio's pattern
    recognisers.

    Parameters
    ----------
    pipeline : str or path, default :data:`DEFAULT_PIPELINE`
        The installed spaCy pipeline (package name or directory) of Presidio's NLP engine;
        it is never downloaded.
    entities : mapping, optional
        Presidio entity → emprivacy type; default :data:`PRESIDIO_ENTITIES`.
    score : float, default :data:`DEFAULT_SCORE`
        Spans scored below this are dropped.
    """

    name = "presidio"

    def __init__(self, pipeline: str | os.PathLike[str] = DEFAULT_PIPELINE, *,
                 entities: Mapping[str, str] | None = None,
                 score: float = DEFAULT_SCORE) -> None:
        self.pipeline = os.fspath(pipeline)
        self.entities = dict(PRESIDIO_ENTITIES if entities is None else entities)
        # the default recognisers all match digits: a text without one is skipped
        self._digits_only = set(self.entities) <= set(PRESIDIO_ENTITIES)
        if not self.entities:
            raise ValueError("entities must name at least one Presidio entity; got none")
        self.types = frozenset(self.entities.values())
        self.score = check_nonnegative_number(score, "score")
        self.analyzer = _analyzer(self.pipeline)

    def __repr__(self) -> str:
        return f"PresidioDetector({self.pipeline!r})"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        texts = check_texts(texts)
        # a long text in pieces, as spaCy's detector does: memory bounded by a piece
        todo = [(i, start, piece, wanted) for i, t in enumerate(texts)
                for start, piece in text_pieces(t, PIECE_CHARS)
                if (wanted := self._wanted(piece))]
        found: list[set[EntitySpan]] = [set() for _ in texts]
        engine = self.analyzer.nlp_engine
        if engine.nlp["en"].pipe_names:  # a component that may set entities: all at once
            batch = (a for _, a in engine.process_batch([p for _, _, p, _ in todo],
                                                        language="en", batch_size=64))
        else:  # the tokens only: read by Presidio only to score a result's context
            batch = (_LazyArtifacts(engine, p) for _, _, p, _ in todo)
        for (i, start, piece, wanted), artifacts in zip(todo, batch, strict=True):
            results = self.analyzer.analyze(piece, language="en", entities=wanted,
                                            nlp_artifacts=artifacts, score_threshold=self.score)
            found[i].update(EntitySpan(start + _balanced(piece, r.start, r.end),
                                       start + r.end, self.entities[r.entity_type])
                            for r in results if r.end > r.start)
        return [sorted(f, key=SPAN_ORDER) for f in found]

    def _wanted(self, piece: str) -> list[str]:
        """The entities to ask for in ``piece``: with the default recognisers (every one
        needs digits), none in a piece without a digit, and none of :data:`MIN_DIGITS` in a
        piece with fewer digits than a match of it holds."""
        if not self._digits_only:
            return list(self.entities)
        digits = sum(map(str.isdigit, piece))  # in C, not a loop
        if not digits:
            return []
        return [e for e in self.entities if digits >= MIN_DIGITS.get(e, 1)]


class _LazyArtifacts:
    """Presidio's ``NlpArtifacts`` of a piece for a pipeline whose components are all off
    (:func:`_analyzer`): no entities and no scores, as the engine would give, and the rest
    (the tokens, their lemmas and offsets, the keywords) made by the engine itself on first
    use.  Presidio's recognisers read only the entities; the tokens are read to score a
    result by its context, and most pieces have no result (issue 40, cost: building the
    artifacts of every piece with a digit was two thirds of this detector's time)."""

    def __init__(self, engine: Any, text: str) -> None:
        self.entities: list[Any] = []
        self.scores: list[float] = []
        self.nlp_engine = engine
        self._text = text

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_text":
            raise AttributeError(name)
        full = self.nlp_engine.process_text(self._text, "en")
        for key, value in vars(full).items():
            if key not in ("entities", "scores"):
                setattr(self, key, value)
        return getattr(full, name)


def _balanced(text: str, start: int, end: int) -> int:
    """The start of a span that takes in the ``(`` just before it when it holds the matching
    ``)`` (Presidio's phone numbers begin after the bracket: ``([PHONE]`` would be left).

    >>> text = "Call (555) 010-2233 now"
    >>> _balanced(text, 6, 19), _balanced(text, 11, 19)
    (5, 11)
    """
    if start > 0 and text[start - 1] == "(" and ")" in text[start:end] \
            and "(" not in text[start:end]:
        return start - 1
    return start
