"""The word audit of entity words: each detected entity type at its own ε_e.

A detected entity word of a privatised type T goes through the channel of the mechanism
restricted to T's public sub-vocabulary at ε_e
(:func:`~emprivacy.obfuscation.restricted.restricted_mechanism`), not through the mechanism
at ε.  :func:`audit_entities` audits that channel, as :func:`~emprivacy.protection.leakage.
audit.audit_mechanism` audits the general one: the secrets of T
(:func:`~emprivacy.protection.leakage.entity_secrets.entity_secrets`: those that detection
made T's entity words in the corpus) with π restricted to them, exact for SanText and TEM,
sampled for the others.  Every figure is conditional on detection: an entity word that no
detector marks is an ordinary word, released at ε, and is covered by the general audit, not
by this one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from emprivacy.io.documents import Document
from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.protection.leakage.audit import audit_mechanism
from emprivacy.protection.leakage.channel import Progress
from emprivacy.protection.leakage.entity_report import EntityAudit
from emprivacy.protection.leakage.entity_secrets import (
    EntityOptions,
    EntityWords,
    detect_entity_words,
    entity_secrets,
)
from emprivacy.protection.leakage.secrets import Secrets

__all__ = ["audit_entities"]


def audit_entities(mechanism: WordMechanism, secrets: Secrets, options: EntityOptions, *,
                   documents: Iterable[Document] | None = None,
                   words: EntityWords | None = None, draws: int = 500,
                   channel: str = "auto", confidence: float = 0.95, rng: RandomState = None,
                   progress: Progress | None = None,
                   on_note: Callable[[str], None] | None = None) -> EntityAudit:
    """Audit the entity words of a release: one word audit per privatised entity type.

    Parameters
    ----------
    mechanism : WordMechanism
        The mechanism at the general ε (its class and parameters are used on each
        type's sub-vocabulary at ε_e).
    secrets : Secrets
        The audit's secrets and prior (:func:`~emprivacy.protection.secret_words`).
    options : EntityOptions
        ``--entities``, ``--entity-epsilon``, ``--entity-policy``.
    documents : iterable of Document, optional
        The corpus: detection runs over it, and the secrets of a type are those it made
        entity words of that type.  Without: the secrets in the type's sub-vocabulary.
    words : EntityWords, optional
        What detection took in the corpus, already counted
        (:func:`~emprivacy.protection.leakage.entity_secrets.detect_entity_words`: once for
        several mechanisms and ε on the same embeddings); instead of ``documents``.
    draws, channel, confidence, progress
        As :func:`~emprivacy.protection.audit_mechanism`.
    rng : None, int or numpy.random.Generator
        Draws of the sampled channels, type after type.
    on_note : callable, optional
        Receives the line that says ``auto`` fell back to capitalised words.

    Returns
    -------
    EntityAudit

    Examples
    --------
    >>> from emprivacy import Embeddings, SanText
    >>> from emprivacy.protection import Secrets
    >>> emb = Embeddings(["ann", "bob", "rome", "oslo", "cat"],
    ...                  [[0.0], [1.0], [20.0], [21.0], [9.0]])
    >>> s = Secrets.from_words(emb, ["ann", "bob", "cat"])
    >>> opts = EntityOptions("capitalised", 1e3, lists={"PERSON": ["ann", "bob"],
    ...                                                 "LOCATION": ["rome", "oslo"]})
    >>> e = audit_entities(SanText(emb, epsilon=1.0), s, opts)
    >>> e.secrets, e.audits["PERSON"].posterior_vulnerability.text()
    ({'PERSON': 2, 'LOCATION': 0}, '1 (exact)')
    """
    if not isinstance(mechanism, WordMechanism):
        raise TypeError(f"mechanism must be a WordMechanism; got {type(mechanism).__name__}")
    if not isinstance(secrets, Secrets):
        raise TypeError(f"secrets must be a Secrets; got {type(secrets).__name__}")
    if not isinstance(options, EntityOptions):
        raise TypeError(f"options must be an EntityOptions; got {type(options).__name__}")
    run = options.run(mechanism, on_note=on_note)
    if words is not None and not isinstance(words, EntityWords):
        raise TypeError(f"words must be an EntityWords; got {type(words).__name__}")
    if words is None and documents is not None:
        words = detect_entity_words(run, documents, mechanism.embeddings)
    per_type = entity_secrets(run, secrets, words)
    gen = check_random_state(rng)
    audits = {t: audit_mechanism(run.mechanisms[t], sub, draws=draws, channel=channel,
                                 confidence=confidence, rng=gen, progress=progress)
              for t, (sub, _) in per_type.items()}
    types = list(run.mechanisms)
    mentions = distinct = None
    if words is not None:
        mentions = {t: sum(words.mentions.get(t, {}).values()) for t in types}
        distinct = {t: len(words.mentions.get(t, {})) for t in types}
    where = ("the secrets that detection made entity words of the type in the corpus"
             if words is not None else "the secrets in the type's public sub-vocabulary (no "
             "corpus: nothing was detected; a word in several lists counts for the first)")
    methods = {
        "secrets": f"{where}; prior: pi restricted to them and renormalised (the marking, "
                   "which words are entities of which type, is released like the layout)",
        "channel": "the mechanism restricted to the type's public sub-vocabulary at "
                   "epsilon_e: exact for santext and tem, sampled for the others, as the "
                   "word audit",
        "conditional": "on detection: an entity word no detector marks is an ordinary "
                       "word at the general epsilon, covered by the general audit",
    }
    return EntityAudit(
        mechanism.name, mechanism.epsilon, run.detectors, options.entity_epsilon,
        run.policy.describe(), None if words is None else dict(words.detected), mentions,
        distinct, {t: len(per_type[t][0]) if t in per_type else 0 for t in types},
        {t: float(secrets.prior[per_type[t][1]].sum()) if t in per_type else 0.0
         for t in types}, audits, methods)
