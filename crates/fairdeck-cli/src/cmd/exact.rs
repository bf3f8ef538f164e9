//! `fairdeck exact ALG -n N`: an algorithm's exact output distribution.

use std::io::Write;
use std::process::ExitCode;

use fairdeck::algorithms::Algorithm;
use fairdeck_audit::budget;
use fairdeck_audit::exact::{self, Limits};
use fairdeck_audit::walk;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use serde::Serialize;

use crate::failure::usage;
use crate::limits::LongArgs;
use crate::output::{Format, Output};

/// Largest n accepted (8! = 40320 outcomes to print).
const MAX_N: usize = 9;

/// Flags of `fairdeck exact`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Walks every path of the algorithm's choice tree and sums exact\n\
probabilities. Unbounded algorithms (rejection, random-transpositions,\n\
random-insertion-stopping) are walked as deep as --max-paths allows; the mass\n\
left on cut paths is reported as `unresolved`, and each probability is within it.\n\
Example: fairdeck exact naive-swap -n 3"
)]
pub struct Args {
    /// Algorithm name (see `fairdeck algorithms`).
    #[arg(value_name = "ALG")]
    pub algorithm: String,

    /// Number of items, 1..=9.
    #[arg(short, long, value_name = "N")]
    pub n: usize,

    /// Refuse (or stop deepening) beyond this many paths.
    #[arg(long, value_name = "P", default_value_t = 10_000_000)]
    pub max_paths: u64,

    /// Never walk deeper than this many rolls per path (at most 10000).
    #[arg(long, value_name = "D", default_value_t = 200)]
    pub max_depth: usize,

    #[command(flatten)]
    pub long: LongArgs,
}

#[derive(Serialize)]
struct Outcome {
    permutation: Vec<usize>,
    probability: String,
}

/// What `fairdeck exact --format json` prints.
#[derive(Serialize)]
pub(crate) struct Report {
    algorithm: &'static str,
    n: usize,
    paths: u64,
    depth: usize,
    support: usize,
    orders: String,
    /// Proven exactly uniform: a complete walk, every order 1/n!.
    uniform: bool,
    /// Uniform on the resolved paths (the outcomes are conditional on them).
    uniform_on_resolved: bool,
    /// Distance from uniform of the law on the resolved paths.
    total_variation: String,
    /// Bounds on the distance of the whole law, whatever the unresolved
    /// paths do (equal to `total_variation` for a complete walk).
    total_variation_at_least: String,
    total_variation_at_most: String,
    resolved: String,
    unresolved: String,
    outcomes: Vec<Outcome>,
}

/// Runs `fairdeck exact`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let (report, tv) = report(args)?;
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => print(&report, &tv, out)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Walks the algorithm's choice tree and builds what `--format json` prints
/// (the web page's `/api/exact`), with the total variation as a fraction.
///
/// # Errors
///
/// Unknown algorithm, bad `-n`, a walk over `--max-paths` (usage errors).
pub(crate) fn report(args: &Args) -> anyhow::Result<(Report, num_rational::BigRational)> {
    let alg: Algorithm = args.algorithm.parse()?;
    if !(1..=MAX_N).contains(&args.n) {
        return Err(usage(format!("-n must be between 1 and {MAX_N}")));
    }
    if args.max_paths == 0 {
        return Err(usage("--max-paths must be positive"));
    }
    if args.max_depth > exact::MAX_DEPTH {
        return Err(usage(format!(
            "--max-depth is at most {} (deeper paths have probabilities below 2^-128)",
            exact::MAX_DEPTH
        )));
    }
    check_work(args, alg)?;
    let limits = Limits {
        max_paths: args.max_paths,
        max_depth: args.max_depth,
    };
    let d =
        exact::distribution(args.n, |w| alg.permute(args.n, w), limits).map_err(|e| match e {
            fairdeck_audit::Error::TooManyPaths { .. } => usage(e.to_string()),
            other => other.into(),
        })?;
    let tv = d.total_variation();
    let (at_least, at_most) = d.total_variation_bounds();
    let report = Report {
        algorithm: alg.name(),
        n: d.n,
        paths: d.paths,
        depth: d.depth,
        support: d.support(),
        orders: exact::factorial(d.n).to_string(),
        uniform: d.is_exactly_uniform(),
        uniform_on_resolved: tv.is_zero(),
        total_variation: tv.to_string(),
        total_variation_at_least: at_least.to_string(),
        total_variation_at_most: at_most.to_string(),
        resolved: (BigRational::one() - &d.unresolved).to_string(),
        unresolved: d.unresolved.to_string(),
        outcomes: d
            .outcomes
            .iter()
            .map(|(p, q)| Outcome {
                permutation: p.clone(),
                probability: q.to_string(),
            })
            .collect(),
    };
    Ok((report, tv))
}

/// Refuses a walk that cannot finish or is over the work budget. A tree
/// whose paths all roll the same bounds (every algorithm without a
/// rejection loop) has a known number of paths P: a --max-paths below P
/// can never succeed (the deepening walk cuts every path), so it is refused
/// at once; the work is that of one walk of P paths. Other trees are
/// walked as deep as --max-paths allows, at most twice that many paths.
fn check_work(args: &Args, alg: Algorithm) -> anyhow::Result<()> {
    let n = args.n;
    let tree = |n: usize| walk::fixed_tree_paths(|d| alg.permute(n, d), args.max_depth);
    let Some(paths) = tree(n) else {
        return args
            .long
            .check(budget::exact_steps(alg, n, args.max_paths), |steps| {
                let most =
                    budget::largest(args.max_paths, steps, |p| budget::exact_steps(alg, n, p));
                format!("--max-paths at most {most} at -n {n}")
            });
    };
    let walk_steps = |n: usize, paths: u128| {
        budget::exact_walk_steps(alg, n, u64::try_from(paths).unwrap_or(u64::MAX))
    };
    let fits_budget = |n: usize, budget: u64| tree(n).is_some_and(|p| walk_steps(n, p) <= budget);
    if paths > u128::from(args.max_paths) {
        let within = match args.long.allow_long || fits_budget(n, budget::DEFAULT_STEPS) {
            true => String::new(),
            false => " (with --allow-long: that walk is over the budget)".into(),
        };
        return Err(usage(format!(
            "{} on {n} items has {paths} paths of the same length: a walk of at most \
             --max-paths {} cannot finish; give --max-paths {paths}{within}, or a smaller -n",
            alg.name(),
            args.max_paths
        )));
    }
    args.long.check(walk_steps(n, paths), |steps| {
        let most = (1..n).rev().find(|&m| fits_budget(m, steps)).unwrap_or(1);
        let need = tree(most).unwrap_or(1).max(1);
        format!(
            "-n at most {most} with --max-paths {need} for {} (a walk of all {paths} paths at -n {n})",
            alg.name()
        )
    })
}

fn print(r: &Report, tv: &num_rational::BigRational, out: &mut Output) -> anyhow::Result<()> {
    let w = out.stdout();
    writeln!(
        w,
        "{} on n = {}: {} paths walked",
        r.algorithm, r.n, r.paths
    )?;
    for o in &r.outcomes {
        let p: Vec<String> = o.permutation.iter().map(usize::to_string).collect();
        writeln!(w, "  {}  {}", p.join(" "), o.probability)?;
    }
    writeln!(w, "support: {} of {} orders", r.support, r.orders)?;
    let approx = |s: &str| s.parse::<BigRational>().ok().and_then(|q| q.to_f64());
    if r.unresolved == "0" {
        let verdict = if r.uniform {
            "exactly uniform"
        } else {
            "NOT uniform"
        };
        writeln!(
            w,
            "total variation from uniform: {} (≈ {:.6}) — {verdict}",
            r.total_variation,
            tv.to_f64().unwrap_or(f64::NAN)
        )?;
        return writeln!(w, "unresolved: 0 (the walk was complete)").map_err(Into::into);
    }
    writeln!(
        w,
        "resolved: {} of the probability; {} lies on paths cut after {} rolls",
        r.resolved, r.unresolved, r.depth
    )?;
    writeln!(
        w,
        "on the resolved paths: total variation from uniform {} (≈ {:.6}); the outcomes above \
         are conditional on them",
        r.total_variation,
        tv.to_f64().unwrap_or(f64::NAN)
    )?;
    let at_least = approx(&r.total_variation_at_least).unwrap_or(f64::NAN);
    let at_most = approx(&r.total_variation_at_most).unwrap_or(f64::NAN);
    let verdict = if at_least > 0.0 {
        "NOT uniform, whatever the cut paths do"
    } else if r.uniform_on_resolved {
        "uniform on the resolved paths only: not proven uniform"
    } else {
        "undetermined"
    };
    writeln!(
        w,
        "whole law: total variation from uniform between {at_least:.6} and {at_most:.6} — \
         {verdict} (raise --max-depth to resolve more)"
    )?;
    Ok(())
}
