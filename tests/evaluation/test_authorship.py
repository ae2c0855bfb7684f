"""The authorship attacks at full strength (issue 41) on corpora where the answer is known.

Every author writes the same content words, function words and punctuation from one shared
distribution, except for one habit of their own: overusing one function word, or one
punctuation mark.  The "mechanism" replaces every content word by a uniformly drawn one, as
a strong word-level mechanism would, and leaves function words and punctuation as they are
(text mode).  So the author is carried by exactly one view: the view that holds the habit
finds every author, the other views and the changed content words do not, and the
strongest column finds them all.
"""

from __future__ import annotations

import numpy as np
import pytest

from emprivacy.evaluation.attacks import KoppelAttribution
from emprivacy.evaluation.authorship import (
    AUTHOR_ATTACKS,
    AuthorshipSuite,
    BurrowsDelta,
    CharNgramProfile,
    strongest,
    unchanged_mask,
    view_tokens,
)

CONTENT = [f"{a}{b}{c}" for a in ("sh", "tr", "pl", "gr") for b in "aeiou" for c in
           ("p", "nd", "rk", "st")]
FUNCTION = ["the", "of", "and", "to", "in", "that", "it", "with", "as", "for", "on", "by"]
PUNCTUATION = [",", ".", ";", ":", "!", "?", "(", ")"]
AUTHORS = 6


def _text(author: int, words: int, habit: str, gen: np.random.Generator) -> list[str]:
    """Half content, 40 % function words, 10 % punctuation; the author's habit token takes
    a quarter of its class."""
    own = (FUNCTION if habit == "function" else PUNCTUATION)[author]
    out = []
    for _ in range(words):
        u = gen.random()
        if u < 0.5:
            out.append(CONTENT[int(gen.integers(len(CONTENT)))])
        elif u < 0.9:
            out.append(own if habit == "function" and gen.random() < 0.25
                       else FUNCTION[int(gen.integers(len(FUNCTION)))])
        else:
            out.append(own if habit == "punctuation" and gen.random() < 0.25
                       else PUNCTUATION[int(gen.integers(len(PUNCTUATION)))])
    return out


def _corpus(habit: str, seed: int = 0):
    gen = np.random.default_rng(seed)
    known = [_text(a, 3000, habit, gen) for a in range(AUTHORS)]
    snippets = [_text(a, 1500, habit, gen) for a in range(AUTHORS)]
    released = [[CONTENT[int(gen.integers(len(CONTENT)))] if t in CONTENT else t for t in s]
                for s in snippets]
    return known, snippets, released, [f"author-{a}" for a in range(AUTHORS)]


@pytest.mark.parametrize(("habit", "other"), [("function", "punctuation"),
                                              ("punctuation", "function")])
def test_the_view_that_carries_the_habit_finds_every_author(habit, other):
    known, snippets, released, authors = _corpus(habit)
    suite = AuthorshipSuite(known, authors, views=("all", "function", "punctuation",
                                                   "unchanged"),
                            koppel=KoppelAttribution(iterations=30))
    correct = suite.correct(snippets, released, authors, rng=0)
    assert set(correct) == {f"{a}/{v}" for a in AUTHOR_ATTACKS
                            for v in ("all", "function", "punctuation", "unchanged")}
    # Koppel and the character classifier on the carrying view find every author; Delta
    # (z-scores: every noisy word weighs as much as the habit) at least 4 of 6 (chance 1)
    assert correct[f"koppel/{habit}"] == AUTHORS
    assert correct[f"char/{habit}"] == AUTHORS
    assert correct[f"delta/{habit}"] >= 4
    # the other view has no signal: 6 authors, chance 1; a binomial(6, 1/6) is <= 4 with
    # probability 0.9994, so a failure here is a signal where there is none
    for attack in AUTHOR_ATTACKS:
        assert correct[f"{attack}/{other}"] <= 4
    # the strongest column finds them all, and names an attack on a view holding the habit
    column, value = strongest({c: float(n) for c, n in correct.items()})
    assert value == AUTHORS
    assert column.split("/")[1] in (habit, "all", "unchanged")


def test_unchanged_view_holds_only_what_the_mechanism_gave_back():
    """Bag mode: the content words all changed at random, so the unchanged view holds only
    the chance coincidences; with the habit in the content words themselves (a bag), the
    unchanged view of a mechanism that keeps a third of the words finds the authors."""
    gen = np.random.default_rng(3)
    vocab = CONTENT
    known, snippets, released = [], [], []
    for a in range(AUTHORS):
        own = vocab[a]
        def bag(n: int, own: str = own) -> list[str]:
            return [own if gen.random() < 0.2 else vocab[int(gen.integers(len(vocab)))]
                    for _ in range(n)]
        known.append(bag(2000))
        s = bag(800)
        snippets.append(s)
        released.append([w if gen.random() < 1 / 3 else vocab[int(gen.integers(len(vocab)))]
                         for w in s])
    authors = [f"author-{a}" for a in range(AUTHORS)]
    suite = AuthorshipSuite(known, authors, koppel=KoppelAttribution(iterations=30))
    assert suite.views == ("all", "unchanged")
    correct = suite.correct(snippets, released, authors, rng=1)
    assert correct["koppel/unchanged"] == AUTHORS and correct["char/unchanged"] == AUTHORS
    # the unchanged view needs the original to pick the words: a diagnostic, never the
    # strongest, which is the best attack on the release itself
    column, value = strongest({c: float(n) for c, n in correct.items()})
    assert column.endswith("/all") and value == max(correct[f"{a}/all"] for a in
                                                    AUTHOR_ATTACKS)
    # the mechanism's changed words alone (a release with nothing unchanged) say nothing
    fresh = [[vocab[int(gen.integers(len(vocab)))] for _ in s] for s in snippets]
    masks = [unchanged_mask(s, r) for s, r in zip(snippets, fresh, strict=True)]
    kept = sum(sum(m) for m in masks) / sum(len(m) for m in masks)
    assert kept == pytest.approx(1 / len(vocab), abs=0.01)  # only chance coincidences


def test_views_and_masks_by_hand():
    tokens = ["The", "ship", ",", "of", "Ann", "!"]
    assert view_tokens(tokens, "all") == ["the", "ship", ",", "of", "ann", "!"]
    assert view_tokens(tokens, "function") == ["the", "of"]
    assert view_tokens(tokens, "punctuation") == [",", "!"]
    assert view_tokens(tokens, "unchanged", unchanged=[1, 0, 1, 1, 0, 1]) == [
        "the", ",", "of", "!"]
    with pytest.raises(ValueError, match="view must be one of 'all', 'function'"):
        view_tokens(tokens, "style")
    with pytest.raises(ValueError, match=r"unchanged must have one flag per token \(6\); got 2"):
        view_tokens(tokens, "unchanged", unchanged=[True, False])
    assert unchanged_mask(["a", "b", "c", "d"], ["a", "[X]", "d"]) == [True, False, True]


def test_delta_is_burrows_formula_on_a_hand_case():
    """Two known texts over words {a, b}: frequencies (3/4, 1/4) and (1/4, 3/4); mean 1/2,
    sd (ddof 1) √2/4 for both, so their z-scores are ±(1/√2, −1/√2).  A snippet (1/2, 1/2)
    is at z 0: Delta 1/√2 to both (a tie, first author); a snippet equal to the first text
    is at 0 from it and √2 from the other."""
    d = BurrowsDelta(n_words=2).fit([["a", "a", "a", "b"], ["a", "b", "b", "b"]], ["x", "y"])
    D = d.distances([["a", "b"], ["a", "a", "a", "b"]])
    np.testing.assert_allclose(D[0], [1 / np.sqrt(2), 1 / np.sqrt(2)], rtol=1e-12)
    np.testing.assert_allclose(D[1], [0.0, np.sqrt(2)], rtol=1e-12, atol=1e-12)
    assert d.predict([["a", "b"], ["b", "b", "b", "a"]]) == ["x", "y"]


def test_attacks_check_their_input():
    with pytest.raises(ValueError, match="same non-zero length; got 1 and 2"):
        BurrowsDelta().fit([["a"]], ["x", "y"])
    with pytest.raises(ValueError, match="same non-zero length; got 0 and 0"):
        CharNgramProfile().fit([], [])
    with pytest.raises(RuntimeError, match="call fit"):
        BurrowsDelta().predict([["a"]])
    with pytest.raises(ValueError, match="n_words must be"):
        BurrowsDelta(n_words=0)
    suite = AuthorshipSuite([["a", "b"], ["c", "d"]], ["x", "y"],
                            koppel=KoppelAttribution(iterations=5))
    with pytest.raises(ValueError, match="original and released must have the same length"):
        suite.predict([["a"]], [["a"], ["b"]])
