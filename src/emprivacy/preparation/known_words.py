"""The words of the names the user knows (:mod:`emprivacy.entities.known_names`): every word
of a known name is protected, whatever the rules before decided.

The rules of :func:`~emprivacy.preparation.entity_slots.entity_decisions` release a common
lower-case word inside a detector's span (``says`` of a span ``Thompson says``); a known name
is the user's word that the whole phrase is a name, so each of its words becomes a slot of
its type (``corn`` and ``exchange`` of ``the corn exchange``), or, for an organisation, the
name becomes one placeholder.  A function word that text mode keeps stays as it is
(``of the`` of ``Friends of the Engine``), as in any name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.policy import placeholder
from emprivacy.entities.spans import EntitySpan
from emprivacy.preparation.decisions import GENERAL, Decision, EntitySlot, Kept, Placeholder
from emprivacy.text.tokens import Token

__all__ = ["KNOWN_SPAN_BASE", "known_name_words"]

#: The span numbers of known organisations' placeholders start here (past any detector's).
KNOWN_SPAN_BASE = 1 << 24


def known_name_words(marking: EntityMarking, decisions: list[Decision],
                     counted: Counter[str], text: str, tokens: Sequence[Token],
                     words: Sequence[str], rows: Sequence[int], verbatim: Sequence[bool], *,
                     slot: Callable[[str, str, str, int], EntitySlot]) -> None:
    """Protect every word of every known name in ``text`` (``marking.known_names``).

    A person's or a place's word that no rule made a slot or a placeholder becomes a slot of
    the name's type (``slot(type, kind, word, row)``; off its type's list, one drawn
    independently of it); an organisation's words become one placeholder, over any slot a
    rule gave them (``Rush`` of ``Rush Brothers``).  A word released before is counted
    out of :data:`GENERAL` and into the name's type.
    """
    known = marking.known_names
    if known is None or not tokens:
        return
    found = known.spans(text)
    if not found:
        return
    i = 0
    for number, span in enumerate(found):
        while i < len(tokens) and tokens[i].end <= span.start:
            i += 1
        inside = []
        j = i
        while j < len(tokens) and tokens[j].start < span.end:
            if tokens[j].kind == "word" and not verbatim[j]:
                inside.append(j)
            j += 1
        if span.type == "ORG":
            _placeholder(marking, decisions, counted, inside, span, KNOWN_SPAN_BASE + number)
            continue
        for k in inside:
            before = decisions[k]
            if isinstance(before, EntitySlot | Placeholder | Kept):
                continue
            kind, resolved = marking.resolve(span.type, rows[k], words[k])
            if before is None and counted[GENERAL] > 0:
                counted[GENERAL] -= 1  # it was released at the general ε
            if kind == "keep":
                decisions[k] = Kept(str(resolved))
            elif kind == "placeholder":
                decisions[k] = Placeholder(KNOWN_SPAN_BASE + number,
                                           placeholder(str(resolved)), str(resolved),
                                           span.start)
            else:
                decisions[k] = slot(str(resolved), kind, words[k], rows[k])
            counted[str(resolved)] += 1


def _placeholder(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                 inside: Sequence[int], span: EntitySpan, number: int) -> None:
    """An organisation's known name: one placeholder over its words (its policy's)."""
    kind, resolved = marking.resolve("ORG", -1)
    if kind != "placeholder":  # ORG=keep: the rules' decisions stand
        return
    for k in inside:
        before = decisions[k]
        if isinstance(before, Kept):  # a type the user keeps
            continue
        if isinstance(before, EntitySlot):
            counted[before.key[0]] -= 1
        elif isinstance(before, Placeholder):
            counted[before.type] -= 1
        elif before is None and counted[GENERAL] > 0:
            counted[GENERAL] -= 1
        decisions[k] = Placeholder(number, placeholder(str(resolved)), str(resolved),
                                   span.start)
        counted[str(resolved)] += 1
