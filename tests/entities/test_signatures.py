"""A signature of initials only (issue 40, sixth stage): ``L.`` on its own line at an
e-mail's end was released at the general ε, where ε is large enough to keep it."""

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


def test_a_line_of_initials_after_a_sign_off_is_a_signature(release):
    """Before: ``L.``, ``P. T.`` came back as written at ε = 10⁶.  Each letter is drawn
    independently of the original, so over seeds the letters vary."""
    text = "The order is agreed.\n\nL.\n\nBest wishes,\nP. T."
    outs = [release(text, seed) for seed in range(8)]
    lines = [o.splitlines() for o in outs]
    assert all(x[0] == "The order is agreed." for x in lines)
    assert all(len(x[2]) == 2 and x[2][1] == "." and x[2][0].isupper() for x in lines), outs
    assert len({x[2] for x in lines}) > 1 and len({x[5] for x in lines}) > 1, outs
    assert sum(x[2] == "L." for x in lines) < 4 and sum(x[5] == "P. T." for x in lines) < 3


def test_initials_in_running_text_are_not_a_signature(release):
    text = "Plan:\nA. Do this now.\nB. Then that."
    assert release(text) == text


def test_a_numbered_list_after_a_comma_is_no_signature(release):
    text = "Steps agreed,\nA. Do this now.\nB. Then that."
    assert release(text) == text
