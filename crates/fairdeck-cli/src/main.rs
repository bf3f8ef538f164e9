//! `fairdeck`: shuffle, deal and sample with exactly uniform randomness.
//!
//! Flags are parsed by clap into one `Args` struct per subcommand
//! (`cmd/<name>.rs`), which validates them and runs; all output goes through
//! [`output::Output`]; errors are mapped to exit codes in [`failure`]. Run
//! under the name `shuf`, it is `fairdeck shuf` (GNU's messages and exit codes).

mod bench;
mod cli;
mod cmd;
mod failure;
mod limits;
mod output;
mod random;
mod signals;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Installed or linked as `shuf`, fairdeck is `fairdeck shuf`.
    let mut argv = std::env::args_os();
    if let Some(name) = argv.next().filter(|n| cmd::shuf::invoked_as_shuf(n)) {
        let args: Vec<_> = argv.collect();
        return cmd::shuf::main(&name.to_string_lossy(), &args);
    }
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        // --help, --version, `help`: text for stdout, whose write may fail.
        Err(e) if !e.use_stderr() => return help_or_version(&e),
        Err(e) => return failure::clap_error(e),
    };
    let mut out = output::Output::new(cli.format);
    let result = cli.command.run(&mut out).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(e) => failure::report(&e),
    }
}

/// Prints clap's help or version text through the output layer: a full
/// disk or a closed stdout is a write error (exit 1), as for any output.
fn help_or_version(text: &clap::Error) -> ExitCode {
    let mut out = output::Output::new(output::FormatChoice::Text);
    match out.clap_text(text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => failure::report(&e.into()),
    }
}
