"""numpy's own tests of bit generators (issue 35, item 9), from the installed
numpy's ``numpy/random/tests``, run on fairdeck's bit generators:
``test_direct.Base`` (raw words, floats and normals from them, pickling,
state checks, ``_benchmark``, the ctypes interface) for each of the four,
and ``test_smoke.RNG`` (every distribution, state round trips) for ChaCha20.

``test_direct`` wants reference words for two seeds: here they are the bytes
``fairdeck rng --seed S --generator G`` writes (the CLI, another front end
on the same library), read as little-endian 64-bit words. A test is skipped
only where it cannot apply, with the reason."""

from __future__ import annotations

import os
import pathlib
import subprocess

import numpy as np
import pytest

import fairdeck

direct = pytest.importorskip("numpy.random.tests.test_direct")
smoke = pytest.importorskip("numpy.random.tests.test_smoke")

REPO = pathlib.Path(__file__).resolve().parents[3]
SEEDS = ("numpy direct one", "5eed" * 16)  # a text seed and a 64-hex-digit key

NOT_APPLICABLE = {
    # test_direct.Base
    "test_pickle_preserves_seed_sequence": "no SeedSequence: keyed by a 256-bit key, children by SHA-256 (README)",
    "test_getstate": "__getstate__ has no SeedSequence to give (README: bg.seed_seq)",
    "test_cffi": "the cffi interface is not offered (capsule and ctypes are)",
    # test_smoke.RNG
    "test_jump": "no jumped(): children come from spawn() (README)",
    "test_seed_array": "an int seed is the CLI's --seed of its digits, so [1] and 1 are different keys (README)",
}


@pytest.fixture(autouse=True)
def _not_applicable(request):
    reason = NOT_APPLICABLE.get(request.node.originalname)
    if reason:
        pytest.skip(reason)


def cli_words(seed: str, generator: str) -> np.ndarray:
    """The first 1000 words of ``fairdeck rng`` (the binary built by scripts/test-python)."""
    binary = os.environ.get("FAIRDECK_BIN") or str(REPO / "target" / "release" / "fairdeck")
    if not pathlib.Path(binary).exists():
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "fairdeck-cli"], cwd=REPO, check=True)
    out = subprocess.run([binary, "rng", "--seed", seed, "--generator", generator, "--bytes", "8000"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(out, dtype="<u8").astype(np.uint64)


class FairdeckDirect(direct.Base):
    """``test_direct.Base`` for one of fairdeck's bit generators."""

    kind: type = fairdeck.ChaCha20
    generator = "chacha20"

    @classmethod
    def setup_class(cls):
        cls.bit_generator = cls.kind
        cls.bits = 64
        cls.dtype = np.uint64
        cls.data1 = {"seed": [SEEDS[0]], "data": cli_words(SEEDS[0], cls.generator)}
        cls.data2 = {"seed": [SEEDS[1]], "data": cli_words(SEEDS[1], cls.generator)}
        cls.seed_error_type = TypeError
        # Not True: numpy seeds PCG64(True) as PCG64(1), and so does fairdeck.
        cls.invalid_init_types = [(1.5,), (b"bytes",), ({"a": 1},), ([1.5],)]
        cls.invalid_init_values = [(-1,), ([-1],), ([1, -2],)]


class TestChaCha20Direct(FairdeckDirect):
    kind, generator = fairdeck.ChaCha20, "chacha20"


class TestChaCha12Direct(FairdeckDirect):
    kind, generator = fairdeck.ChaCha12, "chacha12"


class TestChaCha8Direct(FairdeckDirect):
    kind, generator = fairdeck.ChaCha8, "chacha8"


class TestXoshiro256PlusPlusDirect(FairdeckDirect):
    kind, generator = fairdeck.Xoshiro256PlusPlus, "xoshiro256pp"


class TestChaCha20Smoke(smoke.RNG):
    @classmethod
    def _create_rng(cls):
        seed = ["numpy smoke"]
        rg = np.random.Generator(fairdeck.ChaCha20(*seed))
        return smoke.RNGData(fairdeck.ChaCha20, None, seed, rg, 64)


def test_the_reference_words_are_the_bit_generators_and_can_fail():
    # The reference is not the bit generator's own output read back: it is
    # the CLI's, and another seed's words differ.
    words = cli_words(SEEDS[0], "chacha20")
    assert np.array_equal(fairdeck.ChaCha20(SEEDS[0]).random_raw(1000), words)
    assert not np.array_equal(fairdeck.ChaCha20(SEEDS[1]).random_raw(1000), words)
    assert not np.array_equal(cli_words(SEEDS[0], "chacha8"), words)


def test_benchmark_draws_from_the_stream_and_refuses_other_methods():
    bg = fairdeck.ChaCha20("bench")
    bg._benchmark(5)
    bg._benchmark(2, "double")
    assert bg.state["position"] == 56
    with pytest.raises(ValueError, match="Unknown method"):
        bg._benchmark(1, "int32")
    assert bg.random_raw() == fairdeck.ChaCha20("bench").random_raw(8)[7]


def test_the_ctypes_interface_draws_the_stream():
    bg = fairdeck.ChaCha20("ctypes")
    c = bg.ctypes
    assert c is bg.ctypes
    first = c.next_uint64(c.state)
    assert first == fairdeck.ChaCha20("ctypes").random_raw()
    assert bg.random_raw() == fairdeck.ChaCha20("ctypes").random_raw(2)[1]
