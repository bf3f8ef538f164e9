//! `fairdeck bench --production`: the production shuffle and sample against
//! the `rand` crate, same generator families, one run (harness in the
//! `fairdeck-bench` crate): shuffles of `u32` and `u64` arrays, their
//! memcpy floor, hold'em deals and sampling.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use fairdeck_bench::production::{Options, run as measure};

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
    let report = measure(&options);
    match out.format() {
        Format::Json => out.json(&report)?,
        Format::Text => {
            let w = out.stdout();
            writeln!(
                w,
                "fairdeck vs rand 0.10, best time per element over {seconds} s per case"
            )?;
            write!(w, "{}", report.to_text())?;
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
