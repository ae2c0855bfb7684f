"""Decoding noisy vectors back to words: ``Vec⁻¹`` of Alg. 2.

``Vec⁻¹(z) = argmin_w ‖z − Vec(w)‖`` over the whole vocabulary.  Decoding is
post-processing of the noisy vectors, so it never weakens the privacy guarantee
(Lemma 2 of the paper); a decoder only affects utility.

The exact decoder expands ``‖z − w‖² = ‖z‖² − 2 z·w + ‖w‖²``; ``‖z‖²`` is the
same for every word, so the argmin is that of ``‖w‖² − 2 z·w``.  Appending a
constant 1 to each query and ``‖w‖²`` to each (−2-scaled) word vector turns that
into a single matrix product, ``[z, 1] · [−2w, ‖w‖²]ᵀ``, computed block by block
so that the extra memory never exceeds a fixed budget whatever the number of
queries.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ._validation import check_positive_int
from .embeddings import Embeddings

__all__ = ["DEFAULT_MEMORY_BUDGET", "Decoder", "ExactDecoder"]

#: Default bound on the decoder's scratch memory (bytes).
DEFAULT_MEMORY_BUDGET = 256 * 2**20


@runtime_checkable
class Decoder(Protocol):
    """What the mechanism needs from a decoder: a name and a ``decode`` method."""

    name: str

    def decode(self, points: np.ndarray) -> np.ndarray:
        """Vocabulary row index of the word chosen for each point (int64, shape (m,))."""
        ...


def as_points(points: np.ndarray | object, dim: int) -> np.ndarray:
    """Validate a batch of query points: a finite (m, dim) float32 C-contiguous array."""
    z = np.asarray(points, dtype=np.float32)
    if z.ndim == 1 and z.shape[0] == dim:
        z = z[None, :]
    if z.ndim != 2 or z.shape[1] != dim:
        raise ValueError(f"points must have shape (m, {dim}) to match the embedding dimension; "
                         f"got {z.shape}")
    if not np.all(np.isfinite(z)):
        raise ValueError("points must be finite; found NaN or infinity")
    return np.ascontiguousarray(z)


class ExactDecoder:
    """Exact Euclidean nearest-word decoder: blocked matrix product with fused argmin.

    Parameters
    ----------
    embeddings : Embeddings
        The vocabulary to decode into.
    memory_budget : int, default 256 MiB
        Upper bound, in bytes, on the scratch matrix of distances; queries are
        processed in blocks of ``memory_budget // (4 V)`` rows.

    Notes
    -----
    Ties (two words at exactly the same distance) go to the lower row index,
    i.e. the more frequent word; ties within float32 rounding may go either way,
    which is post-processing and does not affect privacy.

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c"], [[0, 0], [3, 0], [0, 4]])
    >>> ExactDecoder(emb).decode([[1.4, 0.0], [1.6, 0.0], [0.1, 3.0]]).tolist()
    [0, 1, 2]
    """

    name = "exact"

    def __init__(self, embeddings: Embeddings, *, memory_budget: int = DEFAULT_MEMORY_BUDGET):
        if not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        self.embeddings = embeddings
        self.memory_budget = check_positive_int(memory_budget, "memory_budget")
        n_words = len(embeddings)
        # augmented vocabulary [−2w, ‖w‖²], stored transposed for the product
        aug = np.empty((n_words, embeddings.dim + 1), dtype=np.float32)
        np.multiply(embeddings.vectors, -2.0, out=aug[:, :-1])
        aug[:, -1] = embeddings.squared_norms
        self._aug_t = aug.T  # (n+1, V), a Fortran-ordered view: BLAS reads it transposed
        self.block_rows = max(1, self.memory_budget // (4 * n_words))

    def decode(self, points: np.ndarray | object) -> np.ndarray:
        """Index of the nearest vocabulary word of each point (exact argmin)."""
        z = as_points(points, self.embeddings.dim)
        m = z.shape[0]
        out = np.empty(m, dtype=np.int64)
        if m == 0:
            return out
        rows = min(self.block_rows, m)
        zq = np.ones((rows, z.shape[1] + 1), dtype=np.float32)
        scratch = np.empty((rows, self._aug_t.shape[1]), dtype=np.float32)
        for start in range(0, m, rows):
            stop = min(start + rows, m)
            b = stop - start
            zq[:b, :-1] = z[start:stop]
            np.matmul(zq[:b], self._aug_t, out=scratch[:b])
            np.argmin(scratch[:b], axis=1, out=out[start:stop])
        return out
