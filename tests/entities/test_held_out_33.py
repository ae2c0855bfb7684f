"""What the thirty-third stage showed (issue 40): the tuning half of the thirty-third English
set (a well dressing committee's lower-case chat, a volunteer register exported as a table,
an 1897 subscription book transcribed in capitals, a weekly's round-up page)."""

from __future__ import annotations

import re

import pytest


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’]){re.escape(word)}(?![\w'’])", line) is not None


def test_a_tables_column_of_who_checked_each_row() -> None:
    """A register's ``BY`` or ``CHECKED BY`` column of initials: ``DB``, ``DH`` and ``RM``
    are people's (the model took ``GW`` alone); a ``PAID BY`` column of ``BACS`` and ``CHQ``,
    and a ``BY`` column of words, are not."""
    from emprivacy.entities.table_initials import WhoColumnDetector

    text = ("| VOL | VOLUNTEER (SURNAME, Forename) | TUE 23/06 | BY | NOTES |\n"
            "|---|---|---|---|---|\n"
            "| KW-001 | WELLS, Grace | ✓ | DB | chair |\n"
            "| KW-002 | BROOK, Dawn | ✓ | GW | secretary |\n"
            "| KW-003 | DRESSER, Mark | — | DH | designs |\n"
            "| KW-004 | LIANG, Wei | ✓ | RM | |\n\n"
            "| ITEM | PAID BY | COST |\n| clay | BACS | 12 |\n| petals | CHQ | 4 |\n"
            "| oil | CASH | 2 |\n\n"
            "| DAY | BY |\n| Mon | post |\n| Tue | hand |\n| Wed | DB |\n\n"
            "| JOB | WHO |\n| clay | ME |\n| boards | YOU |\n| petals | ALL |\n| tea | BUS |\n")
    (spans,) = WhoColumnDetector().detect([text])
    found = {text[s.start:s.end] for s in spans}
    assert {"DB", "GW", "DH", "RM"} <= found, found
    assert not {"BACS", "CHQ", "CASH", "post", "hand", "ME", "YOU", "ALL", "BUS"} & found, found
    assert sum(text[s.start:s.end] == "DB" for s in spans) == 1, spans  # not the words' table


@pytest.mark.slow
def test_initials_in_brackets_quotes_and_notes(release_auto) -> None:
    """A results page's ``(I Savchuk)`` and ``(B & A Froggatt)``: ``I``, ``A`` and ``B`` are
    initials (before, ``I`` and ``A`` were released as a pronoun and an article); a frame's
    ``"J. D. 1952"`` and a note's ``… CHILDREN. J. D."`` and ``SEE NEW BOOK. S. B.`` are
    signatures.  ``A`` of ``(A good time, I think)`` is no initial."""
    pytest.importorskip("wordfreq")
    from emprivacy.evaluation.entity_leaks import verbatim_tokens
    from emprivacy.text.tokens import tokenize

    text = ("Best Well: Kelstone (I Savchuk). Best Design: Cressop (B & A Froggatt).\n"
            'The old frame has "J. D. 1952" burnt in the top rail.\n'
            'NOTE: "PATIENCE REQUIRED WITH THE CHILDREN. J. D."\n'
            "1918. WELLS DRESSED. SEE NEW BOOK. S. B.\n")
    words = [t.text for t in tokenize(text)]
    letters = [i for i, w in enumerate(words) if len(w) == 1 and w.isupper()]
    assert len(letters) == 9, [words[i] for i in letters]
    # each initial is a surrogate's, drawn apart from it: over three seeds an initial is its
    # own letter by chance only
    same = [sum(verbatim_tokens(text, release_auto(text, seed=seed))[i] for seed in (1, 2, 3))
            for i in letters]
    assert max(same) <= 1, list(zip([words[i] for i in letters], same, strict=True))
    plain = "we had a long day (A good time, I think) and more.\n"
    assert release_auto(plain) == plain
    film = release_auto("We watched it (A Jane Austen adaptation) on Sunday.\n")
    assert "(A " in film, film


@pytest.mark.slow
def test_will_addressed_at_a_clauses_end(release_auto) -> None:
    """``lay the wheel along every line, will.`` where ``will:`` speaks in the chat: the one
    addressed, not the verb; ``we, will.`` of no chat where will speaks stays the word."""
    pytest.importorskip("wordfreq")
    chat = ("will: clay is in\ngrace: morning\nwill: boards soaking\n"
            "grace: lay the wheel along every line, will. it leaves dots\n")
    lines = release_auto(chat).splitlines()
    assert not _has("will", lines[3]), lines
    assert lines[3].endswith("it leaves dots"), lines
    plain = release_auto("We said we would and we, will. It leaves dots.\n")
    assert _has("will", plain), plain
    lines = release_auto(chat + "grace: those who can, will. it helps\n").splitlines()
    assert lines[4].endswith("those who can, will. it helps"), lines


def test_what_the_second_reading_found() -> None:
    """The stage's second reading: a quote's abbreviation is no one's initials (``"A. M."``
    time, a foundation stone's ``"A. D. 1887"``, a medal's ``"R. A. F. 1943"``), while ``"J.
    D. 1952"`` is."""
    from emprivacy.entities.initials import bare_initials

    text = ('set to "A. M." time; the stone reads "A. D. 1887"; a medal stamped "R. A. F. '
            '1943"; the frame has "J. D. 1952" burnt in it\nmade in the U. S. A.\n'
            'SEE NEW BOOK. S. B.\r\n')
    assert [text[s.start:s.end] for s in bare_initials(text)] == ["J. D.", "S. B."]


@pytest.mark.slow
def test_a_header_and_a_shop_stay_words(release_auto) -> None:
    """Once a ``BY`` column's initials are people's, the column's header ``BY`` is no one's
    (the rule that makes a column of people's cells people's read the header as a cell);
    ``B`` of ``(B & Q Warrington)`` is no initial (a town after it, no family name)."""
    pytest.importorskip("wordfreq")
    who = release_auto("| TASK | WHO |\n| clay | DB |\n| boards | GW |\n| petals | RM |\n"
                       "WHO IS ON PETALS? Who knows.\n")
    assert who.startswith("| TASK | WHO |") and who.rstrip().endswith("Who knows."), who
    table = ("| Date | Task | Done | BY |\n|------|------|------|----|\n"
             "| 3 Mar | Fridge temp check | Yes | DB |\n| 4 Mar | Fridge temp check | Yes | RM |\n"
             "| 5 Mar | Deep clean hob | No | DB |\n| 6 Mar | Empty grease trap | Yes | KT |\n")
    lines = release_auto(table).splitlines()
    assert lines[0].endswith("| BY |"), lines
    assert not any(_has("DB", line) or _has("RM", line) for line in lines[2:]), lines
    out = release_auto("Parking is at the retail park (B & Q Warrington) by the hall.\n")
    assert "(B & " in out, out


@pytest.mark.slow
def test_a_name_put_right_on_the_next_line_before_more_names(release_auto) -> None:
    """``marisa the freight us`` then ``de freitas marisa de freitas``: the next line says
    the family name, then the given name again; what was heard matches the name said first
    (``de freitas``), not the whole run.  ``the dog`` before ``dogan`` stays."""
    pytest.importorskip("wordfreq")
    text = ("[04:50] and their bandmaster marisa the freight us\n"
            "[04:57] de freitas marisa de freitas who has come up from porto\n"
            "[05:10] then we walked the dog\n[05:12] dogan smith said hello\n")
    lines = release_auto(text).splitlines()
    assert not _has("freight", lines[0]) and not _has("us", lines[0]), lines
    assert lines[2].endswith("then we walked the dog"), lines
