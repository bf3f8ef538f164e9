//! `fairdeck sample K N`: K distinct numbers from 1..N.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;

use crate::failure::usage;
use crate::output::{Format, Output};
use crate::random::RandomArgs;

/// Flags of `fairdeck sample`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples: fairdeck sample 5 90 (Hungarian lotto), 6 49, 5 50.")]
pub struct Args {
    /// How many distinct numbers to draw.
    #[arg(value_name = "K")]
    pub k: u64,

    /// Draw from 1..=N (N up to 18446744073709551615).
    #[arg(value_name = "N")]
    pub n: u64,

    /// Print the numbers in increasing order instead of the order drawn.
    #[arg(long)]
    pub sorted: bool,

    #[command(flatten)]
    pub random: RandomArgs,
}

#[derive(Serialize)]
struct Report {
    seed: String,
    generator: &'static str,
    k: u64,
    n: u64,
    sorted: bool,
    numbers: Vec<u64>,
}

/// Runs `fairdeck sample`.
pub fn run(args: &Args, out: &mut Output) -> anyhow::Result<ExitCode> {
    if args.n == 0 {
        return Err(usage("N must be at least 1 (numbers are drawn from 1..N)"));
    }
    if args.k > args.n {
        return Err(usage(format!(
            "cannot draw {} distinct numbers from 1..{}",
            args.k, args.n
        )));
    }
    if args.k > 100_000_000 {
        return Err(usage(format!(
            "K = {} is too many to print (at most 100000000)",
            args.k
        )));
    }
    let mut random = args.random.randomness()?;
    let mut numbers = fairdeck::sample::sample(args.k, args.n, &mut random.dice)?;
    for x in &mut numbers {
        *x += 1;
    }
    if args.sorted {
        numbers.sort_unstable();
    }
    match out.format() {
        Format::Json => out.json(&Report {
            seed: random.seed.to_hex(),
            generator: random.generator.name(),
            k: args.k,
            n: args.n,
            sorted: args.sorted,
            numbers,
        })?,
        Format::Text => {
            // One number at a time: a line of 10^8 numbers is not built in memory.
            let w = out.stdout();
            for (i, x) in numbers.iter().enumerate() {
                let sep = if i == 0 { "" } else { " " };
                write!(w, "{sep}{x}")?;
            }
            writeln!(w)?;
            writeln!(w, "seed: {}", random.seed)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
