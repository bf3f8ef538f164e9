"""fairdeck.Generator is a numpy.random.Generator (issue 48): the ecosystem
takes it (scipy, np.random.default_rng; scikit-learn through a RandomState
on its bit generator), numpy's distributions and fairdeck's exact methods
share one stream, no repr shows the key, signatures show real defaults."""

import copy
import inspect
import pickle
import re

import numpy as np
import pytest

import fairdeck

BIT_GENERATORS = {
    "chacha20": fairdeck.ChaCha20,
    "chacha12": fairdeck.ChaCha12,
    "chacha8": fairdeck.ChaCha8,
    "xoshiro256pp": fairdeck.Xoshiro256PlusPlus,
}


def test_it_is_a_numpy_generator_and_default_rng_returns_it():
    g = fairdeck.Generator("lab")
    assert isinstance(g, np.random.Generator)
    assert np.random.default_rng(g) is g
    assert fairdeck.Generator(g) is g
    assert fairdeck.Generator(g, "chacha20") is g


def test_a_numpy_generator_or_bit_generator_of_numpy_is_refused_with_one_line():
    with pytest.raises(TypeError, match="not a numpy Generator over PCG64"):
        fairdeck.Generator(np.random.default_rng(1))
    with pytest.raises(TypeError, match="not PCG64"):
        fairdeck.Generator(np.random.PCG64(1))
    with pytest.raises(ValueError, match="is chacha20, not xoshiro256pp"):
        fairdeck.Generator(fairdeck.Generator("lab"), "xoshiro256pp")


@pytest.mark.parametrize("name,cls", BIT_GENERATORS.items())
def test_the_bit_generator_is_fairdecks_and_every_method_draws_from_it(name, cls):
    g = fairdeck.Generator("mix", name)
    assert type(g.bit_generator) is cls
    assert g.bit_generator.key == g.seed
    # A run mixing numpy's distributions and fairdeck's exact methods
    # replays from the seed, and each call moves the one shared stream.
    def run(g):
        deck = np.arange(52)
        a = g.normal(size=3)
        g.shuffle(deck)
        b = g.gamma(2.0, size=2)
        c = g.integers(10**6, size=4)
        d = g.bit_generator.random_raw(2)
        e = g.choice(10**9, 5, replace=False)
        return [a.tolist(), deck.tolist(), b.tolist(), c.tolist(), d.tolist(), e.tolist()]

    first = run(g)
    assert run(fairdeck.Generator("mix", name)) == first
    # Without the normals the shuffle is another one: the stream is shared.
    h = fairdeck.Generator("mix", name)
    deck = np.arange(52)
    h.shuffle(deck)
    assert deck.tolist() != first[1]


def test_numpy_draws_are_the_generators_words():
    # next_double of the shared stream is (word >> 11) * 2**-53, as numpy's own.
    g, h = fairdeck.Generator("words"), fairdeck.Generator("words")
    words = g.bit_generator.random_raw(4)
    assert np.array_equal(h.random(4), (words >> np.uint64(11)) * 2.0**-53)
    assert g.random() == h.random()


def test_the_fairdeck_methods_keep_their_values():
    # The values before issue 48 (value stability): a fresh Generator's
    # first call is the CLI's.
    g = fairdeck.Generator("friday night")
    assert (g.sample(5, 90) + 1).tolist() == [4, 43, 55, 69, 52]


@pytest.mark.parametrize("name", BIT_GENERATORS)
def test_the_bit_generators_state_restores_numpy_and_fairdeck_draws(name):
    g = fairdeck.Generator("state", name)
    g.normal(size=5)
    saved = g.bit_generator.state
    first = (g.normal(size=3).tolist(), g.permutation(20).tolist())
    g.bit_generator.state = saved
    assert (g.normal(size=3).tolist(), g.permutation(20).tolist()) == first
    other = fairdeck.Generator("other", name).bit_generator.state
    with pytest.raises(ValueError, match="keeps its key"):
        g.bit_generator.state = other


@pytest.mark.parametrize("name", BIT_GENERATORS)
def test_pickle_copy_and_the_bit_generators_pickle_continue_the_stream(name):
    g = fairdeck.Generator("pickle", name)
    g.standard_normal(7)
    for twin in (pickle.loads(pickle.dumps(g)), copy.copy(g), copy.deepcopy(g)):
        assert type(twin) is fairdeck.Generator and isinstance(twin, np.random.Generator)
        assert twin.seed == g.seed
        assert twin.normal(size=3).tolist() == copy.copy(g).normal(size=3).tolist()
    bg = pickle.loads(pickle.dumps(g.bit_generator))
    assert bg.random_raw(3).tolist() == copy.copy(g).bit_generator.random_raw(3).tolist()


def test_a_generator_and_its_bit_generator_count_children_together():
    g = fairdeck.Generator("kids")
    a = g.spawn(1)[0]
    b = g.bit_generator.spawn(1)[0]
    c = g.spawn(1)[0]
    keys = [a.seed, b.key, c.seed]
    assert len(set(keys)) == 3
    assert g.bit_generator.state["spawned"] == 3
    # The same children as the standalone bit generator of the key.
    assert [k.key for k in fairdeck.ChaCha20(g.seed).spawn(3)] == keys
    assert all(type(child) is fairdeck.Generator for child in g.spawn(2))


def test_a_fairdeck_bit_generator_gives_a_generator_where_it_is():
    bg = fairdeck.ChaCha20("where")
    bg.random_raw(5)
    g = fairdeck.Generator(bg)
    assert isinstance(g, fairdeck.Generator) and g.seed == bg.key
    assert g.bit_generator.random_raw(3).tolist() == bg.random_raw(3).tolist()
    x = fairdeck.Xoshiro256PlusPlus("where")
    x.random_raw(2)
    assert fairdeck.Generator(x).bit_generator.random_raw(2).tolist() == x.random_raw(2).tolist()


def test_a_bool_seeds_as_numpy_seeds_it():
    assert fairdeck.Generator(True).seed == fairdeck.Generator(1).seed
    assert fairdeck.Generator(False).seed == fairdeck.Generator(0).seed


# ---- the ecosystem ------------------------------------------------------------


def test_scipy_stats_takes_it_and_replays():
    stats = pytest.importorskip("scipy.stats")

    def run(g):
        draws = stats.norm.rvs(size=4, random_state=g)
        x, y = np.arange(12.0), np.arange(12.0) + 0.5
        test = stats.permutation_test((x, y), lambda a, b: np.mean(a) - np.mean(b), n_resamples=99, rng=g)
        sobol = stats.qmc.Sobol(2, rng=g).random(4)
        boot = stats.bootstrap((x,), np.mean, n_resamples=50, rng=g).standard_error
        return draws.tolist(), test.pvalue, sobol.tolist(), boot

    first = run(fairdeck.Generator("scipy"))
    assert run(fairdeck.Generator("scipy")) == first
    assert run(fairdeck.Generator("another")) != first


def test_scikit_learn_takes_a_random_state_over_the_bit_generator():
    # scikit-learn's random_state= takes an int or a RandomState only (not
    # numpy's own Generator either); a RandomState over g.bit_generator
    # draws from g's stream.
    model_selection = pytest.importorskip("sklearn.model_selection")
    from sklearn.utils import check_random_state

    def run(g):
        rs = np.random.RandomState(g.bit_generator)
        assert check_random_state(rs) is rs
        train, test = model_selection.train_test_split(np.arange(20), random_state=rs)
        folds = [f.tolist() for _, f in model_selection.KFold(4, shuffle=True, random_state=rs).split(np.arange(8))]
        return train.tolist(), test.tolist(), folds, g.integers(100)

    first = run(fairdeck.Generator("sklearn"))
    assert run(fairdeck.Generator("sklearn")) == first
    assert run(fairdeck.Generator("other")) != first


# ---- integers: the dtype from the bounds, array bounds in Rust ---------------


def test_array_bounds_take_their_dtype_from_the_bounds_for_every_seed():
    for seed in range(40):
        g = fairdeck.Generator(seed)
        assert g.integers([2**64 - 1]).dtype == np.uint64
        assert g.integers(2**64 - 1).dtype == np.uint64
        assert g.integers([2**63 + 1]).dtype == np.uint64
        assert g.integers(np.array([2**63 + 1], dtype=np.uint64)).dtype == np.uint64
        assert g.integers([2**63]).dtype == np.int64
        assert g.integers([5, 10]).dtype == np.int64
        assert g.integers(np.array([5, 10], dtype=np.uint64)).dtype == np.int64


def test_array_bounds_draw_what_one_scalar_call_per_element_draws():
    low = np.array([0, -5, 7, 0, 2**62, 0])
    high = np.array([1, 5, 1000, 2**40, 2**63 - 1, 3])
    g, h = fairdeck.Generator("each"), fairdeck.Generator("each")
    drawn = g.integers(low, high, size=(50, 6))
    one_by_one = [h.integers(lo, hi) for _ in range(50) for lo, hi in zip(low, high)]
    assert drawn.ravel().tolist() == [int(v) for v in one_by_one]
    assert ((drawn >= low) & (drawn < high)).all()
    g, h = fairdeck.Generator("all"), fairdeck.Generator("all")
    assert g.integers([2**64], endpoint=False).tolist() == [int(h.integers(2**64))]


def test_array_bounds_are_all_checked_before_anything_is_drawn():
    g = fairdeck.Generator("check")
    before = g.bit_generator.state
    with pytest.raises(ValueError, match="low >= high"):
        g.integers([5, 0, 3])
    with pytest.raises(ValueError, match="no integer dtype holds them all"):
        g.integers([-1, 0], [0, 2**64 - 1])
    with pytest.raises(ValueError, match="out of bounds for int8"):
        g.integers([5, 300], dtype=np.int8)
    assert g.bit_generator.state == before


def test_array_bounds_are_exactly_uniform():
    # Each of 6 values of [0, 6) in 60 000 draws of alternating ranges:
    # chi-square with 5 degrees of freedom under 25 fails with probability
    # 1.4e-4; a modulo-biased draw of range 6 from 3 bits would fail.
    g = fairdeck.Generator("uniform")
    drawn = g.integers([6, 3], size=(30000, 2))
    counts = np.bincount(drawn[:, 0], minlength=6)
    chi2 = ((counts - 5000) ** 2 / 5000).sum()
    assert chi2 < 25
    biased = np.bincount(np.random.default_rng(1).integers(0, 8, 30000) % 6, minlength=6)
    assert ((biased - 5000) ** 2 / 5000).sum() > 25


# ---- no secret in a repr; real signatures; the docstring ---------------------


def reprs(g):
    objects = [g, g.bit_generator, g._core, g.bit_generator._stream]
    objects += [cls("repr") for cls in BIT_GENERATORS.values()]
    objects += [fairdeck.Random("repr")]
    return [(o, repr(o)) for o in objects] + [(o, str(o)) for o in objects]


@pytest.mark.parametrize("name", BIT_GENERATORS)
def test_no_repr_shows_any_part_of_the_key(name):
    g = fairdeck.Generator("repr", name)
    key = g.seed
    for obj, text in reprs(g):
        for i in range(0, 64 - 8 + 1):
            assert key[i : i + 8] not in text.lower(), f"{type(obj).__name__}: {text}"
    assert re.fullmatch(r"Generator\(\w+\) at 0x[0-9A-F]+", repr(g))
    assert g.seed == key  # .seed still gives it to whoever asks


def test_signatures_show_real_defaults():
    g = fairdeck.Generator("sig")
    for name in ("shuffle", "permutation", "permuted", "integers", "choice", "random", "bytes", "sample", "deal",
                 "spawn"):
        for method in (getattr(g, name), getattr(fairdeck.Generator, name)):
            text = str(inspect.signature(method))
            assert "Ellipsis" not in text and "..." not in text, f"{name}{text}"
    params = inspect.signature(g.choice).parameters
    assert params["replace"].default is True and params["shuffle"].default is True
    assert inspect.signature(g.integers).parameters["endpoint"].default is False


def test_the_docstring_lists_every_bit_generator():
    doc = fairdeck.Generator.__doc__
    for name, cls in BIT_GENERATORS.items():
        assert f'"{name}"' in doc and f"fairdeck.{cls.__name__}" in doc
    for name in ("shuffle", "integers", "choice"):
        assert getattr(fairdeck.Generator, name).__doc__ == getattr(g_core_type(), name).__doc__


def g_core_type():
    return type(fairdeck.Generator("doc")._core)


def test_threads_mixing_numpy_and_fairdeck_draws_take_turns():
    # numpy's draws (its lock, the GIL released for large ones) and
    # fairdeck's (its own turns) meet at the stream's mutex: no deadlock,
    # no torn state; every result is a valid draw.
    import threading

    g = fairdeck.Generator("threads")
    errors = []

    def numpy_side():
        try:
            for _ in range(20):
                assert np.isfinite(g.normal(size=50_000)).all()
                g.integers(10, size=1000)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    def fairdeck_side():
        try:
            x = np.arange(200_000)
            for _ in range(20):
                g.shuffle(x)
                assert np.array_equal(np.sort(x), np.arange(200_000))
                g.choice(10**9, 1000, replace=False)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=f) for f in (numpy_side, fairdeck_side, numpy_side, fairdeck_side)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread is stuck"
    assert not errors, errors
