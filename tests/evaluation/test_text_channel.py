"""The experiment on the readable release (issue 41, ``evaluate --format text``)."""

from __future__ import annotations

import pytest

from emprivacy.evaluation.datasets import select_authors
from emprivacy.evaluation.experiment import run_experiment
from emprivacy.evaluation.report import format_table3
from emprivacy.evaluation.text_channel import TextChannel, release_texts, text_tokens
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.text import STOPWORDS


@pytest.fixture(scope="module")
def text_result(synth_corpus, synth_embeddings):
    return run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6,
                          epsilons=(None, 0.005), trials=2, seed=7, channel="text")


def test_release_is_text_mode_function_words_and_punctuation_stay(synth_corpus,
                                                                  synth_embeddings):
    """Text mode replaces the embedded words in place and keeps the function words of its
    allow-list and the punctuation: at a tiny ε the content words change, the rest not."""
    channel = TextChannel.build(select_authors(synth_corpus, 6), known_fraction=2 / 3)
    mech = EarthMoversPrivacy(synth_embeddings, epsilon=0.005)
    out = release_texts(channel, mech, run_key=b"k" * 32, name="t")
    assert len(out) == 6
    for before, after in zip(channel.snippet_texts, out, strict=True):
        # an out-of-vocabulary name becomes the placeholder [UNK] (one token)
        a, b = text_tokens(before), text_tokens(after)
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            if x.lower() in STOPWORDS or not x.isalnum():
                assert x == y
        content = [(x, y) for x, y in zip(a, b, strict=True) if x.lower() not in STOPWORDS
                   and x.isalnum()]
        assert sum(x != y for x, y in content) > 0.5 * len(content)  # they changed
    again = release_texts(channel, mech, run_key=b"k" * 32, name="t")
    assert again == out  # one key, one release
    assert release_texts(channel, mech, run_key=b"k" * 32, name="u") != out


def test_text_channel_runs_every_attack_on_every_view(text_result):
    (s,) = text_result.sets
    assert text_result.config.channel == "text"
    views = {c.split("/")[1] for c in s.author_means(0) if c != "SRauth"}
    assert views == {"all", "function", "punctuation", "unchanged"}
    assert s.correct[0, :, 0].tolist() == [6, 6]  # clean: SRauth finds every author
    # at ε = 0.005 every content word is noise, but the function words and punctuation are
    # as written: the synthetic authors share them ("The … and the … of …."), so the
    # function and punctuation views stay near chance while they are whole in the release
    for c in ("char/function", "char/punctuation", "delta/function"):
        assert s.authorship[c][0] == s.authorship[c][1]  # the kept tokens are the same
    assert all(r is None for r in s.recovery[1:])  # no word recovery on text
    text = format_table3(text_result)
    assert "Channel: **text**" in text and "koppel/punctuation" in text


def test_bad_channel_is_refused(synth_corpus, synth_embeddings):
    with pytest.raises(ValueError, match="channel must be one of 'bag', 'text'; got 'html'"):
        run_experiment(synth_corpus, embeddings=synth_embeddings, meaning="word-vector",
                          authors=6, channel="html")
