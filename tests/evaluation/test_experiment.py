"""The experiment runner end to end on a tiny synthetic set (2 ε values)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from emprivacy import PrivacyLeakWarning
from emprivacy.evaluation.experiment import run_experiment
from emprivacy.evaluation.results import ATTACKS
from emprivacy.evaluation.settings import (
    DEFAULT_EPSILONS,
    ExperimentConfig,
    epsilon_label,
    parse_epsilons,
)
from emprivacy.exceptions import InputError


def test_runner_known_answers_without_noise(synth_result):
    (s,) = synth_result.sets
    assert s.n_authors == 6 and s.correct.shape == (2, 2, 4)
    assert s.epsilons == [None, 0.005]
    # unmodified snippets: the synthetic authors and topics are all recognised
    assert s.correct[0].tolist() == [[6, 6, 6, 6], [6, 6, 6, 6]]
    assert s.chance == {"author": 1.0, "topic": 3.0}
    assert all(0 <= v <= 1 for v in s.fasttext_validation) and len(s.fasttext_validation) == 2


def test_runner_strong_noise_hides_the_author(synth_result):
    """ε = 0.005 in R^4: noise radius ~ Gamma(4, 200), mean 800, against a vocabulary spread
    of ~10: the output words hardly depend on the input, so the SR author attack falls to
    about chance (1 of 6)."""
    (s,) = synth_result.sets
    assert s.correct[1, :, 0].mean() < 3  # SRauth far below the 6 of the clean snippets
    assert s.sample["rows"][0]["epsilon"] == "none"
    clean = [w for w, _ in s.sample["rows"][0]["words"]]
    noisy = [w for w, _ in s.sample["rows"][1]["words"]]
    assert clean != noisy


def test_runner_mean_sd_and_json(synth_result):
    (s,) = synth_result.sets
    np.testing.assert_array_equal(s.mean(), s.correct.mean(axis=1))
    np.testing.assert_allclose(s.sd(), s.correct.std(axis=1, ddof=1))
    d = json.loads(json.dumps(synth_result.to_dict()))
    assert d["seed"] == 7 and d["config"]["epsilons"] == ["none", "0.005"]
    assert d["config"]["oov"] == "drop" and d["config"]["trials"] == 2
    assert d["sets"][0]["correct"]["none"]["SRauth"] == [6, 6]
    assert d["metadata"]["embeddings"]["name"] == "synthetic"
    assert d["metadata"]["oov_policy"]["policy"] == "drop"
    assert d["metadata"]["versions"]["emprivacy"]
    assert d["sets"][0]["doc_ids"] == s.doc_ids


def test_runner_is_reproducible_and_thread_independent(synth_corpus, synth_embeddings,
                                                       synth_result):
    again = run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
                           epsilons=(None, 0.005), trials=2, seed=7, n_jobs=2)
    np.testing.assert_array_equal(again.sets[0].correct, synth_result.sets[0].correct)
    assert again.sets[0].sample == synth_result.sets[0].sample
    assert again.sets[0].fasttext_validation == synth_result.sets[0].fasttext_validation
    other = run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
                           epsilons=(0.005,), trials=1, seed=8)
    assert other.sets[0].sample["rows"][0] != synth_result.sets[0].sample["rows"][1]


def test_runner_negligible_noise_equals_no_noise(synth_corpus, synth_embeddings):
    r = run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
                       epsilons=(None, 1e7), trials=1, seed=0)
    s = r.sets[0]
    np.testing.assert_array_equal(s.correct[0], s.correct[1])
    assert s.sample["rows"][0]["words"] == s.sample["rows"][1]["words"]


def test_runner_keep_policy_passes_oov_words_and_warns(synth_corpus, synth_embeddings):
    with pytest.warns(PrivacyLeakWarning, match="out-of-vocabulary snippet word\\(s\\) pass "
                      "through the mechanism unchanged"):
        r = run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
                           epsilons=(None, 0.005), trials=1, seed=1, oov="keep",
                           appendix_b={"words": 1000})
    s = r.sets[0]
    assert s.oov_words > 0
    assert r.metadata["oov_policy"]["snippet_words_passed_through_unchanged"] == s.oov_words
    clean, noisy = s.sample["rows"][0]["words"], s.sample["rows"][1]["words"]
    for (w0, oov0), (w1, oov1) in zip(clean, noisy, strict=True):
        assert oov0 == w0.startswith("zorb")
        if oov0:  # an OOV word is released as it is, at the same position
            assert (w1, oov1) == (w0, True)
        else:
            assert not oov1  # every other output word comes from the vocabulary
    assert any(o for _, o in clean)


def test_runner_drop_policy_never_warns(synth_corpus, synth_embeddings):
    with warnings.catch_warnings():
        warnings.simplefilter("error", PrivacyLeakWarning)
        run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6, epsilons=(1.0,),
                       trials=1, seed=1, oov="drop")


def test_runner_progress_counts_every_step_and_shows_no_text(synth_corpus, synth_embeddings):
    calls = []
    run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=(4, 6),
                   epsilons="none,1", trials=2, seed=1, knn_k=3,
                   progress=lambda d, t, s: calls.append((d, t, s)))
    total = 2 * 2 * 2 * 4
    assert calls[0] == (0, total, "preparing")
    assert [c[0] for c in calls[1:]] == list(range(1, total + 1))
    assert all(c[1] == total for c in calls)
    assert calls[-1][2] == "6 authors · ε=1 · trial 2/2 · DRtopic"
    words = {w for d in synth_corpus for w in d.text.lower().split()}
    assert not any(w.strip(".") in c[2].split() for c in calls for w in words)


def test_runner_two_sets_are_nested(synth_corpus, synth_embeddings):
    r = run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=(4, 6),
                       epsilons=(None,), trials=1, seed=0, knn_k=3)
    small, big = r.sets
    assert set(small.doc_ids) <= set(big.doc_ids)
    assert small.chance["topic"] == 2.0 and big.chance["topic"] == 3.0


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"trials": 0}, ValueError, "trials must be an integer >= 1; got 0"),
    ({"oov": "skip"}, ValueError, "oov must be one of 'drop', 'keep'; got 'skip'"),
    ({"similarity": "l2"}, ValueError, "similarity must be one of 'cosine', 'minmax'"),
    ({"epsilons": (None, -1.0)}, ValueError, "finite numbers > 0; got -1.0"),
    ({"epsilons": (1.0, 1)}, ValueError, "epsilons must be distinct; '1' appears twice"),
    ({"epsilons": ()}, ValueError, "at least one value"),
    ({"epsilons": ("x",)}, TypeError, "epsilons must be None or finite numbers"),
    ({"authors": 5}, ValueError, "multiple of the number of topics \\(2\\)"),
    ({"authors": (4, 4)}, ValueError, "authors must be distinct set sizes"),
    ({"authors": 4}, InputError, "authors must be >= 6: SRtopic votes among the 5 nearest"),
    ({"seed": -1}, ValueError, "seed must be an integer >= 0; got -1"),
    ({"knn": 3}, TypeError, "unexpected option\\(s\\): knn"),
])
def test_runner_rejects_bad_settings(synth_corpus, synth_embeddings, kwargs, error, match):
    args = {"authors": 6, "epsilons": (None,), "trials": 1, "seed": 0} | kwargs
    with pytest.raises(error, match=match):
        run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          **args)


def test_runner_without_seed_records_the_one_it_drew(synth_corpus, synth_embeddings):
    r = run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6, epsilons=(None,),
                       trials=1)
    assert isinstance(r.seed, int) and r.seed >= 0


def test_epsilon_parsing_and_labels():
    assert parse_epsilons("none,30,25,20,15,10,7.5,5,2.5") == DEFAULT_EPSILONS
    assert [epsilon_label(e) for e in DEFAULT_EPSILONS] == [
        "none", "30", "25", "20", "15", "10", "7.5", "5", "2.5"]
    for bad in ("0", "-3", "inf", "nan", "abc", ""):
        with pytest.raises(ValueError, match="epsilons must be 'none' or finite numbers > 0"):
            parse_epsilons(f"none,{bad}")
    assert ExperimentConfig().epsilons == DEFAULT_EPSILONS
    assert ATTACKS == ("SRauth", "SRtopic", "DRauth", "DRtopic")


def test_runner_uses_whole_known_texts_and_reports_the_cut_beside(synth_result, synth_corpus,
                                                                  synth_embeddings):
    """Issue 41: by default the adversary knows each author's whole known text; the clean
    DRauth with the App. B cut is counted beside it, on the same snippets; with
    ``known="truncated"`` the roles swap and every known text has N words."""
    (s,) = synth_result.sets
    assert synth_result.config.known == "whole"
    assert min(s.known_words) > s.N  # whole known texts are longer than the snippets
    assert set(s.clean_drauth) == {"whole", "truncated"}
    assert s.clean_drauth["whole"] == s.correct[0, :, 2].tolist()  # the run's own ε = none
    assert all(0 <= c <= 6 for c in s.clean_drauth["truncated"])
    cut = run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
                         epsilons=(None,), trials=2, seed=7, known="truncated")
    (c,) = cut.sets
    assert c.known_words == [c.N] * 6 and c.N == s.N
    assert c.clean_drauth["truncated"] == c.correct[0, :, 2].tolist()
    assert cut.to_dict()["config"]["known"] == "truncated"
    with pytest.raises(ValueError, match="known must be one of 'whole', 'truncated'"):
        run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6, known="all")


def test_runner_counts_every_authorship_attack_and_the_strongest(synth_result):
    """The further attacks (issue 41) run on every ε and trial of a bag run, on all words and
    on the words given back unchanged; the clean snippets are their own unchanged words, so
    both views agree there; the strongest is at least SRauth and DRauth."""
    (s,) = synth_result.sets
    assert set(s.authorship) == {"delta/all", "char/all", "koppel/unchanged",
                                 "delta/unchanged", "char/unchanged"}
    for counts in s.authorship.values():
        assert [len(per_eps) for per_eps in counts] == [2, 2]
        assert all(0 <= n <= 6 for per_eps in counts for n in per_eps)
    assert s.authorship["char/all"][0] == s.authorship["char/unchanged"][0]
    assert s.authorship["delta/all"][0] == s.authorship["delta/unchanged"][0]
    for i in range(2):
        means = s.author_means(i)
        assert max(means.values()) >= max(s.mean()[i, 0], s.mean()[i, 2])
    assert s.author_means(0)["char/all"] == 6  # the synthetic authors' signature words
    assert synth_result.to_dict()["sets"][0]["authorship"] == s.authorship
