"""The same seed gives the same shuffle, sample, deal, exact distribution and
audit in Python as the `fairdeck` command-line tool (the real binary)."""

from fractions import Fraction

import numpy as np
import pytest

import fairdeck

# Short seed texts warn (as the CLI does on stderr); tested in test_deal.py.
pytestmark = pytest.mark.filterwarnings("ignore:the seed text")

SEEDS = ["friday night", "42", "5eed00000000000000000000000000000000000000000000000000000000cafe"]
GENERATORS = ["chacha20", "xoshiro256pp"]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("generator", GENERATORS)
@pytest.mark.parametrize("k,n", [(5, 90), (6, 49), (3, 2**64 - 1), (900, 1000), (1, 1)])
def test_sample_equals_cli(cli_json, seed, generator, k, n):
    doc = cli_json("sample", k, n, "--seed", seed, "--generator", generator)
    mine = fairdeck.Generator(seed, generator).sample(k, n)
    # The CLI numbers 1..N; the Python sample is 0-based like range(n).
    assert [int(v) + 1 for v in mine] == doc["numbers"]


DEALS = [
    {},
    {"game": "holdem", "players": 6},
    {"game": "skat"},
    {"game": "scopa"},
    {"game": "draw", "deck": "jokers"},
    {"players": 3, "cards": 7, "deck": "shoe:2"},
    {"players": 5, "cards": 1},
]


def deal_flags(kwargs):
    flags = []
    for name, value in kwargs.items():
        flags += [f"--{name}", value]
    return flags


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("generator", GENERATORS)
@pytest.mark.parametrize("kwargs", DEALS)
def test_deal_equals_cli_json(cli_json, seed, generator, kwargs):
    doc = cli_json("deal", "--seed", seed, "--generator", generator, *deal_flags(kwargs))
    assert fairdeck.Generator(seed, generator).deal(**kwargs) == doc


def test_int_seed_means_its_digits(cli_json):
    assert fairdeck.Generator(42).deal() == cli_json("deal", "--seed", "42")
    assert fairdeck.Generator(42).seed == fairdeck.Generator("42").seed


def cli_deck_order(cli_json, seed, deck, size, generator="chacha20"):
    """The whole shuffled deck, in order: one player dealt every card."""
    doc = cli_json(
        "deal", "--seed", seed, "--generator", generator, "--deck", deck,
        "--players", 1, "--cards", size,
    )
    return doc["hands"][0]["cards"]


@pytest.mark.parametrize("deck,size", [("standard", 52), ("piquet", 32), ("shoe:6", 312)])
@pytest.mark.parametrize("generator", GENERATORS)
def test_permutation_is_the_cli_deal_shuffle(cli_json, deck, size, generator):
    # `fairdeck deal` shuffles the deck with the library's production
    # shuffle; dealing every card to one player prints the shuffled deck.
    # Card i of the deal is card perm[i] of the unshuffled deck, so the
    # unshuffled deck recovered through one seed's permutation must be the
    # same for every seed (a wrong permutation recovers a different deck).
    decks = []
    for seed in SEEDS:
        dealt = cli_deck_order(cli_json, seed, deck, size, generator)
        perm = fairdeck.Generator(seed, generator).permutation(size)
        original = [None] * size
        for i, p in enumerate(perm.tolist()):
            original[p] = dealt[i]
        decks.append(original)
    assert decks[0] == decks[1] == decks[2]
    if deck != "shoe:6":
        assert len(set(decks[0])) == size


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float64, "U3", object])
def test_array_and_list_shuffles_are_the_cli_deal_shuffle(cli_json, dtype):
    seed = "dtypes"
    dealt = cli_deck_order(cli_json, seed, "standard", 52)
    perm = fairdeck.Generator(seed).permutation(52).tolist()
    deck = [None] * 52
    for i, p in enumerate(perm):
        deck[p] = dealt[i]
    cards = list(deck)
    fairdeck.Generator(seed).shuffle(cards)
    assert cards == dealt
    a = np.arange(52).astype(dtype)
    fairdeck.Generator(seed).shuffle(a)
    assert [deck[int(i)] for i in a] == dealt


@pytest.mark.parametrize("algorithm,n", [("naive-swap", 3), ("fisher-yates", 4), ("sattolo", 4)])
def test_exact_equals_cli(cli_json, algorithm, n):
    doc = cli_json("exact", algorithm, "-n", n)
    mine = fairdeck.exact(algorithm, n)
    assert mine["outcomes"] == {
        tuple(o["permutation"]): Fraction(o["probability"]) for o in doc["outcomes"]
    }
    for key in ["algorithm", "n", "paths", "depth", "support", "uniform"]:
        assert mine[key] == doc[key]
    assert mine["orders"] == int(doc["orders"])
    assert mine["total_variation"] == Fraction(doc["total_variation"])
    assert mine["unresolved"] == Fraction(doc["unresolved"])


@pytest.mark.parametrize("base", [0, 1])
def test_audit_equals_cli_audit_input(cli_json, tmp_path, base):
    g = fairdeck.Generator("audit equality")
    perms = g.permuted(np.tile(np.arange(base, base + 6), (3000, 1)), axis=1)
    path = tmp_path / "perms.txt"
    path.write_text("\n".join(" ".join(map(str, row)) for row in perms.tolist()) + "\n")
    doc = cli_json("audit", "--input", path)
    mine = fairdeck.audit(perms)
    assert mine["source"] == "array"
    del doc["source"], mine["source"]
    assert mine == doc
