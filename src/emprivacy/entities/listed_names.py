"""Names listed together: the other items of a list with names in it are names too
(``wade, cliff, deano, kb, priya``; ``mother of Tariq, Nasreen and Imran``; ``hunter and
sunny``), for :class:`~emprivacy.entities.names.NameListDetector` (issue 40, eleventh stage).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from emprivacy.entities.naming import DETERMINERS
from emprivacy.entities.text_shape import by_a_number
from emprivacy.text.tokens import Token

__all__ = ["list_members"]

#: A word this common (Zipf) is no name for sitting in a list of names.
_LISTED_COMMON = 4.5
_LIST_GAP = re.compile(r",[ \t]*")
_LIST_END = re.compile(r",[ \t]*|[ \t]+(?:and|&|n|or)[ \t]+")
_LIST_AND = re.compile(r",?[ \t]+(?:and|or)[ \t]+")
_LIST_AMPERSAND = re.compile(r",?[ \t]*&[ \t]*")


def list_members(name: list[bool], words: Sequence[Token], forms: Sequence[str], text: str,
                 zipf: Callable[[str], float], kept: frozenset[str],
                 classes: Sequence[str | None] = (),
                 given: Callable[[str], bool] = lambda form: True) -> None:
    """A word between two names of a comma-separated list is a name (``wade, cliff, deano,
    kb, priya``: a nickname or initials no list holds), and so is each item of a list of
    three or more ending in ``and`` or ``or`` with a name among them, written in its case
    (``mother of Tariq, Nasreen and Imran``), unless it is one of the ``kept`` function
    words or common as a word (``zipf`` at least 4.5: ``dana, please, bill``); in a list of
    three or more at commas alone with two names or more, a ``given`` name is one however
    common (``bill, yusuf, art``).  Of two
    joined by ``and``, ``or`` or ``&``, one a name, the other is one where a name list holds
    it (its ``classes`` ``"name"`` or ``"common"``: ``tell hunter and sunny``, ``dana and
    fox``; after a comma, in lower case, a ``"common"`` one only if it is a ``given`` name:
    not ``is cost, and grace``), written in
    the same case and with no determiner before the pair (``the bill and jack``; issue 40,
    eleventh stage; ``over the cauld and back``, a weir, the fiftieth English set);
    ``Will`` and ``May`` too where capitalised (``Grace and Will``; not ``May 3``)."""
    if classes:
        _pairs(name, words, forms, text, kept, classes, given, zipf)
    for i in range(1, len(words) - 1):
        if (name[i] or not name[i - 1] or not forms[i].isalpha() or forms[i] in kept
                or zipf(forms[i]) >= _LISTED_COMMON):
            continue
        if (_LIST_GAP.fullmatch(text, words[i - 1].end, words[i].start)
                and _LIST_END.fullmatch(text, words[i].end, words[i + 1].start)):
            name[i] = name[i + 1]
    i = 0
    while i < len(words):  # "mother of Tariq, Nasreen and Imran": a list's ends too
        j = i
        while j + 1 < len(words) and text.startswith(",", words[j].end) and _LIST_GAP.fullmatch(
                text, words[j].end, words[j + 1].start):
            j += 1
        if j == i:  # no comma after it: no list starts here (most words)
            i += 1
            continue
        k = j  # the last item: after "and" or "or" (words), or "&"
        if (j + 2 < len(words) and forms[j + 1] in ("and", "or")
                and _LIST_AND.fullmatch(text, words[j].end, words[j + 2].start)):
            k = j + 2
        elif j + 1 < len(words) and _LIST_AMPERSAND.fullmatch(
                text, words[j].end, words[j + 1].start):
            k = j + 1
        items = [*range(i, j + 1), k]
        cases = {words[x].text[:1].isupper() for x in items if name[x]}
        if k == j and j - i >= 2 and sum(name[x] for x in range(i, j + 1)) >= 2:
            for x in range(i, j + 1):  # "bill, yusuf, art": a listed given name however common
                if not name[x] and forms[x] not in kept and given(forms[x]) \
                        and words[x].text[:1].isupper() in cases:
                    name[x] = True
        if k > j and cases:
            for x in items:
                if not name[x] and forms[x].isalpha() and forms[x] not in kept \
                        and zipf(forms[x]) < _LISTED_COMMON \
                        and words[x].text[:1].isupper() in cases:
                    name[x] = True
        i = max(k, i + 1)


#: A lower-case word of the census' ``"common"`` class at least this common (Zipf: ``say``
#: 5.9, ``well`` 6.0, ``back`` 6.0; not ``fox`` 4.6, ``sunny``) is no name of a pair by the
#: pair alone (:func:`_pairs`).
_PAIR_COMMON = 5.5


def _pairs(name: list[bool], words: Sequence[Token], forms: Sequence[str], text: str,
           kept: frozenset[str], classes: Sequence[str | None],
           given: Callable[[str], bool], zipf: Callable[[str], float]) -> None:
    """The pairs of :func:`list_members`: ``hunter and sunny``, ``Rose & Jack``; in lower
    case not a ``"common"`` word as common as :data:`_PAIR_COMMON` that is no given name
    (``thanks joel and say hello``, ``oksana and well done``: the fiftieth English set)."""
    for i in range(len(words) - 1):
        if (i + 2 < len(words) and forms[i + 1] in ("and", "or")
                and _LIST_AND.fullmatch(text, words[i].end, words[i + 2].start)):
            b = i + 2
        elif _LIST_AMPERSAND.fullmatch(text, words[i].end, words[i + 1].start):
            b = i + 1
        else:
            continue
        if name[i] == name[b]:
            continue
        other = b if name[i] else i
        if (classes[other] in ("name", "common") and forms[other].isalpha()
                and (classes[other] == "name" or not words[other].text.islower()
                     or given(forms[other]) or (
                         "," not in text[words[i].end:words[b].start]
                         and zipf(forms[other]) < _PAIR_COMMON))
                and (forms[other] not in kept or (  # "Grace and Will": no modal mid-sentence
                    forms[other] in ("will", "may") and words[other].text.istitle()
                    and not by_a_number(words[other], text)))
                and words[other].text[:1].isupper() == words[i + b - other].text[:1].isupper()
                and (i == 0 or forms[i - 1] not in DETERMINERS)):  # the cauld and back
            name[other] = True
