"""``python -m fairdeck.spark bench IN... [--master M] [--rounds R]``: fairdeck's
shuffle against Spark's ``orderBy(rand(seed))`` on the same input and master.

Both run in one Spark session, alternating (fairdeck, orderBy, fairdeck, ...)
after one warm-up run of each (JVM compilation, Python workers, the page
cache). Each run writes to a fresh directory under ``--work`` (removed after).
Printed: the wall time of every run, the medians and their ratio, and for
the last run of each the work per stage from Spark's status API (executor
CPU time and bytes through the shuffle), which is where the time goes.
"""

from __future__ import annotations

import json
import shutil
import statistics
import tempfile
import time
import urllib.request


def _stages(spark, since: int) -> list[dict]:
    """The stages submitted since stage id ``since``, from the UI's REST API."""
    url = spark.sparkContext.uiWebUrl
    if not url:
        return []
    app = spark.sparkContext.applicationId
    with urllib.request.urlopen(f"{url}/api/v1/applications/{app}/stages", timeout=10) as r:
        stages = json.load(r)
    return sorted((s for s in stages if s["stageId"] >= since and s.get("numTasks")),
                  key=lambda s: s["stageId"])


def _settled(spark, since: int, seconds: float = 10.0) -> list[dict]:
    """The stages since ``since`` once the status store has them all
    finished (it learns of them a moment after the job returns)."""
    if not spark.sparkContext.uiWebUrl:
        return []
    deadline = time.monotonic() + seconds
    while True:
        stages = _stages(spark, since)
        done = stages and all(s.get("status") in ("COMPLETE", "SKIPPED", "FAILED") for s in stages)
        if done or time.monotonic() > deadline:
            return stages
        time.sleep(0.2)


def _next_stage(spark) -> int:
    stages = _stages(spark, 0)
    return max((s["stageId"] for s in stages), default=-1) + 1


def run(spark, paths: list[str], fmt: str, rounds: int, work: str | None) -> dict:
    from pyspark.sql.functions import rand

    from fairdeck.spark import shuffle

    root = tempfile.mkdtemp(prefix="fairdeck-spark-bench-", dir=work)
    reader = spark.read.text if fmt == "text" else spark.read.parquet
    runs = {
        "fairdeck": lambda out: shuffle(paths, seed="fairdeck bench", output=out, spark=spark,
                                        format=fmt),
        "orderBy(rand(7))": lambda out: getattr(
            reader(paths).orderBy(rand(7)).write, fmt)(out),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    stages: dict[str, list[dict]] = {}
    try:
        for round_ in range(rounds + 1):
            for name, job in runs.items():
                out = f"{root}/{name.split('(')[0]}-{round_}"
                first = _next_stage(spark)
                start = time.perf_counter()
                job(out)
                elapsed = time.perf_counter() - start
                shutil.rmtree(out, ignore_errors=True)
                if round_ > 0:  # round 0 warms up
                    times[name].append(elapsed)
                    stages[name] = _settled(spark, first)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"times": times, "stages": stages}


def report(result: dict, master: str) -> str:
    times = result["times"]
    med = {name: statistics.median(t) for name, t in times.items()}
    lines = [f"wall time, s, on {master} ({len(next(iter(times.values())))} rounds after a warm-up)"]
    for name, t in times.items():
        spread = ", ".join(f"{x:.1f}" for x in t)
        lines.append(f"  {name:<18} median {med[name]:6.1f}  [{min(t):.1f}-{max(t):.1f}]  ({spread})")
    fd, ob = med["fairdeck"], med["orderBy(rand(7))"]
    ratios = [b / a for a, b in zip(times["fairdeck"], times["orderBy(rand(7))"])]
    lines.append(f"  orderBy / fairdeck: {ob / fd:.2f}x (per round {min(ratios):.2f}-{max(ratios):.2f})")
    if not any(result["stages"].values()):
        lines.append("stages: not available (the Spark UI, whose status API gives them, is off)")
    for name, stages in result["stages"].items():
        if not stages:
            continue
        lines.append(f"stages of the last {name} run: executor CPU s, tasks, shuffle MB written/read")
        for s in stages:
            lines.append(
                f"  {s['stageId']:>4} {s.get('executorCpuTime', 0) / 1e9:7.1f} s cpu "
                f"{s.get('executorRunTime', 0) / 1e3:7.1f} s run {s['numTasks']:>4} tasks "
                f"{s.get('shuffleWriteBytes', 0) / 1e6:8.1f} / {s.get('shuffleReadBytes', 0) / 1e6:8.1f} MB"
            )
    return "\n".join(lines)
