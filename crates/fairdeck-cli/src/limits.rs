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
