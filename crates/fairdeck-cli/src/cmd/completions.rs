//! `fairdeck completions`: a shell completion script, generated from the
//! command-line definition (clap_complete), so it never goes stale.

use std::io::Write;
use std::process::ExitCode;

use clap_complete::Shell;

use crate::output::Output;

/// Flags of `fairdeck completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Install, e.g.:\n  \
fairdeck completions bash > ~/.local/share/bash-completion/completions/fairdeck\n  \
fairdeck completions zsh > ~/.zfunc/_fairdeck\n  \
fairdeck completions fish > ~/.config/fish/completions/fairdeck.fish")]
pub struct Args {
    /// The shell: bash, zsh or fish.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: CompletionShell,
}

/// The shells fairdeck writes completions for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum CompletionShell {
    /// GNU Bash.
    Bash,
    /// Z shell.
    Zsh,
    /// fish.
    Fish,
}

/// Runs `fairdeck completions` for `cli`, the whole command-line definition.
pub fn run(args: &Args, out: &mut Output, cli: clap::Command) -> anyhow::Result<ExitCode> {
    let shell = match args.shell {
        CompletionShell::Bash => Shell::Bash,
        CompletionShell::Zsh => Shell::Zsh,
        CompletionShell::Fish => Shell::Fish,
    };
    // clap_complete panics on a write error ("failed to write completion
    // file"): build the script in memory (tens of KiB), then write it.
    let mut script = Vec::new();
    let mut cli = cli;
    clap_complete::generate(shell, &mut cli, "fairdeck", &mut script);
    out.stdout().write_all(&script)?;
    Ok(ExitCode::SUCCESS)
}
