"""Issue 24 item 5 (part): `integers(low, high=None, size=None, dtype=np.int64, endpoint=False)`
as numpy has it: array bounds broadcast (each element its own exact range), `dtype=`,
and numpy's argument order."""

from __future__ import annotations

import numpy as np
import pytest

import fairdeck


def test_array_bounds_broadcast_like_numpy():
    g = fairdeck.Generator("broadcast")
    x = g.integers([1, 5], [10, 20])
    assert x.shape == (2,) and 1 <= x[0] < 10 and 5 <= x[1] < 20
    y = g.integers(0, [10, 100, 1000], size=(400, 3))
    assert y.shape == (400, 3)
    assert (y < np.array([10, 100, 1000])).all() and (y >= 0).all()
    assert y[:, 2].max() > 100, "the third column uses its own, larger range"
    z = g.integers([3, 5])  # high=None: [0, 3) and [0, 5)
    assert (z < [3, 5]).all()
    assert g.integers([1, 2], [3, 4], endpoint=True).tolist() <= [3, 4]
    with pytest.raises(ValueError):
        g.integers([1, 2, 3], [4, 5])
    with pytest.raises(ValueError):
        g.integers([5, 1], [3, 4])  # an empty range in one element
    assert np.array_equal(
        fairdeck.Generator("r").integers(0, [5, 6, 7], size=(2, 3)),
        fairdeck.Generator("r").integers(0, [5, 6, 7], size=(2, 3)),
    )


def test_each_element_is_uniform_on_its_range_and_a_biased_range_is_caught():
    # 60,000 draws of a 6-sided range per column. The bound 20.52 is the 0.999 quantile of
    # chi-square with 5 degrees of freedom: false alarm 1e-3 per column, fixed seed. The
    # negative control (the columns' counts judged as if the range were 0..6 with 6 twice
    # as likely) exceeds it.
    x = fairdeck.Generator("columns").integers([0, 10], [6, 16], size=(60_000, 2))
    for col, low in ((0, 0), (1, 10)):
        counts = np.bincount(x[:, col] - low, minlength=6)
        expected = np.full(6, 10_000)
        assert ((counts - expected) ** 2 / expected).sum() < 20.52
    skewed = np.array([1, 1, 1, 1, 1, 2]) / 7 * 60_000
    counts = np.bincount(x[:, 0], minlength=6)
    assert ((counts - skewed) ** 2 / skewed).sum() > 20.52


def test_dtype_like_numpy():
    g = fairdeck.Generator("dtype")
    assert g.integers(0, 100, size=5, dtype=np.int8).dtype == np.int8
    assert isinstance(g.integers(0, 100, dtype=np.int16), np.int16)
    assert g.integers(0, 2, size=10, dtype=bool).dtype == np.bool_
    assert g.integers(0, 10, 5, np.uint32).dtype == np.uint32  # numpy's positional order
    # A bound outside the dtype is refused whatever the draw, as numpy refuses it.
    for call in (lambda r: r.integers(0, 300, dtype=np.int8), lambda r: r.integers(-1, 5, dtype=np.uint8)):
        with pytest.raises(ValueError, match="out of bounds for"):
            call(g)
        with pytest.raises(ValueError, match="out of bounds for"):
            call(np.random.default_rng(0))
    with pytest.raises(TypeError):
        g.integers(0, 10, dtype=np.float64)
