"""Issue 37 item 4: `integers` and `choice(replace=True)` write their exact rolls straight
into the output array (no buffer of 64-bit offsets, one division per call). The values must
be the documented batched rule's, whatever the output's dtype, shape or length (chunks), and
exactly uniform: a chi-square test with fixed keys passes them and catches a modulo and a
scaled (unrejected) draw of the same stream's words."""

from __future__ import annotations

import numpy as np
import pytest
from test_draws import batched_rolls

import fairdeck

CHUNK = 8 * 20160  # rolls::CHUNK: values drawn between two checks for Ctrl-C

# The 0.9999 quantile of chi-square with 2 degrees of freedom is -2 ln(1e-4) = 18.42: a
# uniform sampler exceeds it with probability 1e-4 per check (never, with these fixed keys);
# the biased controls below put one bin at 1/2 instead of 1/3, chi-square ~ N/8 = 3750.
CHI2_2DF_9999 = 18.42
N = 30_000


@pytest.mark.parametrize("n", [1, 3, 6, 52, 10**6, 2**33 + 1, 2**63, 2**64 - 1])
def test_choice_with_replacement_is_the_batched_rule(n):
    got = fairdeck.Generator("r").choice(n, 300)
    assert got.dtype == (np.int64 if n <= 2**63 else np.uint64)
    assert got.tolist() == batched_rolls("r", n, 300)
    grid = fairdeck.Generator("r").choice(n, (20, 15))
    assert grid.shape == (20, 15) and grid.ravel().tolist() == got.tolist()


def test_values_do_not_depend_on_the_chunks():
    # More than one chunk, and a length that leaves a short last group.
    count = CHUNK + 1001
    want = batched_rolls("chunks", 10**6, count)
    assert fairdeck.Generator("chunks").integers(10**6, size=count).tolist() == want
    assert fairdeck.Generator("chunks").choice(10**6, count).tolist() == want


@pytest.mark.parametrize(
    "low,high,dtype",
    [
        (-100, 27, np.int8),
        (0, 256, np.uint8),
        (-3, 3, np.int16),
        (0, 2, np.bool_),
        (2**31, 2**32, np.uint32),
        (-(2**63), 2**63, np.int64),
    ],
)
def test_a_narrow_dtype_gets_the_int64_draw_cast(low, high, dtype):
    # Each value is written once in the dtype's width: the same values as the default
    # dtype's draw, cast.
    narrow = fairdeck.Generator("dtype").integers(low, high, size=1000, dtype=dtype)
    wide = fairdeck.Generator("dtype").integers(low, high, size=1000)
    assert narrow.dtype == dtype
    assert narrow.tolist() == wide.astype(dtype).tolist()
    assert int(wide.min()) >= low and int(wide.max()) < high


def chi2(values, bins):
    counts = np.bincount(values, minlength=bins)
    expected = len(values) / bins
    return float(((counts - expected) ** 2 / expected).sum())


def assert_uniform_and_controls_caught(values, words, n, field_bits, top):
    """`values` (rolls below n) pass a chi-square test on two binnings — by the top bits
    (`v >> top`, catching modulo) and by `v % 3` (catching scaling without rejection) —
    and two draws of the same stream that skip the rejection fail one of them: modulo
    of a `field_bits`-bit field, and the field times n over 2^field_bits."""
    values = np.asarray(values, dtype=object)
    by_top = np.array([int(v) >> top for v in values])
    by_three = np.array([int(v) % 3 for v in values])
    assert chi2(by_top, 3) < CHI2_2DF_9999
    assert chi2(by_three, 3) < CHI2_2DF_9999
    per_word = 64 // field_bits
    mask = (1 << field_bits) - 1
    fields = [(w >> (field_bits * i)) & mask for w in words for i in range(per_word)][: len(values)]
    modulo = np.array([(f % n) >> top for f in fields])
    assert chi2(modulo, 3) > CHI2_2DF_9999
    scaled = np.array([((f * n) >> field_bits) % 3 for f in fields])
    assert chi2(scaled, 3) > CHI2_2DF_9999


@pytest.mark.parametrize("call", ["integers", "choice"])
def test_batched_rolls_are_uniform_where_rejection_matters(call):
    # n = 3 * 2^19: 21 bits, 3 rolls per word, and 2^64 mod n^3 rejects 16 % of the words;
    # one roll in two would be below 2^19 by modulo, one in two a multiple of 3 by scaling.
    n = 3 * 2**19
    g = fairdeck.Generator("uniform " + call)
    values = g.integers(n, size=N) if call == "integers" else g.choice(n, N)
    words = fairdeck.ChaCha20("uniform " + call).random_raw(N).tolist()
    assert_uniform_and_controls_caught(values.tolist(), words, n, 21, 19)


@pytest.mark.parametrize("call", ["integers", "choice"])
def test_one_roll_per_word_is_uniform_where_rejection_matters(call):
    # n = 3 * 2^62: one roll per word, and 2^64 mod n = 2^62 words (a quarter) are rejected.
    n = 3 * 2**62
    g = fairdeck.Generator("wide " + call)
    values = g.integers(n, size=N, dtype=np.uint64) if call == "integers" else g.choice(n, N)
    words = fairdeck.ChaCha20("wide " + call).random_raw(N).tolist()
    assert_uniform_and_controls_caught(values.tolist(), words, n, 64, 62)
