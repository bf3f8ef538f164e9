//! A whole hand: keys, shuffles, private, community and showdown cards.

mod fixture;

use fairdeck_hidden::deal::{self, Reader};
use fairdeck_hidden::shuffle::ShuffleMessage;
use fixture::{hand, rng};

#[test]
fn a_three_seat_hand_deals_distinct_cards_to_the_right_readers() {
    let h = hand("hand-test", 3, 11);
    let mut rng = rng(12);
    let dealt = &h.decks.last().unwrap().deck;
    let mut seen = Vec::new();
    // Hole cards: position p to seat p mod 3; the two others share.
    for p in 0..6u64 {
        let owner = p % 3;
        let shares: Vec<_> = (0..3u64)
            .filter(|&j| j != owner)
            .map(|j| {
                let e = &dealt.0[p as usize];
                deal::share_message(&h.table, 1, j, p, &h.secrets[j as usize], e, &mut rng).unwrap()
            })
            .collect();
        let reader = Reader::Seat {
            seat: owner,
            key: &h.secrets[owner as usize],
        };
        let card = deal::open(&h.table, &h.keys, dealt, (1, p), &shares, reader).unwrap();
        // Without the owner's key, the same shares open nothing.
        let err = deal::open(&h.table, &h.keys, dealt, (1, p), &shares, Reader::Everyone);
        assert_eq!(err.unwrap_err().kind(), "missing-share");
        seen.push(card.to_string());
    }
    // A community card: every seat's share.
    let shares: Vec<_> = (0..3u64)
        .map(|j| {
            let e = &dealt.0[7];
            deal::share_message(&h.table, 1, j, 7, &h.secrets[j as usize], e, &mut rng).unwrap()
        })
        .collect();
    seen.push(
        deal::open(&h.table, &h.keys, dealt, (1, 7), &shares, Reader::Everyone)
            .unwrap()
            .into(),
    );
    let mut distinct = seen.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 7, "{seen:?}");
}

#[test]
fn messages_round_trip_through_json() {
    let h = hand("json-test", 2, 13);
    let text = serde_json::to_string(&h.shuffles[0]).unwrap();
    let back: ShuffleMessage = serde_json::from_str(&text).unwrap();
    assert_eq!(back, h.shuffles[0]);
    let key = serde_json::to_string(&h.key_msgs[1]).unwrap();
    assert!(key.starts_with("{\"seat\":1,\"public_key\":\""), "{key}");
    // Unknown fields are refused.
    let extra = text.replacen('{', "{\"extra\":1,", 1);
    assert!(serde_json::from_str::<ShuffleMessage>(&extra).is_err());
}
