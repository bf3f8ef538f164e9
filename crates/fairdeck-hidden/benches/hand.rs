//! A six-seat hold'em hand end to end, one thread (issue #33 target:
//! ≤ 250 ms of CPU): six keys, six shuffles with proofs, the deal's shares
//! of 12 private cards, every seat's shares of 5 community cards, and one
//! party's full verification of the transcript. `cargo bench -p
//! fairdeck-hidden --bench hand`.

use chacha20::ChaCha20Rng;
use criterion::{Criterion, criterion_group, criterion_main};
use fairdeck::fair::Manifest;
use fairdeck_hidden::Table;
use fairdeck_hidden::dleq::share_message;
use fairdeck_hidden::elgamal::PublishedDeck;
use fairdeck_hidden::keys::{SecretKey, joint_key, key_message};
use fairdeck_hidden::layout::Stage;
use fairdeck_hidden::record::{Record, StreetRecord};
use fairdeck_hidden::shuffle::shuffle;
use fairdeck_hidden::verify::{Options, verify};
use rand_core::SeedableRng;

const SEATS: u64 = 6;

fn manifest() -> Manifest {
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
fn play(table: &Table, rng: &mut ChaCha20Rng) -> Record {
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

fn bench(c: &mut Criterion) {
    let table = Table::new(manifest()).unwrap();
    let mut rng = ChaCha20Rng::from_seed([5; 32]);
    let record = play(&table, &mut rng);
    assert!(verify(&record, &Options::default()).verdict.is_valid());
    let mut group = c.benchmark_group("holdem6");
    group.sample_size(10);
    group.bench_function("whole hand (play every seat, verify once)", |b| {
        b.iter(|| {
            let record = play(&table, &mut rng);
            verify(&record, &Options::default())
        })
    });
    group.bench_function("verify the transcript", |b| {
        b.iter(|| verify(&record, &Options::default()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
