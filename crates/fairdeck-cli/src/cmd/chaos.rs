//! `fairdeck chaos`: degree of chaos of a sequence, the maximum Ch(N), and
//! the law of chaos under a uniform shuffle (Florian, “关于如何评价洗牌质量的猜想”).

use std::io::Write;
use std::process::ExitCode;

use fairdeck_audit::chaos;
use serde::Serialize;

use crate::failure::usage;
use crate::limits::LongArgs;
use crate::output::{Format, Output};
use crate::random::RandomArgs;

/// Flags of `fairdeck chaos`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  fairdeck chaos 1 4 2 3 5\n  fairdeck chaos --max 11\n  \
fairdeck chaos --distribution 8\nProofs: docs/chaos.md."
)]
pub struct Args {
    /// Distinct integers: the least swaps that sort them ascending or descending.
    #[arg(value_name = "VALUES", allow_negative_numbers = true)]
    pub values: Vec<i64>,

    /// Print Ch(N), the largest chaos over all orders of N items.
    #[arg(long, value_name = "N", conflicts_with_all = ["values", "distribution"])]
    pub max: Option<u64>,

    /// How to find Ch(N): formula, enumeration (N <= 13), or auto (enumeration up to 11).
    #[arg(long, value_name = "HOW", default_value = "auto", requires = "max")]
    pub method: String,

    /// The law of chaos under a uniform shuffle of N items.
    #[arg(long, value_name = "N", conflicts_with = "values")]
    pub distribution: Option<usize>,

    /// Simulated shuffles for the chaos law when N > 10 (at most 10^7).
    #[arg(long, value_name = "T", default_value_t = 100_000)]
    pub trials: u64,

    #[command(flatten)]
    pub random: RandomArgs,

    #[command(flatten)]
    pub long: LongArgs,
}

#[derive(Serialize)]
struct Max {
    n: u64,
    max_chaos: u64,
    method: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    witness: Option<Vec<usize>>,
}

/// Runs `fairdeck chaos`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    if let Some(n) = args.max {
        return max(n, &args.method, out);
    }
    if let Some(n) = args.distribution {
        return super::chaos_law::run(n, args.trials, &args.random, &args.long, out);
    }
    let one = fairdeck_report::chaos::run(&fairdeck_report::chaos::Request {
        values: args.values.clone(),
    })?;
    match out.format() {
        Format::Json => out.json(&one)?,
        Format::Text => writeln!(
            out.stdout(),
            "{}\n(least swaps to sort: ascending {}, descending {})",
            one.chaos,
            one.ascending,
            one.descending
        )?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether `--method` asks for enumeration at this N.
fn use_enumeration(n: u64, method: &str) -> anyhow::Result<bool> {
    let limit = chaos::MAX_ENUMERATION_N as u64;
    match method {
        "formula" => Ok(false),
        "enumeration" if n > limit => Err(usage(format!(
            "enumeration goes up to N = {limit}; use --method formula"
        ))),
        "enumeration" => Ok(true),
        "auto" => Ok(n <= 11),
        other => Err(usage(format!(
            "unknown method {other:?} (known: auto, formula, enumeration)"
        ))),
    }
}

fn max(n: u64, method: &str, out: &mut Output) -> anyhow::Result<ExitCode> {
    let report = if use_enumeration(n, method)? {
        let (c, witness) = chaos::max_chaos_by_enumeration(n as usize)?;
        Max {
            n,
            max_chaos: c as u64,
            method: "enumeration",
            witness: Some(witness),
        }
    } else {
        Max {
            n,
            max_chaos: chaos::max_chaos(n),
            method: "formula",
            witness: None,
        }
    };
    if out.format() == Format::Json {
        out.json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let w = out.stdout();
    writeln!(
        w,
        "Ch({}) = {} (by {})",
        report.n, report.max_chaos, report.method
    )?;
    if let Some(p) = &report.witness {
        let shown: Vec<String> = p.iter().map(|x| (x + 1).to_string()).collect();
        writeln!(w, "a most chaotic order: {}", shown.join(" "))?;
    }
    Ok(ExitCode::SUCCESS)
}
