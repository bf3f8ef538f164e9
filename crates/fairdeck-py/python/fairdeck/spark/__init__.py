"""Exact, reproducible shuffles of datasets larger than a machine, on Apache Spark.

``shuffle(inputs, seed=..., output=...)`` writes the input's rows in an
order drawn uniformly from all n! orders, as parts ``part-00000``,
``part-00001``, ... whose concatenation in name order is the shuffled
dataset. The order depends only on the seed and the data: not on the
cluster, the executor count, Spark's split sizes or partitioning, the order
tasks run in, or retries. See the ``fairdeck-distributed`` crate for the
algorithm and its proof, and the guide's Spark chapter (docs/book/src/spark.md) for deployment.

Pipeline: a DataFrame of input splits (file, byte range; or Parquet row
groups) -> ``mapInArrow`` reading rows with their ids and buckets and
packing each bucket's rows as Arrow IPC blobs (one Spark row per bucket of
each batch read, so Spark converts and shuffles a few large values, and the
columns keep their exact Arrow types) -> ``repartition(k, key)`` (key
chosen so that partition b is bucket b) -> ``mapInArrow`` unpacking,
ordering each bucket and writing it as part b.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from fairdeck._fairdeck import distributed as _rust

from . import _formats, _output, _tasks
from ._listing import Listing, list_inputs, parse_bytes
from ._output import OutputNotEmpty

__all__ = ["shuffle", "ShuffleResult", "OutputNotEmpty", "DEFAULT_TASK_MEMORY"]

#: The memory one task may use for its bucket unless told otherwise.
DEFAULT_TASK_MEMORY = 512 << 20
FORMATS = ("text", "parquet")


@dataclass(frozen=True)
class ShuffleResult:
    """What a shuffle wrote."""

    #: The seed as 64 hex digits: pass it as ``seed=`` to replay the run.
    seed: str
    #: The number of buckets (and of parts).
    buckets: int
    #: Rows written.
    rows: int
    #: The part paths, in order: read them in this order.
    parts: list[str]


def shuffle(df_or_paths, seed=None, buckets=None, *, output, format=None, spark=None,
            task_memory=DEFAULT_TASK_MEMORY, split_bytes=None, overwrite=False) -> ShuffleResult:
    """Shuffles the rows of files (text lines or Parquet rows) into ``output``.

    ``df_or_paths``: a path, a list of paths (files or directories), or a
    DataFrame read straight from files (``spark.read.text(...)`` or
    ``spark.read.parquet(...)``); its files are shuffled. ``seed``: a text
    or 64 hex digits (``None`` draws a fresh one; the result tells it).
    ``buckets``: the number of parts; by default ``⌈3 · input bytes /
    task_memory⌉``. ``format``: ``text`` or ``parquet`` (when not given:
    the DataFrame's, or what the files' first bytes say: ``parquet`` if
    every file is Parquet, ``text`` if none is in a binary format); files
    not in that format (Parquet given as text, gzip, ...) are refused.
    Parquet rows keep their Arrow types, time zones and all (the output's
    schema is the input's). ``split_bytes``:
    text split size (default ``spark.sql.files.maxPartitionBytes``; it
    changes the work per task, never the output).

    Raises ``ValueError`` for bad arguments and for an ``output`` that is,
    contains or lies inside an input (after resolving symbolic links),
    ``FileNotFoundError`` for missing inputs, and ``OutputNotEmpty`` (a
    ``FileExistsError``) if ``output`` holds files and ``overwrite`` is
    false. With ``overwrite``, the parts are written to a hidden temporary
    sibling of ``output`` that replaces it only once the job succeeded: a
    failed run leaves ``output`` as it was.
    """
    from pyspark.sql import SparkSession

    spark = spark or SparkSession.getActiveSession() or _session()
    paths, roots, format = _inputs(df_or_paths, format)
    seed_hex = _rust.seed_hex(os.urandom(32).hex() if seed is None else str(seed))
    listing = list_inputs(paths)
    format = _formats.detect(listing, format)
    if format == "text" and not listing.local:
        raise ValueError("text input must be on a filesystem mounted on every executor "
                         "(local, NFS, a FUSE mount); use Parquet for hdfs:// or s3:// inputs")
    if buckets is not None:
        _bucket_count(buckets, 0, task_memory)
    out = _output.prepare(output, overwrite, listing, roots)
    batch_conf = "spark.sql.execution.arrow.maxRecordsPerBatch"
    before = spark.conf.get(batch_conf, None)
    try:
        # Each record is a blob of up to 64 MiB: a few per Arrow batch, not
        # Spark's default 10,000 (the session's setting is put back after).
        spark.conf.set(batch_conf, str(_tasks.BLOBS_PER_BATCH))
        summary = _run(spark, listing, format, split_bytes, buckets, task_memory, seed_hex, out)
        out.commit()
    except BaseException as e:
        out.abort()
        if "No module named 'fairdeck'" in str(e):
            raise RuntimeError(
                "Spark's Python workers cannot import fairdeck: start Spark with "
                f"PYSPARK_PYTHON={sys.executable} (or spark.pyspark.python), or install "
                "fairdeck into the workers' Python") from None
        raise
    finally:
        if before is None:
            spark.conf.unset(batch_conf)
        else:
            spark.conf.set(batch_conf, before)
    written = [_uri(out.fs, f"{out.root}/{name}") for name in summary.parts]
    return ShuffleResult(seed_hex, summary.buckets, summary.rows, written)


@dataclass(frozen=True)
class _Summary:
    buckets: int
    rows: int
    parts: list[str]


def _session():
    """A Spark session started here, as the command line starts it: its
    Python workers run this interpreter (which has fairdeck), not the first
    ``python3`` on the PATH (a virtualenv run without being activated).
    Under ``spark-submit``, and when ``PYSPARK_PYTHON`` is set, Spark's
    own choice stands."""
    from pyspark.sql import SparkSession

    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return SparkSession.builder.getOrCreate()


def _run(spark, listing, format, split_bytes, buckets, task_memory, seed_hex, out) -> _Summary:
    """The Spark job: read, bucket, order and write every part into ``out.stage``."""
    splits, size, original = _plan(spark, listing, format, split_bytes)
    k = _bucket_count(buckets, size, task_memory)
    keys = _tasks.partition_keys(k)
    if format == "text":
        read = _tasks.ReadText(seed_hex, k, keys)
    else:
        read = _tasks.ReadParquet(seed_hex, k, keys, listing.fs, original)
    rows = _splits_frame(spark, splits, format).mapInArrow(read, _spark_schema(_tasks.TRAVEL))
    write = _tasks.WriteBuckets(seed_hex, k, format, _uri(out.fs, out.stage), original)
    summary = rows.repartition(k, _tasks.PKEY).mapInArrow(write, _tasks.SUMMARY).collect()
    names = _finish(out.fs, out.stage, k, format, original, summary)
    return _Summary(k, sum(r["rows"] for r in summary), names)


def _inputs(df_or_paths, format):
    """Paths and format of the input (a DataFrame must be a plain file scan)."""
    if hasattr(df_or_paths, "inputFiles"):
        plan = df_or_paths._jdf.queryExecution().analyzed()
        name = plan.getClass().getSimpleName()
        if name != "LogicalRelation":
            raise ValueError("a DataFrame to shuffle must be read straight from files "
                             "(spark.read.text or spark.read.parquet): rows of a computed "
                             "DataFrame have no stable ids; write it out first")
        detected = plan.relation().fileFormat().toString().lower()
        format = format or detected
        paths = list(df_or_paths.inputFiles())
        # The directories read (Hadoop paths: "file:/data" is "/data"): an
        # output inside them would be read back with the data next time.
        hadoop = plan.relation().location().rootPaths().mkString("\n").split("\n")
        roots = [p[len("file:"):] if p.startswith("file:/") and not p.startswith("file://") else p
                 for p in hadoop if p] + paths
    else:
        paths = df_or_paths
        roots = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if format is not None and format not in FORMATS:
        raise ValueError(f"format must be 'text' or 'parquet', not {format!r}")
    return paths, roots, format


def _bucket_count(buckets, size: int, task_memory) -> int:
    if buckets is None:
        return int(_rust.buckets_for(size, parse_bytes(task_memory)))
    if isinstance(buckets, bool) or not isinstance(buckets, int) or not 1 <= buckets < 2**31:
        raise ValueError(f"buckets must be an integer in 1..2**31 - 1, got {buckets!r}")
    return buckets


def _uri(fs: pafs.FileSystem, path: str) -> str:
    return path if isinstance(fs, pafs.LocalFileSystem) else f"{fs.type_name}://{path}"


def _plan(spark, listing: Listing, format: str, split_bytes):
    """The splits, the in-memory size estimate, and the input's own schema
    (Parquet; None for text)."""
    if format == "text":
        step = parse_bytes(split_bytes or spark.conf.get("spark.sql.files.maxPartitionBytes"))
        splits = [(f, p, start, min(size, start + max(step, 1)))
                  for f, (p, size) in enumerate(zip(listing.paths, listing.sizes))
                  for start in range(0, size, max(step, 1))]
        return splits, sum(listing.sizes), None
    splits, size, data_schema = [], 0, None
    for f, path in enumerate(listing.paths):
        meta = pq.read_metadata(path, filesystem=listing.fs)
        schema = pq.read_schema(path, filesystem=listing.fs)  # with the stored Arrow types
        data_schema = data_schema or schema
        if not schema.remove_metadata().equals(data_schema.remove_metadata()):
            raise ValueError(f"{path}: its columns differ from those of {listing.paths[0]}; "
                             "shuffle files of one schema together")
        first = 0
        for g in range(meta.num_row_groups):
            group = meta.row_group(g)
            splits.append((f, path, g, first))
            first += group.num_rows
            size += group.total_byte_size
    if data_schema is None:
        raise ValueError("no Parquet files in the input")
    return splits, size, data_schema


def _spark_schema(schema: pa.Schema):
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(schema)


def _splits_frame(spark, splits, format: str):
    """One split per row and per partition, so each split is one task."""
    if format == "text":
        ddl = "file int, path string, start long, end long"
    else:
        ddl = "file int, path string, group int, first long"
    rdd = spark.sparkContext.parallelize(splits, max(1, len(splits)))
    return spark.createDataFrame(rdd, ddl)


def _finish(fs, root: str, k: int, format: str, schema: pa.Schema | None, summary) -> list[str]:
    """Empty parts for empty buckets, a ``_SUCCESS`` marker, no temporary files;
    returns the part names in order."""
    seen = {r["bucket"] for r in summary}
    parts = []
    for b in range(k):
        name = _tasks.part_name(b, k, format)
        path = f"{root}/{name}"
        parts.append(name)
        if b in seen:
            continue
        with fs.open_output_stream(path) as f:
            if format == "parquet":
                pq.write_table(schema.empty_table(), f)
    if fs.get_file_info(f"{root}/_temporary").type == pafs.FileType.Directory:
        fs.delete_dir(f"{root}/_temporary")
    with fs.open_output_stream(f"{root}/_SUCCESS"):
        pass
    return parts
