"""A run defers the collector's full collections while it is under way and gives the
program its thresholds back when it ends, however it ends (emprivacy.obfuscation.heap;
issue 40, cost)."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

from emprivacy.embeddings.model import Embeddings
from emprivacy.io.corpus import Document
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
from emprivacy.obfuscation.heap import DEFERRED_THRESHOLD, full_collections_deferred


@pytest.fixture
def obfuscator():
    words = ["then", "ann", "met", "bob", "cat", "dog", "saw", "paris"]
    emb = Embeddings(words, np.random.default_rng(0).normal(size=(len(words), 4)), name="toy")
    return Obfuscator(EarthMoversPrivacy(emb, epsilon=2.0), ObfuscationConfig(mode="text"),
                      seed=1)


@pytest.fixture(autouse=True)
def program_thresholds():
    """The program's own thresholds, other than Python's defaults, given back after."""
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 12)
    yield (700, 10, 12)
    gc.set_threshold(*before)


def docs(n=5):
    return [Document(str(i), "then the cat saw the dog") for i in range(n)]


def deferred() -> bool:
    return gc.get_threshold()[2] >= DEFERRED_THRESHOLD


def test_a_stream_defers_while_it_runs_and_restores_at_its_end(obfuscator, program_thresholds):
    stream = obfuscator.obfuscate(docs())
    assert not deferred()
    next(stream)
    assert deferred()
    assert len(list(stream)) == 4
    assert gc.get_threshold() == program_thresholds


def test_closing_a_stream_early_or_an_error_restores(obfuscator, program_thresholds):
    stream = obfuscator.obfuscate(docs())
    next(stream)
    stream.close()
    assert gc.get_threshold() == program_thresholds
    with pytest.raises(TypeError, match="Document objects"):
        list(obfuscator.obfuscate([Document("x", "the cat"), "not a document"]))
    assert gc.get_threshold() == program_thresholds


def test_runs_inside_one_another_and_in_threads_restore_once_all_end(program_thresholds):
    with full_collections_deferred():
        with full_collections_deferred():
            pass
        assert deferred()  # the inner run's end leaves the outer one's setting
        inside = []
        t = threading.Thread(target=lambda: inside.append(_run_in_thread()))
        t.start()
        t.join()
        assert inside == [True]
        assert deferred()
    assert gc.get_threshold() == program_thresholds


def _run_in_thread() -> bool:
    with full_collections_deferred():
        return deferred()


def test_thresholds_the_program_sets_during_a_run_are_kept():
    with full_collections_deferred():
        gc.set_threshold(500, 5, 5)
    assert gc.get_threshold() == (500, 5, 5)


def test_cyclic_garbage_is_still_collected_during_a_run():
    class Node:
        pass

    with full_collections_deferred():
        a, b = Node(), Node()
        a.other, b.other = b, a
        watch = __import__("weakref").ref(a)
        del a, b
        gc.collect(1)  # the young generations: nothing is exempt from collection
        assert watch() is None
