"""A long document's record, block by block: its text in a :class:`TextBody` or its bag as
counts in a :class:`BagBody`, so that memory stays bounded however long one document is.

The methods of :class:`~emprivacy.obfuscation.obfuscator.Obfuscator` for documents of more
than one block (``block_words`` words, or ``BLOCK_CHARS`` characters of text); each block
draws from the document's one noise stream, in order, so a long document is released as if
it were one block.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np

from emprivacy.io.streaming import BagBody, TextBody
from emprivacy.math.randomness import document_generator
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.entities import EntityRun
from emprivacy.obfuscation.style import StyleRun
from emprivacy.preparation.blocks import BagTally, Rows
from emprivacy.preparation.template import TextTemplate

__all__ = ["LongDocuments"]


class LongDocuments:
    """The records of long documents (a base of the ``Obfuscator``, which provides the
    attributes and helpers declared here)."""

    mechanism: WordMechanism
    run_key: bytes
    entities: EntityRun | None
    guarantee: str
    oov_subword: int
    style: StyleRun | None

    def _privatize(self, rows: np.ndarray, gen: np.random.Generator,
                   points: np.ndarray | None = None) -> np.ndarray:
        raise NotImplementedError

    def _head(self, doc_id: str, n: int, shared: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def _changed(self, n: int, changed: int) -> dict[str, int]:
        raise NotImplementedError

    def _note_kept(self, kept: int) -> None:
        raise NotImplementedError

    def _subword_count(self, n: int) -> dict[str, int]:
        raise NotImplementedError

    def _vocabulary_order(self) -> np.ndarray:
        raise NotImplementedError

    def _long_text(self, doc_id: str, label: str, first: TextTemplate,
                   rest: Iterator[tuple[TextTemplate, bool]], shared: dict[str, Any]
                   ) -> dict[str, Any] | None:
        """The record of a document of several blocks, its text in a :class:`TextBody`."""
        gen = document_generator(self.run_key, doc_id)
        entities = self.entities
        entity_gen = None if entities is None else entities.generator(doc_id)
        style_gen = None if self.style is None else self.style.generator(doc_id)
        found: dict[tuple[str, str], str] = {}  # one surrogate per entity word, every block
        detected: Counter[str] = Counter()
        vocab = self.mechanism.embeddings.words
        body = TextBody()
        n = changed = 0
        counts: Counter[str] = Counter()
        try:
            template: TextTemplate | None = first
            while template is not None:
                if entities is not None and entity_gen is not None:
                    entities.draw(template, entity_gen, found)
                    detected.update(template.entity_counts)
                out = self._privatize(template.indices, gen, template.points)
                text = template.render(out, vocab, found)
                if self.style is not None and style_gen is not None:  # its style slots
                    text = self.style.release(text, style_gen)
                body.write(text)
                changed += int(np.count_nonzero(out != template.indices))
                n += template.words_perturbed
                counts.update(template.counts)
                self._note_kept(template.counts["oov_kept"])
                self.oov_subword += template.counts.get("oov_subword", 0)
                template = next(rest, (None, True))[0]
        except BaseException:
            body.close()
            raise
        if n + sum(counts.values()) == 0:  # no token at all: nothing to release
            body.close()
            return None
        head = self._head(label, n, shared)
        if self.style is not None:  # ε_f per style slot
            head["epsilon_total"] += self.style.epsilon * counts["style_words"]
        if entities is not None:
            head.update(entities.record_fields(head["epsilon_total"], found, detected))
        return {**head, "words_perturbed": n, **self._changed(n, changed),
                **{k: counts[k] for k in first.counts},
                "guarantee": self.guarantee, "text": body}

    def _long_bag(self, doc_id: str, label: str, first: Rows, rest: Iterator[tuple[Rows, bool]],
                  tally: BagTally, shared: dict[str, Any]) -> dict[str, Any]:
        """The record of a long bag, released as counts (a :class:`BagBody`)."""
        gen = document_generator(self.run_key, doc_id)
        emb = self.mechanism.embeddings
        size = len(emb)
        counts = np.zeros(size, dtype=np.int64)
        n = changed = 0
        part: Rows | None = first
        while part is not None:
            rows, points = part
            out = self._privatize(rows, gen, points)
            counts += np.bincount(out, minlength=size)
            changed += int(np.count_nonzero(out != rows))
            n += int(rows.size)
            part = next(rest, (None, True))[0]
        self._note_kept(tally.oov_kept)
        self.oov_subword += tally.oov_subword
        head = self._head(label, n, shared)
        fixed = Counter(tally.fixed)
        entity: dict[str, Any] = {}
        if self.entities is not None and tally.entities is not None:  # after every block:
            found = self.entities.draw(tally.entities, self.entities.generator(doc_id), {})
            head.update(self.entities.record_fields(head["epsilon_total"], found,
                                                    tally.entities.entity_counts))
            released = tally.entities.surrogate_words(found) + list(tally.entities.fixed.elements())
            rows_of = emb.rows(released)
            np.add.at(counts, rows_of[rows_of >= 0], 1)  # surrogates, kept vocabulary words
            fixed.update(w for w, r in zip(released, rows_of.tolist(), strict=True) if r < 0)
            entity = {**tally.entities.counts(), "guarantee": self.entities.bag_guarantee}
        return {**head,
                **self._changed(n, changed),
                "oov_dropped": tally.oov_dropped,
                "oov_placeholders": tally.oov_placeholders,
                "oov_kept": tally.oov_kept,
                **self._subword_count(tally.oov_subword),
                **entity,
                "bag": BagBody(counts, emb.words, self._vocabulary_order(), fixed)}
