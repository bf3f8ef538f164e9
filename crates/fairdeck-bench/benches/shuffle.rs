//! Criterion benches: fairdeck against rand with the same generators.
//!
//! `cargo bench -p fairdeck-bench` — the same cases as the production
//! harness (`--example production`), up to 10⁶ elements (10⁸ takes seconds
//! per iteration; the harness measures it).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fairdeck_bench::cases::{Implementation, RngFamily, dealer, par_shuffler, sampler, shuffler};

const FAMILIES: [RngFamily; 3] = [RngFamily::Fast, RngFamily::Crypto, RngFamily::ChaCha12];
const IMPLS: [Implementation; 2] = [Implementation::Fairdeck, Implementation::Rand];

/// rand's `StdRng` serves both the Crypto and the ChaCha12 family: bench it once.
fn duplicate(implementation: Implementation, family: RngFamily) -> bool {
    implementation == Implementation::Rand && family == RngFamily::ChaCha12
}

fn shuffles(c: &mut Criterion) {
    for n in [52usize, 10_000, 1_000_000] {
        let mut group = c.benchmark_group(format!("shuffle/{n}"));
        group.throughput(Throughput::Elements(n as u64));
        let mut v: Vec<u32> = (0..n as u32).collect();
        for family in FAMILIES {
            for implementation in IMPLS {
                if duplicate(implementation, family) {
                    continue;
                }
                let mut op = shuffler(implementation, family);
                let id = BenchmarkId::new(implementation.name(), family.name(implementation));
                group.bench_function(id, |b| b.iter(|| op(&mut v)));
            }
            let mut op = par_shuffler(family);
            let id = BenchmarkId::new("fairdeck-par", family.name(Implementation::Fairdeck));
            group.bench_function(id, |b| b.iter(|| op(&mut v)));
        }
        group.finish();
    }
}

fn samples(c: &mut Criterion) {
    let k = 100_000;
    let mut group = c.benchmark_group(format!("sample/{k}-of-2^64"));
    group.throughput(Throughput::Elements(k as u64));
    for family in FAMILIES {
        for implementation in IMPLS {
            if duplicate(implementation, family) {
                continue;
            }
            let mut op = sampler(implementation, family);
            let id = BenchmarkId::new(implementation.name(), family.name(implementation));
            group.bench_function(id, |b| b.iter(|| op(k)));
        }
    }
    group.finish();
}

fn holdem_deals(c: &mut Criterion) {
    let mut group = c.benchmark_group("deal_holdem/9-of-52");
    group.throughput(Throughput::Elements(1));
    let mut deck: [u8; 52] = core::array::from_fn(|i| i as u8);
    for family in FAMILIES {
        for implementation in IMPLS {
            if duplicate(implementation, family) {
                continue;
            }
            let mut op = dealer(implementation, family);
            let id = BenchmarkId::new(implementation.name(), family.name(implementation));
            group.bench_function(id, |b| b.iter(|| op(&mut deck)));
        }
    }
    group.finish();
}

criterion_group!(benches, shuffles, samples, holdem_deals);
criterion_main!(benches);
