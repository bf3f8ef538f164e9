"""Inputs as Spark's readers take them (issue 35, item 10): Hadoop glob
patterns and ``file:`` URIs are read as Spark reads them -- checked against
Spark's own globbing -- and the overlap checks apply to what they match.
All but the last two tests run without a JVM."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import SEED, expected, parts, text_files
from test_output import cli, tree

from fairdeck.spark import shuffle
from fairdeck.spark._glob import PatternError, component_regex, expand_braces, local_path
from fairdeck.spark._listing import list_inputs


@pytest.mark.parametrize("pattern,want", [
    ("a{b,c}d", ["abd", "acd"]),
    ("{ab,c{de,fh}}", ["ab", "cde", "cfh"]),
    ("{in/a,out}/*", ["in/a/*", "out/*"]),
    ("x\\{a,b}", ["x\\{a,b}"]),
    ("[{]{1,2}", ["[{]1", "[{]2"]),
    ("{a}", ["a"]),
    ("plain", ["plain"]),
])
def test_braces_expand_as_hadoop_reads_them(pattern, want):
    assert expand_braces(pattern) == want


@pytest.mark.parametrize("component,names,matching", [
    ("*.txt", ["a.txt", ".txt", "a.txt.gz", "atxt"], ["a.txt", ".txt"]),
    ("i?", ["in", "i", "inn", "i."], ["in", "i."]),
    ("[a-c]x", ["ax", "cx", "dx", "-x"], ["ax", "cx"]),
    ("[^a]x", ["ax", "bx"], ["bx"]),
    ("[!a]x", ["ax", "bx"], ["bx"]),
    ("[a-]x", ["ax", "-x", "bx"], ["ax", "-x"]),
    ("a\\*", ["a*", "ab"], ["a*"]),
    ("a.b", ["a.b", "axb"], ["a.b"]),
    ("(x)+", ["(x)+", "xx"], ["(x)+"]),
])
def test_components_match_as_in_hadoop(component, names, matching):
    regex = component_regex(component)
    assert [n for n in names if regex.fullmatch(n)] == matching


@pytest.mark.parametrize("bad", ["{a,b", "in/[ab", "x{y[}"])
def test_a_malformed_pattern_is_refused(bad):
    with pytest.raises(PatternError, match="unclosed"):
        expand_braces(bad)


def test_file_uris_are_local_paths():
    assert local_path("file:/d/x") == "/d/x"
    assert local_path("file:///d/x") == "/d/x"
    assert local_path("file://localhost/d") == "/d"
    assert local_path("/d/x") is None and local_path("hdfs://n/d") is None
    with pytest.raises(ValueError, match="this machine"):
        local_path("file://elsewhere/d")


@pytest.fixture
def tree_of_inputs(tmp_path) -> Path:
    """in/{a,b,c}.txt, in/_SUCCESS, in/.hidden.txt, in/sub/d.txt, in2/e.txt, i9/f.txt, other.csv."""
    for rel in ["in/a.txt", "in/b.txt", "in/c.txt", "in/_SUCCESS", "in/.hidden.txt", "in/sub/d.txt",
                "in2/e.txt", "i9/f.txt", "other.csv", "star*/g.txt"]:
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(rel.encode() + b"\n")
    return tmp_path


# pattern (relative to the tree) -> the files read, as Spark reads them.
PATTERNS = {
    "in/*.txt": ["in/a.txt", "in/b.txt", "in/c.txt"],
    "i?": ["i9/f.txt", "in/a.txt", "in/b.txt", "in/c.txt", "in/sub/d.txt"],
    "in?": ["in2/e.txt"],
    "{in,zz}": ["in/a.txt", "in/b.txt", "in/c.txt", "in/sub/d.txt"],
    "{in2,i9}/*": ["i9/f.txt", "in2/e.txt"],
    "in/[ab].txt": ["in/a.txt", "in/b.txt"],
    "in/[^ab].txt": ["in/c.txt"],
    "*/*.txt": ["i9/f.txt", "in/a.txt", "in/b.txt", "in/c.txt", "in2/e.txt", "star*/g.txt"],
    "in/*": ["in/a.txt", "in/b.txt", "in/c.txt", "in/sub/d.txt"],
    "star\\*": ["star*/g.txt"],
    "{in/sub,other.csv}": ["in/sub/d.txt", "other.csv"],
}


def listed(root: Path, pattern: str) -> list[str]:
    return sorted(os.path.relpath(p, root) for p in list_inputs(str(root / pattern)).paths)


@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_a_glob_reads_what_it_matches(tree_of_inputs, pattern):
    assert listed(tree_of_inputs, pattern) == PATTERNS[pattern]


def test_file_uris_and_relative_patterns_are_read(tree_of_inputs, monkeypatch):
    root = tree_of_inputs
    for given in (f"file:{root}/in", f"file://{root}/in", f"file://localhost{root}/in", f"file:{root}/in/*.txt"):
        assert [os.path.basename(p) for p in list_inputs(given).paths][:3] == ["a.txt", "b.txt", "c.txt"]
    monkeypatch.chdir(root)
    assert sorted(os.path.relpath(p, root) for p in list_inputs("in/*.txt").paths) == PATTERNS["in/*.txt"]


@pytest.mark.parametrize("pattern,error,words", [
    ("in/*.csv", FileNotFoundError, "no file or directory matches this pattern"),
    ("{zz,yy}", FileNotFoundError, "no file or directory matches"),
    ("in/[ab", ValueError, "not a valid glob pattern"),
    ("{in,zz", ValueError, "not a valid glob pattern"),
])
def test_a_pattern_that_matches_nothing_or_is_malformed_is_refused(tree_of_inputs, pattern, error, words):
    with pytest.raises(error, match=words):
        list_inputs(str(tree_of_inputs / pattern))


def test_hidden_matches_are_read_as_nothing_as_spark_reads_them(tree_of_inputs):
    assert list_inputs(str(tree_of_inputs / "in/_*")).paths == []
    assert listed(tree_of_inputs, "{in/_*,in2}") == ["in2/e.txt"]


def test_the_command_refuses_an_output_inside_what_a_pattern_matches(tree_of_inputs):
    root = tree_of_inputs
    before = tree(root)
    # Before: the pattern itself was compared with the output, and missed this.
    r = cli(str(root / "i?"), str(root / "i9" / "out"), "--overwrite", "--seed", SEED)
    assert r.returncode == 1 and "lies inside the input" in r.stderr and "pattern" in r.stderr, r.stderr
    r = cli(str(root / "{in2,zz}"), str(root), "--overwrite", "--seed", SEED)
    assert r.returncode == 1 and "contains the input" in r.stderr, r.stderr
    r = cli(str(root / "in/*.zz"), str(root / "out"), "--seed", SEED)
    assert r.returncode == 1 and "no file or directory matches this pattern" in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert tree(root) == before


# ---- against Spark itself ------------------------------------------------


def test_the_listing_of_a_pattern_is_sparks(spark, tree_of_inputs):
    root = tree_of_inputs
    # Spark reads a directory's own files only (a subdirectory without "="
    # in its name is not read); fairdeck reads a directory recursively. The
    # patterns are compared on a tree where that makes no difference.
    (root / "in" / "sub" / "d.txt").unlink()
    (root / "in" / "sub").rmdir()
    for pattern in sorted(PATTERNS) + ["in/_*", "in/.h*", "i*", "*", "file:" + str(root / "in/*.txt")]:
        given = pattern if pattern.startswith("file:") else str(root / pattern)
        try:
            sparks = sorted(local_path(p) for p in spark.read.text(given).inputFiles())
        except Exception as e:  # noqa: BLE001 - Spark's AnalysisException
            assert "PATH_NOT_FOUND" in str(e) or "does not exist" in str(e), e
            with pytest.raises(FileNotFoundError):
                list_inputs(given)
            continue
        assert sorted(list_inputs(given).paths) == sparks, pattern


def test_a_glob_shuffles_the_files_it_matches(spark, text_input, tmp_path):
    shuffle(str(text_input / "[a-c].txt"), seed=SEED, buckets=4, output=tmp_path / "glob", spark=spark)
    shuffle(f"file:{text_input}", seed=SEED, buckets=4, output=tmp_path / "uri", spark=spark)
    assert parts(tmp_path / "glob") == parts(tmp_path / "uri") == expected(SEED, 4)
    assert sorted(text_files()) == ["a.txt", "b.txt", "c.txt"]
