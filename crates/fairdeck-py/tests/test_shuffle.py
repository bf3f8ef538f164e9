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
