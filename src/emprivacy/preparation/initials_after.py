"""A family name's initial written after a given name in lower case (``il y a deux théo, je
mets théo m. et théo g.``, ``tom h. and tom b.``): the letter says which of two people it
is, and was released verbatim beside the given name's surrogate.  A pass over the decisions
of :func:`~emprivacy.preparation.entity_slots.entity_decisions` in text mode, once every
given name is known (issue 42, the forty-sixth French set's tuning half: a football
parents' chat; the name's mentions are decided late, by the learned gaps).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from emprivacy.preparation.decisions import (
    Decision,
    EntitySlot,
    Placeholder,
    person_decision,
    take_initial,
)
from emprivacy.text.tokens import Token

__all__ = ["initials_after_names"]

#: What may follow an initial's full stop: the text's end, a space or a line's end, a comma,
#: a semicolon or a closing bracket (not ``e.g.``'s next letter); not a year, a date's
#: number or month, nor ``abt`` (a family tree's ``b. 1840``, ``d. 2019``, ``b. abt. 1840``,
#: ``b. jan 1840``: born, died; the earlier sets, seen, and the stage's review).
_AFTER_STOP = re.compile(
    r"\.(?:\Z|[ \t\r\n,;)\]])(?![ \t]*(?:\d|abt\b|about\b|c\.|ca\.|(?:jan|feb|mar|apr|may|jun"
    r"|jul|aug|sep|oct|nov|dec)[a-z]*\b))", re.IGNORECASE)
#: Letters that are words with their full stop: ``v.`` (very, versus), ``a.`` and ``i.`` (an
#: article, a pronoun: ``plan a.``), ``x.`` (a kiss: ``love sarah x.``, the stage's review).
_NO_INITIALS = frozenset("vaix")


def initials_after_names(decisions: list[Decision], counted: Counter[str], text: str,
                         tokens: Sequence[Token], *,
                         titles: frozenset[str] = frozenset()) -> None:
    """Give a lone lower-case letter with its full stop (:data:`_AFTER_STOP`) one space after
    a person's slot an initial's slot of its own, keyed by its letter and drawn
    independently of it (ε = 0,
    :func:`~emprivacy.preparation.decisions.take_initial`), where it was undecided; after a
    person's placeholder, the placeholder.  Not one of the language's ``titles`` before a
    person's name (French ``m.`` of ``merci théo m. dupont``), ``v.`` (``JM v. close``),
    ``a.`` and ``i.`` (``plan a.`` after a word taken for a name), ``x.`` (a kiss), nor
    before a number, a month or ``abt`` (``patrick mulvey b. abt. 1840``, ``Desmond d.
    2019``, ``mary kelly b. jan 1840``).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "je mets théo m. et théo g., ok"
    >>> tokens = list(tokenize(text))
    >>> decisions = [None] * len(tokens)
    >>> for k, t in enumerate(tokens):
    ...     if t.text == "théo":
    ...         decisions[k] = EntitySlot(("PERSON", "théo"), -1, None, independent=True)
    >>> initials_after_names(decisions, Counter(), text, tokens)
    >>> [t.text for t, d in zip(tokens, decisions) if isinstance(d, EntitySlot)]
    ['théo', 'm', 'théo', 'g']
    """
    for i in range(1, len(tokens)):
        tok, before = tokens[i], decisions[i - 1]
        if not (decisions[i] is None and tok.kind == "word" and len(tok.text) == 1
                and tok.text.isalpha() and tok.text.islower() and tok.text not in _NO_INITIALS
                and isinstance(before, EntitySlot | Placeholder) and person_decision(before)
                and text[tokens[i - 1].end:tok.start] == " "
                and _AFTER_STOP.match(text, tok.end)):
            continue
        if tok.text in titles and i + 1 < len(tokens):
            after = decisions[i + 1]
            if isinstance(after, EntitySlot | Placeholder) and person_decision(after):
                continue  # "merci théo m. dupont": a title before a name
        if isinstance(before, Placeholder):
            decisions[i] = before
        else:
            take_initial(decisions, counted, i, tok)
