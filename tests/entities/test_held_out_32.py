"""What the thirty-second stage showed (issue 40, issue 42): the tuning half of the
thirty-second English set (a sheepdog trials society's lower-case committee chat, a trial's
running order exported as a table, a 1927 shepherds' guide transcribed in capitals, a farming
weekly's shows-and-sales page) and of the thirty-first French set (a maple-syrup festival
committee's lower-case chat, a syrup contest's score sheet)."""

from __future__ import annotations

import re

import pytest

from .french_release import release_fr


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’]){re.escape(word)}(?![\w'’])", line) is not None


@pytest.mark.slow
def test_a_list_of_results_by_initials_and_family_name(release_auto) -> None:
    """``1 D Rich; 2 R & M Shepherd; 3 A Fell`` released ``Fell`` and ``Little`` as words
    and the initials ``A`` and ``I`` as articles and pronouns: on a list of results (two
    entries after a place's number or more), an entry's initials and family name are a
    person's, ``A`` and ``I`` after the number too.  ``Room 5 A Block`` is no entry, and
    ``A`` of a contents page's ``1 A Bird in the Hand`` no initial (no list of people)."""
    pytest.importorskip("wordfreq")
    text = ("Results: 1 D Rich; 2 R & M Shepherd; 3 A Fell. Juniors: 1 O Adeyemi;"
            " 2 A Sandhu; 3 G Little. Open: 9 A Kerr (Kelderby), Cap, 80; 10 I Qureshi, 79.\n")
    out = release_auto(text)
    for word in ("Fell", "Little", "Rich", "Shepherd", "Kerr", "Qureshi", "Sandhu"):
        assert not _has(word, out), (word, out)
    assert "Results:" in out and "Juniors:" in out, out
    from emprivacy.evaluation.entity_leaks import verbatim_tokens
    from emprivacy.text.tokens import tokenize

    # "A" and "I" after a number are initials, each a surrogate's drawn apart from it: over
    # three seeds such an initial is its own letter by chance only
    words = [t.text for t in tokenize(text)]
    initials = [i for i, w in enumerate(words) if w in ("A", "I") and words[i - 1].isdigit()]
    assert len(initials) == 4
    same = [sum(verbatim_tokens(text, release_auto(text, seed=seed))[i] for seed in (1, 2, 3))
            for i in initials]
    assert max(same) <= 1, same
    dated = release_auto("On 12 March 2021 I Margaret Thompson attended; 9:30 A Welcome\n")
    assert " I " in dated and " A Welcome" in dated, dated  # a date's year, a time: no place
    chapters = release_auto("Chapters: 1 A Bird in the Hand; 2 I Rich Man; 3 A Young Country\n")
    assert chapters.startswith("Chapters: [NUM] A ") and "; [NUM] I " in chapters, chapters
    plain = "Meet at Room 5 A Block, then Room 6 B Block; Plan B Options are open.\n"
    assert release_auto(plain).replace("[NUM]", "#") == re.sub(r"\d+", "#", plain)


@pytest.mark.slow
def test_a_speakers_first_line_giving_a_common_family_name(release_auto) -> None:
    """``heather: heather young, treasurer.``, ``art: art fell, course.``, ``glen: glen
    little, young handler`` released the family names: too common a word (``young``,
    ``fell``, ``little``).  In a round of introductions (three speakers or more), a family name
    of the language's list that a speaker gives in their first line, before a comma and a
    word that is no kept function word, is one; ``bill: bill paid, thanks`` (``paid``: on no
    list), a later line, two casual replies (``rose: rose early, sorry``, ``mark: mark down,
    boss``) and French ``jean : jean vient, promis`` (``vient``: on no French list) are
    not."""
    pytest.importorskip("wordfreq")
    text = ("heather: heather young, treasurer. all entries paid\n"
            "art: art fell, course. i'll strim a line\n"
            "bill: bill paid, thanks\nglen: glen little, young handler\ndana: fine\nrick: yes\n")
    lines = release_auto(text).splitlines()
    assert not _has("young", lines[0]) and not _has("fell", lines[1]), lines
    assert not _has("little", lines[3]), lines
    assert lines[0].endswith("treasurer. all entries paid"), lines
    assert lines[2].endswith(" paid, thanks"), lines
    later = release_auto("mark: ok\nart: ok\nart: art fell, course\nglen: glen little, judge\n"
                         "bob: ok\nrose: ok\n").splitlines()
    assert _has("fell", later[2]) and _has("little", later[3]), later
    fr = release_fr("pierre : pierre paradis, cabane à sucre. trois voyages\n"
                    "jean : jean vient, promis\n"
                    "rose : rose tard, désolée\nmarie : oui\njulie : non\nluc : d'accord\n"
                    ).splitlines()
    assert fr[1].endswith(" vient, promis"), fr
    assert fr[2].endswith(" tard, désolée"), fr
    two = release_auto("rose: rose early, sorry\nanne: ok\nmark: mark down, boss\nbob: ok\n"
                       "rose: ok\ndana: yes\n").splitlines()
    assert two[0].endswith(" early, sorry") and two[2].endswith(" down, boss"), two
