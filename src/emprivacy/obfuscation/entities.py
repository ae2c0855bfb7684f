"""Entity slots of text mode: the restricted mechanisms, one surrogate per entity word per
document, batched detection, and the guarantee that names both budgets.

An entity word of a privatised type T (``PERSON``, ``LOCATION``; :mod:`emprivacy.entities`)
goes through :func:`restricted_mechanism`: the run's mechanism class, with the run's
parameters, built on the sub-embeddings of T's public sub-vocabulary
(:func:`~emprivacy.entities.vocabulary.sub_vocabulary`) at the entity budget ε_e; its output
(a row of the sub-vocabulary) is mapped back to the full vocabulary.  So a name becomes a
name, with ``P[K_T(x) = w] <= exp(ε_e·d(x, x'))·P[K_T(x') = w]`` for the names x, x' of the
sub-vocabulary (d the mechanism's metric on the sub-embeddings; for Mahalanobis noise the
covariance is the sub-vocabulary's own).

Every distinct entity word of a document (its type and normalised word: ``Thompson`` and
``THOMPSON`` are one) is drawn **once** (:meth:`EntityRun.draw`), from a noise stream of
its own keyed by the run key and the document's identifier (:func:`entity_generator`), and
every mention of it gets that surrogate, in the mention's capitalisation.  The budget is
therefore spent once per distinct entity word, not once per mention; which mentions share a
word is released, like the layout.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from emprivacy.decoding.threads import available_cores
from emprivacy.entities.french import language_detector
from emprivacy.entities.known_names import KnownNameDetector, KnownNames
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.policy import EntityPolicy, warn_entities_kept
from emprivacy.entities.spans import EntitySpan, union_of
from emprivacy.exceptions import InputError
from emprivacy.io.corpus import Document
from emprivacy.math.randomness import document_generator
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.prefetch import PrefetchingDetector
from emprivacy.obfuscation.restricted import ENTITY_RANK_RESAMPLE, restricted_mechanism
from emprivacy.preparation.decisions import GENERAL, EntityKey
from emprivacy.preparation.entity_bags import EntityTally
from emprivacy.preparation.template import TextTemplate
from emprivacy.text.normalise import normalise_pieces
from emprivacy.text.tokens import Token

__all__ = [
    "ACROSS_DOCUMENTS",
    "ACROSS_KEYED",
    "AHEAD_CHARS",
    "AHEAD_DOCUMENTS",
    "DETECTION_NOTE",
    "OVERLAP_CORES",
    "EntityRun",
    "bag_guarantee",
    "entity_generator",
    "entity_guarantee",
]

#: What the detection thread hands over: spans, tokens and the gap fillers' spans of each
#: text (:meth:`~emprivacy.obfuscation.prefetch.PrefetchingDetector.spans_and_tokens`).
_Detected = tuple[dict[str, list[EntitySpan]], dict[str, tuple[Token, ...]],
                  dict[str, list[EntitySpan]]]

#: The line of every entity-mode guarantee that says what detection is.
DETECTION_NOTE = ("Entity detection is a pre-processing step outside the guarantee: a word "
                  "no detector finds is an ordinary word and gets the general ε.")


#: Detection runs ahead over this many documents at most (in one batch of the detector)…
AHEAD_DOCUMENTS = 64
#: …holding at most this many characters; a longer document is detected piece by piece as it
#: is read (:func:`~emprivacy.text.normalise.normalise_pieces`), never held whole.
AHEAD_CHARS = 1 << 20
#: Detection runs in a thread of its own, beside the release, only where the process may
#: use at least this many cores: on two, where the decoder already uses both, the thread
#: took about 10 % more CPU than detecting in turn and no less wall time (issue 40, cost;
#: docs/ENTITIES.md).
OVERLAP_CORES = 3


def entity_generator(run_key: bytes, document_id: str) -> np.random.Generator:
    """The noise stream of a document's entity slots: the document's stream
    (:func:`~emprivacy.math.randomness.document_generator`) under a key of its own,
    ``HMAC-SHA-256(run_key, "emprivacy-entities")``, so that it shares nothing with the
    stream of the document's other words (nor with any document's)."""
    key = hmac.new(bytes(run_key), b"emprivacy-entities", hashlib.sha256).digest()
    return document_generator(key, document_id)


def bag_guarantee(metric: str) -> str:
    """The guarantee of the ordinary words of a bag record (bag mode with entity detection,
    whose records state their guarantee), for a mechanism's metric.

    >>> bag_guarantee("the Euclidean distance between the words' embeddings")[:40]
    'Bag mode: for two bags of the same size '
    """
    return ("Bag mode: for two bags of the same size M of ordinary words, b and b', the "
            "probability of any output bag differs by at most exp(ε·M·E(b, b')), E the Earth "
            f"Mover's distance over d, d {metric} (Thm. 1, Thm. 4). The bag's size and its "
            "placeholders are released as they are, and so are out-of-vocabulary words under "
            "oov='keep', which the guarantee does not cover.")


def entity_guarantee(general: str, entity_metrics: Mapping[str, str], policy: EntityPolicy,
                     detectors: str, *, bag: bool = False, keyed: bool = False) -> str:
    """The guarantee of records with entity detection: ``general`` (text mode's,
    :func:`~emprivacy.preparation.template.text_guarantee`, or :func:`bag_guarantee` with
    ``bag``) for the other words, then what the entity slots get, how they compose over
    documents (``keyed``: one draw per word for the corpus, :data:`ACROSS_KEYED`), the
    detection note and, under ``keep``, what is outside."""
    eps = f"{policy.epsilon:g}"
    # a restricted mechanism's own statistics are its sub-vocabulary's (issue 40, item 10)
    slots = "; ".join(f"{t}: ε_e·d with ε_e = {eps}, d "
                      f"{metric.replace('the vocabulary', f'the sub-vocabulary of {t}')}, "
                      f"within the public sub-vocabulary of {t}"
                      for t, metric in entity_metrics.items())
    if bag:  # the surrogates join the bag, once per mention: post-processing of the draws
        how = ("each distinct entity word of a document is drawn once and its surrogate is "
               "in the bag once per mention, so the bound adds ε_e·Σ_j d(e_j, e'_j) over the "
               "distinct entity words e_j (not over mentions), paired by type and number of "
               "mentions; how many entity words of each type there are and how many mentions "
               "each has is released like the bag's size; the ordinary words get ε·M·E as "
               "above. Placeholders of detected entities (one per span) are released as they "
               "are.")
    else:
        how = ("each distinct entity word of a document is drawn once and every mention of it "
               "gets that surrogate, so the bound adds ε_e·d(e_j, e'_j) once per distinct "
               "entity word e_j (not once per mention), and which mentions share a word is "
               "released like the layout; other words get ε·d as above. Placeholders of "
               "detected entities are layout.")
    text = (f"{general} Entity slots (detected by {detectors}) get their own budget — {slots}: "
            f"{how} {ACROSS_KEYED if keyed else ACROSS_DOCUMENTS} {DETECTION_NOTE}")
    if policy.kept:
        text += (f" Entities of type {', '.join(policy.kept)} are released as written "
                 "(policy 'keep'): the guarantee does not cover them.")
    return text


#: How the entity budget composes over a corpus (issue 40, item 7): the surrogates of one
#: name are drawn afresh in every document.
ACROSS_DOCUMENTS = ("Surrogates are drawn afresh for every document: a name that appears in "
                    "k documents is released k times, at ε_e·d each, k·ε_e·d in all.")
#: The same with an entity key: one draw per distinct entity word for the whole release.
ACROSS_KEYED = ("With the run's entity key each distinct entity word is drawn once for the "
                "whole release, keyed by the word and the key, and reads the same in every "
                "document: its ε_e·d is spent once, however many documents name it.")


class EntityRun:
    """What an :class:`~emprivacy.obfuscation.obfuscator.Obfuscator` needs for entity slots.

    Parameters
    ----------
    mechanism : WordMechanism
        The run's mechanism (its class and parameters are used on each sub-vocabulary).
    entities : str
        ``--entities`` as :func:`~emprivacy.entities.registry.check_entities` spells it.
    policy : EntityPolicy
    on_note : callable, optional
        Receives the one line that says ``auto`` fell back to ``capitalised``.
    lists : mapping, optional
        Type → public words, instead of the packaged lists (tests, custom lists).
    lang : str, default "en"
        The language of the detectors (``"fr"``: :mod:`emprivacy.entities.french`).
    """

    def __init__(self, mechanism: WordMechanism, entities: str, policy: EntityPolicy, *,
                 run_key: bytes, on_note: Callable[[str], None] | None = None,
                 lists: Mapping[str, Iterable[str]] | None = None,
                 entity_key: bytes | None = None, lang: str = "en",
                 known_names: KnownNames | None = None) -> None:
        names, detector, note = language_detector(entities, lang)
        if note is not None and on_note is not None:
            on_note(note)
        if detector is None:
            raise ValueError("entities 'none' needs no EntityRun")
        #: The names the user knows (``entity_names``), found besides the detectors' spans.
        self.known_names = known_names if known_names else None
        if self.known_names is not None:
            detector = union_of([*getattr(detector, "detectors", (detector,)),
                                 *getattr(detector, "gap_detectors", ()),
                                 KnownNameDetector(self.known_names)])
        self.detectors = names
        #: The language of the detectors and of the text they read.
        self.lang = lang
        self._key = hmac.new(bytes(run_key), b"emprivacy-entities", hashlib.sha256).digest()
        #: With an entity key: the key of each entity word's own stream (:meth:`word_generator`).
        self._word_key = (None if entity_key is None else hmac.new(
            bytes(entity_key), b"emprivacy-entity-words", hashlib.sha256).digest())
        self.detector = PrefetchingDetector(detector)
        self.policy = policy
        built = _built(mechanism, policy) if lists is None else None
        if built is None:
            marking = EntityMarking.build(self.detector, policy, mechanism.embeddings,
                                          lists=lists, lang=lang)
            mechanisms = {t: restricted_mechanism(mechanism, rows, policy.epsilon, label=t,
                                                  rank_resample=ENTITY_RANK_RESAMPLE)
                          for t, rows in marking.rows.items()}
            if lists is None:
                with _LOCK:
                    _BUILT.setdefault(mechanism, {})[policy] = (marking.rows, mechanisms)
            if policy.kept:  # once per mechanism and policy: a table run builds one per block
                warn_entities_kept(policy.kept, stacklevel=4)
            built = marking.rows, mechanisms
        self.marking = EntityMarking(self.detector, policy, built[0], lang,
                                     known_names=self.known_names)
        self.mechanisms = built[1]
        self._metric = mechanism.guarantee_metric()

    def generator(self, document_id: str) -> np.random.Generator:
        """The noise stream of a document's entity slots (:func:`entity_generator`)."""
        return document_generator(self._key, document_id)

    @property
    def keyed(self) -> bool:
        """Whether the run has an entity key: one draw per entity word for the corpus."""
        return self._word_key is not None

    def word_generator(self, key: EntityKey, purpose: str = "") -> np.random.Generator:
        """With an entity key, the stream of one entity word (its type and normalised word)
        for the whole release: ``HMAC(entity key, "emprivacy-entity-words")`` and the word,
        so the word's surrogate depends on nothing else — not the document, the run's seed,
        the path (CLI, tables, Dask, Spark) or the order.  ``purpose`` names another stream
        of the same word (``"distinct"``: the replacement of a shared surrogate)."""
        if self._word_key is None:
            raise ValueError("word_generator needs an entity key")
        suffix = f"\x1f{purpose}" if purpose else ""
        return document_generator(self._word_key, f"{key[0]}\x1f{key[1]}{suffix}")

    def ahead(self, documents: Iterable[Document]) -> Iterator[Document]:
        """``documents``, detected ahead in batches (:data:`AHEAD_DOCUMENTS`,
        :data:`AHEAD_CHARS`): each short document's pieces go to the detector in one call,
        in a thread of its own, while the documents of the batch before are privatised (the
        recogniser's matrix products and the decoder's release the GIL) — or, where the
        process has fewer than :data:`OVERLAP_CORES` cores, in turn, right before the
        batch's documents (:meth:`_in_turn`); a short text file
        is read once, here, and handed on as its text.  The documents, their order and their
        spans are unchanged; a file that cannot be read is handed on as it is (its error
        comes at its turn), and so is an error of the detector (before the documents of its
        batch)."""
        if available_cores() < OVERLAP_CORES:  # in turn: the same batches, spans, errors
            yield from self._in_turn(documents)
            return
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="emprivacy-entities")
        waiting: tuple[list[Document], Future[_Detected]] | None = None
        try:
            for group, texts, stray in self._groups(documents):
                detected = pool.submit(self.detector.spans_and_tokens, texts)
                if waiting is not None:
                    yield from self._handed(*waiting)
                waiting = (group, detected)
                if stray is not None:  # not a Document: the obfuscator refuses it, in its turn
                    yield from self._handed(*waiting)
                    waiting = None
                    yield stray
            if waiting is not None:
                yield from self._handed(*waiting)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            self.detector.forget()  # the last batch's texts, spans and tokens

    def _in_turn(self, documents: Iterable[Document]) -> Iterator[Document]:
        """:meth:`ahead` without its thread (fewer than :data:`OVERLAP_CORES` cores): each
        batch detected in one call of the detector right before its documents.  One
        difference: the thread reads the next batch's documents before handing on a batch,
        so where reading them fails it has handed on none of that batch; in turn, the batch
        is handed on before the next is read."""
        try:
            for group, texts, stray in self._groups(documents):
                self.detector.keep(*self.detector.spans_and_tokens(texts))
                yield from group
                if stray is not None:
                    yield stray
        finally:
            self.detector.forget()

    def _groups(self, documents: Iterable[Document]
                ) -> Iterator[tuple[list[Document], list[str], Any]]:
        """The batches of :meth:`ahead`: documents, the texts to detect, and a stray item
        that is not a Document (it ends its batch) or ``None``."""
        group: list[Document] = []
        texts: list[str] = []
        chars = 0
        for doc in documents:
            if not isinstance(doc, Document):
                yield group, texts, doc
                group, texts, chars = [], [], 0
                continue
            doc = _held(doc)
            if doc.in_memory and len(doc.text) <= AHEAD_CHARS:
                texts.extend(normalise_pieces(doc.chunks()))
                chars += len(doc.text)
            group.append(doc)
            if len(group) >= AHEAD_DOCUMENTS or chars >= AHEAD_CHARS:
                yield group, texts, None
                group, texts, chars = [], [], 0
        if group:
            yield group, texts, None

    def _handed(self, group: list[Document], detected: Future[_Detected]
                ) -> Iterator[Document]:
        self.detector.keep(*detected.result())
        yield from group

    def guarantee(self, general: str) -> str:
        """The text records' guarantee (:func:`entity_guarantee`)."""
        metrics = {t: m.guarantee_metric() for t, m in self.mechanisms.items()}
        return entity_guarantee(general, metrics, self.policy, self.detectors,
                                keyed=self.keyed)

    @property
    def bag_guarantee(self) -> str:
        """The bag records' guarantee (:func:`entity_guarantee` of :func:`bag_guarantee`)."""
        metrics = {t: m.guarantee_metric() for t, m in self.mechanisms.items()}
        return entity_guarantee(bag_guarantee(self._metric), metrics, self.policy,
                                self.detectors, bag=True, keyed=self.keyed)

    def metadata(self) -> dict[str, Any]:
        """The fields every record of the run shares."""
        return {"entities": self.detectors, "entity_epsilon": self.policy.epsilon,
                "entity_policy": self.policy.describe(),
                **({"entity_keyed": True} if self.keyed else {}),
                **({"entity_names": len(self.known_names)}  # how many, never which
                   if self.known_names is not None else {}),
                **({"entity_policy_keep": ",".join(self.policy.kept)} if self.policy.kept
                   else {})}

    def draw(self, template: TextTemplate | EntityTally, gen: np.random.Generator,
             surrogates: MutableMapping[EntityKey, str]) -> MutableMapping[EntityKey, str]:
        """Add to ``surrogates`` a word for every entity key of ``template`` it lacks: one
        draw per key, type by type (:attr:`mechanisms` order), keys in order of first
        mention."""
        return self.draw_many([(template, gen, surrogates)])[0]

    def draw_many(self, documents: Sequence[tuple[TextTemplate | EntityTally,
                                                  np.random.Generator,
                                                  MutableMapping[EntityKey, str]]]
                  ) -> list[MutableMapping[EntityKey, str]]:
        """:meth:`draw` for many documents (text templates, or the entity words of bags), each
        with its own generator and surrogates: the same words, with the restricted mechanism
        of each type called once for all of them
        (:meth:`~emprivacy.mechanisms.WordMechanism.privatize_batches`)."""
        before = [set(surrogates) for _, _, surrogates in documents]
        for entity_type, mech in self.mechanisms.items():
            rows = self.marking.rows[entity_type]
            batch: list[tuple[list[EntityKey], np.ndarray, np.random.Generator,
                              MutableMapping[EntityKey, str]]] = []
            for template, gen, surrogates in documents:
                keys = [k for k in dict.fromkeys(template.entities)
                        if k is not None and k[0] == entity_type and k not in surrogates]
                if not keys:
                    continue
                if self._word_key is not None:  # one stream per word, for the whole release
                    for k in keys:
                        entry = self._keyed_input(k, template.entity_inputs[k], rows, mech,
                                                  surrogates)
                        if entry is not None:
                            batch.append(entry)
                    continue
                inputs = [template.entity_inputs[k] for k in keys]
                # a name with no row and no vector: an input drawn uniformly from the
                # sub-vocabulary, so that its surrogate is independent of it (ε = 0)
                # (the rows looked up at once, the uniform draws in order: the same draws)
                listed = np.array([r for r, _ in inputs], dtype=np.int64)
                sub_rows = np.searchsorted(rows, listed).astype(np.int64)
                for at, (r, p) in enumerate(inputs):
                    if r < 0:
                        sub_rows[at] = int(gen.integers(rows.size)) if p is None else -1
                points = [np.asarray(p) for r, p in inputs if r < 0 and p is not None]
                if points:  # vectors of their own (oov="subword"): drawn on their own
                    out = mech.privatize_mixed(sub_rows, np.stack(points), rng=gen)
                    surrogates.update(zip(keys, (mech.embeddings.words[int(i)] for i in out),
                                          strict=True))
                else:
                    batch.append((keys, sub_rows, gen, surrogates))
            if not batch:
                continue
            released = mech.privatize_batches([(sub_rows, gen) for _, sub_rows, gen, _ in batch])
            for (keys, _, _, surrogates), out in zip(batch, released, strict=True):
                surrogates.update(zip(keys, (mech.embeddings.words[int(i)] for i in out),
                                      strict=True))
        for (_, gen, surrogates), held in zip(documents, before, strict=True):
            self._separate(surrogates, held, gen)
        return [surrogates for _, _, surrogates in documents]

    def _separate(self, surrogates: MutableMapping[EntityKey, str], held: set[EntityKey],
                  gen: np.random.Generator) -> None:
        """No two entity words of one document share a surrogate (issue 40, item 9: two
        people released as one would be conflated).  A word drawn now whose surrogate is
        already another word's gets instead a word drawn uniformly from its type's
        sub-vocabulary among those not in use — randomness independent of every input, so
        the release stays post-processing of the draws and the guarantee is unchanged.
        With an entity key the replacement comes from the word's own keyed stream (the same
        document gives the same replacement on every path)."""
        used = {w.lower() for k, w in surrogates.items() if k in held}
        for key in [k for k in surrogates if k not in held]:
            word = surrogates[key].lower()
            if word not in used:
                used.add(word)
                continue
            rows = self.marking.rows[key[0]]
            words = self.mechanisms[key[0]].embeddings.words
            free = [i for i in range(rows.size) if words[i].lower() not in used]
            if not free:  # a sub-vocabulary smaller than the document's people: left as is
                continue
            stream = gen if self._word_key is None else self.word_generator(key, "distinct")
            surrogates[key] = words[free[int(stream.integers(len(free)))]]
            used.add(surrogates[key].lower())

    def _keyed_input(self, key: EntityKey, given: tuple[int, Any], rows: np.ndarray,
                     mech: WordMechanism, surrogates: MutableMapping[EntityKey, str]
                     ) -> tuple[list[EntityKey], np.ndarray, np.random.Generator,
                                MutableMapping[EntityKey, str]] | None:
        """One keyed entity word's entry of a batch of :meth:`draw_many` (its row in the
        sub-vocabulary, or one drawn uniformly from its own stream when it has neither row
        nor vector); a word with a vector of its own is drawn here (``None``)."""
        gen = self.word_generator(key)
        row, point = given
        if row < 0 and point is not None:
            out = mech.privatize_mixed(np.array([-1], dtype=np.int64),
                                       np.asarray(point)[None, :], rng=gen)
            surrogates[key] = mech.embeddings.words[int(out[0])]
            return None
        sub = int(np.searchsorted(rows, row)) if row >= 0 else int(gen.integers(rows.size))
        return [key], np.array([sub], dtype=np.int64), gen, surrogates

    def draw_texts(self, pending: Sequence[tuple[str, Any]],
                   tallies: Mapping[int, EntityTally] | None = None
                   ) -> dict[int, Mapping[EntityKey, str]]:
        """The surrogates of the entity words of each template of ``pending`` (``(document
        id, template or bag)`` pairs) and of each bag with entity words in ``tallies`` (by
        ``id`` of the bag), by ``id`` of the template or bag."""
        tallies = tallies or {}
        held: list[tuple[str, Any, TextTemplate | EntityTally]] = [
            (doc_id, t, t if isinstance(t, TextTemplate) else tallies[id(t)])
            for doc_id, t in pending if isinstance(t, TextTemplate) or id(t) in tallies]
        found = self.draw_many([(h, self.generator(doc_id), {}) for doc_id, _, h in held])
        return {id(t): f for (_, t, _), f in zip(held, found, strict=True)}

    def record_fields(self, epsilon_total: float, surrogates: Mapping[EntityKey, str],
                      entity_counts: Mapping[str, int]) -> dict[str, Any]:
        """The entity fields of a text record: the distinct privatised entity words (each
        spends ε_e once: ``epsilon_total`` adds them to the other words' ε·M), and the words
        of each type that detection took (:attr:`EntityMarking.types`)."""
        distinct = len(surrogates)
        return {"epsilon_total": epsilon_total + self.policy.epsilon * distinct,
                "entity_words_distinct": distinct,
                "entities_detected": {t: int(entity_counts.get(t, 0))
                                      for t in self.marking.types},
                "entity_words_general": int(entity_counts.get(GENERAL, 0))}


_BUILT: weakref.WeakKeyDictionary[WordMechanism, dict[EntityPolicy, tuple[
    Mapping[str, np.ndarray], dict[str, WordMechanism]]]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def _built(mechanism: WordMechanism, policy: EntityPolicy
           ) -> tuple[Mapping[str, np.ndarray], dict[str, WordMechanism]] | None:
    """The sub-vocabularies and restricted mechanisms already built for ``mechanism`` and
    ``policy`` in this process (a table run makes an obfuscator per block of rows)."""
    with _LOCK:
        return _BUILT.get(mechanism, {}).get(policy)


def _held(doc: Document) -> Document:
    """A short text file's document as its text (read once, here); any other as it is."""
    path = doc.path
    if path is None:
        return doc
    try:
        if path.stat().st_size > AHEAD_CHARS:
            return doc
        return Document(doc.id, doc.text)
    except (OSError, InputError, UnicodeDecodeError):
        return doc
