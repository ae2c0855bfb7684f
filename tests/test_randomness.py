"""The single source of randomness: ``rng`` → a ChaCha20 ``numpy.random.Generator``."""

from __future__ import annotations

import re

import numpy as np
import pytest
from randomgen import ChaCha

from emprivacy import check_random_state, secure_generator
from emprivacy.math.randomness import CHACHA_ROUNDS, document_generator, run_key_from_seed


def _is_full_chacha(gen: np.random.Generator) -> bool:
    return (isinstance(gen.bit_generator, ChaCha)
            and gen.bit_generator.state["state"]["rounds"] == CHACHA_ROUNDS == 20)


def test_none_gives_a_fresh_secure_chacha_generator():
    a, b = check_random_state(None), check_random_state(None)
    assert _is_full_chacha(a) and _is_full_chacha(b)
    assert a is not b
    assert not np.any(a.random(8) == b.random(8))


def test_secure_generator_is_keyed_from_os_entropy():
    keys = {tuple(secure_generator().bit_generator.state["state"]["keysetup"]) for _ in range(5)}
    assert len(keys) == 5
    assert _is_full_chacha(secure_generator())


@pytest.mark.parametrize("seed", [0, 7, np.int64(7), 2**40])
def test_an_int_seed_is_reproducible(seed):
    a, b = check_random_state(seed), check_random_state(int(seed))
    assert _is_full_chacha(a)
    np.testing.assert_array_equal(a.random(16), b.random(16))


def test_different_seeds_give_different_streams():
    assert not np.any(check_random_state(1).random(16) == check_random_state(2).random(16))


def test_a_generator_is_used_as_given():
    gen = np.random.default_rng(3)
    assert check_random_state(gen) is gen


def test_seeded_stream_is_sane():
    # a smoke check of the wrapped bit generator: 100k uniforms have mean 1/2 ± 4 se
    u = check_random_state(11).random(100_000)
    assert abs(u.mean() - 0.5) < 4 * (1 / np.sqrt(12)) / np.sqrt(100_000)


@pytest.mark.parametrize("bad", [1.5, "1", True, b"k", np.random.RandomState(0), [1]])
def test_bad_rng_types(bad):
    with pytest.raises(TypeError, match=r"^rng must be None, an integer seed or a "
                                        r"numpy\.random\.Generator; got .* of type "):
        check_random_state(bad)


def test_negative_seed():
    msg = "rng seed must be an integer >= 0; got -1"
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        check_random_state(-1)


# -- per-document streams --------------------------------------------------------------
def test_document_generator_depends_only_on_the_run_key_and_the_document():
    key = run_key_from_seed(5)
    a = document_generator(key, "doc-1").random(4)
    np.testing.assert_array_equal(a, document_generator(key, "doc-1").random(4))
    assert not np.any(a == document_generator(key, "doc-2").random(4))
    assert not np.any(a == document_generator(run_key_from_seed(6), "doc-1").random(4))
    assert _is_full_chacha(document_generator(key, "doc-1"))


def test_document_generator_rejects_a_str_key():
    with pytest.raises(TypeError, match=r"^run_key must be bytes; got str$"):
        document_generator("secret", "doc-1")


def test_run_key_from_seed():
    assert run_key_from_seed(3) == run_key_from_seed(3)
    assert run_key_from_seed(3) != run_key_from_seed(4)
    a, b = run_key_from_seed(None), run_key_from_seed(None)
    assert len(a) == len(b) == 32 and a != b
    for bad in (-1, True, 1.0):
        with pytest.raises(ValueError, match=r"^seed must be an integer >= 0; got "):
            run_key_from_seed(bad)
