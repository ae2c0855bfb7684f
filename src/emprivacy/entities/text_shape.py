"""How a text is written, as the names detector reads it: each word's case, which
paragraphs are written in lower case, and where lines start.

A chat, a ticket or a forum thread mixes shapes: an agent's reply in ordinary case, a
user's message in lower case (``tried. still blue. dee says no loaners left, priya from
legal took the last one``).  Whether a lower-case word may be a name depends on the
paragraph it stands in, not on the whole text (:func:`lower_case_words`; issue 40, sixth
stage: such names were released at the general ε because the thread as a whole was in
ordinary case).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Literal

from emprivacy.entities.labels import STAMP_OPEN
from emprivacy.text.normalise import fold_to_ascii
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["DETERMINERS", "Case", "by_a_number", "caseless_line", "display_name_words",
           "handle_names", "line_start_words", "lower_case_words", "word_case"]

Case = Literal["lower", "upper", "title"]

_SENTENCE_END = re.compile(r"[.!?]\s*$")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


@lru_cache(maxsize=1 << 16)
def word_case(surface: str) -> Case:
    """``"lower"``, ``"upper"`` (two or more letters, all capitals), ``"title"`` (cached:
    words repeat).

    >>> [word_case(w) for w in ("dana", "DANA", "Dana", "I", "3rd")]
    ['lower', 'upper', 'title', 'title', 'lower']
    """
    letters = [c for c in surface if c.isalpha()]
    if not letters or letters[0].islower():
        return "lower"
    return "upper" if len(letters) > 1 and all(c.isupper() for c in letters) else "title"


def lower_case_words(words: list[Token], cases: list[Case], text: str) -> list[bool]:
    """Per word, whether its paragraph is written in lower case: more of the paragraph's
    sentences start in lower case than with a capital, by two or more of them.  A sentence
    starts at the text's start, at a paragraph's (after a blank line) and after ``.``,
    ``!`` or ``?``; a word in capitals counts for neither.  A paragraph where neither wins
    (ALL CAPS, a tie) or the winner has one sentence only (a list's item, ``- grace period
    ends``; ``keywords: ruby, amber``) takes the decision of the whole text, counted the
    same way.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "Hi Jamal. Try again.\\n\\ntried. still blue. dee says no"
    >>> words = [t for t in tokenize(text) if t.kind == "word"]
    >>> lower = lower_case_words(words, [word_case(t.text) for t in words], text)
    >>> [w.text for w, low in zip(words, lower) if low]
    ['tried', 'still', 'blue', 'dee', 'says', 'no']
    """
    votes: list[list[int]] = [[0, 0]]
    paragraph: list[int] = []
    for i, (tok, case) in enumerate(zip(words, cases, strict=True)):
        gap = text[words[i - 1].end:tok.start] if i else ""
        if gap == " ":  # most words: no paragraph, no sentence starts here
            paragraph.append(len(votes) - 1)
            continue
        if i and _BLANK_LINE.search(gap):
            votes.append([0, 0])
        paragraph.append(len(votes) - 1)
        if not i or _BLANK_LINE.search(gap) or _SENTENCE_END.search(gap):
            votes[-1][0] += case == "lower"
            votes[-1][1] += case == "title"
    whole = sum(v[0] for v in votes) > sum(v[1] for v in votes)
    decided = [v[0] > v[1] if v[0] != v[1] and max(v) >= 2 else whole for v in votes]
    return [decided[p] for p in paragraph]


def line_start_words(words: list[Token], text: str) -> list[int]:
    """Per word, the index of the first word of its line; on a line that opens with a
    chat's bracketed time stamp holding words (``[mon 18:25] miles:``, ``[lun. 19:12]``),
    the first word after the stamp, and each word inside the stamp is its own first.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "a b\\nc d\\n[mon 18:25] miles: hi"
    >>> words = [t for t in tokenize(text) if t.kind == "word"]
    >>> line_start_words(words, text)
    [0, 0, 2, 2, 4, 5, 5]
    """
    out: list[int] = []
    first = 0
    stamp_end = -1
    for i, tok in enumerate(words):
        if not i or "\n" in text[words[i - 1].end:tok.start]:
            first = i
            begin = text.rfind("\n", 0, tok.start) + 1
            stamp = _STAMP_WORDS.match(text, begin)
            stamp_end = stamp.end() if stamp is not None else -1
        if tok.end <= stamp_end:
            out.append(i)
            first = i + 1
            continue
        out.append(first)
    return out


#: A bracketed time stamp that opens a line and holds a word (``[mon 18:25]``).
_STAMP_WORDS = re.compile(rf"[ \t>\-*]*{STAMP_OPEN}\d{{1,2}}[:.h]\d\d(?::\d\d)?"
                          r"(?:[ \t]?[AaPp]\.?[Mm]\.?)?\]")


def by_a_number(word: Token, text: str) -> bool:
    """Whether a digit stands within a few characters of ``word`` (``June 5``, ``5 May``): a
    month, not a name.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "Dear May, we close on May 3"
    >>> [by_a_number(t, text) for t in tokenize(text) if t.text == "May"]
    [False, True]
    """
    return re.search(r"\d", text[max(0, word.start - 6):word.end + 6]) is not None


#: A user name of pieces joined by ``_`` or ``.`` (``hope_runs_far``, ``mark.d``) that a
#: chat's speaker label (a line's start, a time stamp before it, ``:`` after) or ``@`` shows.
_HANDLE = re.compile(rf"(?:^[ \t]*(?P<stamp>(?:{STAMP_OPEN}|\[)?\d{{1,2}}[:.h]\d\d(?::\d\d)?"
                     r"(?:[ \t]?[AaPp][Mm])?\]?[ \t]+)?"
                     r"(?P<label>[^\W\d_]+(?:[._][^\W_]+)+)[ \t]*:(?!//)|"
                     r"(?<![\w@])@(?P<at>[^\W\d_]+(?:[._][^\W_]+)+))", re.MULTILINE)


def handle_names(text: str, given: Callable[[str], bool]) -> set[str]:
    """The given names that the user names of a chat's speakers and of its ``@`` mentions
    hold (issue 40, fourteenth stage) — a label after a time stamp, or one that speaks twice
    or more (not ``grant_type: password``), and an ``@`` mention: a handle's first piece when
    ``given`` says it is a listed given name (``hope`` of ``hope_runs_far``, ``mark`` of
    ``mark.d``), else its last
    (``frank`` of ``frankly_frank``), three letters or more, in lower case.  A chat whose
    members are called by their handles' names writes them in lower case as words
    (``chase i said``, ``your title art``): such a word is a name where no determiner or
    subject makes it the ordinary word
    (:func:`~emprivacy.entities.naming.ordinary_mention`).

    >>> sorted(handle_names("06:12 hope_runs_far: hi\\n[06:13] frankly_frank: hey @mark.d\\n"
    ...                     "the_best: no\\ngrant_type: x", lambda w: w in {"hope", "frank",
    ...                                                           "mark", "grant"}))
    ['frank', 'hope', 'mark']
    """
    out: set[str] = set()
    found = list(_HANDLE.finditer(text))
    labels = Counter(m.group("label") for m in found if m.group("label"))
    for m in found:
        handle = m.group("label") or m.group("at")
        if m.group("label") and not m.group("stamp") and labels[handle] < 2:
            continue  # a key of a configuration or a form ("grant_type: password")
        pieces = [p for p in re.split(r"[._]", handle) if p.isalpha()]
        for piece in (pieces[0], pieces[-1]) if pieces else ():
            form = piece.lower()
            if len(form) >= 3 and form == piece and given(form):
                out.add(form)
                break
    return out


#: A social post's header: one to three words at a line's start, signs or emoji, then the
#: author's handle (``dale 🚲 @dalewhitfield.bsky.social · 3h``).
_DISPLAY = re.compile(r"^[ \t]*(?P<name>[^\W\d_][\w'’\-]*(?:[ \t]+[^\W\d_][\w'’\-]*){0,2})"
                      r"[^\w\n@]*@(?P<handle>[\w.\-]+)", re.MULTILINE)


def display_name_words(text: str, words: Sequence[Token]) -> list[int]:
    """The positions of the words of a post's display name that its author's handle holds,
    three letters or more (``dale`` of ``dale 🚲 @dalewhitfield.bsky.social``; issue 40, the
    twentieth English set, seen), accents aside (``Dương`` of ``Dương Minh Quân
    @quan.duong``: the twenty-first, seen), no function word among them (``love this 😍
    @lovelyplaces``): the author's name where the caller finds the word a given name or
    rare, in any case.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "dale 🚲 @dalewhitfield.bsky.social · 3h\\nthe dale path @parish"
    >>> words = [t for t in tokenize(text) if t.kind == "word"]
    >>> [words[i].text for i in display_name_words(text, words)]
    ['dale']
    """
    if "@" not in text:  # most texts: no handle, nothing to look for
        return []
    starts = {w.start: i for i, w in enumerate(words)}
    out: list[int] = []
    for m in _DISPLAY.finditer(text):
        handle = re.sub(r"[^a-z]", "", fold_to_ascii(m.group("handle").lower()))
        parts = list(re.finditer(r"[^\W\d_][\w'’\-]*", m.group("name")))
        if any(p.group().lower() in KEPT_FUNCTION_WORDS for p in parts):
            continue  # a sentence, not a name: "love this 😍 @lovelyplaces"
        for part in parts:
            i = starts.get(m.start("name") + part.start())
            if i is not None and len(part.group()) >= 3 and \
                    fold_to_ascii(part.group().lower()) in handle:
                out.append(i)
    return out


def caseless_line(text: str, at: int, cache: dict[int, bool]) -> bool:
    """Whether the line of offset ``at`` has no capital letter (``cache``: by line start)."""
    start = text.rfind("\n", 0, at) + 1
    if start not in cache:
        end = text.find("\n", at)
        cache[start] = not any(c.isupper() for c in text[start:end if end >= 0 else len(text)])
    return cache[start]


#: Words after which a lower-case word is a thing, not a person (``some fennel``).
DETERMINERS = frozenset("the a an some any my your his her our their this that these those "
                         "no more much".split())
