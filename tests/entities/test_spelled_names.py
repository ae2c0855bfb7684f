"""A name spelled out on a call, in its transcript (``c h l o e``, ``o apostrophe r o u r k
e``): each letter came out verbatim at the general ε (issue 40, the seventh held-out set: 50
of the 195 person-name tokens of one call)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def release(ner_embeddings):
    from emprivacy import privatize_texts

    def run(text: str, seed: int = 1) -> str:
        (out,) = privatize_texts([text], epsilon=1e6, embeddings=ner_embeddings, seed=seed,
                                 entities="auto", entity_epsilon=1.0)
        return out.release

    return run


def test_the_letters_of_a_spelled_name_are_drawn_apart_from_them(release):
    text = "she checks it c h l o e\nthat's o apostrophe r o u r k e\noptions a or b, plan a b"
    outs = [release(text, seed).splitlines() for seed in range(1, 5)]
    for first, second, third in outs:
        assert first.startswith("she checks it ") and len(first.split()) == 8, first
        assert second.startswith("that's ") and " apostrophe " in second, second
        assert third == "options a or b, plan a b"  # two letters are no spelling
    spelled = [x[0].split()[3:] for x in outs]
    assert all(len(s) == 5 and all(len(c) == 1 for c in s) for s in spelled), spelled
    assert sum(s == list("chloe") for s in spelled) == 0, spelled
    assert len({"".join(s) for s in spelled}) > 1, spelled  # drawn, so they vary
