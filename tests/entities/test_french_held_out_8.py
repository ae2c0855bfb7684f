"""French names the eighth French held-out set's tuning half showed verbatim (issue 42): the
``N'`` of a time-stamped speaker ``pierre n'diaye``, a listed given name after ``chez`` (``je
pars de chez blanche``), and a lawyer's ``Le`` of ``Maître Pierre-Yves Le Bihan``, which the
model typed a person apart from the rest of the name."""

from __future__ import annotations

import pytest

from .french_release import release_fr


def test_a_speaker_with_an_elided_particle_after_a_time_stamp():
    pytest.importorskip("wordfreq")
    out = release_fr("[08:05] pierre n'diaye : en retard, bon\n[08:06] margot : ok\n"
                     "[18:04] pierre n'diaye : très drôle")
    assert "pierre" not in out and "diaye" not in out and "n'" not in out, out
    assert "en retard, bon" in out, out


def test_a_given_name_after_chez_is_a_name():
    pytest.importorskip("wordfreq")
    out = release_fr("je pars de chez blanche maintenant, puis chez moi et chez le médecin")
    assert "blanche" not in out, out
    assert "chez moi et chez le médecin" in out, out


def test_a_capitalised_particle_typed_apart_stays_with_the_name():
    pytest.importorskip("wordfreq")
    out = release_fr("Bien à vous.\n\nMaître Pierre-Yves Le Bihan\n")
    assert "Bihan" not in out and " Le " not in out, out
    assert out.startswith("Bien à vous.\n\nMaître "), out


def test_a_numbered_street_in_lower_case_is_one_place():
    """``12 rue des fossés``: a house number before a street's kind makes the words after it
    a street's name, common words too; so does ``des`` after it since the fourteenth French
    set (``rue des fleurs``, an address); ``la rue`` with no name after it stays words."""
    pytest.importorskip("wordfreq")
    out = release_fr("rdv devant le 12 rue des fossés\nil habite rue des fleurs\n"
                     "il traverse la rue en courant")
    assert "fossés" not in out and "rue des fossés" not in out, out
    assert "fleurs" not in out, out
    assert out.splitlines()[2] == "il traverse la rue en courant", out


def test_the_n_particle_goes_with_the_name_in_speech_and_capitals():
    """``madame blanche n'diaye``, ``monsieur n'dri``, ``AMINATA N'DIAYE`` (the held half of
    French held out 8, 30 of its 33 verbatim person tokens): ``n'`` and a rare word after a
    name found or a title are the name, whatever type a model gives the slots; ``paul n'aime
    pas`` is a negation."""
    pytest.importorskip("wordfreq")
    out = release_fr("un contrat au nom de madame blanche n'diaye c'est bien ça\n"
                     "bonne journée monsieur n'dri\n"
                     "SA MÈRE AMINATA N'DIAYE TRAVAILLE AVEC MA FEMME\n"
                     "marie n'aime pas ça")
    lines = out.lower().split("\n")
    for line in lines[:3]:  # the particle is neither kept (n') nor written in full (ne)
        assert "n'" not in line and " ne " not in f" {line} ", out
    assert len(lines[0].split()) == 11 and len(lines[1].split()) == 4, out
    assert "diaye" not in out.lower() and "dri" not in out.lower(), out
    assert lines[3] == "marie n'aime pas ça", out
