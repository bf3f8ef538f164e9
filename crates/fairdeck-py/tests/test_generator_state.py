"""Issue 24 item 5 (part): pickling and copying a `Generator` resume its stream exactly."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import fairdeck


def draws(g):
    return (g.permutation(52).tolist(), g.integers(0, 10**12, size=7).tolist(), g.random(3).tolist(), g.bytes(5))


@pytest.mark.parametrize("generator", ["chacha20", "chacha12", "chacha8", "xoshiro256pp"])
def test_a_copy_continues_where_the_original_is(generator):
    g = fairdeck.Generator("state", generator)
    g.bytes(3)  # an odd place in the stream
    g.permutation(10)
    for c in (copy.copy(g), copy.deepcopy(g)):
        assert c.seed == g.seed and c.generator == g.generator
        assert draws(c) == draws(copy.copy(g))
    # The copy and the original then draw on their own.
    c = copy.copy(g)
    first = draws(g)
    assert draws(c) == first


@pytest.mark.parametrize("generator", ["chacha20", "chacha12", "chacha8", "xoshiro256pp"])
def test_pickling_resumes_the_stream_and_keeps_the_keys_origin(generator):
    g = fairdeck.Generator("pickled", generator)
    g.integers(0, 100, size=13)
    g.bytes(7)
    h = pickle.loads(pickle.dumps(g))
    assert draws(h) == draws(g)
    # Where the key came from survives (a short seed text still warns on a deal).
    with pytest.warns(UserWarning, match="seed text holds at most"):
        assert pickle.loads(pickle.dumps(fairdeck.Generator("7"))).deal()["entropy_source"] == "seed-text"
    kids = pickle.loads(pickle.dumps(g)).spawn(1)
    assert kids[0].seed == g.spawn(1)[0].seed, "the spawn count is kept"


def test_a_fresh_pickle_replays_from_the_start():
    g = fairdeck.Generator("start")
    h = pickle.loads(pickle.dumps(g))
    assert np.array_equal(h.permutation(20), fairdeck.Generator("start").permutation(20))


def test_a_damaged_pickle_is_refused():
    restore = fairdeck._fairdeck._restore_generator
    with pytest.raises(ValueError, match="all zeros"):
        restore("00" * 32, "xoshiro256pp", "hex-key", 256.0, 0, 0, [0, 0, 0, 0])
    with pytest.raises(ValueError, match="four words"):
        restore("00" * 32, "xoshiro256pp", "hex-key", 256.0, 0, 0, None)
    with pytest.raises(ValueError, match="origin"):
        restore("00" * 32, "chacha20", "from a hat", 256.0, 0, 0)
