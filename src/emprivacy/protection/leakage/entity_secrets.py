"""The entity words of an audit: the entity options of a release, what detection takes in a
corpus, and the secrets of each entity type.

With entity detection (docs/ENTITIES.md) a detected entity word of a privatised type T does
not go through the mechanism at ε: it goes through the mechanism restricted to T's public
sub-vocabulary at ε_e (:func:`~emprivacy.obfuscation.restricted.restricted_mechanism`).  An
audit of those words therefore needs the run's :class:`~emprivacy.obfuscation.entities.EntityRun`
(its detectors, policies, sub-vocabularies and restricted mechanisms,
:meth:`EntityOptions.run`), the words detection marks in the user's corpus
(:func:`detect_entity_words`), and, per type, the secrets that are such words
(:func:`entity_secrets`): their rows in the type's sub-vocabulary and the prior π restricted
to them (the adversary who sees an entity slot knows its type: the marking is released like
the layout).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from emprivacy.embeddings.model import Embeddings
from emprivacy.entities.policy import DEFAULT_ENTITY_EPSILON, EntityPolicy
from emprivacy.io.documents import Document
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.obfuscation import BLOCK_CHARS, ObfuscationConfig
from emprivacy.obfuscation.entities import EntityRun
from emprivacy.preparation.template import prepare_text_blocks
from emprivacy.protection.leakage.secrets import Secrets
from emprivacy.text.normalise import normalise_pieces

__all__ = ["EntityOptions", "EntityWords", "detect_entity_words", "entity_secrets"]


@dataclass(frozen=True)
class EntityOptions:
    """The entity settings of a release, as ``obfuscate --entities``, ``--entity-epsilon``,
    ``--entity-policy`` spell them (checked by
    :class:`~emprivacy.obfuscation.ObfuscationConfig`; ``entities`` must name detectors).

    ``lists``: type → public words instead of the packaged lists (tests, custom lists).
    ``lang``: the language of the detectors and of the text (``"fr"``:
    :mod:`emprivacy.entities.french`).

    >>> EntityOptions("Capitalised", 0.5, {"org": "keep"}).config()["entity_policy"]
    (('ORG', 'keep'),)
    """

    entities: str
    entity_epsilon: float = DEFAULT_ENTITY_EPSILON
    entity_policy: Any = ()
    lists: Mapping[str, Iterable[str]] | None = field(default=None, compare=False,
                                                      repr=False)
    lang: str = "en"

    def __post_init__(self) -> None:
        config = ObfuscationConfig(mode="text", entities=self.entities,
                                   entity_epsilon=self.entity_epsilon,
                                   entity_policy=self.entity_policy, lang=self.lang)
        if config.entities == "none":
            raise ValueError("entities must name detectors ('auto' or a list such as "
                             "'capitalised'); got 'none' (give no entity options instead)")
        object.__setattr__(self, "entities", config.entities)
        object.__setattr__(self, "entity_epsilon", config.entity_epsilon)
        object.__setattr__(self, "entity_policy", config.entity_policy)
        object.__setattr__(self, "lang", config.lang)

    def config(self) -> dict[str, Any]:
        """The fields of an :class:`~emprivacy.obfuscation.ObfuscationConfig`."""
        return {"entities": self.entities, "entity_epsilon": self.entity_epsilon,
                "entity_policy": self.entity_policy,
                **({"lang": self.lang} if self.lang != "en" else {})}

    def run(self, mechanism: WordMechanism, *, on_note: Callable[[str], None] | None = None
            ) -> EntityRun:
        """The run's detectors, sub-vocabularies and restricted mechanisms (``auto``
        resolved: its note to ``on_note``).  Its run key draws nothing here."""
        return EntityRun(mechanism, self.entities,
                         EntityPolicy(self.entity_epsilon, dict(self.entity_policy)),
                         run_key=bytes(32), on_note=on_note, lists=self.lists, lang=self.lang)


@dataclass(frozen=True)
class EntityWords:
    """What detection took in a corpus.

    Attributes
    ----------
    detected : dict
        Per type, the words (and placeholders) detection took
        (:attr:`~emprivacy.preparation.template.TextTemplate.entity_counts`).
    mentions : dict of Counter
        Per privatised type, the vocabulary rows of its entity slots and their mentions.
    documents : int
    """

    detected: dict[str, int]
    mentions: dict[str, Counter[int]]
    documents: int


def detect_entity_words(run: EntityRun, documents: Iterable[Document],
                        embeddings: Embeddings) -> EntityWords:
    """Run the detection of ``run`` over ``documents`` as text mode does (in batches,
    :meth:`EntityRun.ahead`), counting what it takes per type."""
    detected: Counter[str] = Counter({t: 0 for t in run.marking.types})
    mentions: dict[str, Counter[int]] = {t: Counter() for t in run.marking.rows}
    n = 0
    for doc in run.ahead(documents):
        n += 1
        for template, _ in prepare_text_blocks(normalise_pieces(doc.chunks()), embeddings,
                                               block_chars=BLOCK_CHARS, entities=run.marking,
                                               lang=run.lang):
            detected.update(template.entity_counts)
            for key in template.entities:
                if key is not None:
                    row = template.entity_inputs[key][0]
                    if row >= 0:
                        mentions.setdefault(key[0], Counter())[row] += 1
    return EntityWords(dict(detected), mentions, n)


def entity_secrets(run: EntityRun, secrets: Secrets, words: EntityWords | None
                   ) -> dict[str, tuple[Secrets, np.ndarray]]:
    """Per privatised type T (with at least one): the secrets that are T's entity words, as
    rows of T's sub-vocabulary with π restricted to them and renormalised, and their
    indices among ``secrets``.

    With ``words`` (detection over the corpus): the secrets detection made entity slots of
    T.  Without: the secrets in T's sub-vocabulary (a word in several lists goes to the
    first type of :attr:`EntityRun.mechanisms`, as a capitalised word no model typed does).
    """
    out: dict[str, tuple[Secrets, np.ndarray]] = {}
    taken = np.zeros(len(secrets), dtype=bool)
    for entity_type in run.mechanisms:
        rows = np.asarray(run.marking.rows[entity_type], dtype=np.int64)
        member = np.isin(secrets.rows, rows)
        if words is not None:
            marked = np.fromiter(words.mentions.get(entity_type, Counter()), dtype=np.int64)
            member &= np.isin(secrets.rows, marked)
        else:
            member &= ~taken
        idx = np.flatnonzero(member)
        taken |= member
        if idx.size == 0:
            continue
        prior = secrets.prior[idx]
        sub = Secrets(tuple(secrets.words[i] for i in idx.tolist()),
                      np.searchsorted(rows, secrets.rows[idx]).astype(np.int64),
                      prior / prior.sum(), secrets.prior_name)
        out[entity_type] = (sub, idx)
    return out
