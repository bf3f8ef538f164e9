//! `fairdeck bench --production`: fairdeck against `rand`, one run, one report.
//!
//! For each size, generator family and thread count the harness shuffles a
//! `Vec<u32>` of that size repeatedly until the time budget of the case is
//! spent (at least once), in batches, and keeps the fastest batch's
//! nanoseconds per element (the least disturbed by other processes). `rand`
//! has no parallel shuffle, so it is measured on one thread only; the
//! speed-ups of two threads are read against its one-thread time.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::cases::{Implementation, RngFamily, Shuffler, par_shuffler, sampler, shuffler};

/// What to measure.
#[derive(Debug, Clone)]
pub struct Options {
    /// Slice lengths to shuffle (52 is a deck of cards).
    pub sizes: Vec<usize>,
    /// Thread counts for fairdeck's `par_shuffle` (1 means plain `shuffle`).
    pub threads: Vec<usize>,
    /// Time budget of each case; a case runs at least once whatever it costs.
    pub max_time: Duration,
    /// Which implementations to run.
    pub impls: Vec<Implementation>,
    /// Which generator families to run.
    pub rngs: Vec<RngFamily>,
    /// `k` for `sample(k, 2^64 − 1)`; `None` skips the sampling cases.
    pub sample_k: Option<usize>,
}

impl Default for Options {
    /// The benchmark: a deck, 10⁴, 10⁶ and 10⁸ elements, 1 and 2
    /// threads, both families, sampling 10⁶ of 2⁶⁴ − 1; one second per case.
    fn default() -> Self {
        Options {
            sizes: vec![52, 10_000, 1_000_000, 100_000_000],
            threads: vec![1, 2],
            max_time: Duration::from_secs(1),
            impls: vec![Implementation::Fairdeck, Implementation::Rand],
            rngs: vec![RngFamily::Fast, RngFamily::Crypto],
            sample_k: Some(1_000_000),
        }
    }
}

/// One measured case.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measurement {
    /// `"shuffle"` or `"sample"` (for sampling, `n` is `k`, drawn from 2⁶⁴ − 1).
    pub op: &'static str,
    /// `"fairdeck"` or `"rand"`.
    #[serde(rename = "impl")]
    pub implementation: &'static str,
    /// The generator: `xoshiro256pp`, `chacha20` or `stdrng-chacha12`.
    pub rng: &'static str,
    /// Elements shuffled (or values sampled).
    pub n: usize,
    /// Threads used.
    pub threads: usize,
    /// Best observed time per element, in nanoseconds.
    pub ns_per_element: f64,
}

/// Everything one run measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    /// The measurements, in the order they were taken.
    pub results: Vec<Measurement>,
}

/// Runs every case `options` asks for and returns the report.
///
/// Takes about `max_time` per case plus one run of each case at 10⁸
/// elements (a few seconds each). Thread pools that cannot be built are
/// skipped (the report then lacks those rows).
pub fn run(options: &Options) -> Report {
    let mut report = Report::default();
    for &n in &options.sizes {
        let mut buffer: Vec<u32> = (0..n as u32).collect();
        for &family in &options.rngs {
            for &implementation in &options.impls {
                for &threads in &options.threads {
                    if implementation == Implementation::Rand && threads != 1 {
                        continue;
                    }
                    let Some(ns) =
                        time_shuffle(implementation, family, threads, &mut buffer, options)
                    else {
                        continue;
                    };
                    report.results.push(Measurement {
                        op: "shuffle",
                        implementation: implementation.name(),
                        rng: family.name(implementation),
                        n,
                        threads,
                        ns_per_element: ns,
                    });
                }
            }
        }
    }
    if let Some(k) = options.sample_k {
        time_samples(k, options, &mut report);
    }
    report
}

fn time_shuffle(
    implementation: Implementation,
    family: RngFamily,
    threads: usize,
    buffer: &mut [u32],
    options: &Options,
) -> Option<f64> {
    let mut op: Shuffler = if threads == 1 {
        shuffler(implementation, family)
    } else {
        par_shuffler(family)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok()?;
    let n = buffer.len().max(1);
    Some(pool.install(|| best_ns_per_item(n, options.max_time, || op(buffer))))
}

fn time_samples(k: usize, options: &Options, report: &mut Report) {
    for &family in &options.rngs {
        for &implementation in &options.impls {
            let mut op = sampler(implementation, family);
            let mut sink = 0u64;
            let ns = best_ns_per_item(k.max(1), options.max_time, || sink ^= op(k));
            std::hint::black_box(sink);
            report.results.push(Measurement {
                op: "sample",
                implementation: implementation.name(),
                rng: family.name(implementation),
                n: k,
                threads: 1,
                ns_per_element: ns,
            });
        }
    }
}

/// Runs `op` (which handles `items` items) in batches of about a
/// millisecond until `budget` is spent, at least once after one warm-up
/// call; returns the fastest batch's nanoseconds per item.
fn best_ns_per_item(items: usize, budget: Duration, mut op: impl FnMut()) -> f64 {
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

impl Report {
    /// The rand time a fairdeck row is compared with: same op, family and n, one thread.
    pub fn baseline(&self, row: &Measurement) -> Option<&Measurement> {
        self.results.iter().find(|r| {
            r.implementation == "rand"
                && r.op == row.op
                && r.n == row.n
                && same_family(r.rng, row.rng)
        })
    }

    /// A table of every fairdeck row with its speed-up over rand.
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "op       impl      rng               n          threads  ns/elem   vs rand\n",
        );
        for row in &self.results {
            let ratio = match self.baseline(row) {
                Some(base) if row.implementation == "fairdeck" => {
                    format!("{:.2}×", base.ns_per_element / row.ns_per_element)
                }
                _ => String::new(),
            };
            out += &format!(
                "{:<8} {:<9} {:<17} {:<10} {:<8} {:<9.3} {}\n",
                row.op, row.implementation, row.rng, row.n, row.threads, row.ns_per_element, ratio
            );
        }
        out
    }
}

fn same_family(a: &str, b: &str) -> bool {
    let fast = |name: &str| name == "xoshiro256pp";
    fast(a) == fast(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_run_reports_every_case() {
        let options = Options {
            sizes: vec![52, 3000],
            max_time: Duration::from_millis(5),
            sample_k: Some(100),
            ..Options::default()
        };
        let report = run(&options);
        // 2 sizes × 2 families × (fairdeck 1, fairdeck 2, rand 1) + 4 samples.
        assert_eq!(report.results.len(), 2 * 2 * 3 + 4);
        assert!(report.results.iter().all(|r| r.ns_per_element > 0.0));
        let json = serde_json::to_value(&report).unwrap();
        let first = &json["results"][0];
        for field in ["impl", "rng", "n", "threads", "ns_per_element"] {
            assert!(!first[field].is_null(), "{field}");
        }
        assert!(report.to_text().contains("×"));
    }
}
