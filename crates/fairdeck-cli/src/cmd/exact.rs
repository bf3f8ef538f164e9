//! `fairdeck exact ALG -n N`: an algorithm's exact output distribution.

use std::io::Write;
use std::process::ExitCode;

use fairdeck_report::exact::{self, DEFAULT_MAX_DEPTH, DEFAULT_MAX_PATHS, Report, Request};
use num_rational::BigRational;
use num_traits::ToPrimitive;

use crate::limits::LongArgs;
use crate::output::{Format, Output};

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
    #[arg(long, value_name = "P", default_value_t = DEFAULT_MAX_PATHS)]
    pub max_paths: u64,

    /// Never walk deeper than this many rolls per path (at most 10000).
    #[arg(long, value_name = "D", default_value_t = DEFAULT_MAX_DEPTH)]
    pub max_depth: usize,

    #[command(flatten)]
    pub long: LongArgs,
}

/// Runs `fairdeck exact`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    let (report, tv) = exact::run(&args.request())?;
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => print(&report, &tv, out)?,
    }
    Ok(ExitCode::SUCCESS)
}

impl Args {
    /// The flags as an exact-walk request (the report layer validates it).
    pub fn request(&self) -> Request {
        Request {
            algorithm: self.algorithm.clone(),
            n: self.n,
            max_paths: self.max_paths,
            max_depth: self.max_depth,
            allow_long: self.long.allow_long,
        }
    }
}

fn print(r: &Report, tv: &BigRational, out: &mut Output) -> anyhow::Result<()> {
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
