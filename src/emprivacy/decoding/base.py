"""What every decoder is: the :class:`Decoder` protocol, and the validation of query points."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["FLOAT32_SAFE", "Decoder", "Top2Decoder", "check_magnitude", "check_points"]

#: Largest query coordinate accepted: products with word coordinates stay finite in float32.
FLOAT32_SAFE = 1e30


@runtime_checkable
class Decoder(Protocol):
    """What the mechanism needs from a decoder: a name and a ``decode`` method.

    ``decode`` must be a function of the noisy points alone (and of public
    data such as the vocabulary): that is what makes decoding post-processing
    (Lemma 3).  A decoder that also looked at the words the points were made
    from would no longer be covered by the guarantee.
    """

    name: str

    def decode(self, points: np.ndarray) -> np.ndarray:
        """Vocabulary row index of the word chosen for each point (int64, shape (m,))."""
        ...


@runtime_checkable
class Top2Decoder(Decoder, Protocol):
    """A decoder that also finds the second-nearest word (the Vickrey mechanism needs it).

    ``decode_top2`` must, like ``decode``, be a function of the noisy points alone.
    """

    def decode_top2(self, points: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Rows of the nearest and second-nearest words (int64, (m,) each, distinct) and
        their Euclidean distances (float64, ``d1 ≤ d2``)."""
        ...


def check_points(points: np.ndarray | object, dim: int) -> np.ndarray:
    """Shape check only, no copy of a float32/float64 array (finiteness: :func:`check_magnitude`).

    A single point may be given as a 1-D vector; integers are converted to float64.

    >>> check_points([1, 2], 2)
    array([[1., 2.]])
    >>> check_points([[1.0, 2.0, 3.0]], 2)
    Traceback (most recent call last):
    ...
    ValueError: points must have shape (m, 2) to match the embedding dimension; got (1, 3)
    """
    z = np.asarray(points)
    if z.dtype not in (np.float32, np.float64):
        if z.dtype.kind not in "iuf" and z.size:
            raise TypeError(f"points must be real numbers; got dtype {z.dtype}")
        z = z.astype(np.float64)
    if z.ndim == 1 and z.shape[0] == dim:
        z = z[None, :]
    if z.ndim != 2 or z.shape[1] != dim:
        raise ValueError(f"points must have shape (m, {dim}) to match the embedding dimension; "
                         f"got {z.shape}")
    return z


def check_magnitude(z: np.ndarray) -> None:
    """Reject NaN, infinity and coordinates of magnitude ``FLOAT32_SAFE`` or more.

    >>> check_magnitude(np.array([[1.0, np.nan]]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: points must be finite (and below 1e30 in magnitude); found NaN, ...
    """
    if not np.all(np.abs(z) < FLOAT32_SAFE):  # also False for NaN
        raise ValueError("points must be finite (and below 1e30 in magnitude); "
                         "found NaN, infinity or a huge value")
