"""The toy vocabulary of the entity tests: names, places and common words in 4 dimensions,
and an obfuscator run over it with the capitalised detector."""

import numpy as np

from emprivacy import Embeddings
from emprivacy.io.corpus import Document
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

NAMES = ["ann", "bob", "eve", "zoe"]
PLACES = ["paris", "rome", "oslo"]
COMMON = ["cat", "dog", "met", "saw", "city", "went", "later", "left", "today", "hospital"]
WORDS = NAMES + PLACES + COMMON
LISTS = {"PERSON": NAMES, "LOCATION": PLACES}


def toy_embeddings() -> Embeddings:
    gen = np.random.default_rng(0)
    return Embeddings(WORDS, gen.normal(size=(len(WORDS), 4)), name="toy")


def run_mode(mode, emb, texts, *, epsilon=1e6, entity_epsilon=1.0, seed=1, **config):
    """The records of ``texts`` released in ``mode`` with entities (capitalised by default)."""
    config.setdefault("entities", "capitalised")
    obf = Obfuscator(EarthMoversPrivacy(emb, epsilon=epsilon),
                     ObfuscationConfig(mode=mode, entity_epsilon=entity_epsilon, **config),
                     seed=seed, entity_lists=LISTS)
    return list(obf.obfuscate([Document(str(i), t) for i, t in enumerate(texts)]))
