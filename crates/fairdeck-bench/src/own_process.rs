//! Each case in a process of its own, in rounds: the comparison the
//! production report prints its ratios from.
//!
//! One process that times fairdeck and then rand (the in-process report of
//! [`crate::production`]) hands rand a heap, a page cache and a rayon pool
//! that fairdeck's cases left behind, and one sample per case cannot tell a
//! slow case from a busy machine. Here every measurement is a fresh run of
//! the case binary (`fairdeck-bench-case`, built with the same profile as
//! `fairdeck`), fairdeck and rand alternate (fairdeck first in even rounds,
//! rand first in odd ones), and each case gets [`rounds_for`] rounds. The
//! report gives the median and the range of every case, the median and
//! range of the per-round ratios, the load average before and after, and
//! rand's in-process time beside its time alone.
//!
//! Just over 400 lines on purpose: the rounds, the statistics of their
//! times and the report they make are one measurement, read together.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde::Serialize;

use crate::cases::{HOLDEM_CARDS, Implementation, RngFamily};
use crate::production::{Options, best_ns_per_item, time_shuffle};
use crate::report::Report;

/// One case: an operation, the library, the generator family, the size and
/// the threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Case {
    /// `shuffle`, `shuffle_u64`, `deal_holdem` or `sample`.
    pub op: &'static str,
    /// fairdeck or rand.
    #[serde(rename = "impl")]
    pub implementation: Implementation,
    /// The generator family.
    #[serde(skip)]
    pub family: RngFamily,
    /// Elements, cards dealt, or values sampled.
    pub n: usize,
    /// Threads (fairdeck only; rand is always 1).
    pub threads: usize,
}

const OPS: [&str; 4] = ["shuffle", "shuffle_u64", "deal_holdem", "sample"];

impl Case {
    /// The case binary's arguments for this case and a time budget.
    pub fn to_args(&self, budget: Duration) -> Vec<String> {
        vec![
            self.op.to_string(),
            self.implementation.name().to_string(),
            family_name(self.family).to_string(),
            self.n.to_string(),
            self.threads.to_string(),
            budget.as_secs_f64().to_string(),
        ]
    }

    /// Reads [`Case::to_args`] back; `None` names nothing, the caller says
    /// what the arguments should be.
    pub fn from_args(args: &[String]) -> Option<(Case, Duration)> {
        let [op, imp, family, n, threads, budget] = args else {
            return None;
        };
        let op = OPS.into_iter().find(|o| o == op)?;
        let implementation = match imp.as_str() {
            "fairdeck" => Implementation::Fairdeck,
            "rand" => Implementation::Rand,
            _ => return None,
        };
        let family = [RngFamily::Fast, RngFamily::Crypto, RngFamily::ChaCha12]
            .into_iter()
            .find(|f| family_name(*f) == family)?;
        let budget: f64 = budget.parse().ok()?;
        let case = Case {
            op,
            implementation,
            family,
            n: n.parse().ok()?,
            threads: threads.parse().ok().filter(|&t| t >= 1)?,
        };
        Some((case, Duration::try_from_secs_f64(budget).ok()?))
    }

    /// Times the case in this process: the fastest batch's ns per element
    /// (per deal for `deal_holdem`), `None` when its thread pool cannot be built.
    pub fn time(&self, budget: Duration) -> Option<f64> {
        let (imp, family, n) = (self.implementation, self.family, self.n);
        match self.op {
            "shuffle" => time_shuffle(imp, family, self.threads, &mut identity::<u32>(n), budget),
            "shuffle_u64" => {
                time_shuffle(imp, family, self.threads, &mut identity::<u64>(n), budget)
            }
            "deal_holdem" => {
                let mut deck: [u8; 52] = core::array::from_fn(|i| i as u8);
                let mut op = crate::cases::dealer(imp, family);
                let mut sink = 0u8;
                let ns = best_ns_per_item(1, budget, || sink ^= op(&mut deck));
                std::hint::black_box(sink);
                Some(ns)
            }
            _ => {
                let mut op = crate::cases::sampler(imp, family);
                let mut sink = 0u64;
                let ns = best_ns_per_item(n.max(1), budget, || sink ^= op(n));
                std::hint::black_box(sink);
                Some(ns)
            }
        }
    }
}

fn identity<T: crate::production::Element>(n: usize) -> Vec<T> {
    (0..n).map(T::of).collect()
}

fn family_name(f: RngFamily) -> &'static str {
    match f {
        RngFamily::Fast => "fast",
        RngFamily::Crypto => "crypto",
        RngFamily::ChaCha12 => "chacha12",
    }
}

/// Rounds per case: 5 at 10⁷ elements and more (a run takes seconds), 11 below.
pub fn rounds_for(n: usize) -> usize {
    if n >= 10_000_000 { 5 } else { 11 }
}

/// Every fairdeck case of `options`, each with the rand case it is read against.
pub fn pairs(options: &Options) -> Vec<(Case, Case)> {
    let mut out = Vec::new();
    let mut add = |op: &'static str, n: usize, threads: &[usize]| {
        for &family in &options.rngs {
            let rand = Case {
                op,
                implementation: Implementation::Rand,
                family,
                n,
                threads: 1,
            };
            for &t in threads {
                let fairdeck = Case {
                    implementation: Implementation::Fairdeck,
                    threads: t,
                    ..rand
                };
                out.push((fairdeck, rand));
            }
        }
    };
    for &n in &options.sizes {
        add("shuffle", n, &options.threads);
    }
    for &n in &options.wide_sizes {
        add("shuffle_u64", n, &options.threads);
    }
    if options.holdem {
        add("deal_holdem", HOLDEM_CARDS, &[1]);
    }
    if let Some(k) = options.sample_k {
        add("sample", k, &[1]);
    }
    out
}

/// Median, least and greatest of some positive samples.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// The median (the mean of the middle two for an even count).
    pub median: f64,
    /// The least sample.
    pub min: f64,
    /// The greatest sample.
    pub max: f64,
}

impl Spread {
    /// `None` for no samples.
    pub fn of(samples: &[f64]) -> Option<Spread> {
        let mut s: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite()).collect();
        if s.is_empty() {
            return None;
        }
        s.sort_by(f64::total_cmp);
        let mid = s.len() / 2;
        let median = if s.len() % 2 == 1 {
            s[mid]
        } else {
            (s[mid - 1] + s[mid]) / 2.0
        };
        Some(Spread {
            median,
            min: s[0],
            max: s[s.len() - 1],
        })
    }
}

/// One fairdeck case against rand, each run alone.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The fairdeck case.
    pub case: Case,
    /// The generator names in reports (fairdeck's, rand's).
    pub rng: (&'static str, &'static str),
    /// fairdeck's ns per element over the rounds.
    pub fairdeck: Spread,
    /// rand's ns per element over the rounds, each in a process of its own.
    pub rand_alone: Spread,
    /// rand's ns per element measured in the shared process, if it was.
    pub rand_in_process: Option<f64>,
    /// rand ÷ fairdeck, per round (each round's two runs are neighbours in time).
    pub ratio: Spread,
    /// The rounds run.
    pub rounds: usize,
}

impl Row {
    /// Whether rand's in-process time is within 10 % of its median alone.
    pub fn baselines_agree(&self) -> Option<bool> {
        self.rand_in_process
            .map(|t| (t / self.rand_alone.median - 1.0).abs() <= 0.10)
    }
}

/// The comparison, case by case.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// One row per fairdeck case.
    pub rows: Vec<Row>,
    /// The 1-minute load average before the first run and after the last.
    pub load_average: (Option<f64>, Option<f64>),
}

/// Errors of a run of the case binary.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The binary could not be started.
    Spawn(std::io::Error),
    /// It exited with a failure or printed no number.
    Case(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Spawn(e) => write!(f, "cannot start the case runner: {e}"),
            Error::Case(m) => write!(f, "a benchmark case failed: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// Runs one case in a fresh process of `runner` and reads its ns per element.
///
/// # Errors
///
/// When the runner cannot start, fails, or prints something else than a number.
pub fn run_alone(runner: &Path, case: &Case, budget: Duration) -> Result<f64, Error> {
    let out = Command::new(runner)
        .args(case.to_args(budget))
        .output()
        .map_err(Error::Spawn)?;
    let text = String::from_utf8_lossy(&out.stdout);
    match text.trim().parse::<f64>() {
        Ok(ns) if out.status.success() && ns > 0.0 => Ok(ns),
        _ => Err(Error::Case(format!(
            "{case:?}: {}{}",
            text.trim(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))),
    }
}

/// Every pair of `options` in rounds, alternating which side runs first;
/// `in_process` supplies rand's shared-process times; `tick` is called
/// after each pair.
///
/// # Errors
///
/// The first failing run.
pub fn compare(
    runner: &Path,
    options: &Options,
    in_process: &Report,
    mut tick: impl FnMut(&Case),
) -> Result<Comparison, Error> {
    let before = load_average();
    let mut rows = Vec::new();
    for (fairdeck, rand) in pairs(options) {
        let rounds = rounds_for(fairdeck.n);
        let (mut f, mut r, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let (a, b) = if round % 2 == 0 {
                let a = run_alone(runner, &fairdeck, options.max_time)?;
                (a, run_alone(runner, &rand, options.max_time)?)
            } else {
                let b = run_alone(runner, &rand, options.max_time)?;
                (run_alone(runner, &fairdeck, options.max_time)?, b)
            };
            f.push(a);
            r.push(b);
            ratio.push(b / a);
        }
        let rng = (
            fairdeck.family.name(Implementation::Fairdeck),
            rand.family.name(Implementation::Rand),
        );
        let rand_in_process = in_process
            .results
            .iter()
            .find(|m| (m.op, m.implementation, m.rng, m.n) == (rand.op, "rand", rng.1, rand.n))
            .map(|m| m.ns_per_element);
        let spread = |v: &[f64]| Spread::of(v).ok_or_else(|| Error::Case("no rounds".into()));
        rows.push(Row {
            case: fairdeck,
            rng,
            fairdeck: spread(&f)?,
            rand_alone: spread(&r)?,
            rand_in_process,
            ratio: spread(&ratio)?,
            rounds,
        });
        tick(&fairdeck);
    }
    Ok(Comparison {
        rows,
        load_average: (before, load_average()),
    })
}

/// The report lines every harness ends with: the 1-minute load average
/// before the first run and after the last, and the backend making
/// fairdeck's ChaCha keystream on this machine.
pub fn conditions_text(load_average: (Option<f64>, Option<f64>)) -> String {
    let load = |l: Option<f64>| l.map_or("unknown".to_string(), |v| format!("{v:.2}"));
    format!(
        "load average (1 min): {} before, {} after\nfairdeck's chacha20 keystream: {}\n",
        load(load_average.0),
        load(load_average.1),
        fairdeck::rng::chacha20_backend()
    )
}

/// The 1-minute load average (Linux `/proc/loadavg`), `None` elsewhere.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

impl Comparison {
    /// The table: per case, fairdeck's and rand's medians with their
    /// ranges, rand in-process, and the median ratio with its range.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{:<11} {:<9} {:<12} {:<3} {:<24} {:<24} {:<10} {}\n",
            "op",
            "n",
            "rng",
            "thr",
            "fairdeck ns [min-max]",
            "rand alone [min-max]",
            "rand in-p.",
            "rand ÷ fairdeck, median [min-max]"
        );
        let range = |s: &Spread| format!("{:.3} [{:.3}-{:.3}]", s.median, s.min, s.max);
        for row in &self.rows {
            let in_process = row
                .rand_in_process
                .map_or("-".to_string(), |t| format!("{t:.3}"));
            out += &format!(
                "{:<11} {:<9} {:<12} {:<3} {:<24} {:<24} {:<10} {:.2}× [{:.2}-{:.2}] ({} rounds)\n",
                row.case.op,
                row.case.n,
                row.rng.0,
                row.case.threads,
                range(&row.fairdeck),
                range(&row.rand_alone),
                in_process,
                row.ratio.median,
                row.ratio.min,
                row.ratio.max,
                row.rounds
            );
        }
        out += &conditions_text(self.load_average);
        // Several fairdeck rows share one rand baseline (every thread count;
        // ChaCha20 and ChaCha12 against StdRng): name each baseline once,
        // wherever its rows are.
        let mut named = std::collections::HashSet::new();
        let apart: Vec<String> = self
            .rows
            .iter()
            .filter(|r| r.baselines_agree() == Some(false))
            .map(|r| format!("{} n={} {}", r.case.op, r.case.n, r.rng.1))
            .filter(|name| named.insert(name.clone()))
            .collect();
        if apart.is_empty() {
            out += "rand in-process and alone agree within 10 % on every case\n";
        } else {
            out += &format!(
                "rand in-process and alone differ by more than 10 % on: {}\n",
                apart.join(", ")
            );
        }
        out
    }
}

#[cfg(test)]
mod tests;
