"""What the thirty-fourth stage showed (issue 40), seen: captions by speech recognition
(a brass band contest's livestream, ``tests/entities/labelled/holdout34/04-…``, and the
captions of earlier sets) that hear a name as ordinary words and put it right on the next
line, not at its start, and a letter heard between a given name and a family name."""

from __future__ import annotations

import re

import pytest


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’]){re.escape(word)}(?![\w'’])", line) is not None


def test_names_heard_wrong_and_put_right_on_the_next_line() -> None:
    """``a bean a boat eng`` above ``… and abena boateng``: the words heard take the
    names' slots (before, the next line had to start with the name); ``two tiny`` above
    ``… tiny`` is no name, one word alone (``hope`` above ``hopkins``) is never read, nor
    ``christophers in`` above ``christopher`` (the word alone reads better)."""
    from collections import Counter

    from emprivacy.preparation.decisions import Dropped, EntitySlot
    from emprivacy.preparation.put_right_below import names_put_right_below
    from emprivacy.text.tokens import tokenize

    text = ("[0:22:34] i hope the two of them a bean a boat eng\n"
            "[0:22:38] sky nwosu and abena boateng nine years old with hopkins\n")
    tokens = list(tokenize(text))
    words = [t.text for t in tokens]
    decisions: list = [None] * len(tokens)
    for word in ("nwosu", "abena", "boateng", "hopkins"):
        k = words.index(word)
        decisions[k] = EntitySlot(("PERSON", word), -1, None, independent=True)
    counted: Counter[str] = Counter()
    names_put_right_below(decisions, counted, text, tokens, function_words=frozenset(
        {"i", "the", "of", "a", "and", "with"}))
    heard = [k for k, t in enumerate(tokens) if t.start < text.index("\n")
             and decisions[k] is not None]
    assert [words[k] for k in heard] == ["a", "bean", "a", "boat", "eng"], heard
    assert all(isinstance(decisions[k], Dropped | EntitySlot) for k in heard)
    assert decisions[words.index("hope")] is None
    assert counted["PERSON"] >= 1
    for lines in ("[0:10] well done to the two tiny ones\n[0:12] tiny and tina smith\n",
                  "[0:10] all the christophers in town\n[0:12] christopher jones\n"):
        # no name; a word that reads as the name better alone than with the next one
        tokens = list(tokenize(lines))
        decisions = [None] * len(tokens)
        for k, t in enumerate(tokens):
            if t.start > lines.index("\n") and t.text in ("tina", "smith", "christopher",
                                                         "jones"):
                decisions[k] = EntitySlot(("PERSON", t.text), -1, None, independent=True)
        names_put_right_below(decisions, Counter(), lines, tokens)
        assert all(d is None for t, d in zip(tokens, decisions, strict=True)
                   if t.start < lines.index("\n")), (lines, decisions)


def test_no_name_put_right_where_the_lines_are_no_captions() -> None:
    """A line with a capital or a speaker's label is no caption: nothing is read there."""
    from collections import Counter

    from emprivacy.preparation.decisions import EntitySlot
    from emprivacy.preparation.put_right_below import names_put_right_below
    from emprivacy.text.tokens import tokenize

    for text in ("Then a bean a boat eng came\nabena boateng\n",
                 "will: a bean a boat eng\nabena boateng\n"):
        tokens = list(tokenize(text))
        decisions: list = [None] * len(tokens)
        for k, t in enumerate(tokens):
            if t.text in ("abena", "boateng") and t.start > text.index("\n"):
                decisions[k] = EntitySlot(("PERSON", t.text), -1, None, independent=True)
        names_put_right_below(decisions, Counter(), text, tokens)
        assert all(d is None for t, d in zip(tokens, decisions, strict=True)
                   if t.start < text.index("\n")), (text, decisions)


@pytest.mark.slow
def test_a_letter_heard_between_a_given_name_and_a_family_name(release_auto) -> None:
    """Captions hear an initial vowel or ``O'`` as a word of its own (``kwabena a mensah``,
    ``cormac oh flynn``): between two of a person's slots it is the name's (before, ``a``
    and ``oh`` were kept as function words); ``and`` between two names stays."""
    pytest.importorskip("wordfreq")
    text = ("[0:30:00] with kwabena a mensah on euphonium and cormac oh flynn on drums\n"
            "[0:31:00] priya and kwabena played a tune\n")
    out = release_auto(text)
    first, second = out.splitlines()
    assert not _has("a", first.split(" on euphonium")[0]), out
    assert not _has("oh", first), out
    assert _has("and", second) and second.endswith("played a tune"), out
