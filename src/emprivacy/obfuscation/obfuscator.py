"""Obfuscating documents: a mechanism over a corpus, batched, one noise stream per document.

Each document is normalised to its bag of words (Def. 1), the words outside the
embedding vocabulary are dropped and counted (never released; other policies:
``oov="placeholder"`` or ``"keep"``), the bag is optionally truncated to N words
(never padded: a shorter bag keeps, and releases, its own size), and the
mechanism (Alg. 2 for the paper's) is applied.  A document with nothing to release
(empty after normalisation, or a bag with no word in the vocabulary) is skipped with a
warning that names it, and counted.  In text mode
(``mode="text"``, :mod:`emprivacy.preparation.template`) every perturbed word of the text is
replaced in place and the layout is kept.  Every document draws its noise from its
own ChaCha20 stream keyed by the run's secret key and the document's identifier
(:func:`emprivacy.math.randomness.document_generator`), so the output does not depend
on batching, order or partitioning.  An identifier may therefore be used once:
a repeated one is refused (:class:`~emprivacy.exceptions.InputError`), since two
documents with one identifier would be released with the same, perfectly
correlated, noise.  Many documents are privatised together
(:meth:`~emprivacy.mechanisms.WordMechanism.privatize_batches`), for speed.

Long documents are streamed, so that memory does not grow with a document's length:
a document is read in chunks (:meth:`emprivacy.io.documents.Document.chunks`), normalised
and tokenised piece by piece (:func:`emprivacy.text.normalise.normalise_pieces`), and
privatised in *blocks* of at most ``block_words`` words, one after the other, with
its one noise stream.  A document of one block (the usual case) is privatised in one
call, as it always was; a longer one draws the same noise distribution in another
order (block by block), so its seeded output differs from that of an unblocked run,
not its distribution.  In text mode each block is rendered to a temporary file; in
bag mode the released words are counted per vocabulary word (a bag is a sorted
multiset), and with ``size`` reading stops after the N-th word.
:meth:`Obfuscator.stream` gives the records of long documents with their text or
bag in a body (:mod:`emprivacy.io.streaming`) to be written in pieces;
:meth:`Obfuscator.obfuscate` gives every record whole.

The run's settings are an :class:`~emprivacy.obfuscation.config.ObfuscationConfig`;
why a document is skipped, and the warning that says so: :mod:`emprivacy.obfuscation.skipped`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from emprivacy._validation import check_positive_int
from emprivacy.embeddings.model import PreparedBag, check_subword
from emprivacy.entities.policy import EntityPolicy
from emprivacy.exceptions import InputError, PrivacyLeakWarning
from emprivacy.io.corpus import UniqueIds
from emprivacy.io.documents import Document
from emprivacy.io.streaming import materialise
from emprivacy.math.randomness import document_generator, hashed_document_id, run_key_from_seed
from emprivacy.mechanisms import WordMechanism
from emprivacy.mechanisms.base import check_supports_points
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.entities import EntityRun
from emprivacy.obfuscation.heap import full_collections_deferred
from emprivacy.obfuscation.language_check import LanguageCheck
from emprivacy.obfuscation.long_documents import LongDocuments
from emprivacy.obfuscation.skipped import (
    SKIPPED_EMPTY,
    SKIPPED_OUT_OF_VOCABULARY,
    nothing_to_release,
    skipped_warning,
)
from emprivacy.obfuscation.style import StyleRun
from emprivacy.preparation.blocks import BagTally, Rows, bag_blocks
from emprivacy.preparation.entity_bags import EntityTally
from emprivacy.preparation.template import TextTemplate, prepare_text_blocks, text_guarantee
from emprivacy.text.normalise import normalise_pieces

__all__ = ["BLOCK_CHARS", "Obfuscator"]

#: Text mode also ends a block, at the end of a piece of text, once it holds this many
#: characters (a text of few perturbed words: stopwords, numbers, symbols, layout).
BLOCK_CHARS = 1 << 22


class Obfuscator(LongDocuments):
    """Apply a mechanism to a stream of documents and produce output records.

    Parameters
    ----------
    mechanism : WordMechanism
        Embeddings, ε and how words are privatised (e.g.
        :class:`~emprivacy.mechanisms.EarthMoversPrivacy`).
    config : ObfuscationConfig, optional
        Mode, out-of-vocabulary policy, bag size, batching; default
        ``ObfuscationConfig()`` (bags, OOV words dropped).
    seed : int, optional
        Derive the run key from a seed: reproducible, **not for real releases**.
    run_key : bytes, optional
        The run's secret key (shared by every worker of a distributed run).  With
        neither ``seed`` nor ``run_key``: a fresh secret random key.
    on_warning : callable, optional
        Receives one-line warnings (a document skipped: empty, or no word in the
        vocabulary); default :func:`warnings.warn`.
    first_index : int, default 0
        The position in the whole input of the first document this obfuscator
        sees (``config.id_from="index"``): a partition of a corpus starts where
        the partitions before it end.
    on_skip : callable, optional
        Called as ``on_skip(record_id, reason)`` when a document is skipped
        (``record_id``: the id its record would have released, :meth:`record_id`),
        ``reason`` :data:`SKIPPED_EMPTY` or :data:`SKIPPED_OUT_OF_VOCABULARY` (for a
        caller that keeps its own account, such as a corpus run's task).
    require_release : bool, default True
        Raise :class:`InputError` when a call of :meth:`obfuscate` or :meth:`stream` had
        no document, or skipped every one it had while nothing was released before (a
        run that releases nothing is a mistake).  ``False`` for a caller that accounts
        for every input itself, such as a table's rows (:mod:`emprivacy.tables`, where a
        skipped row gets a null release and its reason).

    Notes
    -----
    Every document draws its noise from its own ChaCha20 stream keyed by the run
    key and its identifier (:func:`emprivacy.math.randomness.document_generator`).  An
    obfuscator therefore releases each identifier at most once over its lifetime
    (across calls of :meth:`obfuscate`): a repeated identifier raises
    :class:`~emprivacy.exceptions.InputError` naming it and the positions of both
    documents, before the second one is obfuscated.
    """

    def __init__(self, mechanism: WordMechanism, config: ObfuscationConfig | None = None, *,
                 seed: int | None = None, run_key: bytes | None = None,
                 on_warning: Callable[[str], None] | None = None,
                 first_index: int = 0,
                 on_skip: Callable[[str, str], None] | None = None,
                 require_release: bool = True,
                 entity_lists: Mapping[str, Iterable[str]] | None = None) -> None:
        if not isinstance(mechanism, WordMechanism):
            raise TypeError("mechanism must be a WordMechanism (e.g. EarthMoversPrivacy); got "
                            f"{type(mechanism).__name__}")
        config = ObfuscationConfig() if config is None else config
        if not isinstance(config, ObfuscationConfig):
            raise TypeError(f"config must be an ObfuscationConfig; got {type(config).__name__}")
        if seed is not None and run_key is not None:
            raise ValueError("give seed or run_key, not both")
        if run_key is not None and (not isinstance(run_key, bytes) or len(run_key) < 16):
            raise ValueError("run_key must be bytes of length >= 16")
        if config.oov == "subword":  # before any work: one clear error
            check_subword(mechanism.embeddings)
            check_supports_points(mechanism)
        self.mechanism = mechanism
        self.config = config
        self.seed = seed
        self.run_key = run_key if run_key is not None else run_key_from_seed(seed)
        self._warn = on_warning or (lambda msg: warnings.warn(msg, UserWarning, stacklevel=3))
        self._on_skip = on_skip
        self.require_release = require_release
        self.documents_written = 0
        #: Documents skipped so far: empty after normalisation, or (bags) with no word in
        #: the vocabulary.
        self.documents_skipped = 0
        #: Of :attr:`documents_skipped`, those with no word in the vocabulary.
        self.documents_out_of_vocabulary = 0
        #: Out-of-vocabulary words released unchanged so far (``oov="keep"``).
        self.oov_kept = 0
        #: Out-of-vocabulary words privatised from their subword vectors so far
        #: (``oov="subword"``).
        self.oov_subword = 0
        #: Documents written so far with at least one privatised word; of them, those whose
        #: every privatised word came out as itself (released unchanged, but for the
        #: placeholders); privatised words released as another word.  Functions of the
        #: private texts (outside the guarantee): for the person running the release.
        self.documents_with_words = 0
        self.documents_unchanged = 0
        self.words_changed = 0
        self._ids = UniqueIds()  # every id this obfuscator has seen: each keys one stream
        self.first_index = check_positive_int(first_index, "first_index", minimum=0)
        #: The ``guarantee`` of text records: in the metric of the mechanism's guarantee.
        self.guarantee = text_guarantee(mechanism.guarantee_metric())
        self._order: np.ndarray | None = None
        #: Entity detection and its slots (``config.entities``; ``entity_lists``: public words
        #: per type instead of the packaged lists): :mod:`emprivacy.obfuscation.entities`.
        self.entities = None if config.entities == "none" else EntityRun(
            mechanism, config.entities, EntityPolicy(config.entity_epsilon,
                                                     dict(config.entity_policy)),
            run_key=self.run_key, on_note=self._warn, lists=entity_lists,
            entity_key=config.entity_key, lang=config.lang, known_names=config.entity_names)
        if self.entities is not None:
            self.guarantee = self.entities.guarantee(self.guarantee)
        #: The style option (``config.style_epsilon``): :mod:`emprivacy.obfuscation.style`.
        self.style = None if config.style_epsilon is None else StyleRun(
            mechanism, config.style_epsilon, run_key=self.run_key)
        if self.style is not None:
            self.guarantee += self.style.guarantee_note
        #: The surrogates of the entity words of the templates and bags being recorded, and
        #: the entity words of the bags (by ``id`` of the template or bag).
        self._found: dict[int, Mapping[tuple[str, str], str]] = {}
        #: The one line that says the documents are in another language (issue 42).
        self._language = LanguageCheck(config.lang, mechanism.embeddings, self._warn)
        self._tallies: dict[int, EntityTally] = {}

    def metadata(self) -> dict[str, Any]:
        """The fields every record shares."""
        m = self.mechanism
        return {
            "epsilon": m.epsilon,
            "dim": m.dim,
            "embeddings": {"name": m.embeddings.name, "vocab_size": len(m.embeddings)},
            **m.record_fields(),
            **self.config.metadata(),
            **(self.entities.metadata() if self.entities is not None else {}),
            "seeded": self.seed is not None,
        }

    def record_id(self, doc_id: str, index: int) -> str:
        """The ``id`` a record releases for the document ``doc_id``, at position ``index``
        of the whole input (``config.id_from``: the id itself, the index or a keyed hash).

        >>> from emprivacy.mechanisms import EarthMoversPrivacy
        >>> from emprivacy import Embeddings
        >>> mech = EarthMoversPrivacy(Embeddings(["a", "b"], [[0.0], [1.0]]), epsilon=1)
        >>> Obfuscator(mech, ObfuscationConfig(id_from="index")).record_id("x/alice.txt", 7)
        '7'
        """
        how = self.config.id_from
        if how == "index":
            return str(index)
        if how == "hash":
            return hashed_document_id(self.run_key, doc_id)
        return doc_id

    def _warn_skipped(self, skipped: list[tuple[str, str]]) -> None:
        for label, reason in skipped:
            self._warn(skipped_warning(label, reason, self.mechanism.embeddings.name))
        skipped.clear()

    def _skip(self, label: str, reason: str) -> None:
        """Count a skipped document, released as ``label`` (its warning waits: see
        :meth:`stream`)."""
        self.documents_skipped += 1
        if reason == SKIPPED_OUT_OF_VOCABULARY:
            self.documents_out_of_vocabulary += 1
        if self._on_skip is not None:
            self._on_skip(label, reason)

    def _head(self, doc_id: str, n: int, shared: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": doc_id,
            "n_words": n,
            "epsilon": shared["epsilon"],
            "epsilon_total": shared["epsilon"] * n,
            **{k: v for k, v in shared.items() if k != "epsilon"},
        }

    def _changed(self, n: int, changed: int) -> dict[str, int]:
        """Count a document of ``n`` privatised words, ``changed`` of them released as
        another word; its ``words_changed`` field (only with ``config.count_changed``)."""
        if n:
            self.documents_with_words += 1
            self.documents_unchanged += changed == 0
            self.words_changed += changed
        return {"words_changed": changed} if self.config.count_changed else {}

    def _record(self, doc_id: str, bag: PreparedBag | TextTemplate, out: np.ndarray,
                shared: dict[str, Any]) -> dict[str, Any]:
        vocab = self.mechanism.embeddings.words
        n = int(bag.indices.size)
        head = self._head(doc_id, n, shared)
        if self.style is not None and isinstance(bag, TextTemplate):  # ε_f per style slot
            head["epsilon_total"] += self.style.epsilon * bag.counts["style_words"]
        changed = self._changed(n, int(np.count_nonzero(out != bag.indices)))
        if isinstance(bag, TextTemplate):
            found = self._found.pop(id(bag), {})  # its entity words' surrogates (stream)
            if self.entities is not None:  # one draw per entity word
                head.update(self.entities.record_fields(head["epsilon_total"], found,
                                                        bag.entity_counts))
            return {**head, "words_perturbed": n, **changed, **bag.counts,
                    "guarantee": self.guarantee, "text": bag.render(out, vocab, found)}
        words = [vocab[i] for i in out] + list(bag.fixed)
        tally = self._tallies.pop(id(bag), None)
        entity: dict[str, Any] = {}
        if tally is not None and self.entities is not None:  # one draw per entity word
            found = self._found.pop(id(bag), {})
            head.update(self.entities.record_fields(head["epsilon_total"], found,
                                                    tally.entity_counts))
            words += tally.surrogate_words(found) + list(tally.fixed.elements())
            entity = {**tally.counts(), "guarantee": self.entities.bag_guarantee}
        return {
            **head,
            **changed,
            "oov_dropped": bag.oov_dropped,
            "oov_placeholders": bag.oov_placeholders,
            "oov_kept": bag.oov_kept,
            **self._subword_count(bag.oov_subword),
            **entity,
            # released in sorted order: a function of the multiset only, so the output is a
            # bag and the εN·E guarantee of Thm. 4 applies (an ordered list would pair each
            # output word with its input position and only carry the Manhattan lift, §3)
            "bag": sorted(words),
        }

    def _subword_count(self, n: int) -> dict[str, int]:
        """The ``oov_subword`` field of a bag record (only under ``oov="subword"``: the
        records of the other policies are unchanged)."""
        return {"oov_subword": n} if self.config.oov == "subword" else {}

    def _note_kept(self, kept: int) -> None:
        """Count out-of-vocabulary words released unchanged; warn at the first."""
        if kept:
            if not self.oov_kept:
                warnings.warn("out-of-vocabulary words are released unchanged (oov='keep'): "
                              "the privacy guarantee does not cover them; each record counts "
                              "them in 'oov_kept'", PrivacyLeakWarning, stacklevel=5)
            self.oov_kept += kept

    # -- a document, block by block ---------------------------------------------------------
    def _text_blocks(self, doc: Document) -> Iterator[tuple[TextTemplate, bool]]:
        config = self.config
        return prepare_text_blocks(self._language.watch(normalise_pieces(doc.chunks())),
                                   self.mechanism.embeddings,
                                   oov=str(config.oov),
                                   perturb_stopwords=config.perturb_stopwords,
                                   block_words=config.block_words, block_chars=BLOCK_CHARS,
                                   entities=None if self.entities is None
                                   else self.entities.marking, lang=config.lang,
                                   style=None if self.style is None else self.style.words)

    def _bag_blocks(self, doc: Document, tally: BagTally) -> Iterator[tuple[Rows, bool]]:
        """The document's bag as rows, block by block
        (:func:`~emprivacy.preparation.blocks.bag_blocks`)."""
        config = self.config
        return bag_blocks(self._language.watch(normalise_pieces(doc.chunks())),
                          self.mechanism.embeddings, tally,
                          oov=str(config.oov), size=config.size,
                          block_words=config.block_words,
                          marking=None if self.entities is None else self.entities.marking,
                          lang=config.lang)

    def _privatize(self, rows: np.ndarray, gen: np.random.Generator,
                   points: np.ndarray | None = None) -> np.ndarray:
        if not rows.size:
            return np.empty(0, dtype=np.int64)
        return self.mechanism.privatize_mixed(rows, points, rng=gen)

    def _vocabulary_order(self) -> np.ndarray:
        """The vocabulary's rows in sorted order of their words (computed once)."""
        if self._order is None:
            words = self.mechanism.embeddings.words
            self._order = np.asarray(sorted(range(len(words)), key=words.__getitem__),
                                     dtype=np.int64)
        return self._order

    def _start(self, doc: Document, label: str, shared: dict[str, Any]
               ) -> PreparedBag | TextTemplate | str | Callable[[], dict[str, Any] | None]:
        """Begin a document: its bag or template for a document of one block, ``finish``
        for a long one, where ``finish()`` privatises it block by block and returns its
        record (released as ``label``; ``None``: a text of no token at all), or why it is
        skipped (:data:`SKIPPED_EMPTY`, :data:`SKIPPED_OUT_OF_VOCABULARY`)."""
        config = self.config
        if config.mode == "text":
            blocks = self._text_blocks(doc)
            template, last = next(blocks)
            if not last:
                return lambda: self._long_text(doc.id, label, template, blocks, shared)
            if template.words_perturbed + sum(template.counts.values()) == 0:
                return SKIPPED_EMPTY  # no token at all: nothing to release
            self._note_kept(template.counts["oov_kept"])
            self.oov_subword += template.counts.get("oov_subword", 0)
            return template
        tally = BagTally(entities=None if self.entities is None else EntityTally())
        bag_blocks = self._bag_blocks(doc, tally)
        first, last = next(bag_blocks)
        rows, points = first
        entities = tally.entities or EntityTally()
        if rows.size == 0 and not entities.mentions:  # nothing to privatise: released as
            # nothing, like an empty document
            return (SKIPPED_OUT_OF_VOCABULARY if tally.oov_dropped or tally.fixed
                    or entities.fixed else SKIPPED_EMPTY)
        if not last or sum(tally.fixed.values()) + entities.entity_words + sum(
                entities.fixed.values()) > config.block_words:
            return lambda: self._long_bag(doc.id, label, first, bag_blocks, tally, shared)
        self._note_kept(tally.oov_kept)
        self.oov_subword += tally.oov_subword
        bag = PreparedBag(rows, tally.oov_dropped, tuple(tally.fixed.elements()),
                          tally.oov_placeholders, tally.oov_kept, tally.oov_subword, points)
        if tally.entities is not None:
            self._tallies[id(bag)] = tally.entities
        return bag

    # -- the stream of records --------------------------------------------------------------
    def obfuscate(self, documents: Iterable[Document]) -> Iterator[dict[str, Any]]:
        """Yield one output record per document, in input order.

        Empty documents (no word left after normalisation; in text mode, no
        token at all) are skipped with a warning naming them, and so, in bag mode,
        are documents whose words are all outside the vocabulary (a bag with nothing
        to privatise; their placeholders or kept words are not released either),
        counted in :attr:`documents_skipped` (the latter also in
        :attr:`documents_out_of_vocabulary`).  In text mode a document of
        out-of-vocabulary words is released, its words handled by ``oov``.  If every
        document is skipped, :class:`InputError` is raised instead (the warnings
        wait for the first record, so that they are not given as well).
        A document whose identifier this obfuscator has already seen raises
        :class:`InputError` (positions counted from 1 over the obfuscator's
        lifetime) before it is obfuscated: the records yielded so far are all of
        distinct documents.  Noisy vectors of many documents are decoded in one
        call per batch.

        Every record is whole: a long document's text or bag is in memory (see
        :meth:`stream` to write it in pieces instead).
        """
        for record in self.stream(documents):
            yield materialise(record)

    def stream(self, documents: Iterable[Document]) -> Iterator[dict[str, Any]]:
        """:meth:`obfuscate`, with the text or bag of a long document in a body.

        The record of a document longer than one block (``block_words``) holds a
        :class:`~emprivacy.io.streaming.TextBody` or :class:`~emprivacy.io.streaming.BagBody`
        as its last field (``text`` or ``bag``), readable until the next record is
        asked for: write it with :func:`emprivacy.io.streaming.write_record` (or turn it
        into a value with :func:`~emprivacy.io.streaming.materialise`).  Every other
        record is as :meth:`obfuscate` gives it.  Memory: the records of one batch,
        or one block of a long document, whatever the length of a document.
        """
        with full_collections_deferred():  # (heap.py: the long-lived heap is not walked)
            yield from self._stream(documents)

    def _stream(self, documents: Iterable[Document]) -> Iterator[dict[str, Any]]:
        shared = self.metadata()
        mech = self.mechanism
        # (the id that keys the noise stream, the id the record releases, bag or template)
        pending: list[tuple[str, str, PreparedBag | TextTemplate]] = []
        n_pending = 0
        seen_any = False
        skipped: list[tuple[str, str]] = []  # (id, reason): warnings wait until a document
        # is written: if every document is skipped, the single error below says so instead

        def flush() -> Iterator[dict[str, Any]]:
            nonlocal pending, n_pending
            if not pending:
                return
            # text mode: a text of stopwords and placeholders has no word to privatise;
            # a bag with subword vectors (oov="subword") is privatised on its own
            todo = [(doc_id, bag) for doc_id, _, bag in pending
                    if bag.indices.size and bag.points is None]
            released = iter(mech.privatize_batches(
                [(bag.indices, document_generator(self.run_key, doc_id)) for doc_id, bag in todo]))
            if self.entities is not None:  # the entity words of every text, drawn together
                self._found = self.entities.draw_texts([(d, b) for d, _, b in pending],
                                                       self._tallies)
            empty = np.empty(0, dtype=np.int64)
            for doc_id, label, bag in pending:
                if bag.points is not None:
                    out = self._privatize(bag.indices, document_generator(self.run_key, doc_id),
                                          bag.points)
                else:
                    out = next(released) if bag.indices.size else empty
                record = self._record(label, bag, out, shared)
                if self.style is not None and "text" in record:  # its style slots
                    record["text"] = self.style.release(record["text"],
                                                        self.style.generator(doc_id))
                yield record
            self.documents_written += len(pending)
            pending, n_pending = [], 0

        if self.entities is not None:  # detection runs ahead, a batch of documents at a time
            documents = self.entities.ahead(documents)
        for doc in documents:
            if not isinstance(doc, Document):
                raise TypeError("documents must be emprivacy.io.documents.Document objects; got "
                                f"{type(doc).__name__}")
            self._ids.add(doc.id)
            label = self.record_id(doc.id, self.first_index + len(self._ids) - 1)
            seen_any = True
            bag = self._start(doc, label, shared)
            if callable(bag):  # a long document: after the documents before it
                yield from flush()
                record = bag()
                if record is not None:
                    self._warn_skipped(skipped)
                    try:
                        yield record
                    finally:
                        record[next(reversed(record))].close()
                    self.documents_written += 1
                    continue
                bag = SKIPPED_EMPTY  # a long text of no token at all
            if isinstance(bag, str):
                self._skip(label, bag)
                skipped.append((label, bag))
                if pending or self.documents_written:
                    self._warn_skipped(skipped)
                continue
            pending.append((doc.id, label, bag))
            self._warn_skipped(skipped)
            n_pending += bag.indices.size
            if n_pending >= self.config.batch_words:
                yield from flush()
        yield from flush()
        if not self.require_release:
            return
        if seen_any and self.documents_written == 0:  # ``skipped`` holds every document
            raise nothing_to_release(skipped, mech.embeddings.name)
        if not seen_any:
            raise InputError("no input documents")
