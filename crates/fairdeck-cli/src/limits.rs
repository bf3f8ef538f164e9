//! Runs over the work budget are refused before they start, with what would
//! be accepted, unless `--allow-long` is given (issue 15). The estimates are
//! the library's ([`fairdeck_audit::budget`]), so the web server refuses the
//! same runs against its own budget.

use fairdeck_audit::budget::{self, DEFAULT_STEPS};

use crate::failure::usage;

/// `--allow-long`, flattened into each subcommand whose work grows with its flags.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct LongArgs {
    /// Run even when the estimated work is over the budget of 10^10 steps
    /// (about a minute); without it such a run is refused before it starts.
    #[arg(long)]
    pub allow_long: bool,
}

impl LongArgs {
    /// Ok when `steps` fit [`DEFAULT_STEPS`] or `--allow-long` was given;
    /// otherwise a usage error that says what would be accepted
    /// (`accepted(budget)`, e.g. "--trials at most 200 at -n 10000").
    pub fn check(&self, steps: u64, accepted: impl FnOnce(u64) -> String) -> anyhow::Result<()> {
        if self.allow_long {
            return Ok(());
        }
        budget::check(steps, DEFAULT_STEPS).map_err(|e| {
            usage(format!(
                "{e} (about a minute): {}, or add --allow-long to run it anyway",
                accepted(DEFAULT_STEPS)
            ))
        })
    }
}

/// Checks that `bytes` of memory can be had before a run that needs them
/// starts: reserves them (address space only; nothing is touched) and
/// gives them back. A run whose estimated peak cannot be had then fails at
/// once with `memory exhausted` (exit 1) instead of aborting with "memory
/// allocation of N bytes failed" part-way (issue 26).
///
/// # Errors
///
/// `memory exhausted: WHAT needs about X GB` when the reservation fails.
pub fn reserve(bytes: u64, what: impl FnOnce() -> String) -> anyhow::Result<()> {
    let mut probe: Vec<u8> = Vec::new();
    usize::try_from(bytes)
        .ok()
        .and_then(|b| probe.try_reserve_exact(b).ok())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "memory exhausted: {} needs about {:.2} GB",
                what(),
                bytes as f64 / 1e9
            )
        })
}
