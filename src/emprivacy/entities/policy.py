"""What becomes of each entity type: a policy per type, and the entity budget ε_e.

Policies (:data:`POLICIES`), as ``--entity-policy TYPE=POLICY``:

* ``"privatise"`` — the word goes through the run's mechanism restricted to its type's
  public sub-vocabulary (:mod:`emprivacy.entities.vocabulary`: a name becomes a name, a
  place a place) at its own ε_e (``--entity-epsilon``), one draw per distinct entity word
  per document; a word outside the sub-vocabulary becomes the type's placeholder (or, under
  ``oov="subword"``, goes through the restricted mechanism from its vector).  The default
  for ``PERSON`` and ``LOCATION`` (:data:`DEFAULT_POLICIES`), the types with a public list.
  For ``PROPER_NOUN`` (a capitalised word no model typed) it means: a ``PERSON`` if the
  person list holds it, else a ``LOCATION`` if the place list does, else an ordinary word.
* ``"placeholder"`` — the span becomes ``[TYPE]`` (:func:`placeholder`), as Presidio does.
  The default for ``ORG`` (no public list of organisations here) and the only policy of the
  structured identifiers (:data:`~emprivacy.entities.spans.STRUCTURED_TYPES`).
* ``"keep"`` — released as written: outside every guarantee, so it raises a
  :class:`~emprivacy.exceptions.PrivacyLeakWarning` and the records say so.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from emprivacy._validation import check_choice, check_epsilon
from emprivacy.entities.spans import NAMED_TYPES, PROPER_NOUN, STRUCTURED_TYPES
from emprivacy.entities.vocabulary import LISTED_TYPES
from emprivacy.exceptions import PrivacyLeakWarning

__all__ = [
    "DEFAULT_ENTITY_EPSILON",
    "DEFAULT_POLICIES",
    "POLICIES",
    "EntityPolicy",
    "allowed_policies",
    "parse_entity_policies",
    "placeholder",
    "warn_entities_kept",
]

#: The policies of an entity type.
POLICIES: tuple[str, ...] = ("privatise", "placeholder", "keep")

#: The default policy of each type.
DEFAULT_POLICIES: Mapping[str, str] = {
    "PERSON": "privatise", "LOCATION": "privatise", PROPER_NOUN: "privatise",
    "ORG": "placeholder", **dict.fromkeys(STRUCTURED_TYPES, "placeholder")}

#: The default ε_e of the entity slots: small, so that one name is hard to tell from another
#: (GloVe 50d puts a name's nearest other name at distance 1.6–3.8: at ε_e = 1 the
#: guarantee between them is a factor e^1.6–e^3.8, at the general ε = 10 it is e^16–e^38).
DEFAULT_ENTITY_EPSILON = 1.0

#: Short placeholders of some types (the others are ``[TYPE]``).
_PLACEHOLDERS = {PROPER_NOUN: "[NAME]"}


def placeholder(entity_type: str) -> str:
    """The placeholder of a type: ``[PERSON]``, ``[PHONE]``, … (``[NAME]`` for a capitalised
    word no model typed).

    >>> placeholder("LOCATION"), placeholder("PROPER_NOUN")
    ('[LOCATION]', '[NAME]')
    """
    return _PLACEHOLDERS.get(entity_type, f"[{entity_type}]")


def allowed_policies(entity_type: str) -> tuple[str, ...]:
    """The policies a type takes: structured identifiers are always placeholders, and only
    the types with a public list (and ``PROPER_NOUN``) can be privatised.

    >>> allowed_policies("PERSON"), allowed_policies("ORG"), allowed_policies("PHONE")
    (('privatise', 'placeholder', 'keep'), ('placeholder', 'keep'), ('placeholder',))
    """
    if entity_type in STRUCTURED_TYPES:
        return ("placeholder",)
    if entity_type in LISTED_TYPES or entity_type == PROPER_NOUN:
        return POLICIES
    return ("placeholder", "keep")


def _check_type(entity_type: Any) -> str:
    known = (*NAMED_TYPES, PROPER_NOUN, *STRUCTURED_TYPES)
    return check_choice(entity_type, "entity type", known)


def parse_entity_policies(pairs: Iterable[str]) -> dict[str, str]:
    """``["TYPE=POLICY", ...]`` (``--entity-policy`` values) as a mapping, each checked.

    >>> parse_entity_policies(["ORG=keep", "person=placeholder"])
    {'ORG': 'keep', 'PERSON': 'placeholder'}
    >>> parse_entity_policies(["PHONE=keep"])
    Traceback (most recent call last):
    ...
    ValueError: entity policy of PHONE must be one of 'placeholder' (a structured identifier \
is always a placeholder); got 'keep'
    """
    if isinstance(pairs, str):
        raise TypeError("pairs must be a sequence of 'TYPE=POLICY' strings, not a single str")
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = str(pair).partition("=")
        key, value = key.strip().upper(), value.strip().lower()
        if not sep or not key or not value:
            raise ValueError(f"an entity policy must be given as TYPE=POLICY; got {pair!r}")
        _check_type(key)
        if key in out:
            raise ValueError(f"the policy of entity type {key} is given twice")
        check_choice(value, f"entity policy of {key}", POLICIES)
        if value not in allowed_policies(key):
            why = ("a structured identifier is always a placeholder" if key in STRUCTURED_TYPES
                   else "no public sub-vocabulary to privatise within")
            raise ValueError(f"entity policy of {key} must be one of "
                             f"{', '.join(repr(p) for p in allowed_policies(key))} ({why}); "
                             f"got {value!r}")
        out[key] = value
    return out


@dataclass(frozen=True)
class EntityPolicy:
    """The policy of every type and the entity budget ε_e.

    Parameters
    ----------
    epsilon : float, default :data:`DEFAULT_ENTITY_EPSILON`
        ε_e of a privatised entity word: ``ε_e·d`` within its type's sub-vocabulary.
    policies : mapping, optional
        Type → policy, overriding :data:`DEFAULT_POLICIES` (checked as
        :func:`parse_entity_policies` checks them).

    >>> p = EntityPolicy(policies={"ORG": "keep"})
    >>> p.policy("ORG"), p.policy("PERSON"), p.kept
    ('keep', 'privatise', ('ORG',))
    """

    epsilon: float = DEFAULT_ENTITY_EPSILON
    policies: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        if not isinstance(self.policies, Mapping):
            raise TypeError(f"policies must be a mapping of type to policy; got "
                            f"{type(self.policies).__name__}")
        given = parse_entity_policies([f"{k}={v}" for k, v in self.policies.items()])
        object.__setattr__(self, "policies", {**DEFAULT_POLICIES, **given})

    def __hash__(self) -> int:
        return hash((self.epsilon, tuple(sorted(self.policies.items()))))

    def policy(self, entity_type: str) -> str:
        """The policy of a type (a type no built-in detector emits: ``"placeholder"``)."""
        return self.policies.get(entity_type, "placeholder")

    @property
    def kept(self) -> tuple[str, ...]:
        """The types released as written (``"keep"``), sorted."""
        return tuple(sorted(t for t, p in self.policies.items() if p == "keep"))

    @property
    def privatised(self) -> tuple[str, ...]:
        """The listed types whose words are privatised (a privatised ``PROPER_NOUN`` word
        becomes one of them), in :data:`~emprivacy.entities.vocabulary.LISTED_TYPES` order."""
        return tuple(t for t in LISTED_TYPES
                     if self.policy(t) == "privatise"
                     or self.policy(PROPER_NOUN) == "privatise")

    def describe(self) -> str:
        """The policies as records name them: ``"PERSON=privatise,ORG=placeholder,…"``."""
        return ",".join(f"{t}={p}" for t, p in self.policies.items())


def warn_entities_kept(types: Iterable[str], *, stacklevel: int = 2) -> None:
    """The :class:`PrivacyLeakWarning` of the ``keep`` policy (the types, never the words)."""
    listed = ", ".join(sorted(types))
    warnings.warn(f"entities of type {listed} are released as written (entity policy "
                  "'keep'): the privacy guarantee does not cover them", PrivacyLeakWarning,
                  stacklevel=stacklevel + 1)
