"""Generator.shuffle and permutation: permutations, reproducibility, every dtype, bad input."""

import numpy as np
import pytest

import fairdeck

# The ChaCha20 order of 0..19 for seed "fairdeck", pinned by the Rust
# library's value-stability test (crates/fairdeck/src/shuffle.rs).
PINNED = [9, 10, 2, 13, 16, 15, 5, 7, 19, 0, 8, 11, 4, 1, 6, 17, 18, 12, 3, 14]


def test_permutation_matches_the_rust_library():
    assert fairdeck.Generator("fairdeck").permutation(20).tolist() == PINNED


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.int64, np.complex128])
def test_shuffle_in_place_is_a_permutation_with_the_pinned_order(dtype):
    a = np.arange(20).astype(dtype)
    fairdeck.Generator("fairdeck").shuffle(a)
    assert a.tolist() == np.array(PINNED).astype(dtype).tolist()


def test_shuffle_list():
    items = [str(i) for i in range(20)]
    fairdeck.Generator("fairdeck").shuffle(items)
    assert items == [str(i) for i in PINNED]


def test_seed_reads_back_and_replays():
    g = fairdeck.Generator()
    assert len(g.seed) == 64 and int(g.seed, 16) >= 0
    first = g.permutation(52)
    assert fairdeck.Generator(g.seed).permutation(52).tolist() == first.tolist()
    assert fairdeck.Generator().seed != g.seed
    # numpy's repr, no key (tests/test_numpy_generator.py checks every repr).
    assert repr(g).startswith("Generator(ChaCha20) at 0x") and g.seed not in repr(g)


def test_the_stream_continues_between_calls():
    g = fairdeck.Generator("stream")
    assert g.permutation(30).tolist() != g.permutation(30).tolist()


def test_generators_differ_and_are_named():
    a = fairdeck.Generator("x", "chacha20")
    b = fairdeck.Generator("x", "xoshiro256pp")
    assert (a.generator, b.generator) == ("chacha20", "xoshiro256pp")
    assert a.permutation(30).tolist() != b.permutation(30).tolist()


def test_reduced_round_chacha_is_accepted_and_replays():
    for name in ["chacha12", "chacha8"]:
        g = fairdeck.Generator("x", name)
        assert g.generator == name
        assert g.permutation(30).tolist() == fairdeck.Generator("x", name).permutation(30).tolist()
        other = fairdeck.Generator("x").permutation(30).tolist()
        assert fairdeck.Generator("x", name).permutation(30).tolist() != other


def is_permutation_of(after, before):
    return sorted(after.tolist()) == sorted(before.tolist())


STRUCT = np.dtype([("rank", np.int32), ("suit", "S1"), ("weight", np.float32)])  # 9 bytes, packed


@pytest.mark.parametrize(
    "make",
    [
        lambda n: np.arange(n) % 2 == 0,
        lambda n: np.arange(n).astype("datetime64[s]"),
        lambda n: np.array([f"w{i}" for i in range(n)]),  # U-strings: 4 bytes per char
        lambda n: np.array([f"w{i}" for i in range(n)], dtype="S6"),
        lambda n: np.array([(i, b"s", i / 2) for i in range(n)], dtype=STRUCT),
        lambda n: np.array([(i, f"o{i}") for i in range(n)], dtype=[("a", np.int64), ("o", object)]),
        lambda n: np.array([{"card": i} for i in range(n)], dtype=object),
        lambda n: np.arange(n, dtype=np.float16),
        lambda n: np.arange(n, dtype=np.longdouble),
    ],
    ids=["bool", "datetime", "unicode", "bytes", "struct9", "struct-object", "object", "f16", "f128"],
)
@pytest.mark.parametrize("n", [0, 1, 2, 53, 3000])
def test_every_dtype_is_shuffled_as_a_permutation(make, n):
    a = make(n)
    before = a.copy()
    fairdeck.Generator("dtypes").shuffle(a)
    assert sorted(map(repr, a.tolist())) == sorted(map(repr, before.tolist()))
    if n >= 53:
        assert a.tolist() != before.tolist()


def test_structured_and_odd_sizes_follow_the_int64_order():
    idx = fairdeck.Generator("odd").permutation(500)
    a = np.array([(i, b"s", i) for i in range(500)], dtype=STRUCT)
    fairdeck.Generator("odd").shuffle(a)
    assert a["rank"].tolist() == idx.tolist()


def test_rows_of_a_2d_array_move_as_units():
    x = np.arange(200 * 3).reshape(200, 3)
    fairdeck.Generator("rows").shuffle(x)
    assert (x[:, 1] == x[:, 0] + 1).all() and (x[:, 2] == x[:, 0] + 2).all()
    assert sorted(x[:, 0].tolist()) == list(range(0, 600, 3))
    # Rows of 8 bytes shuffle in place like int64 items: the int64 order.
    y = np.arange(400, dtype=np.int32).reshape(200, 2)
    fairdeck.Generator("rows").shuffle(y)
    assert (y[:, 0] // 2).tolist() == fairdeck.Generator("rows").permutation(200).tolist()


@pytest.mark.parametrize("view", ["step", "reverse", "column", "unaligned"])
def test_non_contiguous_views_are_shuffled_in_place_with_the_same_order(view):
    base = np.arange(2000, dtype=np.int64)
    if view == "step":
        x = base[::2]
    elif view == "reverse":
        x = base[::-1]
    elif view == "column":
        x = base.reshape(1000, 2)[:, 1]
    else:
        raw = np.zeros(8 * 1000 + 1, dtype=np.uint8)
        x = raw[1:].view(np.int64)
        x[:] = np.arange(1000)
        assert not x.flags.aligned
    before = x.copy()
    fairdeck.Generator("views").shuffle(x)
    assert is_permutation_of(x, before)
    expected = before.copy()
    fairdeck.Generator("views").shuffle(expected)
    assert x.tolist() == expected.tolist()


def test_permutation_of_an_array_leaves_it_alone():
    x = np.arange(100)
    y = fairdeck.Generator("copy").permutation(x)
    assert x.tolist() == list(range(100)) and is_permutation_of(y, x)
    assert fairdeck.Generator("copy").permutation([1, 2, 3]).shape == (3,)
    assert fairdeck.Generator("copy").permutation(np.int64(7)).shape == (7,)


def test_threads_give_the_same_order_for_every_count():
    n = 3_000_000  # above the 8 MiB threshold of the bucket shuffle
    runs = []
    for threads in [1, 2, 3]:
        a = np.arange(n, dtype=np.int64)
        fairdeck.Generator("threads").shuffle(a, threads=threads)
        runs.append(a)
    assert (runs[0] == runs[1]).all() and (runs[0] == runs[2]).all()
    assert np.array_equal(np.sort(runs[0]), np.arange(n))
    assert (runs[0] == np.arange(n)).sum() < 20


@pytest.mark.parametrize("n", [3_000_000, 17_000_000])
def test_large_arrays_stay_permutations(n):
    # 12 MiB of uint32 is shuffled by Fisher–Yates, 68 MiB by the scatter shuffle.
    a = np.arange(n, dtype=np.uint32)
    fairdeck.Generator("big").shuffle(a)
    assert np.array_equal(np.sort(a), np.arange(n, dtype=np.uint32))
    assert (a == np.arange(n)).sum() < 20


def test_bad_input_raises_clear_errors():
    g = fairdeck.Generator("bad")
    with pytest.raises(TypeError, match="numpy array or a mutable sequence"):
        g.shuffle((1, 2, 3))
    with pytest.raises(TypeError, match="numpy array or a mutable sequence"):
        g.shuffle("abc")
    with pytest.raises(TypeError, match="0-d"):  # numpy: TypeError
        g.shuffle(np.array(5))
    frozen = np.arange(10)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        g.shuffle(frozen)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        g.shuffle(np.arange(10), threads=0)
    with pytest.raises(TypeError):
        g.shuffle(np.arange(10), threads=1.5)
    assert g.permutation(-3).shape == (0,)  # numpy's arange(-3): empty
    with pytest.raises(ValueError, match="too big"):  # numpy: ValueError too (was OverflowError)
        g.permutation(2**64)


@pytest.mark.parametrize(
    "seed,error",
    [(1.5, TypeError), (b"bytes", TypeError), (["a"], TypeError), ([True], TypeError)],
)
def test_bad_seeds(seed, error):
    with pytest.raises(error, match="seed must be"):
        fairdeck.Generator(seed)


def test_bad_generator_name():
    with pytest.raises(ValueError, match="unknown generator"):
        fairdeck.Generator("x", "mt19937")


def test_seed_text_and_hex_key():
    hex_key = "5eed00000000000000000000000000000000000000000000000000000000cafe"
    assert fairdeck.Generator(hex_key).seed == hex_key
    assert fairdeck.Generator(hex_key.upper()).seed == hex_key
    # SHA-256("abc"), the FIPS 180-2 test vector: any other text is hashed.
    assert fairdeck.Generator("abc").seed == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
