"""emprivacy: Earth Mover's privacy for text documents.

An implementation of *Generalised Differential Privacy for Text Document
Processing* (Fernandes, Dras, McIver, POST 2019): a document becomes a bag of
words, each word's embedding gets n-dimensional Laplace noise, and each noisy
vector is decoded to its nearest vocabulary word.  For bags of size N the
output satisfies εN·E-privacy, E the Earth Mover's distance between bags.

The names below are imported on first use, so that ``import emprivacy`` (and the
command line's ``--help``) stays fast; the data flows one way through the modules:
:mod:`~emprivacy.text.tokens` → :mod:`~emprivacy.embeddings.model` → :mod:`~emprivacy.math.noise` →
:mod:`~emprivacy.decoding` → :mod:`~emprivacy.mechanisms` →
:mod:`~emprivacy.obfuscation.obfuscator` → :mod:`~emprivacy.io.outputs`, with
:mod:`~emprivacy.math.distance`, :mod:`~emprivacy.math.guarantees` and
:mod:`~emprivacy.protection.epsilon.deniability` beside, :mod:`~emprivacy.distributed`,
:mod:`~emprivacy.tables` (a table's column: :func:`privatize_texts`,
:mod:`emprivacy.tables.arrow`, :mod:`emprivacy.tables.pandas`, :mod:`emprivacy.tables.polars`) and
:mod:`~emprivacy.evaluation` on top.

:func:`import_optional` imports an optional dependency (an extra such as ``evaluation`` or
``distributed``) or raises :class:`~emprivacy.exceptions.MissingExtraError` with the one
message that names the extra to install; the command line and the library's modules check
their extras through it.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from emprivacy._lazy import lazy_exports

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    "Decoder": "decoding",
    "ExactDecoder": "decoding",
    "EarthMoversPrivacy": "mechanisms",
    "MahalanobisPrivacy": "mechanisms",
    "SanText": "mechanisms",
    "TruncatedExponential": "mechanisms",
    "VickreyPrivacy": "mechanisms",
    "WordMechanism": "mechanisms",
    "make_mechanism": "mechanisms",
    "generate_noisy_bag_of_words": "mechanisms",
    "generate_noisy_vector": "mechanisms",
    "generate_private_bag": "mechanisms",
    "Embeddings": "embeddings",
    "load_embeddings": "embeddings",
    "EmbeddingsFormatError": "exceptions",
    "PrivacyLeakWarning": "exceptions",
    "earth_movers_distance": "math.distance",
    "appendix_utility_bound": "math.guarantees",
    "ball_probability": "math.guarantees",
    "laplace_constant": "math.guarantees",
    "paper_utility_bound": "math.guarantees",
    "privacy_multiplier": "math.guarantees",
    "utility_bound": "math.guarantees",
    "calibrate_epsilon": "protection.epsilon.deniability",
    "plausible_deniability": "protection.epsilon.deniability",
    "laplace_noise": "math.noise",
    "check_random_state": "math.randomness",
    "secure_generator": "math.randomness",
    "bag_of_words": "text",
    "tokenize": "text",
    "ObfuscationConfig": "obfuscation",
    "Obfuscator": "obfuscation",
    "obfuscate_corpus": "distributed",
    "privatize_texts": "tables",
    "import_optional": "_optional",
}

if TYPE_CHECKING:  # pragma: no cover - what the lazy names are, for type checkers
    from emprivacy._optional import import_optional
    from emprivacy.decoding import Decoder, ExactDecoder
    from emprivacy.distributed import obfuscate_corpus
    from emprivacy.embeddings.model import Embeddings, load_embeddings
    from emprivacy.exceptions import EmbeddingsFormatError, PrivacyLeakWarning
    from emprivacy.math.distance import earth_movers_distance
    from emprivacy.math.guarantees import (
        appendix_utility_bound,
        ball_probability,
        laplace_constant,
        paper_utility_bound,
        privacy_multiplier,
        utility_bound,
    )
    from emprivacy.math.noise import laplace_noise
    from emprivacy.math.randomness import check_random_state, secure_generator
    from emprivacy.mechanisms import (
        EarthMoversPrivacy,
        MahalanobisPrivacy,
        SanText,
        TruncatedExponential,
        VickreyPrivacy,
        WordMechanism,
        generate_noisy_bag_of_words,
        generate_noisy_vector,
        generate_private_bag,
        make_mechanism,
    )
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator
    from emprivacy.protection.epsilon.deniability import calibrate_epsilon, plausible_deniability
    from emprivacy.tables import privatize_texts
    from emprivacy.text.tokens import bag_of_words, tokenize


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)


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
    "MahalanobisPrivacy",
    "ObfuscationConfig",
    "Obfuscator",
    "PrivacyLeakWarning",
    "SanText",
    "TruncatedExponential",
    "VickreyPrivacy",
    "WordMechanism",
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
    "import_optional",
    "laplace_constant",
    "laplace_noise",
    "load_embeddings",
    "make_mechanism",
    "obfuscate_corpus",
    "paper_utility_bound",
    "plausible_deniability",
    "privacy_multiplier",
    "privatize_texts",
    "secure_generator",
    "tokenize",
    "utility_bound",
]
