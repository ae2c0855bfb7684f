"""The reconstruction attack on entity slots: each type's own channel and prior.

A release made with entity detection sends a detected entity word of type T through the
mechanism restricted to T's public sub-vocabulary at ε_e, and the adversary sees which
slots are entity slots of which type (the marking is released like the layout).  So it
attacks an entity slot of type T with that channel, over the secrets that detection made
T's entity words in the corpus, π restricted to them (the adversary knows the corpus's
entity words as it knows its word frequencies; :class:`EntityCandidates`, the secrets of
:func:`~emprivacy.protection.leakage.entity_secrets.entity_secrets`, as the word
audit's): its candidates, their scores and the prior's top secrets replace, for those
slots, the general channel's (:meth:`EntityCandidates.apply`); the context model is the
same.

Internal to :mod:`emprivacy.protection.attacks`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from emprivacy.entities.registry import check_entities
from emprivacy.obfuscation.entities import EntityRun
from emprivacy.protection.attacks._ranking import NEVER, Candidates, prior_order
from emprivacy.protection.attacks._release import Release
from emprivacy.protection.leakage.channel import Progress, has_exact_channel
from emprivacy.protection.leakage.entity_secrets import (
    EntityOptions,
    EntityWords,
    entity_secrets,
)
from emprivacy.protection.leakage.secrets import Secrets

__all__ = ["EntityCandidates", "entity_options", "entity_summary"]


def entity_options(entities: Any, entity_epsilon: Any, entity_policy: Any, mode: str,
                   lang: str = "en") -> EntityOptions | None:
    """The attack's entity settings in ``lang``, checked (``None``: no detection)."""
    if isinstance(entities, EntityOptions):
        opts = entities
        if opts.lang != lang:
            raise ValueError(f"entities are options of lang={opts.lang!r}; the attack's lang "
                             f"is {lang!r}")
    elif check_entities(entities) == "none":
        return None
    else:
        opts = EntityOptions(entities, entity_epsilon, entity_policy, lang=lang)
    if mode != "text":
        raise ValueError("entities apply to mode 'text': bags do not detect entities yet")
    return opts


def entity_summary(release: Release, own: EntityCandidates, options: EntityOptions
                   ) -> dict[str, Any]:
    """What the ``entities`` of a reconstruction record: the settings, what detection took
    in the documents attacked, and the entity slots attacked with each type's channel."""
    run = release.run
    at_target = (release.entity[release.slots] if release.entity is not None
                 else np.empty(0, dtype=np.int64))
    return {
        "detectors": run.detectors if run is not None else options.entities,
        "entity_epsilon": options.entity_epsilon,
        "entity_policy": run.policy.describe() if run is not None else "",
        "detected": dict(release.detected),
        "slots": {t: int(np.count_nonzero(at_target == code))
                  for code, t in enumerate(release.entity_types)},
        "channels": dict(own.kinds),
    }


class _Type:
    """One entity type's channel (``None``: none of the secrets is of the type), its
    secrets (indices among all the secrets), sub-vocabulary rows, the prior's top among its
    secrets (padded with -1) and each secret's rank there (:data:`NEVER`: not of the type)."""

    def __init__(self, candidates: Candidates | None, index: np.ndarray, rows: np.ndarray,
                 top: np.ndarray, rank: np.ndarray) -> None:
        self.candidates, self.index, self.rows, self.top, self.rank = (
            candidates, index, rows, top, rank)


class EntityCandidates:
    """The channels of a release's entity types (:mod:`._entities`), measured once.

    ``n``: candidates per slot (the general channel's); ``channel``, ``draws``, ``seed``
    and ``progress`` as :func:`~emprivacy.protection.attacks.reconstruction_attack`'s (each
    type's sampled channel from a stream of its own).
    """

    def __init__(self, run: EntityRun, types: tuple[str, ...], secrets: Secrets,
                 words: EntityWords, *, n: int, channel: str, draws: int, seed: int,
                 progress: Progress | None) -> None:
        self.n = n
        self.kinds: dict[str, str] = {}
        self.types: list[_Type] = []
        k = len(secrets)
        per_type = entity_secrets(run, secrets, words)
        for code, entity_type in enumerate(types):
            rows = np.asarray(run.marking.rows[entity_type], dtype=np.int64)
            top = np.full(n, -1, dtype=np.int64)
            rank = np.full(k, NEVER, dtype=np.int64)
            if entity_type not in per_type:
                self.types.append(_Type(None, np.empty(0, np.int64), rows, top, rank))
                continue
            sub, index = per_type[entity_type]
            mech = run.mechanisms[entity_type]
            kind = "exact" if channel == "exact" or (
                channel == "auto" and has_exact_channel(mech)) else "sampled"
            self.kinds[entity_type] = kind
            cands = Candidates(mech, sub, n=min(n, len(sub)), kind=kind, draws=draws,
                               rng=np.random.default_rng(np.random.SeedSequence(
                                   [seed, 3, code])), progress=progress)
            order, sub_rank = prior_order(sub.prior)
            top[:min(n, index.size)] = index[order[:n]]
            rank[index] = sub_rank
            self.types.append(_Type(cands, index, rows, top, rank))

    def apply(self, release: Release, cand: np.ndarray, chan: np.ndarray, guess: np.ndarray,
              top: np.ndarray) -> None:
        """Replace, for each entity slot, the candidates and scores of its target (if it is
        one), the prior's top, and its channel-only guess, by its type's."""
        if release.entity is None:
            return
        at_target = release.entity[release.slots]
        for code, kind in enumerate(self.types):
            pos = np.flatnonzero(release.entity == code)
            targets = np.flatnonzero(at_target == code)
            if pos.size == 0:
                continue
            if kind.candidates is None:  # no secret of the type: no candidate
                cand[targets], chan[targets], top[targets] = -1, -np.inf, -1
                continue
            columns, inverse = np.unique(np.searchsorted(kind.rows, release.out[pos]),
                                         return_inverse=True)
            sub_cand, sub_score = kind.candidates(columns)
            width = sub_cand.shape[1]
            c = np.full((columns.size, self.n), -1, dtype=np.int64)
            s = np.full((columns.size, self.n), -np.inf)
            c[:, :width] = np.where(sub_cand >= 0, kind.index[np.maximum(sub_cand, 0)], -1)
            s[:, :width] = sub_score
            first = c[inverse, 0]
            guess[pos] = np.where(first >= 0, first, guess[pos])
            at = inverse[np.searchsorted(pos, release.slots[targets])]
            cand[targets], chan[targets], top[targets] = c[at], s[at], kind.top

    def prior_ranks(self, release: Release, truth: np.ndarray, ranks: np.ndarray
                    ) -> np.ndarray:
        """The prior-only guesser's ranks, ``ranks`` (the general prior's) but for each
        entity target: its rank among its type's secrets by π."""
        if release.entity is None:
            return ranks
        out = ranks.copy()
        at_target = release.entity[release.slots]
        for code, kind in enumerate(self.types):
            t = np.flatnonzero(at_target == code)
            out[t] = np.where(truth[t] >= 0, kind.rank[np.maximum(truth[t], 0)], NEVER)
        return out
