"""Which spans cover each token: one sweep over the tokens and the spans of a piece, linear in
their numbers plus the overlaps (text mode's entity decisions,
:mod:`emprivacy.preparation.entity_slots`)."""

from __future__ import annotations

from collections.abc import Sequence

from emprivacy.entities.spans import EntitySpan
from emprivacy.text.tokens import Token

__all__ = ["covering_index"]


def covering_index(tokens: Sequence[Token], spans: Sequence[EntitySpan]) -> list[list[int]]:
    """For each token, the indices of the spans (sorted by start) that share a character
    with it: one sweep over tokens and spans, linear in their numbers plus the overlaps
    (:func:`~emprivacy.entities.marking.covering_spans` for one token).

    >>> from emprivacy.text.tokens import tokenize
    >>> toks = list(tokenize("Ann met Bob Lee"))
    >>> covering_index(toks, [EntitySpan(0, 3, "PERSON"), EntitySpan(8, 15, "PERSON")])
    [[0], [], [1], [1]]
    """
    out: list[list[int]] = []
    first = 0  # the first span that may still cover a token (tokens come in order)
    for tok in tokens:
        while first < len(spans) and spans[first].end <= tok.start:
            first += 1
        here = []
        for j in range(first, len(spans)):
            s = spans[j]
            if s.start >= tok.end:
                break
            if s.end > tok.start:
                here.append(j)
        out.append(here)
    return out
