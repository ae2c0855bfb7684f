"""User names around a person's span: widened over the handle a name is part of
(``k.osei``, ``will.hope``), and handles whose parts are names (issue 40; moved out of
:mod:`~emprivacy.entities.initials`, which re-exports them)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from emprivacy.entities.spans import PROPER_NOUN, EntitySpan, SpanIndex
from emprivacy.text.word_lists import top_level_domains

__all__ = ["named_handles", "widen_handles"]


def widen_handles(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """The ``PERSON`` spans widened over the user name they are part of (``k.osei``,
    ``m_lindqvist``, ``priya.raman``): a name joined to letters by ``.`` or ``_`` with no
    space between is one handle, and the letters beside the name (``k``, ``m``) are the
    person's initials, released verbatim unless the span covers them (issue 40, eleventh
    stage).  A full stop that ends a sentence (``Thanks Kwame.``), one before a capital
    (``Kwame.See you``) or a handle's last character is left outside; a handle that holds
    another type's span (``Kwame_Nigeria``: a place) is not widened over it; spans of other
    types are returned as they are.  Linear in the text: a handle is walked once however
    many names it holds.

    >>> text = "Assigned to: m.lindqvist. Thanks Kwame. cc @k.osei, Dana.See"
    >>> spans = [EntitySpan(15, 24, "PERSON"), EntitySpan(33, 38, "PERSON"),
    ...          EntitySpan(46, 50, "PERSON"), EntitySpan(52, 56, "PERSON")]
    >>> [text[s.start:s.end] for s in widen_handles(text, spans)]
    ['m.lindqvist', 'Kwame', 'k.osei', 'Dana']
    """
    others = SpanIndex(s for s in spans if s.type != "PERSON")
    out = []
    last = (-1, -1)  # the last handle's extent
    for span in spans:
        start, end = span.start, span.end
        if span.type == "PERSON":
            if last[0] <= start and end <= last[1]:
                start, end = last
            else:
                start, end = _handle_extent(text, start, end)
                last = (start, end)
            if not (others.free(start, span.start) and others.free(span.end, end)):
                start, end = span.start, span.end
        out.append(span if (start, end) == (span.start, span.end)
                   else EntitySpan(start, end, span.type))
    return out


def _handle_extent(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened over the letters, digits, ``.`` and ``_`` joined to it with
    no space, neither ending on a ``.`` or ``_`` nor crossing a ``.`` before a capital
    (``Kwame.See``; ``AprilMcKenna_Gen`` is one handle)."""
    def joins(k: int) -> bool:  # a separator at k between two handle characters, no capital
        return (0 < k < len(text) - 1 and text[k] in "._"
                and (text[k] == "_" or not text[k + 1].isupper())
                and _WORD_CHAR.fullmatch(text[k - 1]) is not None
                and _WORD_CHAR.fullmatch(text[k + 1]) is not None)

    while start > 0 and (_WORD_CHAR.fullmatch(text[start - 1]) or joins(start - 1)):
        start -= 1
    while end < len(text) and (_WORD_CHAR.fullmatch(text[end]) or joins(end)):
        end += 1
    return start, end


_WORD_CHAR = re.compile(r"[^\W_]")


#: File names' extensions, no user name's end (``notes.txt (Draft)``).
_FILE_ENDS = frozenset("txt pdf doc docx xls xlsx csv jpg jpeg png gif zip py md html htm "
                       "odt ods ppt pptx mp3 mp4 mov json xml".split())
#: A user name of two or more parts joined by ``.`` or ``_`` (``will.hope``, ``sky_halloran``).
_HANDLE = re.compile(r"(?<![\w.@])[^\W\d_]{2,}(?:[._][^\W\d_]{2,})+(?![\w@]|\.\w)")
#: The capitalised word right before a span (``Sky`` of ``Sky Halloran``).
_CAPITALISED_BEFORE = re.compile(r"(?<![\w'’-])([A-Z][^\W\d_]+) $")


def named_handles(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """The user names whose every part is a word of a person's span in the text, or of a
    capitalised run's (a name no model typed): a ``PERSON`` span each (``will.hope`` of
    ``will.hope (Will Hope) — Today at 06:03``, a chat's user name beside its display name;
    the capitalised word right before such a span counts, ``Sky`` of ``Sky Halloran``; issue
    40, the twenty-sixth English set, seen), where no detector found a name in the handle
    because its parts are words; and a user name right before its display name in brackets,
    a person's or a capitalised run's, whatever its parts (``sunny.side.up (Sunny Royal)``,
    ``hopefully.noble (Hope Noble)``: the twenty-seventh set, seen).  Not a part of an
    e-mail address (an identifier's pattern has it) nor one such a span covers.

    >>> text = "will.hope (Will Hope) said hi to dana.lee"
    >>> [text[s.start:s.end] for s in named_handles(text, [EntitySpan(11, 20, "PERSON")])]
    ['will.hope']
    """
    out: list[EntitySpan] = []
    people = [s for s in spans if s.type in ("PERSON", PROPER_NOUN)]
    handles = list(_HANDLE.finditer(text)) if people else []
    if not handles:  # most texts: no user name, no names' words to gather
        return out
    words = {w.lower() for s in people for w in re.findall(r"[^\W\d_]+", text[s.start:s.end])}
    for s in people:  # and the capitalised word right before one (Sky of "Sky Halloran")
        before = _CAPITALISED_BEFORE.search(text, max(0, s.start - 40), s.start)
        if before is not None:
            words.add(before.group(1).lower())
    taken = SpanIndex(people)
    displayed = {s.start for s in people  # a person's, or two or three capitalised words
                 if s.type == "PERSON" or " " in text[s.start:s.end].strip()}
    for m in handles:
        parts = re.split(r"[._]", m.group().lower())
        beside = (text[m.end():m.end() + 2] == " (" and m.end() + 2 in displayed
                  and parts[-1] not in _FILE_ENDS and parts[-1] not in top_level_domains())
        if (all(part in words for part in parts) or beside) \
                and not taken.covers(m.start(), m.end()):
            out.append(EntitySpan(m.start(), m.end(), "PERSON"))
    return out
