"""What the fifteenth stage's tuning half showed (issue 40): an allotment group's chat in
lower case whose members are holly, will, rusty, sage, dean…; a marriage notice's form; an
estate agent's e-mails with a Malay ``bin`` in a subject line."""

from .name_list import found as _found
from .name_list import spans as _spans


def test_a_name_joined_by_a_plus_or_an_ampersand():
    """``paths (holly + will)``: ``will``, named elsewhere, beside a name and a ``+`` or an
    ``&`` is the person, as after ``and``; ``i will bring`` stays the verb."""
    text = ("[07:23] will: i will bring the big shears\n"
            "[08:25] hazel: paths (holly + will), gate (will & dean)\n")
    spans = _spans(text)
    assert (text.index("will)"), "will") in spans, spans
    assert (text.index("will &"), "will") in spans, spans
    assert (text.index("will bring"), "will") not in spans, spans


def test_a_particle_before_the_same_name_elsewhere(release_auto):
    """``Your clients: bin Abdullah``: a particle after a field's colon, before the family
    name that follows the same particle in a person's name elsewhere, is the person's — not
    the word ``bin`` before a name nowhere joined to it."""
    out = release_auto("To: Hafiz bin Abdullah\nSubject: Your clients: bin Abdullah / "
                       "purchase\nPut the bin out, Abdullah.")
    assert ": bin " not in out, out
    assert "Put the bin out" in out, out


def test_chat_spellings_of_contractions_are_no_names(release_auto):
    """``ill pay the water bill`` (I'll, without its apostrophe) is no name, even where a
    model types ``ill mark`` a person; after one, a name's word is the verb (``ill mark out
    the path``), as after ``i'll``."""
    text = ("[07:05] bill: guilty, sorry hazel. ill pay the water bill. and ill mark out the "
            "path edges\n[07:06] mark: thanks bill, dont mark the gate\n")
    spans = _spans(text)
    assert (text.index("mark out"), "mark") not in spans, spans
    assert (text.index("mark the"), "mark") not in spans, spans
    assert (text.index("mark:"), "mark") in spans, spans
    out = release_auto(text)
    assert out.count(" ill ") == 2, out


def test_a_form_key_after_a_name_field_value_is_no_name():
    """``Surname: O'DONOGHUE Given names: Aoife`` (two fields on a line, one space apart) and
    ``Surname / Given names:``: ``Given`` starts the next key, it is no name."""
    text = ("Witness 1 – Surname: O'DONOGHUE Given names: Aoife Máire\n"
            "Father – Surname / Given names: NAKAMURA / Hiroshi\n"
            "Registrar taking notice: August Fenwick (Superintendent Registrar)\n")
    found = _found(text)
    assert "Given" not in found and "Registrar" not in found, found
    assert {"O'DONOGHUE", "Aoife", "NAKAMURA", "Hiroshi", "Fenwick"} <= set(found), found
