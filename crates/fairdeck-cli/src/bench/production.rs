//! `fairdeck bench --production`: the production shuffle and sample against
//! the `rand` crate, same generator families (harness in the
//! `fairdeck-bench` crate): shuffles of `u32` and `u64` arrays, their
//! memcpy floor, hold'em deals and sampling. First every case in this one
//! process (for reference and the memcpy floor), then every case in a
//! process of its own, fairdeck and rand alternating, in rounds: the
//! ratios are read from those (`fairdeck_bench::own_process`).

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use fairdeck_bench::own_process::compare;
use fairdeck_bench::production::{Options, run as measure};
use serde::Serialize;

use crate::output::{Format, Output};

/// Runs the production comparison: `sizes` (default: a deck, 10⁴, 10⁶,
/// 10⁸) with `per_case` time for each case.
pub fn run(sizes: &[usize], per_case: Duration, out: &mut Output) -> anyhow::Result<ExitCode> {
    let mut options = Options::default();
    if !sizes.is_empty() {
        options.sizes = sizes.to_vec();
        options.wide_sizes.retain(|n| sizes.contains(n));
    }
    options.max_time = per_case;
    let seconds = per_case.as_secs_f64();
    let runner = std::env::current_exe()
        .context("cannot find the fairdeck binary")?
        .with_file_name("fairdeck-bench-case");
    if !runner.exists() {
        anyhow::bail!(
            "{} is missing: it is built with fairdeck (cargo build --release -p fairdeck-cli)",
            runner.display()
        );
    }
    let in_process = measure(&options);
    let alone = compare(&runner, &options, &in_process, |_| {})?;
    match out.format() {
        Format::Json => out.json(&Both {
            in_process: &in_process,
            alone: &alone,
        })?,
        Format::Text => {
            let w = out.stdout();
            writeln!(
                w,
                "fairdeck vs rand 0.10, each case in a process of its own, fairdeck and rand \
                 alternating; per run the best time per element over {seconds} s"
            )?;
            write!(w, "{}", alone.to_text())?;
            writeln!(
                w,
                "\nThe same cases in one process (rand after fairdeck; the memcpy floor), one run each:"
            )?;
            write!(w, "{}", in_process.to_text())?;
            writeln!(
                w,
                "vs rand = rand's ns/element ÷ fairdeck's, same generator family \
                 (rand has no parallel shuffle: 2-thread rows are read against its 1-thread time; \
                 chacha12 against stdrng-chacha12 is ChaCha12 on both sides)\n\
                 ÷ memcpy = a shuffle's ns/element ÷ a prefaulted copy of the same array; \
                 deal_holdem times one deal of 9 of 52 cards (ns/elem = ns per deal)"
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `--format json`: both measurements.
#[derive(Serialize)]
struct Both<'a> {
    in_process: &'a fairdeck_bench::production::Report,
    alone: &'a fairdeck_bench::own_process::Comparison,
}
