"""The single source of randomness: one ``rng`` parameter everywhere.

``rng=None`` gives a cryptographically secure generator: the ChaCha20 stream
cipher of :mod:`randomgen`, keyed from the operating system's entropy pool and
wrapped in :class:`numpy.random.Generator`.  An ``int`` seeds the same
generator deterministically (reproducible runs, for tests and experiments; not
for real releases, since anyone who knows the seed can remove the noise).  A
:class:`numpy.random.Generator` is used as given.  No global numpy RNG is ever
touched.
"""

from __future__ import annotations

import hashlib
import hmac
import numbers
import secrets

import numpy as np
from randomgen import ChaCha

__all__ = [
    "RandomState",
    "check_random_state",
    "document_generator",
    "hashed_document_id",
    "run_key_from_seed",
    "secure_generator",
]

RandomState = None | int | np.random.Generator

#: Number of ChaCha rounds: 20 is the full-strength cipher.
CHACHA_ROUNDS = 20


def secure_generator() -> np.random.Generator:
    """A fresh ChaCha20 generator keyed with 256 bits of OS entropy.

    >>> a, b = secure_generator(), secure_generator()
    >>> bool(a.random() != b.random())
    True
    """
    key = int.from_bytes(secrets.token_bytes(32), "little")
    return np.random.Generator(ChaCha(key=key, counter=0, rounds=CHACHA_ROUNDS))


def check_random_state(rng: RandomState) -> np.random.Generator:
    """Turn the ``rng`` parameter into a :class:`numpy.random.Generator`.

    Parameters
    ----------
    rng : None, int or numpy.random.Generator
        ``None``: a secure ChaCha20 generator seeded from OS entropy.
        ``int`` (>= 0): a ChaCha20 generator seeded deterministically — reproducible,
        not for real releases.  ``Generator``: returned unchanged.

    >>> g1, g2 = check_random_state(7), check_random_state(7)
    >>> bool(g1.random() == g2.random())
    True
    """
    if rng is None:
        return secure_generator()
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if int(rng) < 0:
            raise ValueError(f"rng seed must be an integer >= 0; got {int(rng)}")
        seq = np.random.SeedSequence(int(rng))
        return np.random.Generator(ChaCha(seed=seq, rounds=CHACHA_ROUNDS))
    raise TypeError(
        "rng must be None, an integer seed or a numpy.random.Generator; "
        f"got {rng!r} of type {type(rng).__name__}"
    )


def document_generator(run_key: bytes, document_id: str) -> np.random.Generator:
    """A ChaCha20 stream of its own for one document of a run.

    The key is ``SHA-256(run_key || 0x00 || document_id)``, so a document's noise
    depends only on the run's secret key and the document's identifier — never on
    the order or partitioning in which documents are processed.

    >>> a = document_generator(b"k" * 32, "doc-1").random()
    >>> b = document_generator(b"k" * 32, "doc-1").random()
    >>> bool(a == b), bool(a != document_generator(b"k" * 32, "doc-2").random())
    (True, True)
    """
    if not isinstance(run_key, bytes | bytearray):
        raise TypeError(f"run_key must be bytes; got {type(run_key).__name__}")
    digest = hashlib.sha256(bytes(run_key) + b"\x00" + str(document_id).encode("utf-8")).digest()
    key = int.from_bytes(digest, "little")
    return np.random.Generator(ChaCha(key=key, counter=0, rounds=CHACHA_ROUNDS))


#: Hex digits of a hashed document identifier (:func:`hashed_document_id`): 128 bits.
HASHED_ID_DIGITS = 32


def hashed_document_id(run_key: bytes, document_id: str) -> str:
    """A document's released identifier under ``id_from="hash"``: a keyed hash of its id.

    ``HMAC-SHA-256(K, document_id)`` in hexadecimal, cut to :data:`HASHED_ID_DIGITS`
    digits (128 bits: two documents of a run collide with probability about
    n²/2¹²⁹), under ``K = HMAC-SHA-256(run_key, "emprivacy-document-id")``.  A plain
    hash of a path could be reversed by hashing likely file names; without the key
    nobody can test a guess.  ``K`` is a key of its own, derived one way from the run
    key: the identifier says nothing about the noise streams, which are keyed by
    ``SHA-256(run_key || 0x00 || document_id)`` (:func:`document_generator`), and
    the noise does not depend on how identifiers are released.  An unseeded run's key
    is random and never stored, so its hashed ids can be linked to no input, by
    anyone, and differ from run to run; a seeded run's key derives from the seed
    (:func:`run_key_from_seed`), so anyone who knows the seed can test a guessed
    identifier (as they can remove the noise).

    >>> a = hashed_document_id(b"k" * 32, "letters/alice.txt")
    >>> len(a), a == hashed_document_id(b"k" * 32, "letters/alice.txt")
    (32, True)
    >>> a == hashed_document_id(b"j" * 32, "letters/alice.txt")
    False
    """
    if not isinstance(run_key, bytes | bytearray):
        raise TypeError(f"run_key must be bytes; got {type(run_key).__name__}")
    id_key = hmac.new(bytes(run_key), b"emprivacy-document-id", hashlib.sha256).digest()
    mac = hmac.new(id_key, str(document_id).encode("utf-8", "surrogatepass"), hashlib.sha256)
    return mac.hexdigest()[:HASHED_ID_DIGITS]


def run_key_from_seed(seed: int | None) -> bytes:
    """The per-run secret key: random (OS entropy) or derived from a seed.

    >>> run_key_from_seed(3) == run_key_from_seed(3)
    True
    >>> len(run_key_from_seed(None))
    32
    """
    if seed is None:
        return secrets.token_bytes(32)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or int(seed) < 0:
        raise ValueError(f"seed must be an integer >= 0; got {seed!r}")
    return hashlib.sha256(b"emprivacy-run-key\x00" + str(int(seed)).encode()).digest()
