"""What a token of text mode becomes when an entity span covers it
(:func:`~emprivacy.preparation.entity_slots.entity_decisions`): a placeholder, the word as
written, a slot of the restricted mechanism, or nothing (dropped with the name); ``None``
for a token no span covers.  Data, and the one maker of an initial's slot
(:func:`take_initial`): the decisions are made in :mod:`~emprivacy.preparation.entity_slots`,
:mod:`~emprivacy.preparation.name_parts` and :mod:`~emprivacy.preparation.spelling`, written
by :mod:`~emprivacy.preparation.template`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from emprivacy.text.tokens import Token

__all__ = ["GENERAL", "INITIAL", "Decision", "DocumentPeople", "Dropped", "EntityKey",
           "EntitySlot", "Kept", "Placeholder", "decision_type", "person_decision",
           "take_initial"]

#: The counter's key for detected words released at the general ε (not protected).
GENERAL = "_general"

#: An entity slot's key: its type and its normalised word.
EntityKey = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Placeholder:
    """The span ``span`` (an index into the piece's spans) becomes ``text``; ``start`` is
    the span's first character (``-1``: unknown), so that what the span covers before its
    first token (the ``(`` of ``(555) 010-2233``) goes with it."""

    span: int
    text: str
    type: str
    start: int = -1


@dataclass(frozen=True, slots=True)
class Kept:
    """The word is released as written (policy ``keep``)."""

    type: str


@dataclass(frozen=True, slots=True)
class EntitySlot:
    """The word is privatised within its type's sub-vocabulary: from ``row`` (a vocabulary
    row) or, when ``row`` is ``-1``, from ``point``; with ``independent`` (a name on no list,
    without a vector), its surrogate is the mechanism's output for an input drawn uniformly
    from the sub-vocabulary: independent of the word, a slot that costs ε = 0."""

    key: EntityKey
    row: int
    point: np.ndarray | None = None
    independent: bool = False


@dataclass(frozen=True, slots=True)
class Dropped:
    """A linking word inside a place's span (``des`` of ``allée des Tilleuls``) or an elided
    particle of a person's name (``d'`` of ``Laure d'Aubigny``): it goes with the name's
    surrogates, left out of the release with the spaces after it — or, with ``spaces``, with
    the spaces after it kept (the possessive joined to the word before it: ``'s`` of
    ``Robin's Stone``)."""

    type: str
    spaces: bool = False


Decision = Placeholder | Kept | EntitySlot | Dropped | None


@dataclass
class DocumentPeople:
    """The people of one document so far: each word form privatised as a person in the
    pieces before (its slot), and the forms of them named in lower case — so that a later
    piece gives every mention of them the same slot (issue 40, "one decision per person per
    document": ``Priyanka, Jean-Luc, give us a wave`` two turns after ``Priyanka Shah and
    Jean-Luc N'Diaye``).  At most :attr:`most` forms are kept (memory bounded however long
    the document); past that, the first ones stay."""

    slots: dict[str, EntitySlot] = field(default_factory=dict)
    lower: set[str] = field(default_factory=set)
    most: int = 100_000

    def remember(self, slots: dict[str, EntitySlot], lower: set[str]) -> None:
        """Add a piece's people (its first slot of each form stays)."""
        for form, slot in slots.items():
            if len(self.slots) >= self.most:
                break
            self.slots.setdefault(form, slot)
        if len(self.lower) < self.most:
            self.lower |= lower


#: The key prefix of an initial's slot (``("PERSON", "\x00o")``): its surrogate is written
#: as one capital letter, the first of the name drawn for it.
INITIAL = "\x00"


def take_initial(decisions: list[Decision], counted: Counter[str], i: int,
                 tok: Token, *, own: bool = False) -> None:
    """Token ``i``, a letter, becomes an initial: a ``PERSON`` slot keyed by its letter, drawn
    independently of it (ε = 0) and written as the surrogate's initial; with ``own``, a slot
    of its own, keyed by its place too (a spelled word's letters: ``n n`` of ``g r a i n n
    e`` would otherwise come out as one letter twice, showing the name's double letter)."""
    key = INITIAL + tok.text.lower() + (f"{INITIAL}{i}" if own else "")
    decisions[i] = EntitySlot(("PERSON", key), -1, None, independent=True)
    counted["PERSON"] += 1


def decision_type(decision: EntitySlot | Placeholder) -> str:
    """The entity type of a slot or a placeholder."""
    return decision.key[0] if isinstance(decision, EntitySlot) else decision.type


def person_decision(decision: EntitySlot | Placeholder) -> bool:
    """Whether a slot or a placeholder is a person's."""
    return decision_type(decision) == "PERSON"
