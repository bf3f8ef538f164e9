"""numpy parity, measured (issue 35, item 6): every probe of
``numpy_probes.py`` runs on numpy itself and on fairdeck, and any difference
not in the allow-list fails -- as does an allow-listed probe that no longer
differs, and an allow-list that is not exactly the README's list."""

import pathlib
import re

import numpy as np
import pytest

import fairdeck
import numpy_probes
from numpy_probes import ALLOWED, PROBES, behaviour, differences, fairdeck_pair, numpy_pair, same

README = pathlib.Path(__file__).resolve().parents[3] / "README.md"


@pytest.fixture(scope="module")
def found():
    return differences()


def test_every_difference_from_numpy_is_listed(found, record_property):
    record_property("numpy_differences", len(found))
    print(f"numpy parity: {len(found)} of {len(PROBES)} probes differ, all listed in the README")
    unlisted = {p: d for p, d in found.items() if p not in ALLOWED}
    assert not unlisted, "differences from numpy not in the README's list:\n" + "\n".join(
        f"{p}: numpy {numpy_probes.show(w)}, fairdeck {numpy_probes.show(g)}" for p, (w, g) in unlisted.items()
    )


def test_every_listed_difference_still_differs(found):
    stale = [p for p in ALLOWED if p not in found]
    assert not stale, f"listed as differing from numpy, but they behave as numpy: {stale}"


def readme_list() -> set[str]:
    """The probes the README's list of on-purpose differences names: its
    code spans that start with ``g.``, ``bg.`` or ``make(``."""
    text = README.read_text()
    start = text.index("Where it differs from `numpy.random.Generator` on purpose")
    end = text.index("\n## ", start)
    return set(re.findall(r"`((?:g\.|bg\.|make\()[^`]+)`", text[start:end]))


def test_the_readme_lists_exactly_the_allowed_differences():
    assert readme_list() == set(ALLOWED)


def test_the_probes_are_distinct_and_the_allow_list_names_probes():
    assert len(set(PROBES)) == len(PROBES)
    assert set(ALLOWED) <= set(PROBES)


# ---- the comparison itself can fail --------------------------------------


class Old:
    """A fairdeck-like generator with the behaviours of before issue 35's
    fixes: the comparison must see each of them as a difference."""

    def integers(self, *args, **kwargs):
        return int(fairdeck.Generator(1).integers(*args, **kwargs))  # a Python int, not np.int64

    def permuted(self, x, axis=None):
        raise ValueError("axis out of bounds")  # numpy: AxisError for a bad axis


@pytest.mark.parametrize("probe", [
    "g.integers(5)",
    "g.permuted(np.arange(6).reshape(2, 3), axis=2)",
])
def test_the_comparison_sees_a_wrong_type_as_a_difference(probe):
    want = behaviour(probe, numpy_pair)
    assert not same(want, behaviour(probe, lambda: (Old(), None, None)))
    assert same(want, behaviour(probe, fairdeck_pair))


def test_a_subclass_of_numpys_exception_matches_and_a_base_class_does_not():
    axis_error = ("raises", np.exceptions.AxisError)
    assert same(("raises", IndexError), axis_error)
    assert not same(axis_error, ("raises", ValueError))
    with pytest.raises(TypeError) as private:
        np.multiply(np.array(["a"]), np.array(["b"]))  # numpy's private UFuncTypeError
    assert type(private.value) is not TypeError
    assert numpy_probes.public_class(type(private.value)) is TypeError
