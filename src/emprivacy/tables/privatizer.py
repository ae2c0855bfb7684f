"""One run over the rows of a column (:class:`TextPrivatizer`): every row a document of
the run, released block by block through the corpus path's
:class:`~emprivacy.obfuscation.obfuscator.Obfuscator`, as a column of releases and columns
of per-row metadata (:class:`RowsReleased`, :func:`row_fields`).

Row ``i`` (counted from 0 over the whole input, or from ``first_index``) of text ``t`` is
the document of identifier ``f"{i}#{text_digest(t)}"`` — or, keyed by ids, the row of id
``s`` the document ``f"{s}#{text_digest(t)}"``: its noise comes from its own ChaCha20
stream keyed by the run's secret key and that identifier
(:func:`emprivacy.math.randomness.document_generator`).  Every path that releases a
table's column keys its rows so (Arrow, pandas, Polars, ``datasets``, Spark, ``obfuscate``
of a Parquet table): one seed, one key per row, one release everywhere.  What each kind of
row is released as: :mod:`emprivacy.tables.batch`.
"""

from __future__ import annotations

import bisect
import hashlib
import threading
from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from emprivacy._validation import check_positive_int
from emprivacy.io.documents import Document
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.obfuscation.skipped import SKIPPED_EMPTY

__all__ = ["RowsReleased", "TextPrivatizer", "check_texts", "index_runs", "row_fields",
           "text_digest"]

#: The per-document fields of a text-mode record, in its order (before ``guarantee``).
_TEXT_COUNTS = ("n_words", "epsilon_total", "words_perturbed", "stopwords_kept",
                "oov_placeholders", "oov_dropped", "oov_kept", "numbers", "urls", "emails",
                "paths", "symbols")
#: The per-document fields of a bag-mode record, in its order.
_BAG_COUNTS = ("n_words", "epsilon_total", "oov_dropped", "oov_placeholders", "oov_kept")
#: The per-document fields of a text-mode record with entity detection (after
#: :data:`_TEXT_COUNTS`; ``entities_detected``, a mapping, stays in the records only).
_ENTITY_COUNTS = ("entity_words", "entity_placeholders", "entities_kept",
                  "entity_words_distinct")

def check_texts(texts: object) -> None:
    """``texts`` is an iterable whose items are rows in order: else one :class:`TypeError`
    saying what it iterates instead.

    A ``str`` or ``bytes`` iterates its characters; a mapping (a ``dict``), its keys — which
    would be privatised, not the texts; a set (``dict.keys()`` and ``dict.items()`` are
    sets), in no order, so that no row would have an index; a table (a pandas or Polars
    DataFrame, an Arrow table), its column names or its columns.
    """
    kind = type(texts).__name__
    if isinstance(texts, str | bytes):
        raise TypeError(f"texts must be an iterable of str or None, not a single {kind}; "
                        "give one text as [text]")
    if isinstance(texts, Mapping):
        raise TypeError(f"texts must be an iterable of str or None, not a {kind}: a mapping "
                        "iterates over its keys, which would be privatised instead of its "
                        "texts; give its values in order (list(texts.values())) and keep the "
                        "keys beside the release")
    if isinstance(texts, KeysView | ItemsView):
        raise TypeError(f"texts must be an iterable of str or None, not a {kind}: a "
                        "mapping's keys and items are not its texts; give its values in "
                        "order (list(mapping.values())) and keep the keys beside the release")
    if isinstance(texts, AbstractSet):
        raise TypeError(f"texts must be an iterable of str or None, not a {kind}: a set "
                        "has no order, so its rows would have no index to key their noise; "
                        "give a list (sorted(texts))")
    if hasattr(texts, "columns") or hasattr(texts, "column_names"):
        raise TypeError(f"texts must be an iterable of str or None, not a {kind}: a table "
                        "iterates over its columns; give one column (table['review']), or "
                        "release the table with emprivacy.tables.arrow, .pandas or .polars")
    if not isinstance(texts, Iterable):
        raise TypeError(f"texts must be an iterable of str or None; got {kind}")


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
    counts: tuple[str, ...] = _TEXT_COUNTS if config.mode == "text" else _BAG_COUNTS
    if config.count_changed:  # where the records have it
        at = counts.index("words_perturbed" if config.mode == "text" else "epsilon_total") + 1
        counts = (*counts[:at], "words_changed", *counts[at:])
    if config.oov == "subword":
        counts = (*counts, "oov_subword")
    if config.entities != "none":
        counts = (*counts, *_ENTITY_COUNTS)
    if config.style_epsilon is not None:  # the style option's slots (obfuscation.style)
        counts = (*counts, "style_words")
    fields = {name: "float" if name == "epsilon_total" else "int" for name in counts}
    if config.mode == "text" or config.entities != "none":  # bags with entities state theirs
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


def index_runs(indices: Sequence[int]) -> list[tuple[int, int]]:
    """``indices`` cut into runs of consecutive integers: ``(position, length)`` pairs.

    >>> index_runs([3, 4, 5, 0, 1, 9])
    [(0, 3), (3, 2), (5, 1)]
    """
    runs: list[tuple[int, int]] = []
    start = 0
    for k in range(1, len(indices) + 1):
        if k == len(indices) or indices[k] != indices[k - 1] + 1:
            runs.append((start, k - start))
            start = k
    return runs


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
    key_by_text : bool, default True
        Key each row's stream by its index (or id) *and* a digest of its text (BLAKE2b,
        128 bits): the row ``i`` of text ``t`` is the document
        ``Document(f"{i}#{text_digest(t)}", t)``.  So a stream is never used on two
        different texts, whatever the calls — two runs of one seed numbering their rows
        from 0 (the rest of an interrupted stream privatised as a table of its own), one
        ``datasets`` mapper over the splits of a ``DatasetDict``, a Spark action that sees
        other rows at a position — and the same row twice is released the same (nothing
        more than one release, but two equal releases of one index say that their texts
        likely were equal).  ``False``: the row ``i`` is the document ``Document(str(i),
        t)``, and the run refuses an index it has privatised (:class:`ValueError`), as it
        cannot tell whether the text is the same; two runs (two calls) cannot see each
        other, so a seed must then never serve two runs over different rows.

    Notes
    -----
    Every block is released by an :class:`~emprivacy.obfuscation.obfuscator.Obfuscator`
    of its own holding the run's key (an obfuscator remembers every identifier it saw; a
    run remembers only the ranges of row indices it privatised, when not keyed by text,
    so memory does not grow with the rows).  A run may key its rows by identifiers of
    their own instead of their indices (``ids=``, e.g. a table's key column): the row of id
    ``s`` is then the document ``Document(f"{s}#{text_digest(t)}", t)`` (without
    ``key_by_text``, ``Document(s, t)``), and the run
    remembers every id it privatised and refuses one given twice (a column of repeated
    values is likely not an id).  Calls are serialised by a lock (a Polars expression may
    be called from several threads).
    """

    def __init__(self, mechanism: WordMechanism, config: ObfuscationConfig | None = None, *,
                 seed: int | None = None, run_key: bytes | None = None,
                 key_by_text: bool = True) -> None:
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
        self._guarantee = (probe.guarantee if config.mode == "text" else None
                           if probe.entities is None else probe.entities.bag_guarantee)
        self._claimed = _Claimed()
        self._claimed_ids: set[str] = set()
        self._by_index = False  # a run keys its rows one way: by index, or by id
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
        #: Rows with at least one privatised word so far; of them, rows whose every
        #: privatised word came out as itself (released unchanged, placeholders apart);
        #: privatised words released as another word.  Functions of the private texts:
        #: for the person running the release (the ``words_changed`` column, with
        #: ``count_changed``, is the per-row count).
        self.with_words = 0
        self.unchanged = 0
        self.words_changed = 0

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
            An id this run has already privatised, or repeated in the block (an index too,
            without ``key_by_text``); ``ids`` not one per row; a run keyed both ways.
        """
        check_texts(texts)
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
            if not self.key_by_text:  # keyed by text, a row index may come again
                self._claimed.claim(start, start + len(texts))
            self._by_index = self._by_index or bool(texts)
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
        if self._by_index:
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
            self.with_words += obf.documents_with_words
            self.unchanged += obf.documents_unchanged
            self.words_changed += obf.words_changed
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
                    columns[field].append(0.0 if field == "epsilon_total" else 0
                                          if field in ("n_words", "words_changed") else None)
                self.skipped_out_of_vocabulary += 1
            if "guarantee" in columns:
                columns["guarantee"].append(self._guarantee)
            columns["mechanism"].append(name)
            columns["skipped"].append(reason)
        self.rows += len(texts)
        return RowsReleased(released, columns)
