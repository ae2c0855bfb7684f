"""What the sixteenth French set's tuning half showed (issue 42): a car-boot sale's
organisers' chat in lower case, whose time stamps hold a weekday (``[lun. 19:12] ange :``)
and whose members bear names that are French words (ange, blanche, céleste, modeste,
victoire, clément)."""

from __future__ import annotations

import pytest

from .french_release import release_fr


def test_a_speaker_after_a_time_stamp_with_a_weekday(french):
    """``[lun. 19:12] ange :``: the word after a bracketed time stamp that holds a weekday
    (``lun.``, ``mar.``) is a speaker, whatever the word, as after ``[19:12]``."""
    pytest.importorskip("wordfreq")
    out = release_fr("[lun. 19:12] ange\u00a0: oui je passe jeudi\n"
                     "[lun. 19:25] blanche\u00a0: qui a la nappe blanche ?\n"
                     "[mar. 08:05] modeste\u00a0: je viens\n")
    lines = out.splitlines()
    assert "ange" not in lines[0] and "blanche\u00a0:" not in lines[1], out
    assert "modeste" not in lines[2], out


def test_a_family_name_after_n_apostrophe_and_a_given_name(french):
    """``amadou n'diaye``: after a person's slot, ``n'`` joined to a word rare in English and
    French makes that word the person's, and the particle goes with it; ``paul n'est pas
    là`` keeps the verb.  (At ε = 10⁶ an unprotected ``diaye`` comes back as the word its
    vector is shared with, ``traoré``, and ``n'`` written in full, ``ne``.)"""
    pytest.importorskip("wordfreq")
    out = release_fr("[lun. 19:40] constance\u00a0: amadou n'diaye et paul n'est pas là\n")
    first = out.split(" et ")[0]
    assert "diaye" not in first and "n'" not in first and " ne " not in first, out
    assert out.rstrip().endswith("n'est pas là"), out


def test_a_cemeterys_name_stops_at_a_forms_column_gap(french):
    """``cimetière de Ploaré``: a cemetery is a kind before a place's name; the span ends
    at a form's column gap (``Carré :`` after eight spaces is the next field's key)."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.kinds import entity_words, widen_before
    from emprivacy.entities.spans import EntitySpan
    from emprivacy.text.language import FRENCH

    text = "Cimetière : cimetière de Ploaré        Carré : F"
    kinds = entity_words("fr")
    assert kinds is not None
    start = text.index("Ploaré")
    found = widen_before(text, [EntitySpan(start, start + 6, "LOCATION"),
                                EntitySpan(text.index("Carré"), text.index("Carré") + 5,
                                           "LOCATION")],
                         kinds, function_words=FRENCH.kept_function_words,
                         titles=FRENCH.titles)
    assert ("cimetière de Ploaré", "LOCATION") in [(text[s.start:s.end], s.type)
                                                   for s in found], found


def test_a_name_said_wrong_then_put_right_in_french(french):
    """``madame poule y quand pardon pouliquen``: a French correction (``pardon``, ``euh
    non``, ``non attends c'est``) after words alike to the name, accents aside, makes them
    the name misheard; the correction's word is no name even where a model took it in."""
    pytest.importorskip("wordfreq")
    out = release_fr("suivant rappel de famille madame poule y quand pardon pouliquen était "
                     "la fille\n")
    assert "poule" not in out and " quand " not in out and "pouliquen" not in out, out
    assert "madame " in out and out.rstrip().endswith("était la fille"), out


def test_two_spaces_in_prose_are_no_column_gap(french):
    """``3 rue  pasteur``: two spaces typed in prose keep the street's kind and its name
    together (a form's column gap is three spaces or more, or a tab)."""
    pytest.importorskip("wordfreq")
    out = release_fr("j'habite au 3 rue  pasteur depuis mai\n")
    assert "pasteur" not in out, out
