//! `fairdeck bench --production`: fairdeck against `rand`, one run, one report.
//!
//! For each size, generator family and thread count the harness shuffles a
//! `Vec<u32>` of that size repeatedly until the time budget of the case is
//! spent (at least once), in batches, and keeps the fastest batch's
//! nanoseconds per element (the least disturbed by other processes). `rand`
//! has no parallel shuffle, so it is measured on one thread only; the
//! speed-ups of two threads are read against its one-thread time.
//!
//! The `op` of a row says what was timed (`n` and `ns_per_element` read
//! accordingly):
//!
//! | op | what | `n` | one element |
//! |---|---|---|---|
//! | `shuffle` | shuffle a `Vec<u32>` | its length | one `u32` |
//! | `shuffle_u64` | shuffle a `Vec<u64>` ([`Options::wide_sizes`]) | its length | one `u64` |
//! | `memcpy` | copy the `u32` array into a prefaulted one: the floor no shuffle beats | its length | one `u32` |
//! | `memcpy_u64` | the same for the `u64` array | its length | one `u64` |
//! | `deal_holdem` | deal 9 of 52 (2 hole + 5 board cards) by a partial shuffle | 9 | one deal |
//! | `sample` | `k` distinct values below 2⁶⁴ − 1 | `k` | one value |
//!
//! Floor rows have `impl` `std` and `rng` `none`.

use std::hint::black_box;
use std::time::{Duration, Instant};

pub use crate::report::{Measurement, Report};

use crate::cases::{
    HOLDEM_CARDS, Implementation, RngFamily, Shuffler, dealer, par_shuffler, sampler, shuffler,
};

/// What to measure.
#[derive(Debug, Clone)]
pub struct Options {
    /// Slice lengths to shuffle (52 is a deck of cards).
    pub sizes: Vec<usize>,
    /// Lengths also shuffled as `Vec<u64>` (op `shuffle_u64`).
    pub wide_sizes: Vec<usize>,
    /// Thread counts for fairdeck's `Shuffle::run_parallel_from_dice` (1 means plain `shuffle`).
    pub threads: Vec<usize>,
    /// Time budget of each case; a case runs at least once whatever it costs.
    pub max_time: Duration,
    /// Which implementations to run.
    pub impls: Vec<Implementation>,
    /// Which generator families to run.
    pub rngs: Vec<RngFamily>,
    /// `k` for `sample(k, 2^64 − 1)`; `None` skips the sampling cases.
    pub sample_k: Option<usize>,
    /// Whether to time hold'em deals (op `deal_holdem`).
    pub holdem: bool,
    /// Whether to time the memcpy floor of every size (ops `memcpy`, `memcpy_u64`).
    pub floor: bool,
}

impl Default for Options {
    /// The benchmark: a deck, 10⁴, 10⁶ and 10⁸ elements (10⁸ also as
    /// `u64`), 1 and 2 threads, every family, the memcpy floor, hold'em
    /// deals, sampling 10⁶ of 2⁶⁴ − 1; one second per case.
    fn default() -> Self {
        Options {
            sizes: vec![52, 10_000, 1_000_000, 100_000_000],
            wide_sizes: vec![100_000_000],
            threads: vec![1, 2],
            max_time: Duration::from_secs(1),
            impls: vec![Implementation::Fairdeck, Implementation::Rand],
            rngs: vec![RngFamily::Fast, RngFamily::Crypto, RngFamily::ChaCha12],
            sample_k: Some(1_000_000),
            holdem: true,
            floor: true,
        }
    }
}

/// The element types a shuffle is timed on, with their op names.
pub(crate) trait Element: Copy + Send + 'static {
    const SHUFFLE: &'static str;
    const FLOOR: &'static str;
    fn of(i: usize) -> Self;
}

impl Element for u32 {
    const SHUFFLE: &'static str = "shuffle";
    const FLOOR: &'static str = "memcpy";
    fn of(i: usize) -> Self {
        i as u32
    }
}

impl Element for u64 {
    const SHUFFLE: &'static str = "shuffle_u64";
    const FLOOR: &'static str = "memcpy_u64";
    fn of(i: usize) -> Self {
        i as u64
    }
}

/// Runs every case `options` asks for and returns the report.
///
/// Takes about `max_time` per case plus one run of each case at 10⁸
/// elements (a few seconds each). Thread pools that cannot be built are
/// skipped (the report then lacks those rows).
pub fn run(options: &Options) -> Report {
    let mut report = Report::default();
    for &n in &options.sizes {
        time_size::<u32>(n, options, &mut report);
    }
    for &n in &options.wide_sizes {
        time_size::<u64>(n, options, &mut report);
    }
    if options.holdem {
        time_deals(options, &mut report);
    }
    if let Some(k) = options.sample_k {
        time_samples(k, options, &mut report);
    }
    report
}

/// Every shuffle case of one size and element type, then its memcpy floor.
fn time_size<T: Element>(n: usize, options: &Options, report: &mut Report) {
    let mut buffer: Vec<T> = (0..n).map(T::of).collect();
    for (implementation, family, threads) in cases(options, true) {
        let rng = family.name(implementation);
        if report.has(T::SHUFFLE, implementation, rng, n, threads) {
            continue; // rand's StdRng row, already measured for another family
        }
        let Some(ns) = time_shuffle(
            implementation,
            family,
            threads,
            &mut buffer,
            options.max_time,
        ) else {
            continue;
        };
        report.push(T::SHUFFLE, implementation.name(), rng, n, threads, ns);
    }
    if options.floor {
        // A copy of the whole array into a prefaulted destination: every
        // element read once and written once, as the fastest shuffle must.
        let mut copy = buffer.clone();
        let ns = best_ns_per_item(n.max(1), options.max_time, || {
            copy.copy_from_slice(black_box(&buffer));
            black_box(&mut copy);
        });
        report.push(T::FLOOR, "std", "none", n, 1, ns);
    }
}

/// The (implementation, family, threads) triples to run; rand on one thread only.
fn cases(options: &Options, with_threads: bool) -> Vec<(Implementation, RngFamily, usize)> {
    let threads: &[usize] = if with_threads { &options.threads } else { &[1] };
    let mut out = Vec::new();
    for &family in &options.rngs {
        for &implementation in &options.impls {
            for &t in threads {
                if implementation == Implementation::Fairdeck || t == 1 {
                    out.push((implementation, family, t));
                }
            }
        }
    }
    out
}

/// One shuffle case on `buffer`: the fastest batch's ns per element, or
/// `None` when a pool of `threads` threads cannot be built.
pub(crate) fn time_shuffle<T: Element>(
    implementation: Implementation,
    family: RngFamily,
    threads: usize,
    buffer: &mut [T],
    max_time: Duration,
) -> Option<f64> {
    let mut op: Shuffler<T> = if threads == 1 {
        shuffler(implementation, family)
    } else {
        par_shuffler(family)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok()?;
    let n = buffer.len().max(1);
    Some(pool.install(|| best_ns_per_item(n, max_time, || op(buffer))))
}

/// Hold'em deals: 9 cards of a 52-card deck per call, timed per deal.
fn time_deals(options: &Options, report: &mut Report) {
    let mut deck: [u8; 52] = core::array::from_fn(|i| i as u8);
    for (implementation, family, _) in cases(options, false) {
        let rng = family.name(implementation);
        if report.has("deal_holdem", implementation, rng, HOLDEM_CARDS, 1) {
            continue;
        }
        let mut op = dealer(implementation, family);
        let mut sink = 0u8;
        let ns = best_ns_per_item(1, options.max_time, || sink ^= op(&mut deck));
        black_box(sink);
        report.push(
            "deal_holdem",
            implementation.name(),
            rng,
            HOLDEM_CARDS,
            1,
            ns,
        );
    }
}

fn time_samples(k: usize, options: &Options, report: &mut Report) {
    for (implementation, family, _) in cases(options, false) {
        let rng = family.name(implementation);
        if report.has("sample", implementation, rng, k, 1) {
            continue;
        }
        let mut op = sampler(implementation, family);
        let mut sink = 0u64;
        let ns = best_ns_per_item(k.max(1), options.max_time, || sink ^= op(k));
        black_box(sink);
        report.push("sample", implementation.name(), rng, k, 1, ns);
    }
}

/// Runs `op` (which handles `items` items) in batches of about a
/// millisecond until `budget` is spent, at least once after one warm-up
/// call; returns the fastest batch's nanoseconds per item.
pub(crate) fn best_ns_per_item(items: usize, budget: Duration, mut op: impl FnMut()) -> f64 {
    let warm = Instant::now();
    op();
    let once = warm.elapsed().max(Duration::from_nanos(1));
    let per_batch = (Duration::from_micros(200).as_nanos() / once.as_nanos()).max(1) as u32;
    let start = Instant::now();
    let mut best = f64::INFINITY;
    while best.is_infinite() || start.elapsed() < budget {
        let t = Instant::now();
        for _ in 0..per_batch {
            op();
        }
        let ns = t.elapsed().as_nanos() as f64 / (f64::from(per_batch) * items as f64);
        best = best.min(ns);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_run_reports_every_case() {
        let options = Options {
            sizes: vec![52, 3000],
            wide_sizes: vec![3000],
            max_time: Duration::from_millis(5),
            sample_k: Some(100),
            ..Options::default()
        };
        let report = run(&options);
        // Per size: 3 families × fairdeck on 1 and 2 threads, rand's two
        // generators (StdRng serves two families), the memcpy floor = 9;
        // 3 sizes (two u32, one u64). Deals and samples: 3 fairdeck + 2 rand each.
        assert_eq!(report.results.len(), 3 * 9 + 5 + 5);
        assert!(report.results.iter().all(|r| r.ns_per_element > 0.0));
        let count = |op: &str| report.results.iter().filter(|r| r.op == op).count();
        assert_eq!(
            [count("shuffle_u64"), count("memcpy"), count("memcpy_u64")],
            [8, 2, 1]
        );
        let json = serde_json::to_value(&report).unwrap();
        let first = &json["results"][0];
        for field in ["op", "impl", "rng", "n", "threads", "ns_per_element"] {
            assert!(!first[field].is_null(), "{field}");
        }
        let chacha12 = report.results.iter().find(|r| r.rng == "chacha12").unwrap();
        assert_eq!(report.baseline(chacha12).unwrap().rng, "stdrng-chacha12");
        assert_eq!(report.floor(chacha12).unwrap().op, "memcpy");
        let text = report.to_text();
        assert!(text.contains("×") && text.contains("hold'em deals/s (fairdeck chacha12)"));
    }
}
