"""The paper's four inference mechanisms (§6, App. B): two attacks on authorship, two on topic.

Same representation (the embedding space of the mechanism):

* **SRauth** — 1-NN: the author of the known text closest to the snippet by the
  Earth Mover's distance (Def. 3) between their bags of word vectors.
* **SRtopic** — 5-NN: the majority topic of the 5 closest known texts.

Different representation:

* **DRauth** — Koppel, Schler & Argamon (2011), "Authorship attribution in the
  wild", as reproduced by Potthast et al. (2016), the code the paper started
  from: character 4-gram counts, the 20,000 most frequent n-grams of the known
  texts as features, 100 rounds on a random half of the features, the most
  similar candidate wins a round, the author with most wins is the answer.
* **DRtopic** — a fastText supervised classifier (Joulin et al. 2016): 25
  epochs, learning rate 1.0, input vectors initialised with the embeddings.

The obfuscated snippet reaches every attack as the mechanism outputs it, a bag
of words; the character n-grams and fastText features are computed from that
bag, which is post-processing (Lemma 3 of the paper, §5).
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from emprivacy._optional import import_optional
from emprivacy._validation import check_choice, check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.exceptions import SolverError
from emprivacy.math.randomness import RandomState, check_random_state

#: POT's iteration limit for one snippet-text distance, and its code for "optimal".
_EMD_ITER = 10_000_000
_EMD_OPTIMAL = 1

__all__ = [
    "SIMILARITIES",
    "FastTextTopicClassifier",
    "KoppelAttribution",
    "char_ngrams",
    "earth_movers_distances",
    "nearest_neighbour_predict",
    "write_vec",
]

#: Similarities of the Koppel attack: ``cosine`` (the paper's description) and
#: ``minmax`` (the reproduction's code).
SIMILARITIES: tuple[str, ...] = ("cosine", "minmax")


# -- same representation: Earth Mover's distance and k-NN ---------------------------------
class _Measure:
    """A bag of words as a discrete distribution: unique in-vocabulary words and weights.

    Words without a vector (possible only under the ``keep`` OOV policy of the
    experiment) have no point in the space and are left out.
    """

    __slots__ = ("rows", "weights")

    def __init__(self, bag: Sequence[str], embeddings: Embeddings) -> None:
        idx = embeddings.rows(bag)
        rows, counts = np.unique(idx[idx >= 0], return_counts=True)
        self.rows = rows
        self.weights = counts / counts.sum() if counts.size else counts.astype(np.float64)


def earth_movers_distances(snippets: Sequence[Sequence[str]], texts: Sequence[Sequence[str]],
                           embeddings: Embeddings, *, n_jobs: int = 1) -> np.ndarray:
    """Earth Mover's distance (Def. 3) between every snippet and every known text.

    .. math::

        D_{jk} = E_{\\|\\cdot\\|}(\\mathrm{Vec}^\\star(s_j), \\mathrm{Vec}^\\star(t_k))

    A bag of N words is the distribution giving each distinct word its count / N
    (flows sum to 1, as in Def. 3), so the transport problem is solved on the
    distinct words only (POT's exact network simplex, ``ot.emd2``); this is the
    same value as :func:`emprivacy.earth_movers_distance` on the full bags, at
    a fraction of the cost.  Words without an embedding have no point in the
    space and are left out of the bag here (this matters only for the ``keep``
    OOV policy); a bag with no embedded word is at distance ``inf``.

    Parameters
    ----------
    snippets : sequence of m bags of words
    texts : sequence of k bags of words
    embeddings : Embeddings
    n_jobs : int, default 1
        Threads solving transport problems in parallel (the solver releases the GIL).

    Returns
    -------
    (m, k) float64 array

    Examples
    --------
    >>> emb = Embeddings(["a", "b", "c"], [[0.0], [1.0], [5.0]])
    >>> earth_movers_distances([["a", "b"]], [["b", "c"], ["a", "a"]], emb).round(6).tolist()
    [[2.5, 0.5]]
    """
    ot = import_optional("ot", extra="evaluation",
                         purpose="computing the SR attacks' Earth Mover's distances")
    n_jobs = check_positive_int(n_jobs, "n_jobs")
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    S = [_Measure(b, embeddings) for b in snippets]
    T = [_Measure(b, embeddings) for b in texts]
    V = embeddings.vectors
    # all texts' distinct words stacked: one matrix product per snippet gives every cost matrix
    bounds = np.cumsum([0] + [t.rows.size for t in T])
    Y = V[np.concatenate([t.rows for t in T])].astype(np.float64) if T else np.zeros((0, 1))
    y2 = np.einsum("ij,ij->i", Y, Y)

    def row(j: int) -> np.ndarray:
        s = S[j]
        out = np.full(len(T), np.inf)
        if s.rows.size == 0:
            return out
        X = V[s.rows].astype(np.float64)
        sq = np.einsum("ij,ij->i", X, X)[:, None] + y2[None, :] - 2.0 * (X @ Y.T)
        C = np.sqrt(np.maximum(sq, 0.0))
        for k, t in enumerate(T):
            if t.rows.size == 0:
                continue
            M = np.ascontiguousarray(C[:, bounds[k]:bounds[k + 1]])
            cost, log = ot.emd2(s.weights, t.weights, M, numItermax=_EMD_ITER, log=True)
            if log["result_code"] != _EMD_OPTIMAL:  # never a distance that is not the optimum
                raise SolverError(
                    f"the transport solver did not reach the optimum of the Earth Mover's "
                    f"distance between snippet {j} and text {k} ({M.shape[0]} x {M.shape[1]} "
                    f"words; {log.get('warning') or 'no optimum'}); no value is given")
            out[k] = max(float(cost), 0.0)
        return out

    D = np.empty((len(S), len(T)))
    if n_jobs == 1 or len(S) < 2:
        for j in range(len(S)):
            D[j] = row(j)
    else:
        with ThreadPoolExecutor(max_workers=n_jobs) as ex:
            for j, r in enumerate(ex.map(row, range(len(S)))):
                D[j] = r
    return D


def nearest_neighbour_predict(distances: np.ndarray, labels: Sequence[str], *, k: int
                              ) -> list[str]:
    """k-NN: for each row of ``distances`` the majority label of its k nearest columns.

    Neighbours are ranked by distance (ties: lower column first).  A tie in the
    vote goes to the tied label whose best-ranked neighbour is nearest.
    SRauth is ``k=1`` with author labels, SRtopic ``k=5`` with topic labels (§6).

    Parameters
    ----------
    distances : (m, n) array
        ``distances[j, i]``: distance from query j to labelled item i.
    labels : sequence of n str
    k : int
        1 ≤ k ≤ n.

    Examples
    --------
    >>> D = np.array([[0.1, 0.5, 0.2, 0.9], [0.9, 0.3, 0.8, 0.1]])
    >>> nearest_neighbour_predict(D, ["x", "y", "x", "y"], k=1)
    ['x', 'y']
    >>> nearest_neighbour_predict(D, ["x", "y", "y", "y"], k=3)
    ['y', 'y']
    """
    D = np.asarray(distances, dtype=np.float64)
    labels = list(labels)
    if D.ndim != 2 or D.shape[1] != len(labels):
        raise ValueError(f"distances must have shape (m, {len(labels)}) to match labels; got "
                         f"{D.shape}")
    k = check_positive_int(k, "k")
    if k > len(labels):
        raise ValueError(f"k must be <= the number of labelled items ({len(labels)}); got {k}")
    order = np.argsort(D, axis=1, kind="stable")[:, :k]
    out = []
    for row in order:
        votes = Counter(labels[i] for i in row)
        top = max(votes.values())
        out.append(next(labels[i] for i in row if votes[labels[i]] == top))
    return out


# -- different representation: Koppel et al. (2011) ----------------------------------------
def char_ngrams(text: str, *, n: int = 4) -> Counter[str]:
    """Character n-gram counts within words, as in Koppel et al. (2011).

    Words are the whitespace-separated tokens; a word of at most ``n`` characters
    is one feature by itself, a longer word gives its ``len − n + 1``
    overlapping n-grams (no n-gram spans a space).

    >>> sorted(char_ngrams("colour of colour").items())
    [('colo', 2), ('lour', 2), ('of', 1), ('olou', 2)]
    """
    n = check_positive_int(n, "n")
    counts: Counter[str] = Counter()
    for word in text.split():
        if len(word) <= n:
            counts[word] += 1
        else:
            counts.update(word[i:i + n] for i in range(len(word) - n + 1))
    return counts


class KoppelAttribution:
    """Author identification by repeated random feature subsets (Koppel et al. 2011).

    Each text is a vector of character n-gram counts (:func:`char_ngrams`) over
    the ``n_features`` most frequent n-grams of the known texts (ties broken
    alphabetically).  For each snippet, ``iterations`` rounds each keep a
    random ``feature_fraction`` of the features; in each round the known text
    most similar to the snippet (first one on ties) wins; the answer is the
    author with most wins (first one on ties).  There is no "don't know"
    threshold: the attack always answers, as in the paper (App. B).

    Similarities on the kept features F:

    .. math::

        \\cos(x, y) = \\frac{\\sum_{f\\in F} x_f y_f}{\\|x_F\\|\\,\\|y_F\\|},\\qquad
        \\mathrm{minmax}(x, y) = \\frac{\\sum_{f\\in F} \\min(x_f, y_f)}
                                      {\\sum_{f\\in F} \\max(x_f, y_f)}

    (0 when the denominator is 0).  All rounds are computed at once with sparse
    matrices.

    Parameters
    ----------
    n : int, default 4
        n-gram length.
    n_features : int, default 20_000
    iterations : int, default 100
    feature_fraction : float, default 0.5
    similarity : {"cosine", "minmax"}, default "cosine"

    Examples
    --------
    >>> attack = KoppelAttribution(n_features=50, iterations=20).fit(
    ...     ["whale harpoon ocean whale", "castle dragon knight castle"], ["melville", "malory"])
    >>> attack.predict(["harpoon whale", "dragon knight"], rng=0)
    ['melville', 'malory']
    """

    def __init__(self, *, n: int = 4, n_features: int = 20_000, iterations: int = 100,
                 feature_fraction: float = 0.5, similarity: str = "cosine") -> None:
        self.n = check_positive_int(n, "n")
        self.n_features = check_positive_int(n_features, "n_features")
        self.iterations = check_positive_int(iterations, "iterations")
        if not (isinstance(feature_fraction, float | int) and 0 < feature_fraction <= 1):
            raise ValueError(f"feature_fraction must be a number in (0, 1]; got "
                             f"{feature_fraction!r}")
        self.feature_fraction = float(feature_fraction)
        self.similarity = check_choice(similarity, "similarity", SIMILARITIES)

    def _matrix(self, texts: Sequence[str]) -> sp.csr_matrix:
        data: list[int] = []
        indices: list[int] = []
        indptr = [0]
        for text in texts:
            for gram, count in char_ngrams(text, n=self.n).items():
                j = self.vocabulary_.get(gram)
                if j is not None:
                    indices.append(j)
                    data.append(count)
            indptr.append(len(indices))
        return sp.csr_matrix((np.asarray(data, dtype=np.float64),
                              np.asarray(indices, dtype=np.int64), np.asarray(indptr)),
                             shape=(len(texts), len(self.features_)))

    def fit(self, texts: Sequence[str], authors: Sequence[str]) -> KoppelAttribution:
        """Learn the feature list from the known-author texts (one per candidate author)."""
        if isinstance(texts, str):
            raise TypeError("texts must be a sequence of str, not a single str")
        texts, authors = list(texts), list(authors)
        if len(texts) != len(authors):
            raise ValueError(f"texts and authors must have the same length; got {len(texts)} "
                             f"and {len(authors)}")
        if not texts:
            raise ValueError("at least one known-author text is needed; got 0")
        total: Counter[str] = Counter()
        for t in texts:
            total.update(char_ngrams(t, n=self.n))
        ranked = sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))[:self.n_features]
        if not ranked:
            raise ValueError("the known-author texts hold no character n-gram")
        self.features_ = [g for g, _ in ranked]
        self.vocabulary_ = {g: j for j, g in enumerate(self.features_)}
        self.authors_ = authors
        self.known_ = self._matrix(texts)
        return self

    def masks(self, *, rng: RandomState = None) -> np.ndarray:
        """Random feature subsets: an (iterations, n_features) bool array, each row keeping
        ``floor(feature_fraction · n_features)`` features (at least 1)."""
        self._check_fitted()
        gen = check_random_state(rng)
        F = len(self.features_)
        keep = max(1, int(F * self.feature_fraction))
        base = np.zeros((self.iterations, F), dtype=bool)
        base[:, :keep] = True
        return gen.permuted(base, axis=1)

    def _check_fitted(self) -> None:
        if not hasattr(self, "known_"):
            raise RuntimeError("call fit() before using the attack")

    def similarities(self, snippets: Sequence[str], masks: np.ndarray) -> np.ndarray:
        """Similarity of every snippet to every known text on every feature subset.

        Parameters
        ----------
        snippets : sequence of m str
        masks : (I, n_features) bool array
            One feature subset per row (see :meth:`masks`).

        Returns
        -------
        (m, k, I) float64 array
        """
        self._check_fitted()
        if isinstance(snippets, str):
            raise TypeError("snippets must be a sequence of str, not a single str")
        masks = np.asarray(masks, dtype=bool)
        if masks.ndim != 2 or masks.shape[1] != len(self.features_):
            raise ValueError(f"masks must have shape (iterations, {len(self.features_)}); got "
                             f"{masks.shape}")
        S = self._matrix(list(snippets))
        T = self.known_
        M = masks.T.astype(np.float64)  # (F, I)
        k = T.shape[0]
        out = np.zeros((S.shape[0], k, M.shape[1]))
        if self.similarity == "cosine":
            t_norm = np.sqrt(T.power(2) @ M)  # (k, I)
            s_norm = np.sqrt(S.power(2) @ M)  # (m, I)
        else:
            t_sum = T @ M
            s_sum = S @ M
        for j in range(S.shape[0]):
            s = S.getrow(j)
            if self.similarity == "cosine":
                num = T.multiply(s).tocsr() @ M  # (k, I): Σ_f∈F x_f y_f
                den = t_norm * s_norm[j]
            else:
                num = T.minimum(sp.vstack([s] * k, format="csr")) @ M  # Σ min
                den = t_sum + s_sum[j] - num  # Σ max = Σ x + Σ y − Σ min
            np.divide(num, den, out=out[j], where=den > 0)
        return out

    def wins(self, snippets: Sequence[str], *, rng: RandomState = None) -> np.ndarray:
        """Number of rounds won by each candidate: an (m, k) int array, rows sum to iterations."""
        self._check_fitted()
        sims = self.similarities(snippets, self.masks(rng=rng))
        k = sims.shape[1]
        winners = np.argmax(sims, axis=1)  # (m, I): first maximum on ties
        return np.stack([np.bincount(w, minlength=k) for w in winners]) if len(winners) else \
            np.zeros((0, k), dtype=np.int64)

    def predict(self, snippets: Sequence[str], *, rng: RandomState = None) -> list[str]:
        """The author with most won rounds, for each snippet."""
        w = self.wins(snippets, rng=rng)
        return [self.authors_[i] for i in np.argmax(w, axis=1)]


# -- different representation: fastText ------------------------------------------------------
def write_vec(embeddings: Embeddings, path: str | os.PathLike[str]) -> Path:
    """Write embeddings in the word2vec/fastText ``.vec`` text format (header ``V n``)."""
    path = Path(path)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(f"{len(embeddings)} {embeddings.dim}\n")
        fmt = " ".join(["%.6g"] * embeddings.dim)
        V = embeddings.vectors
        block = 4096
        for start in range(0, len(embeddings), block):
            rows = V[start:start + block]
            words = embeddings.words[start:start + block]
            fh.write("".join(f"{w} {fmt % tuple(r)}\n" for w, r in zip(words, rows,
                                                                           strict=True)))
    return path


def _as_line(words: Sequence[str]) -> str:
    if isinstance(words, str):
        raise TypeError("each document must be a sequence of words, not a str")
    for w in words:
        if not w or any(c.isspace() for c in w):
            raise ValueError("words must be non-empty and contain no whitespace")
    return " ".join(words)


class FastTextTopicClassifier:
    """DRtopic: a fastText supervised classifier on bags of words (§6, App. B).

    Trained for ``epoch`` epochs at learning rate ``lr``; with ``embeddings``
    given, fastText's input vectors start from them (``pretrainedVectors``, so
    the dimension is the embedding dimension) and every vocabulary word — also
    one that appears only in an obfuscated snippet — has a vector.  Training
    runs on one thread with a seed drawn from ``rng``, which makes it
    reproducible.

    Parameters
    ----------
    embeddings : Embeddings, optional
    epoch : int, default 25
    lr : float, default 1.0
    dim : int, default 50 (ignored when ``embeddings`` is given)
    pretrained_path : path-like, optional
        An already written ``.vec`` file of ``embeddings`` (see :func:`write_vec`),
        to avoid writing it again for every model.
    """

    def __init__(self, *, embeddings: Embeddings | None = None, epoch: int = 25,
                 lr: float = 1.0, dim: int = 50,
                 pretrained_path: str | os.PathLike[str] | None = None) -> None:
        if embeddings is not None and not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        self.embeddings = embeddings
        self.epoch = check_positive_int(epoch, "epoch")
        if not (isinstance(lr, float | int) and lr > 0):
            raise ValueError(f"lr must be a number > 0; got {lr!r}")
        self.lr = float(lr)
        self.dim = embeddings.dim if embeddings is not None else check_positive_int(dim, "dim")
        self.pretrained_path = None if pretrained_path is None else Path(pretrained_path)

    def fit(self, docs: Sequence[Sequence[str]], labels: Sequence[str], *,
            rng: RandomState = None) -> FastTextTopicClassifier:
        """Train on bags of words with their topic labels."""
        fasttext = import_optional("fasttext", extra="evaluation",
                                   purpose="the DRtopic attack (fastText)")
        docs, labels = list(docs), list(labels)
        if len(docs) != len(labels):
            raise ValueError(f"docs and labels must have the same length; got {len(docs)} and "
                             f"{len(labels)}")
        if len(set(labels)) < 2:
            raise ValueError("training needs at least 2 distinct labels")
        gen = check_random_state(rng)
        self.classes_ = sorted(set(labels))
        code = {c: i for i, c in enumerate(self.classes_)}
        seed = int(gen.integers(1, 2**31 - 1))
        with tempfile.TemporaryDirectory(prefix="emprivacy-fasttext-") as tmp:
            train = Path(tmp) / "train.txt"
            with open(train, "w", encoding="utf-8", newline="\n") as fh:
                for d, lab in zip(docs, labels, strict=True):
                    fh.write(f"__label__{code[lab]} {_as_line(d)}\n")
            pretrained = ""
            if self.embeddings is not None:
                vec = self.pretrained_path or write_vec(self.embeddings, Path(tmp) / "emb.vec")
                pretrained = str(vec)
            self.model_ = fasttext.train_supervised(
                str(train), epoch=self.epoch, lr=self.lr, dim=self.dim,
                pretrainedVectors=pretrained, thread=1, seed=seed, verbose=0)
        self.seed_ = seed
        return self

    def predict(self, docs: Sequence[Sequence[str]]) -> list[str]:
        """The most probable label of each bag of words."""
        if not hasattr(self, "model_"):
            raise RuntimeError("call fit() before predict()")
        lines = [_as_line(d) for d in docs]
        if not lines:
            return []
        labels, _ = self.model_.predict(lines, k=1)
        out = []
        for lab in labels:
            i = int(lab[0].removeprefix("__label__")) if lab else 0
            out.append(self.classes_[i])
        return out

    def score(self, docs: Sequence[Sequence[str]], labels: Sequence[str]) -> float:
        """Accuracy on labelled bags of words."""
        labels = list(labels)
        if not labels:
            raise ValueError("score needs at least one labelled document")
        pred = self.predict(docs)
        return float(np.mean([p == t for p, t in zip(pred, labels, strict=True)]))
