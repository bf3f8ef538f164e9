"""Fixtures of the Spark tests: one local[2] session (3 attempts per task,
so injected failures are retried), the test data, and the expected output
computed by an independent reading of the specification (reference.py).

Everything runs on loopback; the standalone cluster of test_cluster.py is
started and stopped by that test."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import reference  # noqa: E402

SEED = "spark test seed"

# These tests start JVMs and take minutes: they run in ./scripts/test-spark
# (which sets FAIRDECK_SPARK_TESTS=1), not in the Python package's own step
# that collects the whole tests/ folder.
if os.environ.get("FAIRDECK_SPARK_TESTS") != "1":
    collect_ignore_glob = ["test_*.py"]


def text_files() -> dict[str, bytes]:
    """CRLF lines, an empty file, empty lines, no final newline, repeated lines."""
    a = b"".join(b"alpha %d\r\n" % i for i in range(300))
    c = b"".join(b"gamma %d\n" % (i * i % 97) for i in range(400)) + b"\n\nno newline at the end"
    return {"a.txt": a, "b.txt": b"", "c.txt": c}


@pytest.fixture(scope="session")
def text_input(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("input")
    for name, data in text_files().items():
        (d / name).write_bytes(data)
    (d / "_SUCCESS").write_bytes(b"")  # hidden by the listing, as in Spark
    return d


def expected(seed: str, k: int) -> list[bytes]:
    from fairdeck._fairdeck import distributed

    files = [data for _, data in sorted(text_files().items())]
    return reference.expected_parts(files, distributed.seed_hex(seed), k)


def parts(out: Path) -> list[bytes]:
    names = sorted(p.name for p in out.iterdir() if p.name.startswith("part-"))
    return [(out / n).read_bytes() for n in names]


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    # Python workers run this interpreter (with this tree's fairdeck), not
    # whatever `python3` is first on the PATH.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2,3]")
        .config("spark.pyspark.python", sys.executable)
        .appName("fairdeck tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("FATAL")
    yield session
    session.stop()
