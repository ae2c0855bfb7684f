"""Streets named by a common word in lower-case writing: ``mill street``, ``church lane``,
``station road`` (issue 40, the nineteenth English set: a beekeepers' chat, ``community
hub, mill street``, ``bees in his chimney, church lane``).

A rare word before a designator is a street's name already
(:mod:`~emprivacy.entities.designators`: ``fenwick road``); a common word is not, since
``main road`` and ``the side street`` name no place.  Yet most English streets are named by
common words (``Church Lane``, ``Mill Street``, ``Station Road``), and a chat in lower case
writes them so: the street is where someone lives or meets.  :func:`lower_case_streets`
makes a ``LOCATION`` span of a word and one of :data:`STREET_ENDS` on a line with no
capital letter, unless the word is a function word, a number's word or one of
:data:`GENERIC_WORDS`, the words that make a street of no name (``main``, ``side``,
``back``, ``bus``, ``memory``), or the designator is the first word of a compound
(:data:`COMPOUND_HEADS`: ``street food``, ``road trip``).  A plural (``snowy roads``) and a
hyphenated word (``a tree-lined avenue``) name no street.  The span's words are privatised
as a place's, like any detected street's.

A house's number before a word and a designator that is a common word too (``11 orchard
rise``, ``3 the green``: :data:`NUMBERED_ENDS`) makes a street of it at every mention of the
text in lower case.

English only.  Detection is pre-processing, outside the guarantee.
"""

from __future__ import annotations

import re

from emprivacy.entities.labels import FILLERS
from emprivacy.entities.spans import EntitySpan
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS, NUMBER_WORDS

__all__ = ["COMPOUND_HEADS", "GENERIC_WORDS", "NUMBERED_ENDS", "STREET_ENDS", "lower_case_streets"]

#: The designators that end a street named by a common word: those seldom anything else
#: after a noun (not ``close``, ``drive``, ``way``, ``walk``, ``row``: ``a close friend``,
#: ``a test drive``, ``one way``).
STREET_ENDS = frozenset("street road lane avenue crescent terrace mews".split())

#: Words before a designator that make a street of no name: what kind of road it is, where,
#: how it is.
GENERIC_WORDS = frozenset(
    "main side back high front fast slow bus cycle bike tram slip ring dirt toll trunk "
    "country busy quiet same next other wrong right left open closed long short narrow wide "
    "private public local residential memory gravel muddy icy wet dry new old whole entire "
    "empty dark lonely winding steep rough bumpy paved dual major minor access service "
    "relief bypass link cobbled shared little big nice lovely "
    "usual bottom top far near middle inside outside ordinary normal proper rocky easy "
    "yellow brick green mean best worst good bad great epic cross roof slippery "
    "snowy flooded blocked gritted".split())

#: Words after a designator that make it the first word of a compound noun, no street's.
COMPOUND_HEADS = frozenset(
    "food foods trip trips art works rage sign signs light lights map maps safety race races "
    "racing test tests user users name names party parties view level kid kids performer "
    "performers furniture lamp lamps closure closures network tax noise markings surface "
    "movie dog dogs crossing crossings cred smart bike bikes kill hog hogs block blocks "
    "cafe cafes bar bars garden gardens seating area".split())

_STREET = re.compile(
    rf"(?<![\w'’-])([a-z]+)[ \t]+({'|'.join(sorted(STREET_ENDS))})(?![\w'’-])"
    r"(?![ \t]+(?:" + "|".join(sorted(COMPOUND_HEADS)) + r")(?![\w'’-]))")
#: The words before a designator that name no street (``doctor um row rao``: a filler).
_NO_NAME = KEPT_FUNCTION_WORDS | GENERIC_WORDS | NUMBER_WORDS | STREET_ENDS | FILLERS


def lower_case_streets(text: str) -> list[EntitySpan]:
    """``LOCATION`` spans of the streets named by a common word on the lines of ``text``
    that have no capital letter (see the module's description).  Linear: each line is
    looked at once, and only where the pattern matched on it.

    >>> text = "meet at mill street, not the main road\\nMill Street is in capitals"
    >>> [text[s.start:s.end] for s in lower_case_streets(text)]
    ['mill street']
    """
    out = []
    line_end, lower = -1, False  # the end of the line of the last match, and its case
    for m in _STREET.finditer(text):
        if m.group(1) in _NO_NAME:
            continue
        if m.start() > line_end:  # a match on a new line: read that line once
            start = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.end())
            line_end = len(text) if end < 0 else end
            line = text[start:line_end]
            lower = line == line.lower()
        if lower:
            out.append(EntitySpan(m.start(), m.end(), "LOCATION"))
    return out + _numbered_streets(text)


#: The designators a house's number shows to be a street's, however common a word before
#: them (``11 orchard rise``, ``4 kiln court``), and ``the green`` after a number.
NUMBERED_ENDS = STREET_ENDS | frozenset(
    "close drive way walk row rise grove green gardens place court view square parade hill "
    "mews yard wharf quay".split())
_NUMBERED = re.compile(
    rf"(?<![\w'’.,/-])\d{{1,4}}[a-z]?[ \t]+((?:[a-z]+[ \t]+(?:{'|'.join(sorted(NUMBERED_ENDS))})"
    r")|the[ \t]+green)(?![\w'’-])")


def _numbered_streets(text: str) -> list[EntitySpan]:
    """``LOCATION`` spans of a street a house's number names in lower case (``i'm 11 orchard
    rise``, ``frying at 3 the green``) and of its every other mention on a line in lower
    case (``will they shut all of orchard rise``; issue 40, the twenty-fifth English set's
    street chat): the designators of :data:`NUMBERED_ENDS` are common words too (``a
    close friend``, ``rise``), a number before them is an address.

    >>> text = "i'm 11 orchard rise. all of orchard rise? not the green, 3 the green\\nThe Green"
    >>> [text[s.start:s.end] for s in _numbered_streets(text)]
    ['orchard rise', 'orchard rise', 'the green', 'the green']
    >>> _numbered_streets("7 big way to go, 2 main road, 10 minute walk, by 6 the place was")
    []
    """
    names = {phrase for m in _NUMBERED.finditer(text)
             if ((phrase := " ".join(m.group(1).split())) == "the green"
                 or (phrase.split()[0] not in _NO_NAME and phrase.split()[0] not in _MEASURES))
             and _lower_line(text, m.start())}
    if not names:
        return []
    pattern = re.compile(r"(?<![\w'’-])(" + "|".join(
        re.escape(n).replace(r"\ ", r"[ \t]+") for n in sorted(names, key=len, reverse=True))
        + r")(?![\w'’-])")
    return [EntitySpan(m.start(), m.end(), "LOCATION") for m in pattern.finditer(text)
            if _lower_line(text, m.start())]


#: Units of time and length before a designator: ``10 minute walk``, ``2 hour drive``.
_MEASURES = frozenset("minute minutes min mins hour hours hr hrs second seconds day days week "
                      "weeks month months year years mile miles metre metres meter meters km "
                      "foot feet yard yards lap laps".split())


def _lower_line(text: str, pos: int) -> bool:
    """Whether the line of ``text`` at ``pos`` has no capital letter."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    line = text[start:len(text) if end < 0 else end]
    return line == line.lower()
