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
