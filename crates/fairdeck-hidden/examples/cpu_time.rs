//! CPU-time medians (Linux: `/proc/thread-self/schedstat`, the time this
//! thread ran) of one 52-card shuffle proved and verified, and of a whole
//! six-seat hold'em hand — the criterion benches measure wall time, which a
//! loaded machine inflates. `cargo run --release -p fairdeck-hidden --example cpu_time`
//!
//! The hand is the one of `benches/hand.rs`: six keys, six shuffles with
//! proofs, the shares of 12 private and 5 community cards, one verification.

use chacha20::ChaCha20Rng;
use fairdeck_fair::Manifest;
use fairdeck_hidden::Table;
use fairdeck_hidden::elgamal::PublishedDeck;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::shuffle::{self, verify_shuffle};
use fairdeck_hidden::verify::{Options, verify};
use rand_core::SeedableRng;

#[path = "../benches/six_seats/mod.rs"]
mod six_seats;
use six_seats::{manifest, play, play_31};

fn oncpu() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    s.split_whitespace().next().unwrap().parse().unwrap()
}

/// The six-seat hand in version 3 and in 3.1 (every message signed, the
/// log and its signed head), alternating so both see the same machine.
fn hand_main() {
    let table = Table::new(manifest()).unwrap();
    let mut rng = ChaCha20Rng::from_seed([5; 32]);
    let mut times = [(Vec::new(), Vec::new()), (Vec::new(), Vec::new())];
    for _ in 0..11 {
        for (version, (all, ver)) in times.iter_mut().enumerate() {
            let t = oncpu();
            let record = match version {
                0 => play(&table, &mut rng),
                _ => play_31(&table, &mut rng),
            };
            let t2 = oncpu();
            let verdict = verify(&record, &Options::default()).verdict;
            assert!(verdict.is_valid() && verdict.signed == (version == 1));
            all.push(oncpu() - t);
            ver.push(oncpu() - t2);
        }
    }
    for (name, (all, ver)) in ["3  ", "3.1"].iter().zip(&mut times) {
        all.sort();
        ver.sort();
        let ms = |v: &[u64], i: usize| v[i] as f64 / 1e6;
        println!(
            "six-seat hand, version {name}: whole {:.1} ms [{:.1}, {:.1}], of which verify {:.1} ms [{:.1}, {:.1}] (CPU time: median [min, max] of 11)",
            ms(all, 5),
            ms(all, 0),
            ms(all, 10),
            ms(ver, 5),
            ms(ver, 0),
            ms(ver, 10)
        );
    }
}

fn main() {
    hand_main();
    let table = Table::new(Manifest {
        version: 3,
        table: "bench".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: vec!["a".into(), "b".into()],
        first: 1,
        last: 1,
    })
    .unwrap();
    let mut rng = ChaCha20Rng::from_seed([3; 32]);
    let joint = SecretKey::generate(&mut rng).public_key();
    let start = PublishedDeck::from_deck(table.starting_deck());
    let (_, input) = shuffle::shuffle(&table, 1, 0, &joint, &start, &mut rng).unwrap();
    let (msg, _) = shuffle::shuffle(&table, 1, 1, &joint, &input, &mut rng).unwrap();
    for round in 0..3 {
        let mut p = Vec::new();
        let mut v = Vec::new();
        for _ in 0..15 {
            let t = oncpu();
            shuffle::shuffle(&table, 1, 1, &joint, &input, &mut rng).unwrap();
            p.push(oncpu() - t);
            let t = oncpu();
            verify_shuffle(&table, (1, 1), &joint, &input, &msg).unwrap();
            v.push(oncpu() - t);
        }
        p.sort();
        v.sort();
        println!(
            "round {round}: prove median {:.2} ms, verify median {:.2} ms (CPU time)",
            p[7] as f64 / 1e6,
            v[7] as f64 / 1e6
        );
    }
}
