"""French names and places that the thirteenth French held-out set's stage protects
(issue 42), and what the twelfth set's held half showed after it was looked at (seen): an
organisation's kind in lower case, its linking word and a rare name (``maison de santé des
capucins``)."""

from __future__ import annotations

import pytest

from .french_release import release_fr


def test_a_rare_name_after_an_organisations_kind_and_its_linking_word():
    """Seen (the twelfth set's switchboard): the kind, ``des`` and a rare word (Zipf below
    3.5) are one organisation; a common word after ``des`` is not a name."""
    pytest.importorskip("wordfreq")
    out = release_fr("je vous appelle de la maison de santé des capucins pour un rdv\n"
                     "il attend au service des urgences depuis ce matin")
    first, second = out.splitlines()
    assert "capucins" not in first and "santé" not in first, out
    assert first.startswith("je vous appelle de la ") and first.endswith(" pour un rdv"), out
    assert second == "il attend au service des urgences depuis ce matin", out


def test_a_chats_speakers_handles_and_a_given_name_beside_a_rare_family_name():
    """A speaker's label of a common word beside a rare one is a name (``aimé kouassi``; not
    ``équipe technique``), and so is every mention of it; a handle's pieces (``claire_dlr``,
    ``franck.ben.salah``) name the words they hold."""
    pytest.importorskip("wordfreq")
    out = release_fr("[06:52] jade: aimé est le bienvenu\n"
                     "[06:53] aimé kouassi: bonjour à tous\n"
                     "[06:54] franck.ben.salah: j'arrive, claire tu peux attendre ?\n"
                     "[06:55] claire_dlr: franck 5 min pas une de plus\n"
                     "[06:56] équipe technique: coupure à 9h\n")
    for word in ("aimé", "kouassi", "franck", "ben", "salah", "claire"):
        assert word not in out, (word, out)
    assert "équipe technique: coupure" in out, out


def test_particles_after_m_and_after_initials():
    """``m. du plessis`` (``m`` with its full stop is a title) and ``A.-S. Le Floc'h`` of a
    form's signature: the particle and the family name are the person's."""
    pytest.importorskip("wordfreq")
    out = release_fr("[06:59] jade: et à m. du plessis qui a signé sans rien dire\n"
                     "Signature : A.-S. Le Floc'h\n")
    assert "plessis" not in out and " du " not in out, out
    assert " Le " not in out and "Floc'h" not in out, out
    out = release_fr("rendez-vous à 3 p.m. demain, 10 euros le m. carré, chat, n. m. animal")
    assert "p.m. demain" in out and "le m. carré" in out and "n. m. animal" in out, out


def test_a_lower_case_particle_in_a_persons_span_is_drawn_independently():
    """``ben`` of ``Karim ben Amar``: a slot drawn independently of the word (ε = 0), never
    from ``ben``'s own vector, which gave ``ben`` back one time in three."""
    from collections import Counter

    from emprivacy.preparation.decisions import EntitySlot
    from emprivacy.preparation.particles import lower_case_particles
    from emprivacy.text.tokens import tokenize

    text = "par Karim ben Amar jusqu'au retour"
    tokens = [t for t in tokenize(text, lang="fr")]
    words = [t.text.lower() for t in tokens]
    decisions = [None, EntitySlot(("PERSON", "karim"), 3), EntitySlot(("PERSON", "ben"), 7),
                 EntitySlot(("PERSON", "amar"), 9)] + [None] * (len(tokens) - 4)
    lower_case_particles(None, decisions, Counter(), text, tokens, words)
    assert decisions[2] == EntitySlot(("PERSON", "ben"), -1, None, independent=True)
    assert decisions[1].row == 3 and decisions[3].row == 9


def test_seen_a_given_name_in_capitals_and_a_colleagues_unlisted_name():
    """Seen (the held half): ``NOTRE ÉQUIPIER ALAIN QUÉRÉ`` of a log in capitals (a given name
    no census list holds, before a person's slot) and ``son collègue fabrice`` (a word rarer
    than Zipf 4.0 after a possessive and a relation)."""
    pytest.importorskip("wordfreq")
    out = release_fr("09 H 05 – LOUISE : COMITÉ, ICI MARGUERITE. NOTRE ÉQUIPIER ALAIN QUÉRÉ "
                     "S'EST COUPÉ LA MAIN.\nil appelle pour son collègue fabrice de l'usine, "
                     "il dit fabrice quarante ans, et mon ami fidèle aussi")
    assert "ALAIN" not in out and "QUÉRÉ" not in out and "fabrice" not in out, out
    assert out.endswith("et mon ami fidèle aussi"), out
