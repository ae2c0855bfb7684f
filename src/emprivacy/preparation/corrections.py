"""A name said wrong and then put right in a transcript (``my sister brig id sorry bridget``,
``voy check no wojcik``): the words before the correction are the same name misheard, one
person with one surrogate.  A pass over the decisions of
:func:`~emprivacy.preparation.entity_slots.entity_decisions`, after the spellings' (issue 40,
the seventeenth stage).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from emprivacy.preparation.decisions import Decision, Dropped, EntitySlot
from emprivacy.text.tokens import Token

__all__ = ["CORRECTED_ALIKE", "corrected_names"]

#: How alike (:class:`difflib.SequenceMatcher`'s ratio) the words before a correction and
#: the name after it are when they are that name misheard (``brig id`` and ``bridget``: 0.62).
CORRECTED_ALIKE = 0.6
#: A speaker's correction between a misheard name and the name (``sorry``, ``no``, ``i
#: mean``), one space or a comma apart.
_CORRECTION = re.compile(r"[ \t]*,?[ \t]+(?:sorry|no|i mean|sorry i mean|i meant)[ \t]*,?[ \t]+\Z")
#: The most words of a misheard name.
_MOST_SAID = 3


def corrected_names(decisions: list[Decision], counted: Counter[str], text: str,
                    tokens: Sequence[Token]) -> None:
    """Give the one to three lower-case words before a correction (``sorry``,
    ``no``, ``i mean``) the slot of the person's name right after it, where together they
    read as that name (:data:`CORRECTED_ALIKE`), undecided or a person's slot of their own:
    the most alike such run (``pat`` of ``in for pat, sorry pat``, not ``for pat``); the
    words but the
    last :class:`Dropped` with the spaces after them, the last the name's slot (one person,
    one surrogate).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "my sister brig id sorry bridget is here"
    >>> tokens = list(tokenize(text))
    >>> slot = EntitySlot(("PERSON", "bridget"), -1, None, independent=True)
    >>> decisions = [None] * len(tokens)
    >>> decisions[5] = slot
    >>> corrected_names(decisions, Counter(), text, tokens)
    >>> [t.text for t, d in zip(tokens, decisions) if d is not None]
    ['brig', 'id', 'bridget']
    """
    for j, decision in enumerate(decisions):
        if not (isinstance(decision, EntitySlot) and decision.key[0] == "PERSON" and j > 1
                and tokens[j].kind == "word"):
            continue
        line = text.rfind("\n", 0, tokens[j].start) + 1
        cue = _CORRECTION.search(text, max(line, tokens[j].start - 20), tokens[j].start)
        if cue is None:
            continue
        end = j
        while end > 0 and tokens[end - 1].end > cue.start():
            end -= 1  # the correction's words stay as said
        name = tokens[j].text.lower()
        best: list[int] = []
        best_ratio = CORRECTED_ALIKE
        k = end
        while k > 0 and end - k < _MOST_SAID:
            k -= 1
            gap = text[tokens[k].end:tokens[k + 1].start]
            if (tokens[k].kind != "word" or not _open(decisions[k])
                    or not tokens[k].text.islower() or len(tokens[k].text) < 2
                    or tokens[k].start < line
                    or (gap not in (" ", ", ") if k == end - 1 else gap != " ")):
                break
            said = "".join(t.text.lower() for t in tokens[k:end])
            ratio = SequenceMatcher(None, said, name).ratio()
            if ratio >= best_ratio:  # the most alike run, the longest of equals
                best, best_ratio = list(range(k, end)), ratio
        for k in best:
            if decisions[k] is not None:
                counted["PERSON"] -= 1  # a slot of its own, replaced
        for k in best[:-1]:
            decisions[k] = Dropped("PERSON")
        if best:
            decisions[best[-1]] = decision
            counted["PERSON"] += 1


def _open(decision: Decision) -> bool:
    """Whether a word before a correction may be the name misheard: undecided, or a
    person's slot of its own (``brig`` of ``my sister brig id sorry bridget``)."""
    return decision is None or (isinstance(decision, EntitySlot)
                                and decision.key[0] == "PERSON")
