"""Sizes checked before any work (issue 30, item 4): a sampled channel, ε̂'s releases and a
calibration that the machine cannot hold are one ValueError naming what it needs, never
numpy's "Maximum allowed dimension exceeded" or a MemoryError after the work began; an
exact channel of many secrets stays within its block's memory."""

from __future__ import annotations

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy import _validation as validation
from emprivacy.mechanisms import make_mechanism
from emprivacy.protection import (
    ExactChannel,
    Secrets,
    audit_mechanism,
    calibrate_recovery,
    distinguish_pairs,
    sample_channel,
)


@pytest.fixture(scope="module")
def emb() -> Embeddings:
    gen = np.random.default_rng(0)
    return Embeddings([f"w{i}" for i in range(50)], gen.normal(size=(50, 3)), name="g")


@pytest.mark.parametrize("draws", [10**9, 99999999999999999999999])
def test_a_sampled_channel_too_large_for_the_machine_is_refused(emb, draws):
    mech = make_mechanism("madlib", emb, epsilon=1.0)
    secrets = Secrets.from_words(emb, [f"w{i}" for i in range(28)])
    with pytest.raises(ValueError) as info:
        audit_mechanism(mech, secrets, draws=draws, rng=0)
    message = str(info.value)
    assert message.startswith(f"the sampled channel (28 secrets x {draws} draws) needs about ")
    assert message.endswith("available here; use fewer draws or fewer secrets")


def test_the_check_uses_what_the_machine_has(emb, monkeypatch):
    monkeypatch.setattr(validation, "available_memory", lambda: 10 * 2**20)  # 10 MiB
    mech = make_mechanism("madlib", emb, epsilon=1.0)
    rows = np.arange(10)
    sample_channel(mech, rows, draws=20_000, rng=0)  # 9.2 MiB: held
    with pytest.raises(ValueError, match=r"needs about 11\.4 MiB of memory, more than the "
                                         r"10 MiB available here"):
        sample_channel(mech, rows, draws=25_000, rng=0)


def test_distinguish_draws_too_large_are_refused_before_any_release(emb):
    mech = make_mechanism("madlib", emb, epsilon=1.0)
    calls = []
    with pytest.raises(ValueError, match=r"^the releases of the pairs \(4 words x 1000000000 "
                                         r"draws\) needs about .*use fewer draws or fewer "
                                         r"pairs$"):
        distinguish_pairs(mech, [("w0", "w1"), ("w2", "w3")], draws=10**9, rng=0,
                          progress=lambda *a: calls.append(a))
    assert calls == []


def test_calibrate_checks_its_draws_before_the_first_measurement(emb):
    secrets = Secrets.from_words(emb, [f"w{i}" for i in range(10)])
    calls = []
    with pytest.raises(ValueError, match=r"the sampled channel \(10 secrets x 1000000000000 "
                                         r"draws\)"):
        calibrate_recovery(emb, target_recovery=0.5, secrets=secrets, draws=10**12,
                           progress=lambda *a: calls.append(a))
    assert calls == []


def test_an_exact_channel_of_many_secrets_keeps_its_blocks_small():
    gen = np.random.default_rng(1)
    big = Embeddings([f"w{i}" for i in range(6000)], gen.normal(size=(6000, 2)), name="b")
    mech = make_mechanism("santext", big, epsilon=3.0)
    few = ExactChannel(mech, np.arange(100))
    many = ExactChannel(mech, np.arange(5000))
    assert few.block_cols == 2048  # the default, unchanged for K ≤ 2,048
    assert many.block_cols * 5000 * 8 <= 32 * 2**20 and many.block_cols >= 64
    for start, block in many.blocks():
        assert block.shape == (5000, min(many.block_cols, 6000 - start))
        break
