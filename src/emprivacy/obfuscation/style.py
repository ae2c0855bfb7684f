"""The style option of text mode (issue 41, stage 5): the kept function words released under
a budget of their own within their grammatical class, and punctuation and spacing in one
canonical form.

Text mode keeps its allow-listed function words verbatim (:mod:`emprivacy.preparation.template`),
and those alone identify a writer (docs/EXPERIMENTS.md: 0.68–0.77 of 20 Brown authors at every
ε).
With ``style_epsilon`` ε_f (:class:`~emprivacy.obfuscation.config.ObfuscationConfig`) each such
word of a class of :data:`~emprivacy.text.function_classes.FUNCTION_CLASSES` is a *style
slot*: it goes through the run's mechanism restricted to the words of its class that the
embeddings hold (:func:`~emprivacy.obfuscation.restricted.restricted_mechanism`, decoded
exactly, the same construction as entity slots), one independent draw per occurrence, from a
noise stream of its own (:func:`style_generator`).

Guarantee.  The restricted mechanism is the run's mechanism with its output restricted to the
class's words (the noisy point decoded to the nearest word of the class: post-processing), so
it is ``ε_f·d``-private between any two words of the class (Thm. 2; for Madlib, Vickrey and
SanText their own ``ε·d`` argument at ε_f on the sub-vocabulary).  The slots are drawn
independently of one another and of the content words, so the component-wise lift of §3
composes them: for two texts of the same layout whose content words are ``x_i, x'_i``, and
whose style slots are ``f_j, f'_j`` with ``f_j`` and ``f'_j`` of one class,

.. math::  P[K(x, f) \\in Z] \\le e^{\\varepsilon \\sum_i d(x_i, x'_i)
           + \\varepsilon_f \\sum_j d(f_j, f'_j)}\\, P[K(x', f') \\in Z]

(times ``e^{ε_e·Σ d}`` over the distinct entity words with entity detection).  Each record's
``epsilon_total`` adds ``ε_f`` per style slot.  What stays layout: the position and class of
each slot; the function words the embeddings lack, those of a class with fewer than two words
in the embeddings, and the clitics (``n't``, ``'s``, the ``ca`` of ``can't``) stay verbatim,
as without the option.  The punctuation and spacing of the released text are then rewritten
by :func:`~emprivacy.text.canonical.canonical_punctuation` (post-processing).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable

import numpy as np

from emprivacy.math.randomness import document_generator
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.restricted import restricted_mechanism
from emprivacy.preparation.template import EUCLIDEAN_GUARANTEE
from emprivacy.preparation.writing import apply_case, case_pattern
from emprivacy.text.canonical import canonical_punctuation
from emprivacy.text.function_classes import (
    FUNCTION_CLASS_NAMES,
    FUNCTION_CLASSES,
    STYLE_CLOSE,
    STYLE_OPEN,
)

__all__ = ["StyleRun", "style_generator", "style_guarantee"]

_SLOT = re.compile(f"{STYLE_OPEN}([^{STYLE_CLOSE}]*){STYLE_CLOSE}")


def style_guarantee(epsilon: float, metric: str) -> str:
    """The sentence that a text record's guarantee gains under the style option (``metric``:
    the restricted mechanisms'; a d_RM is then of each class's own covariance)."""
    if metric != EUCLIDEAN_GUARANTEE:
        metric += ", Σ the covariance of the class's words"
    return (f" Style option (style_epsilon={epsilon:g}): each kept function word of a class "
            "(determiner, pronoun, preposition, conjunction, be, have, do, modal, adverb) is "
            "drawn independently by the mechanism restricted to its class's words at ε_f: "
            f"ε_f·d between two words of one class, d {metric}, composed with the bound "
            "above as exp(ε·Σ_i d(x_i, x'_i) + ε_f·Σ_j d(f_j, f'_j)); epsilon_total adds ε_f "
            "per style slot. The position and class of each slot are layout; function words "
            "the embeddings lack, those of a class with fewer than two words in the "
            "embeddings, and the clitics stay verbatim. Punctuation and spacing are released "
            "in one canonical form (post-processing).")


def style_generator(run_key: bytes, document_id: str) -> np.random.Generator:
    """The noise stream of a document's style slots: the document's stream under a key of its
    own, ``HMAC-SHA-256(run_key, "emprivacy-style")``, sharing nothing with its other words'."""
    key = hmac.new(bytes(run_key), b"emprivacy-style", hashlib.sha256).digest()
    return document_generator(key, document_id)


class StyleRun:
    """The restricted mechanism of each function-word class, and the release of style slots.

    Parameters
    ----------
    mechanism : WordMechanism
        The run's mechanism (its class and parameters; its ε is not used).
    epsilon : float
        ε_f of a style slot.
    run_key : bytes
        The run's secret key (each document's style stream: :func:`style_generator`).

    Examples
    --------
    >>> from emprivacy import Embeddings
    >>> from emprivacy.mechanisms import EarthMoversPrivacy
    >>> emb = Embeddings(["the", "a", "of", "cat"], [[0.0], [0.1], [9.0], [5.0]], name="toy")
    >>> run = StyleRun(EarthMoversPrivacy(emb, epsilon=1), 1e-9, run_key=b"k" * 32)
    >>> sorted(run.words)  # "of": the only preposition of the embeddings
    ['a', 'the']
    >>> run.release("\\ue000The\\ue001 cat  sat !!", run.generator("d")) in (
    ...     "The cat sat!", "A cat sat!")
    True
    """

    def __init__(self, mechanism: WordMechanism, epsilon: float, *, run_key: bytes) -> None:
        self.epsilon = float(epsilon)
        self.run_key = run_key
        emb = mechanism.embeddings
        self.mechanisms: dict[str, WordMechanism] = {}
        self._slot: dict[str, tuple[str, int]] = {}  # word -> (class, row of the class)
        for name in FUNCTION_CLASS_NAMES:
            words = sorted(w for w, c in FUNCTION_CLASSES.items() if c == name)
            found = {int(r): w for w, r in zip(words, emb.rows(words).tolist(), strict=True)
                     if r >= 0}
            if len(set(found)) < 2:
                continue  # nothing to choose from: its words stay verbatim
            rows = np.array(sorted(found), dtype=np.int64)
            self.mechanisms[name] = restricted_mechanism(mechanism, rows, self.epsilon,
                                                         label=f"style:{name}")
            for i, row in enumerate(rows.tolist()):
                self._slot[found[row]] = (name, i)
        #: The function words that are style slots (lower case).
        self.words: frozenset[str] = frozenset(self._slot)
        self.guarantee_note = style_guarantee(self.epsilon, mechanism.guarantee_metric())

    def generator(self, document_id: str) -> np.random.Generator:
        """The style stream of a document (:func:`style_generator`)."""
        return style_generator(self.run_key, document_id)

    def release(self, text: str, gen: np.random.Generator) -> str:
        """A rendered text with each style slot filled by a word drawn within its class (in the
        slot's capitalisation), then :func:`~emprivacy.text.canonical.canonical_punctuation`.

        The slots are drawn class by class (:data:`FUNCTION_CLASS_NAMES` order), each class's
        slots in text order, from ``gen``."""
        slots = [(m.group(1), self._slot[m.group(1).lower()]) for m in _SLOT.finditer(text)]
        drawn: list[str] = [""] * len(slots)
        for name, mech in self.mechanisms.items():
            at = [i for i, (_, (c, _)) in enumerate(slots) if c == name]
            if not at:
                continue
            out = mech.privatize_indices(np.array([slots[i][1][1] for i in at]), rng=gen)
            words = mech.embeddings.words
            for i, row in zip(at, out.tolist(), strict=True):
                word = apply_case(words[row], case_pattern(slots[i][0]))
                drawn[i] = "I" if word == "i" else word
        filled = iter(drawn)
        fill: Callable[[re.Match[str]], str] = lambda _: next(filled)  # noqa: E731
        return canonical_punctuation(_SLOT.sub(fill, text))
