"""`python -m fairdeck.spark bench` (issue 24, speed): it times fairdeck's
shuffle and orderBy(rand()) on the same input, alternating, and reports the
medians, their ratio and the stages; bad arguments are usage errors. It
never asserts a speed."""

from __future__ import annotations

import re

from fairdeck.spark import _bench


def test_bench_runs_both_and_reports_medians_and_stages(spark, text_input, tmp_path):
    result = _bench.run(spark, [str(text_input)], "text", 1, str(tmp_path))
    assert set(result["times"]) == {"fairdeck", "orderBy(rand(7))"}
    assert all(len(t) == 1 and t[0] > 0 for t in result["times"].values())
    text = _bench.report(result, "local[2]")
    assert re.search(r"orderBy / fairdeck: \d+\.\d\dx", text), text
    # The tests' session runs without the UI, whose status API gives the
    # stages: the report says so instead of printing an empty table.
    assert result["stages"]["fairdeck"] == []
    assert "stages: not available" in text
    # With stages (as scripts/bench-spark prints them), each gets a line.
    stage = {"stageId": 3, "numTasks": 2, "executorCpuTime": 2e9, "executorRunTime": 3000,
             "shuffleWriteBytes": 5e6, "shuffleReadBytes": 0}
    shown = _bench.report({**result, "stages": {"fairdeck": [stage]}}, "local[2]")
    assert "stages of the last fairdeck run" in shown and "5.0 /      0.0 MB" in shown
    assert list(tmp_path.iterdir()) == []  # every run's output removed


def test_bench_bad_arguments_are_usage_errors(text_input, capsys):
    from fairdeck.spark.__main__ import main

    assert main(["bench", str(text_input), "--rounds", "0"]) == 2
    assert "--rounds must be at least 1" in capsys.readouterr().err
    assert main(["bench", str(text_input), "--master", "nowhere"]) == 2
