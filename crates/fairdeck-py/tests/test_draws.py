"""integers, sample and choice: ranges, shapes, dtypes, distinctness, bad input."""

import numpy as np
import pytest

import fairdeck

U64_MAX = 2**64 - 1


def test_integers_scalar_and_shapes():
    g = fairdeck.Generator("ints")
    v = g.integers(6)
    assert type(v) is np.int64 and 0 <= v < 6  # numpy's scalar type
    a = g.integers(6, size=1000)
    assert a.dtype == np.int64 and a.shape == (1000,)
    assert a.min() >= 0 and a.max() <= 5 and len(set(a.tolist())) == 6
    assert g.integers(10, size=(3, 4)).shape == (3, 4)
    assert g.integers(10, size=0).shape == (0,)
    assert g.integers(1, size=5).tolist() == [0] * 5


def test_integers_over_the_whole_64_bit_range():
    g = fairdeck.Generator("wide")
    a = g.integers(U64_MAX, size=200)
    assert a.dtype == np.uint64
    assert int(a.max()) > 2**63  # half the values are above 2^63: all 200 below has p = 2^-200
    assert g.integers(2**63, size=3).dtype == np.int64


def test_integers_are_reproducible_and_exact_rolls():
    assert (
        fairdeck.Generator("r").integers(1000, size=50).tolist()
        == fairdeck.Generator("r").integers(1000, size=50).tolist()
    )


def batched_rolls(seed: str, n: int, count: int) -> list[int]:
    """The documented rule, from the raw stream: as many rolls below n as
    fit a 64-bit word (64 // bit length of n) come from one word x, each the
    high half of x·n with x replaced by the low half; the word is redrawn
    when the last low half is below 2^64 mod n^k (Lemire's rejection for
    the product n^k), so the k rolls are exactly uniform and independent."""
    words = iter(fairdeck.ChaCha20(seed).random_raw(2 * count + 64).tolist())
    return rolls_from(words, n, count)


def rolls_from(words, n: int, count: int) -> list[int]:
    """`batched_rolls` from an iterator of raw words, which it leaves just
    after the last word used (so successive calls continue the stream)."""
    per_word = max(1, 64 // n.bit_length())
    out: list[int] = []
    while len(out) < count:
        k = min(per_word, count - len(out))
        threshold = 2**64 % n**k
        while True:
            x, rolls = next(words), []
            for _ in range(k):
                m = x * n
                rolls.append(m >> 64)
                x = m % 2**64
            if x >= threshold:
                break
        out += rolls
    return out


@pytest.mark.parametrize("n", [1, 3, 6, 1000, 10**6, 2**32 - 1, 2**33 + 1, 2**64 - 1])
def test_integers_are_batched_exact_rolls_of_the_stream(n):
    got = fairdeck.Generator("r").integers(n, size=300).tolist()
    assert got == batched_rolls("r", n, 300)
    # 2000 values take several of the batches of 256 words the kernel reads
    # the stream in; no word may be skipped, used twice or drawn and left
    # unused, which the next call would show.
    g = fairdeck.Generator("r")
    words = iter(fairdeck.ChaCha20("r").random_raw(5000).tolist())
    for size in (2000, 300, 1):
        assert g.integers(n, size=size).tolist() == rolls_from(words, n, size)
    # Negative control: one roll per word (the old rule) is another sequence.
    if n > 1 and 64 // n.bit_length() > 1:
        words = fairdeck.ChaCha20("r").random_raw(300).tolist()
        assert got != [(w * n) >> 64 for w in words]


@pytest.mark.parametrize(
    "n,error,match",
    [
        (0, ValueError, "high <= 0"),
        (-1, ValueError, "high <= 0"),
        (2**64 + 1, ValueError, "out of bounds"),
        (0.5, ValueError, "high <= 0"),  # int(0.5) is 0, as numpy reads it
        (None, TypeError, "NoneType"),
        (1j, TypeError, "complex"),
        (float("nan"), ValueError, "NaN"),
    ],
)
def test_integers_bad_n(n, error, match):
    with pytest.raises(error, match=match):
        fairdeck.Generator("bad").integers(n)


def test_integers_accepts_numpy_integers():
    assert 0 <= fairdeck.Generator("np").integers(np.int64(10)) < 10
    assert fairdeck.Generator("np").integers(np.uint64(U64_MAX)) >= 0


def test_sample_is_distinct_for_every_density():
    g = fairdeck.Generator("sample")
    for k, n in [(0, 10), (10, 10), (5, 90), (1000, 1_000_000), (3, U64_MAX), (5000, 6000)]:
        s = g.sample(k, n)
        assert len(s) == k and len(set(s.tolist())) == k
        assert all(0 <= int(v) < n for v in s)
    assert g.sample(3, U64_MAX).dtype == np.uint64
    assert g.sample(3, 100).dtype == np.int64


def test_sample_bad_input():
    g = fairdeck.Generator("bad")
    with pytest.raises(ValueError, match="cannot pick 11 distinct values from range"):
        g.sample(11, 10)
    # No cap of its own (it was 2**28): as much as memory holds, about 32
    # bytes a value, and MemoryError beyond, as numpy's choice.
    with pytest.raises(MemoryError, match="sample: memory exhausted"):
        g.sample(2**40, U64_MAX)
    with pytest.raises(ValueError, match="non-negative"):
        g.sample(-1, 10)
    with pytest.raises(ValueError, match="non-negative"):
        g.sample(1, -10)
    with pytest.raises(OverflowError):
        g.sample(1, 2**64)
    with pytest.raises(TypeError):
        g.sample(1.0, 10)


def test_choice_from_a_range_and_from_an_array():
    g = fairdeck.Generator("choice")
    assert 0 <= g.choice(10) < 10
    picks = g.choice(10, size=10, replace=False)
    assert sorted(picks.tolist()) == list(range(10))
    words = np.array(["ace", "king", "queen", "jack"])
    assert g.choice(words) in set(words.tolist())
    assert set(g.choice(words, size=(2, 2), replace=False).ravel().tolist()) == set(words.tolist())
    assert g.choice(["a", "b"], size=100).shape == (100,)
    rows = np.arange(12).reshape(4, 3)
    chosen = g.choice(rows, size=2, replace=False)
    assert chosen.shape == (2, 3) and (chosen[:, 1] == chosen[:, 0] + 1).all()


def test_choice_without_replacement_is_sample():
    assert (
        fairdeck.Generator("same").choice(1000, size=20, replace=False).tolist()
        == fairdeck.Generator("same").sample(20, 1000).tolist()
    )


def test_choice_bad_input():
    g = fairdeck.Generator("bad")
    with pytest.raises(ValueError, match="population of 3"):
        g.choice(3, size=4, replace=False)
    with pytest.raises(ValueError, match="empty"):
        g.choice([], size=2)
    with pytest.raises(ValueError, match="at least one axis"):
        g.choice(np.array(2.5))
    with pytest.raises(ValueError, match="non-negative"):
        g.choice(5, size=-1)
