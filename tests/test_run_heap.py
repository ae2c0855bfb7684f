"""A run sets the heap alive at its start aside from full collections, and puts it back when
it ends, however it ends (emprivacy.obfuscation.heap; issue 40, cost)."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

from emprivacy.embeddings.model import Embeddings
from emprivacy.io.corpus import Document
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
from emprivacy.obfuscation.heap import run_heap_frozen


@pytest.fixture
def obfuscator():
    words = ["then", "ann", "met", "bob", "cat", "dog", "saw", "paris"]
    emb = Embeddings(words, np.random.default_rng(0).normal(size=(len(words), 4)), name="toy")
    return Obfuscator(EarthMoversPrivacy(emb, epsilon=2.0), ObfuscationConfig(mode="text"),
                      seed=1)


def docs(n=5):
    return [Document(str(i), "then the cat saw the dog") for i in range(n)]


def test_a_stream_freezes_while_it_runs_and_unfreezes_at_its_end(obfuscator):
    before = gc.get_freeze_count()
    stream = obfuscator.obfuscate(docs())
    next(stream)
    assert gc.get_freeze_count() > before  # the heap of the run's start: set aside
    rest = list(stream)
    assert len(rest) == 4
    assert gc.get_freeze_count() == before


def test_closing_a_stream_early_or_an_error_unfreezes(obfuscator):
    before = gc.get_freeze_count()
    stream = obfuscator.obfuscate(docs())
    next(stream)
    stream.close()
    assert gc.get_freeze_count() == before
    with pytest.raises(TypeError, match="Document objects"):
        list(obfuscator.obfuscate([Document("x", "the cat"), "not a document"]))
    assert gc.get_freeze_count() == before


def test_runs_inside_one_another_and_in_threads_unfreeze_once_all_end():
    before = gc.get_freeze_count()
    with run_heap_frozen():
        frozen = gc.get_freeze_count()
        with run_heap_frozen():
            pass
        assert gc.get_freeze_count() >= frozen  # the inner run's end leaves it set aside
        inside = []
        t = threading.Thread(target=lambda: inside.append(_run_in_thread()))
        t.start()
        t.join()
        assert inside == [True]
        assert gc.get_freeze_count() >= frozen
    assert gc.get_freeze_count() == before


def _run_in_thread() -> bool:
    with run_heap_frozen():
        return gc.get_freeze_count() > 0


def test_cyclic_garbage_of_the_frozen_heap_is_collected_after_the_run():
    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a
    watch = __import__("weakref").ref(a)
    with run_heap_frozen():
        del a, b
        gc.collect()
        assert watch() is not None  # set aside: a full collection leaves it
    gc.collect()
    assert watch() is None  # back in the heap: collected
