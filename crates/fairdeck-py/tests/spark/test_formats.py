"""Input formats, Parquet types, master URLs and the workers' Python
(issue 24, item 4): a binary file is never shuffled as text, a Parquet
column comes back in its own Arrow type, a bad master URL is one line, and
the Python API starts Spark with its workers on this interpreter."""

from __future__ import annotations

import gzip
import os
import stat
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import SEED

from fairdeck.spark import _formats, shuffle
from fairdeck.spark._listing import list_inputs


def cli(*args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fairdeck.spark", "shuffle", *args],
                          capture_output=True, text=True, cwd="/tmp", timeout=900, env=env)


def small_parquet(path: Path, n: int = 20) -> None:
    pq.write_table(pa.table({"id": pa.array(range(n), pa.int64())}), path)


@pytest.fixture
def mixed(tmp_path) -> Path:
    d = tmp_path / "mixed"
    d.mkdir()
    (d / "a.txt").write_bytes(b"one\ntwo\n")
    small_parquet(d / "b.parquet")
    (d / "c.txt.gz").write_bytes(gzip.compress(b"three\nfour\n"))
    return d


def test_a_mix_of_formats_is_refused_before_spark_starts(mixed, tmp_path):
    r = cli(str(mixed), str(tmp_path / "out"), "--seed", SEED)
    assert r.returncode == 1 and "b.parquet: a Parquet file among text files" in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and not (tmp_path / "out").exists()
    (mixed / "b.parquet").unlink()
    r = cli(str(mixed), str(tmp_path / "out"), "--seed", SEED)
    assert r.returncode == 1 and "c.txt.gz: a gzip file" in r.stderr, r.stderr


def test_parquet_given_as_text_and_text_given_as_parquet_are_refused(tmp_path):
    small_parquet(tmp_path / "p.parquet")
    (tmp_path / "t.txt").write_bytes(b"PAR1 is how this line of text starts\n")
    r = cli(str(tmp_path / "p.parquet"), str(tmp_path / "o1"), "--format", "text")
    assert r.returncode == 1 and "a Parquet file, not text" in r.stderr, r.stderr
    r = cli(str(tmp_path / "t.txt"), str(tmp_path / "o2"), "--format", "parquet")
    assert r.returncode == 1 and "not a Parquet file (it looks like text)" in r.stderr, r.stderr


def test_formats_are_read_from_the_first_bytes_not_the_names(tmp_path):
    small_parquet(tmp_path / "part-0000")
    (tmp_path / "data.parquet").write_bytes(b"just text\n")
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "orc.txt").write_bytes(b"ORCHESTRA SEQUENCE BZh91AY\n")
    (tmp_path / "z.bin").write_bytes(gzip.compress(b"x"))
    listing = list_inputs([str(tmp_path)])
    kinds = {Path(p).name: _formats.kind(listing, p) for p in listing.paths}
    assert kinds == {"part-0000": "Parquet", "data.parquet": "text", "empty": "text",
                     "orc.txt": "text", "z.bin": "gzip"}
    only_parquet = list_inputs([str(tmp_path / "part-0000")])
    assert _formats.detect(only_parquet, None) == "parquet"


def typed_table(lo: int, hi: int) -> pa.Table:
    """Columns Spark has no exact type for, with values that show any loss."""
    ids = list(range(lo, hi))
    big = 1_700_000_000_123_456_789  # ns since 1970, with digits below a microsecond
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "ts_ms": pa.array([1_700_000_000_123 + i for i in ids], pa.timestamp("ms")),
        "ts_ns": pa.array([big + i for i in ids], pa.timestamp("ns")),
        "ts_utc": pa.array([1_700_000_000_000_001 + i for i in ids], pa.timestamp("us", tz="UTC")),
        "ts_paris": pa.array([1_700_000_000_123 + i for i in ids], pa.timestamp("ms", tz="Europe/Paris")),
        "u64": pa.array([2**64 - 1 - i for i in ids], pa.uint64()),
        "u8": pa.array([i % 256 for i in ids], pa.uint8()),
        "text": pa.array([f"row {i}" for i in ids], pa.large_string()),
        "day": pa.array([86_400_000 * i for i in ids], pa.date64()),
        "t_ns": pa.array([1_000_000_007 * (i % 80) for i in ids], pa.time64("ns")),
        "d_ns": pa.array([i * 1001 for i in ids], pa.duration("ns")),
    })


def test_parquet_keeps_its_schema_and_values(spark, tmp_path):
    src = tmp_path / "typed"
    src.mkdir()
    tables = [typed_table(0, 70), typed_table(70, 150)]
    for f, t in enumerate(tables):
        pq.write_table(t, src / f"part-{f}.parquet", row_group_size=30)
    r = shuffle(src, seed=SEED, buckets=3, output=tmp_path / "o", spark=spark)
    parts = [pq.read_table(p) for p in r.parts]
    want = pa.concat_tables([pq.read_table(src / f"part-{f}.parquet") for f in range(2)])
    assert want.schema.field("ts_paris").type == pa.timestamp("ms", tz="Europe/Paris")
    for part in parts:
        assert part.schema.remove_metadata().equals(want.schema.remove_metadata()), part.schema
    got = pa.concat_tables(parts).sort_by("id")
    assert r.rows == 150 and got.equals(want)
    assert pa.concat_tables(parts).column("id").to_pylist() != list(range(150))


def test_files_of_different_columns_are_refused(spark, tmp_path):
    (tmp_path / "in").mkdir()
    small_parquet(tmp_path / "in" / "a.parquet")
    pq.write_table(pa.table({"other": [1.5]}), tmp_path / "in" / "b.parquet")
    with pytest.raises(ValueError, match="columns differ"):
        shuffle(tmp_path / "in", seed=SEED, output=tmp_path / "o", spark=spark)


@pytest.mark.parametrize("master", ["bogus://x", "local[x]", "spark://host-without-port", ""])
def test_a_bad_master_url_is_one_line(tmp_path, master):
    (tmp_path / "a.txt").write_bytes(b"a\n")
    r = cli(str(tmp_path / "a.txt"), str(tmp_path / "o"), "--master", master)
    assert r.returncode == 2 and "is not a Spark master URL" in r.stderr
    assert r.stderr.count("\n") == 1, r.stderr


def python_on_path(tmp_path: Path, script: str) -> dict:
    """An environment whose ``python3`` is ``script`` and no PYSPARK_PYTHON:
    a virtualenv's Python run by its path, without activating it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "python3"
    exe.write_text("#!/bin/sh\n" + script)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK")}
    env["PATH"] = f"{bin_dir}:{env.get('PATH', '')}"
    return env


API_RUN = """
import sys
from fairdeck.spark import shuffle
try:
    r = shuffle(sys.argv[1], seed="s", buckets=2, output=sys.argv[2])
    print("rows", r.rows)
except Exception as e:
    print(type(e).__name__, e)
"""


def test_the_api_runs_its_workers_on_this_interpreter(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"".join(b"%d\n" % i for i in range(50)))
    env = python_on_path(tmp_path, 'echo "the wrong python" >&2; exit 1\n')
    done = subprocess.run([sys.executable, "-c", API_RUN, str(tmp_path / "a.txt"),
                           str(tmp_path / "out")], capture_output=True, text=True, env=env,
                          cwd="/tmp", timeout=900)
    assert done.stdout.strip() == "rows 50", done.stdout + done.stderr[-3000:]


def test_workers_without_fairdeck_get_a_clear_error(tmp_path):
    fake = tmp_path / "fake" / "fairdeck"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'fairdeck'\", name='fairdeck')\n")
    (tmp_path / "a.txt").write_bytes(b"a\nb\n")
    env = python_on_path(tmp_path, "")
    env["PYSPARK_PYTHON"] = str(tmp_path / "bin" / "python3")
    (tmp_path / "bin" / "python3").write_text(
        f"#!/bin/sh\nPYTHONPATH={tmp_path / 'fake'}:$PYTHONPATH exec {sys.executable} \"$@\"\n")
    done = subprocess.run([sys.executable, "-c", API_RUN, str(tmp_path / "a.txt"),
                           str(tmp_path / "out")], capture_output=True, text=True, env=env,
                          cwd="/tmp", timeout=900)
    assert done.stdout.startswith("RuntimeError Spark's Python workers cannot import fairdeck"), (
        done.stdout + done.stderr[-3000:])
    assert sys.executable in done.stdout
