//! Prove and verify one 52-card shuffle, one thread (issue #33 targets:
//! prove ≤ 15 ms, verify ≤ 10 ms). `cargo bench -p fairdeck-hidden`.

use chacha20::ChaCha20Rng;
use criterion::{Criterion, criterion_group, criterion_main};
use fairdeck_fair::Manifest;
use fairdeck_hidden::Table;
use fairdeck_hidden::elgamal::PublishedDeck;
use fairdeck_hidden::keys::SecretKey;
use fairdeck_hidden::shuffle::{self, verify_shuffle};
use rand_core::SeedableRng;

fn table() -> Table {
    Table::new(Manifest {
        version: 3,
        table: "bench".into(),
        game: "holdem".into(),
        deck: "standard".into(),
        seats: vec!["ann".into(), "bob".into()],
        first: 1,
        last: 1,
    })
    .expect("valid manifest")
}

fn bench(c: &mut Criterion) {
    let table = table();
    let mut rng = ChaCha20Rng::from_seed([3; 32]);
    let joint = SecretKey::generate(&mut rng).public_key();
    let start = PublishedDeck::from_deck(table.starting_deck());
    // A realistic input: a deck already shuffled once (no identity b's).
    let (_, input) = shuffle::shuffle(&table, 1, 0, &joint, &start, &mut rng).unwrap();
    let (msg, _) = shuffle::shuffle(&table, 1, 1, &joint, &input, &mut rng).unwrap();
    let mut group = c.benchmark_group("shuffle52");
    group.bench_function("prove (permute, re-encrypt, prove)", |b| {
        b.iter(|| shuffle::shuffle(&table, 1, 1, &joint, &input, &mut rng).unwrap())
    });
    group.bench_function("verify (decode, check)", |b| {
        b.iter(|| verify_shuffle(&table, (1, 1), &joint, &input, &msg).unwrap())
    });
    group.bench_function("table setup (card points, generators)", |b| {
        b.iter(self::table)
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
