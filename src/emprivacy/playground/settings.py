"""What one request of the page asks for, checked before any work.

:class:`PageSettings` is the page's form as the server reads it: the text, the ε to show side
by side, the mechanism, the entity options and the seed.  Every field is checked here with the
library's sklearn-style messages (``"epsilon must be a finite number > 0; got -1.0"``), so a
bad form gets one line back and nothing runs.  The limits (:data:`MAX_TEXT_CHARS`,
:data:`MAX_EPSILONS`) keep one request small enough for a page: larger corpora belong to
``emprivacy obfuscate``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_EPSILON", "MAX_EPSILONS", "MAX_SEED", "MAX_TEXT_CHARS", "MECHANISM_NAMES",
           "PageSettings", "TooLarge"]

#: The mechanisms the page offers, with their default parameters (docs/MECHANISMS.md).
MECHANISM_NAMES = ("madlib", "mahalanobis", "vickrey", "tem", "santext")
#: The most characters of text one request may carry.
MAX_TEXT_CHARS = 20_000
#: The most ε one request may compare side by side.
MAX_EPSILONS = 4
#: The largest ε the page takes (the slider's end is lower; beyond it every word comes back).
MAX_EPSILON = 1_000.0
#: Seeds run from 0 to this (what ``--seed`` takes, and a JSON number holds exactly).
MAX_SEED = 2**53


class TooLarge(ValueError):
    """A request over the page's limits: the message says which and what to use instead."""


@dataclass(frozen=True, slots=True)
class PageSettings:
    """One release request of the page.

    Attributes
    ----------
    text : str
        The text to release (at most :data:`MAX_TEXT_CHARS` characters).
    epsilons : tuple of float
        The per-word ε of each release shown side by side (1 to :data:`MAX_EPSILONS`).
    mechanism : str
        One of :data:`MECHANISM_NAMES`, with its default parameters.
    entities : str
        ``--entities``: ``"none"``, ``"auto"`` or a list of detectors.
    entity_epsilon : float
        ε_e of the entity slots.
    entity_policy : tuple of str
        ``TYPE=POLICY`` pairs, as ``--entity-policy`` takes them.
    seed : int
        The seed of the noise (every release of the page is reproducible from it).
    perturb_stopwords : bool
        Send the kept function words through the mechanism too.
    """

    text: str
    epsilons: tuple[float, ...]
    seed: int
    mechanism: str = "madlib"
    entities: str = "none"
    entity_epsilon: float = 1.0
    entity_policy: tuple[str, ...] = ()
    perturb_stopwords: bool = False

    @classmethod
    def from_payload(cls, payload: Any) -> PageSettings:
        """The settings of a request's JSON body, checked.

        Raises
        ------
        TooLarge
            The text or the list of ε is over the page's limits.
        TypeError, ValueError
            A field is missing or of a wrong type or value (one line naming it).

        Examples
        --------
        >>> PageSettings.from_payload({"text": "a cat", "epsilons": [10], "seed": 3}).epsilons
        (10.0,)
        >>> PageSettings.from_payload({"text": "a cat", "epsilons": [-1], "seed": 3})
        Traceback (most recent call last):
        ...
        ValueError: epsilon must be a finite number > 0; got -1.0
        """
        if not isinstance(payload, Mapping):
            raise TypeError(f"the request must be a JSON object; got {type(payload).__name__}")
        text = payload.get("text")
        if not isinstance(text, str):
            raise TypeError(f"text must be a string; got {type(text).__name__}")
        if len(text) > MAX_TEXT_CHARS:
            raise TooLarge(f"the text has {len(text):,} characters; the playground takes at "
                           f"most {MAX_TEXT_CHARS:,} per request (use 'emprivacy obfuscate' "
                           "for longer texts)")
        epsilons = payload.get("epsilons")
        if not isinstance(epsilons, list) or not epsilons:
            raise TypeError("epsilons must be a non-empty list of numbers")
        if len(epsilons) > MAX_EPSILONS:
            raise TooLarge(f"at most {MAX_EPSILONS} ε side by side; got {len(epsilons)}")
        checked = tuple(_epsilon(e, "epsilon") for e in epsilons)
        mechanism = payload.get("mechanism", "madlib")
        if mechanism not in MECHANISM_NAMES:
            raise ValueError(f"mechanism must be one of {', '.join(MECHANISM_NAMES)}; "
                             f"got {mechanism!r}")
        entities = payload.get("entities", "none")
        if not isinstance(entities, str) or not entities.strip() or len(entities) > 200:
            raise TypeError("entities must be 'none', 'auto' or a list of detectors")
        policy = payload.get("entity_policy", [])
        if not isinstance(policy, list) or not all(isinstance(p, str) for p in policy) \
                or len(policy) > 20:
            raise TypeError("entity_policy must be a list of 'TYPE=POLICY' strings")
        seed = payload.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be an integer from 0 to {MAX_SEED}; got {seed!r}")
        stop = payload.get("perturb_stopwords", False)
        if not isinstance(stop, bool):
            raise TypeError(f"perturb_stopwords must be a bool; got {type(stop).__name__}")
        return cls(text=text, epsilons=checked, seed=seed, mechanism=mechanism,
                   entities=entities.strip(),
                   entity_epsilon=_epsilon(payload.get("entity_epsilon", 1.0),
                                           "entity_epsilon"),
                   entity_policy=tuple(p.strip() for p in policy if p.strip()),
                   perturb_stopwords=stop)

    @property
    def entities_on(self) -> bool:
        """Whether any entity option is given (``--entities none`` alone: no)."""
        return (self.entities.lower() != "none" or bool(self.entity_policy)
                or self.entity_epsilon != 1.0)


def _epsilon(value: Any, name: str) -> float:
    """A finite ε in (0, :data:`MAX_EPSILON`]."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise TypeError(f"{name} must be a finite number > 0; got {value!r} of type "
                        f"{type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0; got {value!r}")
    if value > MAX_EPSILON:
        raise ValueError(f"{name} must be at most {MAX_EPSILON:g} on the page; got {value!r}")
    return value
