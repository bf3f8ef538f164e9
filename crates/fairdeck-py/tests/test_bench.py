"""The speed harness itself (`python -m fairdeck.bench`): it runs every case,
reports medians and spreads, and tells a slower side from a faster one.
Speed is never asserted here, only that the measurement is sound."""

import json

import fairdeck
from fairdeck import bench


def test_small_run_reports_every_case_as_json(capsys):
    bench.main(["--small", "--json"])
    document = json.loads(capsys.readouterr().out)
    names = [row["case"]["name"] for row in document["rows"]]
    assert names[0] == "shuffle n=52 (one deck)"
    assert any(name.startswith("permuted") for name in names)
    assert any(name.startswith("choice") and "replace=F" in name for name in names)
    for row in document["rows"]:
        rounds = row["case"]["rounds"]
        assert len(row["numpy_ns"]) == len(row["fairdeck_ns"]) == rounds
        assert all(ns > 0 for ns in row["numpy_ns"] + row["fairdeck_ns"])
        assert row["verdict"] == "met" or row["verdict"].startswith("missed by")


def test_small_run_prints_the_table(capsys):
    bench.main(["--small", "--generator", "xoshiro256pp", "--threads", "2"])
    out = capsys.readouterr().out
    assert "median of rounds" in out and "xoshiro256pp" in out
    assert "vs numpy [min-max]" in out


def test_only_runs_the_named_cases_and_deck_calls_are_timed_per_call(capsys):
    bench.main(["--small", "--json", "--only", "integers(1e4"])
    names = [row["case"]["name"] for row in json.loads(capsys.readouterr().out)["rows"]]
    assert names == ["integers(1e4, size=1e4)"]
    bench.main(["--small", "--only", "one deck", "--dtype", "uint32"])
    out = capsys.readouterr().out
    assert "shuffle n=52 (one deck): fairdeck" in out and "permutation(52) (one deck): fairdeck" in out
    assert "ns per call" in out and "target < 190 ns" in out
    assert "n=1e4" not in out
    # The default generator's header names the keystream's backend.
    backend = fairdeck._fairdeck._chacha20_backend
    assert backend in ("AVX-512", "AVX2", "SSE2", "NEON", "portable")
    assert f"chacha20 ({backend} keystream)" in out


def busy(units: int) -> None:
    total = 0
    for i in range(units):
        total += i


def test_a_slower_side_is_a_ratio_below_one_and_a_miss():
    # Negative control: "fairdeck" here does ten times the work of "numpy".
    case = bench.Case("control", 1, 3, 5, 1.0)
    row = bench.run_case(case, lambda: busy(2_000), lambda: busy(20_000))
    assert row.ratio() < 0.5
    assert row.verdict().startswith("missed by")
    faster = bench.run_case(case, lambda: busy(20_000), lambda: busy(2_000))
    assert faster.ratio() > 2 and faster.verdict() == "met"
