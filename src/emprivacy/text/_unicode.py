"""The Unicode character classes that normalising and tokenising share: the combining
marks and format characters (from the code points, once), and the pattern of a word.

Private to :mod:`emprivacy.text`: :mod:`~emprivacy.text.normalise` and
:mod:`~emprivacy.text.tokens` build on it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

#: A letter: a word character that is neither a digit nor ``_``.
LETTERS = r"[^\W\d_]"


@cache
def category_classes() -> dict[str, str]:
    """Regex character-class bodies of the combining marks (``"M"``: Mn, Mc, Me) and of
    the format characters (``"Cf"``), from one pass over the code points.

    Format characters and combining marks exist only in planes 0, 1 and 14.
    """
    points: dict[str, list[int]] = {"M": [], "Cf": []}
    for block in (range(0x20000), range(0xE0000, 0xE1000)):
        for cp in block:
            cat = unicodedata.category(chr(cp))
            if cat == "Cf":
                points["Cf"].append(cp)
            elif cat[0] == "M":
                points["M"].append(cp)
    return {kind: _ranges(cps) for kind, cps in points.items()}


def _ranges(points: list[int]) -> str:
    parts: list[str] = []
    start = prev = points[0]
    for cp in [*points[1:], -1]:
        if cp == prev + 1:
            prev = cp
            continue
        parts.append(re.escape(chr(start)) if start == prev
                     else f"{re.escape(chr(start))}-{re.escape(chr(prev))}")
        start = prev = cp
    return "".join(parts)


@cache
def word_regex() -> str:
    """The regular expression of a word: runs of letters (with their combining marks),
    joined by inner hyphens or apostrophes (``e-mail``, ``o'clock``)."""
    letters = rf"(?:{LETTERS}[{category_classes()['M']}]*)+"
    return rf"{letters}(?:['’\-]{letters})*"


@cache
def word_pattern() -> re.Pattern[str]:
    """:func:`word_regex`, compiled (on first use)."""
    return re.compile(word_regex())


@cache
def format_pattern() -> re.Pattern[str]:
    """A run of format characters (Unicode category Cf), compiled (on first use)."""
    return re.compile(f"[{category_classes()['Cf']}]+")
