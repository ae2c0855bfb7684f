"""A passenger paged over a public address: ``would passenger oil around please come to the
information desk``.  Speech recognition writes the name it did not know as ordinary words
(``up the ram on``, ``voice a hoff ska``), which no detector takes for a name; the paging
formula says they are one (issue 40, the twenty-first English set's ferry announcements,
seen).  A pass over the decisions of
:func:`~emprivacy.preparation.entity_slots.entity_decisions`, before the corrections
(:func:`~emprivacy.preparation.corrections.attempted_names`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from emprivacy.preparation.decisions import Decision, EntitySlot
from emprivacy.text.tokens import Token

__all__ = ["MOST_PAGED", "paged_names"]

#: The most words of a paged name.
MOST_PAGED = 6
#: The paging formula: a modal, then ``passenger`` (``the`` before it allowed).
_PAGING = re.compile(r"(?<![\w'’-])(?:would|could|will|can|may)[ \t]+(?:the[ \t]+)?"
                     r"passengers?[ \t]+", re.IGNORECASE)
#: What ends the name: the request, the journey, a speaker's correction or aside.
_STOPS = frozenset("please travelling traveling booked who whose sorry correction i'll "
                   "i i'm and or passenger passengers".split())
#: Words that never start a name after ``passenger``: ``the passenger in seat 4``.
_NOT_FIRST = frozenset("in on at with of the a an from to for by".split())


def paged_names(decisions: list[Decision], counted: Counter[str], text: str,
                tokens: Sequence[Token]) -> None:
    """Give each word between a paging formula (``would passenger``, ``could the
    passenger``) and its request (``please``, ``travelling``, a correction, ``i'll``) a
    person's slot of its own, drawn independently of the word (ε = 0), where the words are
    one to :data:`MOST_PAGED` on one line, in lower case, with no digit and no punctuation
    between them, and no detector decided them; one that starts with a preposition or an
    article (``the passenger in seat 4``) names no one.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "could passenger up the ram on sorry abdirahman ali come forward"
    >>> tokens = list(tokenize(text))
    >>> decisions = [None] * len(tokens)
    >>> paged_names(decisions, Counter(), text, tokens)
    >>> [t.text for t, d in zip(tokens, decisions) if d is not None]
    ['up', 'the', 'ram', 'on']
    """
    if "passenger" not in text.lower():
        return
    starts = {t.start: i for i, t in enumerate(tokens)}
    for m in _PAGING.finditer(text):
        first = starts.get(m.end())
        if first is None:
            continue
        run: list[int] = []
        stopped = False
        for k in range(first, min(len(tokens), first + MOST_PAGED + 1)):
            tok = tokens[k]
            if k > first and text[tokens[k - 1].end:tok.start] not in (" ", "\t"):
                stopped = text[tokens[k - 1].end:tok.start].strip(" \t") != "" and bool(run)
                break
            if tok.kind != "word" or not tok.text.islower():
                break
            if tok.text in _STOPS:
                stopped = bool(run)
                break
            run.append(k)
        if not stopped or not run or tokens[run[0]].text in _NOT_FIRST:
            continue
        for k in run:
            if decisions[k] is None:
                decisions[k] = EntitySlot(("PERSON", tokens[k].text), -1, None,
                                          independent=True)
                counted["PERSON"] += 1
