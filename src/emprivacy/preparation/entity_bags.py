"""Bag mode's entity words: what each word of a bag (Def. 1) becomes under an
:class:`~emprivacy.entities.marking.EntityMarking`.

Detection runs on the text of a piece (:func:`emprivacy.text.normalise.normalise_pieces`)
*before* it becomes a bag, and each token gets text mode's decision
(:func:`~emprivacy.preparation.entity_slots.entity_decisions`); the bag keeps the decisions
of its words (the word tokens that are not stopwords, :func:`~emprivacy.text.tokens.bag_of_words`):

* ``None``: an ordinary word, looked up and privatised at ε as in a bag without detection;
* :class:`~emprivacy.preparation.decisions.EntitySlot`: a mention of an entity word,
  privatised within its type's public sub-vocabulary at ε_e, one draw per distinct entity
  word (its type and normalised word) per document, the same surrogate for every mention;
* :class:`~emprivacy.preparation.decisions.Placeholder`: the span's placeholder
  (``[PERSON]``, ``[ORG]``, …), **once per span**, however many of the bag's words it covers
  (as text mode writes one placeholder for the span); a span that covers no word of the bag
  (only numbers, stopwords or symbols, which a bag never holds) adds nothing;
* :class:`~emprivacy.preparation.decisions.Kept`: the word as the bag writes it (its
  normalised form), outside the guarantee (policy ``keep``).

Placeholders and kept words are released beside the privatised words, like the
placeholders of out-of-vocabulary words (``oov="placeholder"``): they are not vocabulary
words and never go through a mechanism.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from emprivacy.embeddings.model import Embeddings
from emprivacy.preparation.decisions import Decision, EntityKey, EntitySlot, Kept, Placeholder
from emprivacy.preparation.entity_slots import entity_decisions
from emprivacy.text.language import Language, get_language
from emprivacy.text.normalise import normalise_word
from emprivacy.text.tokens import tokenize

if TYPE_CHECKING:
    from emprivacy.entities.marking import EntityMarking

__all__ = ["BagWord", "EntityTally", "bag_entity_words"]

#: A word of a bag with its decision: ``(normalised word, vocabulary row, decision)``; for a
#: placeholder span, only its first word of the bag carries the :class:`Placeholder`, the
#: others ``Placeholder`` with ``text == ""`` (covered, nothing more released).
BagWord = tuple[str, int, Decision]


def bag_entity_words(marking: EntityMarking, piece: str, embeddings: Embeddings, *,
                     oov: str, lang: str | Language = "en"
                     ) -> tuple[list[BagWord], Counter[str]]:
    """The words of the bag of ``piece`` (a normalised text), in order, each with its
    vocabulary row (``-1``: none) and its entity decision; and the words of each type the
    detection took (as text mode counts them, :func:`entity_decisions`).

    >>> from emprivacy.entities import CapitalisedDetector
    >>> from emprivacy.entities.marking import EntityMarking
    >>> from emprivacy.entities.policy import EntityPolicy
    >>> emb = Embeddings(["ann", "bob", "met", "cat"], np.eye(4), name="toy")
    >>> marking = EntityMarking(CapitalisedDetector(), EntityPolicy(),
    ...                         {"PERSON": np.array([0, 1]), "LOCATION": np.array([], int)})
    >>> words, counted = bag_entity_words(marking, "the cat met Ann and Bob", emb, oov="drop")
    >>> [(w, type(d).__name__) for w, _, d in words]
    [('cat', 'NoneType'), ('met', 'NoneType'), ('ann', 'EntitySlot'), ('bob', 'EntitySlot')]
    """
    language = get_language(lang)
    tokens = list(tokenize(piece, lang=language))
    words = [normalise_word(tok.text) if tok.kind == "word" else "" for tok in tokens]
    rows = embeddings.rows(words).tolist()
    stopwords = language.stopwords
    in_bag = [tok.kind == "word" and w not in stopwords for tok, w in zip(tokens, words,
                                                                          strict=True)]
    decisions, counted = entity_decisions(marking, piece, tokens, words, rows,
                                          [not b for b in in_bag], embeddings=embeddings,
                                          oov=oov)
    out: list[BagWord] = []
    last_span = -1
    for word, row, bag_word, decision in zip(words, rows, in_bag, decisions, strict=True):
        if not bag_word:
            continue
        if isinstance(decision, Placeholder):
            if decision.span == last_span:  # the span's placeholder is already in the bag
                decision = Placeholder(decision.span, "", decision.type, decision.start)
            last_span = decision.span
        out.append((word, row, decision))
    return out, counted


@dataclass
class EntityTally:
    """A bag's entity words over the pieces of its document.

    ``mentions`` counts the mentions of each entity key (type, normalised word), in order
    of first mention; ``entity_inputs`` holds each key's input (its vocabulary row, or
    ``-1`` and its vector under ``oov="subword"``); ``fixed`` what is released for the
    placeholders and kept words.  :attr:`entities` and :attr:`entity_inputs` are what
    :meth:`emprivacy.obfuscation.entities.EntityRun.draw` reads, as of a text template.
    """

    mentions: Counter[EntityKey] = field(default_factory=Counter)
    entity_inputs: dict[EntityKey, tuple[int, np.ndarray | None]] = field(default_factory=dict)
    fixed: Counter[str] = field(default_factory=Counter)
    entity_counts: Counter[str] = field(default_factory=Counter)
    entity_placeholders: int = 0
    entities_kept: int = 0

    @property
    def entities(self) -> tuple[EntityKey, ...]:
        """The distinct entity keys, in order of first mention."""
        return tuple(self.mentions)

    @property
    def entity_words(self) -> int:
        """The entity mentions privatised (every one counts towards the bag size)."""
        return sum(self.mentions.values())

    def mention(self, decision: EntitySlot) -> None:
        """Count a mention of ``decision``'s key."""
        self.mentions[decision.key] += 1
        self.entity_inputs.setdefault(decision.key, (decision.row, decision.point))

    def release(self, word: str, decision: Placeholder | Kept) -> None:
        """Count what a placeholder span or a kept word releases."""
        if isinstance(decision, Placeholder):
            if decision.text:
                self.fixed[decision.text] += 1
                self.entity_placeholders += 1
        else:
            self.fixed[word] += 1
            self.entities_kept += 1

    def counts(self) -> dict[str, int]:
        """The entity counts of a bag record."""
        return {"entity_words": self.entity_words,
                "entity_placeholders": self.entity_placeholders,
                "entities_kept": self.entities_kept}

    def surrogate_words(self, surrogates: Mapping[EntityKey, str]) -> list[str]:
        """Every mention's surrogate (a key's surrogate once per mention)."""
        return [surrogates[k] for k, n in self.mentions.items() for _ in range(n)]
