"""The word channel of a mechanism: ``C[x, y] = P[M(x) = y]`` over secret words x.

The quantitative-information-flow view (Alvim, Chatzikokolakis, McIver, Morgan,
Palamidessi, Smith, *The Science of Quantitative Information Flow*, 2020): a word
mechanism M restricted to a set S of K secret words is a channel matrix C with a row
per secret and a column per output word of the whole vocabulary V.  Two ways to get it:

* **exact** (:class:`ExactChannel`) where the law has a closed form — SanText and TEM,
  ``C[x, y] ∝ exp(−(ε/2)·min(d(x, y), γ))`` (γ = ∞ for SanText): computed in column
  blocks of the vocabulary from float64 distances, never stored whole (K × |V| dense);
* **sampled** (:class:`SampledChannel`, :func:`sample_channel`) for the others (madlib,
  mahalanobis, vickrey, any of them with rank resampling): ``draws`` releases of every
  secret through the mechanism's batch path (:meth:`WordMechanism.privatize_batches`:
  one noise draw and one batched decode per block of about 131,000 points), stored as
  the (K, draws) array of released rows — only the outputs that occurred.  A sampled
  channel is an *estimate* of C (see :mod:`emprivacy.protection.leakage.vulnerability` for what
  that does to the measures).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from emprivacy._validation import check_memory, check_positive_int
from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.mechanisms._tiles import VocabularyGeometry
from emprivacy.mechanisms.base import WordMechanism, check_rows
from emprivacy.mechanisms.santext import SanText
from emprivacy.mechanisms.tem import TruncatedExponential

__all__ = ["ExactChannel", "Progress", "SampledChannel", "check_sample_size", "has_exact_channel",
           "sample_channel"]

#: ``progress(done, total, description)``: called as the work advances.
Progress = Callable[[int, int, str], None]

#: Vocabulary columns per block of an exact channel (K × this float64 at a time) ...
_BLOCK_COLS = 2048
#: ... fewer for many secrets, so that a block stays within this many bytes (at least 64
#: columns): 2,048 up to K = 2,048.
_BLOCK_BYTES = 32 * 2**20
#: Bytes per release of a sampled channel and its measures (the (K, D) rows released,
#: their sparse counts and the split-half attack's keys; 45 measured).
BYTES_PER_DRAW = 48
#: Points (secrets × draws) per call of the mechanism's batch path.
_CHUNK_POINTS = 1 << 17


def has_exact_channel(mechanism: WordMechanism) -> bool:
    """Whether the mechanism's channel has a closed form here (SanText, TEM).

    >>> from emprivacy import Embeddings, SanText, EarthMoversPrivacy
    >>> emb = Embeddings(["cat", "dog"], [[0.0], [1.0]])
    >>> has_exact_channel(SanText(emb, epsilon=1.0)), has_exact_channel(
    ...     EarthMoversPrivacy(emb, epsilon=1.0))
    (True, False)
    """
    return type(mechanism) in (SanText, TruncatedExponential)


class ExactChannel:
    """The closed-form channel of SanText or TEM over secret rows, in column blocks.

    .. math::

        C[x, y] = \\frac{e^{-(ε/2) \\min(d(x, y), γ)}}{\\sum_{y' ∈ V} e^{-(ε/2)
                  \\min(d(x, y'), γ)}}, \\qquad d(x, y) = ‖\\mathrm{Vec}(x) − \\mathrm{Vec}(y)‖_2,

    γ = ∞ for SanText, TEM's threshold :attr:`TruncatedExponential.gamma` for TEM — the
    law both mechanisms sample exactly (:mod:`emprivacy.mechanisms.exponential`).

    **Distances.**  The sampler's law is defined by the float64 sum
    ``Σ_k (Vec(y)_k − Vec(x)_k)²``.  A block of squared distances is one float64 GEMM of
    the centred vectors (:class:`~emprivacy.mechanisms._tiles.VocabularyGeometry`), within
    a proven ``s(x)`` of that sum; every entry below ``s(x) / τ`` (τ = 2⁻³⁶: the word
    itself, duplicates and near neighbours) is recomputed by the defining sum itself
    (:meth:`~emprivacy.mechanisms._tiles.VocabularyGeometry.accurate_squared`).  So
    ``d(x, x) = 0`` exactly, and every log-weight ``−(ε/2)·min(d, γ)`` is within a
    relative τ/2 (7.3e-12) of the sampler's, at every ε.

    **Log space.**  The normalisers are log-sum-exps over each row (a running maximum),
    and :meth:`log_columns` gives ``log C`` directly: no weight under- or overflows into
    a wrong figure, whatever ε (at ε = 1e300 a secret is released as itself, by SanText
    with probability 1 and by TEM with the probability ``1 − β`` its truncation leaves).
    Memory: K × ``block_cols`` float64 at a time.

    Parameters
    ----------
    mechanism : SanText or TruncatedExponential
    rows : (K,) array-like of int
        The secret words' vocabulary rows (distinct).
    block_cols : int, optional
        Vocabulary columns per block; default 2048, fewer for more than 2,048 secrets
        (a block of at most 32 MiB, at least 64 columns).

    Examples
    --------
    >>> from emprivacy import Embeddings, SanText
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
    >>> mech = SanText(emb, epsilon=2.0)
    >>> C = ExactChannel(mech, [0, 2]).matrix()
    >>> bool(np.allclose(C[0], mech.output_probabilities(0)))
    True
    >>> ExactChannel(SanText(emb, epsilon=1e300), [0, 2]).matrix().tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    """

    def __init__(self, mechanism: WordMechanism, rows: np.ndarray | list[int], *,
                 block_cols: int | None = None) -> None:
        if not has_exact_channel(mechanism):
            raise TypeError(f"mechanism {getattr(mechanism, 'name', mechanism)!r} has no "
                            "closed-form channel here (SanText and TEM have); sample it "
                            "with sample_channel")
        self.mechanism = mechanism
        vectors = mechanism.embeddings.vectors
        self.n_outputs = int(vectors.shape[0])
        self.rows = check_rows(rows, "rows", self.n_outputs)
        if self.rows.size == 0:
            raise ValueError("rows must hold at least one secret; got none")
        self.block_cols = (
            min(_BLOCK_COLS, max(64, _BLOCK_BYTES // (8 * self.rows.size)))
            if block_cols is None else check_positive_int(block_cols, "block_cols"))
        self.gamma = (float(mechanism.gamma) if isinstance(mechanism, TruncatedExponential)
                      else math.inf)
        self.half_eps = 0.5 * mechanism.epsilon
        self._geometry = VocabularyGeometry(mechanism.embeddings, block_cols=self.block_cols)
        self._log_normalisers: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.rows.size)

    def n_blocks(self) -> int:
        """Column blocks of one pass over the vocabulary."""
        return -(-self.n_outputs // self.block_cols)

    def squared_distances(self, columns: slice | np.ndarray) -> np.ndarray:
        """``d(x, y)²`` for every secret x and the outputs y of ``columns`` (a slice or
        rows): (K, len) float64, as accurate as the class docstring says."""
        return self._geometry.accurate_squared(self.rows, columns)

    def log_weights(self, start: int, stop: int) -> np.ndarray:
        """``−(ε/2)·min(d(x, y), γ)`` for every secret x and the outputs ``start ≤ y < stop``."""
        return self._scores(self.squared_distances(slice(start, stop)))

    def log_columns(self, columns: np.ndarray, progress: Progress | None = None) -> np.ndarray:
        """``log C[x, y]`` for every secret x and the outputs y of ``columns``: (K, len)."""
        cols = check_rows(columns, "columns", self.n_outputs)
        z = self.log_normalisers(progress)
        return self._scores(self.squared_distances(cols)) - z[:, None]

    def _scores(self, d2: np.ndarray) -> np.ndarray:
        """``−(ε/2)·min(d, γ)`` from squared distances, in place."""
        np.maximum(d2, 0.0, out=d2)  # a GEMM value a rounding below 0 is a distance 0
        np.sqrt(d2, out=d2)
        np.minimum(d2, self.gamma, out=d2)  # not min(d², γ²): γ² underflows at ε = 1e300
        # 0 for d = 0 whatever ε; −inf where (ε/2)·d overflows: a weight of 0
        with np.errstate(over="ignore"):
            d2 *= -self.half_eps
        return d2

    def log_normalisers(self, progress: Progress | None = None) -> np.ndarray:
        """``log Σ_y exp(−(ε/2)·min(d(x, y), γ))`` per secret: (K,) float64, ≥ 0 (y = x
        adds ``e⁰``), a running log-sum-exp over the blocks."""
        if self._log_normalisers is None:
            top = np.full(self.rows.size, -np.inf)
            total = np.zeros(self.rows.size)
            for b, start in enumerate(range(0, self.n_outputs, self.block_cols)):
                lw = self.log_weights(start, min(start + self.block_cols, self.n_outputs))
                new_top = np.maximum(top, lw.max(axis=1))
                shift = np.where(np.isfinite(new_top), new_top, 0.0)  # all −inf so far: 0
                total *= np.exp(top - shift)
                total += np.exp(lw - shift[:, None]).sum(axis=1)
                top = new_top
                if progress is not None:
                    progress(b + 1, 2 * self.n_blocks(), "normalising the channel")
            self._log_normalisers = top + np.log(total)
        return self._log_normalisers

    def normalisers(self, progress: Progress | None = None) -> np.ndarray:
        """``Σ_y exp(−(ε/2)·min(d(x, y), γ))`` per secret: (K,) float64, ≥ 1 (y = x adds 1)."""
        return np.exp(self.log_normalisers(progress))

    def blocks(self, progress: Progress | None = None) -> Iterator[tuple[int, np.ndarray]]:
        """``(start, C[:, start:start + b])`` over the vocabulary, block by block."""
        z = self.log_normalisers(progress)
        n = self.n_blocks()
        for b, start in enumerate(range(0, self.n_outputs, self.block_cols)):
            block = self.log_weights(start, min(start + self.block_cols, self.n_outputs))
            block -= z[:, None]
            np.exp(block, out=block)
            yield start, block
            if progress is not None:
                progress(n + b + 1, 2 * n, "measuring the channel")

    def matrix(self) -> np.ndarray:
        """The whole (K, |V|) matrix, dense: for small vocabularies and tests only."""
        return np.concatenate([blk for _, blk in self.blocks()], axis=1)


@dataclass(frozen=True)
class SampledChannel:
    """A channel estimated from ``draws`` releases of every secret.

    Attributes
    ----------
    rows : (K,) int64 array
        The secret words' vocabulary rows.
    outputs : (K, D) int64 array
        ``outputs[i, j]``: the row released by the j-th run of the mechanism on secret i
        (runs independent; the sparse channel is in these arrays: only what occurred).
    n_outputs : int
        |V|, the number of possible outputs.
    """

    rows: np.ndarray = field(repr=False)
    outputs: np.ndarray = field(repr=False)
    n_outputs: int

    def __post_init__(self) -> None:
        if self.outputs.ndim != 2 or self.outputs.shape[0] != self.rows.size:
            raise ValueError(f"outputs must have shape ({self.rows.size}, draws); got "
                             f"{self.outputs.shape}")

    def __len__(self) -> int:
        return int(self.rows.size)

    @property
    def draws(self) -> int:
        """D, the releases per secret."""
        return int(self.outputs.shape[1])

    def counts(self, columns: slice | None = None) -> sparse.csr_matrix:
        """``n[x, y]``, how often secret x was released as y: sparse (K, |V|) int64.

        ``columns`` selects some of the draws (e.g. ``slice(0, D // 2)``).
        """
        out = self.outputs if columns is None else self.outputs[:, columns]
        k, d = out.shape
        secret = np.repeat(np.arange(k, dtype=np.int64), d)
        return sparse.csr_matrix((np.ones(k * d, dtype=np.int64), (secret, out.ravel())),
                                 shape=(k, self.n_outputs))

    def matrix(self) -> sparse.csr_matrix:
        """The estimate ``Ĉ[x, y] = n[x, y] / D``: sparse (K, |V|) float64."""
        c = self.counts().astype(np.float64)
        c.data /= self.draws
        return c


def check_sample_size(secrets: int, draws: int) -> None:
    """Refuse a sampled channel that the machine cannot hold, before any release.

    ``secrets × draws`` releases take about :data:`BYTES_PER_DRAW` bytes each while the
    channel is sampled and measured (Python integers: no size overflows).

    Raises
    ------
    ValueError
        One line: what it needs, what is available, what to lower.
    """
    check_memory(BYTES_PER_DRAW * int(secrets) * int(draws),
                 f"the sampled channel ({secrets} secrets x {draws} draws)",
                 "use fewer draws or fewer secrets")


def sample_channel(mechanism: WordMechanism, rows: np.ndarray | list[int], *,
                   draws: int = 500, rng: RandomState = None,
                   progress: Progress | None = None) -> SampledChannel:
    """Run the mechanism ``draws`` times on each secret row: a :class:`SampledChannel`.

    The runs go through the mechanism's batch path
    (:meth:`~emprivacy.mechanisms.WordMechanism.privatize_batches`): blocks of secrets
    of about 131,000 points each, every block one call (one noise draw, one batched
    decode); no per-word loop.  Any mechanism works, SanText and TEM included (to check
    their exact channels).

    Parameters
    ----------
    mechanism : WordMechanism
        The mechanism at its ε.
    rows : (K,) array-like of int
        Secret rows (distinct).
    draws : int, default 500
        Releases per secret, D ≥ 2 (the split-half attack uses D // 2 and the rest);
        K·D releases that need more memory than is available are refused before any
        (:func:`check_sample_size`).
    rng : None, int or numpy.random.Generator
        The draws' generator (``None``: secure; an int seeds a reproducible audit).
    progress : callable, optional
        ``progress(done, total, description)`` in points released.

    Returns
    -------
    SampledChannel

    Examples
    --------
    >>> from emprivacy import Embeddings, EarthMoversPrivacy
    >>> emb = Embeddings(["cat", "dog", "car"], [[0.0], [1.0], [3.0]])
    >>> ch = sample_channel(EarthMoversPrivacy(emb, epsilon=50.0), [0, 2], draws=4, rng=0)
    >>> ch.outputs.tolist()
    [[0, 0, 0, 0], [2, 2, 2, 2]]
    """
    if not isinstance(mechanism, WordMechanism):
        raise TypeError(f"mechanism must be a WordMechanism; got {type(mechanism).__name__}")
    n_words = len(mechanism.embeddings)
    secret_rows = check_rows(rows, "rows", n_words)
    if secret_rows.size == 0:
        raise ValueError("rows must hold at least one secret; got none")
    if np.unique(secret_rows).size != secret_rows.size:
        raise ValueError("rows must be distinct secrets")
    draws = check_positive_int(draws, "draws", minimum=2)
    check_sample_size(secret_rows.size, draws)
    gen = check_random_state(rng)
    k = secret_rows.size
    out = np.empty((k, draws), dtype=np.int64)
    per_chunk = max(1, _CHUNK_POINTS // draws)
    total = k * draws
    for start in range(0, k, per_chunk):
        stop = min(k, start + per_chunk)
        bag = np.repeat(secret_rows[start:stop], draws)
        released = mechanism.privatize_batches([(bag, gen)])[0]
        out[start:stop] = np.asarray(released, dtype=np.int64).reshape(stop - start, draws)
        if progress is not None:
            progress(stop * draws, total, "sampling the channel")
    return SampledChannel(secret_rows, out, n_words)
