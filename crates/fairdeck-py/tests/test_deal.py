"""deal: the CLI's JSON document as a dict, and its bad input."""

import pytest

import fairdeck

pytestmark = pytest.mark.filterwarnings("ignore:the seed text")


def test_bridge_deal_conserves_the_deck():
    d = fairdeck.Generator("bridge").deal()
    assert d["game"] == "bridge" and d["deck_size"] == 52
    cards = [c for hand in d["hands"] for c in hand["cards"]] + d["stock"]
    assert len(cards) == 52 and len(set(cards)) == 52
    assert [h["name"] for h in d["hands"]] == ["North", "East", "South", "West"]


def test_entropy_fields_follow_the_seed():
    os_key = fairdeck.Generator().deal()
    assert (os_key["entropy_source"], os_key["entropy_key_bits"]) == ("os", 256.0)
    hex_key = fairdeck.Generator("ab" * 32).deal()
    assert hex_key["entropy_source"] == "hex-key"
    with pytest.warns(UserWarning, match="the seed text holds at most 6.6 bits"):
        text = fairdeck.Generator("42").deal()
    assert text["entropy_source"] == "seed-text" and text["entropy_key_bits"] < 7


def test_successive_deals_differ():
    g = fairdeck.Generator("two deals")
    assert g.deal()["hands"] != g.deal()["hands"]


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"game": "poker night"}, "unknown game"),
        ({"deck": "tarot"}, "unknown deck"),
        ({"cards": 5}, "needs players"),
        ({"players": 3}, "needs cards= or game="),
        ({"game": "bridge", "cards": 5, "players": 4}, "not both"),
        ({"players": 20, "cards": 5}, "deck holds only 52"),
        ({"players": 0, "cards": 5}, "invalid deal"),
        ({"game": "holdem", "players": 40}, "2 to 22 players"),
    ],
)
def test_bad_deals(kwargs, match):
    with pytest.raises(ValueError, match=match):
        fairdeck.Generator("bad").deal(**kwargs)


def test_negative_players_is_an_error_not_a_crash():
    with pytest.raises(OverflowError):
        fairdeck.Generator("bad").deal(players=-1, cards=2)
