"""A long document's bag of words, block by block (bag mode of
:mod:`emprivacy.obfuscation.obfuscator`).

The bag-mode counterpart of :func:`emprivacy.preparation.template.prepare_text_blocks`: the
document's words (Def. 1), looked up piece by piece with the run's out-of-vocabulary
policy (:meth:`emprivacy.embeddings.model.Embeddings.lookup`), cut into blocks of at most
``block_words`` privatised words, and truncated to the bag size N.  Under
``oov="subword"`` a block carries the subword vectors of its ``-1`` rows, in order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from emprivacy.embeddings.model import Embeddings, PreparedBag
from emprivacy.preparation.decisions import EntitySlot, Kept, Placeholder
from emprivacy.preparation.entity_bags import EntityTally, bag_entity_words
from emprivacy.text.language import Language
from emprivacy.text.tokens import piece_words

if TYPE_CHECKING:
    from emprivacy.entities.marking import EntityMarking

__all__ = ["BagTally", "Rows", "bag_blocks"]

#: A block of a bag: its rows (``-1`` for a subword word) and its subword vectors (or None).
Rows = tuple[np.ndarray, np.ndarray | None]


@dataclass
class BagTally:
    """A bag's out-of-vocabulary words, over the pieces of its document."""

    oov_dropped: int = 0
    oov_placeholders: int = 0
    oov_kept: int = 0
    oov_subword: int = 0
    fixed: Counter[str] = field(default_factory=Counter)  # what is released for them
    #: With entity detection: the bag's entity words (:mod:`.entity_bags`), else ``None``.
    entities: EntityTally | None = None

    def add(self, bag: PreparedBag) -> None:
        self.oov_dropped += bag.oov_dropped
        self.oov_placeholders += bag.oov_placeholders
        self.oov_kept += bag.oov_kept
        self.oov_subword += bag.oov_subword
        self.fixed.update(bag.fixed)


def bag_blocks(pieces: Iterable[str], embeddings: Embeddings, tally: BagTally, *, oov: str,
               size: int | None, block_words: int, marking: EntityMarking | None = None,
               lang: str | Language = "en") -> Iterator[tuple[Rows, bool]]:
    """The bag (Def. 1, truncated to ``size``) of a normalised text given in ``pieces``
    (:func:`emprivacy.text.normalise.normalise_pieces`), ``block_words`` privatised words at a time:
    ``((rows, points), is the last)``; its out-of-vocabulary words are counted in
    ``tally``.  ``points``: the subword vectors of the ``-1`` rows, or ``None``.

    With ``size``, reading stops at the size-th privatised word.

    With ``marking`` (entity detection; ``tally.entities`` an
    :class:`~emprivacy.preparation.entity_bags.EntityTally`), each piece is detected before it
    becomes a bag (:func:`~emprivacy.preparation.entity_bags.bag_entity_words`): its ordinary
    words are looked up as above, its entity mentions counted in ``tally.entities`` (each
    counts towards ``size`` like a privatised word), its placeholders and kept entity words
    added to ``tally.entities.fixed``.

    >>> emb = Embeddings(["cat", "dog"], [[0.0], [1.0]])
    >>> [(rows.tolist(), last) for (rows, _), last in bag_blocks(
    ...     ["cat cow dog ", "dog cat"], emb, BagTally(), oov="drop", size=3, block_words=2)]
    [([0, 1], False), ([1], True)]
    """
    remaining = size
    held: list[np.ndarray] = []
    held_points: list[np.ndarray] = []
    n_held = 0

    def block_of() -> Rows:
        rows = np.concatenate(held) if held else np.empty(0, dtype=np.int64)
        return rows, (np.concatenate(held_points) if held_points else None)

    def add(words: list[str]) -> Iterator[tuple[Rows, bool]]:
        """Look ``words`` up and add their rows to the blocks (yielding the full ones)."""
        nonlocal remaining, held, held_points, n_held
        if not words or remaining == 0:
            return
        bag = embeddings.lookup(words, oov=oov, size=remaining)
        tally.add(bag)
        rows, points = bag.indices, bag.points
        if remaining is not None:
            remaining -= int(rows.size)
        while rows.size:
            if n_held == block_words:  # full, and more words come: the block ends here
                yield block_of(), False
                held, held_points, n_held = [], [], 0
            take = rows[:block_words - n_held]
            held.append(take)
            n_held += int(take.size)
            rows = rows[take.size:]
            if points is not None:  # the subword vectors of this part's -1 rows
                k = int(np.count_nonzero(take < 0))
                if k:
                    held_points.append(points[:k])
                    points = points[k:]

    entities = tally.entities
    for piece in pieces:
        if marking is None or entities is None:
            yield from add(piece_words(piece, lang=lang))
        else:
            words, counted = bag_entity_words(marking, piece, embeddings, oov=oov, lang=lang)
            entities.entity_counts.update(counted)
            run: list[str] = []  # ordinary words since the last entity word
            for word, _, decision in words:
                if decision is None:
                    run.append(word)
                    continue
                yield from add(run)
                run = []
                if remaining == 0:
                    break
                if isinstance(decision, EntitySlot):
                    entities.mention(decision)
                    if remaining is not None:
                        remaining -= 1
                elif isinstance(decision, Placeholder | Kept):  # a bag drops no linking word
                    entities.release(word, decision)
            yield from add(run)
        if remaining == 0:
            break  # the rest of the document is never read
    yield block_of(), True
