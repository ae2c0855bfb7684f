"""Shared fixtures: tiny hand-built embeddings, and the built-in default embeddings."""

from __future__ import annotations

import numpy as np
import pytest

import emprivacy
from emprivacy import Embeddings

#: A tiny 2-D vocabulary where the right answers are obvious: two tight clusters
#: far apart ("cat"/"dog" near the origin, "car"/"bus" near (10, 10)) and a lone
#: word far from both.
TINY_WORDS = ("cat", "dog", "car", "bus", "sun")
TINY_VECTORS = np.array(
    [[0.0, 0.0], [1.0, 0.0], [10.0, 10.0], [11.0, 10.0], [-10.0, 5.0]], dtype=np.float32
)


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> object:
    """The whole run caches (parsed embeddings, decoder indexes) in a directory of its own,
    never in the user's cache; Dask workers started by tests inherit it."""
    patch = pytest.MonkeyPatch()
    patch.setenv("EMPRIVACY_CACHE_DIR", str(tmp_path_factory.mktemp("emprivacy-cache")))
    yield
    patch.undo()


@pytest.fixture
def tiny_embeddings() -> Embeddings:
    """Five words in R^2 (see ``TINY_WORDS`` / ``TINY_VECTORS``)."""
    return Embeddings(TINY_WORDS, TINY_VECTORS, name="tiny")


@pytest.fixture(scope="session")
def default_embeddings() -> Embeddings:
    """The built-in GloVe 6B 50d embeddings, 100k most frequent real words (loaded once)."""
    return emprivacy.load_embeddings()
