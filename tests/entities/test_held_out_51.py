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
    """``<to> [love|bach] its|it's <caller>`` at a lower-case line's start: both are names,
    together, where each is a listed given name or a rare word; an opening with one name
    alone reads as a sentence (``hope its ok``, ``june its me``) and stays as written."""
    out = release_auto("marlon its cherry pick up please\n"
                       "derek its bill i sent you a text\n"
                       "joy bach its faith i dont know\n"
                       "grace love its manjit at the shop the tin is ready\n"
                       "hiya heather it's bethan at the paper\n"
                       "well its raining here and ok its me again\n"
                       "hope its ok to call, summer its too hot\n"
                       "hope love its mum ring me\n")
    words = _words(out)
    for name in ("cherry", "bill", "faith", "grace", "manjit", "heather", "bethan"):
        assert name not in words, out
    for word in ("well", "raining", "ok", "me", "mum", "shop", "paper", "summer"):
        assert word in words, out
    assert words.count("hope") == 2, out


def test_a_rare_word_after_a_determiner_stays_a_word(release_auto) -> None:
    out = _words(release_auto("From: Lee Fennel\nadd some fennel to the soup\n"))
    assert "fennel" in out and "lee" not in out
