"""The two names of a voicemail's opening in lower case: ``carys its will``, ``grace love its
manjit``, ``hiya heather its bethan`` (issue 40, stage 51: the voicemails of the fifty-fourth
and fifty-fifth English sets' unseen halves, read once measured).

A transcribed voicemail or voice note starts with whom it is for and who is calling, in a
line with no capital: the first word (after ``hi``, ``hiya``, ``hello``, ``hey``,
``morning``, ``evening``, ``afternoon``), a word of endearment maybe (``love``, ``bach``,
``mate``), then ``its``, ``it's`` or ``this is`` and the caller.  Both are taken, and only
together, where each is a listed given name or rare as English words (Zipf below
:data:`RARE_ZIPF`) and neither is ``me``, a family word (``mum``) or a function word: an
opening with one name alone is too like a sentence (``hope its ok``, ``summer its too hot``,
``june its me``, ``well its raining``), which stays as written.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.naming import KIN_WORDS
from emprivacy.entities.policy import placeholder
from emprivacy.preparation.decisions import Decision, EntitySlot, Kept, Placeholder
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["RARE_ZIPF", "greeted_names"]

#: A word rarer than this in English may be a name in a greeting even on no list (``tendai``).
RARE_ZIPF = 3.0

#: A voicemail's opening at a line's start: the person it is for, the caller.
_OPENING = re.compile(
    r"^[ \t]*(?:(?:hi|hiya|hello|hey|morning|evening|afternoon)[ \t]+)?"
    r"(?P<to>[^\W\d_][\w'’-]*)"
    r"(?:[ \t]+(?:love|bach|mate|pet|hun|luv|darling|dear|lad|lass|cariad))?"
    r"[ \t]+(?:its|it's|it’s|this[ \t]+is)[ \t]+(?P<by>[^\W\d_][\w'’-]*)", re.MULTILINE)

#: Words that open a voicemail's line without being anyone's name.
_NOT_NAMES = frozenset("me us him her them you it its yes no ok okay well so right oh sorry "
                       "um er erm hi hiya hello hey just only now then there here what who "
                       "mum dad nan gran love bach mate the a".split())


def greeted_names(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                  text: str, tokens: Sequence[Token], words: Sequence[str],
                  rows: Sequence[int], *,
                  slot: Callable[[str, str, str, int], EntitySlot]) -> None:
    """Make the two names of a lower-case voicemail opening (module docstring) ``PERSON``
    slots (``slot(type, kind, word, row)``; placeholders under ``PERSON=placeholder``) where
    no rule decided them.  English only.

    >>> _OPENING.search("grace love its manjit at the shop").group("to", "by")
    ('grace', 'manjit')
    >>> _OPENING.search("hiya heather its bethan at the chronicle").group("to", "by")
    ('heather', 'bethan')
    """
    if marking.lang != "en" or not _HINT.search(text):
        return
    starts = {t.start: i for i, t in enumerate(tokens)}
    for m in _OPENING.finditer(text):
        line_end = text.find("\n", m.start())
        line = text[m.start():line_end if line_end >= 0 else len(text)]
        if not line.islower():
            continue
        at = [starts.get(m.start(g)) for g in ("to", "by")]
        both = [i for i in at if i is not None and tokens[i].kind == "word"
                and _name(marking, words[i])]
        if len(both) < 2:
            continue  # both names, or neither
        for i in both:
            if decisions[i] is not None:
                continue
            kind, resolved = marking.resolve("PERSON", rows[i], words[i])
            if kind == "placeholder":
                decisions[i] = Placeholder(_SPAN_BASE + i, placeholder(str(resolved)),
                                           str(resolved), tokens[i].start)
            elif kind == "keep":
                decisions[i] = Kept(str(resolved))
            elif kind in ("slot", "unlisted"):
                decisions[i] = slot(str(resolved), kind, words[i], rows[i])
            else:
                continue
            counted[str(resolved)] += 1


def _name(marking: EntityMarking, w: str) -> bool:
    """Whether ``w`` may be a name of a voicemail's opening."""
    return not (w in _NOT_NAMES or w in KIN_WORDS or w in KEPT_FUNCTION_WORDS) and (
        marking.listed_given(w) or marking.english_zipf(w) < RARE_ZIPF)


#: What an opening needs: ``its``, ``it's`` or ``this is``.
_HINT = re.compile(r"\b(?:its|it['’]s|this[ \t]+is)\b")

#: The span numbers of the openings' placeholders (under ``PERSON=placeholder``).
_SPAN_BASE = 1 << 23
