"""Names that captions heard wrong at the end of one line and put right anywhere on the next
(``that's sky no sue and a bean a boat eng`` then ``sky nwosu n w o s u and abena boateng``),
or right after (``i'm sam ear had dad samir haddad``):
the words heard are those names, one person with one surrogate.  A pass over the decisions of
:func:`~emprivacy.preparation.entity_slots.entity_decisions`, after the corrections'
(:func:`~emprivacy.preparation.corrections.corrected_next_line` reads a name only where the
next line starts with it; issue 40, stage 34, seen: the thirty-fourth English set's captions).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from emprivacy.preparation.corrections import give_run, person_slot, plain_form
from emprivacy.preparation.decisions import Decision, EntitySlot
from emprivacy.text.tokens import Token

__all__ = ["BEFORE_ALIKE", "BELOW_ALIKE", "names_put_right_below"]

#: How alike (:class:`difflib.SequenceMatcher`'s ratio, accents and apostrophes aside) the
#: words heard and a name of the next line are when they are that name (``sky no sue`` and
#: ``sky nwosu``: 0.88, ``no sue`` and ``nwosu`` alone 0.80; ``a bean a boat eng`` and
#: ``abena boateng``: 0.96).
BELOW_ALIKE = 0.75
#: The same right before the name on one line, where the words heard may be slots of their
#: own (``sam ear had dad`` and ``samir haddad``: 0.87; not ``prudence tu`` before
#: ``prudence martin``, 0.75).
BEFORE_ALIKE = 0.8
#: The most words of a name matched (``abena boateng``; a run of many names is many people).
_NAME_WORDS = 3
#: The most words heard for one name, and the fewest letters of a name matched.
_MOST_HEARD = 5
_LEAST_LETTERS = 4
#: A caption's line: a time stamp, if any, then its words (no speaker's label).
_LINE = re.compile(r"^[ \t]*(?:\[[\d:.]+\][ \t]*)?(?P<words>[^\n]*)$", re.MULTILINE)
#: A speaker's label at a line's start (``sky: hi``, ``speaker 1:``).
_SPEAKER = re.compile(r"[^\W\d_][\w.' -]{0,30}:")


def names_put_right_below(decisions: list[Decision], counted: Counter[str], text: str,
                          tokens: Sequence[Token], *,
                          function_words: frozenset[str] = frozenset()) -> None:
    """Give the words that end a caption's line and read as a name of the next line that
    name's slot:

    * both lines are in lower case (a capital on either, or a speaker's label on the first,
      and they are no captions);
    * the next line's names are its runs of one to :data:`_NAME_WORDS` of a person's slots
      one space apart (``abena boateng``, and each of their words alone), of
      :data:`_LEAST_LETTERS` letters or more;
    * the words heard are the last two to :data:`_MOST_HEARD` words of the line above (then
      those right before them, for the next line's other names), one space apart,
      undecided but the last, which may be a person's slot of its own, the first no
      function word but a letter (``a`` of ``a bean a boat eng``); one word alone
      is never read (a common word, ``hope`` above ``hopkins``, would take the name's slot
      at its every mention), nor words inside the line (``he's a new man since the
      holiday`` above ``paul newman agrees``: words ordinary speech says before a name);
    * run together they start with the name's letter and read as it
      (:data:`BELOW_ALIKE`), better than without their first or their last word (not
      ``marguerites pour`` above ``marguerite``), the most alike first (the longest of
      equals).

    On one caption line too, the two to five words right before a person's slots (one space
    between) that read as the name those slots start (:data:`BEFORE_ALIKE`: ``i'm sam ear
    had dad samir haddad``; its words may be slots of their own, one undecided at least).

    As a correction's (:func:`~emprivacy.preparation.corrections.corrected_names`), the words
    but the last become :class:`~emprivacy.preparation.decisions.Dropped` and the last takes
    the slot of the name's first word.  Not ``the sousa`` above ``d'souza`` (a function word
    first, another first letter).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "[0:22:34] two tiny cornets a bean a boat eng\\n[0:22:38] and abena boateng"
    >>> tokens = list(tokenize(text))
    >>> decisions = [None] * len(tokens)
    >>> for k in (len(tokens) - 2, len(tokens) - 1):
    ...     decisions[k] = EntitySlot(("PERSON", tokens[k].text), -1, None, independent=True)
    >>> names_put_right_below(decisions, Counter(), text, tokens)
    >>> [(t.text, type(d).__name__) for t, d in zip(tokens, decisions) if d is not None]
    [('a', 'Dropped'), ('bean', 'Dropped'), ('a', 'EntitySlot'), ('boat', 'Dropped'), \
('eng', 'EntitySlot'), ('abena', 'EntitySlot'), ('boateng', 'EntitySlot')]
    """
    if "\n" not in text or not any(person_slot(d) for d in decisions):
        return  # no name on any line to read the words heard as
    lines = [m.span("words") for m in _LINE.finditer(text)]
    starts = [t.start for t in tokens]
    spans: list[tuple[int, int]] = []  # each line's tokens
    k = 0
    for start, end in lines:
        while k < len(tokens) and starts[k] < start:
            k += 1
        first = k
        while k < len(tokens) and tokens[k].end <= end:
            k += 1
        spans.append((first, k))
    captions = [_caption(text, tokens, first, end) for first, end in spans]
    for (above, above_end), (below, below_end), (start, end), caption in zip(
            spans, spans[1:], lines[1:], captions, strict=False):
        if text[start:end] != text[start:end].lower() or not caption:
            continue
        names = _names(decisions, text, tokens, below, below_end)
        if not names:
            continue
        last = above_end - 1  # the line's last words, then those before them
        while last > above and names:
            found = _heard(decisions, text, tokens, max(above, last + 1 - _MOST_HEARD),
                           last + 1, names, function_words, last=last, slots_inside=False)
            if not found:
                break
            run, name, slot = found[0]
            give_run(decisions, counted, run, slot)
            names = [n for n in names if n[0] != name]
            last = run[0] - 1
            if text[tokens[last].end:tokens[run[0]].start] != " ":
                break
    for (first, end), caption in zip(spans, captions, strict=True):
        if not caption:  # "i'm sam ear had dad samir haddad": right before the name
            continue
        k = first
        while k < end:
            j = k
            while (j < end and person_slot(decisions[j]) and tokens[j].kind == "word"
                   and (j == k or text[tokens[j - 1].end:tokens[j].start] == " ")):
                j += 1
            if j == k:
                k += 1
                continue
            names = [(name, slot) for name, slot in _names(decisions, text, tokens, k, j)
                     if slot is decisions[k]]  # the name's words from its first
            if k > first and text[tokens[k - 1].end:tokens[k].start] == " " and names:
                heard = _heard(decisions, text, tokens, max(first, k - _MOST_HEARD), k, names,
                               function_words, last=k - 1, slots_inside=True)
                for run, _name, slot in heard:
                    give_run(decisions, counted, run, slot)
            k = j


def _caption(text: str, tokens: Sequence[Token], first: int, end: int) -> bool:
    """Whether tokens ``first`` to ``end`` are a caption's words: in lower case, no
    speaker's label (``sky: hi``)."""
    if first >= end:
        return False
    line = text[tokens[first].start:tokens[end - 1].end]
    return line == line.lower() and _SPEAKER.match(line) is None


def _names(decisions: Sequence[Decision], text: str, tokens: Sequence[Token], first: int,
           end: int) -> list[tuple[str, EntitySlot]]:
    """The names of a line: its runs of a person's slots in lower case one space apart, and
    each of their words, plain, of :data:`_LEAST_LETTERS` letters or more, with the slot of
    the run's first word."""
    out: dict[str, EntitySlot] = {}
    k = first
    while k < end:
        if not person_slot(decisions[k]) or tokens[k].kind != "word":
            k += 1
            continue
        j = k
        while (j + 1 < end and person_slot(decisions[j + 1]) and tokens[j + 1].kind == "word"
               and text[tokens[j].end:tokens[j + 1].start] == " "):
            j += 1
        for a in range(k, j + 1):
            for b in range(a, min(j, a + _NAME_WORDS - 1) + 1):
                name = plain_form("".join(t.text for t in tokens[a:b + 1]))
                if len(name) >= _LEAST_LETTERS and name.isalpha():
                    out.setdefault(name, decisions[a])  # type: ignore[arg-type]
        k = j + 1
    return list(out.items())


def _heard(decisions: Sequence[Decision], text: str, tokens: Sequence[Token], first: int,
           end: int, names: list[tuple[str, EntitySlot]],
           function_words: frozenset[str], *, last: int,
           slots_inside: bool) -> list[tuple[list[int], str, EntitySlot]]:
    """The runs of tokens ``first`` to ``end`` that end at ``last`` and read as one of
    ``names``, the most alike first, no two sharing a word or a name; their words
    undecided, or with ``slots_inside`` a person's slots too (one undecided at least), else
    only the last."""
    tried: list[tuple[float, int, list[int], str, EntitySlot]] = []
    for a in range(first, end):
        if tokens[a].text in function_words and len(tokens[a].text) > 1:
            continue  # "all day"; but "a" of "a bean a boat eng" for "abena boateng"
        for b in range(a, min(end, a + _MOST_HEARD)):
            tok = tokens[b]
            if not ((decisions[b] is None or ((b > a or slots_inside)
                                              and person_slot(decisions[b])))
                    and tok.kind == "word" and tok.text.isalpha() and tok.text.islower()
                    and (b == a or text[tokens[b - 1].end:tok.start] == " ")):
                break
            if text[tok.end:tok.end + 1] == ":":
                break  # a speaker's label
            if b == a or b != last or all(decisions[r] is not None for r in range(a, b + 1)):
                continue  # one word alone spreads to the word's every mention ("hope");
                # right before the name, slots may be heard too, one word at least undecided
            heard = plain_form("".join(t.text for t in tokens[a:b + 1]))
            for name, slot in names:
                if heard[:1] != name[:1]:
                    continue
                ratio = SequenceMatcher(None, heard, name).ratio()
                if ratio >= (BEFORE_ALIKE if slots_inside else BELOW_ALIKE) and ratio > max(
                        SequenceMatcher(None, plain_form(part), name).ratio()
                        for part in (text[tokens[a + 1].start:tok.end].replace(" ", ""),
                                     text[tokens[a].start:tokens[b - 1].end].replace(" ", ""))):
                    # each word counts: not "marguerites pour" for "marguerite"
                    tried.append((ratio, b - a, list(range(a, b + 1)), name, slot))
            if decisions[b] is not None and not slots_inside:
                break  # a person's slot ends the run ("sue" of "sky no sue")
    tried.sort(key=lambda t: (-t[0], -t[1]))
    taken: set[int] = set()
    done: set[str] = set()
    out = []
    for _, _, run, name, slot in tried:
        if name in done or taken.intersection(run):
            continue
        taken.update(run)
        done.add(name)
        out.append((run, name, slot))
    return out

