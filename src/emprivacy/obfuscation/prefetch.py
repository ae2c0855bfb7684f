"""Detection ahead of the release: a run's detector asked once for a batch of texts, in a
thread of its own (:meth:`~emprivacy.obfuscation.entities.EntityRun.ahead`), its spans and
the tokens its detectors read handed to the texts' templates (issue 29, issue 40: cost)."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence

from emprivacy.entities.capitalised import forget_text_words, kept_tokens
from emprivacy.entities.spans import EntityDetector, EntitySpan, check_texts
from emprivacy.text.language import ENGLISH, Language
from emprivacy.text.tokens import Token

__all__ = ["PrefetchingDetector"]


class PrefetchingDetector:
    """A detector whose spans can be computed ahead, in one batch for many texts.

    :meth:`prefetch` detects a batch of texts (each distinct text once) and keeps their
    spans until :meth:`forget`; :meth:`detect` hands back kept spans (as often as a text
    comes: a corpus may repeat one) and detects the rest.  Batching changes no span (the
    :class:`~emprivacy.entities.spans.EntityDetector` contract), only the speed.
    """

    def __init__(self, detector: EntityDetector) -> None:
        self.detector = detector
        self.name = detector.name
        self.types = detector.types
        self._ahead: dict[str, list[EntitySpan]] = {}
        self._tokens: dict[str, tuple[Token, ...]] = {}
        self._gaps: dict[str, list[EntitySpan]] = {}
        self._gap_spans = getattr(detector, "gap_spans", None)
        self._lock = threading.Lock()

    def spans_of(self, texts: Iterable[str]) -> dict[str, list[EntitySpan]]:
        """The spans of each distinct text of ``texts``, in one call of the detector (one
        call at a time: a background thread may call this while the caller's thread asks
        :meth:`detect` for a text not computed ahead)."""
        return self.spans_and_tokens(texts)[0]

    def spans_and_tokens(self, texts: Iterable[str]
                         ) -> tuple[dict[str, list[EntitySpan]], dict[str, tuple[Token, ...]],
                                    dict[str, list[EntitySpan]]]:
        """:meth:`spans_of`, the English tokens of each text that the detectors read
        (:func:`~emprivacy.entities.capitalised.kept_tokens`), for :meth:`tokens_of`, and
        the spans of the detectors that fill gaps (the ``learned`` one), for
        :meth:`gap_spans`."""
        todo = list(dict.fromkeys(texts))
        if not todo:
            return {}, {}, {}
        with self._lock:
            try:
                spans = dict(zip(todo, self.detector.detect(todo), strict=True))
                tokens = {t: got for t in todo if (got := kept_tokens(t)) is not None}
                gaps = ({} if self._gap_spans is None
                        else dict(zip(todo, self._gap_spans(todo), strict=True)))
                return spans, tokens, gaps
            finally:
                forget_text_words()

    def keep(self, spans: Mapping[str, list[EntitySpan]],
             tokens: Mapping[str, tuple[Token, ...]] | None = None,
             gaps: Mapping[str, list[EntitySpan]] | None = None) -> None:
        """Hold ``spans`` (:meth:`spans_of`) for :meth:`detect`, the texts' ``tokens``
        for :meth:`tokens_of`, and their ``gaps`` for :meth:`gap_spans`, instead of those
        held."""
        self._ahead = dict(spans)
        self._tokens = dict(tokens or {})
        self._gaps = dict(gaps or {})

    def gap_spans(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        """The spans of the detectors that fill gaps, held or computed (none: empty)."""
        if self._gap_spans is None:
            return [[] for _ in texts]
        todo = [t for t in dict.fromkeys(texts) if t not in self._gaps]
        found = {}
        if todo:
            with self._lock:  # one call of the detectors at a time (spans_and_tokens)
                found = dict(zip(todo, self._gap_spans(todo), strict=True))
        return [list(found[t]) if t in found else list(self._gaps[t]) for t in texts]

    def tokens_of(self, text: str, lang: Language) -> list[Token] | None:
        """The tokens of ``text`` as :func:`~emprivacy.text.tokens.tokenize` gives them in
        ``lang``, if the detectors read it in that language in the batch held, else
        ``None``: the template need not tokenise it again (issue 40, cost)."""
        got = self._tokens.get(text) if lang is ENGLISH else None
        return None if got is None else list(got)

    def prefetch(self, texts: Iterable[str]) -> None:
        spans, _, gaps = self.spans_and_tokens(t for t in texts if t not in self._ahead)
        self._ahead.update(spans)
        self._gaps.update(gaps)

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        texts = check_texts(texts)
        found = self.spans_of(t for t in texts if t not in self._ahead)
        return [found[t] if t in found else list(self._ahead[t]) for t in texts]

    def forget(self) -> None:
        """Drop spans computed ahead and not asked for."""
        self._ahead.clear()
        self._gaps.clear()
        self._tokens.clear()
