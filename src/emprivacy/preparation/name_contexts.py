"""Where a word is a person's name whatever the word, so that no pass demotes it to the
general ε as an ordinary word: a chat's speaker after a time stamp (``[07:59] sky:``), the
first word of a name field's value (``Known as: Cat``), a piece of a person's user name
(``food`` of ``@euan_forbes_food``); and where a word is a local place's whatever the word
(``drill`` of ``the drill hall``: :func:`~emprivacy.entities.local_places.in_local_place`).  Read by
:func:`~emprivacy.preparation.entity_slots.entity_decisions` (issue 40).
"""

from __future__ import annotations

import re

from emprivacy.entities.labels import (
    FORM_KEYS,
    LABEL_START,
    NAME_FIELDS,
    NO_NAME_VALUES,
    QUOTING_VERBS,
    SPEAKER_ROLES,
    chat_speaker_word,
    name_shaped_value,
    stamped_start,
)
from emprivacy.entities.local_places import in_local_place
from emprivacy.entities.name_words import family_names, given_names, name_key, named_chat
from emprivacy.entities.naming import KIN_WORDS
from emprivacy.text.tokens import Token

__all__ = ["handle_piece", "name_field_value", "named_in_place", "named_or_placed",
           "quoted_nickname", "stamped_speaker"]


def named_in_place(text: str, tok: Token) -> bool:
    """Whether ``tok`` is a name by where it stands whatever the word: a chat's speaker
    (:func:`stamped_speaker`), a name field's value (:func:`name_field_value`) or a quoted
    nickname (:func:`quoted_nickname`)."""
    return stamped_speaker(text, tok) or name_field_value(text, tok) or quoted_nickname(text, tok)


def named_or_placed(text: str, tok: Token, *, english: bool) -> bool:
    """Whether ``tok`` is a name by where it stands (:func:`named_in_place`) or, in English, a
    word of a local place's name (``drill`` of ``the drill hall``, issue 40's thirty-fifth
    stage: :func:`~emprivacy.entities.local_places.in_local_place`): no ordinary word."""
    return named_in_place(text, tok) or (english and in_local_place(text, tok.start, tok.end))


def stamped_speaker(text: str, tok: Token) -> bool:
    """Whether ``tok`` is a chat's speaker after a time stamp (``[07:59] sky:``, ``[19:09]
    claire :``) or a speaker's label in lower case in a chat whose speakers are named
    (``river:``: :func:`~emprivacy.entities.labels.chat_speakers`): a name whatever the word,
    never demoted to the general ε as an ordinary lower-case word."""
    if text[tok.end:tok.end + 2].lstrip(" \u00a0\u202f")[:1] != ":":  # "claire :" in French
        return False
    start = text[text.rfind("\n", 0, tok.start) + 1:tok.start]
    return stamped_start(start) or (  # "river:" of a chat whose speakers are named
        tok.text.islower() and chat_speaker_word(tok.text) and LABEL_START.fullmatch(start)
        is not None and named_chat(text))


#: A name field's key and colon before a capitalised value's first word on its line
#: (``Known as: Cat``, ``First name(s): Iffy``), the key's last word ending the match.
_NAME_KEY = re.compile(r"(?:^|[ \t])(?P<key>[A-Za-z]+)(?:\(s\))?[ \t]*:[ \t]*\Z")


def name_field_value(text: str, tok: Token) -> bool:
    """Whether ``tok``, capitalised, is the first word of a name field's value on its line
    (its key's last word one of :data:`~emprivacy.entities.labels.NAME_FIELDS`, or ``Known
    as:``): a name whatever the word, never demoted to the general ε as an ordinary
    capitalised word (``Known as: Cat``; issue 40, the seventeenth English set)."""
    word = tok.text.lower()
    if (not tok.text[:1].isupper() or len(tok.text) < 2 or word in KIN_WORDS
            or word in NO_NAME_VALUES or word in SPEAKER_ROLES or word in FORM_KEYS):
        return False
    line = text[max(text.rfind("\n", 0, tok.start) + 1, tok.start - 60):tok.start]
    found = _NAME_KEY.search(line)
    if found is None:
        return False
    key = found.group("key").lower()
    if not (key in NAME_FIELDS or (key == "as" and line[:found.start("key")].rstrip()
                                   .lower().endswith("known"))):
        return False
    # a value of a few capitalised words to the line's end or the next field, not speech
    # ("OPERATOR: Next, Oksana Hrytsenko at Jefferies.", "Chair: Thanks everyone.")
    return name_shaped_value(text, tok.start, most_words=_MOST_VALUE_WORDS)

#: A nickname in quotes, a word or three (``"SKIP"``, ``"Long Owen"``), with the words on
#: either side of it (``PHILIP "SKIP" KEEL``): read from each quote, so that a quoted word
#: just before a name (``SAID "YES" PHILIP "SKIP" KEEL``) takes no name's word.
_NICKNAME = re.compile(r"[\"“‘'](?P<nick>[^\W\d_][\w'’-]*(?:[ \t]+[^\W\d_][\w'’-]*){0,2})"
                       r"[\"”’'][ \t]+(?P<after>[^\W\d_][\w'’-]*)")
#: The word before a nickname's opening quote, at the end of what precedes it.
_WORD_BEFORE = re.compile(r"(?<![\w'’-])(?P<before>[^\W\d_][\w'’-]*)\.?[ \t]+\Z")


def quoted_nickname(text: str, tok: Token) -> bool:
    """Whether ``tok`` is in a nickname quoted between two capitalised words of a person's
    name, each a listed given or family name (``PHILIP "SKIP" KEEL``, ``Margaret "Peg"
    McAllister``): a name whatever the word, never demoted to the general ε as an ordinary
    word (issue 40, the thirtieth English set); not ``THE SIGN SAID "CLOSED" TODAY``.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = ('HE SAID "YES" PHILIP "SKIP" KEEL; the word "skip" means; Owen "Long Owen" '
    ...         'Flynn; THE SIGN SAID "CLOSED" TODAY')
    >>> [t.text for t in tokenize(text) if t.kind == "word" and quoted_nickname(text, t)]
    ['SKIP', 'Long', 'Owen']
    """
    line_start = text.rfind("\n", 0, tok.start) + 1
    line_end = text.find("\n", tok.end)
    line_end = len(text) if line_end < 0 else line_end
    for m in _NICKNAME.finditer(text, max(line_start, tok.start - 40), min(line_end, tok.end + 40)):
        if not (m.start("nick") <= tok.start and tok.end <= m.end("nick")):
            continue
        found = _WORD_BEFORE.search(text, max(line_start, m.start() - 40), m.start())
        if found is None:
            return False
        before, after = found.group("before"), m.group("after")
        return (before[:1].isupper() and after[:1].isupper()
                and before.lower() not in QUOTING_VERBS  # SAID "YES" (Said, a family name)
                and _listed(before) and _listed(after))
    return False


def _listed(word: str) -> bool:
    """Whether ``word`` is a listed given or family name (the census lists)."""
    key = name_key(word.lower())
    return key in given_names() or key in family_names()


#: The most words of a name field's value whose first word is a name whatever the word.
_MOST_VALUE_WORDS = 4


def handle_piece(text: str, tok: Token, *, display: bool = False) -> bool:
    """Whether ``tok`` is joined by ``_`` or ``.`` to letters with no space between, in an
    ``@`` mention, or with ``display`` in a user name that starts a line before its display
    name in brackets (``will.hope (Will Hope)``): a piece of a user name (``food`` of
    ``@euan_forbes_food``).  In a
    person's span it is the person's, never demoted to the general ε as an ordinary word
    (issue 40, the seventeenth English set).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "@euan_forbes_food likes food. See @k.osei, not name_words.capitalised"
    >>> [t.text for t in tokenize(text) if t.kind == "word" and handle_piece(text, t)]
    ['euan', 'forbes', 'food', 'k', 'osei']
    >>> text = "sky.halloran (Sky Halloran) — 06:18"
    >>> [t.text for t in tokenize(text) if t.kind == "word"
    ...  and handle_piece(text, t, display=True)]
    ['sky', 'halloran']
    """
    before = text[max(0, tok.start - 2):tok.start]
    after = text[tok.end:tok.end + 2]
    if not ((len(before) == 2 and before[1] in "_." and before[0].isalnum()) or (
            len(after) == 2 and after[0] in "_." and after[1].isalnum())):
        return False
    # an @ mention's: the handle's start, a bounded walk back over its pieces, is an "@"
    # (not "emprivacy.entities.name_words", a code's dotted name)
    start = tok.start
    low = max(0, tok.start - 64)
    while start > low and (text[start - 1].isalnum() or text[start - 1] in "_."):
        start -= 1
    if start > 0 and text[start - 1] == "@":
        return True
    if not display:
        return False
    # or a chat's user name at a line's start before its display name: "will.hope (Will
    # Hope) — Today at 06:03" (the twenty-sixth English set, seen)
    end = tok.end
    high = min(len(text), tok.end + 64)
    while end < high and (text[end].isalnum() or (text[end] in "_." and end + 1 < len(text)
                                                  and text[end + 1].isalnum())):
        end += 1
    line = text[text.rfind("\n", max(0, start - 16), start) + 1:start]
    # (after a reply's mark and its indent: "  ↳ sunny.side.up (Sunny Royal)")
    return line.strip(" \t↳└>-–•*") == "" and text[end:end + 2] == " ("
