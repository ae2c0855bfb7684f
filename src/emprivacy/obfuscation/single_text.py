"""One text released through the obfuscator: :meth:`WordMechanism.privatize_text
<emprivacy.mechanisms.WordMechanism.privatize_text>` with entity detection.

A mechanism's ``privatize_text(text, entities=…)`` goes through the same path as
``obfuscate --entities`` and :func:`~emprivacy.tables.privatize_texts` (an
:class:`~emprivacy.obfuscation.obfuscator.Obfuscator` in text mode on one document), so that
its entity slots, its one draw per distinct entity word and its warnings are those of a
corpus run.  The mechanisms sit below the obfuscation layer (``pyproject.toml``'s
import-linter contracts), so the method reaches this module by name when entities are
asked for.
"""

from __future__ import annotations

from typing import Any

from emprivacy.io.documents import Document
from emprivacy.math.randomness import RandomState, check_random_state
from emprivacy.mechanisms.base import WordMechanism
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.preparation.template import prepare_text

__all__ = ["privatize_entity_text"]

#: The identifier of the one document (it keys the noise streams with the run key).
_DOCUMENT_ID = "text"


def privatize_entity_text(mechanism: WordMechanism, text: str, *, oov: str,
                          perturb_stopwords: bool, entities: str, entity_epsilon: float,
                          entity_policy: Any, rng: RandomState) -> str:
    """``text`` released in text mode with entity detection (module docstring).

    The run key of the obfuscator is 32 bytes of ``rng``
    (:func:`~emprivacy.math.randomness.check_random_state`: ``None`` is the secure
    generator, an int a reproducible one); every setting is checked by
    :class:`~emprivacy.obfuscation.config.ObfuscationConfig` before any work.  A text with
    no token at all is returned as its layout (as without entities).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__}")
    config = ObfuscationConfig(mode="text", oov=oov,
                               perturb_stopwords=perturb_stopwords, entities=entities,
                               entity_epsilon=entity_epsilon, entity_policy=entity_policy)
    run_key = check_random_state(rng).bytes(32)
    obfuscator = Obfuscator(mechanism, config, run_key=run_key, require_release=False)
    for record in obfuscator.obfuscate([Document(_DOCUMENT_ID, text)]):
        return str(record["text"])
    return prepare_text(text, mechanism.embeddings, oov=oov,
                        perturb_stopwords=perturb_stopwords).render([], mechanism.embeddings.words)
