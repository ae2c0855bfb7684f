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
                  "[0:10] all the christophers in town\n[0:12] christopher jones\n",
                  "[0:01] there's a man at the door\n[0:03] aman patel let him in\n",
                  "[0:01] he's a new man since the holiday\n[0:03] paul newman agrees\n",
                  "[0:01] get the whole band on the stage now\n[0:03] tina brandon is ready\n"):
        # no name; a word that reads as the name better alone than with the next one;
        # words inside the line, which ordinary speech says before a name (the review's)
        tokens = list(tokenize(lines))
        decisions = [None] * len(tokens)
        for k, t in enumerate(tokens):
            if t.start > lines.index("\n") and t.text in (
                    "tina", "smith", "christopher", "jones", "aman", "patel", "paul",
                    "newman", "brandon"):
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
    and ``oh`` were kept as function words); ``and`` between two names stays, and so does
    ``oh`` between one name said twice or before a given name put right."""
    pytest.importorskip("wordfreq")
    text = ("[0:30:00] with kwabena a mensah on euphonium and cormac oh flynn on drums\n"
            "[0:31:00] priya and kwabena played a tune\n")
    out = release_auto(text)
    first, second = out.splitlines()
    assert not _has("a", first.split(" on euphonium")[0]), out
    assert not _has("oh", first), out
    assert _has("and", second) and second.endswith("played a tune"), out
    # the review's: one name said twice, a name put right (a given name after "oh")
    out = release_auto("[0:40] grace oh grace where are you\n[0:41] sorry anna oh hannah i mean\n")
    assert all(_has("oh", line) for line in out.splitlines()), out


@pytest.mark.slow
def test_french_a_between_two_names_is_the_verb(french) -> None:
    """``marie a jules comme binôme``: French ``a`` is *has*, never a name's letter."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("marie a jules comme binôme\n")
    assert _has("a", out) and out.rstrip().endswith("comme binôme"), out


def test_a_name_heard_wrong_right_before_it_is_said_right() -> None:
    """``i'm sam ear had dad samir haddad``: the words right before the name's slots on one
    caption line, slots of their own or not, take the name's slot; ``prudence tu`` before
    ``prudence martin`` is the name and a word (the word alone reads better)."""
    from collections import Counter

    from emprivacy.preparation.decisions import EntitySlot
    from emprivacy.preparation.put_right_below import names_put_right_below
    from emprivacy.text.tokens import tokenize

    text = ("[0:00:21] i'm sam ear had dad samir haddad and it's my first time\n"
            "[0:00:30] prudence tu prudence martin yes\n")
    tokens = list(tokenize(text))
    words = [t.text for t in tokens]
    decisions: list = [None] * len(tokens)
    for k, word in enumerate(words):
        if word in ("sam", "samir", "haddad", "martin") or (
                word == "prudence" and words[k + 1] == "martin"):
            decisions[k] = EntitySlot(("PERSON", word), -1, None, independent=True)
    names_put_right_below(decisions, Counter(), text, tokens)
    assert all(decisions[words.index(w)] is not None for w in ("ear", "had", "dad")), decisions
    assert decisions[words.index("tu")] is None and decisions[words.index("prudence")] is None


def test_words_heard_for_a_name_are_counted_once() -> None:
    """The words heard take one person's slot: a slot of their own (``sam``, ``ear``) is no
    longer counted, so the record's count of people is one for the name heard."""
    from collections import Counter

    from emprivacy.preparation.decisions import EntitySlot
    from emprivacy.preparation.put_right_below import names_put_right_below
    from emprivacy.text.tokens import tokenize

    text = "[0:00:21] i'm sam ear had dad samir haddad\n[0:00:30] lovely\n"
    tokens = list(tokenize(text))
    decisions: list = [None] * len(tokens)
    counted: Counter[str] = Counter()
    for k, t in enumerate(tokens):
        if t.text in ("sam", "ear", "samir", "haddad"):
            decisions[k] = EntitySlot(("PERSON", t.text), -1, None, independent=True)
            counted["PERSON"] += 1
    names_put_right_below(decisions, counted, text, tokens)
    assert [t.text for t, d in zip(tokens, decisions, strict=True) if d is not None] == [
        "sam", "ear", "had", "dad", "samir", "haddad"]
    assert counted["PERSON"] == 3, counted  # samir, haddad, and the name heard once
