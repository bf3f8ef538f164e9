"""``fairdeck.Generator``: a ``numpy.random.Generator`` whose shuffles,
samples and bounded integers are fairdeck's exact ones.

It is a subclass of ``numpy.random.Generator`` over a fairdeck bit
generator, so scipy, scikit-learn and ``np.random.default_rng`` take it.
fairdeck's methods (``shuffle``, ``permutation``, ``permuted``,
``integers``, ``choice``, ``random``, ``bytes``, ``spawn``, and the extras
``sample``, ``deal``) run in Rust (``GeneratorCore``); numpy's
distributions (``normal``, ``gamma``, …) are numpy's own code drawing from
the same stream, through ``g.bit_generator``.
"""

from __future__ import annotations

import numpy as np

from ._fairdeck import GeneratorBits, GeneratorCore
from .bitgen import ChaCha8, ChaCha12, ChaCha20, Xoshiro256PlusPlus, _FairdeckBitGenerator

__all__ = ["Generator"]

_BIT_GENERATORS = {
    "chacha20": ChaCha20,
    "chacha12": ChaCha12,
    "chacha8": ChaCha8,
    "xoshiro256pp": Xoshiro256PlusPlus,
}

# The methods an exact `Generator` takes straight from its core: bound on
# the instance, a call costs what a call of the Rust method costs (a Python
# wrapper in between would add about a tenth of a microsecond, a third of a
# 52-card shuffle). The class keeps a Python method of each name too, for
# help(), inspect and subclasses that override one.
_FAST = ("shuffle", "permutation", "permuted", "integers", "choice", "random", "bytes", "sample", "deal")


class Generator(np.random.Generator):
    """Exactly uniform shuffles, samples and deals, reproducible from a seed,
    in a ``numpy.random.Generator``.

    ``Generator(seed=None, generator="chacha20")``

    ``seed`` means what the CLI's ``--seed`` means: 64 hex digits are the
    256-bit key itself, any other text is hashed with SHA-256 into the key,
    an int (a bool, a numpy integer) means the text of its digits, a
    sequence of ints or a ``numpy.random.SeedSequence`` is hashed into a
    key, and ``None`` draws 32 fresh bytes from the operating system.
    ``.seed`` gives the key back as 64 hex digits: ``Generator(g.seed)``
    replays ``g`` from its start. As ``np.random.default_rng``, a
    ``fairdeck.Generator`` is returned as it is, and a fairdeck bit
    generator gives a Generator on its key, starting where it is.

    ``generator`` names the bit generator, the same ones as the CLI's
    ``--generator``:

    - ``"chacha20"``: ChaCha20 (cryptographic, the default), ``fairdeck.ChaCha20``;
    - ``"chacha12"``: ChaCha12, ``fairdeck.ChaCha12``;
    - ``"chacha8"``: ChaCha8, ``fairdeck.ChaCha8``;
    - ``"xoshiro256pp"``: xoshiro256++ (fast, predictable: simulations only),
      ``fairdeck.Xoshiro256PlusPlus``.

    ``isinstance(g, numpy.random.Generator)`` is true: scipy's
    ``random_state=``/``rng=``, scikit-learn's ``random_state=`` and
    ``np.random.default_rng(g)`` (which returns ``g``) take it, and numpy's
    distributions (``g.normal``, ``g.gamma``, …) are its methods.
    ``g.bit_generator`` is the fairdeck bit generator of the stream that
    every method draws from, fairdeck's and numpy's alike, so a run that
    mixes ``g.normal`` and ``g.shuffle`` replays from the seed.

    fairdeck's own methods are exact: bounded integers by Lemire's rejection
    method, never ``%`` or floating point, and the first call on a fresh
    generator gives what the CLI gives for the same seed (``fairdeck deal``,
    ``fairdeck sample``). A generator may be shared by threads: its calls
    take turns, one call at a time from start to end (a call that comes back
    into the same generator from a callback raises ``RuntimeError``).
    """

    def __new__(cls, seed=None, generator: str = "chacha20"):
        if isinstance(seed, Generator):
            if generator not in ("chacha20", seed.generator):
                raise ValueError(f"the Generator given as seed is {seed.generator}, not {generator}")
            return seed
        if isinstance(seed, np.random.Generator):
            raise TypeError(
                f"fairdeck.Generator takes a seed, a fairdeck.Generator or a fairdeck bit generator,"
                f" not a numpy Generator over {type(seed.bit_generator).__name__} (it has no fairdeck stream)"
            )
        if isinstance(seed, _FairdeckBitGenerator):
            return cls._from_bit_generator(seed)
        if isinstance(seed, np.random.BitGenerator):
            raise TypeError(
                f"fairdeck.Generator takes a fairdeck bit generator (ChaCha20, ChaCha12, ChaCha8,"
                f" Xoshiro256PlusPlus), not {type(seed).__name__}"
            )
        return cls._from_core(GeneratorCore(seed, generator))

    def __init__(self, seed=None, generator: str = "chacha20"):  # noqa: ARG002 - __new__ did the work
        """See the class: ``__new__`` builds it (and may return ``seed`` itself)."""

    @classmethod
    def _from_core(cls, core: GeneratorCore) -> Generator:
        """A Generator over ``core`` (its key, stream and spawn count)."""
        g = np.random.Generator.__new__(cls)
        bits = _BIT_GENERATORS[core.generator]._of_generator(GeneratorBits(core))
        np.random.Generator.__init__(g, bits)
        g._core = core
        for name in _FAST:
            if getattr(cls, name) is getattr(Generator, name):
                setattr(g, name, getattr(core, name))
        return g

    @classmethod
    def _from_bit_generator(cls, bg: _FairdeckBitGenerator) -> Generator:
        """A Generator on ``bg``'s key and generator, at ``bg``'s place in
        its stream (``bg`` itself is not advanced by the Generator)."""
        state = bg.state
        g = cls._from_core(GeneratorCore(state["key"], state["generator"]))
        bits = g.bit_generator._stream
        position = state["position"]
        if state["generator"] == "xoshiro256pp":
            if position % 8:
                raise ValueError("a Xoshiro256PlusPlus at a byte position not a multiple of 8 has no Generator")
            bits.words(position // 8)
        else:
            bits.seek(position)
        bits.spawned = state["spawned"]
        return g

    @property
    def seed(self) -> str:
        """The 256-bit key as 64 hex digits: ``Generator(seed)`` replays this generator."""
        return self._core.seed

    @property
    def generator(self) -> str:
        """The generator's name: ``"chacha20"``, ``"chacha12"``, ``"chacha8"`` or ``"xoshiro256pp"``."""
        return self._core.generator

    def shuffle(self, x, axis=0, threads=None):
        return self._core.shuffle(x, axis, threads)

    def permutation(self, x, axis=0, threads=None):
        return self._core.permutation(x, axis, threads)

    def permuted(self, x, axis=None, out=None, threads=None):
        return self._core.permuted(x, axis, out, threads)

    def integers(self, low, high=None, size=None, dtype=None, endpoint=False):
        return self._core.integers(low, high, size, dtype, endpoint)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        return self._core.choice(a, size, replace, p, axis, shuffle)

    def random(self, size=None, dtype=None, out=None):
        return self._core.random(size, dtype, out)

    def bytes(self, length):
        return self._core.bytes(length)

    def sample(self, k, n):
        return self._core.sample(k, n)

    def deal(self, game=None, players=None, cards=None, deck=None):
        return self._core.deal(game, players, cards, deck)

    def release_scratch(self) -> int:
        return self._core.release_scratch()

    def spawn(self, n_children):
        return [type(self)._from_core(core) for core in self._core.spawn(n_children)]

    def __copy__(self):
        return type(self)._from_core(self._core.__copy__())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        # The core's pickle: unpickled, `_restore_generator` puts a
        # Generator around the restored core.
        return self._core.__reduce__()

    def __reduce_ex__(self, protocol):
        return self.__reduce__()

    def __setstate__(self, state):  # pragma: no cover - pickling uses __reduce__
        raise TypeError("a fairdeck.Generator is unpickled through its core")


for _name in (*_FAST, "release_scratch", "spawn"):
    getattr(Generator, _name).__doc__ = getattr(GeneratorCore, _name).__doc__
del _name
