"""A name spelled out on a call, in its transcript (``c h l o e``, ``o apostrophe r o u r k
e``): each letter came out verbatim at the general ε (issue 40, the seventh held-out set: 50
of the 195 person-name tokens of one call); since the thirteenth stage the spelled word is
one name's slot."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def release(release_auto):
    return release_auto


def test_a_spelled_name_is_released_as_one_surrogate(release):
    """Each spelled word becomes one name (issue 40, thirteenth stage), the same as the name
    said aloud in the same document; the line's end stays where it was."""
    text = ("she checks it c h l o e\nthat's o apostrophe r o u r k e\noptions a or b, plan a b"
            "\nlove you x x x\nthanks chloe")
    outs = [release(text, seed).splitlines() for seed in range(1, 5)]
    for first, second, third, fourth, fifth in outs:
        assert fourth == "love you x x x"  # kisses: one letter repeated is no spelling
        assert third == "options a or b, plan a b"  # two letters are no spelling
        assert first.startswith("she checks it ") and len(first.split()) == 4, first
        assert second.startswith("that's ") and len(second.split()) == 2, second
        assert "apostrophe" not in second and second.split()[1] != "o'rourke", second
        name = first.split()[3]
        assert len(name) > 1 and name != "chloe", first
        assert fifth == f"thanks {name}", (first, fifth)  # one person, one surrogate
    assert len({x[0] for x in outs}) > 1, outs  # drawn, so they vary


def test_letters_read_out_among_numbers_and_in_a_text_with_nothing_else(release):
    """``e six k zero seven``: a reference read out on a call, its letters verbatim (the
    numbers were placeholders already), now one identifier (issue 40, tenth stage: "an ID
    is one placeholder, letters included"); and a text in which no detector finds anything
    still has its spelled word and its signature's initial taken (they were skipped)."""
    text = ("the meter number on the front is e six k zero seven three one\n"
            "plan a b, two a day, at 3 a 4\nthanks, j.\nit's c h l o e")
    outs = [release(text, seed).splitlines() for seed in range(1, 5)]
    assert all(x[0] == "the meter number on the front is [ID]" for x in outs), outs
    assert all(x[1] == "plan a b, [NUM] a day, at [NUM] a [NUM]" for x in outs), outs
    letters = [(x[2][-2], "".join(x[3].split()[1:])) for x in outs]
    assert all(len(c) == 1 and len(d) > 1 and " " not in x[3][5:] for (c, d), x
               in zip(letters, outs, strict=True)), outs
    assert sum(c == "j" for c, _ in letters) <= 1, letters
    assert all(d != "chloe" for _, d in letters), letters
