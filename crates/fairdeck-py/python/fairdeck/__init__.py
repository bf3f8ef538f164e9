"""fairdeck: exactly uniform, reproducible shuffles, samples and deals.

Every one of the n! orders is equally likely (exact bounded draws, no
modulo or floating-point bias), and every result can be replayed from its
256-bit seed -- in Python, in the Rust library and with the ``fairdeck``
command-line tool alike. ``fairdeck.Generator`` is a
``numpy.random.Generator``: scipy, scikit-learn and ``np.random.default_rng``
take it, and numpy's distributions draw from the same stream.

>>> import numpy as np, fairdeck
>>> g = fairdeck.Generator("friday night")
>>> deck = np.arange(52)
>>> g.shuffle(deck)
"""

from ._fairdeck import __version__, audit, exact, shuf, verify
from .bitgen import ChaCha8, ChaCha12, ChaCha20, Random, Xoshiro256PlusPlus
from .generator import Generator

__all__ = [
    "Generator",
    "audit",
    "exact",
    "shuf",
    "verify",
    "ChaCha20",
    "ChaCha12",
    "ChaCha8",
    "Xoshiro256PlusPlus",
    "Random",
    "__version__",
]
