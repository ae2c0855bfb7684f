"""What the nineteenth French set's tuning half showed (issue 42): a village festival's
volunteers' chat in lower case, with no time stamps, whose members bear names that are
French words and write once (``fidèle: fidèle au poste``, ``léger: très drôle``)."""

from __future__ import annotations

import pytest

from .french_release import release_fr

CHAT = ("violette: coucou tout le monde\n"
        "marc: reçu, la buvette ouvre à 18h\n"
        "florent: moi. et le marc de café ?\n"
        "marc: dans le composteur\n"
        "violette: merci\n"
        "florent: rien promis\n"
        "fidèle: fidèle au poste au parking\n"
        "léger: très drôle fidèle\n"
        "ps: apportez des gobelets\n")


def test_a_speaker_who_writes_once_in_a_chat_without_stamps():
    """Where three labels or more each start two lines, the text is a chat and every
    lower-case label is a speaker; a chat's key (``ps:``) is none."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.french_chat import unstamped_speakers

    speakers = unstamped_speakers(CHAT, frozenset(), stopwords=frozenset({"moi"}))
    assert {"fidèle", "léger"} <= set(speakers) and "ps" not in speakers, speakers
    assert unstamped_speakers("fidèle: x\nléger: y\n", frozenset()) == []


def test_the_speaker_who_writes_once_is_released_protected(french):
    pytest.importorskip("wordfreq")
    lines = release_fr(CHAT).splitlines()
    assert not lines[6].startswith("fidèle") and not lines[7].startswith("léger"), lines
    assert lines[8].startswith("ps:"), lines


def test_a_correction_that_says_the_title_again(french):
    """Seen (an announcement by speech recognition): ``madame gwen elle le heureux pardon
    madame gwenaëlle le huérou``: the title after ``pardon`` is part of the correction, the
    words before it the same person misheard."""
    pytest.importorskip("wordfreq")
    out = release_fr("madame gwen elle le heureux pardon madame gwenaëlle le huérou est "
                     "demandée à l'accueil\n")
    assert "gwen" not in out and "heureux" not in out and "huérou" not in out, out
    assert out.rstrip().endswith("est demandée à l'accueil"), out


def test_a_chats_one_off_key_is_no_speaker():
    """The second reading: ``code: 4521`` written once in a chat is a key, not a speaker
    (else ``le code marche`` lost its word)."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.french_chat import unstamped_speakers

    chat = "ana: a\nléo: b\nzoé: c\nana: d\nléo: e\nzoé: f\ncode: 4521\nprix: 3 €\n"
    assert not {"code", "prix"} & set(unstamped_speakers(chat, frozenset()))


def test_a_team_letter_before_a_french_key_is_no_initial(french):
    """``Capitaine B : P. Ollivier``: French puts a space before the colon of a key; a
    letter before it is no initial of the (wrongly found) name before it."""
    pytest.importorskip("wordfreq")
    out = release_fr("Capitaine A : B. de Kersauson     Capitaine B : P. Ollivier\n")
    assert " B :" in out, out
