"""Shared fixtures: the real `fairdeck` binary, for CLI <-> Python equality tests."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def fairdeck_bin():
    """Path of the `fairdeck` binary: $FAIRDECK_BIN (scripts/test-python sets
    it), else target/release/fairdeck, built with cargo when missing."""
    path = os.environ.get("FAIRDECK_BIN") or str(REPO / "target" / "release" / "fairdeck")
    if not pathlib.Path(path).exists():
        subprocess.run(
            ["cargo", "build", "--release", "--quiet", "-p", "fairdeck-cli"], cwd=REPO, check=True
        )
    return path


@pytest.fixture(scope="session")
def cli_json(fairdeck_bin):
    """Runs `fairdeck ARGS --format json` and returns the parsed document."""

    def run(*args):
        done = subprocess.run(
            [fairdeck_bin, *map(str, args), "--format", "json"],
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(done.stdout)

    return run


@pytest.fixture(scope="session")
def cli_lines(fairdeck_bin):
    """Runs `fairdeck ARGS` and returns its standard output's lines."""

    def run(*args, stdin=None):
        done = subprocess.run(
            [fairdeck_bin, *map(str, args)], input=stdin, capture_output=True, text=True, check=True
        )
        return done.stdout.splitlines()

    return run
