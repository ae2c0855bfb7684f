"""Text mode's entity words: what each token of a piece becomes under an
:class:`~emprivacy.entities.marking.EntityMarking`.

The template (:mod:`emprivacy.preparation.template`) asks :func:`entity_decisions` for the
tokens of each piece; a token no span covers (or a capitalised word in no public list) gets
``None`` and is handled as it always was.  Otherwise:

* ``Placeholder``: the span becomes one placeholder (``[PERSON]``, ``[PHONE]``, …); the
  tokens that follow it in the same span, and the layout between them, are left out;
* ``Kept``: the word as written (policy ``keep``: outside the guarantee);
* ``EntitySlot``: a slot of the restricted mechanism, keyed by its type and its
  normalised word (every mention of one key in a document gets one surrogate), from its
  vocabulary row — or, for a word outside its type's sub-vocabulary under
  ``oov="subword"``, from its vector (``point``).

Function words of text mode's allow-list inside a privatised span stay as they are (they
are layout), and a word in lower case there is an ordinary word (names are capitalised: the
``says`` of a span ``Thompson says`` that a model got wrong); numbers, URLs, e-mail
addresses, paths and symbols stay placeholders of their own kind unless a placeholder span
covers them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from emprivacy.embeddings.model import Embeddings
from emprivacy.entities.marking import EntityMarking, covering_spans
from emprivacy.entities.policy import placeholder
from emprivacy.entities.spans import EntitySpan
from emprivacy.text.tokens import Token

__all__ = ["Decision", "EntityKey", "EntitySlot", "Kept", "Placeholder", "entity_decisions"]

#: An entity slot's key: its type and its normalised word.
EntityKey = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Placeholder:
    """The span ``span`` (an index into the piece's spans) becomes ``text``."""

    span: int
    text: str
    type: str


@dataclass(frozen=True, slots=True)
class Kept:
    """The word is released as written (policy ``keep``)."""

    type: str


@dataclass(frozen=True, slots=True)
class EntitySlot:
    """The word is privatised within its type's sub-vocabulary: from ``row`` (a vocabulary
    row) or, when ``row`` is ``-1``, from ``point``."""

    key: EntityKey
    row: int
    point: np.ndarray | None = None


Decision = Placeholder | Kept | EntitySlot | None


def entity_decisions(marking: EntityMarking, text: str, tokens: Sequence[Token],
                     words: Sequence[str], rows: Sequence[int], verbatim: Sequence[bool], *,
                     embeddings: Embeddings, oov: str
                     ) -> tuple[list[Decision], Counter[str]]:
    """What each token of a piece becomes, and the entity words counted by type.

    ``words``, ``rows`` and ``verbatim`` are, per token, its normalised word (``""`` for
    other kinds), its vocabulary row (``-1``: none) and whether text mode keeps it as a
    function word.  The counter holds, per type, the words (and placeholders) that the
    marking took.
    """
    spans = marking.detect([text])[0]
    decisions: list[Decision] = [None] * len(tokens)
    counted: Counter[str] = Counter()
    if not spans:
        return decisions, counted
    points = _points(spans, tokens, words, rows, embeddings=embeddings, oov=oov)
    for i, tok in enumerate(tokens):
        covering = covering_spans(tok.start, tok.end, spans)
        if not covering:
            continue
        entity_type, span = marking.span_type(spans, covering)
        is_word = tok.kind == "word"
        kind, resolved = marking.resolve(entity_type, rows[i] if is_word else -1)
        if kind == "placeholder":
            decisions[i] = Placeholder(span, placeholder(str(resolved)), str(resolved))
            counted[str(resolved)] += 1
        elif kind == "word":  # a capitalised word in no public list: an ordinary word
            counted[entity_type] += 1
        elif not is_word or verbatim[i] or (kind != "keep" and tok.text.islower()):
            continue  # numbers, locators, symbols; function words; a lower-case word in a name
        elif kind == "keep":
            decisions[i] = Kept(str(resolved))
            counted[str(resolved)] += 1
        elif kind == "slot":
            decisions[i] = EntitySlot((str(resolved), words[i]), rows[i])
            counted[str(resolved)] += 1
        else:  # unlisted: from its vector under oov="subword", else a placeholder
            point = points.get(words[i])
            decisions[i] = (EntitySlot((str(resolved), words[i]), -1, point)
                            if point is not None
                            else Placeholder(span, placeholder(str(resolved)), str(resolved)))
            counted[str(resolved)] += 1
    return decisions, counted


def _points(spans: Sequence[EntitySpan], tokens: Sequence[Token],
            words: Sequence[str], rows: Sequence[int], *, embeddings: Embeddings, oov: str
            ) -> dict[str, np.ndarray]:
    """Under ``oov="subword"``: the vector of each word a span covers, for the words outside
    their type's sub-vocabulary — its embedding, or its subword vector (not the zero vector)."""
    if oov != "subword":
        return {}
    covered = [i for i, tok in enumerate(tokens)
               if tok.kind == "word" and covering_spans(tok.start, tok.end, spans)]
    out: dict[str, np.ndarray] = {}
    unknown = sorted({words[i] for i in covered if rows[i] < 0})
    for i in covered:
        if rows[i] >= 0:
            out[words[i]] = embeddings.vectors[rows[i]].astype(np.float64)
    if unknown:
        for w, v in zip(unknown, embeddings.subword_vectors(unknown), strict=True):
            if np.any(v != 0):
                out[w] = np.asarray(v, dtype=np.float64)
    return out
