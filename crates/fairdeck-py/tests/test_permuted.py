"""permuted: independent lanes along any axis, every dtype, threads, out=."""

import numpy as np
import pytest

import fairdeck


def test_each_row_is_a_permutation_and_x_is_unchanged():
    x = np.tile(np.arange(52), (1000, 1))
    y = fairdeck.Generator("decks").permuted(x, axis=1)
    assert (x == np.arange(52)).all()
    assert (np.sort(y, axis=1) == np.arange(52)).all()
    assert len({tuple(r) for r in y.tolist()}) == 1000


def test_rows_follow_the_shuffle_of_each_row_in_turn():
    x = np.tile(np.arange(20), (5, 1))
    y = fairdeck.Generator("in turn").permuted(x, axis=1)
    g = fairdeck.Generator("in turn")
    expected = [g.permutation(20).tolist() for _ in range(5)]
    assert y.tolist() == expected


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.complex128])
def test_rows_over_several_blocks_follow_each_rows_shuffle(dtype):
    # 3000 rows of 52 are three blocks of about 2**16 items: copied and
    # shuffled block by block, they must draw as row-by-row shuffles do,
    # into a fresh array, into out, and from x in another order.
    x = np.tile(np.arange(52).astype(dtype), (3000, 1))
    g = fairdeck.Generator("blocks")
    expected = np.array([g.permutation(52) for _ in range(3000)]).astype(dtype)
    assert (fairdeck.Generator("blocks").permuted(x, axis=1) == expected).all()
    out = np.empty_like(x)
    fairdeck.Generator("blocks").permuted(x, axis=1, out=out)
    assert (out == expected).all()
    fortran = np.asfortranarray(x)
    assert (fairdeck.Generator("blocks").permuted(fortran, axis=1) == expected).all()
    read_only = x.copy()
    read_only.flags.writeable = False
    assert (fairdeck.Generator("blocks").permuted(read_only, axis=1) == expected).all()


@pytest.mark.parametrize("axis", [0, 1, 2, -1, None])
def test_any_axis(axis):
    x = np.arange(4 * 5 * 6).reshape(4, 5, 6)
    y = fairdeck.Generator("axes").permuted(x, axis=axis)
    assert y.shape == x.shape
    if axis is None:
        assert sorted(y.ravel().tolist()) == list(range(120))
    else:
        assert (np.sort(y, axis=axis) == x).all()


def test_odd_item_sizes_and_objects():
    x = np.array([[f"s{i}" for i in range(7)]] * 30)  # U3: 12 bytes
    y = fairdeck.Generator("odd").permuted(x, axis=1)
    assert all(sorted(r) == sorted(x[0].tolist()) for r in y.tolist())
    z = fairdeck.Generator("obj").permuted(x.astype(object), axis=1)
    assert all(sorted(r) == sorted(x[0].tolist()) for r in z.tolist())


def test_threads_same_result_for_every_count():
    x = np.tile(np.arange(52, dtype=np.int64), (5000, 1))
    a = fairdeck.Generator("t").permuted(x, axis=1, threads=1)
    b = fairdeck.Generator("t").permuted(x, axis=1, threads=2)
    assert (a == b).all() and (np.sort(a, axis=1) == np.arange(52)).all()


def test_out():
    x = np.tile(np.arange(10), (3, 1))
    out = np.empty_like(x)
    r = fairdeck.Generator("out").permuted(x, axis=1, out=out)
    assert r is out and (np.sort(out, axis=1) == x).all()
    with pytest.raises(ValueError, match="shape"):
        fairdeck.Generator("out").permuted(x, axis=1, out=np.empty((2, 10)))


OUT_CASES = [
    (np.arange(100 * 52).reshape(100, 52), 1),
    (np.arange(100 * 52, dtype=np.int8).reshape(100, 52), -1),
    (np.arange(4 * 5 * 6).reshape(4, 5, 6), 2),
    (np.arange(4 * 5 * 6).reshape(4, 5, 6), None),
    (np.arange(4 * 5 * 6).reshape(4, 5, 6), 0),  # lanes not along the last axis
    (np.asfortranarray(np.arange(30 * 7).reshape(30, 7)), 1),  # x in another order
    (np.array([[f"s{i}" for i in range(7)]] * 30), 1),  # 12-byte items: through indexes
    (np.arange(30 * 7).reshape(30, 7).astype(object), 1),
    (np.arange(1000), 0),
]


@pytest.mark.parametrize("threads", [None, 2])
@pytest.mark.parametrize("x,axis", OUT_CASES)
def test_out_gives_what_a_fresh_array_gives_in_every_layout(x, axis, threads):
    expected = fairdeck.Generator("into").permuted(x, axis=axis, threads=threads)
    outs = {
        "C order": np.empty(x.shape, x.dtype),  # shuffled in out itself
        "F order": np.empty(x.shape, x.dtype, order="F"),  # through a copy
        "x itself": x.copy(),
    }
    for name, out in outs.items():
        source = out if name == "x itself" else x
        got = fairdeck.Generator("into").permuted(source, axis=axis, out=out, threads=threads)
        assert got is out, name
        assert (out == expected).all(), name


def test_out_of_the_same_dtype_needs_no_array_besides_it():
    # numpy reports its arrays' memory to tracemalloc: a copy of x would show.
    import tracemalloc

    x = np.tile(np.arange(52, dtype=np.int64), (20_000, 1))  # 8.3 MB
    for out, bound in [(np.empty_like(x), x.nbytes // 8), (np.empty(x.shape, np.float64), None)]:
        tracemalloc.start()
        try:
            fairdeck.Generator("mem").permuted(x, axis=1, out=out)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        if bound is None:
            # The negative control: another dtype goes through a copy of x.
            assert peak >= x.nbytes, peak
        else:
            assert peak < bound, peak
    assert (np.sort(out, axis=1) == np.arange(52)).all()


def test_bad_axis_and_empty():
    g = fairdeck.Generator("bad")
    with pytest.raises(ValueError, match="out of bounds"):
        g.permuted(np.zeros((2, 3)), axis=2)
    assert g.permuted(np.zeros((0, 3)), axis=1).shape == (0, 3)
    assert g.permuted(np.zeros((3, 0)), axis=1).shape == (3, 0)
    assert g.permuted([3, 1, 2]).shape == (3,)


def lanes_of(dtype, rows, m):
    """A (rows, m) array of `dtype` whose items in each row are all different."""
    values = np.arange(rows * m).reshape(rows, m)
    dtype = np.dtype(dtype)
    if dtype.names:
        x = np.zeros((rows, m), dtype)
        for name in dtype.names:
            x[name] = values
        return x
    if dtype.kind == "V":
        return values.astype("<u8").view("V8").astype(dtype)
    return values.astype(dtype)


ODD_DTYPES = ["U3", "S3", "S5", "V12", "i4,f8", "S7", "i2,i1"]


@pytest.mark.parametrize("dtype", ODD_DTYPES)
@pytest.mark.parametrize("threads", [None, 2])
def test_lanes_of_any_item_width_are_permuted(dtype, threads):
    # Issue 35 item 2: items not 1, 2, 4, 8 or 16 bytes wide failed with
    # "cannot reshape array of size 18" along an axis.
    x = lanes_of(dtype, 40, 9)
    assert x.dtype.itemsize not in (1, 2, 4, 8, 16)
    y = fairdeck.Generator("odd widths").permuted(x, axis=1, threads=threads)
    assert y.shape == x.shape and y.dtype == x.dtype
    for row, new in zip(x.tolist(), y.tolist()):
        assert sorted(map(repr, new)) == sorted(map(repr, row)), "a row is not a permutation of itself"
    assert y.tolist() != x.tolist()
    # Along axis 0 (columns) too, and on a 3-d array's middle axis.
    z = fairdeck.Generator("odd widths").permuted(x, axis=0)
    for col, new in zip(x.T.tolist(), z.T.tolist()):
        assert sorted(map(repr, new)) == sorted(map(repr, col))
    w = fairdeck.Generator("odd widths").permuted(x.reshape(4, 10, 9), axis=1)
    assert sorted(map(repr, w.ravel().tolist())) == sorted(map(repr, x.ravel().tolist()))


@pytest.mark.parametrize("shape", [(2, 3), (1, 2), (3, 1)])
def test_the_issues_small_shapes(shape):
    x = lanes_of("U3", *shape)
    y = fairdeck.Generator(0).permuted(x, axis=1)
    assert sorted(y.ravel().tolist()) == sorted(x.ravel().tolist())
    assert (np.sort(y, axis=1) == np.sort(x, axis=1)).all()
