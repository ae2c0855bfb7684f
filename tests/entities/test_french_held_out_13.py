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
