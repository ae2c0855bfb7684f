"""Subword vectors of a fastText ``.bin`` model, for out-of-vocabulary words (``oov="subword"``).

A fastText model (Bojanowski et al. 2017) represents a word w by the character
n-grams G(w) of ``<w>`` (``min_n ≤ |g| ≤ max_n`` characters, ``<`` and ``>``
marking the word's boundaries), each hashed (FNV-1a) to one of ``bucket`` rows of an
n-gram matrix Z.  A word that is not in the model's vocabulary still gets a vector,

.. math::  \\mathrm{Vec}(w) = \\frac{1}{|G(w)|} \\sum_{g \\in G(w)} Z_{h(g)},

what fastText's ``get_word_vector`` computes (before the unit-length scaling that
some builds of the ``fasttext`` module apply).  :class:`SubwordModel` holds Z and
the n-gram parameters — nothing else of the model — and computes these vectors for
many words at once.  ``Vec(w)`` is a point of R^n like any vocabulary vector: the
mechanisms that take arbitrary points
(:meth:`~emprivacy.mechanisms.WordMechanism.privatize_points`) add the same noise
to it and decode it to a *vocabulary* word, so the released word is always a
vocabulary word and the metric-DP bound ``exp(ε·d(p, p'))`` holds between any two
points p, p' of R^n, subword vectors included (docs/TEXT_MODE.md).

Memory: a real model (e.g. ``cc.en.300.bin``: 2M words, 2M buckets × 300 float32)
is read whole by gensim (about 3 × 2.4 GB while loading); what is kept is the
``vocab_size`` in-vocabulary vectors and Z (2.4 GB).
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Sequence
from functools import cached_property
from itertools import islice
from pathlib import Path

import numpy as np

from emprivacy.exceptions import EmbeddingsFormatError
from emprivacy.text.tokens import is_word

__all__ = ["FASTTEXT_MAGIC", "SubwordModel", "header_has_subwords", "load_fasttext_binary"]

#: The first four bytes of a fastText ``.bin`` model (little-endian int32 793712314).
FASTTEXT_MAGIC = (0x2F4F16BA).to_bytes(4, "little")

#: Words whose n-grams are gathered at a time (bounds the memory of :meth:`SubwordModel.vectors`).
_CHUNK_WORDS = 4096


class SubwordModel:
    """The n-gram part of a fastText model: ``Vec(w)`` for any word w, from its n-grams.

    Parameters
    ----------
    ngram_vectors : (bucket, n) array-like
        The n-gram matrix Z; stored as read-only C-contiguous float32.
    min_n, max_n : int
        The n-gram lengths, in characters (``1 ≤ min_n ≤ max_n``).

    Notes
    -----
    Picklable (the Dask path sends it to the workers with the embeddings).
    :meth:`vectors` gives the zero vector to a word without any n-gram (a word
    shorter than ``min_n − 2`` characters): it cannot be embedded.

    Examples
    --------
    >>> model = SubwordModel(np.eye(4, 2), min_n=3, max_n=3)
    >>> model.dim, model.bucket
    (2, 4)
    >>> model.vectors(["cat"]).shape
    (1, 2)
    """

    def __init__(self, ngram_vectors: np.ndarray | Sequence[Sequence[float]], *,
                 min_n: int, max_n: int) -> None:
        z = np.ascontiguousarray(ngram_vectors, dtype=np.float32)
        if z.ndim != 2 or z.shape[0] < 1 or z.shape[1] < 1:
            raise ValueError(f"ngram_vectors must be a non-empty 2-D array (bucket × dim); "
                             f"got shape {z.shape}")
        if not np.all(np.isfinite(z)):
            raise ValueError("ngram_vectors must be finite; found NaN or infinity")
        for value, name in ((min_n, "min_n"), (max_n, "max_n")):
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise TypeError(f"{name} must be an int; got {type(value).__name__}")
        if not 1 <= int(min_n) <= int(max_n):
            raise ValueError(f"n-gram lengths must satisfy 1 <= min_n <= max_n; got "
                             f"min_n={min_n}, max_n={max_n}")
        z = z.view()
        z.flags.writeable = False
        self._z = z
        self.min_n = int(min_n)
        self.max_n = int(max_n)

    @property
    def ngram_vectors(self) -> np.ndarray:
        """The (bucket, n) read-only float32 n-gram matrix Z."""
        return self._z

    @property
    def dim(self) -> int:
        """The dimension n of the vectors."""
        return int(self._z.shape[1])

    @property
    def bucket(self) -> int:
        """The number of n-gram hash buckets (rows of Z)."""
        return int(self._z.shape[0])

    def __repr__(self) -> str:
        return (f"SubwordModel(bucket={self.bucket}, dim={self.dim}, min_n={self.min_n}, "
                f"max_n={self.max_n})")

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._z.flags.writeable = False  # the unpickled copy owns its memory: read-only again

    @cached_property
    def fingerprint(self) -> str:
        """SHA-256 of the n-gram parameters and matrix: identifies the subword model."""
        h = hashlib.sha256(f"fasttext-subwords {self.min_n} {self.max_n} {self._z.shape}\n"
                           .encode())
        h.update(self._z.tobytes())
        return h.hexdigest()

    def hashes(self, word: str) -> list[int]:
        """The rows of Z of the n-grams of ``word`` (fastText's hash, modulo ``bucket``)."""
        from gensim.models.fasttext import ft_ngram_hashes

        return list(ft_ngram_hashes(word, self.min_n, self.max_n, self.bucket))

    def vectors(self, words: Sequence[str]) -> np.ndarray:
        """``Vec(w)`` of each word: the mean of its n-gram rows of Z, (len(words), n) float32.

        Summed in float64; a word without any n-gram gets the zero vector.
        """
        if isinstance(words, str):
            raise TypeError("words must be a sequence of str, not a single str")
        words = list(words)
        out = np.zeros((len(words), self.dim), dtype=np.float32)
        for start in range(0, len(words), _CHUNK_WORDS):
            part = words[start:start + _CHUNK_WORDS]
            rows = [self.hashes(w) for w in part]
            counts = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
            has = np.flatnonzero(counts)
            if not has.size:
                continue
            flat = np.fromiter((h for r in rows for h in r), dtype=np.int64)
            starts = np.concatenate(([0], np.cumsum(counts[has])[:-1]))
            sums = np.add.reduceat(self._z[flat].astype(np.float64), starts, axis=0)
            out[start + has] = sums / counts[has, None]
        return out


def header_has_subwords(path: str | os.PathLike[str]) -> bool:
    """Whether a file is a fastText ``.bin`` model with subword n-grams, from its header
    alone (magic, version, then the int32 arguments ``dim ws epoch minCount neg
    wordNgrams loss model bucket minn maxn``): the check made before a corpus run
    starts its workers."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(52)
    except OSError:
        return False
    if len(head) < 52 or head[:4] != FASTTEXT_MAGIC:
        return False
    fields = np.frombuffer(head, dtype="<i4")
    bucket, min_n, max_n = (int(x) for x in fields[10:13])
    return bucket >= 1 and 1 <= min_n <= max_n


def _read_model(path: Path) -> object:
    """gensim's ``FastTextKeyedVectors`` of a fastText ``.bin`` file (one-line errors)."""
    from gensim.models.fasttext import load_facebook_vectors

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return load_facebook_vectors(str(path))
    except MemoryError:
        raise
    except Exception as exc:  # gensim raises many types for a corrupt or truncated model
        raise EmbeddingsFormatError(
            f"could not read embeddings file {str(path)!r} as a fastText .bin model "
            f"(corrupt, truncated or quantised?): {type(exc).__name__}: {exc}") from None


def load_fasttext_binary(path: str | os.PathLike[str], vocab_size: int | None
                         ) -> tuple[list[str], np.ndarray, SubwordModel | None]:
    """Read a fastText ``.bin`` model: its vocabulary, vectors and subword model.

    Parameters
    ----------
    path : path-like
        A model written by fastText's ``save_model`` (magic number :data:`FASTTEXT_MAGIC`).
    vocab_size : int or None
        Keep the ``vocab_size`` most frequent real words (:func:`emprivacy.text.tokens.is_word`);
        ``None`` keeps every real word.

    Returns
    -------
    words : list of str
    vectors : (V, n) float32 array
        fastText's vector of each word: the mean of its own row and its n-gram rows.
    subword : SubwordModel or None
        ``None`` when the model has no n-grams (``maxn = 0`` or no bucket).
    """
    path = Path(path)
    kv = _read_model(path)
    keys: list[str] = list(kv.index_to_key)  # type: ignore[attr-defined]
    real = (i for i, w in enumerate(keys) if is_word(w))
    keep = np.fromiter(real if vocab_size is None else islice(real, vocab_size), dtype=np.int64)
    vectors = np.ascontiguousarray(kv.vectors[keep], dtype=np.float32)  # type: ignore[attr-defined]
    words = [keys[i] for i in keep]
    z = kv.vectors_ngrams  # type: ignore[attr-defined]
    min_n, max_n = int(kv.min_n), int(kv.max_n)  # type: ignore[attr-defined]
    subword = None
    if max_n >= 1 and min_n >= 1 and z.ndim == 2 and z.shape[0] >= 1:
        subword = SubwordModel(z, min_n=min_n, max_n=max_n)
    return words, vectors, subword
