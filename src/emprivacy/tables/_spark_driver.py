"""The driver's side of :func:`emprivacy.tables.spark.privatize`, apart from the run: which
DataFrames are Spark's, the checks of the column and the id column, the output's Spark
schema, the id check's job, and the repartitioning of a DataFrame of too few partitions.
"""

from __future__ import annotations

import sys
from typing import Any

import pyarrow as pa

from emprivacy._optional import import_optional
from emprivacy.tables.arrow import Layout

__all__ = ["check_id_column", "check_ids_unique", "dataframe_types", "spark_schema", "spread",
           "type_error"]

_PURPOSE = "privatising a column of a Spark DataFrame"


def dataframe_types(sql: Any) -> tuple[type, ...]:
    """The DataFrame classes: classic, and Spark Connect's when it is in use."""
    types: list[type] = [sql.DataFrame]
    connect = sys.modules.get("pyspark.sql.connect.dataframe")
    if connect is not None:
        types.append(connect.DataFrame)
    return tuple(types)


def type_error(types: Any, schema: Any) -> Any:
    """``type_of(column)`` for :func:`~emprivacy.tables.arrow.check_text_column`: ``None``
    for a column of strings (or nulls), else its Spark type."""
    def type_of(column: str) -> str | None:
        data_type = schema[column].dataType
        ok = isinstance(data_type, types.StringType | types.NullType)
        return None if ok else data_type.simpleString()
    return type_of


def check_id_column(types: Any, schema: Any, id_column: object, column: str) -> None:
    """``id_column`` names a column of integers or strings of the DataFrame other than
    ``column``: else one clear error."""
    if not isinstance(id_column, str):
        raise TypeError(f"id_column must be a column's name (a str) or None; got "
                        f"{type(id_column).__name__}")
    names = list(schema.names)
    if id_column not in names:
        raise KeyError(f"id_column {id_column!r} is not in the DataFrame; its columns are "
                       + ", ".join(repr(n) for n in names))
    if id_column == column:
        raise ValueError(f"id_column must differ from column {column!r}: rows of the same "
                         "text would share a noise stream")
    data_type = schema[id_column].dataType
    keys = (types.StringType, types.ByteType, types.ShortType, types.IntegerType,
            types.LongType)
    if not isinstance(data_type, keys):
        raise TypeError(f"id_column {id_column!r} must hold integers or strings; its type "
                        f"is {data_type.simpleString()}")


def spark_schema(types: Any, schema: Any, layout: Layout) -> Any:
    """The output's Spark schema: the input's fields, the release and metadata fields."""
    def spark_type(arrow_type: pa.DataType) -> Any:
        if pa.types.is_list(arrow_type):
            return types.ArrayType(types.StringType(), containsNull=True)
        if pa.types.is_int64(arrow_type):
            return types.LongType()
        if pa.types.is_float64(arrow_type):
            return types.DoubleType()
        return types.StringType()  # strings, and the dictionaries of shared metadata

    fields = []
    for j, i in enumerate(layout.sources):
        field = layout.schema.field(j)
        fields.append(schema.fields[i] if i >= 0
                      else types.StructField(field.name, spark_type(field.type), True))
    return types.StructType(fields)


def check_ids_unique(df: Any, id_column: str) -> None:
    """One Spark job: every row has an id, and no id is repeated."""
    functions = import_optional("pyspark.sql.functions", extra="spark", purpose=_PURPOSE)
    key = functions.col("`" + id_column.replace("`", "``") + "`")
    found = (df.select(key.alias("id")).groupBy("id")
             .agg(functions.count(functions.lit(1)).alias("n"))
             .where(functions.col("id").isNull() | (functions.col("n") > 1))
             .limit(1).collect())
    if found:
        value, n = found[0]["id"], found[0]["n"]
        if value is None:
            raise ValueError(f"id_column {id_column!r} holds {n} null(s); every row needs "
                             "an id (it keys the row's noise stream)")
        raise ValueError(f"id_column {id_column!r} holds {value!r} {n} times; ids must be "
                         "unique, since each keys one row's noise stream")


def spread(df: Any) -> Any:
    """``df`` repartitioned to its session's default parallelism when it has fewer
    partitions (every core gets a task); as it is otherwise, and for Spark Connect, whose
    DataFrames have no partitions to count."""
    connect = sys.modules.get("pyspark.sql.connect.dataframe")
    if connect is not None and isinstance(df, connect.DataFrame):
        return df
    parallelism = df.sparkSession.sparkContext.defaultParallelism
    if df.rdd.getNumPartitions() < parallelism:
        return df.repartition(parallelism)
    return df
