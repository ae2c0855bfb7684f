"""The mechanism of an entity type's slots: the run's mechanism restricted to the type's
public sub-vocabulary at ε_e, its surrogates spread by rank resampling (issue 40, item 9).

Text mode's entity slots (:mod:`emprivacy.obfuscation.entities`) draw each distinct entity
word's surrogate through it; the guarantee is ε_e·d between words of the sub-vocabulary
(docs/GUARANTEES.md, "Entity slots").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from emprivacy.embeddings.model import Embeddings
from emprivacy.exceptions import InputError
from emprivacy.mechanisms import WordMechanism
from emprivacy.mechanisms.registry import MECHANISMS, mechanism_parameters

__all__ = ["ENTITY_RANK_RESAMPLE", "restricted_mechanism"]

#: The rank resampling (:class:`~emprivacy.mechanisms.curse.RankResampler`, rate ``c``
#: per unit of ε_e) that spreads the surrogates of an entity type over its sub-vocabulary
#: (issue 40, item 9): without it the 100 most frequent of the 20,246 person surrogates of
#: the built-in embeddings took 26.5 % of all draws at ε_e = 1 (the words at the edge of the
#: space, where distant noisy points decode); with it, 10.6 % (benchmarks/entity_hubs.py;
#: c = 0.04 gave 9.4 % for twice the CPU).
#: It depends on the decoded surrogate alone — post-processing — so ε_e·d holds unchanged.
ENTITY_RANK_RESAMPLE = 0.1


def restricted_mechanism(mechanism: WordMechanism, rows: np.ndarray, epsilon: float, *,
                         label: str, rank_resample: float | None = None) -> WordMechanism:
    """The mechanism class of ``mechanism``, with its parameters, on the sub-embeddings of
    ``rows`` (sorted vocabulary rows) at ``epsilon``; decoded exactly (a small vocabulary).

    A registered mechanism's own parameters (:func:`~emprivacy.mechanisms.mechanism_parameters`)
    are read from the attributes of the same name; the decoder is ``"exact"``.  With
    ``rank_resample`` (a rate c), a mechanism that takes the rank resampling and has none of
    its own gets it on the sub-vocabulary (:data:`ENTITY_RANK_RESAMPLE`: post-processing,
    the guarantee unchanged).

    >>> from emprivacy.mechanisms import EarthMoversPrivacy
    >>> emb = Embeddings(["ann", "cat", "bob"], [[0.0], [5.0], [1.0]], name="toy")
    >>> sub = restricted_mechanism(EarthMoversPrivacy(emb, epsilon=9), np.array([0, 2]), 0.5,
    ...                            label="PERSON")
    >>> sub.embeddings.words, sub.epsilon, sub.embeddings.name
    (('ann', 'bob'), 0.5, 'toy[PERSON]')
    """
    rows = np.asarray(rows, dtype=np.int64)
    emb = mechanism.embeddings
    if rows.size < 2:
        # the user's embeddings (an input) lack the type's words: one line on the command line
        raise InputError(f"the public sub-vocabulary of {label} holds {rows.size} word(s) of "
                         f"the embeddings {emb.name!r}; privatising within it needs at least "
                         f"2 (larger embeddings, or --entity-policy {label}=placeholder)")
    sub = Embeddings([emb.words[i] for i in rows], emb.vectors[rows],
                     name=f"{emb.name}[{label}]")
    cls = type(mechanism)
    params: dict[str, Any] = {}
    if MECHANISMS.get(cls.name) is cls:
        for p in mechanism_parameters(cls.name):
            if p.name != "decoder" and hasattr(mechanism, p.name):
                params[p.name] = getattr(mechanism, p.name)
        if (rank_resample is not None and "rank_resample" in params
                and params["rank_resample"] is None):
            params["rank_resample"] = rank_resample
    return cls(sub, epsilon=epsilon, **params)
