"""A paragraph's case, not the whole text's (``entities.text_shape``; issue 40, sixth stage):
a forum or ticket thread in ordinary case with one user's messages in lower case."""

from __future__ import annotations

import pytest

pytest.importorskip("wordfreq")
pytest.importorskip("names")

THREAD = ("--- Kevin Morales (agent) wrote:\nHi there. Sorry about that. Can you hold the power "
          "button? If it still fails, try again. Then call us.\n\n"
          "--- user wrote:\ntried. still blue. dee says no loaners left, priya from legal "
          "took the last one. ty both\n\n"
          "--- Kevin Morales (agent) wrote:\nOk. Escalating now. Thanks.")


def found(text: str) -> list[str]:
    from emprivacy.entities.names import NameListDetector

    return [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]


def test_lower_case_names_in_a_lower_case_message_of_a_thread_are_names():
    """Before: the thread's sentences mostly start with a capital, so no lower-case word of
    it could be a name (``dee``, ``priya`` were released at the general ε)."""
    got = found(THREAD)
    assert "dee" in got and "priya" in got, got
    assert not {"tried", "still", "blue", "says", "legal", "took", "last"} & set(got), got


def test_a_greeting_is_no_name_without_a_label():
    """``ty both`` is thanks (``Ty`` is a listed given name); ``ty:`` at a line's start is a
    speaker."""
    assert "ty" not in found(THREAD)
    assert "ty" in found("[10:01] ty: on my way\n[10:02] sam: ok")


def test_a_paragraph_in_capitals_takes_the_whole_text_s_case():
    from emprivacy.entities.text_shape import lower_case_words, word_case
    from emprivacy.text.tokens import tokenize

    text = "ok so. we met grace there.\n\nNAME: GRACE OKAFOR\n\nyes. she came"
    words = [t for t in tokenize(text) if t.kind == "word"]
    lower = lower_case_words(words, [word_case(t.text) for t in words], text)
    assert all(lower), [(w.text, x) for w, x in zip(words, lower, strict=True)]
    text = "We met Grace there. It went well.\n\nNAME: GRACE OKAFOR\n\nok. she came"
    words = [t for t in tokenize(text) if t.kind == "word"]
    lower = lower_case_words(words, [word_case(t.text) for t in words], text)
    by_word = dict(zip((w.text for w in words), lower, strict=False))
    assert not by_word["We"] and not by_word["OKAFOR"] and by_word["she"]


def test_fields_side_by_side_on_a_form_line_each_have_their_key():
    """``CONTACT: RAJ MISTRY`` after ``ACCOUNTANT: …`` on the same line: the key was taken
    from the line's first colon (``ACCOUNTANT``), so ``RAJ``, a common word on the census
    list, was released at the general ε (issue 40, sixth stage)."""
    text = ("ACCOUNTANT: MOSS & LAIDLAW    CONTACT: RAJ MISTRY\n"
            "EMPLOYER: NORTHGATE STORES\tREFEREE: BILL OKOYE\nNOTES: SEE FILE")
    got = found(text)
    assert {"RAJ", "MISTRY", "BILL", "OKOYE"} <= set(got), got
    assert not {"NORTHGATE", "STORES", "SEE", "FILE", "NOTES"} & set(got), got


def test_one_lower_case_sentence_does_not_flip_a_paragraph():
    """A list's item (``- grace period ends``) or a keywords line in a formal e-mail is one
    sentence in lower case: the text's case decides."""
    text = ("Dear Ms Okafor,\n\nPlease find the terms below. They apply from today.\n\n"
            "- grace period ends on the 5th\n\nkeywords: ruby, amber, crystal\n\nKind regards")
    got = found(text)
    assert not {"grace", "ruby", "amber", "crystal"} & set(got), got


def test_a_field_s_value_ends_at_the_gap_before_the_next_field():
    got = found("Patient: Dana Adeyemi  Seen at: Clinic 4\nReferrer:\tJo Bloggs")
    assert {"Dana", "Adeyemi", "Jo", "Bloggs"} <= set(got) and "Seen" not in got, got


def test_a_listed_name_that_is_a_greeting_is_a_name_with_a_capital():
    """``Ty`` is thanks in ``ty both``, a person in ``Ty Wilson`` (review of this stage)."""
    got = found("Ty Wilson called about the boiler.\nTo: Ty Wilson")
    assert got.count("Ty") == 2 and got.count("Wilson") == 2, got
