"""What runs inside Spark tasks: read splits into buckets, order and write buckets.

Every function here is a pure function of its inputs (the seed, the bucket
count, the data), so a retried, speculative or re-ordered task computes
exactly what the first attempt did. Objects of these classes are pickled to
the executors by reference to this module: the executors need the
``fairdeck`` package installed (see docs/book/src/spark.md).
"""

from __future__ import annotations

import uuid

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from fairdeck._fairdeck import distributed as _rust

#: Helper columns, prefixed so they cannot clash with a Parquet file's own.
PKEY, BUCKET, FILE, POS = "__fairdeck_pkey", "__fairdeck_bucket", "__fairdeck_file", "__fairdeck_pos"
BLOB = "__fairdeck_rows"
#: Bytes of line data per Arrow batch out of a text split.
BATCH_BYTES = 8 << 20
#: A Spark local property (``sc.setLocalProperty``) for the tests' fault
#: injection: ``map`` or ``write`` (optionally ``write:PATH``) makes the
#: first attempt of task 0 of that stage fail after its side effects (a
#: written temporary file), touching PATH first as evidence, so that Spark
#: retries it. Nothing else reads it.
FAIL_ONCE = "fairdeck.test.failOnce"


def _murmur3_int(values: np.ndarray, seed: int = 42) -> np.ndarray:
    """Spark's ``hash()`` of int32 values: Murmur3 x86_32 of 4 bytes, seed 42."""
    with np.errstate(over="ignore"):
        k = values.astype(np.uint32) * np.uint32(0xCC9E2D51)
        k = (k << np.uint32(15)) | (k >> np.uint32(17))
        k = k * np.uint32(0x1B873593)
        h = np.uint32(seed) ^ k
        h = (h << np.uint32(13)) | (h >> np.uint32(19))
        h = h * np.uint32(5) + np.uint32(0xE6546B64)
        h = h ^ np.uint32(4)
        h = h ^ (h >> np.uint32(16))
        h = h * np.uint32(0x85EBCA6B)
        h = h ^ (h >> np.uint32(13))
        h = h * np.uint32(0xC2B2AE35)
        h = h ^ (h >> np.uint32(16))
    return h.view(np.int32)


def partition_keys(k: int) -> np.ndarray:
    """For each bucket b, an int whose Spark hash partition among k is b.

    ``repartition(k, col)`` sends a row to ``pmod(hash(col), k)``; keying
    rows by ``keys[bucket]`` makes Spark's partition b hold exactly bucket
    b, so every task holds one bucket. Correctness never depends on it: the
    writer groups by the bucket column whatever partition it is in.
    """
    keys = np.full(k, -1, dtype=np.int64)
    start = 0
    while (keys < 0).any():
        cand = np.arange(start, start + 16 * k + 64, dtype=np.int64)
        parts = _murmur3_int(cand.astype(np.int32)).astype(np.int64) % k
        for p, v in zip(parts[::-1], cand[::-1]):  # smallest value wins
            if keys[p] < 0 or v < keys[p]:
                keys[p] = v
        start += 16 * k + 64
    return keys.astype(np.int32)


def part_name(bucket: int, buckets: int, fmt: str) -> str:
    """``part-00007.txt``: zero-padded so that name order is bucket order."""
    width = max(5, len(str(buckets - 1)))
    return f"part-{bucket:0{width}d}.{'txt' if fmt == 'text' else 'parquet'}"


def _maybe_fail(stage: str) -> None:
    from pyspark import TaskContext

    ctx = TaskContext.get()
    wanted = (ctx.getLocalProperty(FAIL_ONCE) or "") if ctx is not None else ""
    if wanted.split(":", 1)[0] == stage:
        if ctx.partitionId() == 0 and ctx.attemptNumber() == 0:
            if ":" in wanted:
                open(wanted.split(":", 1)[1], "w").close()
            raise RuntimeError(f"fairdeck: injected failure in the first attempt of the {stage} task")


#: The columns the map side sends through Spark's shuffle: one row per
#: bucket of each batch it read, the bucket's rows packed in ``BLOB``.
TRAVEL = pa.schema([pa.field(PKEY, pa.int32(), False), pa.field(BUCKET, pa.int32(), False),
                    pa.field(BLOB, pa.binary(), False)])
#: Most bytes of rows packed in one blob (Spark values stay far below 2 GB).
BLOB_BYTES = 64 << 20
#: Most bytes of blobs in one record batch the readers hand to Spark (an
#: Arrow binary column holds at most 2 GiB); see also ``BLOBS_PER_BATCH``.
BATCH_BLOB_BYTES = 256 << 20
#: ``spark.sql.execution.arrow.maxRecordsPerBatch`` while a shuffle runs:
#: the writers receive at most this many blobs per Arrow batch (at most
#: 4 × ``BLOB_BYTES``), not Spark's default of 10,000.
BLOBS_PER_BATCH = 4


def pack(table: pa.Table, buckets: np.ndarray, keys: np.ndarray):
    """The rows of ``table`` grouped by bucket, each group (in pieces of at
    most ``BLOB_BYTES``) written as one Arrow IPC stream: the rows travel
    through Spark as a few large binary values, exactly in their Arrow
    types, instead of one Spark row each. Which rows share a blob never
    matters: the writer orders a bucket by its rows' ids. Yields record
    batches of at most ``BATCH_BLOB_BYTES`` of blobs (one blob at least),
    so no batch reaches the 2 GiB an Arrow binary column can hold."""
    order = np.argsort(buckets, kind="stable")
    counts = np.bincount(buckets, minlength=len(keys))
    bucket_of, blobs, size, start = [], [], 0, 0
    for b in np.flatnonzero(counts):
        # One bucket's rows at a time: the copy made for it is freed once
        # it is serialised, so a large row group is not copied whole.
        group = table.take(pa.array(order[start:start + int(counts[b])]))
        start += int(counts[b])
        pieces = max(1, -(-group.nbytes // BLOB_BYTES))
        step = -(-group.num_rows // pieces)
        for first in range(0, group.num_rows, step):
            sink = pa.BufferOutputStream()
            with pa.ipc.new_stream(sink, group.schema) as writer:
                writer.write_table(group.slice(first, step))
            blob = np.frombuffer(sink.getvalue(), dtype=np.uint8)
            if blobs and size + len(blob) > BATCH_BLOB_BYTES:
                yield _blob_batch(bucket_of, blobs, keys)
                bucket_of, blobs, size = [], [], 0
            bucket_of.append(int(b))
            blobs.append(blob)
            size += len(blob)
    if blobs:
        yield _blob_batch(bucket_of, blobs, keys)


def _blob_batch(bucket_of: list[int], blobs: list[np.ndarray], keys: np.ndarray) -> pa.RecordBatch:
    """One record batch of ``TRAVEL``: each blob with its bucket and partition key."""
    offsets = np.zeros(len(blobs) + 1, dtype=np.int32)
    np.cumsum([len(x) for x in blobs], out=offsets[1:])
    data = np.concatenate(blobs)
    buckets = np.array(bucket_of, dtype=np.int32)
    values = pa.Array.from_buffers(pa.binary(), len(blobs),
                                   [None, pa.py_buffer(offsets), pa.py_buffer(data)])
    return pa.RecordBatch.from_arrays(
        [pa.array(keys[buckets]), pa.array(buckets), values], schema=TRAVEL)


def unpack(blobs: pa.ChunkedArray) -> pa.Table:
    """The rows packed in ``blobs`` (a bucket's), as one table; the data
    stay in the blobs' memory."""
    return pa.concat_tables(pa.ipc.open_stream(blob.as_buffer()).read_all()
                            for chunk in blobs.chunks for blob in chunk)


class ReadText:
    """Map side for text: each split's lines with their ids, packed by bucket."""

    def __init__(self, seed: str, buckets: int, keys: np.ndarray):
        self.seed, self.buckets, self.keys = seed, buckets, keys

    def __call__(self, batches):
        for batch in batches:
            cols = batch.to_pydict()
            for file, path, start, end in zip(cols["file"], cols["path"], cols["start"], cols["end"]):
                yield from self._split(file, path, start, end)
        _maybe_fail("map")

    def _split(self, file, path, start, end):
        split = _rust.TextSplit(path, file, start, end, self.seed, self.buckets)
        while (batch := split.read(BATCH_BYTES)) is not None:
            data, offsets, positions, buckets = batch
            values = pa.Array.from_buffers(
                pa.binary(), len(positions), [None, pa.py_buffer(offsets), pa.py_buffer(data)]
            )
            files = np.full(len(positions), file, dtype=np.int32)
            rows = pa.Table.from_arrays([pa.array(files), pa.array(positions), values],
                                        names=[FILE, POS, "value"])
            yield from pack(rows, np.asarray(buckets), self.keys)


class ReadParquet:
    """Map side for Parquet: each row group's rows with ids (file, row index), packed by bucket."""

    def __init__(self, seed: str, buckets: int, keys: np.ndarray, uri_fs, schema: pa.Schema):
        self.seed, self.buckets, self.keys = seed, buckets, keys
        self.fs, self.schema = uri_fs, schema

    def __call__(self, batches):
        for batch in batches:
            cols = batch.to_pydict()
            for file, path, group, first in zip(cols["file"], cols["path"], cols["group"], cols["first"]):
                yield from self._group(file, path, group, first)
        _maybe_fail("map")

    def _group(self, file, path, group, first):
        with self.fs.open_input_file(path) as f:
            table = pq.ParquetFile(f).read_row_group(group)
        n = table.num_rows
        files = np.full(n, file, dtype=np.int32)
        positions = np.arange(first, first + n, dtype=np.int64)
        buckets = _rust.buckets_of(self.seed, self.buckets, files, positions)
        table = table.select(self.schema.names)
        table = table.add_column(0, FILE, pa.array(files)).add_column(1, POS, pa.array(positions))
        yield from pack(table, np.asarray(buckets), self.keys)


class WriteBuckets:
    """Reduce side: order each bucket of the partition and write it as its part."""

    def __init__(self, seed: str, buckets: int, fmt: str, output: str, schema: pa.Schema | None):
        self.seed, self.buckets, self.fmt, self.output = seed, buckets, fmt, output
        #: The input's Parquet schema, given back to the output (None for text).
        self.schema = schema

    def __call__(self, batches):
        batches = list(batches)
        if not batches:
            return
        table = pa.Table.from_batches(batches)
        present = np.unique(table.column(BUCKET).to_numpy())
        for b in present:
            mine = table if len(present) == 1 else table.filter(pc.equal(table[BUCKET], b))
            yield self._write(int(b), unpack(mine.column(BLOB)))

    def _order(self, bucket: int, part: pa.Table) -> np.ndarray:
        files = part.column(FILE).to_numpy()
        positions = part.column(POS).to_numpy()
        return _rust.order_bucket(self.seed, bucket, files, positions)

    def _write(self, bucket: int, part: pa.Table) -> pa.RecordBatch:
        order = self._order(bucket, part)
        if self.fmt == "text":
            values = pc.cast(part.column("value"), pa.large_binary()).combine_chunks()
            payload = _rust.join_lines(*_buffers(values), order)
            size = _atomic_write(self.output, part_name(bucket, self.buckets, "text"),
                                 lambda f: f.write(payload))
        else:
            # The input's schema, field metadata and all: the types travelled
            # unchanged inside the blobs, so this cast changes no value.
            rows = part.take(pa.array(order)).drop_columns([FILE, POS]).cast(self.schema)
            size = _atomic_write(self.output, part_name(bucket, self.buckets, "parquet"),
                                 lambda f: pq.write_table(rows, f))
        return pa.RecordBatch.from_pydict(
            {"bucket": [bucket], "rows": [part.num_rows], "bytes": [size]},
            schema=SUMMARY_ARROW,
        )


SUMMARY = "bucket int, rows long, bytes long"
SUMMARY_ARROW = pa.schema([("bucket", pa.int32()), ("rows", pa.int64()), ("bytes", pa.int64())])


def _buffers(values: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """The data bytes and int64 offsets of a large-binary array, without copies."""
    _, offsets, data = values.buffers()
    offs = np.frombuffer(offsets, dtype=np.int64)[values.offset: values.offset + len(values) + 1]
    raw = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
    return raw, offs


def _atomic_write(output: str, name: str, write) -> int:
    """Writes ``output/name`` through a temporary file and a rename.

    A failed or duplicate attempt leaves at most a stray temporary file
    (removed by the driver at the end); since every attempt writes the same
    bytes, whichever rename lands last leaves the same part.
    """
    fs, root = pafs.FileSystem.from_uri(output)
    tmp = f"{root}/_temporary/{name}.{uuid.uuid4().hex}"
    fs.create_dir(f"{root}/_temporary", recursive=True)
    with fs.open_output_stream(tmp) as f:
        write(f)
    size = fs.get_file_info(tmp).size
    _maybe_fail("write")
    fs.move(tmp, f"{root}/{name}")
    return size
