"""The readers' packing of rows into Arrow IPC blobs (no JVM needed): every
row lands in exactly one blob of its own bucket, blobs and record batches
stay under their size limits, and unpacking gives the rows back with their
exact Arrow types."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from fairdeck.spark import _tasks


def table(n: int) -> pa.Table:
    return pa.table({
        _tasks.FILE: pa.array(np.zeros(n, dtype=np.int32)),
        _tasks.POS: pa.array(np.arange(n, dtype=np.int64)),
        "value": pa.array([b"x" * (i % 50) for i in range(n)], pa.binary()),
        "ts": pa.array(np.arange(n), pa.timestamp("ns", tz="Europe/Budapest")),
    })


def test_every_row_goes_to_its_bucket_once_with_its_types(monkeypatch):
    monkeypatch.setattr(_tasks, "BLOB_BYTES", 4_000)
    monkeypatch.setattr(_tasks, "BATCH_BLOB_BYTES", 20_000)
    rows = table(3_000)
    buckets = (np.arange(3_000) * 7 % 5).astype(np.int32)
    keys = _tasks.partition_keys(5)
    batches = list(_tasks.pack(rows, buckets, keys))
    assert len(batches) > 1
    seen = {}
    for batch in batches:
        assert batch.schema.equals(_tasks.TRAVEL)
        sizes = [len(b.as_buffer()) for b in batch.column(2)]
        assert sum(sizes) <= 20_000 or len(sizes) == 1
        for key, bucket, blob in zip(batch.column(0).to_pylist(), batch.column(1).to_pylist(),
                                     batch.column(2)):
            assert key == keys[bucket]
            part = _tasks.unpack(pa.chunked_array([pa.array([blob.as_py()], pa.binary())]))
            assert part.schema.equals(rows.schema)
            for pos in part.column(_tasks.POS).to_pylist():
                assert pos not in seen
                seen[pos] = bucket
    assert seen == {i: int(buckets[i]) for i in range(3_000)}


def test_a_bucket_larger_than_a_blob_is_cut_into_pieces(monkeypatch):
    monkeypatch.setattr(_tasks, "BLOB_BYTES", 1_000)
    rows = table(500)
    batches = list(_tasks.pack(rows, np.zeros(500, dtype=np.int32), _tasks.partition_keys(1)))
    blobs = [b for batch in batches for b in batch.column(2)]
    assert len(blobs) > 5
    whole = _tasks.unpack(pa.chunked_array([batch.column(2) for batch in batches]))
    assert whole.column(_tasks.POS).to_pylist() == list(range(500))
