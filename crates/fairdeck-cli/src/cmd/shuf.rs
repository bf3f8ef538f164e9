//! `fairdeck shuf`: a GNU `shuf`–compatible line shuffler (engine in `crate::shuf`).
//!
//! GNU's option grammar (abbreviated long options, `-n` repeated, exit code 1
//! for usage errors, shuf's own `--help`) differs from the other
//! subcommands', so clap hands every argument after `shuf` to our own parser.

use std::ffi::OsString;
use std::process::ExitCode;

use crate::output::Output;

/// The raw arguments of `fairdeck shuf` (see `fairdeck shuf --help`).
#[derive(Debug, clap::Args)]
#[command(disable_help_flag = true, disable_version_flag = true)]
pub struct Args {
    /// GNU shuf's arguments: `[OPTION]... [FILE]`, `-e [ARG]...` or `-i LO-HI`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub raw: Vec<OsString>,
}

/// Runs `fairdeck shuf`; output goes straight to standard output, not through `out`.
pub fn run(args: &Args, _out: &mut Output) -> anyhow::Result<ExitCode> {
    Ok(crate::shuf::main(&args.raw))
}
