//! `fairdeck bench`: time the catalogue over growing n, fit growth exponents, plot.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use fairdeck::algorithms::Algorithm;
use fairdeck_audit::estimates::DEFAULT_STEPS;
use fairdeck_report::{Field, message};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::bench::fit::{Fit, growth_exponent};
use crate::bench::{Measurement, Plan, Series, measure_series, plot, production};
use crate::failure::usage;
use crate::output::{Format, Output};
use crate::random::RandomArgs;

/// Default sizes: the decades 10 … 10⁶.
const DEFAULT_SIZES: [usize; 6] = [10, 100, 1_000, 10_000, 100_000, 1_000_000];
/// Largest size accepted (memory: a few words per card).
const MAX_SIZE: usize = 100_000_000;

/// Flags of `fairdeck bench`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example: fairdeck bench --algorithms fisher-yates,fisher-yates-original,\
    fisher-yates-list --budget 20 --plot bench.svg"
)]
pub struct Args {
    /// Comma-separated catalogue names (default: all of `fairdeck algorithms`).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    pub algorithms: Vec<String>,

    /// Comma-separated sizes, e.g. 10,100,1e3 (default 10,100,...,1e6).
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = parse_size)]
    pub sizes: Vec<usize>,

    /// Seconds allowed per algorithm; larger sizes are skipped when the
    /// predicted time would exceed it.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub budget: f64,

    /// Also draw a log-log chart (FILE.svg or FILE.png).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// Compare the production shuffle and sample with the `rand` crate instead
    /// (sizes default to 52, 1e4, 1e6, 1e8, and 1e8 as u64; with the memcpy floor, hold'em
    /// deals of 9 of 52, and ChaCha12 against rand's StdRng; --budget is then seconds per case).
    #[arg(long, conflicts_with_all = ["algorithms", "plot"])]
    pub production: bool,

    /// Time each pass of the production shuffle of N u32 (the first of
    /// --sizes, default 1e8) with --generator: labels, scatter, and per
    /// bucket inner labels, settle and Fisher–Yates; ns per element and page
    /// faults per pass, median over --rounds.
    #[arg(long, conflicts_with_all = ["algorithms", "plot", "production"])]
    pub passes: bool,

    /// Timed rounds of --passes (after one warm-up).
    #[arg(long, value_name = "N", default_value_t = 5, requires = "passes",
          value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub rounds: u16,

    /// Performance counters of --passes, read at each pass boundary:
    /// hardware (cycles, instructions, LLC and dTLB load misses per element;
    /// the report says why where the machine has none), software (task
    /// clock and page faults, on any Linux), or none.
    #[arg(
        long,
        value_enum,
        value_name = "SET",
        default_value = "hardware",
        requires = "passes"
    )]
    pub counters: CounterChoice,

    /// Keep one scratch buffer for all rounds of --passes (the warm-up
    /// allocates it), as `Shuffle::scratch` does; default: fresh memory per
    /// round, as `shuffle` does.
    #[arg(long, requires = "passes")]
    pub reuse_scratch: bool,

    /// With --passes: run even when the estimated work (rounds × N) is
    /// over the budget of 10^10 steps (about a minute); without it such a
    /// run is refused before it starts, as every other long command does.
    #[arg(long, requires = "passes")]
    pub allow_long: bool,

    #[command(flatten)]
    pub random: RandomArgs,
}

/// The counter sets of `--counters`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CounterChoice {
    /// Cycles, instructions, LLC and dTLB load misses.
    Hardware,
    /// Task clock and page faults.
    Software,
    /// No counters.
    None,
}

impl From<CounterChoice> for fairdeck_bench::counters::CounterSet {
    fn from(choice: CounterChoice) -> Self {
        match choice {
            CounterChoice::Hardware => Self::Hardware,
            CounterChoice::Software => Self::Software,
            CounterChoice::None => Self::Off,
        }
    }
}

/// Accepts `1000`, `1_000`, `1e3`.
fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim().replace('_', "");
    let value = match t.split_once(['e', 'E']) {
        Some((m, e)) => {
            let m: usize = m.parse().map_err(|_| format!("not a size: {s:?}"))?;
            let e: u32 = e.parse().map_err(|_| format!("not a size: {s:?}"))?;
            10usize.checked_pow(e).and_then(|p| p.checked_mul(m))
        }
        None => t.parse().ok(),
    };
    match value {
        Some(n) if (1..=MAX_SIZE).contains(&n) => Ok(n),
        _ => Err(format!(
            "size {s:?} must be a whole number from 1 to {MAX_SIZE}"
        )),
    }
}

#[derive(Serialize)]
struct Report {
    seed: String,
    generator: &'static str,
    budget_seconds: f64,
    sizes: Vec<usize>,
    results: Vec<Measurement>,
    fits: Vec<FitOut>,
    skipped: Vec<Skipped>,
}

#[derive(Serialize)]
struct FitOut {
    #[serde(flatten)]
    fit: Fit,
    /// The complexity the catalogue states.
    expected: &'static str,
}

#[derive(Serialize)]
struct Skipped {
    algorithm: String,
    n: usize,
}

/// Runs `fairdeck bench`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let plan = plan(args)?;
    if args.production {
        return production::run(&args.sizes, plan.budget, out);
    }
    if args.passes {
        return passes(args, out);
    }
    let algorithms = chosen(args)?;
    if let Some(path) = &args.plot {
        plot::Kind::of(path)?;
    }
    let mut random = args.random.randomness()?;
    let progress = progress_bar((algorithms.len() * plan.sizes.len()) as u64);
    // Each subject is a name and a closure `n -> work`, timed by `measure_series`;
    // production paths (a `--production` flag) can be added as further subjects.
    let mut all: Vec<(Algorithm, Series)> = Vec::new();
    for &alg in &algorithms {
        progress.set_message(alg.name());
        let dice = &mut random.dice;
        // The first size is always timed: never one whose single run is
        // estimated over the work budget (fisher-yates-list at 10^8).
        let (sizes, too_big): (Vec<usize>, Vec<usize>) = plan
            .sizes
            .iter()
            .partition(|&&n| alg.cost(n as u64) <= DEFAULT_STEPS);
        let alg_plan = Plan {
            sizes,
            ..plan.clone()
        };
        let mut series = measure_series(
            alg.name(),
            &alg_plan,
            |n| alg.permute(n, dice),
            || progress.inc(1),
        );
        progress.inc(too_big.len() as u64);
        series.skipped.extend(too_big);
        all.push((alg, series));
    }
    progress.finish_and_clear();
    if let Some(path) = &args.plot {
        let lines: Vec<(String, Vec<Measurement>)> = all
            .iter()
            .map(|(a, s)| (a.name().to_string(), s.measured.clone()))
            .collect();
        plot::draw(path, &lines)?;
    }
    let report = report(args, &plan, &random, &all);
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => table::text(out.stdout(), &report, &all)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `--passes`: where the time of one large shuffle goes.
fn passes(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let n = args.sizes.first().copied().unwrap_or(MAX_SIZE);
    let rounds = u64::from(args.rounds);
    let steps = fairdeck_audit::estimates::passes_steps(n, rounds);
    fairdeck_report::budget::check(args.allow_long, Field::Rounds, steps, |budget| {
        let most = fairdeck_audit::estimates::largest(rounds, budget, |r| {
            fairdeck_audit::estimates::passes_steps(n, r)
        });
        match most {
            // `--sizes` is the bench's own flag, not a request field.
            0 => format!("a smaller first --sizes than {n}").into(),
            _ => message![Field::Rounds, format!(" at most {most} at {n} elements")],
        }
    })?;
    let options = fairdeck_bench::passes::Options {
        n,
        generator: args.random.generator,
        rounds: usize::from(args.rounds),
        counters: args.counters.into(),
        reuse_scratch: args.reuse_scratch,
    };
    let report = fairdeck_bench::passes::run(&options);
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => write!(out.stdout(), "{}", report.to_text())?,
    }
    Ok(ExitCode::SUCCESS)
}

fn chosen(args: &Args) -> anyhow::Result<Vec<Algorithm>> {
    if args.algorithms.is_empty() {
        return Ok(Algorithm::ALL.to_vec());
    }
    let mut list = Vec::new();
    for name in &args.algorithms {
        let alg: Algorithm = name.parse()?;
        if !list.contains(&alg) {
            list.push(alg);
        }
    }
    Ok(list)
}

fn plan(args: &Args) -> anyhow::Result<Plan> {
    if !(args.budget.is_finite() && args.budget > 0.0 && args.budget <= 86_400.0) {
        return Err(usage(format!(
            "--budget {} must be a number of seconds above 0 (at most a day)",
            args.budget
        )));
    }
    let mut sizes = if args.sizes.is_empty() {
        DEFAULT_SIZES.to_vec()
    } else {
        args.sizes.clone()
    };
    sizes.sort_unstable();
    sizes.dedup();
    Ok(Plan {
        sizes,
        budget: Duration::from_secs_f64(args.budget),
    })
}

/// A bar on stderr when it is a terminal; nothing otherwise.
fn progress_bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} sizes  {msg}") {
        bar.set_style(style);
    }
    bar
}

fn report(
    args: &Args,
    plan: &Plan,
    random: &crate::random::Randomness,
    all: &[(Algorithm, Series)],
) -> Report {
    Report {
        seed: random.seed.to_hex(),
        generator: random.generator.name(),
        budget_seconds: args.budget,
        sizes: plan.sizes.clone(),
        results: all
            .iter()
            .flat_map(|(_, s)| s.measured.iter().cloned())
            .collect(),
        fits: all
            .iter()
            .filter_map(|(a, s)| {
                let fit = growth_exponent(a.name(), &s.measured)?;
                Some(FitOut {
                    fit,
                    expected: a.time(),
                })
            })
            .collect(),
        skipped: all
            .iter()
            .flat_map(|(a, s)| {
                s.skipped.iter().map(|&n| Skipped {
                    algorithm: a.name().to_string(),
                    n,
                })
            })
            .collect(),
    }
}

mod table;

#[cfg(test)]
mod tests;
