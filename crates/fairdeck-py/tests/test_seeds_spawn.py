"""Issue 24 item 5 (part): seeds as numpy takes them, and `spawn`.

numpy integers mean what ints mean (the CLI's `--seed` of their digits); a negative int is
refused as numpy refuses it; a sequence of non-negative ints and a `SeedSequence` are keyed
by the derivations the docstrings state; `spawn(n)` gives children keyed as
`fairdeck.ChaCha20(seed).spawn` keys them."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import fairdeck


def test_numpy_integers_mean_their_digits_and_negatives_are_refused():
    assert fairdeck.Generator(np.int64(42)).seed == fairdeck.Generator(42).seed == fairdeck.Generator("42").seed
    assert fairdeck.Generator(np.uint8(7)).seed == fairdeck.Generator(7).seed
    for bad in (-1, np.int64(-5)):
        with pytest.raises(ValueError, match="non-negative"):
            fairdeck.Generator(bad)
        with pytest.raises(ValueError, match="non-negative"):
            np.random.default_rng(bad)


def test_a_list_of_ints_is_keyed_by_the_stated_derivation():
    def expected(ints):
        h = hashlib.sha256(b"fairdeck-py/seed-list/" + len(ints).to_bytes(8, "little"))
        for v in ints:
            b = v.to_bytes((v.bit_length() + 7) // 8, "big")
            h.update(len(b).to_bytes(8, "little") + b)
        return h.hexdigest()

    for ints in ([1, 2, 3], [0], [], [2**200 + 5, 7]):
        assert fairdeck.Generator(ints).seed == expected(ints)
    assert fairdeck.Generator((1, 2, 3)).seed == fairdeck.Generator(np.array([1, 2, 3])).seed == expected([1, 2, 3])
    assert fairdeck.Generator([1, 2]).seed != fairdeck.Generator([2, 1]).seed
    assert fairdeck.Generator([1, 2]).seed != fairdeck.Generator([12]).seed
    with pytest.raises(ValueError, match="non-negative"):
        fairdeck.Generator([1, -2])
    with pytest.raises(TypeError, match="seed must be"):
        fairdeck.Generator([1.5])


def test_a_seed_sequence_keys_as_numpy_keys_a_bit_generator():
    ss = np.random.SeedSequence(12345)
    words = ss.generate_state(8, np.uint32)
    key = b"".join(int(w).to_bytes(4, "little") for w in words).hex()
    assert fairdeck.Generator(np.random.SeedSequence(12345)).seed == key
    # Spawned seed sequences (numpy's way of making children) give different keys.
    a, b = np.random.SeedSequence(12345).spawn(2)
    assert len({fairdeck.Generator(a).seed, fairdeck.Generator(b).seed, key}) == 3
    # A small entropy is a short key: a deal says so, as for a short seed text.
    assert fairdeck.Generator(np.random.SeedSequence(5)).deal()["entropy_key_bits"] == 3


def test_spawn_gives_independent_children_by_the_bit_generators_derivation():
    parent = fairdeck.Generator("family")
    key = bytes.fromhex(parent.seed)
    children = parent.spawn(3)
    for i, child in enumerate(children):
        assert child.seed == hashlib.sha256(b"fairdeck-py/spawn/" + key + i.to_bytes(8, "little")).hexdigest()
        assert child.generator == parent.generator
    # The same keys as the numpy bit generator's children.
    assert [c.seed for c in children] == [c.key for c in fairdeck.ChaCha20("family").spawn(3)]
    # Spawning again continues the count; the parent's stream is untouched.
    assert parent.spawn(1)[0].seed == hashlib.sha256(b"fairdeck-py/spawn/" + key + (3).to_bytes(8, "little")).hexdigest()
    assert np.array_equal(parent.permutation(10), fairdeck.Generator("family").permutation(10))
    assert not np.array_equal(children[0].permutation(52), children[1].permutation(52))
    assert parent.spawn(0) == []
    with pytest.raises(OverflowError):  # numpy's type
        parent.spawn(-1)
