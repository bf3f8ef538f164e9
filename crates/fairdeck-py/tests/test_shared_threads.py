"""Issue 35 item 4: one Generator shared by Python threads takes one call
at a time, whatever `threads=` says. Before, with `threads=1` or `threads=2`
two threads shuffling the same array ran their shuffles at once on its
memory, and it was no longer a permutation."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import fairdeck

N = 3_000_000  # a parallel shuffle of this takes tens of milliseconds: long enough to overlap


def run_together(work, count=4):
    """Runs `work(i)` on `count` threads started together; re-raises a failure."""
    errors = []
    start = threading.Barrier(count)

    def body(i):
        try:
            start.wait()
            work(i)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


@pytest.mark.parametrize("threads", [None, 1, 2])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "rows"])
def test_threads_shuffling_one_array_leave_a_permutation(threads, layout):
    g = fairdeck.Generator("shared")
    if layout == "contiguous":
        x = np.arange(N, dtype=np.int64)
    elif layout == "strided":
        x = np.arange(2 * N, dtype=np.int64)[::2]  # shuffled through a copy
    else:
        x = np.arange(N, dtype=np.int32).reshape(-1, 3)  # 12-byte rows: by index
    want = np.sort(x, axis=0)

    run_together(lambda _: [g.shuffle(x, threads=threads) for _ in range(3)])
    assert np.array_equal(np.sort(x, axis=0), want)
    if layout == "rows":
        assert np.array_equal(np.sort(x[:, 0]), np.arange(0, N, 3))
        assert (x[:, 1] == x[:, 0] + 1).all(), "rows were torn apart"


@pytest.mark.parametrize("threads", [None, 2])
def test_calls_take_turns_so_the_draws_are_those_of_some_order(threads):
    # Four threads each take one permutation from a shared generator. Taking
    # turns, the four results are the generator's first four permutations in
    # some order (each call starting where the previous one ended).
    g = fairdeck.Generator("turns")
    got = [None] * 4
    run_together(lambda i: got.__setitem__(i, g.permutation(N // 4, threads=threads)))
    solo = fairdeck.Generator("turns")
    want = [solo.permutation(N // 4, threads=threads) for _ in range(4)]
    key = [a.tobytes() for a in want]
    assert sorted(a.tobytes() for a in got) == sorted(key)


def test_a_call_that_reenters_its_generator_is_refused():
    # An ndarray subclass whose __setitem__ calls the same generator while
    # the shuffle holds it: waiting for itself would hang, so it is refused.
    g = fairdeck.Generator("reenter")

    class Sneaky(np.ndarray):
        def __setitem__(self, key, value):
            g.random()
            super().__setitem__(key, value)

    x = np.arange(10 * 3, dtype=np.int32).reshape(-1, 3).view(Sneaky)
    with pytest.raises(RuntimeError, match="already"):
        g.shuffle(x)
    g.random()  # and the generator is usable afterwards


def test_many_short_calls_from_threads_all_finish_and_take_whole_turns():
    # Issue 37: a turn is one compare-and-swap, and only a thread that waits is signalled. A
    # lost wake-up would leave a thread asleep forever: the join below times out. (That two
    # calls never hold the turn at once is the first test's: torn arrays.) Each one-deck
    # shuffle uses the stream's next words whichever thread makes it, so after all of them
    # the generator is where a lone generator is after as many shuffles.
    g = fairdeck.Generator("short calls")
    calls, count = 5_000, 4
    decks = [np.arange(52) for _ in range(count)]
    start = threading.Barrier(count)

    def body(i):
        start.wait()
        for _ in range(calls):
            g.shuffle(decks[i])

    threads = [threading.Thread(target=body, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
        assert not t.is_alive(), "a thread never got its turn back"
    solo = fairdeck.Generator("short calls")
    deck = np.arange(52)
    for _ in range(calls * count):
        solo.shuffle(deck)
    assert g.integers(2**62, size=4).tolist() == solo.integers(2**62, size=4).tolist()
    for d in decks:
        assert sorted(d.tolist()) == list(range(52))
