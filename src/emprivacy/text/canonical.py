r"""Punctuation and spacing in one canonical form (the style option of text mode, issue 41):
how a writer spaces, quotes, dashes and repeats marks identifies them, so under
``style_epsilon`` the released text is written with these rules, in this order:

1. full-width ASCII punctuation (``！``, ``，``) becomes ASCII;
2. the typographic single quotes and apostrophes ``‘ ’ ‚ ‛ ‹ ›`` become ``'``, the double
   quotes ``“ ” „ ‟ « »`` become ``"``;
3. hyphens ``‐ ‑`` become ``-``; a dash ``‒ – — ―``, or a run of two or more ``-``, with
   the spaces around it, becomes `` - ``;
4. the ellipsis ``…`` and any run of two or more ``.`` (spaces between them allowed)
   become ``...``;
5. a run of two or more of ``!`` and ``?`` becomes its first mark (``?!`` → ``?``);
6. a run of two or more of the same mark among ``, ; :`` becomes one;
7. every run of horizontal whitespace (spaces, tabs, no-break and other Unicode spaces)
   becomes one space; the line separators become ``\n`` (``\r\n`` and ``\r`` too); spaces at
   the start and end of a line go (not at the start and end of the text: a long document
   is written block by block); three or more line breaks become two (one blank line);
8. no space before ``, . ; : ! ? ) ] }`` nor after ``( [ {``.

Words, placeholders (``[NUM]``) and single marks are left as they are.  It is applied to the
released text (post-processing: the guarantee is unchanged).
"""

from __future__ import annotations

import re
import string

__all__ = ["canonical_punctuation"]

_FULL_WIDTH = {ord(c) + 0xFEE0: c for c in string.punctuation}
_QUOTES = str.maketrans({**_FULL_WIDTH, **dict.fromkeys(map(ord, "‘’‚‛‹›"), "'"),
                         **dict.fromkeys(map(ord, "“”„‟«»"), '"'), ord("‐"): "-",
                         ord("‑"): "-", ord("\r"): "\n", ord("\u2028"): "\n",
                         ord("\u2029"): "\n"})
_HSPACE = "[^\\S\\n]"
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(f"{_HSPACE}*(?:[‒–—―]|-{{2,}}){_HSPACE}*"), " - "),
    (re.compile(r"…|\.(?:[^\S\n]*\.)+"), "..."),
    (re.compile(r"([!?])[!?]+"), r"\1"),
    (re.compile(r"([,;:])\1+"), r"\1"),
    (re.compile(f"{_HSPACE}+"), " "),
    (re.compile(r" ?\n ?"), "\n"),
    (re.compile(r"\n{3,}"), "\n\n"),
    (re.compile(r" +(?=[,.;:!?)\]}])"), ""),
    (re.compile(r"(?<=[(\[{]) +"), ""),
)


def canonical_punctuation(text: str) -> str:
    """``text`` with its punctuation and spacing in the canonical form of the module.

    >>> canonical_punctuation("Well  , “hello”!!  Wait……she’s—gone ?!")
    'Well, "hello"! Wait...she\\'s - gone?'
    >>> canonical_punctuation("a \\r\\n\\r\\n\\r\\n( b ) [NUM] . . .")
    'a\\n\\n(b) [NUM]...'
    """
    text = text.translate(_QUOTES)
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text
