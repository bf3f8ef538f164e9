"""Issue 35 items 3 and 8: a bit generator's state carries its spawn count
(so a pickled, copied or restored generator never spawns a child stream it
already spawned), and the `state` setter refuses malformed states:
TypeError for wrong types (as numpy), ValueError for wrong values (a key
that is not 64 hex digits used to be hashed silently into another key)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import fairdeck
from fairdeck.bitgen import _restore

BIT_GENERATORS = [fairdeck.ChaCha20, fairdeck.ChaCha12, fairdeck.ChaCha8, fairdeck.Xoshiro256PlusPlus]

# Ways to get a second bit generator in the first one's state.
CLONES = {
    "pickle": lambda bg: pickle.loads(pickle.dumps(bg)),
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
    "numpy pickle": lambda bg: pickle.loads(pickle.dumps(np.random.Generator(bg))).bit_generator,
    "numpy deepcopy": lambda bg: copy.deepcopy(np.random.Generator(bg)).bit_generator,
    "state": lambda bg: _set_state(type(bg)(), bg.state),
}


def _set_state(bg, state):
    bg.state = state
    return bg


@pytest.mark.parametrize("cls", BIT_GENERATORS)
@pytest.mark.parametrize("how", CLONES)
def test_a_clone_does_not_respawn_the_children_already_spawned(cls, how):
    bg = cls("spawn state")
    first = [k.key for k in bg.spawn(2)]
    clone = CLONES[how](bg)
    assert clone.state == bg.state and clone.state["spawned"] == 2
    again = clone.spawn(1)[0].key
    assert again not in first, "the clone repeated a child stream"
    assert again == bg.spawn(1)[0].key, "the clone's next child is the original's next child"


@pytest.mark.parametrize("how", ["pickle", "numpy pickle"])
def test_spawning_through_numpy_generator_is_counted(how):
    g = np.random.Generator(fairdeck.ChaCha20("numpy spawn"))
    kids = {k.bit_generator.key for k in g.spawn(3)}
    clone = CLONES[how](g.bit_generator)
    assert clone.spawn(1)[0].key not in kids


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy"])
def test_fairdeck_generator_keeps_its_spawn_count(how):
    g = fairdeck.Generator("gen spawn")
    kids = {k.seed for k in g.spawn(2)}
    clone = {"pickle": lambda x: pickle.loads(pickle.dumps(x)), "copy": copy.copy, "deepcopy": copy.deepcopy}[how](g)
    assert clone.spawn(1)[0].seed not in kids
    assert clone.spawn(1)[0].seed == g.spawn(2)[1].seed


def test_an_old_state_without_the_spawn_count_is_refused():
    # States (and pickles) saved before the spawn count was kept: resuming
    # them with a count of 0 would repeat the children already spawned, so
    # they are refused with a message that says how to resume one.
    old = {k: v for k, v in fairdeck.ChaCha20("old").state.items() if k != "spawned"}
    with pytest.raises(ValueError, match="spawned"):
        fairdeck.ChaCha20().state = old
    with pytest.raises(ValueError, match="spawned"):
        _restore(fairdeck.ChaCha20, old)
    # Told how many children the saved generator had spawned, it resumes.
    bg = fairdeck.ChaCha20()
    bg.state = dict(old, spawned=0)
    assert bg.key == fairdeck.ChaCha20("old").key


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"key": "zz" * 32}, ValueError, "64 hex digits"),
        ({"key": "ab" * 31}, ValueError, "64 hex digits"),
        ({"key": " " + "ab" * 32}, ValueError, "64 hex digits"),
        ({"key": "lab"}, ValueError, "64 hex digits"),
        ({"key": 5}, TypeError, "key"),
        ({"position": "3"}, TypeError, "position"),
        ({"position": 1.0}, TypeError, "position"),
        ({"position": True}, TypeError, "position"),
        ({"position": -1}, ValueError, "position"),
        ({"spawned": "1"}, TypeError, "spawned"),
        ({"spawned": -1}, ValueError, "spawned"),
        ({"spawned": 2**64}, ValueError, "spawned"),
        ({"bit_generator": "PCG64"}, ValueError, "ChaCha20"),
        ({"generator": "chacha8"}, ValueError, "generator"),
    ],
)
def test_a_malformed_state_is_refused_and_changes_nothing(change, error, match):
    bg = fairdeck.ChaCha20("setter")
    bg.random_raw(3)
    before = bg.state
    with pytest.raises(error, match=match):
        bg.state = dict(before, **change)
    assert bg.state == before


@pytest.mark.parametrize("value", [{"1"}, ["key"], None, "state", 5])
def test_a_state_that_is_not_a_dict_is_a_type_error_as_in_numpy(value):
    with pytest.raises(TypeError):
        np.random.PCG64().state = value
    with pytest.raises(TypeError, match="dict"):
        fairdeck.ChaCha20().state = value


def test_a_missing_entry_is_a_value_error():
    state = fairdeck.ChaCha20("x").state
    for key in ["key", "position", "bit_generator"]:
        with pytest.raises(ValueError):
            fairdeck.ChaCha20().state = {k: v for k, v in state.items() if k != key}


def test_an_upper_case_key_is_the_same_key():
    state = fairdeck.ChaCha20("case").state
    bg = fairdeck.ChaCha20()
    bg.state = dict(state, key=state["key"].upper())
    assert bg.state == state
