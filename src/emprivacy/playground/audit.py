"""The page's "audit my text": the word audit run on the words of the user's own text.

The slider's marks and each release's summary quote the cached audit on the Brown corpus's
2,000 most frequent content words (:mod:`.marks`).  This button asks the same question of
the text on the page: its content words (:func:`emprivacy.bag_of_words`) are the secrets, their
counts in the text the prior, and :func:`emprivacy.protection.audit_mechanism` measures, for
each ε shown, V(π▷C) — the share of those words the Bayes-optimal adversary, who knows the
mechanism and that the word is one of them, recovers from one release (docs/AUDIT.md) — exact
for TEM and SanText, estimated with its 95 % interval for the others (``QUICK_DRAWS``
releases per word, seeded by the page's seed).  With few secrets the adversary has few
candidates to choose from, so the figure is higher than the Brown audit's at the same ε.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from emprivacy.playground.settings import PageSettings

if TYPE_CHECKING:  # pragma: no cover
    from emprivacy.playground.session import Playground

__all__ = ["MAX_SECRETS", "QUICK_DRAWS", "TextAudit", "audit_text"]

#: Releases per secret word of a sampled channel (the audit's own default is 500).
QUICK_DRAWS = 200
#: At most this many of the text's most frequent content words are audited.
MAX_SECRETS = 200


@dataclass(frozen=True, slots=True)
class TextAudit:
    """The word audit of the page's text at one ε.

    Attributes
    ----------
    epsilon : float
    secrets : int
        K, the text's content words audited.
    prior : float
        V(π): the adversary's chance of naming the word without seeing a release.
    posterior, lower, upper : float
        V(π▷C) and its interval (equal when exact).
    exact : bool
        Whether the channel is computed exactly (TEM, SanText) rather than sampled.
    """

    epsilon: float
    secrets: int
    prior: float
    posterior: float
    lower: float
    upper: float
    exact: bool


def audit_text(playground: Playground, settings: PageSettings) -> list[TextAudit]:
    """The word audit of ``settings.text`` at each of ``settings.epsilons``.

    Raises
    ------
    ValueError
        The text has no content word in the vocabulary.
    """
    from emprivacy.protection import audit_mechanism, secret_words
    from emprivacy.text import bag_of_words

    counts = Counter(bag_of_words(settings.text))
    known = Counter({w: c for w, c in counts.items() if w in playground.embeddings})
    if not known:
        raise ValueError("the text has no content word in the vocabulary to audit")
    secrets = secret_words(playground.embeddings, k=min(len(known), MAX_SECRETS),
                           counts=known)
    out = []
    for epsilon in settings.epsilons:
        mech = playground.mechanism(settings.mechanism, epsilon)
        audit = audit_mechanism(mech, secrets, draws=QUICK_DRAWS, rng=settings.seed)
        post = audit.posterior_vulnerability
        out.append(TextAudit(epsilon, len(secrets.words), float(audit.prior_vulnerability),
                             float(post.estimate), float(post.lower), float(post.upper),
                             bool(post.exact)))
    return out
