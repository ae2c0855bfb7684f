"""One run over the rows of a column (:class:`TextPrivatizer`): every row a document of
the run, released block by block through the corpus path's
:class:`~emprivacy.obfuscation.obfuscator.Obfuscator`, as a column of releases and columns
of per-row metadata (:class:`RowsReleased`, :func:`row_fields`).

Row ``i`` (counted from 0 over the whole input) is the document of identifier ``str(i)``:
its noise comes from its own ChaCha20 stream keyed by the run's secret key and ``"i"``
(:func:`emprivacy.math.randomness.document_generator`), and an index is privatised once.
What each kind of row is released as: :mod:`emprivacy.tables.batch`.
"""

from __future__ import annotations

import bisect
import hashlib
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from emprivacy._validation import check_positive_int
from emprivacy.io.documents import Document
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.obfuscation.skipped import SKIPPED_EMPTY

__all__ = ["RowsReleased", "TextPrivatizer", "row_fields", "text_digest"]

#: The per-document fields of a text-mode record, in its order (before ``guarantee``).
_TEXT_COUNTS = ("n_words", "epsilon_total", "words_perturbed", "stopwords_kept",
                "oov_placeholders", "oov_dropped", "oov_kept", "numbers", "urls", "emails",
                "paths", "symbols")
#: The per-document fields of a bag-mode record, in its order.
_BAG_COUNTS = ("n_words", "epsilon_total", "oov_dropped", "oov_placeholders", "oov_kept")

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
