"""A column of texts, privatised row by row: every row a document of one run.

:func:`privatize_texts` releases an iterable of strings (a table's column) through the
corpus path's own machinery: every row is a :class:`~emprivacy.io.corpus.Document` given to
an :class:`~emprivacy.obfuscation.obfuscator.Obfuscator` (the same normalisation, out-of-vocabulary
policies, text mode, bag sizes and records), in blocks of rows (:class:`TextPrivatizer`),
and the obfuscator decodes the noisy vectors of many rows in one call
(:meth:`~emprivacy.mechanisms.WordMechanism.privatize_batches`).  There is no second
mechanism path.

Row ``i`` (counted from 0 over the whole input) is the document of identifier ``str(i)``:
its noise comes from its own ChaCha20 stream keyed by the run's secret key and ``"i"``
(:func:`emprivacy.math.randomness.document_generator`).  So a seeded run releases the same
column whatever the block size or the record-batch boundaries, and exactly what
``emprivacy obfuscate --seed S`` releases for the JSONL file whose line ``i`` is
``{"id": "i", "text": row i}``.  Without a seed the run key is fresh and secret (the
secure default: nobody, the caller included, can reproduce the noise).

Per row (docs/TABLES.md):

* a null (``None``) stays null, and so does its metadata; it is counted;
* a value that is not a ``str`` raises one :class:`TypeError` naming the row's index and
  the value's type (never the value);
* a row with nothing left after normalisation (``""``, whitespace, in bag mode stopwords
  only) is released empty (``""``; in bag mode ``[]``), with 0 words, ε_total 0 and
  ``skipped = "empty"``;
* in bag mode, a row with no word in the vocabulary is skipped as ``emprivacy
  obfuscate`` skips such a document: its release is null, ``n_words`` 0, ``epsilon_total``
  0, its out-of-vocabulary counts null (nothing was released) and ``skipped =
  "out_of_vocabulary"``;
* every other row gets the per-document fields of its ``obfuscate`` record
  (:func:`row_fields`: ``n_words``, ``epsilon_total``, the out-of-vocabulary counts, in
  text mode the ``guarantee`` …), its mechanism's name and ``skipped = None``.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from emprivacy._validation import check_positive_int
from emprivacy.embeddings.model import Embeddings, load_embeddings
from emprivacy.io.corpus import Document
from emprivacy.math.randomness import run_key_from_seed
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.config import DEFAULT_VOCAB_SIZE, ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.obfuscation.skipped import SKIPPED_EMPTY

__all__ = [
    "DEFAULT_BATCH_ROWS",
    "OPTIONS",
    "PrivateText",
    "RowsReleased",
    "RunOptions",
    "TextPrivatizer",
    "TextReleases",
    "privatize_texts",
    "row_fields",
]

#: Rows privatised at a time (one call of the obfuscator; it decodes the noisy vectors of
#: about ``batch_words`` words per call of the decoder).
DEFAULT_BATCH_ROWS = 8192

#: The per-document fields of a text-mode record, in its order (before ``guarantee``).
_TEXT_COUNTS = ("n_words", "epsilon_total", "words_perturbed", "stopwords_kept",
                "oov_placeholders", "oov_dropped", "oov_kept", "numbers", "urls", "emails",
                "paths", "symbols")
#: The per-document fields of a bag-mode record, in its order.
_BAG_COUNTS = ("n_words", "epsilon_total", "oov_dropped", "oov_placeholders", "oov_kept")

#: What :meth:`RunOptions.parse` takes besides ``epsilon``, ``mechanism``, ``mode`` and
#: ``seed`` (the ``**options`` of the table integrations).
OPTIONS = ("params", "oov", "size", "perturb_stopwords", "embeddings", "vocab_size",
           "batch_rows")


def row_fields(config: ObfuscationConfig) -> dict[str, str]:
    """The per-row metadata of a run, in order: name → kind (``"int"``, ``"float"``,
    ``"str"``).

    The per-document fields of the run's ``obfuscate`` records (every field but ``id``,
    the text or bag, and the fields every record of the run shares,
    :meth:`~emprivacy.obfuscation.obfuscator.Obfuscator.metadata`), then ``mechanism`` (the
    mechanism's registered name) and ``skipped`` (why nothing was privatised, or null).

    >>> list(row_fields(ObfuscationConfig(mode="bag")))
    ['n_words', 'epsilon_total', 'oov_dropped', 'oov_placeholders', 'oov_kept', \
'mechanism', 'skipped']
    """
    counts = _TEXT_COUNTS if config.mode == "text" else _BAG_COUNTS
    if config.oov == "subword":
        counts = (*counts, "oov_subword")
    fields = {name: "float" if name == "epsilon_total" else "int" for name in counts}
    if config.mode == "text":
        fields["guarantee"] = "str"
    return {**fields, "mechanism": "str", "skipped": "str"}


@dataclass(frozen=True, slots=True)
class RowsReleased:
    """A block of rows, released: column by column.

    Attributes
    ----------
    released : list
        Each row's release: a ``str`` (text mode), a sorted ``list`` of words (bag mode),
        or ``None`` (a null row; in bag mode, a row with no word in the vocabulary).
    columns : dict of str to list
        The per-row metadata (:func:`row_fields`), one list per field, ``None`` where null.
    """

    released: list[Any]
    columns: dict[str, list[Any]]

    def __len__(self) -> int:
        return len(self.released)


class _Claimed:
    """The row indices a run has privatised, as merged half-open ranges: an index is
    privatised once, since it keys the row's noise stream."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []

    def __bool__(self) -> bool:
        """Whether any index is claimed."""
        return bool(self._starts)

    def claim(self, start: int, end: int) -> None:
        if start == end:
            return
        k = bisect.bisect_right(self._starts, start)
        if (k and self._ends[k - 1] > start) or (k < len(self._starts)
                                                  and self._starts[k] < end):
            raise ValueError(f"rows {start} to {end - 1} overlap rows this run has already "
                             "privatised; a row index is used once, since it keys the row's "
                             "noise stream")
        if k and self._ends[k - 1] == start:  # extends the range before it
            self._ends[k - 1] = end
            if k < len(self._starts) and self._starts[k] == end:
                self._ends[k - 1] = self._ends.pop(k)
                self._starts.pop(k)
        elif k < len(self._starts) and self._starts[k] == end:
            self._starts[k] = start
        else:
            self._starts.insert(k, start)
            self._ends.insert(k, end)


def text_digest(text: object) -> str:
    """A row's text as 32 hexadecimal digits (BLAKE2b, 128 bits): what
    :class:`TextPrivatizer` mixes into a row's key under ``key_by_text``."""
    data = str(text).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _quiet(message: str) -> None:
    """A skipped row is said by its ``skipped`` column, not by a warning per row."""


class TextPrivatizer:
    """One run over the rows of a column: privatises them block by block.

    Parameters
    ----------
    mechanism : WordMechanism
        The mechanism (its embeddings, ε).
    config : ObfuscationConfig, optional
        Mode, out-of-vocabulary policy, bag size (``id_from`` plays no part: rows have
        no released id).  Default: text mode.
    seed : int, optional
        Derive the run key from a seed: reproducible, **not for real releases**.
    run_key : bytes, optional
        The run's secret key (for workers of one run).  With neither: a fresh secret key.
    key_by_text : bool, default False
        Also key each row's stream by a digest of its text (BLAKE2b, 128 bits): the row
        ``i`` of text ``t`` is the document ``Document(f"{i}#{digest(t)}", t)``.  For a run
        that may be applied to several inputs without knowing it (the ``datasets`` mapper,
        reused over the splits of a ``DatasetDict`` in separate processes): two different
        rows of one index then never share a noise stream, and the same row twice is
        released the same (nothing more than one release, but two releases of one index
        that are equal say that their texts likely were).  A run keyed by text does not
        refuse an index it has privatised (it cannot reuse a stream on another text).

    Notes
    -----
    Row ``i`` is the document ``Document(str(i), text)`` of the run: its noise stream is
    keyed by the run key and ``"i"``.  Every block is released by an
    :class:`~emprivacy.obfuscation.obfuscator.Obfuscator` of its own holding the run's key (an
    obfuscator remembers every identifier it saw; a run remembers the ranges of row
    indices it privatised instead, so memory does not grow with the rows), and an index
    privatised twice raises :class:`ValueError` before any noise is drawn.  A run may key
    its rows by identifiers of their own instead (``ids=``, e.g. a table's key column):
    the row of id ``s`` is then the document ``Document(s, text)``, and a run remembers
    every id it privatised (a repeated one raises).  A run keys its rows one way, by
    index or by id, never both (the index ``5`` and the id ``"5"`` key one stream).
    Calls are serialised by a lock (a Polars expression may be called from several
    threads).
    """

    def __init__(self, mechanism: WordMechanism, config: ObfuscationConfig | None = None, *,
                 seed: int | None = None, run_key: bytes | None = None,
                 key_by_text: bool = False) -> None:
        config = ObfuscationConfig(mode="text") if config is None else config
        if not isinstance(key_by_text, bool):
            raise TypeError(f"key_by_text must be a bool; got {type(key_by_text).__name__}")
        self.key_by_text = key_by_text
        # validates everything (types, subword support, seed xor run key) before any work
        probe = Obfuscator(mechanism, config, seed=seed, run_key=run_key)
        self.mechanism = mechanism
        self.config = config
        self.seed = seed
        self.run_key = probe.run_key
        #: The fields every row of the run shares (those of every ``obfuscate`` record:
        #: ε, the embeddings, the mechanism's parameters, mode, ``seeded``).
        self.metadata: dict[str, Any] = probe.metadata()
        #: The per-row metadata fields and their kinds (:func:`row_fields`).
        self.fields = row_fields(config)
        self._guarantee = probe.guarantee if config.mode == "text" else None
        self._claimed = _Claimed()
        self._claimed_ids: set[str] = set()
        self._lock = threading.Lock()
        #: The index the next block starts at, when none is given.
        self.next_index = 0
        #: Rows seen so far, of which null, released empty, and (bag mode) skipped for
        #: having no word in the vocabulary; words privatised so far.
        self.rows = 0
        self.nulls = 0
        self.skipped_empty = 0
        self.skipped_out_of_vocabulary = 0
        self.words = 0
        #: Out-of-vocabulary words released unchanged so far (``oov="keep"``).
        self.oov_kept = 0

    def _obfuscator(self, skips: dict[str, str]) -> Obfuscator:
        obf = Obfuscator(self.mechanism, self.config,
                         seed=self.seed, run_key=None if self.seed is not None else self.run_key,
                         on_warning=_quiet, on_skip=lambda label, reason: skips.update(
                             {label: reason}), require_release=False)
        # the obfuscator warns at its first word kept (oov="keep"): once per run, not block
        obf.oov_kept = self.oov_kept
        return obf

    def privatize(self, texts: Sequence[object], *, first_index: int | None = None,
                  ids: Sequence[str] | None = None) -> RowsReleased:
        """Release one block of rows: ``texts[k]`` is row ``first_index + k`` of the run
        (or the row of id ``ids[k]``).

        Parameters
        ----------
        texts : sequence of str or None
            The rows.
        first_index : int, optional
            The index of ``texts[0]`` in the whole input; default: where the previous
            block ended (0 at first).
        ids : sequence of str, optional
            Key the rows by these identifiers instead of their indices: ``ids[k]`` keys
            the noise stream of ``texts[k]`` (as a document's id does in ``obfuscate``).
            Not with ``first_index``.

        Raises
        ------
        TypeError
            A row that is neither a ``str`` nor ``None``, named by its index (or id) and
            type; an id that is not a ``str``.
        ValueError
            An index or id this run has already privatised, or repeated in the block;
            ``ids`` not one per row; a run keyed both ways.
        """
        with self._lock:
            if ids is not None:
                if first_index is not None:
                    raise ValueError("give first_index or ids, not both")
                labels = self._check_ids(ids, len(texts))
                self._check_rows(texts, [f"of id {label!r}" for label in labels])
                self._claimed_ids.update(labels)
                return self._release(texts, labels)
            if self._claimed_ids:
                raise ValueError("this run keys its rows by id; give ids for every block")
            start = (self.next_index if first_index is None
                     else check_positive_int(first_index, "first_index", minimum=0))
            labels = [str(start + k) for k in range(len(texts))]
            self._check_rows(texts, labels)
            if not self.key_by_text:  # keyed by text too, a row index may come again
                self._claimed.claim(start, start + len(texts))
            self.next_index = start + len(texts)
            return self._release(texts, labels)

    @staticmethod
    def _check_rows(texts: Sequence[object], names: list[str]) -> None:
        for k, text in enumerate(texts):
            if text is not None and not isinstance(text, str):
                raise TypeError(f"every row must be a str or None; row {names[k]} is a "
                                f"{type(text).__name__}")

    def _check_ids(self, ids: Sequence[str], n: int) -> list[str]:
        """``ids`` as a list, one per row, each a ``str`` neither repeated nor privatised
        before by this run (checked before any noise is drawn)."""
        if isinstance(ids, str | bytes) or not isinstance(ids, Sequence):
            raise TypeError(f"ids must be a sequence of str; got {type(ids).__name__}")
        if len(ids) != n:
            raise ValueError(f"ids must hold one id per row; got {len(ids)} for {n} rows")
        if self._claimed:
            raise ValueError("this run keys its rows by index; do not give ids")
        labels = list(ids)
        seen: set[str] = set()
        for label in labels:
            if not isinstance(label, str):
                raise TypeError(f"every id must be a str; got {type(label).__name__}")
            if label in seen or label in self._claimed_ids:
                raise ValueError(f"row id {label!r} is repeated; an id is used once, since "
                                 "it keys the row's noise stream")
            seen.add(label)
        return labels

    def _release(self, texts: Sequence[object], labels: list[str]) -> RowsReleased:
        if self.key_by_text:
            labels = [label if text is None else f"{label}#{text_digest(text)}"
                      for label, text in zip(labels, texts, strict=True)]
        skips: dict[str, str] = {}
        docs = [Document(label, text) for label, text in zip(labels, texts, strict=True)
                if isinstance(text, str)]
        records: Iterator[dict[str, Any]] = iter(())
        if docs:
            obf = self._obfuscator(skips)
            records = iter(list(obf.obfuscate(docs)))
            self.oov_kept = obf.oov_kept
        fields = self.fields
        counts = [name for name, kind in fields.items() if kind != "str"]
        columns: dict[str, list[Any]] = {name: [] for name in fields}
        released: list[Any] = []
        name = self.mechanism.name
        bag = self.config.mode == "bag"
        for k, text in enumerate(texts):
            if text is None:
                released.append(None)
                for values in columns.values():
                    values.append(None)
                self.nulls += 1
                continue
            reason = skips.get(labels[k])
            if reason is None:
                record = next(records)
                released.append(record["bag"] if bag else record["text"])
                for field in counts:
                    columns[field].append(record[field])
                self.words += record["n_words"]
            elif reason == SKIPPED_EMPTY:  # nothing to release: released empty
                released.append([] if bag else "")
                for field in counts:
                    columns[field].append(0.0 if field == "epsilon_total" else 0)
                self.skipped_empty += 1
            else:  # bag mode, no word in the vocabulary: skipped, as obfuscate skips it
                released.append(None)
                for field in counts:
                    columns[field].append(0.0 if field == "epsilon_total"
                                          else 0 if field == "n_words" else None)
                self.skipped_out_of_vocabulary += 1
            if "guarantee" in columns:
                columns["guarantee"].append(self._guarantee)
            columns["mechanism"].append(name)
            columns["skipped"].append(reason)
        self.rows += len(texts)
        return RowsReleased(released, columns)


def _check_mapping(params: object) -> dict[str, Any]:
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise TypeError(f"params must be a mapping of parameter names to values; got "
                        f"{type(params).__name__}")
    return dict(params)


@dataclass(frozen=True)
class RunOptions:
    """The options of a run (:func:`privatize_texts`, the table integrations), checked
    before any work: :meth:`privatizer` then loads the embeddings and builds the run.

    Use :meth:`parse`.  ``mechanism`` is a registered name
    (:data:`emprivacy.mechanisms.registry.MECHANISMS`, built with ``epsilon``, ``params``
    and ``embeddings``) or a built :class:`~emprivacy.mechanisms.WordMechanism` (which
    holds its own ε and embeddings: ``epsilon``, ``params`` and ``embeddings`` must then
    not be given).
    """

    config: ObfuscationConfig
    mechanism: str | WordMechanism
    epsilon: float | None
    params: dict[str, Any]
    embeddings: Embeddings | str | os.PathLike[str] | None
    vocab_size: int | None
    seed: int | None
    batch_rows: int

    @classmethod
    def parse(cls, *, epsilon: float | None = None, mechanism: str | WordMechanism = "madlib",
              params: Mapping[str, Any] | None = None, mode: str = "text",
              oov: str | None = None, size: int | None = None,
              perturb_stopwords: bool = False,
              embeddings: Embeddings | str | os.PathLike[str] | None = None,
              vocab_size: int | None = DEFAULT_VOCAB_SIZE, seed: int | None = None,
              batch_rows: int = DEFAULT_BATCH_ROWS) -> RunOptions:
        """Check the options (cheap checks only: nothing is loaded)."""
        from emprivacy.mechanisms.registry import check_params

        config = ObfuscationConfig(mode=mode, oov=oov, size=size,  # type: ignore[arg-type]
                                   perturb_stopwords=perturb_stopwords)
        chosen = _check_mapping(params)
        if isinstance(mechanism, WordMechanism):
            given = [name for name, value in (("epsilon", epsilon), ("params", params),
                                               ("embeddings", embeddings))
                     if value is not None]
            if given:
                raise ValueError("a built mechanism holds its own epsilon and embeddings; do "
                                 f"not give {given[0]} too")
        elif isinstance(mechanism, str):
            if epsilon is None:
                raise TypeError("epsilon is required: the per-word privacy parameter, a "
                                "finite number > 0")
            check_params(mechanism, chosen)
        else:
            raise TypeError("mechanism must be a mechanism's name (e.g. 'madlib') or a "
                            f"WordMechanism; got {type(mechanism).__name__}")
        if seed is not None:
            run_key_from_seed(seed)  # the seed's own message, now
        return cls(config, mechanism, epsilon, chosen, embeddings, vocab_size, seed,
                   check_positive_int(batch_rows, "batch_rows"))

    @classmethod
    def of(cls, *, epsilon: float | None, mechanism: str | WordMechanism, mode: str,
           seed: int | None, options: Mapping[str, Any]) -> RunOptions:
        """:meth:`parse` with the ``**options`` of a table integration (:data:`OPTIONS`);
        an unknown one raises :class:`TypeError` listing them."""
        for key in options:
            if key not in OPTIONS:
                raise TypeError(f"unexpected keyword argument {key!r}; the options are "
                                + ", ".join(repr(k) for k in OPTIONS))
        return cls.parse(epsilon=epsilon, mechanism=mechanism, mode=mode, seed=seed,
                         **options)

    @property
    def fields(self) -> dict[str, str]:
        """The per-row metadata of the run (:func:`row_fields`)."""
        return row_fields(self.config)

    def privatizer(self) -> TextPrivatizer:
        """Load the embeddings (unless given loaded), build the mechanism and the run."""
        from emprivacy.mechanisms.registry import make_mechanism

        mech: WordMechanism
        if isinstance(self.mechanism, WordMechanism):
            mech = self.mechanism
        else:
            emb = (self.embeddings if isinstance(self.embeddings, Embeddings)
                   else load_embeddings(self.embeddings, vocab_size=self.vocab_size))
            mech = make_mechanism(self.mechanism, emb, epsilon=self.epsilon,  # type: ignore[arg-type]
                                  **self.params)
        return TextPrivatizer(mech, self.config, seed=self.seed)


@dataclass(frozen=True, slots=True)
class PrivateText:
    """One row, released.

    Attributes
    ----------
    release : str, list of str or None
        The released text (text mode), the released bag, sorted (bag mode), or ``None``
        (a null row; in bag mode, a row with no word in the vocabulary).
    metadata : dict or None
        The row's metadata (:func:`row_fields`); ``None`` for a null row.
    """

    release: str | list[str] | None
    metadata: dict[str, Any] | None

    @property
    def skipped(self) -> str | None:
        """Why nothing was privatised (``"empty"``, ``"out_of_vocabulary"``), or ``None``."""
        return None if self.metadata is None else self.metadata["skipped"]


class TextReleases(Iterator[PrivateText]):
    """The rows of :func:`privatize_texts`, released as they are read (an iterator).

    Its counters grow as rows are read: :attr:`rows`, :attr:`nulls`,
    :attr:`skipped_empty`, :attr:`skipped_out_of_vocabulary`, :attr:`words`;
    :attr:`metadata` holds the fields every row of the run shares.
    """

    def __init__(self, privatizer: TextPrivatizer, texts: Iterable[object],
                 batch_rows: int) -> None:
        self.privatizer = privatizer
        self._rows = self._release(iter(texts), batch_rows)

    def _release(self, texts: Iterator[object], batch_rows: int) -> Iterator[PrivateText]:
        names = list(self.privatizer.fields)
        while block := list(islice(texts, batch_rows)):
            out = self.privatizer.privatize(block)
            columns = [out.columns[name] for name in names]
            for k, release in enumerate(out.released):
                yield PrivateText(release, None if block[k] is None
                                  else {name: col[k] for name, col in zip(names, columns,
                                                                          strict=True)})

    def __iter__(self) -> TextReleases:
        return self

    def __next__(self) -> PrivateText:
        return next(self._rows)

    @property
    def metadata(self) -> dict[str, Any]:
        """The fields every row of the run shares (those of every ``obfuscate`` record)."""
        return self.privatizer.metadata

    @property
    def rows(self) -> int:
        """Rows released so far."""
        return self.privatizer.rows

    @property
    def nulls(self) -> int:
        """Null rows so far (released null)."""
        return self.privatizer.nulls

    @property
    def skipped_empty(self) -> int:
        """Rows with nothing left after normalisation so far (released empty)."""
        return self.privatizer.skipped_empty

    @property
    def skipped_out_of_vocabulary(self) -> int:
        """Bag mode: rows with no word in the vocabulary so far (released null)."""
        return self.privatizer.skipped_out_of_vocabulary

    @property
    def words(self) -> int:
        """Words privatised so far (the sum of ``n_words``)."""
        return self.privatizer.words


def privatize_texts(texts: Iterable[str | None], *, epsilon: float | None = None,
                    mechanism: str | WordMechanism = "madlib",
                    params: Mapping[str, Any] | None = None, mode: str = "text",
                    oov: str | None = None, size: int | None = None,
                    perturb_stopwords: bool = False,
                    embeddings: Embeddings | str | os.PathLike[str] | None = None,
                    vocab_size: int | None = DEFAULT_VOCAB_SIZE, seed: int | None = None,
                    batch_rows: int = DEFAULT_BATCH_ROWS) -> TextReleases:
    """Privatise strings, each a document: the released strings and each row's metadata.

    The rows are read and released block by block (``batch_rows`` at a time: memory does
    not grow with their number), each block through an
    :class:`~emprivacy.obfuscation.obfuscator.Obfuscator` — the machinery of ``emprivacy
    obfuscate``, which decodes the noisy vectors of many rows in one call.  Row ``i``
    (from 0) is released as ``obfuscate`` releases the document of id ``"i"``: with a
    seed, exactly that; its noise is keyed by the run key and ``i``, so the release
    does not depend on ``batch_rows``.

    Parameters
    ----------
    texts : iterable of str or None
        The rows.  ``None`` stays null (its metadata too).  Any other value that is not a
        ``str`` raises :class:`TypeError` naming its row and type.
    epsilon : float
        Per-word ε (required unless ``mechanism`` is a built mechanism).
    mechanism : str or WordMechanism, default "madlib"
        A registered mechanism (``"madlib"``, ``"mahalanobis"``, ``"vickrey"``, ``"tem"``,
        ``"santext"``) or a built one.
    params : mapping, optional
        The mechanism's own parameters (``emprivacy mechanisms``), e.g. ``{"lam": 0.5}``.
    mode : {"text", "bag"}, default "text"
        ``"text"``: each row's text with every perturbed word replaced in place
        (docs/TEXT_MODE.md).  ``"bag"``: each row's noisy bag of words, sorted (a list).
    oov : {"drop", "placeholder", "keep", "subword"}, optional
        Out-of-vocabulary words, as ``obfuscate --oov`` (default ``"placeholder"`` in
        text mode, ``"drop"`` for bags).
    size : int, optional
        Bag mode: truncate every bag to N words (never padded).
    perturb_stopwords : bool, default False
        Text mode: send the kept function words through the mechanism too.
    embeddings : Embeddings, path or None
        ``None``: the built-in GloVe 6B 50d; a path: an embeddings file
        (:func:`~emprivacy.embeddings.model.load_embeddings`, ``vocab_size`` words); or loaded
        :class:`~emprivacy.embeddings.model.Embeddings` (reuse them across calls).
    vocab_size : int or None, default 100_000
        Words kept from the default embeddings or a file.
    seed : int, optional
        Reproducible noise, **not for real releases** (anyone who knows the seed can remove
        the noise).  Default: a fresh secret key (the secure generator).
    batch_rows : int, default 8192
        Rows privatised at a time: memory, not the release (with a seed the release is the
        same whatever ``batch_rows``).

    Returns
    -------
    TextReleases
        An iterator of :class:`PrivateText` (``release``, ``metadata``), one per row, in
        order, with counters (``rows``, ``nulls``, ``skipped_empty``,
        ``skipped_out_of_vocabulary``, ``words``) and the run's shared ``metadata``.  The
        embeddings are loaded and every option is checked on the call; rows are read as
        the iterator is.

    Examples
    --------
    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog"], [[0.0, 0.0], [1.0, 0.0]], name="toy")
    >>> out = privatize_texts(["A cat.", None, ""], epsilon=50.0, embeddings=emb, seed=1)
    >>> [row.release for row in out]
    ['A cat.', None, '']
    >>> out.rows, out.nulls, out.skipped_empty, out.words
    (3, 1, 1, 1)
    """
    if isinstance(texts, str | bytes):
        raise TypeError("texts must be an iterable of str or None, not a single "
                        f"{type(texts).__name__}; give one text as [text]")
    if not isinstance(texts, Iterable):
        raise TypeError(f"texts must be an iterable of str or None; got {type(texts).__name__}")
    run = RunOptions.parse(epsilon=epsilon, mechanism=mechanism, params=params, mode=mode,
                           oov=oov, size=size, perturb_stopwords=perturb_stopwords,
                           embeddings=embeddings, vocab_size=vocab_size, seed=seed,
                           batch_rows=batch_rows)
    return TextReleases(run.privatizer(), texts, run.batch_rows)


# -- the mechanism, once per process -------------------------------------------------------
_MECHANISMS: dict[tuple[Any, ...], WordMechanism] = {}
_MECHANISMS_LOCK = threading.Lock()


def file_state(path: str | None) -> tuple[int, ...]:
    """What says that an embeddings file changed (then it is loaded again)."""
    if path is None:
        return ()
    st = os.stat(path)
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def process_mechanism(run: RunOptions) -> WordMechanism:
    """The mechanism of ``run`` (its name, ε, parameters, embeddings file and vocabulary
    size) for this process: built on first use, then reused by every run of the same
    settings (the ``datasets`` mapper, each Spark task); only the most recently used one
    is kept (bounded memory), and an embeddings file that changed is loaded again.

    The embeddings are loaded by :func:`emprivacy.load_embeddings`: the built-in ones once
    per process, a file through the memory-mapped cache.
    """
    from emprivacy.mechanisms.registry import make_mechanism

    path = None if run.embeddings is None else os.fspath(run.embeddings)  # type: ignore[arg-type]
    key = (run.mechanism, run.epsilon, repr(sorted(run.params.items())), path, run.vocab_size,
           file_state(path))
    with _MECHANISMS_LOCK:
        mech = _MECHANISMS.get(key)
        if mech is None:
            _MECHANISMS.clear()
            emb = load_embeddings(path, vocab_size=run.vocab_size)
            mech = _MECHANISMS[key] = make_mechanism(
                run.mechanism, emb, epsilon=run.epsilon,  # type: ignore[arg-type]
                **run.params)
        return mech
