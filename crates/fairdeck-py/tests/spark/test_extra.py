"""The `spark` extra of crates/fairdeck-py/pyproject.toml is what the Spark
tests run with: every requirement it lists is installed at a version it
allows (issue 24: `pandas>=2.2` pulled pandas 3, which pyspark 4 does not
support and warns about on every run)."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def spark_extra() -> list[Requirement]:
    with PYPROJECT.open("rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    return [Requirement(r) for r in extras["spark"]]


def test_the_spark_extra_is_what_is_installed():
    names = set()
    for req in spark_extra():
        names.add(req.name)
        version = importlib.metadata.version(req.name)
        assert req.specifier.contains(version, prereleases=True), f"{req.name} {version} not in {req}"
    assert names == {"pyspark", "pyarrow", "pandas"}


def test_the_extra_keeps_pandas_below_3():
    pandas = next(r for r in spark_extra() if r.name == "pandas")
    assert not pandas.specifier.contains("3.0.0") and pandas.specifier.contains("2.3.3")
