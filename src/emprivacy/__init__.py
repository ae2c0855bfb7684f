"""emprivacy: Earth Mover's privacy for text documents.

An implementation of *Generalised Differential Privacy for Text Document
Processing* (Fernandes, Dras, McIver, POST 2019): a document becomes a bag of
words, each word's embedding gets n-dimensional Laplace noise, and each noisy
vector is decoded to its nearest vocabulary word.  For bags of size N the
output satisfies εN·E-privacy, E the Earth Mover's distance between bags.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .calibration import calibrate_epsilon, plausible_deniability
from .decoding import Decoder, ExactDecoder
from .distance import earth_movers_distance
from .embeddings import Embeddings, load_embeddings
from .exceptions import EmbeddingsFormatError, PrivacyLeakWarning
from .guarantees import (
    appendix_utility_bound,
    ball_probability,
    laplace_constant,
    paper_utility_bound,
    privacy_multiplier,
    utility_bound,
)
from .mechanisms import (
    EarthMoversPrivacy,
    generate_noisy_bag_of_words,
    generate_noisy_vector,
    generate_private_bag,
)
from .noise import laplace_noise
from .randomness import check_random_state, secure_generator
from .text import bag_of_words, tokenize


def __getattr__(name: str) -> object:
    # obfuscate_corpus needs Dask: imported on first use, not with the package
    if name == "obfuscate_corpus":
        from .distributed import obfuscate_corpus

        return obfuscate_corpus
    raise AttributeError(f"module 'emprivacy' has no attribute {name!r}")


try:
    __version__ = version("emprivacy")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

__all__ = [
    "Decoder",
    "EarthMoversPrivacy",
    "Embeddings",
    "EmbeddingsFormatError",
    "ExactDecoder",
    "PrivacyLeakWarning",
    "__version__",
    "appendix_utility_bound",
    "bag_of_words",
    "ball_probability",
    "calibrate_epsilon",
    "check_random_state",
    "earth_movers_distance",
    "generate_noisy_bag_of_words",
    "generate_noisy_vector",
    "generate_private_bag",
    "laplace_constant",
    "laplace_noise",
    "load_embeddings",
    "obfuscate_corpus",
    "paper_utility_bound",
    "plausible_deniability",
    "privacy_multiplier",
    "secure_generator",
    "tokenize",
    "utility_bound",
]
