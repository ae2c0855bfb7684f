"""How a released word is written into the text: the capitalisation of the word it replaces
and, in a language with elisions, the elided word before it.

Both are post-processing of the release (Lemma 3 of the paper: a function of the released
words and of the layout, which is released as it is): they cost no privacy.

**Capitalisation.**  :func:`case_pattern` reads the pattern of the input word (``upper``,
``title``, ``lower``), :func:`apply_case` writes the released word in it.

**Elisions** (French, issue 42).  An elided word (``l’``, ``d’``, ``qu’``, …) is kept where it
stands, before the word it was elided before.  When that word is released as a word starting
with neither a vowel nor an h (``l’hôpital`` → ``l’palace``), :func:`write_elision` writes
the elided word in full before it, keeping its case: ``l’`` → ``le``, ``d’`` → ``de``, ``j’``
→ ``je``, ``qu’`` → ``que``, ``n’`` → ``ne``, ``s’`` → ``se``, ``c’`` → ``ce``, ``m’`` →
``me``, ``t’`` → ``te``, ``jusqu’`` → ``jusque``, ``lorsqu’`` → ``lorsque``, ``puisqu’`` →
``puisque``, ``quoiqu’`` → ``quoique``, ``presqu’`` → ``presque``, ``quelqu’`` → ``quelque``
(``le palace``).  ``l’`` → ``le`` is a choice: the gender of the released word is not known
(``la`` would be as right for a feminine one).  ``s’`` → ``se`` (never ``si``: the word after
it is released, not ``il``).  An h is taken as mute and ``y`` as a vowel (``l’hôtel``,
``d’Yves`` stay), and the reverse is not done (``le`` before a vowel stays ``le``).  A
placeholder after an elision is layout, not a released word: ``l’[UNK]``, ``d’[PERSON]``
stay as they are.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Literal

from emprivacy.text.language import Language

__all__ = ["CasePattern", "apply_case", "case_pattern", "write_elision"]

CasePattern = Literal["lower", "title", "upper"]


def case_pattern(token: str) -> CasePattern:
    """The capitalisation pattern of a token: ``"upper"``, ``"title"`` or ``"lower"``.

    ``"upper"``: at least two cased letters, all upper case (``NASA``);
    ``"title"``: otherwise, the first cased letter is upper case (``Paris``,
    ``I``, ``McDonald``); ``"lower"``: everything else (``cat``, ``iPhone``).

    >>> case_pattern("NASA"), case_pattern("Paris"), case_pattern("I"), case_pattern("iPhone")
    ('upper', 'title', 'title', 'lower')
    """
    cased = [c for c in token if c.lower() != c.upper()]
    if len(cased) >= 2 and all(c.isupper() for c in cased):
        return "upper"
    if cased and cased[0].isupper():
        return "title"
    return "lower"


def apply_case(word: str, pattern: CasePattern) -> str:
    """Write ``word`` with the capitalisation ``pattern`` (see :func:`case_pattern`).

    >>> apply_case("o'clock", "title"), apply_case("e-mail", "upper"), apply_case("Cat", "lower")
    ("O'clock", 'E-MAIL', 'cat')
    """
    if pattern == "upper":
        return word.upper()
    lowered = word.lower()
    if pattern == "title":
        for i, c in enumerate(lowered):
            if c.lower() != c.upper():
                return lowered[:i] + c.upper() + lowered[i + 1:]
        return lowered
    return lowered


@cache
def _elision_at_end(language: Language) -> re.Pattern[str]:
    stems = "|".join(re.escape(e[:-1]) for e in sorted(language.elisions, key=len,
                                                          reverse=True))
    return re.compile(rf"(?<![\w'’-])({stems})['’]$", re.IGNORECASE)


def _keeps_elision(word: str) -> bool:
    """Whether an elision stays before ``word``: a vowel, an h, or no letter first."""
    first = word[:1]
    if not first.isalpha():
        return True
    return unicodedata.normalize("NFD", first.lower())[0] in "aeiouyhæœ"


def write_elision(piece: str, word: str, language: Language) -> str:
    """``piece``, the layout just before a released ``word``, with the elided word it ends
    with written in full where ``word`` starts with neither a vowel nor an h (see the
    module docstring); ``piece`` itself otherwise.

    >>> from emprivacy.text.language import ENGLISH, FRENCH
    >>> write_elision("à l’", "palace", FRENCH), write_elision("L'", "Palace", FRENCH)
    ('à le ', 'Le ')
    >>> write_elision("JUSQU’", "PARIS", FRENCH), write_elision("d’", "Yves", FRENCH)
    ('JUSQUE ', 'd’')
    >>> write_elision("l’", "hôtel", FRENCH), write_elision("l'", "palace", ENGLISH)
    ('l’', "l'")
    """
    if not language.elisions or _keeps_elision(word):
        return piece
    m = _elision_at_end(language).search(piece)
    if m is None:
        return piece
    stem = m.group(1)
    upper = stem.isupper() and (len(stem) > 1 or (len(word) > 1 and word.isupper()))
    return f"{piece[:m.start()]}{stem}{'E' if upper else 'e'} "
