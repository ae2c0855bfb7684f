"""Pubs by their names: ``at the royal oak``, ``at the crown``, ``the railway tavern``
(issue 40, the eighteenth English set, seen: a darts league's presentation night by speech
recognition; pubs and inns had been released in eight texts of earlier sets, chats and
transcripts: ``the crown and anchor``, ``the red lion``, ``the fishermans arms``).

A pub is where people meet: its name places them.  In lower case no capital shows it, and its
words are ordinary ones.  :func:`pub_spans` makes an ``ORG`` span of, after ``the``:

* a name of ``data/pub-names-en.txt`` (``royal oak``, ``fox and hounds``); a name marked
  ``after-place-word`` there (``crown``, ``plough``, ``anchor``) only after a preposition of
  place and ``the`` (:data:`PLACE_WORDS`: ``at the crown``; not ``the crown of her head``),
  and at every mention of a text that places it so once but before ``of`` (``the swan did
  a bbq`` beside ``at the swan``: issue 40, the twenty-fifth English set), its possessive
  too (``the plough's car park``);
* a word and ``tavern`` or ``inn``, a word ending in ``s`` and ``arms`` (``the railway
  tavern``, ``the fishermans arms``; not ``the mother's arms``, ``the nuclear arms race``),
  the word no function word.

English only; any case.  Detection is pre-processing, outside the guarantee.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

from emprivacy.entities.spans import EntitySpan
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["PLACE_WORDS", "pub_names", "pub_spans"]

#: The prepositions of place before ``the`` that make a pub of a name that is a thing too.
PLACE_WORDS = frozenset("at in to from outside behind near down into round opposite by "
                        "inside".split())

#: ``of`` after a name: a thing's part (``the crown of her head``), no pub.
_OF = re.compile(r"[ \t]+of(?![\w'’-])", re.IGNORECASE)

#: ``the`` and a word before ``tavern`` or ``inn``, or a word ending in ``s`` before ``arms``
#: (``the fishermans arms``; not ``the mother's arms``, ``the nuclear arms race``).
_DESIGNATED = re.compile(r"(?<![\w'’-])the[ \t]+(?:([a-z]+)[ \t]+(?:tavern|inn)"
                         r"|([a-z]+s)[ \t]+arms)(?![\w'’-])", re.IGNORECASE)


@lru_cache(maxsize=1)
def pub_names() -> tuple[re.Pattern[str], frozenset[str]]:
    """The names of ``data/pub-names-en.txt`` as one pattern (group 1 the name, after
    ``the``), and those that are a pub only after a preposition of place."""
    text = files("emprivacy").joinpath("data", "pub-names-en.txt").read_text(encoding="utf-8")
    names, after_place = [], set()
    for line in text.splitlines():
        name, _, mark = line.partition("#")[0].strip().partition("  ")
        if name:
            names.append(name)
            if mark.strip() == "after-place-word":
                after_place.add(name)
    alternatives = "|".join(re.escape(n).replace(r"\ and\ ", r"[ \t]+(?:and|&)[ \t]+")
                            .replace(r"\ ", r"[ \t]+")  # "the rose & crown" too
                            for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w'’-])the[ \t]+({alternatives})(?:(?=['’]s(?![\w'’-]))"
                         r"|(?![\w'’-]))", re.IGNORECASE)  # "the plough's car park" too
    return pattern, frozenset(after_place)


def pub_spans(text: str) -> list[EntitySpan]:
    """``ORG`` spans of the pubs of ``text`` (see the module's description).

    >>> text = "at the Royal Oak, then at the crown. The crown of her head. the masons arms"
    >>> [text[s.start:s.end] for s in pub_spans(text)]
    ['Royal Oak', 'crown', 'masons arms']
    >>> [(s.start, s.end) for s in pub_spans("we met at the rose & crown")]
    [(14, 26)]
    >>> pub_spans("in the baby's arms, the nuclear arms race, we watched the rising sun")
    []
    >>> text = "the swan did a bbq; see you at the swan, in the swan's car park"
    >>> [text[s.start:s.end] for s in pub_spans(text)]
    ['swan', 'swan', 'swan']
    """
    pattern, after_place = pub_names()
    out = []
    found = [(m, " ".join(m.group(1).lower().split())) for m in pattern.finditer(text)]
    # a name that is a pub after a place's word once is the pub at every mention of the text
    at_place = [bool((before := text[max(0, m.start() - 12):m.start()].split())
                     and before[-1].lower() in PLACE_WORDS) for m, _ in found]
    placed = {name for (_, name), here in zip(found, at_place, strict=True)
              if name in after_place and here}
    for (m, name), here in zip(found, at_place, strict=True):
        if name in after_place and not here and (
                name not in placed or _OF.match(text, m.end())):
            continue  # "the crown of her head" beside "at the crown": a thing
        out.append(EntitySpan(m.start(1), m.end(1), "ORG"))
    for m in _DESIGNATED.finditer(text):
        group = 1 if m.group(1) else 2
        if m.group(group).lower() not in KEPT_FUNCTION_WORDS:
            out.append(EntitySpan(m.start(group), m.end(), "ORG"))
    return out
