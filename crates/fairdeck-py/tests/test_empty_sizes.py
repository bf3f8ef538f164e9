"""Issue 35 item 1: every method with a size of 0 returns what numpy returns
(an empty array of the same shape and dtype, or b""), draws nothing, and
never reaches Rust's division by zero (`choice(0, 0)` used to raise
"internal error (attempt to divide by zero)" with a Rust backtrace)."""

import subprocess
import sys

import numpy as np
import pytest

import fairdeck

# Each call is run on numpy's Generator and on fairdeck's: the results
# must have the same type, shape and dtype (and be empty).
CALLS = [
    "g.integers(5, size=0)",
    "g.integers(0, 5, size=(0, 3))",
    "g.integers(5, size=(3, 0), dtype=np.uint8)",
    "g.integers(0, 2**64, size=0, dtype=np.uint64)",
    "g.integers(0, 1, size=0)",
    "g.integers(0, 0, size=0, endpoint=True)",
    "g.integers([], [])",
    "g.integers(np.zeros((0, 2), int), 5)",
    "g.choice(0, 0)",
    "g.choice([], 0)",
    "g.choice(0, size=(0, 3))",
    "g.choice(5, 0)",
    "g.choice(1, 0)",
    "g.choice(0, 0, replace=False)",
    "g.choice(5, (0, 2), replace=False)",
    "g.choice(0, 0, replace=False, shuffle=False)",
    "g.choice(5, 0, p=[0.2] * 5)",
    "g.choice(5, 0, replace=False, p=[0.2] * 5)",
    "g.choice(np.zeros((0, 3)), 0)",
    "g.choice(np.zeros((2, 0)), 0, axis=1)",
    "g.choice(np.zeros((2, 0)), 0, axis=1, replace=False)",
    "g.choice(np.array(['a', 'b']), 0)",
    "g.permutation(0)",
    "g.permutation(np.array([], dtype=np.uint8))",
    "g.permutation(np.zeros((0, 3), 'U3'))",
    "g.permutation(np.zeros((3, 0)), axis=1)",
    "g.permuted(np.array([]))",
    "g.permuted(np.zeros((0, 3)), axis=1)",
    "g.permuted(np.zeros((3, 0), 'S3'), axis=1)",
    "g.permuted(np.zeros((0, 3), 'V12'), axis=0)",
    "g.random(0)",
    "g.random((0, 3))",
    "g.random(0, dtype=np.float32)",
    "g.random(out=np.empty((2, 0)))",
    "g.bytes(0)",
]


def numpy_like(g):
    return {"g": g, "np": np}


@pytest.mark.parametrize("call", CALLS)
def test_size_zero_gives_what_numpy_gives(call):
    want = eval(call, numpy_like(np.random.default_rng(1)))
    fd = fairdeck.Generator("empty")
    got = eval(call, numpy_like(fd))
    assert type(got) is type(want)
    if isinstance(want, bytes):
        assert got == want == b""
    else:
        assert got.shape == want.shape and got.dtype == want.dtype and got.size == 0
    # Nothing was drawn: the stream is where a fresh generator's is.
    assert fd.permutation(10).tolist() == fairdeck.Generator("empty").permutation(10).tolist()


@pytest.mark.parametrize(
    "x",
    [np.array([]), np.zeros((0, 3)), np.zeros(0, "U3"), np.zeros((0,), "i4,f8"), [], np.ma.masked_array([])],
    ids=["f8", "2d", "U3", "struct", "list", "masked"],
)
@pytest.mark.parametrize("threads", [None, 1, 2])
def test_shuffle_of_an_empty_sequence_does_nothing(x, threads):
    g = fairdeck.Generator("empty")
    assert g.shuffle(x, threads=threads) is None
    assert len(x) == 0


def test_sample_of_zero():
    g = fairdeck.Generator("empty")
    for k, n in [(0, 0), (0, 5), (0, 2**64 - 1)]:
        got = g.sample(k, n)
        assert got.size == 0 and got.dtype == (np.int64 if n <= 2**63 else np.uint64)


def test_no_rust_panic_reaches_stderr():
    # The regression's signature: a Rust panic message on stderr.
    code = (
        "import fairdeck; g = fairdeck.Generator(1); "
        "g.choice(0, 0); g.choice([], 0); g.choice(0, size=(0, 3))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "panicked" not in done.stderr and done.stderr == ""
