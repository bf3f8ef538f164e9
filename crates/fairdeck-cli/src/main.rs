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
