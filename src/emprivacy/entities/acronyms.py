"""Dotted acronyms: ``R.G.A.``, ``R.N.``, ``Q.A.I.M.N.S.`` as one organisation's span, for
:func:`~emprivacy.entities.designators.widen_spans` (issue 40, the eighteenth English set:
a war memorial's units after each name, ``GNR AUGUST LINDQVIST, R.G.A.``, came out as
written, letter by letter).

Two or more capital letters each with its full stop, then no capitalised word (``J.K.
Rowling``'s initials and ``H.M.S. QUEEN MARY``'s prefix belong to the name after them), and
not one of :data:`NOT_AN_ACRONYM` (``A.M.``, ``P.M.``, ``E.G.``, ``O.K.``, ``B.C.``).  An
acronym names an organisation, a regiment, a place (``U.S.``) or a title; its placeholder
``[ORG]`` hides which, and it is no ordinary word.
"""

from __future__ import annotations

import re

from emprivacy.entities.spans import EntitySpan

__all__ = ["NOT_AN_ACRONYM", "dotted_acronyms"]

#: Dotted letters that are no name (their letters without the stops).
NOT_AN_ACRONYM = frozenset("AM PM EG IE NB PS PPS AKA RSVP ETA ETD OK BC AD RIP PTO".split())

_ACRONYM = re.compile(r"(?<![\w.'’-])((?:[A-Z]\.){2,})(?![\w'’-])(?![ \t]+[A-Z])")


def dotted_acronyms(text: str) -> list[EntitySpan]:
    """``ORG`` spans of the dotted acronyms of ``text`` (see the module's description).

    >>> text = "GNR A. LINDQVIST, R.G.A.\\nJ.K. Rowling at 9 A.M. on H.M.S. QUEEN MARY, R.N."
    >>> [text[s.start:s.end] for s in dotted_acronyms(text)]
    ['R.G.A.', 'R.N.']
    """
    if "." not in text:
        return []
    return [EntitySpan(m.start(1), m.end(1), "ORG") for m in _ACRONYM.finditer(text)
            if m.group(1).replace(".", "") not in NOT_AN_ACRONYM]
