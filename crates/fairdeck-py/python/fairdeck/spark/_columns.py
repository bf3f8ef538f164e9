"""Parquet columns through Spark and back, unchanged.

Rows travel from the readers to the writers as Arrow batches in Spark's
types, and Spark has fewer types than Parquet: its timestamps are
microseconds (``timestamp[ns]`` loses digits, ``timestamp[ms]`` comes back
as ``[us]``, a time zone fails in pyspark's conversion), it has no unsigned
integers, no ``date64``, no ``float16``, no ``large_string``. So each
top-level column travels as a *carrier* type that holds its values exactly
(timestamps, dates, times and durations as their int64 count of units,
unsigned integers by their bits in int64, float16 in float32; other types
in Spark's own mapping), and the writer casts every column back to the
input's Arrow type: the output's schema is the input's.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc


def carrier(t: pa.DataType) -> pa.DataType | None:
    """The type ``t`` travels as, or None for Spark's own mapping."""
    if pa.types.is_timestamp(t) or pa.types.is_date64(t) or pa.types.is_duration(t):
        return pa.int64()
    if pa.types.is_time64(t) or pa.types.is_unsigned_integer(t):
        return pa.int64()
    if pa.types.is_time32(t):
        return pa.int32()
    if pa.types.is_float16(t):
        return pa.float32()
    return None


def carriers(schema: pa.Schema) -> pa.Schema:
    """The schema the columns of ``schema`` travel in through Spark."""
    from pyspark.sql.pandas.types import from_arrow_schema, to_arrow_schema

    fields = []
    for field in schema:
        c = carrier(field.type)
        if c is None:
            try:
                c = to_arrow_schema(from_arrow_schema(pa.schema([field]))).field(0).type
            except Exception as e:  # pyspark's own errors name no column
                raise ValueError(f"column {field.name!r}: Spark cannot carry the type "
                                 f"{field.type} ({type(e).__name__})") from None
        fields.append(pa.field(field.name, c, field.nullable))
    return pa.schema(fields)


def _cast(table: pa.Table, schema: pa.Schema) -> pa.Table:
    arrays = []
    for name, field in zip(schema.names, schema):
        column = table.column(name)
        # Bit-for-bit between a carrier and its type (uint64 ↔ int64 keeps
        # the bits); Spark's mapping itself is cast safely (it refuses loss).
        exact = carrier(field.type) is not None or carrier(column.type) is not None
        arrays.append(pc.cast(column, field.type, safe=not exact))
    return pa.Table.from_arrays(arrays, schema=schema)


def to_carriers(table: pa.Table, carried: pa.Schema) -> pa.Table:
    """The input's columns as their carriers (the schema from ``carriers``)."""
    return _cast(table, carried)


def restore(table: pa.Table, original: pa.Schema) -> pa.Table:
    """The carried columns back in the input's own types and metadata."""
    return _cast(table, original)
