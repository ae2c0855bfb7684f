"""The experiment's privacy axes beside author identification (issue 25): the word recovery
measured on the run's own releases, and ε̂, a lower bound on the privacy loss of pairs of
snippet words (:mod:`emprivacy.protection`); used by
:func:`emprivacy.evaluation.experiment.run_experiment`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from emprivacy.embeddings.model import Embeddings
from emprivacy.evaluation.datasets import PreparedSet
from emprivacy.evaluation.settings import ExperimentConfig, epsilon_label
from emprivacy.math.randomness import document_generator
from emprivacy.mechanisms import WordMechanism
from emprivacy.protection.epsilon.recovery import ReleaseRecovery, release_recovery

__all__ = ["RECOVERY_METHOD", "epsilon_hats", "release_recoveries"]


#: How the word recovery of :func:`run_experiment` is measured (recorded in ``run.json``).
RECOVERY_METHOD = (
    "share of the released snippet words (those through the mechanism) that the Bayes "
    "guesser argmax_x n_A[x, y] names from the released word alone, n_A the (original, "
    "release) counts of a random half of this epsilon's releases over all trials; scored on "
    "the other half, Clopper-Pearson interval; a lower bound on the optimal one-word "
    "adversary, whose upper bound is the plug-in over all releases plus McDiarmid's margin")


def release_recoveries(p: PreparedSet, epsilons: Sequence[float | None],
                       embeddings: Embeddings,
                       released: list[list[tuple[np.ndarray, np.ndarray]]], run_key: bytes,
              name: str) -> list[ReleaseRecovery | None]:
    """The word recovery at each ε, from the releases the experiment made
    (:func:`~emprivacy.protection.epsilon.recovery.release_recovery`); 1 for the unmodified
    snippets."""
    rows = [embeddings.rows(s) for s in p.snippets]
    flat = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    originals = flat[flat >= 0]
    out: list[ReleaseRecovery | None] = []
    for eps, pairs in zip(epsilons, released, strict=True):
        if eps is None:
            out.append(ReleaseRecovery.identity(originals) if originals.size else None)
            continue
        o = np.concatenate([a for a, _ in pairs]) if pairs else np.zeros(0, np.int64)
        y = np.concatenate([b for _, b in pairs]) if pairs else np.zeros(0, np.int64)
        out.append(None if o.size < 2 else release_recovery(
            o, y, rng=document_generator(run_key, f"{name}/epsilon-{epsilon_label(eps)}/"
                                                  "recovery")))
    return out


def epsilon_hats(p: PreparedSet, config: ExperimentConfig, embeddings: Embeddings,
                 mechanism: Callable[[float, np.random.Generator], WordMechanism],
                 run_key: bytes, name: str,
                  step: Callable[[str], None]) -> list[dict[str, Any] | None]:
    """ε̂ at each ε (:func:`~emprivacy.protection.distinguish_pairs`) on pairs of the
    snippets' words at a spread of distances, the same pairs at every ε."""
    from emprivacy.protection import choose_pairs, distinguish_pairs

    rows = [embeddings.rows(s) for s in p.snippets]
    flat = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    distinct = np.unique(flat[flat >= 0])
    out: list[dict[str, Any] | None] = []
    pairs: list[tuple[int, int]] | None = None
    for eps in config.epsilons:
        if eps is None or distinct.size < 2:
            out.append(None)
            if eps is not None:
                step(f"{len(p)} authors · ε={epsilon_label(eps)} · ε̂")
            continue
        label = epsilon_label(eps)
        mech = mechanism(eps, document_generator(run_key, f"{name}/epsilon-{label}/mechanism-hat"))
        if pairs is None:
            pairs = choose_pairs(mech, distinct, config.epsilon_hat,
                                 rng=document_generator(run_key, f"{name}/epsilon-hat-pairs"))
        hat = distinguish_pairs(mech, pairs, draws=config.epsilon_hat_draws, rng=(
            document_generator(run_key, f"{name}/epsilon-{label}/epsilon-hat")))
        out.append(hat.summary())
        step(f"{len(p)} authors · ε={label} · ε̂")
    return out
