"""A generator keeps the scratch memory of its last large shuffle (issue 37, item 2).

A shuffle of more than 64 MiB of items (8 MiB with ``threads=``) takes
``n * (1 + itemsize)`` bytes of scratch. The generator keeps it for the
next such shuffle, so the kernel does not fault in and zero those pages
again; ``release_scratch()`` frees it and answers how many bytes it held.
Keeping it must not change a single order: the same key gives the same
arrays whether the scratch was kept, freed between calls, or never held.
"""

import numpy as np

import fairdeck

# 17 M uint32 = 68 MB: over the one-thread scatter's 64 MiB start.
LARGE = 17_000_000
# 3 M uint32 = 12 MB: over the threaded shuffle's 8 MiB start.
THREADED = 3_000_000


def shuffled_twice(g, n, release, threads=None):
    out = []
    for _ in range(2):
        a = np.arange(n, dtype=np.uint32)
        g.shuffle(a, threads=threads)
        out.append(a)
        if release:
            g.release_scratch()
    return out


def test_a_kept_scratch_gives_the_orders_of_fresh_memory():
    kept = fairdeck.Generator("scratch")
    fresh = fairdeck.Generator("scratch")
    a = shuffled_twice(kept, LARGE, release=False)
    b = shuffled_twice(fresh, LARGE, release=True)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert np.array_equal(np.sort(a[1]), np.arange(LARGE, dtype=np.uint32))


def test_the_scratch_is_kept_then_released():
    g = fairdeck.Generator("release")
    assert g.release_scratch() == 0
    g.shuffle(np.arange(LARGE, dtype=np.uint32))
    held = g.release_scratch()
    assert held >= LARGE * 5, held
    assert g.release_scratch() == 0
    # A 52-card deck needs none and leaves none.
    g.shuffle(np.arange(52))
    assert g.release_scratch() == 0


def test_the_threaded_shuffle_keeps_it_too_and_keeps_its_orders():
    kept = fairdeck.Generator("threads")
    fresh = fairdeck.Generator("threads")
    a = shuffled_twice(kept, THREADED, release=False, threads=2)
    assert kept.release_scratch() >= THREADED * 5
    b = shuffled_twice(fresh, THREADED, release=True, threads=2)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
