"""``will`` and ``may`` as people (issue 40, sixth stage): a kept function word needs
evidence at each mention, so ``jack and will tank`` and ``job for will`` released the
chat's Will verbatim although ``will:`` named him as a speaker."""

from __future__ import annotations

import pytest

pytest.importorskip("wordfreq")
pytest.importorskip("names")


def found(text: str) -> list[tuple[int, str]]:
    from emprivacy.entities.names import NameListDetector

    return [(s.start, text[s.start:s.end]) for s in NameListDetector().detect([text])[0]]


def test_a_named_will_beside_names_or_after_for_is_the_person():
    text = ("[19:02] will: raid still on?\n"
            "[19:13] mark: roster: jack and will tank, will, rose and mark heal\n"
            "[19:20] hope: job for will. i will check, it will be fine")
    got = found(text)
    starts = {s for s, w in got if w == "will"}
    for where in (text.index("will:"), text.index("and will") + 4, text.index("tank, will") + 6,
                  text.index("for will") + 4):
        assert where in starts, (where, got)
    for where in (text.index("i will") + 2, text.index("it will") + 3):
        assert where not in starts, (where, got)


def test_a_will_no_evidence_names_stays_a_verb():
    text = "[19:13] mark: jack and will tank tonight\n[19:14] jack: job for will power"
    assert "will" not in [w for _, w in found(text)]


def test_the_month_and_the_modal_stay_words():
    """A named ``May`` is not the month in ``from May 3``; a sentence's end between
    ``will`` and a name counts for nothing (``i will. and rose``).  Known and kept (privacy
    first): where a Will is named, ``dana and will call back`` names the modal too."""
    text = "[09:00] may: hi all\n[09:01] dana: we are closed from may 3 to may 9, ask may"
    got = found(text)
    assert [w for _, w in got].count("may") == 2, got  # the label and "ask may"
    text = "[09:00] will: hi\n[09:02] jo: she phoned dana and will call back. i will. and rose"
    starts = {s for s, w in found(text) if w == "will"}
    assert starts == {text.index("will:"), text.index("and will") + 4}, found(text)
