"""A form's keys are no names (issue 40, eighth held-out set, its tuning half): a model typed
``Allergies:``, ``Diet:``, ``Date of birth:`` and ``Walks (Meanwood Park):`` as people,
places and organisations, ran a name into the next line's key (``Zee\\nDate``) or across a
column gap into the next designator (``Dr Imran Qureshi<tab>Practice:``), and each key then
became a name at every mention."""

import pytest

from emprivacy.entities.spans import EntitySpan, drop_field_keys, split_at_gaps

FORM = ("Known as:  Zee\nDate of birth:  17 May 2021\nAllergies:  Peanut\n"
        "Sun cream:  Yes\tWalks (Meanwood Park):  Yes\nNOT authorised:  Kyle Whitfield\n"
        "Employer:  Leeds Teaching Hospitals NHS Trust\tOccupation:  Anaesthetist\n"
        "[09:13] grace: hi all\nMS. ADEYEMI: Objection.\n")


def _at(word: str, kind: str = "PERSON", nth: int = 0) -> EntitySpan:
    start = -1
    for _ in range(nth + 1):
        start = FORM.index(word, start + 1)
    return EntitySpan(start, start + len(word), kind)


def test_spans_are_cut_at_line_breaks_and_brackets_and_a_key_colon_goes():
    spans = [EntitySpan(FORM.index("Zee"), FORM.index("Date") + 4, "ORG"),
             EntitySpan(FORM.index("Walks"), FORM.index("Park") + 4, "ORG")]
    got = [FORM[s.start:s.end] for s in split_at_gaps(FORM, spans)]
    assert got == ["Zee", "Date", "Walks", "Meanwood Park"], got


def test_ordinary_words_in_a_key_are_dropped_names_and_values_stay():
    spans = [_at("Date", "ORG"), _at("Allergies"), _at("Walks", "ORG"),
             _at("authorised"), _at("Leeds Teaching Hospitals NHS Trust", "ORG"),
             _at("grace"), _at("ADEYEMI"), _at("Zee"), _at("Peanut")]
    names = {"grace", "adeyemi", "zee"}
    kept = [FORM[s.start:s.end] for s in drop_field_keys(FORM, spans,
                                                         ordinary=lambda w: w not in names)]
    assert kept == ["Leeds Teaching Hospitals NHS Trust", "grace", "ADEYEMI", "Zee", "Peanut"]


def test_a_tab_keeps_a_name_from_the_next_key_designator():
    from emprivacy.entities.designators import widen_spans

    text = "GP:  Dr Imran Qureshi\tPractice:  Meanwood Group Practice"
    spans = [EntitySpan(text.index("Imran"), text.index("Qureshi") + 7, "PERSON")]
    assert all(text[s.start:s.end] != "Imran Qureshi\tPractice"
               and "\t" not in text[s.start:s.end] for s in widen_spans(text, spans))


def test_the_release_keeps_a_forms_keys_and_weekdays(release_auto):
    """Weekdays whole: their abbreviations may be names (``Officer Thu Trang Pham``)."""
    pytest.importorskip("wordfreq")
    text = ("First name:  Zainab\tKnown as:  Zee\nDate of birth:  17 May 2021\n"
            "Sessions:  Monday, Tuesday 08:00\nLanguages:  English, Sylheti\nDiet:  Halal\n"
            "Allergies:  Peanut\nAuthorised:  Farah Rahman\n")
    out = release_auto(text)
    for key in ("Date of birth:", "Sessions:  Monday, Tuesday", "Diet:", "Allergies:",
                "Authorised:"):
        assert key in out, (key, out)
    assert "Zainab" not in out and "Farah Rahman" not in out, out


def test_a_weekdays_abbreviation_after_a_title_is_a_name(release_auto):
    out = release_auto("The County calls Officer Thu Trang Pham.")
    assert "Thu" not in out and "Pham" not in out, out
