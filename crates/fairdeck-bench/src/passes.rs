//! Where the time of one large shuffle goes: each pass of
//! [`fairdeck::shuffle::Shuffle::run_observed`] timed on its own, over rounds.
//!
//! A round shuffles a fresh `u32` slice of `n` elements (built and touched
//! before the clock starts), timing every pass from the moment it begins to
//! the moment the next one begins, and counting the minor page faults
//! (first touches of fresh memory) each pass takes. The passes of step 3
//! run once per bucket; their times are summed over the buckets. The
//! report gives, per pass, the median over the rounds of ns per element
//! and its range, and the median page faults.
//!
//! With [`Options::reuse_scratch`] one [`Scratch`] serves every round (the
//! warm-up round allocates it), as a caller of
//! [`fairdeck::shuffle::Shuffle::scratch`] keeps it; otherwise each round gets
//! fresh memory, as [`fairdeck::shuffle::shuffle`] does.
//!
//! With [`CounterSet::Hardware`] (the default of `fairdeck bench --passes`)
//! each pass also gets its cycles, instructions, LLC and dTLB load misses
//! per element, read from the thread's performance counters at each pass
//! boundary ([`crate::counters`]); where the machine has none, the report
//! says so and why.

use std::collections::BTreeMap;
use std::time::Instant;

use fairdeck::dice::RngDice;
use fairdeck::rng::{Generator, Seed};
use fairdeck::shuffle::{Pass, Scratch, Shuffle};
use serde::Serialize;

use crate::counters::{CounterSet, Counters};
use crate::own_process::{conditions_text, load_average};

/// What to measure.
#[derive(Debug, Clone)]
pub struct Options {
    /// Elements (`u32`) per shuffle.
    pub n: usize,
    /// The generator.
    pub generator: Generator,
    /// Timed rounds (after one warm-up round).
    pub rounds: usize,
    /// Performance counters to read at each pass boundary.
    pub counters: CounterSet,
    /// One scratch for all rounds (else fresh memory per round).
    pub reuse_scratch: bool,
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
    /// Each performance counter's count in each round, by counter name.
    pub counts: BTreeMap<&'static str, Vec<u64>>,
}

/// Every pass of the shuffle of `n` elements, and the whole.
#[derive(Debug, Clone, Serialize)]
pub struct PassReport {
    /// Elements per shuffle.
    pub n: usize,
    /// The generator's name.
    pub generator: &'static str,
    /// Whether one scratch served every round.
    pub reuse_scratch: bool,
    /// The passes, in the order they first run.
    pub passes: Vec<PassRow>,
    /// The whole shuffle, ns per element, in each round.
    pub total_ns_per_element: Vec<f64>,
    /// The 1-minute load average before the first round and after the last.
    pub load_average: (Option<f64>, Option<f64>),
    /// The performance counters read, in the order of the report.
    pub counters: Vec<&'static str>,
    /// Why the counters asked for could not be read, if they could not.
    pub counters_unavailable: Option<String>,
}

/// One pass of one round: its time, its page faults and its counts.
#[derive(Debug, Clone, Default)]
struct PassTotals {
    ns: f64,
    faults: u64,
    counts: Vec<u64>,
}

/// A pass boundary: when, and the counts so far.
struct Mark {
    pass: Pass,
    at: Instant,
    faults: u64,
    counts: Vec<u64>,
}

/// Minor page faults of this process so far (`None` where unknown).
fn minor_faults() -> Option<u64> {
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF).ok()?;
    u64::try_from(usage.minor_page_faults()).ok()
}

/// One shuffle: per pass its totals, and the whole in ns.
fn one_round(
    options: &Options,
    round: usize,
    counters: &mut Option<Counters>,
    scratch: &mut Scratch,
) -> (BTreeMap<Pass, PassTotals>, f64) {
    let mut data: Vec<u32> = (0..options.n as u32).collect();
    let seed = Seed::from_text(&format!("fairdeck bench passes {round}"));
    let mut dice = RngDice::new(options.generator.build(&seed));
    let mut marks: Vec<Mark> = Vec::with_capacity(4096);
    let mut mark = |pass| Mark {
        pass,
        at: Instant::now(),
        faults: minor_faults().unwrap_or(0),
        counts: counters.as_mut().map(Counters::read).unwrap_or_default(),
    };
    let start = Instant::now();
    let mut fresh = Scratch::new();
    let scratch = if options.reuse_scratch {
        scratch
    } else {
        &mut fresh
    };
    Shuffle::new()
        .scratch(scratch)
        .run_observed(&mut data, &mut dice, |pass| marks.push(mark(pass)));
    let end = mark(Pass::FisherYates);
    let total = end.at.duration_since(start).as_nanos() as f64;
    let mut passes: BTreeMap<Pass, PassTotals> = BTreeMap::new();
    for (i, m) in marks.iter().enumerate() {
        let next = marks.get(i + 1).unwrap_or(&end);
        let entry = passes.entry(m.pass).or_default();
        entry.ns += next.at.duration_since(m.at).as_nanos() as f64;
        entry.faults += next.faults.saturating_sub(m.faults);
        entry.counts.resize(m.counts.len(), 0);
        for (sum, (a, b)) in entry
            .counts
            .iter_mut()
            .zip(m.counts.iter().zip(&next.counts))
        {
            *sum += b.saturating_sub(*a);
        }
    }
    std::hint::black_box(&data);
    (passes, total)
}

/// Runs the rounds.
pub fn run(options: &Options) -> PassReport {
    let before = load_average();
    let (mut counters, counters_unavailable) = match Counters::open(options.counters) {
        Ok(c) => (c, None),
        Err(reason) => (None, Some(reason)),
    };
    let names: Vec<&'static str> = counters.as_ref().map_or(Vec::new(), |c| c.names().to_vec());
    let mut scratch = Scratch::new();
    // Warm-up: the allocator, the page cache, the CPU's clock (and the kept scratch).
    one_round(options, 0, &mut counters, &mut scratch);
    let n = options.n as f64;
    let mut rows: BTreeMap<Pass, PassRow> = BTreeMap::new();
    let mut totals = Vec::new();
    for round in 1..=options.rounds.max(1) {
        let (passes, total) = one_round(options, round, &mut counters, &mut scratch);
        for (pass, sums) in passes {
            let row = rows.entry(pass).or_insert_with(|| PassRow {
                pass: format!("{pass:?}"),
                ns_per_element: Vec::new(),
                page_faults: Vec::new(),
                counts: BTreeMap::new(),
            });
            row.ns_per_element.push(sums.ns / n);
            row.page_faults.push(sums.faults);
            for (name, count) in names.iter().zip(sums.counts) {
                row.counts.entry(name).or_default().push(count);
            }
        }
        totals.push(total / n);
    }
    PassReport {
        n: options.n,
        generator: options.generator.name(),
        reuse_scratch: options.reuse_scratch,
        passes: rows.into_values().collect(),
        total_ns_per_element: totals,
        load_average: (before, load_average()),
        counters: names,
        counters_unavailable,
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
            "shuffle of {} u32 with {}, {}, {} round{} after a warm-up: ns per element, median [min-max]\n",
            self.n,
            self.generator,
            if self.reuse_scratch {
                "one scratch for all rounds"
            } else {
                "fresh scratch per round"
            },
            self.total_ns_per_element.len(),
            if self.total_ns_per_element.len() == 1 {
                ""
            } else {
                "s"
            }
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
        out += &self.counters_text();
        out += &conditions_text(self.load_average);
        out
    }

    /// Per pass, each counter's median count per element; or why there are none.
    fn counters_text(&self) -> String {
        if let Some(reason) = &self.counters_unavailable {
            return format!("performance counters: not available here ({reason})\n");
        }
        if self.counters.is_empty() {
            return String::new();
        }
        let n = self.n as f64;
        let mut out = format!("{:<12}", "per element");
        for name in &self.counters {
            out += &format!(" {name:>16}");
        }
        out += "\n";
        for row in &self.passes {
            out += &format!("{:<12}", row.pass);
            for name in &self.counters {
                let per: Vec<f64> = row
                    .counts
                    .get(name)
                    .map_or(Vec::new(), |c| c.iter().map(|&x| x as f64 / n).collect());
                out += &format!(" {:>16}", per_element(median(&per)));
            }
            out += "\n";
        }
        out
    }
}

/// A count per element: three decimals, or three significant digits for
/// rare events (page faults, misses) that would read 0.000.
fn per_element(x: f64) -> String {
    if x == 0.0 || x >= 0.01 {
        format!("{x:.3}")
    } else {
        format!("{x:.2e}")
    }
}

#[cfg(test)]
mod tests;
