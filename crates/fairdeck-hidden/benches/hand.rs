//! A six-seat hold'em hand end to end, one thread (issue #33 target:
//! ≤ 250 ms of CPU): six keys, six shuffles with proofs, the deal's shares
//! of 12 private cards, every seat's shares of 5 community cards, and one
//! party's full verification of the transcript. `cargo bench -p
//! fairdeck-hidden --bench hand`.

use chacha20::ChaCha20Rng;
use criterion::{Criterion, criterion_group, criterion_main};
use fairdeck_hidden::Table;
use fairdeck_hidden::verify::{Options, verify};
use rand_core::SeedableRng;

mod six_seats;
use six_seats::{manifest, play, play_31};

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
    // Version 3.1: every message signed and logged, the room's head signed.
    let signed = play_31(&table, &mut rng);
    assert!(verify(&signed, &Options::default()).verdict.signed);
    group.bench_function("whole hand, version 3.1", |b| {
        b.iter(|| {
            let record = play_31(&table, &mut rng);
            verify(&record, &Options::default())
        })
    });
    group.bench_function("verify the transcript, version 3.1", |b| {
        b.iter(|| verify(&signed, &Options::default()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
