//! `fairdeck`: shuffle, deal and sample with exactly uniform randomness.
//!
//! Flags are parsed by clap into one `Args` struct per subcommand
//! (`cmd/<name>.rs`), which validates them and runs; all output goes through
//! [`output::Output`]; errors are mapped to exit codes in [`failure`].

mod bench;
mod cli;
mod cmd;
mod failure;
mod output;
mod random;
mod shuf;
mod web;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return failure::clap_error(e),
    };
    let mut out = output::Output::new(cli.format);
    let result = cmd::run(&cli.command, &mut out).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(e) => failure::report(&e),
    }
}
