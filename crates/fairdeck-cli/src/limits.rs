//! Runs over the work budget are refused before they start, with what would
//! be accepted, unless `--allow-long` is given (issue 15). The check is the
//! report layer's ([`fairdeck_report::budget`]), so every front end refuses
//! the same runs.

/// `--allow-long`, flattened into each subcommand whose work grows with its flags.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct LongArgs {
    /// Run even when the estimated work is over the budget of 10^10 steps
    /// (about a minute); without it such a run is refused before it starts.
    #[arg(long)]
    pub allow_long: bool,
}

impl LongArgs {
    /// The report layer's budget check ([`fairdeck_report::budget::check`])
    /// for a subcommand that has no request of its own: refuses `field`
    /// with what would be accepted.
    pub fn check(
        &self,
        field: fairdeck_report::Field,
        steps: u64,
        accepted: impl FnOnce(u64) -> fairdeck_report::Message,
    ) -> anyhow::Result<()> {
        Ok(fairdeck_report::budget::check(
            self.allow_long,
            field,
            steps,
            accepted,
        )?)
    }
}
