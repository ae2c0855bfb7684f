"""The lines a social network's page adds under each comment when it is copied: ``Like ·
Reply · 1d``, ``3h · Like · Reply · Edited``.  Nothing on them is anyone's name, yet a
model reads a capitalised ``Like`` after a name that ends the comment above as the name's
(``… the plate Róisín⏎Like · Reply · 5d``: Like is a surname of the census), and one
decision per form then made each of a thread's 40 ``Like`` a person's slot (issue 40, the
forty-ninth English set's comments, read once its unseen half had been measured).  So it is
with the notes a transcriber adds in brackets (``(Laughter.)``, ``[inaudible]``): a model
read ``Laughter`` after a speaker's sentence as a person (the fiftieth English set's
community council, read once its unseen half had been measured).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from emprivacy.entities.spans import EntitySpan

__all__ = ["STAGE_DIRECTIONS", "UI_WORDS", "drop_ui_lines", "ui_lines"]

#: The words of such a line (in lower case): the actions under a comment and their labels.
UI_WORDS = frozenset("like reply share edited see translation hide view more replies "
                     "author top fan follow".split())
#: A line's parts: words, separators (``·``, ``•``, ``|``) and ages (``1d``, ``3 h``, ``12m``,
#: ``2w``, ``1y``).
_AGE = re.compile(r"\d{1,3} ?(?:s|m|h|d|w|y|min|mins|hr|hrs)", re.IGNORECASE)
_PARTS = re.compile(r"[·•|]")
#: A transcriber's notes in brackets, one or two of these words (any case, a full stop):
#: ``(Laughter.)``, ``[inaudible]``, ``(Applause)``, ``[music playing]``.
STAGE_DIRECTIONS = frozenset("laughter laughs laughing applause inaudible crosstalk "
                             "pause silence coughs coughing music indistinct unclear "
                             "interruption interjection overlapping playing".split())
_NOTE = re.compile(r"[(\[][ \t]*([^\W\d_]+)(?:[ \t]+([^\W\d_]+))?[ \t]*\.?[ \t]*[)\]]")


def ui_lines(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each line of ``text`` made of :data:`UI_WORDS` and ages between
    separators, ``like`` or ``reply`` among them.

    >>> text = "Ray Gray\\nhe held it in\\nLike · Reply · 1d\\n3h · Like · Reply\\nI like it"
    >>> [text[a:b] for a, b in ui_lines(text)]
    ['Like · Reply · 1d', '3h · Like · Reply']
    """
    if "·" not in text and "•" not in text:
        return []
    out = []
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        parts = [p.strip() for p in _PARTS.split(line)]
        if len(parts) >= 2 and all(p for p in parts):
            words = [p.lower() for p in parts if not _AGE.fullmatch(p)]
            if words and all(w in UI_WORDS or (" " in w and all(
                    x in UI_WORDS for x in w.split())) for w in words) and (
                    "like" in words or "reply" in words):
                out.append((start, end))
        start = end + 1
    return out


def stage_directions(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each transcriber's note of :data:`STAGE_DIRECTIONS` in ``text``.

    >>> text = "MR BURNS: Thank you, Jock. (Laughter.) [inaudible] (Sandy Douglas)"
    >>> [text[a:b] for a, b in stage_directions(text)]
    ['(Laughter.)', '[inaudible]']
    """
    if "(" not in text and "[" not in text:
        return []
    return [m.span() for m in _NOTE.finditer(text)
            if all(w is None or w.lower() in STAGE_DIRECTIONS for w in m.groups())]


def drop_ui_lines(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """``spans`` less those inside a line of :func:`ui_lines` or a transcriber's note
    (:func:`stage_directions`)."""
    lines = ui_lines(text) + stage_directions(text)
    if not lines:
        return list(spans)
    return [s for s in spans if not any(a <= s.start and s.end <= b for a, b in lines)]
