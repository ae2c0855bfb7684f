"""The words of the names the user knows (:mod:`emprivacy.entities.known_names`): every word
of a known name is protected, whatever the rules before decided.

The rules of :func:`~emprivacy.preparation.entity_slots.entity_decisions` release a common
lower-case word inside a detector's span (``says`` of a span ``Thompson says``), and a
filter may drop a span (a form's key: ``Corn Exchange: doors at 7``); a known name is the
user's word that the whole phrase is a name, so each of its words becomes a slot of its type
(``corn`` and ``exchange`` of ``the corn exchange``; ``will`` of ``will before``, a
function word that text mode keeps), or, for an organisation, the whole name becomes one
placeholder (``friends of the engine``: ``[ORG]``).  Only a linking word inside a person's
or a place's name (:data:`LINKING`: ``upon`` of ``upton upon severn``) stays as written, as
in any name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from emprivacy.entities.known_names import NAME_LINKS
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.policy import placeholder
from emprivacy.entities.spans import EntitySpan
from emprivacy.preparation.decisions import GENERAL, Decision, EntitySlot, Kept, Placeholder
from emprivacy.preparation.organisations import one_placeholder_per_run
from emprivacy.text.tokens import Token

__all__ = ["KNOWN_SPAN_BASE", "LINKING", "known_name_words"]

#: The span numbers of known organisations' placeholders start here (past any detector's).
KNOWN_SPAN_BASE = 1 << 24

#: Linking words that stay as written inside a person's or a place's known name (never its
#: first word: ``Will Before``, ``Over`` are protected whole).
LINKING = NAME_LINKS


def known_name_words(marking: EntityMarking, decisions: list[Decision],
                     counted: Counter[str], text: str, tokens: Sequence[Token],
                     words: Sequence[str], rows: Sequence[int], *,
                     slot: Callable[[str, str, str, int], EntitySlot],
                     covered: Sequence[bool] | None = None) -> None:
    """Protect every word of every known name in ``text`` (``marking.known_names``).

    Parameters
    ----------
    marking : EntityMarking
        Its ``known_names`` (nothing is done without them) and its policies.
    decisions, counted : list, Counter
        The piece's decisions and its counts by type, changed in place.
    text, tokens, words, rows : as ``entity_decisions``
    slot : callable
        ``slot(type, kind, word, row)``: a slot of the piece (its subword vectors).
    covered : sequence of bool, optional
        Whether a detector's surviving span covered each token: only such a word, released,
        was counted under :data:`GENERAL`, and is counted out of it here.

    A person's or a place's word that is no slot or placeholder becomes a slot of the name's
    type (off its type's list, one drawn independently of it) unless it is a linking word
    after the name's first word; a word kept under another type's ``keep`` policy is
    protected too (the most protective decision wins).  An organisation's words, linking
    words included, become one placeholder, over any slot a rule gave them (``Rush`` of
    ``Rush Brothers``), joined with a placeholder beside it (``Acme`` listed, ``Acme Corp``
    written: one ``[ORG]``).
    """
    known = marking.known_names
    if known is None or not tokens:
        return
    found = known.spans(text)
    if not found:
        return
    i = 0
    organisations = False
    for number, span in enumerate(found):
        while i < len(tokens) and tokens[i].end <= span.start:
            i += 1
        inside = []
        j = i
        while j < len(tokens) and tokens[j].start < span.end:
            if tokens[j].kind == "word":
                inside.append(j)
            j += 1
        if span.type == "ORG":
            organisations |= _placeholder(marking, decisions, counted, inside, span,
                                          KNOWN_SPAN_BASE + number, covered)
            continue
        for at, k in enumerate(inside):
            before = decisions[k]
            if isinstance(before, EntitySlot | Placeholder) or (at and words[k] in LINKING):
                continue
            kind, resolved = marking.resolve(span.type, rows[k], words[k])
            if isinstance(before, Kept) and kind == "keep":
                continue
            _uncount(counted, before, covered, k)
            if kind == "keep":
                decisions[k] = Kept(str(resolved))
            elif kind == "placeholder":
                decisions[k] = Placeholder(KNOWN_SPAN_BASE + number,
                                           placeholder(str(resolved)), str(resolved),
                                           span.start)
            else:
                decisions[k] = slot(str(resolved), kind, words[k], rows[k])
            counted[str(resolved)] += 1
    if organisations:  # one placeholder with a detector's beside it
        one_placeholder_per_run(decisions, text, tokens)


def _uncount(counted: Counter[str], before: Decision, covered: Sequence[bool] | None,
             k: int) -> None:
    """Count a word out of what it was counted as before it became a known name's."""
    if isinstance(before, EntitySlot):
        counted[before.key[0]] -= 1
    elif isinstance(before, Placeholder | Kept):
        counted[before.type] -= 1
    elif before is None and covered is not None and covered[k] and counted[GENERAL] > 0:
        counted[GENERAL] -= 1  # a detector's word released at the general ε


def _placeholder(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                 inside: Sequence[int], span: EntitySpan, number: int,
                 covered: Sequence[bool] | None) -> bool:
    """An organisation's known name: one placeholder over its words (under its policy;
    ``ORG=keep`` leaves the rules' decisions).  Whether it made one."""
    kind, resolved = marking.resolve("ORG", -1)
    if kind != "placeholder":
        return False
    for k in inside:
        _uncount(counted, decisions[k], covered, k)
        decisions[k] = Placeholder(number, placeholder(str(resolved)), str(resolved),
                                   span.start)
        counted[str(resolved)] += 1
    return True
