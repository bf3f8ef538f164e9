"""The output directory never overlaps an input, and ``overwrite`` replaces
it only after the job succeeded (issue 24, item 1: ``--overwrite`` deleted
the input when OUT contained it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SEED, expected, parts, text_files

import fairdeck.spark as fs
from fairdeck.spark import OutputNotEmpty, shuffle


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fairdeck.spark", "shuffle", *args],
                          capture_output=True, text=True, cwd="/tmp", timeout=600)


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_reported_reproducer_keeps_the_input(tmp_path):
    # mkdir -p X/in; printf 'a\n' >X/in/f.txt; python -m fairdeck.spark shuffle X/in X --overwrite
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "f.txt").write_bytes(b"a\n")
    r = cli(str(tmp_path / "in"), str(tmp_path), "--overwrite", "--seed", "s", "--master", "local[1]")
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and "contains the input" in r.stderr, r.stderr
    assert tree(tmp_path) == {"in/f.txt": b"a\n"}


def overlaps(tmp: Path) -> dict[str, tuple[list[str], str, str]]:
    """Inputs, an output overlapping them, and the word the refusal uses."""
    data = tmp / "data"
    (tmp / "link-to-tmp").symlink_to(tmp)
    (tmp / "link-to-data").symlink_to(data)
    return {
        "out is in": ([str(data)], str(data), "is the input"),
        "out is in, trailing slash": ([str(data)], f"{data}/", "is the input"),
        "out is the parent of in": ([str(data)], str(tmp), "contains the input"),
        "out inside in": ([str(data)], str(data / "sub" / "out"), "lies inside the input"),
        "out through a link": ([str(data)], str(tmp / "link-to-tmp"), "contains the input"),
        "out through a link is in": ([str(data)], str(tmp / "link-to-tmp" / "data"), "is the input"),
        "in through a link": ([str(tmp / "link-to-data")], str(data), "is the input"),
        "in as a file:// URI": ([f"file://{data}"], str(tmp), "contains the input"),
        "out as a file:// URI": ([str(data)], f"file://{tmp}", "contains the input"),
        "an input file inside out": ([str(data / "a.txt")], str(data), "contains the input"),
        "one of several inputs": ([str(tmp / "other.txt"), str(data)], str(tmp), "contains"),
    }


@pytest.fixture
def dataset(tmp_path) -> Path:
    (tmp_path / "data").mkdir()
    for name, content in text_files().items():
        (tmp_path / "data" / name).write_bytes(content)
    (tmp_path / "other.txt").write_bytes(b"x\n")
    return tmp_path


CASES = ["out is in", "out is in, trailing slash", "out is the parent of in", "out inside in",
         "out through a link", "out through a link is in", "in through a link",
         "in as a file:// URI", "out as a file:// URI", "an input file inside out",
         "one of several inputs"]


@pytest.mark.parametrize("case", CASES)
def test_the_command_refuses_an_output_overlapping_an_input(dataset, case):
    before = tree(dataset)
    cases = overlaps(dataset)
    assert sorted(cases) == sorted(CASES)
    inputs, output, word = cases[case]
    r = cli(*inputs, output, "--overwrite", "--seed", SEED)
    assert r.returncode == 1 and word in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert tree(dataset) == before


def test_the_api_refuses_an_output_overlapping_an_input(spark, dataset):
    before = tree(dataset)
    for inputs, output, word in overlaps(dataset).values():
        with pytest.raises(ValueError, match=word):
            shuffle(inputs, seed=SEED, output=output, overwrite=True, spark=spark)
    df = spark.read.text(str(dataset / "data"))
    with pytest.raises(ValueError, match="lies inside the input"):
        shuffle(df, seed=SEED, output=dataset / "data" / "out", overwrite=True, spark=spark)
    assert tree(dataset) == before


def test_overwrite_replaces_the_output_after_success(spark, dataset):
    out = dataset / "out"
    (out / "old").mkdir(parents=True)
    (out / "old" / "part-00000.txt").write_bytes(b"stale\n")
    r = shuffle(dataset / "data", seed=SEED, buckets=4, output=out, overwrite=True, spark=spark)
    assert parts(out) == expected(SEED, 4)
    assert sorted(p.name for p in out.iterdir()) == sorted([Path(p).name for p in r.parts] + ["_SUCCESS"])
    assert r.parts[0] == str(out / "part-00000.txt")
    assert sorted(os.listdir(dataset)) == ["data", "other.txt", "out"]  # no staging left


def test_a_failed_job_leaves_the_old_output(spark, dataset, monkeypatch):
    out = dataset / "out"
    out.mkdir()
    (out / "keep.txt").write_bytes(b"mine\n")

    def fail_after_writing(*args):
        stage = Path(args[-1].stage)
        (stage / "part-00000.txt").write_bytes(b"half\n")
        raise RuntimeError("the job failed")

    monkeypatch.setattr(fs, "_run", fail_after_writing)
    with pytest.raises(RuntimeError, match="the job failed"):
        shuffle(dataset / "data", seed=SEED, output=out, overwrite=True, spark=spark)
    assert tree(out) == {"keep.txt": b"mine\n"}
    assert sorted(os.listdir(dataset)) == ["data", "other.txt", "out"]


def test_a_non_empty_output_names_the_flag_of_each_front_end(spark, dataset):
    out = dataset / "full"
    out.mkdir()
    (out / "keep.txt").write_bytes(b"mine\n")
    with pytest.raises(OutputNotEmpty, match=r"pass overwrite=True"):
        shuffle(dataset / "data", seed=SEED, output=out, spark=spark)
    r = cli(str(dataset / "data"), str(out), "--seed", SEED)
    assert r.returncode == 1 and "pass --overwrite" in r.stderr and "overwrite=True" not in r.stderr
    assert tree(out) == {"keep.txt": b"mine\n"}
