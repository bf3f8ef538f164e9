"""Where numpy's ``Generator`` defines a result, fairdeck gives the same kind
of result, never silently another (issue 24, item 3): masked arrays keep
their mask with their data, ``permuted(out=)`` casts by numpy's ``safe``
rule, and ``integers(low, high)`` means what it means in numpy. Each case
runs the same call on ``numpy.random.default_rng`` and compares."""

import numpy as np
import pytest

import fairdeck


def numpy_and_fairdeck():
    return np.random.default_rng(24), fairdeck.Generator("like numpy")


# ---- masked arrays -------------------------------------------------------


def masked_1d():
    data = np.arange(40)
    return np.ma.array(data, mask=data % 3 == 0)


@pytest.mark.parametrize("make", [
    masked_1d,
    lambda: np.ma.array(np.arange(30).reshape(10, 3), mask=np.arange(30).reshape(10, 3) % 4 == 0),
    lambda: np.ma.array(np.arange(12.0), mask=np.ma.nomask),
    lambda: np.ma.array(np.array([f"s{i}" for i in range(15)]), mask=[i % 2 for i in range(15)]),
])
def test_a_masked_array_moves_its_mask_with_its_data(make):
    for g in numpy_and_fairdeck():
        x, before = make(), make()
        g.shuffle(x)
        # Every (value, masked) pair is kept: the masked values are still
        # exactly the ones that were masked, and none appears unmasked.
        pairs = sorted(zip(x.data.reshape(len(x), -1).tolist(),
                           np.ma.getmaskarray(x).reshape(len(x), -1).tolist()))
        want = sorted(zip(before.data.reshape(len(x), -1).tolist(),
                          np.ma.getmaskarray(before).reshape(len(x), -1).tolist()))
        assert pairs == want, type(g)
        assert sorted(x.compressed().tolist()) == sorted(before.compressed().tolist())


def test_a_masked_array_is_really_shuffled_and_reproducibly():
    x, y = masked_1d(), masked_1d()
    fairdeck.Generator("m").shuffle(x)
    fairdeck.Generator("m").shuffle(y)
    assert (x.data == y.data).all() and (x.mask == y.mask).all()
    assert (x.data != np.arange(40)).any()
    # The order is that of an int64 array of the same length.
    order = fairdeck.Generator("m").permutation(40)
    assert x.data.tolist() == order.tolist()


def test_a_read_only_masked_array_is_refused_untouched():
    x = masked_1d()
    x.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        fairdeck.Generator("m").shuffle(x)
    assert x.data.tolist() == list(range(40))


# ---- permuted(out=) ------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.uint64, np.float64,
                                   np.float32, np.complex128, object])
def test_permuted_out_casts_as_numpy_does(dtype):
    x = np.array([2**40, 1, 2, 3], dtype=np.int64)
    outcome = []
    for g in numpy_and_fairdeck():
        out = np.zeros(4, dtype=dtype)
        try:
            got = g.permuted(x, out=out)
        except TypeError:
            outcome.append("TypeError")
            assert (out == 0).all()
        else:
            assert got is out
            assert sorted(out.tolist(), key=abs) == sorted(x.astype(dtype).tolist(), key=abs)
            outcome.append("ok")
    assert outcome[0] == outcome[1], outcome
    # int64 into int32 would have made 2**40 into 0: refused, as numpy does.
    if dtype in (np.int32, np.int16, np.uint64, np.float32):
        assert outcome == ["TypeError", "TypeError"]


def test_a_refused_out_draws_nothing():
    x = np.arange(10, dtype=np.int64)
    g = fairdeck.Generator("out")
    with pytest.raises(TypeError, match="safe"):
        g.permuted(x, out=np.zeros(10, np.int32))
    assert g.permutation(10).tolist() == fairdeck.Generator("out").permutation(10).tolist()


@pytest.mark.parametrize("out,error", [
    ([0] * 10, TypeError),                      # not an array
    (np.zeros(9), ValueError),                   # another shape
    (np.zeros(10)[::1].view(np.ma.MaskedArray), TypeError),  # a subclass: numpy wants ndarray
])
def test_permuted_out_checks_match_numpy(out, error):
    x = np.arange(10)
    for g in numpy_and_fairdeck():
        with pytest.raises(error):
            g.permuted(x, out=out)


def test_permuted_into_a_read_only_out_is_refused_as_in_numpy():
    x = np.arange(10)
    for g in numpy_and_fairdeck():
        out = np.zeros(10)
        out.flags.writeable = False
        with pytest.raises(ValueError, match="read-only"):
            g.permuted(x, out=out)


# ---- integers(low, high) -------------------------------------------------

CASES = [
    ((5, 10), {}),
    ((5, 10, 3), {}),
    ((5, None, 3), {}),
    ((5,), {"size": (2, 3)}),
    ((-3, 3), {"size": 50}),
    ((5, 10), {"endpoint": True, "size": 50}),
    ((0,), {"endpoint": True}),
    ((2**63 - 10, 2**63), {"size": 5}),
    ((-(2**63), 2**63), {"size": 5}),
    ((-(2**63), 2**63 - 1), {"endpoint": True, "size": 5}),
    ((np.int64(5), np.int32(7)), {}),
]


def describe(value):
    """What numpy promises of a result: scalar or shape, and dtype kind."""
    if isinstance(value, np.ndarray):
        return ("array", value.shape, value.dtype)
    return ("scalar",)


@pytest.mark.parametrize("args,kwargs", CASES)
def test_integers_bounds_mean_what_they_mean_in_numpy(args, kwargs):
    rng, g = numpy_and_fairdeck()
    want, got = rng.integers(*args, **kwargs), g.integers(*args, **kwargs)
    assert describe(want) == describe(got)
    high = args[1] if len(args) > 1 and args[1] is not None else args[0]
    low = args[0] if len(args) > 1 and args[1] is not None else 0
    top = high if kwargs.get("endpoint") else high - 1
    values = np.asarray(got).ravel().tolist()
    assert all(low <= v <= top for v in values), (values, low, top)


def test_integers_5_10_is_one_value_from_5_to_9():
    # Before: ten values in [0, 5). numpy: one value in [5, 10).
    g = fairdeck.Generator("five ten")
    assert {g.integers(5, 10) for _ in range(300)} == {5, 6, 7, 8, 9}
    a = fairdeck.Generator("five ten").integers(5, 10, size=10_000)
    assert a.dtype == np.int64 and a.min() == 5 and a.max() == 9


def test_integers_one_bound_keeps_the_stream_of_before():
    # integers(n) is one roll below n per value, as before and as the CLI's
    # dice: low + roll(high - low) for two bounds.
    a = fairdeck.Generator("s").integers(1000, size=50)
    b = fairdeck.Generator("s").integers(7, 1007, size=50)
    assert (b - 7 == a).all()


@pytest.mark.parametrize("args,kwargs", [
    ((5, 5), {}), ((6, 5), {}), ((0,), {}), ((-1,), {}), ((2**64 + 1,), {}),
    ((-1, 2**63 + 1), {}), ((-(2**63) - 1, 0), {}), ((5, 4), {"endpoint": True}),
])
def test_integers_refuses_the_bounds_numpy_refuses(args, kwargs):
    rng, g = numpy_and_fairdeck()
    with pytest.raises(ValueError):
        rng.integers(*args, **kwargs)
    with pytest.raises(ValueError):
        g.integers(*args, **kwargs)


def test_integers_beyond_int64_are_uint64_a_documented_extension():
    # numpy needs dtype=np.uint64 for these; fairdeck returns uint64 itself.
    a = fairdeck.Generator("u").integers(2**64 - 1, size=100)
    assert a.dtype == np.uint64
    b = fairdeck.Generator("u").integers(0, 2**64 - 1, endpoint=True, size=100)
    assert b.dtype == np.uint64 and len(set(b.tolist())) == 100
    c = fairdeck.Generator("u").integers(2**64, size=100)  # all of uint64: raw words
    assert c.dtype == np.uint64 and c.max() >= 2**63


@pytest.mark.parametrize("bound,top", [(2.5, 1), ("7", 6), (True, 0), (np.float64(5.9), 4)])
def test_integers_reads_a_bound_as_int_of_it_as_numpy(bound, top):
    # numpy takes int(bound): 2.5 is 2, "7" is 7, True is 1.
    values = fairdeck.Generator("t").integers(bound, size=200)
    assert values.min() == 0 and values.max() == top
    assert type(np.random.default_rng(1).integers(bound)) is type(fairdeck.Generator("t").integers(bound))


@pytest.mark.parametrize("bad,error", [(None, TypeError), (1j, TypeError), (float("nan"), ValueError),
                                       (float("inf"), OverflowError)])
def test_integers_refuses_the_bounds_int_refuses(bad, error):
    for g in numpy_and_fairdeck():
        with pytest.raises(error):
            g.integers(bad)
