"""What the paper's experiment (§6) releases for its snippets: every word through the
mechanism (Alg. 2), or, with entity detection (issue 29, ``evaluate --entities``), each word
by its entity decision.

Without detection (:func:`release_snippets` with no ``entities``), all the in-vocabulary
words of all snippets go through the mechanism in one draw; out-of-vocabulary words (only
under the experiment's ``oov="keep"``) pass unchanged, as in the paper.

The experiment releases each unknown-author snippet as a bag of N words (App. B).  With
entity detection the snippet is detected **as text, before it becomes a bag**, exactly as
bag mode does it (:func:`~emprivacy.preparation.entity_bags.bag_entity_words`), and each of
its N words is then released by its decision: an ordinary word through the run's mechanism
at ε; an entity word of a privatised type (``PERSON``, ``LOCATION``) through the same
mechanism restricted to its type's public sub-vocabulary at ε_e
(:func:`~emprivacy.obfuscation.restricted.restricted_mechanism`), one draw per distinct entity
word per snippet (every mention gets that surrogate); a placeholder span as its placeholder
(``[ORG]``, …), once per span; a kept word as it is.  The clean snippets (ε = ``none``), the
known-author texts, N and the topic classifier's training data are those of a run without
entities: only what is released changes.

**The text the detector reads.**  The Brown reader (:mod:`emprivacy.evaluation.brown_corpus`)
rebuilds a sample's text from its ``word/tag`` tokens: the words, tags removed, joined by
single spaces, one line per line of the sample (``Dan Morgan told himself he would forget
Ann Turner .``).  The part-of-speech tags (``np`` for proper nouns) are not used: the
detectors see only the words.  Before detection, :func:`detection_text` undoes the corpus's
tokenisation where it would mislead a model (no space before ``, . ; : ? ! )``, none after
``(``, the quotes ````` and ``''`` as ``"``); the spans found are mapped back to the
characters of the rebuilt text, so the words of the bag are unchanged.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from emprivacy.embeddings.model import Embeddings
from emprivacy.entities.french import language_detector
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.policy import EntityPolicy, placeholder
from emprivacy.entities.spans import SPAN_ORDER, EntityDetector, EntitySpan, check_texts
from emprivacy.evaluation.datasets import Corpus, PreparedSet, split_text
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.prefetch import PrefetchingDetector
from emprivacy.obfuscation.restricted import ENTITY_RANK_RESAMPLE, restricted_mechanism
from emprivacy.preparation.decisions import Decision, EntityKey, EntitySlot, Placeholder
from emprivacy.preparation.entity_bags import bag_entity_words
from emprivacy.text.normalise import normalise_text

__all__ = ["DETECTION_TEXT", "DetokenisedDetector", "SnippetEntities", "detection_text",
           "entity_plan", "mark_snippets", "release_snippets"]

#: How the experiment's detector reads a snippet (recorded in ``run.json``).
DETECTION_TEXT = (
    "the snippet's text as the corpus reader rebuilt it (Brown: the words of its word/tag "
    "tokens, tags removed, joined by spaces, one line per line of the sample; the tags are "
    "not used), with no space before , . ; : ? ! ) and none after (, and the quotes `` '' "
    "as \"; spans are mapped back to the rebuilt text, so the bags are those of a run "
    "without entities")

#: Spaces the corpus put around punctuation, and its quotes: (pattern, replacement).
_DETOKENISE = re.compile(r" (?=[,.;:?!)\]}](?:\s|$))|(?<=[(\[{]) |`` ?| ?''")


def detection_text(text: str) -> tuple[str, np.ndarray]:
    """``text`` with the corpus's tokenisation undone for a detector, and for each of its
    characters the offset of the character of ``text`` it comes from.

    >>> text = "He said `` Ann , go '' ."
    >>> read, offsets = detection_text(text)
    >>> read, text[offsets[9]:offsets[11] + 1]
    ('He said "Ann, go".', 'Ann')
    """
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for m in _DETOKENISE.finditer(text):
        out.append(text[pos:m.start()])
        where.extend(range(pos, m.start()))
        if "`" in m.group() or "'" in m.group():
            out.append('"')
            where.append(m.start() + m.group().find("`" if "`" in m.group() else "'"))
        pos = m.end()
    out.append(text[pos:])
    where.extend(range(pos, len(text)))
    return "".join(out), np.asarray(where, dtype=np.int64)


class DetokenisedDetector:
    """A detector that reads each text through :func:`detection_text` and returns its spans
    as offsets into the text it was given."""

    def __init__(self, detector: EntityDetector) -> None:
        self.detector = detector
        self.name = detector.name
        self.types = detector.types

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        return self._read(self.detector.detect, texts)

    def gap_spans(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        """The gap fillers' spans (the ``learned`` detector's), read the same way."""
        gap_spans = getattr(self.detector, "gap_spans", None)
        if gap_spans is None:
            return [[] for _ in texts]
        return self._read(gap_spans, texts)

    @staticmethod
    def _read(detect: Callable[[list[str]], list[list[EntitySpan]]], texts: Sequence[str]
              ) -> list[list[EntitySpan]]:
        texts = check_texts(texts)
        read = [detection_text(t) for t in texts]
        found = detect([t for t, _ in read])
        out: list[list[EntitySpan]] = []
        for (_, where), spans in zip(read, found, strict=True):
            # replace(): a span's class goes with it (the learned detector's NearSpan)
            out.append(sorted({replace(s, start=int(where[s.start]),
                                       end=int(where[s.end - 1]) + 1) for s in spans},
                              key=SPAN_ORDER))
        return out


@dataclass(frozen=True)
class SnippetEntities:
    """The entity decision of each word of each snippet of a prepared set, and the counts
    of the run JSON.

    ``decisions[j][i]`` is the decision of word i of snippet j (``None``: an ordinary word;
    a :class:`~emprivacy.preparation.decisions.Placeholder` with an empty ``text``: a
    word of a span whose placeholder an earlier word released).
    """

    decisions: tuple[tuple[Decision, ...], ...]
    detected: dict[str, int] = field(default_factory=dict)

    def counts(self) -> dict[str, Any]:
        """What the run JSON records of one set's snippets."""
        slots = [d for snip in self.decisions for d in snip if isinstance(d, EntitySlot)]
        keys = {(j, d.key) for j, snip in enumerate(self.decisions) for d in snip
                if isinstance(d, EntitySlot)}
        holders = [d for snip in self.decisions for d in snip if isinstance(d, Placeholder)]
        kept = sum(1 for snip in self.decisions for d in snip
                   if d is not None and not isinstance(d, EntitySlot | Placeholder))
        return {"snippet_words": sum(len(s) for s in self.decisions),
                "entity_words": len(slots),
                "entity_words_by_type": dict(Counter(d.key[0] for d in slots)),
                "entity_words_distinct": len(keys),
                "placeholder_words": len(holders),
                "entity_placeholders": sum(1 for d in holders if d.text),
                "entities_kept": kept,
                "detected_in_snippets": self.detected}


@dataclass(frozen=True)
class EntityPlan:
    """The detection and the restricted mechanisms of one run."""

    detectors: str
    policy: EntityPolicy
    detector: PrefetchingDetector
    marking: EntityMarking
    mechanisms: dict[str, WordMechanism]
    lang: str = "en"

    def metadata(self) -> dict[str, Any]:
        """The run JSON's ``entities`` (the sets' counts are added by the runner)."""
        return {"detectors": self.detectors, "entity_epsilon": self.policy.epsilon,
                "entity_policy": self.policy.describe(), "detection_text": DETECTION_TEXT,
                "sub_vocabulary_words": {t: int(r.size) for t, r in self.marking.rows.items()}}


def entity_plan(entities: str, entity_epsilon: float, entity_policy: Sequence[tuple[str, str]],
                mechanism: WordMechanism, *, lang: str = "en") -> EntityPlan | None:
    """The run's detection (the detectors of ``lang``) and restricted mechanisms (``None``
    for ``entities="none"``); ``mechanism`` gives the class and parameters of the restricted
    ones."""
    names, detector, _ = language_detector(entities, lang)
    if detector is None:
        return None
    policy = EntityPolicy(entity_epsilon, dict(entity_policy))
    ahead = PrefetchingDetector(DetokenisedDetector(detector))
    marking = EntityMarking.build(ahead, policy, mechanism.embeddings, lang=lang)
    mechanisms = {t: restricted_mechanism(mechanism, rows, policy.epsilon, label=t,
                                          rank_resample=ENTITY_RANK_RESAMPLE)
                  for t, rows in marking.rows.items()}
    return EntityPlan(names, policy, ahead, marking, mechanisms, lang)


def mark_snippets(corpus_set: Corpus, prepared: PreparedSet, plan: EntityPlan,
                  embeddings: Embeddings, *, known_fraction: float) -> SnippetEntities:
    """The entity decision of every word of the set's snippets (their text detected, then
    aligned with the N words of :attr:`PreparedSet.snippets`)."""
    decisions: list[tuple[Decision, ...]] = []
    detected: Counter[str] = Counter()
    texts = [normalise_text(split_text(d.text, known_fraction=known_fraction,
                                       lang=plan.lang)[1]) for d in corpus_set]
    plan.detector.prefetch(texts)  # the set's snippets in one batch of the detector
    for text, snippet in zip(texts, prepared.snippets, strict=True):
        words, counted = bag_entity_words(plan.marking, text, embeddings, oov="drop",
                                          lang=plan.lang)
        detected.update(counted)
        if prepared.oov == "drop":
            words = [w for w in words if w[1] >= 0]
        words = words[:len(snippet)]
        rows = embeddings.rows(list(snippet)).tolist()  # an alias is its row's output word
        if len(words) != len(snippet) or any(  # pragma: no cover - a bug, not input
                w != s and (r < 0 or r != q) for (w, r, _), s, q in
                zip(words, snippet, rows, strict=True)):
            raise RuntimeError("the detected snippet does not match its bag")
        out: list[Decision] = []
        last_span = -1
        for _, _, decision in words:
            if isinstance(decision, Placeholder):  # its first word in this bag releases it
                text_of = placeholder(decision.type) if decision.span != last_span else ""
                decision = Placeholder(decision.span, text_of, decision.type, decision.start)
                last_span = decision.span
            out.append(decision)
        decisions.append(tuple(out))
    return SnippetEntities(tuple(decisions), dict(sorted(detected.items())))


def release_snippets(prepared: PreparedSet, mech: WordMechanism, embeddings: Embeddings,
                     entities: tuple[EntityPlan, SnippetEntities, np.random.Generator] | None
                     = None) -> tuple[list[tuple[str, ...]], int, tuple[np.ndarray, np.ndarray]]:
    """Every snippet released: its ordinary words through ``mech`` in one draw; with
    ``entities`` (the plan, the snippets' decisions and the generator of the entity draws),
    each distinct entity word of a snippet once through its type's restricted mechanism,
    every mention getting that surrogate, and placeholders and kept words as they are.

    Returns the released snippets, the out-of-vocabulary words passed unchanged (``keep``),
    and the rows of every word through a mechanism (entity mentions included) with the rows
    released for them.
    """
    rows = [embeddings.rows(s) for s in prepared.snippets]
    flat = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    if entities is None:
        decisions: Sequence[Sequence[Decision]] = [(None,) * len(s) for s in prepared.snippets]
    else:
        plan, marks, rng = entities
        decisions = marks.decisions
    ordinary = np.fromiter((d is None for snip in decisions for d in snip), dtype=bool,
                           count=flat.size)
    through = ordinary & (flat >= 0)
    noisy = flat.copy()
    if through.any():
        noisy[through] = mech.privatize_indices(flat[through])
    surrogate = {} if entities is None else _surrogates(plan, decisions, rng)
    vocab = embeddings.words
    released: list[tuple[str, ...]] = []
    originals: list[int] = []
    outputs: list[int] = []
    start = 0
    for j, snip in enumerate(prepared.snippets):
        words: list[str] = []
        for i, (w, d) in enumerate(zip(snip, decisions[j], strict=True)):
            k = int(noisy[start + i])
            if d is None:
                words.append(vocab[k] if k >= 0 else w)
            elif isinstance(d, EntitySlot):
                row = surrogate[(j, d.key)]
                words.append(vocab[row])
                originals.append(int(flat[start + i]))
                outputs.append(row)
            elif isinstance(d, Placeholder):
                if d.text:
                    words.append(d.text)
            else:  # kept: the word as the bag writes it
                words.append(w)
        released.append(tuple(words))
        start += len(snip)
    if originals:
        o = np.concatenate([flat[through], np.asarray(originals, dtype=np.int64)])
        y = np.concatenate([noisy[through], np.asarray(outputs, dtype=np.int64)])
    else:
        o, y = flat[through], noisy[through]
    return released, int((ordinary & (flat < 0)).sum()), (o, y)


def _surrogates(plan: EntityPlan, decisions: Sequence[Sequence[Decision]],
                rng: np.random.Generator) -> dict[tuple[int, EntityKey], int]:
    """The surrogate row of each distinct entity word of each snippet j, ``(j, key)``: one
    call of each type's restricted mechanism for all of them."""
    first = {(j, d.key): d.row for j, snip in enumerate(decisions) for d in snip
             if isinstance(d, EntitySlot)}
    out: dict[tuple[int, EntityKey], int] = {}
    for entity_type, sub in plan.mechanisms.items():
        keys = [k for k in first if k[1][0] == entity_type]
        if not keys:
            continue
        sub_rows = plan.marking.rows[entity_type]
        inputs = np.searchsorted(sub_rows, [first[k] for k in keys])
        released = sub_rows[sub.privatize_indices(inputs, rng=rng)]
        out.update(zip(keys, released.tolist(), strict=True))
    return out
