"""Type stubs of the extension module fairdeck._fairdeck (see the docstrings for details)."""

from collections.abc import Sequence
from fractions import Fraction
from os import PathLike
from typing import Any, Literal, SupportsIndex, TypedDict, TypeVar, overload

import numpy as np
import numpy.typing as npt

__version__: str

_Seed = str | int | np.integer | Sequence[int] | npt.NDArray[np.integer] | np.random.SeedSequence | None
_Size = SupportsIndex | Sequence[SupportsIndex] | npt.NDArray[np.integer]
_Threads = SupportsIndex | None
_A = TypeVar("_A", bound=np.ndarray[Any, Any])

class Hand(TypedDict, total=False):
    name: str
    role: str
    cards: list[str]
    hcp: int  # high-card points, bridge hands only

class Deal(TypedDict):
    seed: str
    generator: str
    game: str | None
    deck: str
    deck_size: int
    hands: list[Hand]
    stock: list[str]
    entropy_needed_bits: float  # log2 of the game's distinct deals
    entropy_key_bits: float
    entropy_source: str
    entropy_deals: str  # the count of distinct deals, as a formula
    entropy_order_bits: float  # log2 of the deck's distinguishable orders

class GeneratorCore:
    """The exact core of fairdeck.Generator: its key, stream and fairdeck's methods."""

    def __init__(
        self, seed: _Seed = None, generator: Literal["chacha20", "xoshiro256pp"] | str = "chacha20"
    ) -> None: ...
    @property
    def seed(self) -> str:
        """The 256-bit key as 64 hex digits."""
    @property
    def generator(self) -> str:
        """The generator's name: "chacha20" or "xoshiro256pp"."""
    def shuffle(self, x: npt.NDArray[Any] | list[Any], axis: int = 0, threads: _Threads = None) -> None:
        """Shuffle x in place along its first axis, uniformly over all n! orders."""
    @overload
    def permutation(self, x: SupportsIndex, axis: int = 0, threads: _Threads = None) -> npt.NDArray[np.int64]: ...
    @overload
    def permutation(self, x: npt.ArrayLike, axis: int = 0, threads: _Threads = None) -> npt.NDArray[Any]: ...
    @overload
    def permuted(
        self, x: npt.ArrayLike, axis: SupportsIndex | None = None, out: None = None, threads: _Threads = None
    ) -> npt.NDArray[Any]: ...
    @overload
    def permuted(
        self, x: npt.ArrayLike, axis: SupportsIndex | None = None, *, out: _A, threads: _Threads = None
    ) -> _A: ...
    @overload
    def integers(
        self,
        low: SupportsIndex | float | str,
        high: SupportsIndex | float | str | None = None,
        size: None = None,
        dtype: npt.DTypeLike | None = None,
        endpoint: object = False,
    ) -> np.integer: ...
    @overload
    def integers(
        self,
        low: SupportsIndex | npt.ArrayLike,
        high: SupportsIndex | npt.ArrayLike | None = None,
        size: _Size | None = None,
        dtype: npt.DTypeLike | None = None,
        endpoint: object = False,
    ) -> npt.NDArray[np.integer] | np.integer: ...
    def sample(self, k: SupportsIndex, n: SupportsIndex) -> npt.NDArray[np.int64 | np.uint64]:
        """k distinct integers of range(n) in random order, n up to 2**64-1."""
    @overload
    def choice(
        self, a: SupportsIndex | npt.ArrayLike, size: None = None, replace: object = True, p: npt.ArrayLike | None = None,
        axis: int = 0, shuffle: object = True,
    ) -> Any: ...
    @overload
    def choice(
        self, a: SupportsIndex | npt.ArrayLike, size: _Size, replace: object = True, p: npt.ArrayLike | None = None,
        axis: int = 0, shuffle: object = True,
    ) -> npt.NDArray[Any]: ...
    @overload
    def random(self, size: None = None, dtype: npt.DTypeLike = ..., out: None = None) -> float: ...
    @overload
    def random(
        self, size: _Size | None = None, dtype: npt.DTypeLike = ..., out: npt.NDArray[np.floating] | None = None
    ) -> npt.NDArray[np.floating]: ...
    def __copy__(self) -> GeneratorCore: ...
    def __deepcopy__(self, memo: Any) -> GeneratorCore: ...
    def release_scratch(self) -> int:
        """Frees the scratch memory kept from the last large shuffle; the bytes freed."""
    def spawn(self, n_children: SupportsIndex | float) -> list[GeneratorCore]:
        """Independent children, keyed as `fairdeck.ChaCha20(seed).spawn` keys them."""
    def bytes(self, length: SupportsIndex | float) -> bytes:
        """`length` random bytes from the stream (the CLI's `fairdeck rng --bytes`)."""
    def deal(
        self,
        game: str | None = None,
        players: int | None = None,
        cards: int | None = None,
        deck: str | None = None,
    ) -> Deal:
        """Shuffle a deck and deal it: the document of `fairdeck deal --format json`."""

class BitStream:
    """One fairdeck generator's byte stream and the numpy capsule over it (see bitgen.py)."""

    def __init__(self, generator: str, seed: str | int | None = None) -> None: ...
    @property
    def capsule(self) -> object: ...
    @property
    def generator(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def position(self) -> int: ...
    def reset(self, seed: str | int, position: int) -> None: ...
    def words(self, count: int) -> np.ndarray: ...
    def bytes(self, count: int) -> bytes: ...
    def double(self) -> float: ...

class GeneratorBits:
    """A GeneratorCore's stream as numpy reads a bit generator's (see generator_bits.rs)."""

    def __init__(self, core: GeneratorCore) -> None: ...
    @property
    def capsule(self) -> object: ...
    @property
    def generator(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def position(self) -> int | None: ...
    @property
    def xoshiro(self) -> list[int] | None: ...
    def seek(self, position: int) -> None: ...
    def set_xoshiro(self, words: Sequence[int]) -> None: ...
    spawned: int
    def reserve_spawns(self, n: int) -> int: ...
    def words(self, count: int) -> np.ndarray: ...
    def bytes(self, count: int) -> bytes: ...
    def double(self) -> float: ...

class ExactResult(TypedDict):
    algorithm: str
    n: int
    paths: int
    depth: int
    support: int
    orders: int
    uniform: bool
    uniform_on_resolved: bool
    total_variation: Fraction
    total_variation_at_least: Fraction
    total_variation_at_most: Fraction
    unresolved: Fraction
    outcomes: dict[tuple[int, ...], Fraction]

def exact(algorithm: str, n: int, max_paths: int = 10_000_000, max_depth: int = 200) -> ExactResult:
    """The exact output distribution of a catalogue algorithm on n items."""

class AuditTest(TypedDict, total=False):
    name: str
    statistic: float
    dof: float
    p_value: float
    passed: bool

class AuditSkipped(TypedDict):
    name: str
    reason: str

class AuditDetectable(TypedDict):
    test: str
    measure: str
    size: float
    power: float
    too_few: bool

class AuditNeeded(TypedDict):
    size: float
    trials: int
    power: float

class AuditEquivalence(TypedDict, total=False):
    tolerance: float
    confidence: float
    method: str
    lowest: float
    highest: float
    worst: float
    within: bool
    trials_needed: int

class AuditResult(TypedDict, total=False):
    source: str
    n: int
    trials: int
    verdict: Literal[
        "biased", "no bias detected", "uniform within tolerance", "undecided", "inconclusive"
    ]
    detectable: list[AuditDetectable]
    detect: AuditNeeded
    equivalence: AuditEquivalence
    alpha: float
    per_test_alpha: float
    tests: list[AuditTest]
    failed: list[str]
    skipped: list[AuditSkipped]

def audit(
    perms: npt.ArrayLike,
    alpha: float = 1e-6,
    base: int | None = None,
    detect: float | None = None,
    tolerance: float | None = None,
    confidence: float = 0.999,
) -> AuditResult:
    """Statistical audit of permutations, one per row of a 2-D integer array."""

_Path = str | PathLike[str]

class ShufResult(TypedDict):
    records: int
    bytes: int
    method: str
    seed: str

def shuf(
    input_path: _Path,
    output_path: _Path,
    memory: int | str | None = None,
    seed: _Seed = None,
    temp_dir: _Path | None = None,
) -> ShufResult:
    """Shuffle the lines of a file into another (or itself), out of core beyond `memory`."""

def verify(
    transcript: str,
    *,
    commitment: str | None = None,
    lock: str | None = None,
    seat: str | None = None,
    seed: str | None = None,
    played: str | None = None,
    server_secret: str | None = None,
    key: str | None = None,
    evidence: str | None = None,
    seat_keys: list[str] | None = None,
) -> dict[str, Any]:
    """Verify a fair-dealing transcript of any version, as `fairdeck fair verify --format json`."""
