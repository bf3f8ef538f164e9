//! Where the time of one large shuffle goes: each pass of
//! [`fairdeck::shuffle::shuffle_by_passes`] timed on its own, over rounds.
//!
//! A round shuffles a fresh `u32` slice of `n` elements (built and touched
//! before the clock starts), timing every pass from the moment it begins to
//! the moment the next one begins, and counting the minor page faults
//! (first touches of fresh memory) each pass takes. The passes of step 3
//! run once per bucket; their times are summed over the buckets. The
//! report gives, per pass, the median over the rounds of ns per element
//! and its range, and the median page faults.
//!
//! Hardware counters (cycles, instructions, LLC and dTLB misses) come from
//! `perf stat`, where the machine exposes them; `fairdeck bench --passes`
//! prints the command that measures them per pass (one pass per run is not
//! possible: the passes only exist together), and says when they are not
//! available.

use std::collections::BTreeMap;
use std::time::Instant;

use fairdeck::dice::RngDice;
use fairdeck::rng::{Generator, Seed};
use fairdeck::shuffle::{Pass, shuffle_by_passes};
use serde::Serialize;

use crate::alone::load_average;

/// What to measure.
#[derive(Debug, Clone)]
pub struct Options {
    /// Elements (`u32`) per shuffle.
    pub n: usize,
    /// The generator.
    pub generator: Generator,
    /// Timed rounds (after one warm-up round).
    pub rounds: usize,
}

/// One pass, over the rounds.
#[derive(Debug, Clone, Serialize)]
pub struct PassRow {
    /// The pass (`Labels`, `Scatter`, `InnerLabels`, `Settle`, `FisherYates`).
    pub pass: String,
    /// ns per element in each round.
    pub ns_per_element: Vec<f64>,
    /// Minor page faults in each round.
    pub page_faults: Vec<u64>,
}

/// Every pass of the shuffle of `n` elements, and the whole.
#[derive(Debug, Clone, Serialize)]
pub struct PassReport {
    /// Elements per shuffle.
    pub n: usize,
    /// The generator's name.
    pub generator: &'static str,
    /// The passes, in the order they first run.
    pub passes: Vec<PassRow>,
    /// The whole shuffle, ns per element, in each round.
    pub total_ns_per_element: Vec<f64>,
    /// The 1-minute load average before the first round and after the last.
    pub load_average: (Option<f64>, Option<f64>),
}

/// Minor page faults of this process so far (`None` where unknown).
fn minor_faults() -> Option<u64> {
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF).ok()?;
    u64::try_from(usage.minor_page_faults()).ok()
}

/// One shuffle: per pass, (ns, page faults), and the whole in ns.
fn one_round(options: &Options, round: usize) -> (BTreeMap<Pass, (f64, u64)>, f64) {
    let mut data: Vec<u32> = (0..options.n as u32).collect();
    let seed = Seed::from_text(&format!("fairdeck bench passes {round}"));
    let mut dice = RngDice::new(options.generator.build(&seed));
    let mut marks: Vec<(Pass, Instant, u64)> = Vec::with_capacity(4096);
    let start = Instant::now();
    shuffle_by_passes(&mut data, &mut dice, &mut |pass| {
        marks.push((pass, Instant::now(), minor_faults().unwrap_or(0)));
    });
    let end = (Instant::now(), minor_faults().unwrap_or(0));
    let total = end.0.duration_since(start).as_nanos() as f64;
    let mut passes: BTreeMap<Pass, (f64, u64)> = BTreeMap::new();
    for (i, &(pass, at, faults)) in marks.iter().enumerate() {
        let (next, next_faults) = marks.get(i + 1).map_or(end, |&(_, t, f)| (t, f));
        let entry = passes.entry(pass).or_default();
        entry.0 += next.duration_since(at).as_nanos() as f64;
        entry.1 += next_faults.saturating_sub(faults);
    }
    std::hint::black_box(&data);
    (passes, total)
}

/// Runs the rounds.
pub fn run(options: &Options) -> PassReport {
    let before = load_average();
    one_round(options, 0); // warm-up: the allocator, the page cache, the CPU's clock
    let n = options.n as f64;
    let mut rows: BTreeMap<Pass, PassRow> = BTreeMap::new();
    let mut totals = Vec::new();
    for round in 1..=options.rounds.max(1) {
        let (passes, total) = one_round(options, round);
        for (pass, (ns, faults)) in passes {
            let row = rows.entry(pass).or_insert_with(|| PassRow {
                pass: format!("{pass:?}"),
                ns_per_element: Vec::new(),
                page_faults: Vec::new(),
            });
            row.ns_per_element.push(ns / n);
            row.page_faults.push(faults);
        }
        totals.push(total / n);
    }
    PassReport {
        n: options.n,
        generator: options.generator.name(),
        passes: rows.into_values().collect(),
        total_ns_per_element: totals,
        load_average: (before, load_average()),
    }
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        len if len % 2 == 1 => v[len / 2],
        len => (v[len / 2 - 1] + v[len / 2]) / 2.0,
    }
}

fn range(values: &[f64]) -> (f64, f64) {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo, hi)
}

impl PassReport {
    /// The table: per pass, median ns per element [min–max], its share of
    /// the whole, and the median page faults.
    pub fn to_text(&self) -> String {
        let total = median(&self.total_ns_per_element);
        let (lo, hi) = range(&self.total_ns_per_element);
        let mut out = format!(
            "shuffle of {} u32 with {}, {} rounds after a warm-up: ns per element, median [min-max]\n",
            self.n,
            self.generator,
            self.total_ns_per_element.len()
        );
        out += &format!(
            "{:<12} {:>8} {:>17} {:>6} {:>12}\n",
            "pass", "ns/elem", "[min-max]", "share", "page faults"
        );
        for row in &self.passes {
            let ns = median(&row.ns_per_element);
            let (a, b) = range(&row.ns_per_element);
            let mut faults = row.page_faults.clone();
            faults.sort_unstable();
            out += &format!(
                "{:<12} {:>8.3} {:>17} {:>5.1}% {:>12}\n",
                row.pass,
                ns,
                format!("[{a:.3}-{b:.3}]"),
                100.0 * ns / total,
                faults.get(faults.len() / 2).copied().unwrap_or(0)
            );
        }
        out += &format!(
            "{:<12} {:>8.3} {:>17}\n",
            "total",
            total,
            format!("[{lo:.3}-{hi:.3}]")
        );
        let load = |l: Option<f64>| l.map_or("unknown".to_string(), |v| format!("{v:.2}"));
        out += &format!(
            "load average (1 min): {} before, {} after\n",
            load(self.load_average.0),
            load(self.load_average.1)
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scattered_shuffle_reports_every_pass() {
        // 3·2^20 u32 = 12 MiB: past the 8 MiB start, so it scatters.
        let report = run(&Options {
            n: 3 << 20,
            generator: Generator::Xoshiro256PlusPlus,
            rounds: 2,
        });
        let names: Vec<&str> = report.passes.iter().map(|r| r.pass.as_str()).collect();
        assert_eq!(names[..2], ["Labels", "Scatter"]);
        assert!(names.contains(&"Settle") && names.contains(&"FisherYates"));
        assert_eq!(report.total_ns_per_element.len(), 2);
        // The passes cover the whole shuffle: their sum is the total, up to
        // the clock reads between them.
        for round in 0..2 {
            let sum: f64 = report.passes.iter().map(|r| r.ns_per_element[round]).sum();
            let total = report.total_ns_per_element[round];
            assert!(
                sum <= total * 1.001 && sum >= total * 0.9,
                "{sum} vs {total}"
            );
        }
        // A fresh 12 MiB scratch buffer is touched in the scatter pass.
        let scatter = &report.passes[1];
        assert!(scatter.page_faults.iter().all(|&f| f > 0), "{scatter:?}");
        let text = report.to_text();
        assert!(text.contains("Labels") && text.contains("total"), "{text}");
    }

    #[test]
    fn a_small_shuffle_is_one_pass() {
        let report = run(&Options {
            n: 1000,
            generator: Generator::ChaCha20,
            rounds: 1,
        });
        let names: Vec<&str> = report.passes.iter().map(|r| r.pass.as_str()).collect();
        assert_eq!(names, ["FisherYates"]);
    }
}
