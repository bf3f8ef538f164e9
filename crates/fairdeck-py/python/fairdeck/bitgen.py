"""fairdeck's generators as numpy bit generators and as a ``random.Random``.

``np.random.Generator(fairdeck.ChaCha20("lab"))`` runs every numpy
distribution on the byte stream that ``fairdeck rng --seed lab`` writes:
``next_uint64`` is the next 8 bytes of that stream (little-endian),
``next_uint32`` the next 4, ``next_double`` ``(next_uint64 >> 11) * 2**-53``.
The bits are fairdeck's (seed-stable across releases, the CLI's); the
algorithms that turn them into integers, floats and distributions are numpy's
own. For fairdeck's exact shuffles, samples and deals use
``fairdeck.Generator``.

``fairdeck.Random("lab")`` is the same stream behind the standard library's
``random.Random`` interface (``randrange``, ``shuffle``, ``sample`` … use
``getrandbits`` with rejection, so they are exact too).
"""

from __future__ import annotations

import hashlib
import operator
import random as _random
import re

import numpy as np

from ._fairdeck import BitStream, GeneratorBits

__all__ = ["ChaCha20", "ChaCha12", "ChaCha8", "Xoshiro256PlusPlus", "Random"]


_MAX_SPAWNED = 2**64 - 1
_HEX_KEY = re.compile(r"[0-9a-fA-F]{64}")


def _restore(cls, state):
    """Unpickling: a bit generator of class ``cls`` at ``state``."""
    bg = cls(0)
    bg.state = state
    return bg


def _restore_of_generator(cls, state):
    """Unpickling a ``fairdeck.Generator``'s bit generator: the bit
    generator of a new Generator on its key, at its state."""
    from .generator import Generator

    bg = Generator(state["key"], cls._generator).bit_generator
    bg.state = state
    return bg


def _count(value: dict, name: str, limit: int | None = None) -> int:
    """``value[name]``: an int in ``0..=limit`` (TypeError for another type)."""
    if name not in value:
        raise ValueError(f"state has no {name!r}")
    n = value[name]
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"state[{name!r}] must be an int, not {type(n).__name__}")
    if n < 0 or (limit is not None and n > limit):
        raise ValueError(f"state[{name!r}] must be a non-negative int" + (f" at most {limit}" if limit else ""))
    return int(n)


def _numpy_count(value, name: str) -> int:
    """A count as numpy reads one into a C integer: an int, a bool, anything
    with ``__index__``, or a float truncated toward zero (``spawn(2.5)`` is 2);
    TypeError for anything else."""
    if isinstance(value, (float, np.floating)):
        return int(value)
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None


def _shape(size) -> tuple[int, ...]:
    """numpy's ``size=``: an int or a sequence of ints (a tuple, a list, an
    array); TypeError for a float or a str, ValueError for a negative one."""
    if isinstance(size, (str, bytes)):
        raise TypeError(f"size must be an integer or a tuple of integers, not {type(size).__name__}")
    try:
        dims = (operator.index(size),)
    except TypeError:
        try:
            dims = tuple(operator.index(d) for d in size)
        except TypeError:
            raise TypeError(f"size must be an integer or a tuple of integers, not {size!r}") from None
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    return dims


def _checked_state(value, cls_name: str, generator: str) -> tuple[str, int, int]:
    """The key, position and spawn count of a state dict, checked as numpy
    checks a state: TypeError for a value of the wrong type, ValueError for a
    wrong value; nothing is changed before all of it is checked."""
    if not isinstance(value, dict):
        raise TypeError(f"state must be a dict (from {cls_name}.state), not {type(value).__name__}")
    if value.get("bit_generator") != cls_name:
        raise ValueError(f"state must be a dict from {cls_name}.state (its bit_generator is {cls_name!r})")
    if value.get("generator", generator) != generator:
        raise ValueError(f"state['generator'] must be {generator!r} for {cls_name}")
    key = value.get("key")
    if key is None:
        raise ValueError("state has no 'key'")
    if not isinstance(key, str):
        raise TypeError(f"state['key'] must be a str of 64 hex digits, not {type(key).__name__}")
    if not _HEX_KEY.fullmatch(key):
        raise ValueError("state['key'] must be exactly 64 hex digits (the key itself, as state gives it)")
    position = _count(value, "position", 2**64 - 1)
    if "spawned" not in value:
        # A state saved before fairdeck kept the spawn count: taking it as 0
        # would spawn again the children the saved generator already had.
        raise ValueError(
            "state has no 'spawned' (saved before fairdeck kept the spawn count): add"
            " spawned=N, the number of children the saved generator had spawned (0 if none)"
        )
    return key, position, _count(value, "spawned", _MAX_SPAWNED)


class _FairdeckBitGenerator(np.random.BitGenerator):
    """A numpy ``BitGenerator`` over one fairdeck generator's byte stream."""

    _generator = "chacha20"

    def __init__(self, seed=None):
        # The base class makes the lock numpy holds while it draws; its own
        # seed sequence and C state are unused (numpy reads `capsule`).
        super().__init__(0)
        self._stream = BitStream(self._generator, seed)
        self._spawned = 0
        self._ctypes_interface = None

    @classmethod
    def _of_generator(cls, bits: GeneratorBits):
        """The bit generator of a ``fairdeck.Generator``: the generator's
        own stream (``bits``), shared with its exact methods, and its
        spawn count."""
        bg = cls.__new__(cls)
        np.random.BitGenerator.__init__(bg, 0)
        bg._stream = bits
        bg._ctypes_interface = None
        return bg

    @property
    def _of_a_generator(self) -> bool:
        return isinstance(self._stream, GeneratorBits)

    @property
    def capsule(self):
        """The ``"BitGenerator"`` capsule numpy's ``Generator`` reads."""
        return self._stream.capsule

    @property
    def key(self) -> str:
        """The 256-bit key as 64 hex digits: ``fairdeck rng --seed KEY`` writes this stream."""
        return self._stream.key

    @property
    def state(self) -> dict:
        """``{"bit_generator", "generator", "key", "position", "spawned"}``:
        ``position`` counts the bytes handed out, ``spawned`` the children
        spawned so far (the next child's index). A ``fairdeck.Generator``'s
        xoshiro256++ bit generator gives its four state words as
        ``"words"`` instead of ``"position"``."""
        state = {"bit_generator": type(self).__name__, "generator": self._stream.generator, "key": self._stream.key}
        with self.lock:
            if not self._of_a_generator:
                state.update(position=self._stream.position, spawned=self._spawned)
            elif self._stream.xoshiro is not None:
                state.update(words=list(self._stream.xoshiro), spawned=self._stream.spawned)
            else:
                state.update(position=self._stream.position, spawned=self._stream.spawned)
        return state

    @state.setter
    def state(self, value: dict) -> None:
        if self._of_a_generator:
            self._set_generator_state(value)
            return
        key, position, spawned = _checked_state(value, type(self).__name__, self._generator)
        # In place: numpy's Generator holds a pointer to this stream.
        with self.lock:
            self._stream.reset(key, position)
            self._spawned = spawned

    def _set_generator_state(self, value: dict) -> None:
        """A ``fairdeck.Generator``'s bit generator takes a state of its own
        key (the Generator's ``.seed`` does not change): its position (or
        xoshiro256++ words) and spawn count."""
        words = value.get("words") if isinstance(value, dict) else None
        if words is not None:
            value = {**value, "position": 0}
        key, position, spawned = _checked_state(value, type(self).__name__, self._generator)
        if key.lower() != self._stream.key:
            raise ValueError(
                "this bit generator belongs to a fairdeck.Generator and keeps its key:"
                " make a fairdeck.Generator(state['key']) for another key"
            )
        with self.lock:
            if self._stream.xoshiro is None:
                self._stream.seek(position)
            elif words is None:
                raise ValueError("state has no 'words' (a Generator's xoshiro256pp state is its four words)")
            else:
                self._stream.set_xoshiro([_count({"words": w}, "words", 2**64 - 1) for w in words])
            self._stream.spawned = spawned

    def __reduce__(self):
        if self._of_a_generator:
            return (_restore_of_generator, (type(self), self.state))
        return (_restore, (type(self), self.state))

    def __setstate__(self, state):  # pragma: no cover - pickling uses __reduce__
        self.state = state

    def __getstate__(self):
        """numpy's ``(state, seed_seq)``: there is no SeedSequence (see ``seed_seq``)."""
        return self.state, None

    @property
    def seed_seq(self):
        raise AttributeError(
            f"{type(self).__name__} has no SeedSequence: its stream is keyed by `key`"
            " (the CLI's --seed); use spawn() for independent children"
        )

    def spawn(self, n_children: int) -> list:
        """``n_children`` independent bit generators of the same kind. Child
        ``i`` (counting every child this generator ever spawned) is keyed with
        ``SHA-256("fairdeck-py/spawn/" + key bytes + i as 8 bytes LE)``.
        ``n_children`` is read as numpy reads it (``2.5`` is 2; a negative
        count is an OverflowError)."""
        n = _numpy_count(n_children, "n_children")
        if n < 0:
            raise OverflowError(f"n_children must be non-negative, got {n}")
        parent = bytes.fromhex(self.key)
        if self._of_a_generator:
            # One count with the Generator's spawn, as numpy's SeedSequence.
            first = self._stream.reserve_spawns(n)
        else:
            with self.lock:
                first = self._spawned
                if first + n > _MAX_SPAWNED:
                    raise ValueError("a bit generator spawns at most 2**64 children")
                self._spawned += n
        return [
            type(self)(hashlib.sha256(b"fairdeck-py/spawn/" + parent + i.to_bytes(8, "little")).hexdigest())
            for i in range(first, first + n)
        ]

    def random_raw(self, size=None, output=True):
        """The next 64-bit words of the stream (``size`` of them, or one)."""
        shape = () if size is None else _shape(size)
        with self.lock:
            words = self._stream.words(int(np.prod(shape, dtype=np.uint64)))
        if not output:
            return None
        return int(words[0]) if size is None else words.reshape(shape)

    @property
    def ctypes(self):
        """numpy's ``ctypes`` interface: the state's address and the
        ``next_uint64``/``next_uint32``/``next_double`` functions as ctypes
        function pointers, read from the capsule (made once, then the same
        object). As in numpy, calls through it do not take ``lock``."""
        if self._ctypes_interface is None:
            self._ctypes_interface = _ctypes_interface(self.capsule)
        return self._ctypes_interface

    @property
    def cffi(self):
        raise NotImplementedError(
            f"{type(self).__name__} offers numpy's capsule and ctypes interfaces, not cffi"
        )

    def _benchmark(self, cnt, method="uint64"):
        """numpy's test hook: draws ``cnt`` words (``"uint64"``) or doubles
        (``"double"``, one word each) and discards them; ValueError for
        another method. For fairdeck's own timings use ``python -m fairdeck.bench``."""
        if method not in ("uint64", "double"):
            raise ValueError("Unknown method")
        left = operator.index(cnt)
        with self.lock:
            while left > 0:
                step = min(left, 1 << 16)
                self._stream.words(step)
                left -= step

    def __repr__(self) -> str:
        # No part of the key: a logged repr must not give away the stream.
        return f"<{type(self).__name__} at 0x{id(self):X}>"


def _ctypes_interface(capsule):
    """numpy's ``interface`` tuple for the ``bitgen_t`` inside ``capsule``
    (numpy's ``bitgen.h``: the state pointer, then the four functions)."""
    import ctypes
    from collections import namedtuple

    try:
        from numpy.random._common import interface
    except ImportError:  # numpy's private module moved: the same fields
        interface = namedtuple(
            "interface", ["state_address", "state", "next_uint64", "next_uint32", "next_double", "bit_generator"]
        )
    word = ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_void_p)

    class BitGen(ctypes.Structure):
        _fields_ = [
            ("state", ctypes.c_void_p),
            ("next_uint64", word),
            ("next_uint32", ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p)),
            ("next_double", ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_void_p)),
            ("next_raw", word),
        ]

    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    address = get_pointer(capsule, b"BitGenerator")
    bitgen = BitGen.from_address(address)
    return interface(
        bitgen.state, ctypes.c_void_p(bitgen.state), bitgen.next_uint64, bitgen.next_uint32,
        bitgen.next_double, ctypes.c_void_p(address),
    )


class ChaCha20(_FairdeckBitGenerator):
    """ChaCha20 keyed with the seed (the CLI's default generator)."""

    _generator = "chacha20"


class ChaCha12(_FairdeckBitGenerator):
    """ChaCha12 keyed with the seed (``--generator chacha12``)."""

    _generator = "chacha12"


class ChaCha8(_FairdeckBitGenerator):
    """ChaCha8 keyed with the seed (``--generator chacha8``)."""

    _generator = "chacha8"


class Xoshiro256PlusPlus(_FairdeckBitGenerator):
    """Xoshiro256++ with the seed as its state (``--generator xoshiro256pp``):
    fast and predictable, for simulations only."""

    _generator = "xoshiro256pp"


class Random(_random.Random):
    """``random.Random`` on a fairdeck stream: ``Random(seed, generator="chacha20")``.

    ``random()`` is ``(next 8 bytes as uint64 >> 11) * 2**-53``;
    ``getrandbits(k)`` takes the next ``ceil(k/8)`` bytes (little-endian) and
    keeps the low ``k`` bits, so ``randrange``, ``shuffle`` and ``sample``
    (which reject on ``getrandbits``) are exact.
    """

    def __init__(self, seed=None, generator: str = "chacha20"):
        self._generator = generator
        super().__init__(seed)

    def seed(self, a=None, version=2):  # noqa: ARG002 - the signature of random.Random.seed
        """Keys the stream with ``a`` as ``fairdeck.Generator`` takes a seed."""
        self._stream = BitStream(getattr(self, "_generator", "chacha20"), a)
        self.gauss_next = None

    def random(self) -> float:
        return self._stream.double()

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        raw = int.from_bytes(self._stream.bytes((k + 7) // 8), "little")
        return raw & ((1 << k) - 1)

    def randbytes(self, n: int) -> bytes:
        return self._stream.bytes(n)

    def getstate(self):
        return (self._generator, self._stream.key, self._stream.position, self.gauss_next)

    def setstate(self, state):
        generator, key, position, gauss_next = state
        stream = BitStream(generator, key)
        stream.reset(key, position)
        self._generator, self._stream, self.gauss_next = generator, stream, gauss_next

    def __reduce__(self):
        return (_restore_random, (self.getstate(),))


def _restore_random(state):
    r = Random(state[1], generator=state[0])
    r.setstate(state)
    return r
