"""Family firms: a name, ``&``, ``and`` or ``et``, then a family word (``Hughes & Sons``,
``Price & Daughters``, ``plomberie olive et fils``) as one organisation's span, for
:func:`~emprivacy.entities.designators.widen_spans` (issue 40; issue 42 in French).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from emprivacy.entities.designator_words import FAMILY_WORD, FIRM, NOT_A_FIRM
from emprivacy.entities.spans import EntitySpan

__all__ = ["family_firms"]


def family_firms(text: str, zipf: Callable[[str], float] | None,
                 spans: Sequence[EntitySpan] = (), *, rare: float) -> list[EntitySpan]:
    """``ORG`` spans of family firms (:data:`~emprivacy.entities.designator_words.FIRM`);
    English ``and`` only before a capital (``Hughes and Sons``; not ``her brother and
    sons``); a name in lower case only where it is rarer than ``rare`` by
    ``zipf`` (``olive``; not ``sa femme et fils``) or a detector's person (``recommande
    martin et fils``: the firm from ``martin`` on)."""
    out: list[EntitySpan] = []
    if FAMILY_WORD.search(text) is None:
        return out  # most texts name no firm: one cheap search, not the words' regex
    for m in FIRM.finditer(text):
        if m.group(2) and m.group(2).lower() == "and" and not m.group(3)[0].isupper():
            continue
        last = m.group(1).split()[-1]
        if last.islower() and (zipf is None or zipf(last) >= rare):
            at = m.start(1) + len(m.group(1).rstrip()) - len(last)  # a person's "martin": the
            person = [s.start for s in spans if s.type == "PERSON" and s.start <= at < s.end]
            if person:  # firm from the name on
                out.append(EntitySpan(max(person[0], m.start(1)), m.end(), "ORG"))
            continue
        words = list(re.finditer(r"\S+", m.group(1)))
        while words and (words[0].group().lower() in NOT_A_FIRM or (
                words[0].group().islower() and not words[-1].group().islower())):
            words.pop(0)  # "used Hughes & Sons": a capitalised name takes no lower-case word
        if words:
            out.append(EntitySpan(m.start(1) + words[0].start(), m.end(), "ORG"))
    return out
