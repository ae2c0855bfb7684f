"""What the fifty-first stage showed in English (issue 40), from the voicemails of the
fifty-fourth and fifty-fifth English sets' unseen halves, read once measured (seen fixes): a
voicemail's header names the people in capitals (``From: Carys Watkins → Will Bowen``) and
its lower-case body calls them again (``carys its will``), and the body opens with whom it is
for and who is calling — both released as written."""

from __future__ import annotations

import re


def _words(text: str) -> list[str]:
    return re.findall(r"[\w']+", text.lower())


def test_a_rare_name_in_capitals_is_protected_in_lower_case_too(release_auto) -> None:
    """A person's word rarer than Zipf 3 in English, a slot where capitals show it, is the
    same slot at its lower-case mentions; a common word is not (``the baker`` beside
    ``Baker``: only capitalised mentions follow)."""
    text = ("[3] From: Tendai Moyo → Carys Watkins | Sun 19 Sep 2027 10:51 | 0:29\n"
            "i told tendai the gate was shut and the baker was closed\n"
            "Mr Baker rang later.\n")
    out = _words(release_auto(text))
    assert "tendai" not in out, out
    assert out.count("baker") >= 1  # "the baker was closed": a word, as written


def test_a_voicemails_opening_names_both_people(release_auto) -> None:
    """``<to> [love|bach] its <caller>`` at a lower-case line's start: both are names where
    they are listed given names or rare words; ``me``, ``mum`` and ordinary words are not."""
    out = release_auto("grace love its manjit at the shop the tin is ready\n"
                       "hiya heather its bethan at the paper\n"
                       "well its raining here and ok its me again\n"
                       "hope love its mum ring me\n")
    words = _words(out)
    for name in ("grace", "manjit", "heather", "bethan", "hope"):
        assert name not in words, out
    for word in ("well", "raining", "ok", "me", "mum", "shop", "paper"):
        assert word in words, out
