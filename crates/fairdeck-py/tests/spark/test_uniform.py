"""Statistics over seeds on a small input, and orderBy(rand()) as the
reproducibility control."""

from __future__ import annotations

import random

from pyspark.sql import functions as F
from scipy_free import chi_square_sf

import reference
from fairdeck._fairdeck import distributed
from fairdeck.spark import shuffle

ROWS = 4
SEEDS = 40


def position_table(orders: list[list[int]]) -> list[list[int]]:
    table = [[0] * ROWS for _ in range(ROWS)]
    for order in orders:
        for place, row in enumerate(order):
            table[row][place] += 1
    return table


def chi_square(table: list[list[int]]) -> float:
    expected = sum(map(sum, table)) / ROWS**2
    return sum((c - expected) ** 2 / expected for row in table for c in row)


# What is tested: the place of each of 4 rows over 40 seeds (4 x 4 table of
# counts, 10 expected per cell) is uniform. Statistic: Pearson's chi-square
# with (4 - 1)^2 = 9 degrees of freedom (rows and columns of the table both
# sum to fixed totals). Bound: the 0.999 quantile, 27.88, so a fair shuffle
# fails with probability 0.001 for a random choice of seeds; the seeds are
# fixed, so the test is deterministic. The negative control, the same
# algorithm without the in-bucket shuffle (canonical order), is far over it.
BOUND = 27.88


def test_positions_are_uniform_over_seeds(spark, tmp_path):
    src = tmp_path / "in.txt"
    src.write_bytes(b"".join(b"%d\n" % i for i in range(ROWS)))
    orders = []
    for s in range(SEEDS):
        r = shuffle(src, seed=f"chi {s}", buckets=2, output=tmp_path / f"o{s}", spark=spark)
        out = b"".join(open(p, "rb").read() for p in r.parts)
        orders.append([int(x) for x in out.split()])
    assert all(sorted(o) == list(range(ROWS)) for o in orders)
    assert len({tuple(o) for o in orders}) > 10
    stat = chi_square(position_table(orders))
    assert stat < BOUND, f"chi-square {stat:.2f} over {BOUND} (p < 0.001)"
    assert chi_square_sf(stat, 9) > 0.001

    # Negative control: buckets as specified, no shuffle inside a bucket.
    biased = []
    for s in range(SEEDS):
        seed = bytes.fromhex(distributed.seed_hex(f"chi {s}"))
        buckets = [[], []]
        for row in range(ROWS):
            buckets[reference.row_bucket(seed, 0, 2 * row, 2)].append(row)
        biased.append(buckets[0] + buckets[1])
    assert chi_square(position_table(biased)) > BOUND


def test_order_by_rand_depends_on_the_partitioning(spark, tmp_path):
    # The control: Spark's own shuffle keys rows by rand(seed), whose stream
    # is seeded per partition, so the same seed orders the same data
    # differently when the input is split differently. fairdeck does not.
    src = tmp_path / "in.txt"
    lines = [f"line {i}" for i in range(500)]
    random.Random(1).shuffle(lines)
    src.write_text("".join(x + "\n" for x in lines))
    spark_orders, fairdeck_orders = [], []
    for size in ["128MB", "1k"]:
        spark.conf.set("spark.sql.files.maxPartitionBytes", size)
        try:
            df = spark.read.text(str(src))
            spark_orders.append([r.value for r in df.orderBy(F.rand(7)).collect()])
            out = tmp_path / f"fd-{size}"
            r = shuffle(src, seed="7", buckets=3, output=out, spark=spark)
            fairdeck_orders.append(b"".join(open(p, "rb").read() for p in r.parts))
        finally:
            spark.conf.unset("spark.sql.files.maxPartitionBytes")
    assert spark_orders[0] != spark_orders[1]
    assert sorted(spark_orders[0]) == sorted(spark_orders[1])
    assert fairdeck_orders[0] == fairdeck_orders[1]
