"""fairdeck.spark on a local[2] session: the output is exactly the
specified permutation and depends only on (seed, data)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import SEED, expected, parts, text_files

import reference
from fairdeck._fairdeck import distributed
from fairdeck.spark import _tasks, shuffle


def test_output_is_the_specified_permutation(spark, text_input, tmp_path):
    result = shuffle(text_input, seed=SEED, buckets=4, output=tmp_path / "out", spark=spark)
    got = parts(tmp_path / "out")
    assert got == expected(SEED, 4)
    assert result.rows == 703 and result.buckets == 4 and len(result.parts) == 4
    assert result.seed == distributed.seed_hex(SEED)
    # A permutation of the input lines: nothing lost, nothing duplicated.
    lines = b"".join(got).split(b"\n")[:-1]
    want = [line for d in text_files().values() for _, line in reference.lines(d)]
    assert len(want) == 703 and sorted(lines) == sorted(want)
    assert (tmp_path / "out" / "_SUCCESS").exists()
    assert not (tmp_path / "out" / "_temporary").exists()


@pytest.mark.parametrize("max_partition_bytes", ["97b", "1k", "128MB"])
def test_split_size_does_not_change_the_output(spark, text_input, tmp_path, max_partition_bytes):
    # The split size follows spark.sql.files.maxPartitionBytes: 97 bytes
    # make 80 splits (tasks), 128 MB one per file; the output is the same.
    spark.conf.set("spark.sql.files.maxPartitionBytes", max_partition_bytes)
    try:
        shuffle(text_input, seed=SEED, buckets=4, output=tmp_path / "o", spark=spark)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    assert parts(tmp_path / "o") == expected(SEED, 4)


def test_inputs_named_any_way_give_the_same_output(spark, text_input, tmp_path):
    files = [str(text_input / n) for n in ("c.txt", "a.txt", "b.txt", "a.txt")]
    shuffle(files, seed=SEED, buckets=4, output=tmp_path / "list", spark=spark)
    df = spark.read.text(str(text_input))
    shuffle(df, seed=SEED, buckets=4, output=tmp_path / "df", spark=spark, split_bytes=333)
    assert parts(tmp_path / "list") == parts(tmp_path / "df") == expected(SEED, 4)


def test_the_same_lines_in_other_files_are_other_data(spark, tmp_path):
    # Row ids are (file, offset): cutting the same lines into two files
    # instead of one is another dataset, shuffled to another (equally
    # uniform) order. Only the split of the *same* files is free.
    lines = b"".join(b"%d\n" % i for i in range(200))
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "x.txt").write_bytes(lines)
    (tmp_path / "two").mkdir()
    cut = lines.index(b"\n100\n") + 1
    (tmp_path / "two" / "x.txt").write_bytes(lines[:cut])
    (tmp_path / "two" / "y.txt").write_bytes(lines[cut:])
    shuffle(tmp_path / "one", seed=SEED, buckets=2, output=tmp_path / "o1", spark=spark)
    shuffle(tmp_path / "two", seed=SEED, buckets=2, output=tmp_path / "o2", spark=spark)
    one, two = b"".join(parts(tmp_path / "o1")), b"".join(parts(tmp_path / "o2"))
    assert one != two and sorted(one.split()) == sorted(two.split())


def test_another_seed_gives_another_order(spark, text_input, tmp_path):
    shuffle(text_input, seed="another seed", buckets=4, output=tmp_path / "o", spark=spark)
    got = parts(tmp_path / "o")
    assert got == expected("another seed", 4) and got != expected(SEED, 4)


@pytest.mark.parametrize("stage", ["map", "write"])
def test_a_failed_task_is_retried_to_the_same_output(spark, text_input, tmp_path, stage):
    marker = tmp_path / "failed-once"
    spark.sparkContext.setLocalProperty(_tasks.FAIL_ONCE, f"{stage}:{marker}")
    try:
        shuffle(text_input, seed=SEED, buckets=4, output=tmp_path / "o", spark=spark)
    finally:
        spark.sparkContext.setLocalProperty(_tasks.FAIL_ONCE, None)
    assert marker.exists(), "the injected failure did not happen"
    assert parts(tmp_path / "o") == expected(SEED, 4)


def test_partition_b_holds_bucket_b(spark):
    # The partition keys rely on Spark's hash(); check the copy against it.
    values = np.arange(-50, 200, dtype=np.int32)
    rows = spark.createDataFrame([(int(v),) for v in values], "v int").selectExpr("hash(v) h").collect()
    assert [r.h for r in rows] == _tasks._murmur3_int(values).tolist()
    keys = _tasks.partition_keys(7)
    assert sorted(_tasks._murmur3_int(keys).astype(np.int64) % 7) == list(range(7))


def test_parquet_rows_are_shuffled_by_row_index(spark, tmp_path):
    src = tmp_path / "pq"
    src.mkdir()
    for f, (lo, hi) in enumerate([(0, 130), (130, 300)]):
        table = pa.table({"id": pa.array(range(lo, hi), pa.int64()),
                          "name": [f"row {i}" for i in range(lo, hi)],
                          "x": [i / 7 for i in range(lo, hi)]})
        pq.write_table(table, src / f"part-{f}.parquet", row_group_size=40)
    result = shuffle(src, seed=SEED, buckets=3, output=tmp_path / "o", spark=spark)
    got = pa.concat_tables([pq.read_table(p) for p in result.parts])
    assert got.column_names == ["id", "name", "x"] and result.rows == 300
    seed = bytes.fromhex(result.seed)
    buckets = [[] for _ in range(3)]
    for f, (lo, hi) in enumerate([(0, 130), (130, 300)]):
        for i in range(hi - lo):
            buckets[reference.row_bucket(seed, f, i, 3)].append((f, i))
    want = [lo + i for b, rows in enumerate(buckets)
            for f, i in reference.bucket_order(seed, b, rows) for lo in [(0, 130)[f]]]
    assert got.column("id").to_pylist() == want
    assert got.column("name").to_pylist() == [f"row {i}" for i in want]


def test_bad_arguments_are_clear_errors(spark, text_input, tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        shuffle(tmp_path / "missing", seed=SEED, output=tmp_path / "o", spark=spark)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="not empty"):
        shuffle(text_input, seed=SEED, output=tmp_path / "full", spark=spark)
    assert (tmp_path / "full" / "keep.txt").read_text() == "mine"
    for bad in [0, -1, 2**31, 2.0, True]:
        with pytest.raises(ValueError, match="buckets"):
            shuffle(text_input, seed=SEED, buckets=bad, output=tmp_path / "o", spark=spark)
    with pytest.raises(ValueError, match="format"):
        shuffle(text_input, seed=SEED, format="csv", output=tmp_path / "o", spark=spark)
    computed = spark.read.text(str(text_input)).filter("value != ''")
    with pytest.raises(ValueError, match="read straight from files"):
        shuffle(computed, seed=SEED, output=tmp_path / "o", spark=spark)


def test_default_bucket_count_follows_size_and_memory(spark, text_input, tmp_path):
    size = sum(len(d) for d in text_files().values())
    r = shuffle(text_input, seed=SEED, task_memory=size, output=tmp_path / "o", spark=spark)
    assert r.buckets == 3 and parts(tmp_path / "o") == expected(SEED, 3)
