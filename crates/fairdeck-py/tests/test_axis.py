"""Issue 24 item 5 (part): `shuffle(x, axis)`, `permutation(x, axis)` and
`choice(a, …, axis, shuffle)` as numpy has them; every order exactly uniform."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import fairdeck


def test_shuffle_along_an_axis_moves_whole_slices_in_place():
    g = fairdeck.Generator("axis")
    x = np.arange(12).reshape(3, 4)
    before = x.copy()
    g.shuffle(x, axis=1)
    # Each column moved as a whole: the rows keep their content, in one shared column order.
    order = [list(before[0]).index(v) for v in x[0]]
    assert sorted(order) == [0, 1, 2, 3]
    assert np.array_equal(x, before[:, order])
    y = np.arange(24).reshape(2, 3, 4)
    g.shuffle(y, axis=-1)
    assert sorted(y[1, 2].tolist()) == [20, 21, 22, 23]
    with pytest.raises(np.exceptions.AxisError):
        g.shuffle(np.arange(4), axis=1)
    with pytest.raises(NotImplementedError):  # numpy's type
        g.shuffle([1, 2, 3], axis=1)


def test_permutation_along_an_axis_is_a_copy():
    g = fairdeck.Generator("axis copy")
    x = np.arange(6).reshape(2, 3)
    y = g.permutation(x, axis=1)
    assert np.array_equal(x, np.arange(6).reshape(2, 3))
    assert sorted(y[0].tolist()) == [0, 1, 2] and np.array_equal(y[1], y[0] + 3)
    assert g.permutation(5, axis=1).shape == (5,)  # numpy ignores axis for an int


def test_every_column_order_is_equally_likely():
    # 24,000 shuffles of 4 columns; all 24 orders, each expected 1,000 times. The bound
    # 49.7 is the 0.9999 quantile of chi-square with 23 degrees of freedom (false alarm
    # 1e-4; fixed seed). Negative control: the naive swap (j drawn from the whole deck) on the same
    # columns, whose orders are known to be unequal, exceeds it.
    g = fairdeck.Generator("orders")
    index = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    counts = np.zeros(24)
    x = np.tile(np.arange(4), (1, 1))
    for _ in range(24_000):
        y = g.permutation(x, axis=1)
        counts[index[tuple(y[0])]] += 1
    assert ((counts - 1000) ** 2 / 1000).sum() < 49.7
    naive = np.zeros(24)
    rng = np.random.default_rng(1)
    for _ in range(24_000):
        d = list(range(4))
        for i in range(4):
            j = rng.integers(4)
            d[i], d[j] = d[j], d[i]
        naive[index[tuple(d)]] += 1
    assert ((naive - 1000) ** 2 / 1000).sum() > 49.7


def test_choice_along_an_axis_and_unshuffled_samples():
    g = fairdeck.Generator("choice axis")
    a = np.arange(12).reshape(3, 4)
    cols = g.choice(a, size=2, axis=1, replace=False)
    assert cols.shape == (3, 2)
    for c in range(2):
        assert cols[:, c].tolist() in [a[:, k].tolist() for k in range(4)]
    one = g.choice(a, axis=1)
    assert one.shape == (3,)
    picks = g.choice(100, size=10, replace=False, shuffle=False)
    assert picks.tolist() == sorted(picks.tolist()) and len(set(picks.tolist())) == 10
    with pytest.raises(np.exceptions.AxisError):
        g.choice(a, axis=2)
