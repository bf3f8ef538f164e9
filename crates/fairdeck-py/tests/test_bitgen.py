"""Issue 24 item 6: fairdeck's generators as numpy bit generators
(`np.random.Generator(fairdeck.ChaCha20(seed))`) and as `random.Random`.

The stream is the CLI's `fairdeck rng` for the same seed and generator, byte
for byte, whatever mix of 64- and 32-bit draws numpy makes; pickling and
`state` resume it exactly; `spawn` gives independent children by a stated
derivation (numpy's own tests of bit generators run in test_numpy_own_tests.py)."""

from __future__ import annotations

import copy
import hashlib
import pickle
import random
import subprocess
import threading

import numpy as np
import pytest

import fairdeck

KINDS = [
    (fairdeck.ChaCha20, "chacha20"),
    (fairdeck.ChaCha12, "chacha12"),
    (fairdeck.ChaCha8, "chacha8"),
    (fairdeck.Xoshiro256PlusPlus, "xoshiro256pp"),
]


def cli_bytes(fairdeck_bin, seed, generator, count):
    return subprocess.run(
        [fairdeck_bin, "rng", "--bytes", str(count), "--seed", seed, "--generator", generator],
        capture_output=True,
        check=True,
    ).stdout


@pytest.mark.parametrize(("cls", "name"), KINDS)
def test_the_stream_is_the_clis(fairdeck_bin, cls, name):
    # 64-bit words, then 32-bit draws, then doubles: together they consume
    # the CLI's bytes in the CLI's order.
    want = cli_bytes(fairdeck_bin, "bitgen lab", name, 4096)
    bg = cls("bitgen lab")
    words = bg.random_raw(100)
    assert words.tobytes() == want[:800]
    g = np.random.Generator(bg)
    # Full-range uint32 draws are next_uint32 each, one per value.
    u32 = g.integers(0, 2**32, size=50, dtype=np.uint32, endpoint=False)
    assert u32.tobytes() == want[800:1000]
    doubles = g.random(10)
    expected = (np.frombuffer(want[1000:1080], "<u8") >> np.uint64(11)) * 2.0**-53
    assert np.array_equal(doubles, expected)
    assert bg.state["position"] == 1080
    assert bg.key == cls("bitgen lab").key


def test_every_numpy_distribution_runs_and_is_seed_stable():
    a = np.random.Generator(fairdeck.ChaCha20(7))
    b = np.random.Generator(fairdeck.ChaCha20(7))
    for g in (a, b):
        g.standard_normal(1000), g.gamma(2.0, size=100), g.choice(52, 5, replace=False)
    assert np.array_equal(a.permutation(52), b.permutation(52))
    assert not np.array_equal(
        np.random.Generator(fairdeck.ChaCha20(7)).random(8),
        np.random.Generator(fairdeck.ChaCha20(8)).random(8),
    )


@pytest.mark.parametrize(("cls", "name"), KINDS)
def test_pickle_copy_and_state_resume_the_stream(cls, name):
    g = np.random.Generator(cls("resume"))
    g.standard_normal(37)  # an odd number of 8-byte reads and some 4-byte ones
    g.integers(0, 2**32, 3, dtype=np.uint32)
    for clone in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        assert type(clone.bit_generator) is cls
        assert clone.bit_generator.state == g.bit_generator.state
    twin = pickle.loads(pickle.dumps(g))
    assert np.array_equal(twin.random(20), g.random(20))
    saved = g.bit_generator.state
    first = g.integers(0, 1000, 10)
    g.bit_generator.state = saved
    assert np.array_equal(g.integers(0, 1000, 10), first)
    with pytest.raises(ValueError, match="state"):
        g.bit_generator.state = {"bit_generator": "PCG64"}
    with pytest.raises(ValueError, match="position"):
        g.bit_generator.state = dict(saved, position=-1)


def test_spawn_is_independent_and_documented():
    parent = fairdeck.ChaCha20("parent")
    kids = np.random.Generator(parent).spawn(3)
    keys = [k.bit_generator.key for k in kids]
    assert len(set(keys) | {parent.key}) == 4
    key = bytes.fromhex(parent.key)
    for i, k in enumerate(keys):
        assert k == hashlib.sha256(b"fairdeck-py/spawn/" + key + i.to_bytes(8, "little")).hexdigest()
    # Spawning again continues the count: new children, not the same ones.
    assert parent.spawn(1)[0].key == hashlib.sha256(b"fairdeck-py/spawn/" + key + (3).to_bytes(8, "little")).hexdigest()
    with pytest.raises(OverflowError, match="n_children"):  # numpy's type for -1
        parent.spawn(-1)
    with pytest.raises(AttributeError, match="SeedSequence"):
        parent.seed_seq


def test_bad_seeds_and_names_are_refused():
    with pytest.raises(TypeError, match="seed"):
        fairdeck.ChaCha20(1.5)
    with pytest.raises(ValueError):
        fairdeck.Random("x", generator="mt19937")
    with pytest.raises(NotImplementedError, match="not cffi"):
        fairdeck.ChaCha20(1).cffi


def test_threads_share_one_stream_without_losing_bytes():
    # Four threads draw from one Generator (numpy holds the bit generator's
    # lock): every byte of the stream is handed out exactly once.
    bg = fairdeck.ChaCha20("threads")
    g = np.random.Generator(bg)
    out = []

    def work():
        out.append(g.integers(0, 2**64 - 1, 1000, dtype=np.uint64, endpoint=True))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bg.state["position"] == 4 * 1000 * 8
    got = np.sort(np.concatenate(out))
    assert np.array_equal(got, np.sort(fairdeck.ChaCha20("threads").random_raw(4000)))


def test_random_random_subclass(fairdeck_bin):
    r = fairdeck.Random("stdlib")
    assert isinstance(r, random.Random)
    want = cli_bytes(fairdeck_bin, "stdlib", "chacha20", 16)
    assert r.random() == (int.from_bytes(want[:8], "little") >> 11) * 2.0**-53
    assert r.getrandbits(12) == int.from_bytes(want[8:10], "little") & 0xFFF
    deck = list(range(52))
    r.shuffle(deck)
    assert sorted(deck) == list(range(52))
    twin = pickle.loads(pickle.dumps(r))
    assert [twin.randrange(1000) for _ in range(20)] == [r.randrange(1000) for _ in range(20)]
    state = r.getstate()
    x = r.sample(range(100), 10)
    r.setstate(state)
    assert r.sample(range(100), 10) == x
    assert fairdeck.Random("stdlib", generator="xoshiro256pp").randbytes(8) == cli_bytes(
        fairdeck_bin, "stdlib", "xoshiro256pp", 8
    )


def test_randrange_on_the_stdlib_class_is_exactly_uniform():
    # randrange(3) rejects on getrandbits(2): over all 4 values of 2 bits,
    # the outcomes 0, 1, 2 each come from exactly one, 3 is redrawn. Checked
    # through a Random whose getrandbits is fed each value in turn.
    class Fed(fairdeck.Random):
        def __init__(self, values):
            self.values = list(values)
            super().__init__(0)

        def getrandbits(self, k):
            return self.values.pop(0)

    results = [Fed([v, 0]).randrange(3) for v in range(4)]
    assert results == [0, 1, 2, 0]  # the value 3 was rejected and 0 drawn again
