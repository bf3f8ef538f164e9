"""The audit's family likelihood-ratio tests (riffles-lr, shelf-lr, ...), its model
estimate and its histograms come out of fairdeck.audit() as out of
`fairdeck audit --input FILE --format json` (the real binary) for the same log,
with the same verdict: one report layer behind both front ends."""

import numpy as np
import pytest

import fairdeck

FAMILY_TESTS = ["riffles-lr", "shelf-lr", "shelf-twice-lr", "shelf-biased-lr", "top-to-random-lr"]


def shelf_machine(g, decks, n=52, shelves=10):
    """Decks from one pass of a fair shelf machine (Diaconis, Fulman and Holmes
    2013): each card in turn goes on a uniform shelf, on top or below with
    chance 1/2, and the shelves are stacked."""
    rows = []
    for _ in range(decks):
        piles = [[] for _ in range(shelves)]
        where = g.integers(0, shelves, size=n)
        top = g.integers(0, 2, size=n)
        for card in range(n):
            pile = piles[int(where[card])]
            if top[card]:
                pile.insert(0, card)
            else:
                pile.append(card)
        rows.append([c for pile in piles for c in pile])
    return np.array(rows)


def both(cli_json, tmp_path, perms):
    path = tmp_path / "decks.txt"
    path.write_text("\n".join(" ".join(map(str, row)) for row in perms.tolist()) + "\n")
    doc = cli_json("audit", "--input", path)
    mine = fairdeck.audit(perms)
    return doc, mine


def family_rows(report):
    return {t["name"]: t for t in report["tests"] if t["name"] in FAMILY_TESTS}


@pytest.mark.parametrize(
    "machine,decks,verdict",
    [
        # Negative control: 20 decks of a 10-shelf machine. DFH: its decks have
        # at most 9 valleys where a uniform deck has 16.7 on average; the audit
        # (family-wise alpha 1e-6) calls it biased and the estimate names it.
        ("shelves", 20, "biased"),
        # Uniform decks: no test may reject (false-alarm rate at most 1e-6 for
        # the whole audit, seeded so this never flakes).
        ("uniform", 400, "no bias detected"),
    ],
)
def test_family_tests_and_estimate_match_the_cli(cli_json, tmp_path, machine, decks, verdict):
    g = fairdeck.Generator(f"audit families {machine}")
    if machine == "shelves":
        perms = shelf_machine(g, decks)
    else:
        perms = g.permuted(np.tile(np.arange(52), (decks, 1)), axis=1)
    doc, mine = both(cli_json, tmp_path, perms)
    assert mine["verdict"] == doc["verdict"] == verdict
    assert mine["failed"] == doc["failed"]
    ran = family_rows(mine)
    skipped = {s["name"] for s in mine["skipped"]}
    # Every family test either ran or says why not, on both sides alike.
    assert set(ran) | (skipped & set(FAMILY_TESTS)) == set(FAMILY_TESTS)
    assert ran == family_rows(doc)
    assert ran, "some family test runs at 52 cards"
    for row in ran.values():
        assert row["method"] == "likelihood ratio (chernoff, union)"
    assert mine["estimate"] == doc["estimate"]
    assert mine["histograms"] == doc["histograms"]
    if verdict == "biased":
        assert ran["shelf-lr"]["passed"] is False
        assert mine["estimate"]["family"] == "shelf"
        assert "shelf" in mine["estimate"]["sentence"]
    else:
        assert all(row["passed"] for row in ran.values())
        assert "family" not in mine["estimate"]
