"""The Earth Mover's distance between bags (Def. 3 of the paper).

.. math::

    E_d(X, Y) = \\min_F \\sum_{i,j} d(x_i, y_j) F_{ij}
    \\quad\\text{s.t.}\\quad \\sum_i F_{ij} = b_j/|Y|,\\ \\sum_j F_{ij} = a_i/|X|,\\ F \\ge 0

The flows sum to 1, so E is an average cost per unit of mass.  For bags of the
same size N, Birkhoff–von Neumann (Thm. A.1) says an optimal F is a permutation
matrix scaled by 1/N, so E is the assignment problem's optimum divided by N,
solved exactly by :func:`scipy.optimize.linear_sum_assignment`.  Bags of
different sizes go through the transport solver of POT (``ot.emd2``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.spatial.distance import cdist

from ._validation import check_choice
from .embeddings import Embeddings

__all__ = ["cost_matrix", "earth_movers_distance"]

_METRICS = {"euclidean": "euclidean", "manhattan": "cityblock"}


def _as_vectors(bag: object, embeddings: Embeddings | None, label: str) -> np.ndarray:
    if isinstance(bag, str):
        raise TypeError(f"{label} must be a sequence of words or an (N, n) array, not a str")
    if isinstance(bag, np.ndarray) and bag.dtype.kind in "fiu":
        X = bag.astype(np.float64)
    else:
        items = list(bag)  # type: ignore[call-overload]
        if items and all(isinstance(w, str) for w in items):
            if embeddings is None:
                raise ValueError(f"{label} is a bag of words: pass embeddings to compare words")
            rows = []
            for w in items:
                j = embeddings.get_index(w)
                if j < 0:
                    raise ValueError(f"word {w!r} of {label} is not in the vocabulary of "
                                     f"{embeddings.name!r}")
                rows.append(j)
            X = embeddings.vectors[np.asarray(rows, dtype=np.int64)].astype(np.float64)
        else:
            X = np.asarray(items, dtype=np.float64)
    if X.size == 0:
        raise ValueError(f"{label} is empty; the Earth Mover's distance needs at least one item")
    if X.ndim != 2:
        raise ValueError(f"{label} must be a bag of words or an (N, n) array; got shape "
                         f"{X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{label} must be finite; found NaN or infinity")
    return X


def cost_matrix(X: np.ndarray, Y: np.ndarray, *, metric: str = "euclidean") -> np.ndarray:
    """Ground distances ``d(x_i, y_j)`` between the items of two bags of vectors."""
    check_choice(metric, "metric", tuple(_METRICS))
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"bags must have the same dimension; got {X.shape[1]} and {Y.shape[1]}")
    return cdist(X, Y, metric=_METRICS[metric])


def earth_movers_distance(bag_a: Sequence[str] | np.ndarray, bag_b: Sequence[str] | np.ndarray,
                          embeddings: Embeddings | None = None, *, metric: str = "euclidean",
                          method: str = "auto") -> float:
    """Earth Mover's distance ``E_d(X, Y)`` between two bags (Def. 3), flows summing to 1.

    Parameters
    ----------
    bag_a, bag_b : sequence of str, or (N, n) array
        Bags of words (one entry per occurrence; needs ``embeddings``) or bags of
        raw vectors (rows).
    embeddings : Embeddings, optional
        ``Vec`` for bags of words: the ground distance is ``d(Vec(w₁), Vec(w₂))``.
    metric : {"euclidean", "manhattan"}
        The ground metric d on R^n.
    method : {"auto", "assignment", "transport"}
        ``"assignment"`` requires equal sizes and solves the assignment problem
        (Birkhoff–von Neumann, Thm. A.1); ``"transport"`` uses POT's exact
        network simplex ``ot.emd2``; ``"auto"`` picks the assignment for equal
        sizes and transport otherwise.  Both give the same value.

    Returns
    -------
    float

    Examples
    --------
    A 1-D shift of a bag by 2 costs 2:

    >>> earth_movers_distance(np.array([[0.0], [1.0]]), np.array([[2.0], [3.0]]))
    2.0

    Bags of different sizes: all the mass moves to the right, so in 1-D the cost
    is the difference of the means, 2.5 − 0.5:

    >>> earth_movers_distance(np.array([[0.0], [1.0]]), np.array([[2.0], [3.0], [2.5]]))
    2.0
    """
    check_choice(method, "method", ("auto", "assignment", "transport"))
    X = _as_vectors(bag_a, embeddings, "bag_a")
    Y = _as_vectors(bag_b, embeddings, "bag_b")
    M = cost_matrix(X, Y, metric=metric)
    same = X.shape[0] == Y.shape[0]
    if method == "assignment" and not same:
        raise ValueError("bags must have the same size for the assignment method; got "
                         f"{X.shape[0]} and {Y.shape[0]}")
    if method == "assignment" or (method == "auto" and same):
        rows, cols = linear_sum_assignment(M)
        return float(M[rows, cols].sum() / X.shape[0])
    import ot

    a = np.full(X.shape[0], 1.0 / X.shape[0])
    b = np.full(Y.shape[0], 1.0 / Y.shape[0])
    return float(ot.emd2(a, b, M))
