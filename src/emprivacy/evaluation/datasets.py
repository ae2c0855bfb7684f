"""Document sets for the paper's experiment (§6 and App. B): your own corpus, author sets,
the text/snippet split and the App. B preparation.

The experiment follows Koppel, Schler & Argamon (2011), as the paper does (§6,
App. B): every author contributes one continuous text; its first part is the
known-author **text** (the adversary's knowledge) and its last part the
unknown-author **snippet** that is obfuscated and then attributed.  The paper
took the first 2000 and the last 1000 words of a fan-fiction story; a Brown
sample is ~2000 words, so we take its first two thirds and its last third.

A corpus is a :class:`Corpus` of :class:`Document` objects, one per author: the
Brown corpus (:func:`emprivacy.evaluation.brown_corpus.brown`), records
(:func:`from_records`) or a CSV/JSONL file (:func:`load_corpus`).

Preparation (App. B): normalise (lowercase, stopwords and punctuation removed,
:func:`emprivacy.bag_of_words`), then truncate every snippet of a set to the length N of
the shortest text or snippet, because the mechanism's guarantee is stated for bags of one
fixed size N (Thm. 4).  The adversary's known texts are kept **whole** by default
(``known="whole"``: an adversary at full strength uses all it knows); the paper's
App. B cut of the known texts to N is ``known="truncated"``.  N, and so the snippets,
are the same either way: only the adversary's knowledge changes.

Out-of-vocabulary (OOV) words — words with no embedding — are an experiment
axis (the vocabulary lookup is :meth:`emprivacy.Embeddings.lookup`):

``"keep"``
    As in the paper: the bags hold every word; OOV words of a snippet pass
    through the mechanism unchanged (the paper names these, e.g. character
    names, as the reason why author identification stays above chance).  This
    releases words without noise, which the experiment records.
``"drop"``
    The bags are built from in-vocabulary words only, *before* truncation, so
    every text and snippet still has exactly N words and every snippet word goes
    through the mechanism.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from emprivacy._validation import check_choice, check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.exceptions import InputError
from emprivacy.io.records import iter_json_objects
from emprivacy.math.randomness import check_random_state
from emprivacy.text.tokens import bag_of_words, tokenize

__all__ = [
    "KNOWN_TEXTS",
    "OOV_POLICIES",
    "Corpus",
    "Document",
    "PreparedSet",
    "chunk_bag",
    "from_records",
    "load_corpus",
    "normalised_bag",
    "prepare_set",
    "select_authors",
    "split_text",
    "stratified_holdout",
    "training_pool",
]

#: Out-of-vocabulary policies of the experiment (see the module docstring): the
#: ``drop`` and ``keep`` of :data:`emprivacy.embeddings.model.OOV_POLICIES`.
OOV_POLICIES: tuple[str, ...] = ("drop", "keep")

#: What the adversary knows of each author (see the module docstring): its ``whole``
#: known text, or that text ``truncated`` to the N words of a snippet (App. B).
KNOWN_TEXTS: tuple[str, ...] = ("whole", "truncated")

_REQUIRED_COLUMNS = ("author", "topic", "text")


@dataclass(frozen=True, slots=True)
class Document:
    """One author's continuous text, labelled with the author and the topic."""

    doc_id: str
    author: str
    topic: str
    text: str

    def __repr__(self) -> str:  # never show the text itself
        return (f"Document(doc_id={self.doc_id!r}, author={self.author!r}, topic={self.topic!r}, "
                f"words≈{len(self.text.split())})")


@dataclass(frozen=True)
class Corpus:
    """A set of documents, one per author, each with one topic.

    Parameters
    ----------
    name : str
        A label recorded in the results (``"brown"``, a file name, …).
    documents : sequence of Document
        Unique ``doc_id`` and unique ``author`` per document.
    source : dict
        Provenance recorded in the run JSON (package, integrity hash, skipped samples, …).
    """

    name: str
    documents: tuple[Document, ...]
    source: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        docs = tuple(self.documents)
        object.__setattr__(self, "documents", docs)
        seen_ids: set[str] = set()
        seen_authors: set[str] = set()
        for d in docs:
            if not isinstance(d, Document):
                raise TypeError(f"documents must be Document objects; got {type(d).__name__}")
            if d.doc_id in seen_ids:
                raise InputError(f"document ids must be unique; {d.doc_id!r} appears twice")
            if d.author in seen_authors:
                raise InputError(f"the experiment needs one document per author; author "
                                 f"{d.author!r} has two (join them with from_records)")
            seen_ids.add(d.doc_id)
            seen_authors.add(d.author)

    def __len__(self) -> int:
        return len(self.documents)

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    @property
    def topics(self) -> tuple[str, ...]:
        """The topics, sorted."""
        return tuple(sorted({d.topic for d in self.documents}))

    def authors_per_topic(self) -> dict[str, int]:
        """Number of authors (= documents) of each topic."""
        counts = {t: 0 for t in self.topics}
        for d in self.documents:
            counts[d.topic] += 1
        return counts

    def subset(self, doc_ids: Iterable[str], *, name: str | None = None) -> Corpus:
        """The documents with the given ids, in the order given."""
        by_id = {d.doc_id: d for d in self.documents}
        docs = []
        for i in doc_ids:
            if i not in by_id:
                raise KeyError(f"document {i!r} is not in corpus {self.name!r}")
            docs.append(by_id[i])
        return Corpus(self.name if name is None else name, tuple(docs), dict(self.source))


# -- your own corpus ----------------------------------------------------------------------
def from_records(records: Iterable[Mapping[str, Any]], *, name: str = "custom") -> Corpus:
    """A corpus from records with ``author``, ``topic`` and ``text`` fields.

    Each author must write on a single topic.  Several records of the same
    author are joined, in the order given, into one continuous text (blank line
    between them), so that the known-author text comes from the earlier records
    and the snippet from the last one, as in Koppel et al. (2011).  An optional
    ``id`` field names the document (default: its author).

    Examples
    --------
    >>> c = from_records([{"author": "ann", "topic": "sea", "text": "Waves."},
    ...                   {"author": "bob", "topic": "sky", "text": "Clouds."},
    ...                   {"author": "ann", "topic": "sea", "text": "Tides."}])
    >>> [(d.author, d.topic, d.text) for d in c]
    [('ann', 'sea', 'Waves.\\n\\nTides.'), ('bob', 'sky', 'Clouds.')]
    """
    if isinstance(records, Mapping | str):
        raise TypeError("records must be an iterable of mappings with 'author', 'topic' and "
                        "'text' fields")
    texts: dict[str, list[str]] = {}
    topic_of: dict[str, str] = {}
    id_of: dict[str, str] = {}
    for k, rec in enumerate(records, start=1):
        if not isinstance(rec, Mapping):
            raise TypeError(f"record {k} must be a mapping with 'author', 'topic' and 'text' "
                            f"fields; got {type(rec).__name__}")
        missing = [c for c in _REQUIRED_COLUMNS if c not in rec]
        if missing:
            raise InputError(f"record {k} lacks field(s) {', '.join(map(repr, missing))}; "
                             "expected 'author', 'topic' and 'text'")
        for c in _REQUIRED_COLUMNS:
            if not isinstance(rec[c], str):
                raise TypeError(f"record {k}: field {c!r} must be a string; got "
                                f"{type(rec[c]).__name__}")
        author, topic = rec["author"].strip(), rec["topic"].strip()
        if not author or not topic:
            raise InputError(f"record {k}: 'author' and 'topic' must be non-empty")
        if author in topic_of and topic_of[author] != topic:
            raise InputError(f"author {author!r} appears under two topics ({topic_of[author]!r} "
                             f"and {topic!r}); each author must write on one topic")
        topic_of.setdefault(author, topic)
        id_of.setdefault(author, str(rec.get("id", author)))
        texts.setdefault(author, []).append(rec["text"])
    if not texts:
        raise InputError("records are empty; the experiment needs documents")
    docs = tuple(Document(id_of[a], a, topic_of[a], "\n\n".join(t)) for a, t in texts.items())
    return Corpus(name, docs, {"kind": "records", "records_per_author_joined": True})


def load_corpus(path: str | os.PathLike[str]) -> Corpus:
    """Read a corpus from a CSV file (header row) or a JSONL file (one object a line).

    The columns/fields ``author``, ``topic`` and ``text`` are required, ``id`` is
    optional; see :func:`from_records`.  Errors name the file and line, never the text.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"dataset file {str(p)!r} does not exist (expected 'brown' or a .csv or "
                         ".jsonl file with author, topic, text columns)")
    suffix = p.suffix.lower()
    try:
        if suffix == ".csv":
            with open(p, encoding="utf-8-sig", newline="") as fh:
                reader = csv.DictReader(fh)
                header = reader.fieldnames or []
                missing = [c for c in _REQUIRED_COLUMNS if c not in header]
                if missing:
                    raise InputError(f"dataset file {str(p)!r} lacks column(s) "
                                     f"{', '.join(map(repr, missing))}; expected author, topic, "
                                     "text")
                rows = list(reader)
        elif suffix in (".jsonl", ".ndjson"):
            rows = [obj for _, obj in iter_json_objects(
                p, expected="author, topic and text fields")]
        else:
            raise InputError(f"dataset file {str(p)!r} must be .csv or .jsonl; got "
                             f"{suffix or 'no extension'!r}")
    except UnicodeDecodeError as exc:
        raise InputError(f"dataset file {str(p)!r} is not valid UTF-8 (byte {exc.start})") \
            from None
    except csv.Error as exc:
        raise InputError(f"dataset file {str(p)!r} is not valid CSV: {exc}") from None
    corpus = from_records(rows, name=p.name)
    return Corpus(p.name, corpus.documents, {"kind": "file", "file": p.name,
                                             "records": len(rows)})


# -- sets, splits and preparation -----------------------------------------------------------
def select_authors(corpus: Corpus, n_authors: int, *, seed: int = 0) -> Corpus:
    """A reproducible set of ``n_authors`` authors, split evenly between the topics.

    The authors of each topic (in ``doc_id`` order) are shuffled by a generator
    seeded with ``seed``; the first ``n_authors / n_topics`` of each are kept.
    The shuffle does not depend on ``n_authors``, so with one seed the smaller
    set is contained in the larger (the 20-author set in the 50-author set).

    Examples
    --------
    >>> c = from_records([{"author": f"a{i}", "topic": "xy"[i % 2], "text": "w"}
    ...                   for i in range(8)])
    >>> small, big = select_authors(c, 2), select_authors(c, 6)
    >>> len(small), len(big), set(small.documents) <= set(big.documents)
    (2, 6, True)
    """
    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a Corpus; got {type(corpus).__name__}")
    n_authors = check_positive_int(n_authors, "authors", minimum=2)
    topics = corpus.topics
    if len(topics) < 2:
        raise InputError(f"the experiment needs at least 2 topics; corpus {corpus.name!r} has "
                         f"{len(topics)}")
    if n_authors % len(topics):
        raise InputError(f"authors must be a multiple of the number of topics ({len(topics)}) "
                         f"to split them evenly; got {n_authors}")
    per_topic = n_authors // len(topics)
    counts = corpus.authors_per_topic()
    short = [t for t in topics if counts[t] < per_topic]
    if short:
        t = short[0]
        raise InputError(f"topic {t!r} has {counts[t]} authors; {per_topic} per topic needed "
                         f"for authors={n_authors}")
    gen = check_random_state(seed)
    chosen: list[str] = []
    for t in topics:
        ids = sorted(d.doc_id for d in corpus if d.topic == t)
        order = gen.permutation(len(ids))
        chosen.extend(sorted(ids[i] for i in order[:per_topic]))
    return corpus.subset(chosen, name=f"{corpus.name}-{n_authors}")


def split_text(text: str, *, known_fraction: float = 2 / 3, lang: str = "en"
               ) -> tuple[str, str]:
    """Split one author's text into the known-author text and the unknown snippet.

    The cut falls before word number ``round(known_fraction · n_words)`` (words as
    :func:`emprivacy.tokenize` counts them in ``lang``), so the known text is the first
    two thirds of the words and the snippet the last third (the paper: first
    2000, last 1000 words of a story; App. B).

    >>> split_text("red green blue cyan pink grey")
    ('red green blue cyan ', 'pink grey')
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__}")
    if not (isinstance(known_fraction, float | int) and 0 < known_fraction < 1):
        raise ValueError(f"known_fraction must be a number in (0, 1); got {known_fraction!r}")
    starts = [t.start for t in tokenize(text, lang=lang) if t.kind == "word"]
    if len(starts) < 2:
        raise InputError(f"a document needs at least 2 words to split; got {len(starts)}")
    cut = min(max(round(known_fraction * len(starts)), 1), len(starts) - 1)
    return text[:starts[cut]], text[starts[cut]:]


@dataclass(frozen=True)
class PreparedSet:
    """An author set ready for the experiment: texts and snippets as bags of N words.

    Attributes
    ----------
    name : str
    doc_ids, authors, topics : tuple of str
        One entry per author, in the same order as ``texts`` and ``snippets``.
    texts : tuple of tuple of str
        Known-author texts (clean) as the adversary knows them: whole (``known="whole"``)
        or exactly ``N`` words (``"truncated"``, App. B).
    snippets : tuple of tuple of str
        Unknown-author snippets (to be obfuscated), each exactly ``N`` words.
    N : int
        The bag size: the length of the shortest text or snippet after normalisation.
    oov : {"drop", "keep"}
    oov_words : int
        Out-of-vocabulary words in the snippets (0 under ``"drop"``).
    shortest : str
        ``doc_id`` and part (``text``/``snippet``) that set N.
    known : {"whole", "truncated"}
        What :attr:`texts` are.
    whole_texts : tuple of tuple of str
        The whole known-author bags, whatever ``known`` is (their first N words are the
        truncated ones: :meth:`known_texts`).
    """

    name: str
    doc_ids: tuple[str, ...]
    authors: tuple[str, ...]
    topics: tuple[str, ...]
    texts: tuple[tuple[str, ...], ...]
    snippets: tuple[tuple[str, ...], ...]
    N: int
    oov: str
    oov_words: int
    shortest: str
    known: str = "truncated"
    whole_texts: tuple[tuple[str, ...], ...] = ()

    def __len__(self) -> int:
        return len(self.doc_ids)

    def known_texts(self, known: str) -> tuple[tuple[str, ...], ...]:
        """The known-author bags whole (``"whole"``) or cut to N words (``"truncated"``)."""
        check_choice(known, "known", KNOWN_TEXTS)
        whole = self.whole_texts or self.texts
        return whole if known == "whole" else tuple(t[:self.N] for t in whole)


def normalised_bag(text: str, embeddings: Embeddings, *, oov: str = "drop",
                   lang: str = "en") -> list[str]:
    """The bag of words of ``text`` as the experiment uses it, in order (App. B).

    :func:`emprivacy.bag_of_words` in ``lang`` (its tokenising and stopwords); under
    ``oov="drop"`` only its words with an embedding (:meth:`emprivacy.Embeddings.lookup`),
    under ``"keep"`` all of them.

    >>> emb = Embeddings(["ship", "storm"], [[0.0], [1.0]])
    >>> normalised_bag("The ship, Zorblax, the storm!", emb)
    ['ship', 'storm']
    >>> normalised_bag("The ship, Zorblax, the storm!", emb, oov="keep")
    ['ship', 'zorblax', 'storm']
    """
    check_choice(oov, "oov", OOV_POLICIES)
    bag = bag_of_words(text, lang=lang)
    if oov == "keep":
        return bag
    vocabulary = embeddings.words
    return [vocabulary[i] for i in embeddings.lookup(bag, oov="drop").indices]


def prepare_set(corpus: Corpus, *, embeddings: Embeddings, oov: str = "drop",
                known_fraction: float = 2 / 3, known: str = "whole", lang: str = "en"
                ) -> PreparedSet:
    """Split, normalise and truncate an author set as in App. B.

    Each document is split by :func:`split_text`; text and snippet become bags
    of words (:func:`normalised_bag`: under ``oov="drop"`` only in-vocabulary
    words are kept); every snippet is truncated to its first N words, N the length
    of the shortest bag of the set; the known texts stay whole (``known="whole"``) or are
    truncated likewise (``"truncated"``, App. B).  ``lang``: the corpus's language.

    Raises
    ------
    ValueError
        If the shortest bag is empty (naming the document, not its text).
    """
    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a Corpus; got {type(corpus).__name__}")
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    check_choice(oov, "oov", OOV_POLICIES)
    check_choice(known, "known", KNOWN_TEXTS)
    if len(corpus) == 0:
        raise InputError("the author set is empty")
    texts: list[list[str]] = []
    snippets: list[list[str]] = []
    for d in corpus:
        try:
            first, last = split_text(d.text, known_fraction=known_fraction, lang=lang)
        except ValueError as exc:
            raise InputError(f"document {d.doc_id!r}: {exc}") from None
        texts.append(normalised_bag(first, embeddings, oov=oov, lang=lang))
        snippets.append(normalised_bag(last, embeddings, oov=oov, lang=lang))
    lengths = [(len(b), d.doc_id, part) for part, bags in (("text", texts), ("snippet", snippets))
               for b, d in zip(bags, corpus, strict=True)]
    n, doc_id, part = min(lengths, key=lambda x: x[0])
    if n == 0:
        what = "in-vocabulary words" if oov == "drop" else "words"
        raise InputError(f"the {part} of document {doc_id!r} has no {what} after normalisation; "
                         "remove it or give it a longer text")
    snippets_n = [tuple(b[:n]) for b in snippets]
    oov_words = sum(int((embeddings.rows(b) < 0).sum()) for b in snippets_n)
    return PreparedSet(
        name=corpus.name,
        doc_ids=tuple(d.doc_id for d in corpus),
        authors=tuple(d.author for d in corpus),
        topics=tuple(d.topic for d in corpus),
        texts=tuple(tuple(b) if known == "whole" else tuple(b[:n]) for b in texts),
        snippets=tuple(snippets_n),
        N=n, oov=oov, oov_words=oov_words, shortest=f"{doc_id} ({part})", known=known,
        whole_texts=tuple(tuple(b) for b in texts))


def training_pool(corpus: Corpus, chosen: Corpus, *, known_fraction: float = 2 / 3,
                  lang: str = "en") -> list[tuple[str, str, str]]:
    """Texts that contain no snippet of the test set, for training the topic classifier.

    For every author of ``chosen`` (the test set) only the known-author text; for
    every other document of ``corpus`` its whole text.

    Returns
    -------
    list of (doc_id, topic, text)
    """
    test_ids = {d.doc_id for d in chosen}
    pool = []
    for d in corpus:
        if d.doc_id in test_ids:
            pool.append((d.doc_id, d.topic,
                         split_text(d.text, known_fraction=known_fraction, lang=lang)[0]))
        else:
            pool.append((d.doc_id, d.topic, d.text))
    return pool


def chunk_bag(bag: Sequence[str], size: int) -> list[tuple[str, ...]]:
    """Consecutive chunks of ``size`` words (a last chunk shorter than size/2 is dropped).

    >>> chunk_bag(list("abcdefg"), 3)
    [('a', 'b', 'c'), ('d', 'e', 'f')]
    >>> chunk_bag(list("abcdefgh"), 3)
    [('a', 'b', 'c'), ('d', 'e', 'f'), ('g', 'h')]
    """
    size = check_positive_int(size, "size")
    chunks = [tuple(bag[i:i + size]) for i in range(0, len(bag), size)]
    if chunks and len(chunks[-1]) * 2 < size:
        chunks.pop()
    return chunks


def stratified_holdout(labels: Sequence[str], fraction: float, *,
                       rng: np.random.Generator) -> np.ndarray:
    """Boolean mask of a held-out subset: ``round(fraction · count)`` items of each label,
    at least one, never all."""
    labels = list(labels)
    mask = np.zeros(len(labels), dtype=bool)
    for lab in sorted(set(labels)):
        idx = np.flatnonzero([x == lab for x in labels])
        k = min(max(round(fraction * idx.size), 1), idx.size - 1)
        if k > 0:
            mask[rng.choice(idx, size=k, replace=False)] = True
    return mask

