"""The Earth Mover's distance between bags (Def. 3 of the paper).

.. math::

    E_d(X, Y) = \\min_F \\sum_{i,j} d(x_i, y_j) F_{ij}
    \\quad\\text{s.t.}\\quad \\sum_i F_{ij} = b_j/|Y|,\\ \\sum_j F_{ij} = a_i/|X|,\\ F \\ge 0

The flows sum to 1, so E is an average cost per unit of mass.  For bags of the
same size N, Birkhoff–von Neumann (Thm. A.1) says an optimal F is a permutation
matrix scaled by 1/N, so E is the assignment problem's optimum divided by N,
solved exactly by :func:`scipy.optimize.linear_sum_assignment`.  Other bags go
through the exact network simplex of POT (``ot.emd2``) on their histograms: the
distinct items with their counts (occurrences of one word sit at one point, and
moving mass between them costs nothing, so merging them leaves E unchanged), less
the mass both put on a point (which stays there): a problem of distinct items
instead of N_a × N_b occurrences.  The
iteration limit grows until the solver reports an optimum; a value it does not
certify as optimal is never returned (:class:`~emprivacy.exceptions.SolverError`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.spatial.distance import cdist

from emprivacy._validation import check_choice
from emprivacy.embeddings.model import Embeddings
from emprivacy.exceptions import SolverError

__all__ = ["cost_matrix", "earth_movers_distance", "histogram_distance"]

#: The network simplex's first iteration limit is at least this (POT's default), and at
#: least ``_ITER_PER_CELL`` per cell of the cost matrix; it grows ``_ITER_GROWTH``-fold,
#: ``_ITER_TRIES`` times at most, while POT says the limit came before the optimum.
_MIN_ITER = 100_000
_ITER_PER_CELL = 10
_ITER_GROWTH = 10
_ITER_TRIES = 3
#: POT's result code of a certified optimum.
_OPTIMAL = 1

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
        on the N × N occurrences (Birkhoff–von Neumann, Thm. A.1); ``"transport"``
        solves the transport problem on the bags' histograms
        (:func:`histogram_distance`: distinct items and their counts, POT's exact
        network simplex, its iteration limit raised until the optimum is certified);
        ``"auto"`` picks the assignment for equal sizes without a repeated item and
        the transport otherwise.  All give the optimum (to rounding).

    Returns
    -------
    float

    Raises
    ------
    SolverError
        If the transport solver cannot certify the optimum (never a non-optimal value).

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
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"bags must have the same dimension; got {X.shape[1]} and "
                         f"{Y.shape[1]}")
    same = X.shape[0] == Y.shape[0]
    if method == "assignment" and not same:
        raise ValueError("bags must have the same size for the assignment method; got "
                         f"{X.shape[0]} and {Y.shape[0]}")
    if method != "assignment":
        points, inverse = np.unique(np.concatenate([X, Y]), axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        cx = np.bincount(inverse[:X.shape[0]], minlength=points.shape[0])
        cy = np.bincount(inverse[X.shape[0]:], minlength=points.shape[0])
        if method == "transport" or not same or cx.max() > 1 or cy.max() > 1:
            return histogram_distance(points, cx, cy, metric=metric)
    M = cost_matrix(X, Y, metric=metric)
    rows, cols = linear_sum_assignment(M)
    return float(M[rows, cols].sum() / X.shape[0])


def histogram_distance(points: np.ndarray, counts_a: np.ndarray, counts_b: np.ndarray, *,
                       metric: str = "euclidean") -> float:
    """E between two histograms on the same points (Def. 3), exactly.

    .. math::

        E = \\frac{1}{N_a N_b}\\min_F \\sum_{i,j} d(p_i, p_j) F_{ij}
        \\quad\\text{s.t.}\\quad \\sum_j F_{ij} = a_i N_b,\\ \\sum_i F_{ij} = b_j N_a,
        \\ F \\ge 0

    with ``N_a = Σ a``, ``N_b = Σ b``: integer masses, exact in float64 while
    ``N_a·N_b < 2⁵³``.  As d is a metric, the mass ``min(a_i N_b, b_i N_a)`` that both
    put on a point stays there in an optimal flow (sending it elsewhere cannot be
    cheaper, by the triangle inequality), so only the surpluses are transported: from
    the points where the first histogram has more to those where the second has more,
    by POT's network simplex (``ot.emd2``).  Its iteration limit starts at
    ``max(100,000, 10·cells)`` and grows tenfold, three times at most, while POT reports
    the limit reached before the optimum.

    Parameters
    ----------
    points : (U, n) array
        The distinct points of both bags.
    counts_a, counts_b : (U,) arrays of int
        Occurrences of each point in each bag (≥ 0; each bag at least one in all).
    metric : {"euclidean", "manhattan"}

    Returns
    -------
    float

    Raises
    ------
    SolverError
        If the solver reports no optimum even at the largest limit: no value that is not
        certified optimal is returned.

    Examples
    --------
    Three copies of 0 against one copy each of 1 and 3, and one copy of 0 against two:

    >>> pts = np.array([[0.0], [1.0], [3.0]])
    >>> histogram_distance(pts, np.array([3, 0, 0]), np.array([0, 1, 1]))
    2.0
    >>> histogram_distance(pts, np.array([1, 0, 0]), np.array([2, 0, 0]))
    0.0
    """
    import warnings

    import ot

    check_choice(metric, "metric", tuple(_METRICS))
    n_a, n_b = float(np.sum(counts_a)), float(np.sum(counts_b))
    a = np.asarray(counts_a, np.float64) * n_b
    b = np.asarray(counts_b, np.float64) * n_a
    common = np.minimum(a, b)
    a -= common
    b -= common
    src, dst = np.flatnonzero(a > 0), np.flatnonzero(b > 0)
    if src.size == 0:  # the same histogram, up to scale
        return 0.0
    M = cost_matrix(points[src], points[dst], metric=metric)
    limit = max(_MIN_ITER, _ITER_PER_CELL * M.size)
    for _ in range(_ITER_TRIES + 1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the log says how it ended, not a warning
            cost, log = ot.emd2(a[src], b[dst], M, numItermax=limit, log=True)
        if log["result_code"] == _OPTIMAL:
            return float(cost) / (n_a * n_b)
        if "numItermax" not in str(log.get("warning")):
            break
        limit *= _ITER_GROWTH
    raise SolverError(f"the transport solver did not reach the optimum of the Earth Mover's "
                      f"distance ({src.size} x {dst.size} points; "
                      f"{log.get('warning') or 'no optimum'}); no value is given")
