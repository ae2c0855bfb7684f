"""Fitting the learned detector's model (:mod:`emprivacy.entities.learned`) on labelled
examples: ``benchmarks/entity_model.py`` writes the packaged models with it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from emprivacy.entities.learned import CLASSES, EntityModel

__all__ = ["fit"]


def fit(examples: Iterable[tuple[list[str], str]], *, threshold: float, c: float = 0.5,
        min_count: int = 2, class_weight: dict[str, float] | None = None,
        lang: str = "en") -> EntityModel:
    """Fit a model on ``(features, class)`` examples (scikit-learn's multinomial logistic
    regression, L2 penalty ``1/c``, features seen fewer than ``min_count`` times dropped).
    Deterministic: the same examples give the same model."""
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression

    feats, labels = [], []
    for f, label in examples:
        if label not in CLASSES:
            raise ValueError(f"a class must be one of {CLASSES}; got {label!r}")
        feats.append(f)
        labels.append(CLASSES.index(label))
    counts: dict[str, int] = {}
    for f in feats:
        for name in set(f):
            counts[name] = counts.get(name, 0) + 1
    names = sorted(n for n, k in counts.items() if k >= min_count)
    index = {n: i for i, n in enumerate(names)}
    rows, cols = [], []
    for r, f in enumerate(feats):
        for k in sorted({index[n] for n in f if n in index}):
            rows.append(r)
            cols.append(k)
    x = sparse.csr_matrix((np.ones(len(cols)), (rows, cols)), shape=(len(feats), len(names)))
    y = np.asarray(labels)
    if len(set(labels)) != len(CLASSES):
        raise ValueError(f"the examples must hold every class of {CLASSES}; got "
                         f"{sorted({CLASSES[k] for k in labels})}")
    weights = {CLASSES.index(k): v for k, v in (class_weight or {}).items()}
    clf: Any = LogisticRegression(C=c, max_iter=3000, class_weight=weights or None)
    clf.fit(x, y)
    w = np.zeros((len(names), len(CLASSES)), np.float32)
    b = np.zeros(len(CLASSES))
    for j, cls in enumerate(clf.classes_):
        w[:, cls] = clf.coef_[j]
        b[cls] = clf.intercept_[j]
    return EntityModel(np.asarray(names), w, b, float(threshold), lang)
