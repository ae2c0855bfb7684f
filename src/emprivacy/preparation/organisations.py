"""The words around an organisation's placeholder that are its name's too: the capitalised
words of its run (``Loss Adjusting`` of ``Calloway Loss Adjusting``; ``Polish`` of ``the
Polish Catholic Club``), ``The`` before it, connectors between two of its placeholders, and
one placeholder for a run (issue 40).  Part of :func:`~emprivacy.preparation.entity_slots.
entity_decisions`; the decisions are changed in place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.policy import placeholder
from emprivacy.entities.spans import PROPER_NOUN, EntitySpan
from emprivacy.preparation.decisions import GENERAL, Decision, EntitySlot, Placeholder
from emprivacy.text.tokens import Token

__all__ = ["one_placeholder_per_run", "organisation_runs"]


def organisation_runs(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                      spans: Sequence[EntitySpan], covering_of: Sequence[Sequence[int]],
                      tokens: Sequence[Token], words: Sequence[str],
                      verbatim: Sequence[bool], *, text: str) -> None:
    """The capitalised ordinary words of a capitalised run after a protected word of it are
    an organisation's (``Loss Adjusting`` of ``Calloway Loss Adjusting``, ``Lifts`` of
    ``Apex Lifts``): its placeholder, where they were released at the general ε — a
    person's name is not followed by capitalised ordinary words in one run, a firm's name
    is.  In ALL CAPS, where every word is capitalised, only a designator joins, with the
    words between it and the protected word (``MUTUAL`` of ``HEARTHGUARD MUTUAL``, ``FAMILY
    COURT`` of ``CALDERBRIDGE FAMILY COURT``; not ``APPLICATION`` of a form's heading); a
    title or a form's key never does.  Words before the first protected word are left
    alone (``Later`` of ``Later Ann`` at a sentence's start), but for those before an
    organisation's placeholder in a run in mixed case that does not start a sentence or a
    line (``Polish`` of ``at the Polish Catholic Club``; issue 40, the sixteenth English
    set); nothing changes under ``ORG=keep``."""
    if marking.resolve("ORG", -1)[0] != "placeholder":
        return
    run_of = [next((j for j in covering_of[i] if spans[j].type == PROPER_NOUN), -1)
              for i in range(len(tokens))]
    designated = [False] * len(tokens)  # a designator at or after it in its run
    for i in range(len(tokens) - 1, -1, -1):
        designated[i] = run_of[i] >= 0 and (
            (tokens[i].kind == "word" and marking.designator(words[i]))
            or (i + 1 < len(tokens) and run_of[i + 1] == run_of[i] and designated[i + 1]))
    protected = False
    current = -1
    for i, tok in enumerate(tokens):
        runs = [j for j in covering_of[i] if spans[j].type == PROPER_NOUN]
        if not runs or runs[0] != current:
            current, protected = (runs[0] if runs else -1), False
        d = decisions[i]
        if not runs or tok.kind != "word":
            continue
        if isinstance(d, EntitySlot | Placeholder):
            protected = True
        elif (d is None and protected and not verbatim[i] and tok.text[:1].isupper()
              and (not tok.text.isupper() or designated[i])
              and not marking.label_word(words[i])):
            before = decisions[i - 1]
            decisions[i] = (before if isinstance(before, Placeholder) and before.type == "ORG"
                            else Placeholder(current, placeholder("ORG"), "ORG", tok.start))
            counted["ORG"] += 1
            counted[GENERAL] -= 1
    _before_organisations(marking, decisions, counted, run_of, text, tokens, words, verbatim)


def _before_organisations(marking: EntityMarking, decisions: list[Decision],
                          counted: Counter[str], run_of: Sequence[int], text: str,
                          tokens: Sequence[Token], words: Sequence[str],
                          verbatim: Sequence[bool]) -> None:
    """The capitalised words of a run in mixed case before an organisation's placeholder
    of it, back to the run's start when the run starts no sentence (see
    :func:`organisation_runs`)."""
    for k in range(1, len(tokens)):
        d = decisions[k]
        if not (isinstance(d, Placeholder) and d.type == "ORG" and run_of[k] >= 0
                and decisions[k - 1] is None and run_of[k - 1] == run_of[k]):
            continue
        first = k
        while first > 0 and run_of[first - 1] == run_of[k]:
            first -= 1
        before = tokens[first - 1] if first else None
        if (before is None or before.kind != "word" or not before.text.islower()
                or text[before.end:tokens[first].start] not in (" ", "\t")):
            continue  # the run starts a sentence or a line: "Yesterday Catholic Club …"
        taken = range(first, k)
        if all(decisions[j] is None and tokens[j].kind == "word" and not verbatim[j]
               and tokens[j].text[:1].isupper() and not tokens[j].text.isupper()
               and not marking.label_word(words[j]) for j in taken):
            for j in taken:
                decisions[j] = d
                counted["ORG"] += 1
                counted[GENERAL] -= 1


def one_placeholder_per_run(decisions: list[Decision], text: str,
                             tokens: Sequence[Token]) -> None:
    """Placeholders of one type on consecutive tokens, nothing but spaces between them, are
    one placeholder (``[ORG]`` for ``Dog City`` found as ``Dog`` and ``Dog City``), not
    ``[ORG] [ORG]``; a capitalised ``The`` just before an organisation's placeholder is part
    of its name (``at The Old Ropeworks``: ``at [ORG]``), and so is a connector between two
    of its placeholders on one line (``'s``, ``of``, ``and``, ``&``: ``CORONER'S COURT``,
    ``Warehouse and Logistics Union`` found as two organisations: one ``[ORG]``)."""
    for i in range(1, len(tokens) - 1):
        a, c, b = decisions[i - 1], decisions[i], decisions[i + 1]
        if (c is None and isinstance(a, Placeholder) and isinstance(b, Placeholder)
                and a.type == b.type == "ORG" and tokens[i].text.lower() in _CONNECTORS
                and text[tokens[i - 1].end:tokens[i + 1].start].strip(" \t'’") in (
                    tokens[i].text, tokens[i].text.lstrip("'’"))):
            decisions[i] = a  # b's run joins a's below
    for i in range(1, len(tokens)):
        a, b = decisions[i - 1], decisions[i]
        if (a is None and isinstance(b, Placeholder) and b.type == "ORG"
                and tokens[i - 1].text in ("The", "THE")
                and text[tokens[i - 1].end:tokens[i].start].strip(" \t") == ""):
            decisions[i - 1] = b  # "The" of "The Old Ropeworks": the name's
            continue
        if (isinstance(a, Placeholder) and isinstance(b, Placeholder) and a is not b
                and a.type == b.type
                and text[tokens[i - 1].end:tokens[i].start].strip(" \t") == ""):
            for j in range(i, len(tokens)):  # the rest of b's run follows a
                if decisions[j] is not b:
                    break
                decisions[j] = a


#: Words that join two parts of one organisation's name.
_CONNECTORS = frozenset({"'s", "’s", "s", "of", "and", "&"})
