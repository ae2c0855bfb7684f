"""The style option through Spark (issue 41): ``style_epsilon`` reaches the executors, and a
seeded release is ``privatize_table``'s (one keying for every path: by id and text), with
the style guarantee and slots in its metadata columns."""

from __future__ import annotations

import pyarrow as pa
import pytest

from emprivacy.tables.arrow import privatize_table

from .test_style_tables import STYLE, STYLE_EMBEDDINGS, TEXTS, check_guarantee

pytest.importorskip("pyspark")
from emprivacy.tables.spark import privatize

pytestmark = [pytest.mark.filterwarnings("ignore:unclosed <socket:ResourceWarning"),
              pytest.mark.filterwarnings("ignore:distutils Version classes are deprecated:"
                                         "DeprecationWarning")]



def test_a_seeded_style_release_is_the_same_through_spark(spark, tmp_path):
    emb = tmp_path / "style-emb.txt"
    emb.write_text(STYLE_EMBEDDINGS, encoding="utf-8")
    ids = list(range(len(TEXTS)))
    table = privatize_table(pa.table({"id": ids, "text": TEXTS}), "text", id_column="id",
                            embeddings=emb, **STYLE)
    df = spark.createDataFrame(list(zip(ids, TEXTS, strict=True)), "id long, text string")
    out = privatize(df, "text", id_column="id", embeddings=str(emb), **STYLE).orderBy("id")
    rows = out.collect()
    assert [r["text"] for r in rows] == table.column("text").to_pylist()
    check_guarantee([r["emprivacy_guarantee"] for r in rows],
                    [r["emprivacy_style_words"] for r in rows])
    plain = privatize(df, "text", id_column="id", embeddings=str(emb), epsilon=3.0,
                      seed=7).orderBy("id")
    assert [r["text"] for r in plain.collect()] != [r["text"] for r in rows]
