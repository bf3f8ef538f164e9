//! A six-seat hold'em hand played by every seat from one generator: shared
//! by the `hand` bench and the `cpu_time` example, so both measure the same
//! work.

use chacha20::ChaCha20Rng;
use fairdeck_fair::Manifest;
use fairdeck_hidden::Table;
use fairdeck_hidden::dleq::share_message;
use fairdeck_hidden::elgamal::PublishedDeck;
use fairdeck_hidden::group::encode_point;
use fairdeck_hidden::keys::{SecretKey, joint_key, key_message};
use fairdeck_hidden::layout::Stage;
use fairdeck_hidden::ledger::{key_digest, share_digest, shuffle_digest, sign_log};
use fairdeck_hidden::record::{Record, StreetRecord};
use fairdeck_hidden::shuffle::shuffle;
use fairdeck_hidden::signature::{Context, sign_seat};

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

/// Every seat's messages of one hand, as the seats would make them
/// (version 3: unsigned).
pub fn play(table: &Table, rng: &mut ChaCha20Rng) -> Record {
    play_with(table, rng, None)
}

/// The same hand in version 3.1: every message signed by its seat and
/// logged, the room's signed head on the whole log.
pub fn play_31(table: &Table, rng: &mut ChaCha20Rng) -> Record {
    let room = SecretKey::generate(rng);
    play_with(table, rng, Some(&room))
}

fn play_with(table: &Table, rng: &mut ChaCha20Rng, room: Option<&SecretKey>) -> Record {
    let mut record = Record::new(table.manifest().clone());
    if let Some(room) = room {
        let pk = encode_point(&room.public_key().0);
        record = Record::signed(table.manifest().clone(), Some(pk));
    }
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
    if let Some(room) = room {
        sign_all(table, &mut record, &secrets, rng);
        let ctx = Context::new(table, record.room.as_ref());
        record.head = Some(sign_log(&ctx, room, &record.log, rng));
    }
    record
}

/// Each message signed by its seat, its digest logged in the record's order.
fn sign_all(table: &Table, record: &mut Record, secrets: &[SecretKey], rng: &mut ChaCha20Rng) {
    let ctx = Context::new(table, record.room.as_ref());
    let sign = |seat: u64, d, rng: &mut ChaCha20Rng| {
        Some(sign_seat(&ctx, seat, &secrets[seat as usize], &d, rng))
    };
    let mut log = Vec::new();
    for k in &mut record.keys {
        let d = key_digest(&ctx, k);
        k.signature = sign(k.seat, d, rng);
        log.push(d);
    }
    let hand = &mut record.hands[0];
    for m in &mut hand.shuffles {
        let d = shuffle_digest(&ctx, m);
        m.signature = sign(m.seat, d, rng);
        log.push(d);
    }
    let streets = hand
        .streets
        .iter_mut()
        .map(|s| (s.street.clone(), &mut s.shares));
    for (stage, shares) in [("deal".to_string(), &mut hand.deal)]
        .into_iter()
        .chain(streets)
    {
        for m in shares.iter_mut() {
            let d = share_digest(&ctx, &stage, m);
            m.signature = sign(m.seat, d, rng);
            log.push(d);
        }
    }
    record.log = log;
}
