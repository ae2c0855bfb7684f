"""What the forty-eighth stage showed in French (issue 42), from the forty-ninth French set's
tuning half (a Cévennes village in the week of its fête votive: the comité's chat in lower
case, the registration forms and tables): a speaker's nickname after a chat's time stamp
(``[07:58] le grand :``) was released as written at every one of its 16 labels; the
particles in capitals of a family name that a model typed an organisation (``DE LA
ROUVIÈRE``) left ``DE`` released and ``LA`` an ``[ORG]``."""

from __future__ import annotations

import re


def _count(word: str, text: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE))


def test_a_french_speakers_nickname_is_protected_at_the_label(french) -> None:
    """``[07:58] le grand :``: the nickname of a chat's speaker is a name there, and only
    there (``un grand merci``); an account's label (``la mairie :``) is no one's."""
    from .french_release import release_fr

    out = release_fr("[07:58] le grand : bonjour la team, un grand merci\n"
                     "[08:00] la mairie : merci à tous\n"
                     "[08:01] le grand : à demain\n")
    assert _count("grand", out) == 1 and "un grand merci" in out, out
    assert "la mairie :" in out, out


def test_french_particles_in_capitals_before_a_family_name(french) -> None:
    """``DE LA ROUVIÈRE`` in a field or a cell, the model typing ``LA ROUVIÈRE`` an
    organisation: both particles are the person's, not ``DE`` released and ``LA`` an
    ``[ORG]``; ``DE LA`` of a sentence in capitals stays."""
    from .french_release import release_fr

    out = release_fr("Gérant : DE LA ROUVIÈRE Gaston, né le 19/07/1956 — co-gérante : "
                     "DE LA ROUVIÈRE Claire, née le 24/01/1990\n"
                     "| DE LA ROUVIÈRE Gaston | 19/07/1956 | oui |\n"
                     "IL EST DE LA VILLE.\n")
    assert _count("DE", out) == 1 and "[ORG]" not in out, out
    assert "ROUVIÈRE" not in out and "IL EST DE LA" in out, out
