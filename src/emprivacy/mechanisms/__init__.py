"""The word-level mechanisms: one module per mechanism family, one base class.

* :mod:`~emprivacy.mechanisms.base` — :class:`WordMechanism`, what a mechanism implements.
* :mod:`~emprivacy.mechanisms.madlib` — the paper's mechanism (Alg. 1 and 2),
  :class:`EarthMoversPrivacy`.
"""

from __future__ import annotations

from .base import WordMechanism
from .madlib import (
    EarthMoversPrivacy,
    generate_noisy_bag_of_words,
    generate_noisy_vector,
    generate_private_bag,
)

__all__ = [
    "EarthMoversPrivacy",
    "WordMechanism",
    "generate_noisy_bag_of_words",
    "generate_noisy_vector",
    "generate_private_bag",
]
