"""The same input and seed give byte-identical parts on local[1] (plain
python, the CLI), local[2] with another default parallelism (spark-submit),
and a standalone master with two workers on 127.0.0.1 (spark-submit)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pyspark
import pytest
from conftest import SEED, expected, parts

import fairdeck.spark.__main__ as cli

SPARK_HOME = os.path.dirname(pyspark.__file__)
ENV = {**os.environ, "SPARK_HOME": SPARK_HOME, "SPARK_LOCAL_IP": "127.0.0.1",
       "PYSPARK_PYTHON": sys.executable}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, check, seconds: float) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(1)
    raise TimeoutError(f"{what} not ready after {seconds:.0f} s")


def spark_submit(master: str, *args: str, conf: dict | None = None) -> subprocess.CompletedProcess:
    confs = [x for k, v in (conf or {}).items() for x in ("--conf", f"{k}={v}")]
    cmd = [os.path.join(SPARK_HOME, "bin", "spark-submit"), "--master", master,
           "--conf", f"spark.pyspark.python={sys.executable}", *confs, cli.__file__, *args]
    return subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A standalone master and two one-core workers, stopped at the end."""
    logs = tmp_path_factory.mktemp("cluster")
    port, ui = free_port(), free_port()
    spark_class = os.path.join(SPARK_HOME, "bin", "spark-class")
    procs = []

    def start(name, *args):
        log = open(logs / f"{name}.log", "w")
        procs.append(subprocess.Popen([spark_class, *args], env=ENV, stdout=log, stderr=log))

    def workers() -> int:
        with urllib.request.urlopen(f"http://127.0.0.1:{ui}/json", timeout=5) as r:
            return json.load(r).get("aliveworkers", 0)

    try:
        start("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
              "--port", str(port), "--webui-port", str(ui))
        wait_for("the master", lambda: workers() >= 0, 120)
        for i in range(2):
            start(f"worker{i}", "org.apache.spark.deploy.worker.Worker", f"spark://127.0.0.1:{port}",
                  "--host", "127.0.0.1", "--cores", "1", "--memory", "1g", "--webui-port", "0",
                  "--work-dir", str(logs / f"work{i}"))
        wait_for("two workers", lambda: workers() == 2, 120)
        yield f"spark://127.0.0.1:{port}"
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


def test_local_one_core_from_plain_python(text_input, tmp_path):
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "fairdeck.spark", "shuffle", str(text_input), str(out),
                          "--seed", SEED, "--buckets", "4", "--split-bytes", "50", "--master", "local[1]"],
                         env=ENV, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "703 rows in 4 parts" in run.stdout and "seed: " in run.stdout
    assert parts(out) == expected(SEED, 4)


def test_spark_submit_with_another_default_parallelism(text_input, tmp_path):
    out = tmp_path / "out"
    run = spark_submit("local[2]", "shuffle", str(text_input), str(out), "--seed", SEED,
                       "--buckets", "4", conf={"spark.default.parallelism": "7",
                                               "spark.sql.shuffle.partitions": "3"})
    assert run.returncode == 0, run.stderr[-2000:]
    assert parts(out) == expected(SEED, 4)


def test_standalone_cluster_with_two_workers(cluster, text_input, tmp_path):
    out = tmp_path / "out"
    run = spark_submit(cluster, "shuffle", str(text_input), str(out), "--seed", SEED,
                       "--buckets", "4", "--split-bytes", "211",
                       conf={"spark.executor.memory": "512m", "spark.default.parallelism": "5"})
    assert run.returncode == 0, run.stderr[-2000:]
    assert parts(out) == expected(SEED, 4)


def test_cli_errors_are_one_line_with_exit_codes(tmp_path):
    run = subprocess.run([sys.executable, "-m", "fairdeck.spark", "shuffle"], env=ENV,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "usage" in run.stderr
    run = subprocess.run([sys.executable, "-m", "fairdeck.spark", "shuffle", str(tmp_path / "nope"),
                          str(tmp_path / "out")], env=ENV, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [f"python -m fairdeck.spark: {tmp_path / 'nope'}: no such file or directory"]
    run = subprocess.run([sys.executable, "-m", "fairdeck.spark", "shuffle", str(tmp_path), "o",
                          "--buckets", "0"], env=ENV, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--buckets must be at least 1" in run.stderr
