"""What the forty-second stage showed (issue 40), from the earlier sets' captions, seen: a
family name that is a common word after a given name's slot (``derek pitch``, ``sandy
root``) came out as written; automatic captions introduce people by given and family name
with no capital and no cue (``preparation.family_names._lower_family_after_given``)."""

from __future__ import annotations

import re

import pytest


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", line) is not None


@pytest.mark.slow
@pytest.mark.parametrize(("text", "family"), [
    ("0:04:47 with the umpires clive over and derek pitch on the field\n", "pitch"),
    ("2:15:51 and sandy root with the catch on the boundary\n", "root"),
])
def test_a_family_name_after_a_given_name_in_captions(release_auto, text, family) -> None:
    pytest.importorskip("wordfreq")
    out = release_auto(text)
    assert not _has(family, out), out
    assert out.endswith(text.split(family, 1)[1]), out  # the words after it as written


@pytest.mark.slow
@pytest.mark.parametrize("text", [
    # no time stamp: a chat, whose next word after a name is as often a verb or a greeting
    "with the umpires clive over and derek pitch on the field\n",
    # a greeting or praise after the name, a word the census lists too
    "0:01:02 thanks derek lovely stuff and bye derek\n",
    # a common word, above the frequency limit
    "0:03:04 and grace long time no see\n",
])
def test_not_outside_captions_nor_after_a_greeting_nor_a_common_word(release_auto,
                                                                      text) -> None:
    pytest.importorskip("wordfreq")
    out = release_auto(text)
    words = [w for w in ("pitch", "lovely", "long") if _has(w, text)]
    assert all(_has(w, out) for w in words), out
