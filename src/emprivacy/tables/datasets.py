"""Privatising a column of a Hugging Face dataset (the ``datasets`` extra).

:func:`mapper` returns a function for :meth:`datasets.Dataset.map`::

    ds.map(mapper(column="text", epsilon=10), batched=True, with_indices=True, num_proc=4)

It releases the column as :func:`emprivacy.tables.arrow.privatize_table` releases a table's: the
release replaces the column by default, and the per-row metadata columns
(:func:`~emprivacy.tables.privatizer.row_fields`) are added after the dataset's columns.

One run over the dataset, in any number of processes
    The mapper holds only the run's settings and its key, never the embeddings: datasets
    pickles it (with dill) to each of its ``num_proc`` processes, and each process loads
    the embeddings the first time it privatises a batch, once — the built-in ones from
    their memory-mapped ``.npy``, a file through the memory-mapped cache
    (:mod:`emprivacy.embeddings.cache`), whose pages every process of the machine shares —
    and keeps the mechanism for every later batch and mapper of the same settings.
    Without a seed, the run key is drawn once, from the secure generator, when the mapper
    is made, so every process of the run holds the same key.

Row ``i`` is keyed by ``i`` and its text
    A row's noise stream is keyed by the run key, the row's index in the dataset, which
    ``datasets`` gives the mapper with ``with_indices=True`` (the index counts over the
    whole dataset, whatever its shards), and a digest of the row's text
    (:class:`~emprivacy.tables.privatizer.TextPrivatizer` ``key_by_text``): row ``i`` of text
    ``t`` is released as ``emprivacy obfuscate`` releases the document of id
    ``f"{i}#{text_digest(t)}"``.  So a seeded run releases the same dataset whatever
    ``batch_size`` and ``num_proc``; and one mapper applied to several datasets (the
    splits of a ``DatasetDict``, in separate processes that cannot see each other) never
    gives two different rows of one index the same noise.  Without ``with_indices=True``
    the mapper raises: it has no other key for the rows.

The batches
    The mapper reads the column as Arrow from the batch ``datasets`` hands to a function
    over an unformatted :class:`~datasets.Dataset` (or from the lists of an
    :class:`~datasets.IterableDataset`'s batch) and returns the release and the metadata
    as typed columns (:class:`TypedColumn`: a batch whose rows are all null still gives
    typed columns), which ``map`` merges into the batch, the other columns untouched.
    Returned, not written into the batch: ``map``'s ``remove_columns`` removes only input
    columns, so ``remove_columns=["text"]`` cannot remove the release that replaced
    ``text``.  :meth:`~datasets.Dataset.map`'s other options (``batch_size``,
    ``num_proc``, ``desc`` …) apply as usual.  A call without ``batched=True`` or
    ``with_indices=True``, with ``input_columns=``, or over a dataset with a format
    (``with_format("pandas")`` …) raises one :class:`TypeError` saying which.
    docs/TABLES.md.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pyarrow as pa

from emprivacy._optional import import_optional
from emprivacy._validation import check_epsilon, check_positive_int
from emprivacy.embeddings.files import detect_format
from emprivacy.embeddings.model import DEFAULT_EMBEDDINGS_NAME, Embeddings
from emprivacy.exceptions import EmbeddingsFormatError
from emprivacy.math.randomness import run_key_from_seed
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.config import DEFAULT_VOCAB_SIZE
from emprivacy.tables.arrow import (
    DEFAULT_PREFIX,
    check_text_column,
    is_text_type,
    output_names,
    release_type,
)
from emprivacy.tables.options import RunOptions, process_mechanism
from emprivacy.tables.privatizer import RowsReleased, TextPrivatizer, index_runs

if TYPE_CHECKING:  # pragma: no cover
    import datasets

__all__ = ["DatasetMapper", "TypedColumn", "counts", "mapper"]

_PURPOSE = "privatising a column of a Hugging Face dataset"

#: The Arrow type of each kind of metadata field (strings plain: one type for datasets'
#: features, not Arrow's dictionary encoding).
_KINDS = {"int": pa.int64(), "float": pa.float64(), "str": pa.string()}

#: What a call with the wrong arguments of ``Dataset.map`` is told.
_CALL = ("call ds.map(mapper, batched=True, with_indices=True): the mapper privatises "
         "batches of rows, and each row's index keys its noise")


def _datasets() -> Any:
    """datasets, imported on first use (one message naming the extra when missing)."""
    return import_optional("datasets", extra="datasets", purpose=_PURPOSE)


# -- the mapper ---------------------------------------------------------------------------
def _lazy_batch() -> type:
    """The class of the batches ``Dataset.map`` gives a function over an unformatted
    dataset (a mapping read lazily from Arrow, whose changes ``map`` keeps)."""
    module = import_optional("datasets.formatting.formatting", extra="datasets",
                             purpose=_PURPOSE)
    return module.LazyBatch


class DatasetMapper:
    """A run over a column of a Hugging Face dataset, as a function for
    :meth:`datasets.Dataset.map` (``batched=True, with_indices=True``).  Made by
    :func:`mapper`, which documents the options.

    ``mapper(batch, indices)`` privatises the rows ``indices`` of the batch's column and
    returns the release (``out_column``) and the metadata columns (``prefix + field``),
    each a :class:`TypedColumn`, for ``map`` to merge into the batch (a renamed release's
    original column is deleted from a ``Dataset``'s batch).

    It pickles small (the settings and the run key, never the embeddings, nor the
    mechanism, which each process builds on its first batch: :func:`process_mechanism`).
    ``repr`` does not show the run key.
    """

    def __init__(self, run: RunOptions, column: str, *, out_column: str | None,
                 keep_original: bool, metadata: bool, prefix: str,
                 run_key: bytes | None) -> None:
        self.run = run
        self.column = column
        self.out_column = out_column
        self.keep_original = keep_original
        self.metadata_columns = metadata
        self.prefix = prefix
        self._run_key = run_key
        self._privatizer: TextPrivatizer | None = None
        self._lock = threading.Lock()

    # pickled (to datasets' processes, and by its fingerprinting) without the mechanism
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_privatizer"] = None
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        run = self.run
        return (f"DatasetMapper(column={self.column!r}, mechanism={run.mechanism!r}, "
                f"epsilon={run.epsilon!r}, mode={run.config.mode!r}, "
                f"seeded={run.seed is not None})")

    @property
    def fields(self) -> dict[str, str]:
        """The per-row metadata fields and their kinds
        (:func:`~emprivacy.tables.privatizer.row_fields`)."""
        return self.run.fields

    def privatizer(self) -> TextPrivatizer:
        """This copy's run (built on first use, from this process's mechanism)."""
        with self._lock:
            if self._privatizer is None:
                run = self.run
                self._privatizer = TextPrivatizer(
                    process_mechanism(run), run.config, seed=run.seed,
                    run_key=None if run.seed is not None else self._run_key,
                    key_by_text=True)
            return self._privatizer

    @property
    def metadata(self) -> dict[str, Any]:
        """The fields every row of the run shares (those of every ``obfuscate`` record: ε,
        the embeddings, the mechanism's parameters, mode, ``seeded``); loads the embeddings
        in this process."""
        return self.privatizer().metadata

    def __call__(self, batch: Any, *args: Any) -> dict[str, Any]:
        """Privatise the rows of ``batch`` (see the class): ``mapper(batch, indices)``."""
        indices = _call_indices(batch, args, self.column)
        return self._release(batch, indices)

    def _privatize(self, texts: list[Any], rows: list[int]) -> RowsReleased:
        """The rows ``rows`` (their indices in the dataset) of text ``texts``, released: one
        block per run of consecutive indices."""
        if len(rows) != len(texts):
            raise ValueError(f"the batch has {len(texts)} rows but {len(rows)} indices; "
                             f"{_CALL}")
        privatizer = self.privatizer()
        released: list[Any] = []
        columns: dict[str, list[Any]] = {name: [] for name in privatizer.fields}
        for at, n in index_runs(rows):
            block = privatizer.privatize(texts[at:at + n], first_index=rows[at])
            released += block.released
            for name, values in block.columns.items():
                columns[name] += values
        return RowsReleased(released, columns)

    def _release(self, batch: Any, indices: Sequence[int]) -> dict[str, Any]:
        """The release and the metadata of a batch, as typed columns for ``map`` to merge
        into it: a datasets ``LazyBatch`` (``Dataset.map``, read as Arrow from
        ``batch.pa_table``) or a mapping of lists (``IterableDataset.map``)."""
        names = list(batch.keys())
        lazy = isinstance(batch, _lazy_batch())
        table: pa.Table | None = batch.pa_table if lazy else None

        def type_of(column: str) -> pa.DataType | None:
            if table is None:  # lists: each row is checked when privatised
                return None
            arrow_type = table.schema.field(column).type
            return None if is_text_type(arrow_type) else arrow_type

        check_text_column(names, self.column, type_of, what="dataset")
        out_name, meta_names = output_names(
            names, self.column, out_column=self.out_column, keep_original=self.keep_original,
            metadata=self.metadata_columns, prefix=self.prefix, fields=self.fields,
            what="dataset")
        if out_name != self.column and not self.keep_original:
            if table is None:
                raise TypeError(
                    f"the mapper cannot remove column {self.column!r} from the batches of an "
                    "IterableDataset (map merges what it returns into a copy of the batch): "
                    "to rename the release, make the mapper with keep_original=True and map "
                    f"with remove_columns=[{self.column!r}]; without out_column the release "
                    f"replaces {self.column!r}")
            del batch[self.column]  # renamed: the original does not ride along
        if table is not None:
            column = table.column(self.column)
            texts, large = column.to_pylist(), pa.types.is_large_string(column.type)
        else:
            texts, large = list(batch[self.column]), False
        block = self._privatize(texts, [int(i) for i in indices])
        # returned, not written into the batch: map's remove_columns (applied to the batch)
        # cannot remove the release, even when it has the column's name
        out = {out_name: TypedColumn(block.released,
                                     release_type(self.run.config.mode, large=large))}
        if self.metadata_columns:
            for name, (field, kind) in zip(meta_names, self.fields.items(), strict=True):
                out[name] = TypedColumn(block.columns[field], _KINDS[kind])
        return out


class TypedColumn(list[Any]):
    """A column's values with their Arrow type: a list (``map`` takes lists, and
    ``IterableDataset`` reads its rows by position) that ``pyarrow.array`` turns into an
    array of that type (the ``__arrow_array__`` protocol) — so that a batch whose rows
    are all null still gives a typed column."""

    def __init__(self, values: list[Any], arrow_type: pa.DataType) -> None:
        super().__init__(values)
        self.arrow_type = arrow_type

    def __arrow_array__(self, type: pa.DataType | None = None) -> pa.Array:
        return pa.array(list(self), type=type or self.arrow_type)


def _call_indices(batch: Any, args: tuple[Any, ...], column: str) -> list[int]:
    """The row indices of a call ``mapper(batch, *args)``, or one :class:`TypeError` saying
    what of the call of ``map`` is wrong (each case its own line)."""
    module = import_optional("datasets.formatting.formatting", extra="datasets",
                             purpose=_PURPOSE)
    if isinstance(batch, module.LazyRow):
        raise TypeError(f"the mapper was called on one row (map without batched=True); "
                        f"{_CALL}")
    if not isinstance(batch, Mapping):
        if isinstance(batch, list | tuple) or _is_column(batch):
            raise TypeError(f"the mapper was called with input_columns= (its first argument "
                            f"is a column's values, a {type(batch).__name__}); it reads column "
                            f"{column!r} from the whole batch itself: call ds.map(mapper, "
                            "batched=True, with_indices=True) without input_columns")
        raise TypeError(_formatted(f"a {_type_name(batch)}"))
    if not isinstance(batch, module.LazyBatch):
        values = list(batch.values())
        if values and not any(isinstance(v, list | tuple) or _is_column(v) for v in values):
            raise TypeError(f"the mapper was called on one row (map without batched=True); "
                            f"{_CALL}")
        other = next((v for v in values if not isinstance(v, list)), None)
        if other is not None:  # a formatted dataset's batch (numpy, torch …)
            raise TypeError(_formatted(f"a dict of {_type_name(other)}"))
    indices = args[0] if args else None
    if indices is None or isinstance(indices, int):
        raise TypeError(f"the mapper was called without with_indices=True; {_CALL}")
    return list(indices)


def _is_column(value: object) -> bool:
    """Whether ``value`` holds a column's values in some library (an array, a series)."""
    return (hasattr(value, "__len__") and not isinstance(value, Mapping)
            and (hasattr(value, "dtype") or hasattr(value, "type")))


def _type_name(value: object) -> str:
    """``"pandas DataFrame"``, ``"pyarrow Table"``, ``"numpy ndarray"``…"""
    kind = type(value)
    return f"{kind.__module__.partition('.')[0]} {kind.__name__}"


def _formatted(batch: str) -> str:
    return ("the mapper reads the batches of a dataset without a format; this batch is "
            f"{batch} (the dataset was given a format by with_format or set_format): map "
            "ds.with_format(None) and set the format again on the result, "
            "ds.with_format(None).map(mapper, batched=True, with_indices=True)"
            ".with_format(...)")


def mapper(*, column: str, epsilon: float | None = None, mechanism: str = "madlib",
           params: Mapping[str, Any] | None = None, mode: str = "text",
           oov: str | None = None, size: int | None = None, perturb_stopwords: bool = False,
           embeddings: str | os.PathLike[str] | None = None,
           vocab_size: int | None = DEFAULT_VOCAB_SIZE, seed: int | None = None,
           out_column: str | None = None, keep_original: bool = False,
           metadata: bool = True, prefix: str = DEFAULT_PREFIX, entities: str = "none",
           entity_epsilon: float = 1.0, entity_policy: Any = (),
           count_changed: bool = False, entity_key: bytes | None = None,
           style_epsilon: float | None = None, entity_names: Any = None) -> DatasetMapper:
    """A function for :meth:`datasets.Dataset.map` that privatises ``column``, each row a
    document of one run.

    Use it as ``ds.map(mapper(column="text", epsilon=…), batched=True,
    with_indices=True)``, with any ``batch_size`` and ``num_proc``, over a
    :class:`~datasets.Dataset` without a format or an :class:`~datasets.IterableDataset`
    (streaming: the same release, row ``i`` counted over the stream).  Row ``i`` of the
    dataset is released with its noise keyed by the run key, ``i`` and a digest of its text:
    with a seed, the same release whatever ``batch_size`` and ``num_proc``, and exactly
    what ``emprivacy obfuscate --seed`` releases for the document of id
    ``f"{i}#{text_digest(text)}"`` (:func:`~emprivacy.tables.privatizer.text_digest`).

    Parameters
    ----------
    column : str
        A column of strings (``string``, ``large_string``, or nulls only).  Nulls stay null.
    epsilon, params, mode, oov, size, perturb_stopwords, vocab_size, seed, count_changed
        As :func:`emprivacy.privatize_texts`, and so are ``entities``, ``entity_epsilon``,
        ``entity_policy``, ``entity_key`` and ``entity_names`` (every process builds its own
        detectors), and
        ``style_epsilon`` (the style option of text mode, docs/TEXT_MODE.md).
        Without a seed, the run key is drawn from the secure generator now, once, and every
        process of the run uses it.
    mechanism : str, default "madlib"
        A registered mechanism's name (a built mechanism holds its embeddings, which would
        be pickled to every process: give its name and ``params``).
    embeddings : path or None
        ``None``: the built-in GloVe 6B 50d; a path: an embeddings file, which every
        process loads itself (through the memory-mapped cache).  Not loaded
        :class:`~emprivacy.embeddings.model.Embeddings`, for the same reason.
    out_column, keep_original, metadata, prefix
        As :func:`emprivacy.tables.arrow.privatize_table`: the release replaces the column (at
        its place) by default; with another ``out_column`` or ``keep_original`` it is a
        new column, after the dataset's columns, then the metadata columns.  ``map``'s
        ``remove_columns=[column]`` removes the original only, never the release.  An
        ``IterableDataset``'s batches cannot lose a column from inside the mapper: there,
        rename the release with ``keep_original=True`` and ``remove_columns=[column]``.

    Returns
    -------
    DatasetMapper
        The function; ``mapper.metadata`` gives the fields every row of the run shares.

    Raises
    ------
    TypeError, ValueError
        A bad option, here, before any map: every option is checked (ε, the mechanism's
        parameters, the embeddings file's existence, ``oov="subword"`` on a file that is
        not a fastText model, the output names).  When mapping: ``KeyError`` for a column
        that is not in the dataset (the message lists its columns), ``TypeError`` for a
        column that does not hold strings, for a call without ``batched=True`` or without
        ``with_indices=True``, with ``input_columns=``, over a dataset with a format (each
        its own message), or for a renamed release of an ``IterableDataset`` without
        ``keep_original``; ``ValueError`` for a name taken twice.

    Notes
    -----
    One mapper may serve several datasets (every split of a
    :class:`~datasets.DatasetDict`: ``DatasetDict.map`` gives each the same function):
    the text is in each row's key, so two different rows of one index never share a noise
    stream, whatever the processes.  The same text at one index is released the same way
    each time (no more than one release).  Make a new mapper where the releases must be
    independent.

    A dataset with no rows is returned as it is by ``Dataset.map``, which never calls the
    function: no release column, no metadata columns.

    Examples
    --------
    A seeded run on two processes (seeds are for tests, not real releases)::

        import datasets
        from emprivacy.tables.datasets import mapper

        ds = datasets.Dataset.from_dict({"text": ["A cat.", None]})
        out = ds.map(mapper(column="text", epsilon=10.0, seed=1), batched=True,
                     with_indices=True, num_proc=2)
        out["emprivacy_n_words"][:]  # [1, None]
    """
    _datasets()
    if not isinstance(column, str) or not column:
        raise TypeError(f"column must be a column's name (a non-empty str); got {column!r}")
    if isinstance(mechanism, WordMechanism):
        raise TypeError("mechanism must be a mechanism's name (e.g. 'madlib'), not a built "
                        f"{type(mechanism).__name__}: the mapper is pickled to every "
                        "process of Dataset.map and must not carry the embeddings; give "
                        "the name, params= and embeddings=")
    if isinstance(embeddings, Embeddings):
        raise TypeError("embeddings must be a path to an embeddings file or None (the "
                        "built-in GloVe), not loaded Embeddings: the mapper is pickled to "
                        "every process of Dataset.map, and each loads the file itself, "
                        "through the memory-mapped cache")
    run = RunOptions.parse(epsilon=epsilon, mechanism=mechanism, params=params, mode=mode,
                           oov=oov, size=size, perturb_stopwords=perturb_stopwords,
                           embeddings=embeddings, vocab_size=vocab_size, seed=seed,
                           entities=entities, entity_epsilon=entity_epsilon,
                           entity_policy=entity_policy, count_changed=count_changed,
                           entity_key=entity_key, style_epsilon=style_epsilon,
                           entity_names=entity_names)
    # what RunOptions leaves to the first load, checked now (no process would report it)
    from emprivacy.mechanisms.registry import MECHANISMS

    name = cast(str, run.mechanism)  # RunOptions.parse refused anything else
    epsilon = check_epsilon(epsilon)
    chosen = MECHANISMS[name].check_parameters(run.params)
    if vocab_size is not None:
        vocab_size = check_positive_int(vocab_size, "vocab_size")
    path: str | None = None
    if embeddings is not None:
        if not isinstance(embeddings, str | os.PathLike):
            raise TypeError("embeddings must be a path to an embeddings file or None; got "
                            f"{type(embeddings).__name__}")
        path = os.path.abspath(os.fspath(embeddings))  # the processes' working directory
        if not os.path.isfile(path):
            raise EmbeddingsFormatError(f"embeddings file {os.fspath(embeddings)!r} does "
                                        "not exist")
    if run.config.oov == "subword" and (path is None
                                        or detect_format(path) != "fasttext-binary"):
        emb_name = DEFAULT_EMBEDDINGS_NAME if path is None else Path(path).name
        raise ValueError("oov='subword' needs a fastText .bin model with subword vectors; "
                         f"{emb_name!r} has none")
    output_names([column], column, out_column=out_column, keep_original=keep_original,
                 metadata=metadata, prefix=prefix, fields=run.fields, what="dataset")
    run = RunOptions(run.config, name, epsilon, dict(chosen), path, vocab_size, seed,
                     run.batch_rows)
    return DatasetMapper(run, column, out_column=out_column, keep_original=keep_original,
                         metadata=metadata, prefix=prefix,
                         run_key=None if seed is not None else run_key_from_seed(None))


def counts(dataset: datasets.Dataset, *, prefix: str = DEFAULT_PREFIX) -> dict[str, int]:
    """What a privatised dataset's metadata columns say about its rows.

    Parameters
    ----------
    dataset : datasets.Dataset
        The output of a :func:`mapper` with ``metadata=True``.
    prefix : str, default "emprivacy_"
        The metadata columns' prefix.

    Returns
    -------
    dict
        ``rows``; ``nulls`` (null rows, released null); ``skipped_empty`` (nothing left
        after normalisation, released empty); ``skipped_out_of_vocabulary`` (bag mode: no
        word in the vocabulary, released null); ``words`` (privatised words, the sum of
        ``n_words``) — the counters of :func:`emprivacy.privatize_texts`, whatever the
        number of processes that released the rows.
    """
    import pyarrow.compute as pc

    names = list(dataset.column_names)
    for field in ("n_words", "mechanism", "skipped"):
        if prefix + field not in names:
            raise KeyError(f"the dataset has no column {prefix + field!r}: give the output of "
                           "a mapper with metadata=True, and its prefix")
    total = {"rows": 0, "nulls": 0, "skipped_empty": 0, "skipped_out_of_vocabulary": 0,
             "words": 0}
    fields = ["n_words", "mechanism", "skipped"]
    changed = prefix + "words_changed" in names
    if changed:
        fields.append("words_changed")
        total.update(with_words=0, unchanged=0)
    view = dataset.select_columns([prefix + f for f in fields])
    for table in view.with_format("arrow").iter(batch_size=65_536):
        skipped = table.column(prefix + "skipped")
        total["rows"] += table.num_rows
        total["nulls"] += table.column(prefix + "mechanism").null_count
        total["skipped_empty"] += pc.sum(pc.equal(skipped, "empty")).as_py() or 0
        total["skipped_out_of_vocabulary"] += pc.sum(
            pc.equal(skipped, "out_of_vocabulary")).as_py() or 0
        total["words"] += pc.sum(table.column(prefix + "n_words")).as_py() or 0
        if changed:
            n_words = table.column(prefix + "n_words")
            has_words = pc.fill_null(pc.greater(n_words, 0), False)
            same = pc.and_(has_words, pc.equal(table.column(prefix + "words_changed"), 0))
            total["with_words"] += pc.sum(has_words).as_py() or 0
            total["unchanged"] += pc.sum(pc.fill_null(same, False)).as_py() or 0
    return total
