"""The faiss side of the approximate decoder: the inverted file, built, stored and searched.

The index is a faiss ``IndexIVFPQFastScan``: the vocabulary split into k-means
cells, each word stored as a 4-bit fast-scan code with one sub-quantiser per
dimension.  faiss is the ``approximate`` extra: it is imported on first use
(:func:`load_faiss`), never with the package, and only from this module.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np

from emprivacy._optional import import_optional

__all__ = [
    "build_index",
    "centroids",
    "default_nlist",
    "default_pq_m",
    "from_bytes",
    "load_faiss",
    "search_cells",
    "single_thread",
    "to_bytes",
]


def load_faiss() -> ModuleType:
    """The faiss module, or :class:`~emprivacy.exceptions.MissingExtraError` naming the extra.

    Not cached here: once imported, faiss is a look-up in ``sys.modules``.
    """
    return import_optional("faiss", extra="approximate", purpose="the approximate decoder")


@contextlib.contextmanager
def single_thread() -> Iterator[None]:
    """faiss (OpenMP) on one thread in the calling thread; the previous setting restored.

    All parallelism is ours (one Python thread per core, like the exact decoder):
    idle OpenMP and OpenBLAS thread pools spin-wait, and two pools spinning in
    turn on the same cores made index builds up to 25× slower in our measurements.
    """
    faiss = load_faiss()
    previous = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(previous)


def default_nlist(n_words: int) -> int:
    """About 4√V cells (a power of two), with at least 40 words per cell for k-means.

    >>> default_nlist(100_000), default_nlist(400_000), default_nlist(3000)
    (1024, 2048, 64)
    """
    target = min(4.0 * math.sqrt(n_words), n_words / 40.0)
    return int(max(8, 2 ** round(math.log2(max(target, 8.0)))))


def default_pq_m(dim: int) -> int:
    """Sub-quantisers for 4-bit fast-scan codes: one per dimension (up to 512 dimensions).

    Coarser codes (two or three dimensions per sub-quantiser) needed 16× more
    re-ranked candidates for the same agreement at 100k × 300, and were slower.

    >>> default_pq_m(50), default_pq_m(1000)
    (50, 500)
    """
    for dsub in range(1, dim + 1):
        if dim % dsub == 0 and dim // dsub <= 512:
            return dim // dsub
    return 1  # pragma: no cover - dsub = dim always qualifies


def build_index(x: np.ndarray, ids: np.ndarray, nlist: int, pq_m: int) -> Any:
    """The inverted file of the vectors ``x`` (C-contiguous float32) under the ids ``ids``."""
    faiss = load_faiss()
    dim = x.shape[1]
    quantizer = faiss.IndexFlatL2(dim)
    index = faiss.IndexIVFPQFastScan(quantizer, dim, nlist, pq_m, 4)
    index.by_residual = False
    index.cp.max_points_per_centroid = 64  # k-means on ≤ 64 points per cell: fast, enough
    with single_thread():
        index.train(x)
        index.add_with_ids(x, ids)
    return index


def to_bytes(index: Any) -> np.ndarray:
    """The index serialised (a uint8 array)."""
    return load_faiss().serialize_index(index)


def from_bytes(blob: np.ndarray) -> Any:
    """The index serialised by :func:`to_bytes`."""
    return load_faiss().deserialize_index(blob)


def centroids(index: Any, nlist: int) -> np.ndarray:
    """The ``nlist`` cell centres of the index."""
    return load_faiss().downcast_index(index.quantizer).reconstruct_n(0, nlist)


def search_cells(index: Any, z32: np.ndarray, cells: np.ndarray, cell_d: np.ndarray,
                 k: int) -> np.ndarray:
    """Ids of the ``k`` best words for each row of ``z32`` by fast-scan code distance, among
    the words of the given cells (``cells``: −1 = none; ``cell_d``: their centre distances).

    The number of cells goes in per-call search parameters, not in the shared
    index, so that threads can search at once.
    """
    faiss = load_faiss()
    n, nprobe = cells.shape
    params = faiss.SearchParametersIVF()
    params.nprobe = nprobe
    z32 = np.ascontiguousarray(z32, dtype=np.float32)
    cells = np.ascontiguousarray(cells, dtype=np.int64)
    cell_d = np.ascontiguousarray(cell_d, dtype=np.float32)
    dist = np.empty((n, k), dtype=np.float32)
    ids = np.empty((n, k), dtype=np.int64)
    index.search_preassigned_c(n, faiss.swig_ptr(z32), k, faiss.swig_ptr(cells),
                               faiss.swig_ptr(cell_d), faiss.swig_ptr(dist),
                               faiss.swig_ptr(ids), False, params)
    return ids
