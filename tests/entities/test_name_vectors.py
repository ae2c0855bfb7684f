"""Names that no census list holds, told by their vectors (``entities.name_vectors``; issue
40, sixth stage): ``tomasz``, ``priya``, ``kwame``, ``sandeep`` in lower-case chats and
``Yusuf`` mid-sentence were released at the general ε, too common as words (Zipf 2.4-3.1)
for their rarity alone to call them names."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("wordfreq")
pytest.importorskip("names")

ROOT = Path(__file__).parents[2]


def found(text: str) -> list[str]:
    from emprivacy.entities.names import NameListDetector

    return [text[s.start:s.end] for s in NameListDetector().detect([text])[0]]


def test_the_packaged_words_are_what_the_detector_may_name():
    """Lower-case letters, three or more, sorted once each, none a census name of class
    "name" (those need no vector; the file is built from the census lists alone) and all
    in the Zipf band the file's header states."""
    from emprivacy.entities.name_vectors import name_like_words
    from emprivacy.entities.name_words import LOWER_RARE, census_name_class, word_zipf

    path = ROOT / "src" / "emprivacy" / "data" / "name-like-words-en.txt"
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if not x.startswith("#")]
    assert lines == sorted(set(lines)) and len(lines) > 5000
    assert set(lines) == name_like_words()
    for w in lines:
        assert w.isalpha() and w == w.lower() and len(w) >= 3, w
        assert census_name_class(w) in ("rare", "uncommon", "common"), w
        assert LOWER_RARE <= word_zipf(w) < 3.5, w


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("sklearn") is None, reason="needs scikit-learn")
def test_the_packaged_words_are_rebuilt_exactly_from_public_data():
    """``benchmarks/name_like_words.py --check`` refits the model on the built-in embeddings
    and the census lists and finds the same words."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "name_like_words.py"),
                           "--check"], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "matches" in done.stdout


def test_unlisted_names_in_a_lower_case_chat_are_names():
    """Before: none of the four was found (each is on no census list, Zipf 2.4-2.9)."""
    text = ("[07:15] dawn: i've told kwame to disconnect it\n"
            "[07:16] river: tomasz invited me, and piotr quit\n"
            "[07:17] dawn: priya wants the stall again, sandeep says no")
    got = found(text)
    for name in ("kwame", "tomasz", "piotr", "priya", "sandeep"):
        assert name in got, got
    for word in ("disconnect", "invited", "quit", "stall", "wants"):
        assert word not in got, got


def test_an_unlisted_name_mid_sentence_is_a_name_and_ordinary_words_are_not():
    """``Yusuf`` is on the census list as a common word (its share is small beside its
    frequency): before, a capitalised common word had to be a listed given name."""
    got = found("Lift share: Mark, Dawn and Yusuf have cars. The Boiler Room is shut.")
    assert "Yusuf" in got and "Boiler" not in got and "Room" not in got, got
    # in a text of ordinary case a lower-case word is never named by its vector alone
    assert "kwame" not in found("The engineer, kwame said, was late. Then We left.")


def test_ordinary_words_of_a_lower_case_chat_stay_words():
    text = "[19:04] jack: the boiler is broken again, roster says tank and heals tonight"
    got = found(text)
    assert not {"boiler", "broken", "roster", "tank", "heals", "tonight"} & set(got), got


def test_a_listed_common_word_that_reads_as_a_name_is_one_in_lower_case():
    """``callum``, ``obi`` are on the census list but more frequent as words than their share
    predicts (class "common"): in a lower-case voicemail they were released at the general
    ε (the sixth held-out set, once measured)."""
    text = ("message 1 received 3 february 09 14\nhi yeah i spoke to callum last week\n\n"
            "message 2 received 3 february 11 02\nits under grace obi on the system")
    got = found(text)
    assert "callum" in got and "obi" in got, got
    assert not {"message", "received", "february", "system", "week"} & set(got), got
