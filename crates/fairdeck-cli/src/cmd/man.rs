//! `fairdeck man`: the manual page in roff, generated from the command-line
//! definition (clap_mangen), so it never goes stale. `fairdeck man | man -l -`
//! shows it; `fairdeck man deal` is the page of one subcommand.

use std::process::ExitCode;

use crate::failure::usage;
use crate::output::Output;

/// Flags of `fairdeck man`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Install: fairdeck man > ~/.local/share/man/man1/fairdeck.1\n         \
fairdeck man deal > ~/.local/share/man/man1/fairdeck-deal.1"
)]
pub struct Args {
    /// A subcommand's own page (fairdeck-SUBCOMMAND(1)) instead of fairdeck(1).
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Option<String>,
}

/// Runs `fairdeck man` for `cli`, the whole command-line definition.
pub fn run(args: &Args, out: &mut Output, cli: clap::Command) -> anyhow::Result<ExitCode> {
    let command = cli;
    let page = match &args.subcommand {
        None => command,
        Some(name) => {
            let sub = command
                .find_subcommand(name)
                .ok_or_else(|| usage(format!("no subcommand {name:?} (see `fairdeck help`)")))?;
            sub.clone()
                .name(format!("fairdeck-{}", sub.get_name()))
                .version(env!("CARGO_PKG_VERSION"))
        }
    };
    clap_mangen::Man::new(page).render(out.stdout())?;
    Ok(ExitCode::SUCCESS)
}
