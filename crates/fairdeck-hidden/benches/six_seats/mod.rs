//! A six-seat hold'em hand played by every seat from one generator: shared
//! by the `hand` bench and the `cpu_time` example, so both measure the same
//! work.

use chacha20::ChaCha20Rng;
use fairdeck::fair::Manifest;
use fairdeck_hidden::Table;
use fairdeck_hidden::dleq::share_message;
use fairdeck_hidden::elgamal::PublishedDeck;
use fairdeck_hidden::keys::{SecretKey, joint_key, key_message};
use fairdeck_hidden::layout::Stage;
use fairdeck_hidden::record::{Record, StreetRecord};
use fairdeck_hidden::shuffle::shuffle;

pub const SEATS: u64 = 6;

pub fn manifest() -> Manifest {
    Manifest {
        version: 3,
        table: "bench-hand".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: (0..SEATS).map(|i| format!("seat{i}")).collect(),
        first: 1,
        last: 1,
    }
}

/// Every seat's messages of one hand, as the seats would make them.
pub fn play(table: &Table, rng: &mut ChaCha20Rng) -> Record {
    let mut record = Record::new(table.manifest().clone());
    let secrets: Vec<SecretKey> = (0..SEATS).map(|_| SecretKey::generate(rng)).collect();
    for (j, sk) in secrets.iter().enumerate() {
        record
            .keys
            .push(key_message(table, j as u64, sk, rng).unwrap());
    }
    let (_, joint) = joint_key(table, &record.keys).unwrap();
    let mut deck = PublishedDeck::from_deck(table.starting_deck());
    let hand = record.hand_mut(1).unwrap();
    for j in 0..SEATS {
        let (msg, next) = shuffle(table, 1, j, &joint, &deck, rng).unwrap();
        hand.shuffles.push(msg);
        deck = next;
    }
    let layout = table.layout();
    let shares = |stage, rng: &mut ChaCha20Rng| {
        let mut out = Vec::new();
        for (j, sk) in secrets.iter().enumerate() {
            for p in layout.owed(stage, j as u64) {
                let e = &deck.deck.0[p as usize];
                out.push(share_message(table, 1, j as u64, p, sk, e, rng).unwrap());
            }
        }
        out
    };
    hand.deal = shares(Stage::Deal, rng);
    for (k, street) in layout.streets().iter().enumerate() {
        let shares = shares(Stage::Street(k), rng);
        hand.streets.push(StreetRecord {
            street: street.name.clone(),
            shares,
        });
    }
    record
}
