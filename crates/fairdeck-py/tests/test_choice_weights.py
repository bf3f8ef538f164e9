"""Issue 24 item 5 (part): `choice(p=…)` with exact weights and numpy's checks.

Each float64 weight is the binary fraction it stores; item i comes out with probability
p[i] / sum(p) in exact integer arithmetic (a uniform integer below the sum of the scaled
weights, by rejection). Without replacement each pick removes its item."""

from __future__ import annotations

import numpy as np
import pytest

import fairdeck

# The 0.9999 quantiles of chi-square with k - 1 degrees of freedom, for the bins used below:
# a sampler with exactly the stated law fails with probability 1e-4 (and with these fixed
# seeds never); a sampler off by the negative control's margin exceeds it by far.
CHI2_9999 = {3: 18.42, 5: 23.51}


def chi2(counts, probs):
    expected = np.asarray(probs) * counts.sum()
    return float(((counts - expected) ** 2 / expected).sum())


def test_picks_follow_the_weights_and_a_wrong_law_is_caught():
    p = np.array([0.1, 0.2, 0.3, 0.25, 0.15])
    draws = fairdeck.Generator("weights").choice(5, size=200_000, p=p)
    counts = np.bincount(draws, minlength=5)
    assert chi2(counts, p) < CHI2_9999[5]
    # Negative control: the same draws judged against a law off by 0.01 on two items.
    q = p + np.array([0.01, -0.01, 0, 0, 0])
    assert chi2(counts, q) > CHI2_9999[5]
    # And a uniform choice is caught against these weights.
    uniform = np.bincount(fairdeck.Generator("weights").choice(5, size=200_000), minlength=5)
    assert chi2(uniform, p) > CHI2_9999[5]


def test_items_of_weight_zero_never_come_out_and_arrays_are_picked_from():
    g = fairdeck.Generator("zeros")
    picks = g.choice(["a", "b", "c"], size=10_000, p=[0.5, 0.0, 0.5])
    assert set(picks.tolist()) == {"a", "c"}
    rows = g.choice(np.arange(12).reshape(4, 3), size=2, p=[0, 0, 1, 0])
    assert rows.tolist() == [[6, 7, 8], [6, 7, 8]]
    assert g.choice(3, p=[0, 1, 0]) == 1


def test_without_replacement_picks_distinct_items_by_weight():
    g = fairdeck.Generator("distinct")
    for _ in range(200):
        picks = g.choice(6, size=4, replace=False, p=[0.3, 0.3, 0.1, 0.1, 0.1, 0.1])
        assert len(set(picks.tolist())) == 4
    # First picks follow the weights: item 0 or 1 first with probability 0.6.
    first = np.array([g.choice(6, size=2, replace=False, p=[0.3, 0.3, 0.1, 0.1, 0.1, 0.1])[0] for _ in range(20_000)])
    share = np.isin(first, [0, 1]).mean()
    assert abs(share - 0.6) < 0.02  # 6 standard errors (0.0035 each)
    with pytest.raises(ValueError, match="non-zero entries"):
        g.choice(3, size=3, replace=False, p=[0.5, 0.5, 0])


def test_weights_far_apart_use_big_integers_exactly():
    # 2^-1000 and 1.0: the scaled weights differ by 1000 bits; the pick is still exact.
    g = fairdeck.Generator("far apart")
    picks = g.choice(2, size=1000, p=[2.0**-1000, 1.0])
    assert picks.tolist() == [1] * 1000


@pytest.mark.parametrize(
    ("p", "message"),
    [
        ([0.5, 0.5], "same size"),
        ([0.5, 0.6, -0.1], "non-negative"),
        ([0.2, 0.2, 0.2], "sum to 1"),
        ([np.nan, 0.5, 0.5], "NaN"),
        ([[0.5, 0.5, 0.0]], "1-dimensional"),
    ],
)
def test_bad_weights_are_refused_as_numpy_refuses_them(p, message):
    with pytest.raises(ValueError, match=message):
        fairdeck.Generator("bad").choice(3, p=p)
    with pytest.raises(ValueError):
        np.random.default_rng(0).choice(3, p=p)
